"""Text sections of intervals and tests for the results' ``summary()``."""


from .._utils._text import bounds_text, format_level, format_pvalue, format_table, wrapped
from .._utils._warnings import quietly
from ..inference import accuracy_interval, independent_sample_test, matched_sample_test, mcnemar_test
from ..inference._estimands import AUTO_NOTE, CONDITIONS_FAIL


def _unique(messages):
    return list(dict.fromkeys(messages))


def _messages_block(results):
    """Notes and warnings not already shown by the tables' method and conditions columns."""
    notes = _unique(note for result in results for note in result.notes if not note.startswith(AUTO_NOTE))
    cautions = _unique(warning for result in results for warning in result.warnings
                       if not warning.startswith(CONDITIONS_FAIL))
    texts = [f"note: {note}" for note in notes] + [f"warning: {warning}" for warning in cautions]
    return [line for text in texts for line in wrapped(text)]


def _condition_counts(conditions):
    if conditions.satisfied:
        return "hold"
    if not conditions.units_are_folds:
        return "FAIL"
    failing = int((~conditions.holds).sum())
    return f"FAIL ({failing} of {conditions.holds.size} folds)"


def _failing_where(name, conditions):
    where = f"for {name} " if name else ""
    if not conditions.units_are_folds:
        return where.strip() or "for the whole vector"
    return f"{where}in folds {list(conditions.failing_folds)}"


def interval_lines(named_results, confidence_level=0.95):
    """A table of the recommended and the fold-level interval, one row per result."""
    rows, intervals, failing = [], [], []
    for name, result in named_results:
        chosen = quietly(accuracy_interval, result, confidence_level)
        fold_cells = ["n/a", "(one fold)"]
        intervals.append(chosen)
        if result.n_splits >= 2:
            fold = quietly(accuracy_interval, result, confidence_level, averaging="fold", method="t")
            fold_cells = [f"{fold.estimate:.4f}", bounds_text(fold.low, fold.high)]
            intervals.append(fold)
        rows.append([name, f"{chosen.estimate:.4f}", bounds_text(chosen.low, chosen.high), chosen.method,
                     *fold_cells, _condition_counts(chosen.conditions)])
        if not chosen.conditions.satisfied:
            failing.append(_failing_where(name, chosen.conditions))
    level = format_level(confidence_level)
    header = ["", "accuracy", f"{level} interval", "method", "fold mean", f"fold-level t {level}", "conditions"]
    table = format_table(header, rows)
    if not named_results[0][0]:
        table = "\n".join(line[2:] for line in table.splitlines())
    lines = [f"{level} intervals: method='auto' (Wong 2015, Theorem 1) and the fold-level t (section 4.3.3)", table]
    if failing:
        exact = "the exact interval" + (" and McNemar's test do" if len(named_results) > 1 else " does")
        lines += wrapped(
            f"The large-sample conditions ({chosen.conditions.rule}) fail {'; '.join(failing)}. "
            f"Normal and t approximations may be poor there; {exact} not need them."
        )
    return lines, intervals


def comparison_tests(pair):
    """Every test that applies to a paired result, as (label, result), quietly computed."""
    a, b = pair.a, pair.b
    repeat = None if a.n_repeats == 1 else 0
    mcnemar = quietly(mcnemar_test, a, b, repeat=repeat)
    tests = [(None, quietly(independent_sample_test, a, b))]
    if a.n_splits >= 2:
        tests = [(None, quietly(matched_sample_test, a, b)), *tests,
                 (None, quietly(independent_sample_test, a, b, method="t"))]
    return tests + [(None if repeat is None else f"{mcnemar.method} (repeat 0)", mcnemar)]


def _test_conditions(test):
    if not test.conditions:
        return "none needed"
    return "hold" if all(c.satisfied for c in test.conditions) else "FAIL"


def comparison_lines(labelled_tests):
    """A side-by-side table of tests of accuracy(A) - accuracy(B)."""
    rows = []
    for label, test in labelled_tests:
        low, high = test.confidence_interval()
        df = "" if test.df is None else f"{test.df:.4g}"
        rows.append([label or test.method, f"{test.statistic:.4g}", df, format_pvalue(test.pvalue),
                     f"{test.estimate:+.4f}", bounds_text(low, high, signed=True),
                     _test_conditions(test)])
    header = ["test", "statistic", "df", "p-value", "A - B", "95% interval", "conditions"]
    lines = ["tests of accuracy(A) = accuracy(B) (two-sided; A - B > 0 when A is more accurate)",
             format_table(header, rows)]
    diagnostic = labelled_tests[0][1].diagnostic
    if diagnostic is not None:
        lines += wrapped(f"scheme independence: {diagnostic.note}")
    return lines


def single_summary_lines(result):
    """Interval lines for one classifier's result."""
    lines, intervals = interval_lines([("", result)])
    return lines + _messages_block(intervals)


def paired_summary_lines(pair):
    """Interval and test lines for a paired result."""
    interval_text, intervals = interval_lines([("A", pair.a), ("B", pair.b)])
    labelled_tests = comparison_tests(pair)
    tests = [test for _, test in labelled_tests]
    return interval_text + comparison_lines(labelled_tests) + _messages_block(intervals + tests)
