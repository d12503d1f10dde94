"""One report of every number and word, built once; text, JSON and figures only format it.

A report is built once from the records and the inference results
(:func:`evaluation_report` for one estimator, :func:`comparison_report` for a
pair). :func:`render_text` writes it as terminal text, the command line's
``--json`` writes the dict itself and :func:`plot_report` draws it, so
``result.summary()``, the terminal, the JSON file and the figure always hold
the same numbers under the same names. :func:`summary_text` is what
``CVResult.summary()`` and ``PairedCVResult.summary()`` return.

Repeats follow one rule everywhere:

- Wong's per-partition tests (the matched-sample t, the independent-sample z
  and McNemar's test) assume one partition of the data, so with several
  repeats they are computed on repeat 0 and named "(repeat 0)";
- the accuracy intervals pool all repeats (with a warning, shown once, that
  the repeats are not independent);
- the corrected repeated cross-validation t (Nadeau & Bengio 2003), made for
  repeats, uses all of them and is named "corrected t (RxK-fold)".

Every number comes from the policy's assembler (:func:`~cvinference.policy.assess_record`,
:func:`~cvinference.policy.assess_pair`): the intervals, the tests, the decision and the checks (Wong's
large-sample conditions with the report's ``min_count``, the baseline test, the metrics' fold values, the scheme
diagnostic); a front-door answer hands over what it holds, and a bare record is assessed once when its report is
built. Nothing is re-derived here.

The records of intervals, tests, the diagnostic, the conditions and the
decision are fields of the results' ``to_dict()`` under their own names,
written plain (``_serialize.plain``: null for nan, lists for tuples), with
the few keys a report adds: no third shape of the same numbers.
"""

import dataclasses
import math
from typing import NamedTuple

import numpy as np

from .._utils._arrays import python_scalar
from .._utils._serialize import plain, plain_fields
from .._utils._text import (
    bounds_text,
    format_figure,
    format_level,
    format_pvalue,
    format_table,
    grouped_baseline_words,
    loss_words,
    wrapped,
)
from .._utils._warnings import ConditionsWarning, GroupedInstancesWarning, PooledRepeatsWarning, code_of
from ..inference import FTestResult
from ..policy import assess_pair, assess_record

REPORT_FORMAT = "cvinference.report"
"""The ``"format"`` of the report records (JSON) that :func:`evaluation_report` and :func:`comparison_report` build."""
REPORT_VERSION = 1
"""The ``"version"`` of those records' schema, in the JSON reports of ``evaluate``, ``compare`` and ``demo`` (1 from
the first release, 0.1.0)."""
WIDTH = 100
"""The width, in columns, at which the text reports wrap their long lines."""
IMBALANCE_FOR_A_METRIC = 10
"""Largest over smallest class count from which the report suggests a metric that sees the imbalance."""
TARGET_PHRASES = {
    "kfold": "the models fitted in the folds",
    "conditional": "the model fitted to all the data",
    "unconditional": "the learner, over datasets of the training size",
    "model": "the model as given (one evaluation set)",
    "forward": "the learner's forecasts, refitted at each origin",
}
"""Each target in a few words, for tables."""


def _number(value):
    """A JSON-safe float: nan and infinities become None (degrees of freedom are floats in the report's JSON)."""
    if value is None:
        return None
    value = float(value)
    return value if math.isfinite(value) else None


_INTERVAL_FIELDS = ("estimate", "low", "high", "confidence_level", "method", "averaging", "standard_error", "df",
                    "estimand", "target", "assumptions", "notes", "warnings")
"""An interval's row: fields of its ``to_dict()``, and of its ``details`` those that are not fields."""
_WORDS = ("estimand", "target", "assumptions", "notes", "warnings")


def interval_record(interval, name, quantity="accuracy"):
    """The report's row of an :class:`Interval`: its name, its quantity and fields of its ``to_dict()``.

    The fields are written as :func:`~cvinference._utils._serialize.plain`
    writes them: null for nan, lists for tuples.
    """
    written = plain(interval.to_dict())
    fields = {key: written[key] if key in written else written["details"][key] for key in _INTERVAL_FIELDS}
    details = interval.details or {}
    why = details.get("chosen_because")  # method="auto"'s reason where it left its default
    groups = details.get("n_groups")  # the groups it took as the independent units (a cluster-robust interval)
    return {"name": name, "quantity": quantity, **fields, "df": _number(fields["df"]),
            **({"chosen_because": why} if why else {}), **({"n_groups": groups} if groups else {}),
            "warnings": list(interval.warnings)}  # with their codes; JSON writes each as its text


def test_record(test, name, confidence_level):
    """The report's row of a :class:`TestResult`: fields of its ``to_dict()`` and of its interval's."""
    fields = plain_fields(test, ("method", "statistic", "df", "pvalue", "alternative", "estimate", *_WORDS))
    bounds = plain_fields(test.confidence_interval(confidence_level), ("low", "high"))
    df_denominator = plain_fields(test, ("df_denominator",)) if isinstance(test, FTestResult) else {}
    return {
        "name": name, "method": fields["method"], "statistic": fields["statistic"], "df": _number(fields["df"]),
        "df_denominator": _number(df_denominator.get("df_denominator")),
        **{key: fields[key] for key in ("pvalue", "alternative", "estimate")}, **bounds,
        "confidence_level": confidence_level,
        "conditions_hold": all(c.satisfied for c in test.conditions) if test.conditions else None,
        **{key: fields[key] for key in _WORDS}, "warnings": list(test.warnings),
    }


test_record.__test__ = False  # a report helper, not a pytest test


def _is_classifier(result):
    return result.classes is not None


def _folds_record(result, fold_metrics):
    """The per-fold arrays; ``metric_j`` (each metric's fold values, by name) only when metrics are asked for."""
    classifier = _is_classifier(result)
    record = {
        "fold": result.fold[0].tolist(), "m_j": result.fold_sizes.tolist(),
        "r_j": result.fold_correct.tolist() if classifier else None,
        "p_j": result.fold_accuracy.tolist() if classifier else None,
        "mean_loss_j": result.fold_mean_loss.tolist(),
    }
    if fold_metrics:
        record["metric_j"] = {name: [[_number(v) for v in row] for row in table]
                              for name, table in fold_metrics.items()}
    return record


def _conditions_record(conditions, min_count):
    """Wong's conditions (:func:`~cvinference.large_sample_conditions`, as the assembler found them), per repeat
    and fold."""
    fields = plain_fields(conditions, ("rule", "satisfied", "units_are_folds", "holds", "failing_folds", "counts"))
    return {"rule": fields["rule"], "min_count": min_count, "satisfied": fields["satisfied"],
            "description": conditions.describe(),
            **{key: fields[key] for key in ("units_are_folds", "holds", "failing_folds", "counts")}}


def _json_label(label):
    """A class label as JSON can hold it: itself when a str, bool, int or finite float, else its str."""
    label = python_scalar(label)
    plain = isinstance(label, (str, bool, int)) or (isinstance(label, float) and math.isfinite(label))
    return label if plain else str(label)


def _baseline_test(test):
    """On a grouped record (only then, so that the reports of ungrouped records keep their shape), the test that
    took the groups as the units, in words, and the number of groups."""
    if "n_groups" not in test.details:
        return {}
    return {"test": grouped_baseline_words(test.details["n_groups"]), "n_groups": test.details["n_groups"]}


def _mean_baseline_record(test, confidence_level):
    """The trivial regressor's loss (the training mean's, or median's) and the p-value of beating it: the CV-CLT's,
    or on a grouped record the cluster-robust t's."""
    if test is None:
        return None
    details = test.details
    return {"baseline": details["baseline"], "baseline_loss": details["baseline_loss"],
            "relative": _number(details["relative"]), "pvalue": _number(test.pvalue),
            "beats": bool(test.pvalue < 1 - confidence_level), **_baseline_test(test)}


def _baseline_record(result, test, confidence_level):
    """The no-information rate, its majority class and the p-value of accuracy > it: the exact binomial's, or on a
    grouped record the cluster-robust t's (``test``, the assembler's baseline test)."""
    if not _is_classifier(result):
        return _mean_baseline_record(test, confidence_level)
    details = test.details
    return {"no_information_rate": details["no_information_rate"],
            "majority_class": _json_label(details["majority_class"]), "pvalue": _number(test.pvalue),
            "beats": bool(test.pvalue < 1 - confidence_level), "imbalance_ratio": details["imbalance_ratio"],
            **_baseline_test(test)}


def estimator_record(result, description, confidence_level, assessment, *, min_count=5):
    """Accuracy, intervals, conditions, the no-information baseline and per-fold arrays of one estimator, read from
    its :class:`~cvinference.policy.RecordAssessment`."""
    classifier = _is_classifier(result)
    intervals, checks = assessment
    return {
        "description": description, "accuracy": result.accuracy if classifier else None,
        "n_correct": int(result.correct.sum()) if classifier else None, "n_tested": int(result.correct.size),
        "mean_loss": result.mean_loss, "loss": result.loss_name, "n_samples": result.n_samples,
        "n_splits": result.n_splits, "n_repeats": result.n_repeats,
        "intervals": [interval_record(found.interval, found.name, found.quantity) for found in intervals],
        "conditions": _conditions_record(checks.conditions, min_count) if classifier else None,
        "baseline": _baseline_record(result, checks.baseline, confidence_level),
        "folds": _folds_record(result, checks.fold_metrics),
    }


def _scheme(result):
    if result.n_splits == 1:
        scheme = ("holdout, " if result.n_train else "one test set (one fold), ") + (
            f"trained on {result.n_train} instances" if result.n_train else "no fold-level statistics")
    else:
        scheme = "leave-one-out" if result.is_loo else f"{result.n_splits}-fold cross-validation"
    return scheme + (f", {result.n_repeats} repeats" if result.n_repeats > 1 else "")


def _groups_record(result):
    """How many groups a grouped record holds and the smallest and largest group's instances."""
    sizes = np.unique(result.groups, return_counts=True)[1]
    return {"n_groups": int(sizes.size), "smallest": int(sizes.min()), "largest": int(sizes.max())}


def _header(result, data, confidence_level, min_count, command):
    header = {"format": REPORT_FORMAT, "version": REPORT_VERSION, "command": command,
              "data": {"name": None, "n_samples": result.n_samples} if data is None else data,
              "scheme": _scheme(result), "splitter": result.cv_repr, "confidence_level": confidence_level,
              "min_count": min_count}
    if result.groups is not None:  # only then, so that the reports of ungrouped records keep their shape
        header["groups"] = _groups_record(result)
    return header


def _grouped_caution(cautions):
    """The instance-level methods' warnings on a grouped record (code "grouped-instances"), as one sentence that
    names them all."""
    found = [c for c in cautions if code_of(c) == GroupedInstancesWarning.code]
    if not found:
        return cautions
    names = list(dict.fromkeys(c.fields["what"] for c in found))
    if len(names) == 1:
        listed, (counts, it, its) = names[0], ("counts", "it is", "its p-value")
    else:
        listed, (counts, it, its) = f"{', '.join(names[:-1])} and {names[-1]}", ("count", "they are", "their p-values")
    combined = (f"The result was made with groups ({found[0].fields['counts']}): {listed} {counts} every instance "
                f"as independent, but instances of one group are alike, so {it} too narrow (or {its} too small) when "
                f"they are (Cameron & Miller 2015, section I); {it} shown for comparison. The recommended interval "
                "and the decision take the groups as the independent units.")
    first = cautions.index(found[0])
    kept = [c for c in cautions if code_of(c) != GroupedInstancesWarning.code]
    return [*kept[:first], combined, *kept[first:]]


def _command_line_words(caution):
    """A warning as the command line says it: the hint of pooled repeats names its option, not ``repeat=``."""
    if code_of(caution) != PooledRepeatsWarning.code:
        return caution
    return caution.replace(caution.fields["hint"], "n_repeats=1 (--repeats 1) uses a single repeat.")


def _cautions(records, command_line):
    """The distinct warnings of every interval and test, but for failing conditions (shown elsewhere): each is
    recognised by its code."""
    cautions = (w for r in records for w in r["warnings"] if code_of(w) != ConditionsWarning.code)
    if command_line:
        cautions = map(_command_line_words, cautions)
    return _grouped_caution(list(dict.fromkeys(cautions)))


def evaluation_report(result, *, description, data, confidence_level=0.95, metrics=(), min_count=5,
                      command_line=True, pos_label=None, assessment=None):
    """The report of one estimator (``cvinference evaluate``, ``cvinference.evaluate``, ``CVResult.summary()``).

    Parameters
    ----------
    result : CVResult
        The learner's record.
    description : str
        The learner as the report names it.
    data : dict or None
        ``{"name", "n_samples"}``, or None (no name).
    confidence_level, metrics, min_count
        As in :func:`~cvinference.policy.estimator_intervals`.
    command_line : bool, default=True
        Words the repeat hint of the warnings for the front door (the
        ``n_repeats`` of ``cvinference.evaluate`` and ``compare``, and
        their ``--repeats``) instead of a record's functions.
    pos_label
        As in :func:`~cvinference.policy.estimator_intervals`.
    assessment : RecordAssessment or None, default=None
        What the assembler computed from ``result``
        (:func:`~cvinference.policy.assess_record`); None asks it now.
    """
    if assessment is None:
        assessment = assess_record(result, confidence_level, metrics=metrics, min_count=min_count,
                                   pos_label=pos_label)
    record = estimator_record(result, description, confidence_level, assessment, min_count=min_count)
    return {**_header(result, data, confidence_level, min_count, "evaluate"), "estimators": {"A": record},
            "tests": [], "diagnostic": None, "warnings": _cautions(record["intervals"], command_line),
            "verdict": _evaluation_verdict(record)}


def _diagnostic_record(diagnostic):
    fields = plain_fields(diagnostic, ("phi", "high", "note", "both_correct", "a_only", "b_only", "both_wrong"))
    return {"phi": fields.pop("phi"), "high": fields.pop("high"), "note": fields.pop("note"), "table": fields}


def comparison_report(pair, *, descriptions, data, confidence_level=0.95, extra_tests=(), metrics=(), min_count=5,
                      command_line=True, nested=None, names=None, pos_label=None, assessment=None):
    """The report of two estimators (``cvinference compare``/``demo``, ``cvinference.compare``,
    ``PairedCVResult.summary()``).

    The tests of :func:`pair_tests` come first, then ``extra_tests``. The
    decision (:func:`~cvinference.decide`) is about the first of
    ``metrics``, or accuracy.

    Parameters
    ----------
    pair : PairedCVResult
        Both learners' records.
    descriptions : tuple of str
        The learners as the report names them, A's first.
    data, confidence_level
        As in :func:`evaluation_report`.
    extra_tests : sequence of (str, TestResult), default=()
        Tests that needed fits of their own (5x2cv).
    metrics, min_count, command_line
        As in :func:`evaluation_report`.
    nested : Interval or None, default=None
        Nested cross-validation's interval of the difference, when run.
    names : tuple of str or None, default=None
        The learners' names.
    pos_label
        As in :func:`evaluation_report`.
    assessment : PairAssessment or None, default=None
        What the assembler computed from ``pair``
        (:func:`~cvinference.policy.assess_pair`: the intervals, the tests,
        the decision, the checks); None asks it now.
    """
    if assessment is None:
        assessment = assess_pair(pair, confidence_level, metrics=metrics, min_count=min_count, pos_label=pos_label,
                                 extra_tests=extra_tests, nested=nested, names=names)
    estimators = {label: estimator_record(result, description, confidence_level, learner, min_count=min_count)
                  for label, result, description, learner in zip(
                      "AB", (pair.a, pair.b), descriptions, zip(assessment.intervals, assessment.checks, strict=True),
                      strict=True)}
    records = [test_record(test, name, confidence_level) for name, test in assessment.tests]
    diagnostic = None if assessment.diagnostic is None else _diagnostic_record(assessment.diagnostic)
    intervals = [i for record in estimators.values() for i in record["intervals"]]
    return {**_header(pair.a, data, confidence_level, min_count, "compare"), "estimators": estimators,
            "tests": records, "diagnostic": diagnostic, "warnings": _cautions(intervals + records, command_line),
            "notes": _comparison_notes(records, diagnostic), "decision": decision_record(assessment.decision)}


def _summary_lines(decision):
    """The decision's summary lines: ``Decision.summary()`` without its last line (where the details are)."""
    return decision.summary().splitlines()[:-1]


def decision_record(decision):
    """The JSON's ``"decision"``: the fields of the :class:`~cvinference.results.Decision`'s ``to_dict()``, its
    paragraph (``"text"``), the lines the text report shows (``"summary"``: the answer, what it rests on, at most
    two notes) and everything else in words (``"explanation"``, ``Decision.explain()``).

    Its tests are written without their ``role`` (``rests_on`` or ``context`` says it).
    """
    record = plain_fields(decision, [field.name for field in dataclasses.fields(decision)])
    for test in [record["rests_on"], *record["context"]]:
        if test is not None:
            del test["role"]
    if decision.margin is not None:  # only then, so that the other decisions' records keep their shape
        record["margin_interval"] = plain(decision.margin_interval)
    return {**record, "text": decision.text, "summary": _summary_lines(decision), "explanation": decision.explain()}


_CONDITIONAL_CAVEAT = (
    "These numbers describe this dataset: the models were trained on parts of it and tested on the rest, "
    "so they estimate how well the learner does given these data, not how it would do on another dataset "
    "of the same size, whose variation one dataset cannot show (Vanwinckelen & Blockeel 2015)."
)
_SINGLE_SET_CAVEAT = (
    "These numbers describe the model that made these predictions, as it is: its error on the population the "
    "rows are drawn from (one evaluation set, so no training set varies here), not the learner that made it."
)


def _scope_caveat(record):
    """What the figures are about: this dataset's cross-validation, or one model on one evaluation set."""
    return _SINGLE_SET_CAVEAT if record.get("n_splits") == 1 else _CONDITIONAL_CAVEAT


def _regression_verdict(record):
    intervals = {interval["quantity"]: interval for interval in record["intervals"]}
    text = f"{loss_words(record['loss']).capitalize()} {format_figure(record['mean_loss'])}."
    cluster = next((interval for interval in record["intervals"]
                    if interval.get("n_groups") and interval["quantity"] == record["loss"]), None)
    if cluster is not None:  # a grouped record: the interval that takes the groups as the units
        text = (f"{text[:-1]}; with {format_level(cluster['confidence_level'])} confidence between "
                f"{format_figure(cluster['low'])} and {format_figure(cluster['high'])} ({cluster['method']} interval, "
                "the groups as units).")
    elif "r2" in intervals:
        r2 = intervals["r2"]
        text += (f" R² {r2['estimate']:.3f}; with {format_level(r2['confidence_level'])} confidence between "
                 f"{r2['low']:.3f} and {r2['high']:.3f} (CV-CLT interval).")
    baseline = record["baseline"]
    if baseline is not None and not baseline["beats"]:
        text = (f"Does not beat the trivial regressor: predicting the training {baseline['baseline']} gives "
                f"{loss_words(record['loss'])} {format_figure(baseline['baseline_loss'])}, and "
                f"{format_figure(record['mean_loss'])} is not below it ({format_pvalue(baseline['pvalue'])}, "
                f"{baseline.get('test', 'one-sided CV-CLT')}). {text}")
    return {"text": text, "caveats": [_scope_caveat(record)]}


def _evaluation_verdict(record):
    if record["accuracy"] is None:
        return _regression_verdict(record)
    chosen = record["intervals"][0]
    text = (f"Accuracy {chosen['estimate']:.1%}; with {format_level(chosen['confidence_level'])} confidence "
            f"between {chosen['low']:.1%} and {chosen['high']:.1%} ({chosen['method']} interval).")
    baseline = record["baseline"]
    if not baseline["beats"]:
        text = (f"Does not beat the no-information rate: always predicting {baseline['majority_class']!r} scores "
                f"{baseline['no_information_rate']:.1%}, and accuracy > {baseline['no_information_rate']:.1%} has "
                f"{format_pvalue(baseline['pvalue'])} ({baseline.get('test', 'one-sided exact binomial')}). {text}")
    caveats = [_scope_caveat(record)]
    if (not record["conditions"]["satisfied"] and not chosen.get("n_groups")  # the groups as units: no conditions
            and not chosen.get("chosen_because")):  # the evidence chose another: its block says why
        caveats.insert(0, "Wong's large-sample conditions fail in some folds, so the exact (Clopper-Pearson) "
                          "interval is the one to quote.")
    return {"text": text, "caveats": caveats}


def _phi_caveat(phi):
    if abs(phi) <= 0.1:
        return f"A and B's correctness is nearly uncorrelated (phi = {phi:.2f})."
    together, effect = ("right and wrong on the same instances", "conservative") if phi > 0 else (
        "right where the other is wrong", "anti-conservative")
    return (f"A and B tend to be {together} (phi = {phi:.2f}); the independent-sample z assumes their "
            f"correctness is independent (Wong's scheme independence), which makes it {effect} here.")


def _comparison_notes(records, diagnostic):
    """What the tests' table and the diagnostic mean for reading them (not the decision's caveats)."""
    if diagnostic is None:
        return [_CONDITIONAL_CAVEAT]
    notes = [] if diagnostic["phi"] is None else [_phi_caveat(diagnostic["phi"])]
    failing = [r["name"] for r in records if r["conditions_hold"] is False]
    if failing:
        notes.append(f"The large-sample conditions of {', '.join(failing)} fail (see the conditions column and "
                     "the per-fold table): their normal and t approximations are rough; McNemar's test does "
                     "not need them.")
    return notes + [_CONDITIONAL_CAVEAT]


def _total_text(record):
    mean_loss = f"mean {record['loss']} loss {format_figure(record['mean_loss'])}"
    if record["accuracy"] is None:
        return f"{loss_words(record['loss'])} {format_figure(record['mean_loss'])}"
    total = (f"accuracy {record['accuracy']:.4f} ({record['n_correct']} of {record['n_tested']} tested "
             "instances correct)")
    return total if record["loss"] == "zero_one" else f"{total}; {mean_loss}"


def _baseline_blocks(record):
    """The no-information rate and whether the accuracy beats it; a metric to use when the classes are skewed."""
    baseline = record["baseline"]
    if baseline is None:
        return []
    p = format_pvalue(baseline["pvalue"])
    if "season" in baseline:  # a forecaster's: the naive forecast from the same origins
        beats = "" if baseline["beats"] else "does not beat the "
        skill = "" if baseline["relative"] is None else f", skill 1 - loss / naive's {baseline['relative']:.3f}"
        return [Paragraph(f"{beats}{baseline['baseline']} forecast from the same origins: "
                          f"{loss_words(record['loss'])} {format_figure(baseline['baseline_loss'])}{skill}; below it: "
                          f"{p} ({baseline['test']})", "  ")]
    if record["accuracy"] is None:
        relative = "R² relative to it" if record["loss"] == "squared_error" else "relative reduction"
        beats = "" if baseline["beats"] else "does not beat the "
        return [Paragraph(f"{beats}trivial regressor (the training {baseline['baseline']} of y): "
                          f"{loss_words(record['loss'])} {format_figure(baseline['baseline_loss'])}, {relative} "
                          f"{baseline['relative']:.3f}; below it: {p} "
                          f"({baseline.get('test', 'one-sided CV-CLT')})", "  ")]
    rate = (f"no-information rate {baseline['no_information_rate']:.4f} "
            f"(always predicting {baseline['majority_class']!r})")
    if not baseline["beats"]:
        rate = f"does not beat the {rate}"
    # "binomial" is the exact test (one-sided: accuracy above the rate); the line fits 100 columns
    blocks = [Paragraph(f"{rate}; accuracy > NIR: {p} ({baseline.get('test', 'one-sided binomial')})", "  ")]
    metrics = {interval["quantity"] for interval in record["intervals"]} - {"accuracy", record["loss"]}
    if baseline["imbalance_ratio"] >= IMBALANCE_FOR_A_METRIC and not metrics:
        blocks.append(Paragraph(
            f"class imbalance {baseline['imbalance_ratio']:.1f}:1 (largest class over smallest): accuracy rewards "
            "predicting the majority class; a metric that sees the imbalance tells more: balanced_accuracy, f1 or "
            "matthews_corrcoef (metric_interval in Python, --metric on the command line)", "  "))
    return blocks


def _estimator_blocks(label, record):
    blocks = [Paragraph(f"{label}: {record['description']}" if record["description"] else label),
              Paragraph(_total_text(record), "  ", wrap=False), *_baseline_blocks(record)]
    rows = [[interval["name"], format_figure(interval["estimate"]), bounds_text(interval["low"], interval["high"]),
             interval["target"]] for interval in record["intervals"]]
    if rows:
        blocks.append(Table(["interval", "estimate", "bounds", "target"], rows, "  "))
    if rows and record["intervals"][0].get("chosen_because"):
        chosen = record["intervals"][0]
        blocks.append(Paragraph(f"recommended: {chosen['method']}, because {chosen['chosen_because']}", "  "))
    if record["conditions"] is not None:
        blocks.append(Paragraph(f"large-sample conditions: {record['conditions']['description']}", "  "))
    return blocks


def _df_text(record):
    """A test's degrees of freedom; an F test's as "numerator, denominator"."""
    df, denominator = record["df"], record["df_denominator"]
    if df is None:
        return ""
    return f"{df:.4g}" if denominator is None else f"{df:g}, {denominator:g}"


_SIDED_TITLE = {"two-sided": "2-sided p", "greater": "1-sided p", "less": "1-sided p"}
"""The title of the tests' p-value column when every test has one sidedness: as wide as its cells ("p = 0.002"),
so that the table keeps to 100 columns."""


def _pvalue_cell(record, sides):
    """A test's p-value; with its sidedness when the column's title does not say it (``sides`` None)."""
    p = format_pvalue(record["pvalue"])
    return p if sides is not None else f"{p} ({record['alternative']})"


def _role_line(tests, decision):
    """Which p-value of the tests' table answers the question (the one the decision rests on) and that the others
    are context."""
    rests_on = (decision or {}).get("rests_on")
    if decision is None:
        return []
    if rests_on is None:
        return [Paragraph("the decision rests on none of these tests (see below): their p-values are context")]
    row = next((t for t in tests if t["name"] == rests_on["name"] or (
        t["pvalue"] is not None and math.isclose(t["pvalue"], rests_on["pvalue"], rel_tol=1e-9)
        and math.isclose(t["estimate"], rests_on["estimate"], rel_tol=1e-9, abs_tol=1e-12))), None)
    if row is None:
        return [Paragraph(f"the decision rests on {rests_on['name']} (not in this table): these p-values are "
                          "context")]
    return [Paragraph(f"the decision rests on {row['name']}'s p-value; the others are context")]


def _test_blocks(records, loss=None, decision=None):
    sides = {record["alternative"] for record in records}
    sides = next(iter(sides)) if len(sides) == 1 else None
    rows = []
    for record in records:
        statistic = "n/a" if record["statistic"] is None else f"{record['statistic']:.4g}"
        rows.append([record["name"], statistic, _df_text(record), _pvalue_cell(record, sides),
                     format_figure(record["estimate"], signed=True),
                     bounds_text(record["low"], record["high"], signed=True),
                     {True: "hold", False: "FAIL", None: "not checked"}[record["conditions_hold"]]])
    header = ["test", "statistic", "df", "p-value" if sides is None else _SIDED_TITLE.get(sides, f"p ({sides})"),
              "A - B" if loss is None else "B - A", "interval", "conditions"]
    by_target = {}
    for record in records:
        by_target.setdefault(record["target"], []).append(record["name"])
    targets = "; ".join(f"{target} ({TARGET_PHRASES[target]}): {', '.join(names)}"
                        for target, names in by_target.items())
    title = ("tests of accuracy(A) = accuracy(B); A - B > 0 when A is more accurate" if loss is None else
             f"tests of {loss_words(loss)}(A) = {loss_words(loss)}(B); B - A > 0 when A's is lower")
    return [Paragraph(title, wrap=False), Table(header, rows), Paragraph(f"targets: {targets}"),
            *_role_line(records, decision)]


class Table(NamedTuple):
    """A table of a report: column titles and rows of text cells, drawn ``indent`` in (text) or as HTML."""

    header: list
    rows: list
    indent: str = ""


class Paragraph(NamedTuple):
    """Text of a report: wrapped at 100 columns in the text (``wrap=False``: one line as it is), a paragraph in
    HTML; ``items`` makes it a bulleted list after the text (each item wrapped as "- item")."""

    text: str
    indent: str = ""
    wrap: bool = True
    items: tuple = ()


GAP = Paragraph("", wrap=False)
"""The empty line between a report's sections (no HTML of its own)."""


def _fold_table(report, r):
    """Per-fold counts of repeat r, side by side, with whether Wong's conditions hold in each fold."""
    records = list(report["estimators"].items())
    first = records[0][1]
    label_of = {label: label if len(records) == 2 else "" for label, _ in records}
    header, columns = ["fold", "m_j"], [range(first["n_splits"]), first["folds"]["m_j"][r]]
    for label, record in records:
        folds = record["folds"]
        if record["accuracy"] is None:
            header.append(f"{record['loss']}_{label_of[label]}j")
            columns.append([format_figure(v) for v in folds["mean_loss_j"][r]])
        else:
            header += [f"r_{label_of[label]}j", f"p_{label_of[label]}j"]
            columns += [folds["r_j"][r], [f"{p:.4f}" for p in folds["p_j"][r]]]
    if len(records) == 2:
        key = "p_j" if first["accuracy"] is not None else "mean_loss_j"
        a, b = (record["folds"][key][r] for _, record in records)
        if key == "mean_loss_j":  # as the tests of a loss: B - A, positive when A is better
            a, b = b, a
        header.append("d_j" if key == "p_j" else "B - A")
        columns.append([format_figure(x - y, signed=True) for x, y in zip(a, b, strict=True)])
    if first["conditions"] is not None:
        holds = [all(cells) for cells in zip(*(record["conditions"]["holds"][r] for _, record in records), strict=True)]
        header.append(f"r_j, m_j - r_j >= {report['min_count']}")
        columns.append(["yes" if h else "NO" for h in holds])
    return Table(header, [[str(cell) for cell in row] for row in zip(*columns, strict=True)])


MAX_HORIZON_ROWS = 12
"""The most horizons a forward report's text shows, the first and the last half of them when there are more (its
JSON has them all)."""


def _horizon_table(report):
    """Per horizon of a forward report: the forecasts, each learner's mean loss (one learner: with its recommended
    interval), the naive forecast's and (two learners) the difference B - A with Diebold-Mariano's p-value."""
    records = report["estimators"]
    first = records["A"]
    pair = len(records) == 2
    loss = first["loss"]
    header = ["horizon", "forecasts", *([f"{loss} {label}" for label in records] if pair else [loss, "interval"]),
              "naive" if first["baseline"]["season"] is None else "seasonal naive",
              *(["B - A", "p (two-sided)"] if pair else [])]
    tests = report["forecasts"].get("horizon_tests", [])
    rows = []
    for i, row in enumerate(first["horizons"]):
        cells = [str(row["horizon"]), str(row["n_forecasts"])]
        if pair:
            cells += [format_figure(record["horizons"][i]["mean_loss"]) for record in records.values()]
        else:
            cells += [format_figure(row["mean_loss"]), bounds_text(row["low"], row["high"])]
        cells.append(format_figure(row["baseline_loss"]))
        if pair:
            cells += [format_figure(tests[i]["estimate"], signed=True), "n/a" if tests[i]["pvalue"] is None
                      else format_pvalue(tests[i]["pvalue"])]
        rows.append(cells)
    return header, rows


def _horizon_blocks(report):
    """The per-horizon table of a forward report, its middle rows left out past :data:`MAX_HORIZON_ROWS`."""
    header, rows = _horizon_table(report)
    test = report["forecasts"].get("horizon_test")  # what its p-values are (a report before issue 58: none)
    blocks = [Paragraph("per horizon" if test is None else f"per horizon ({test})", wrap=False)]
    if len(rows) <= MAX_HORIZON_ROWS:
        return [*blocks, Table(header, rows)]
    half = MAX_HORIZON_ROWS // 2
    return [*blocks, Table(header, rows[:half] + rows[-half:]),
            Paragraph(f"(horizons {rows[half][0]} to {rows[-half - 1][0]} left out: the JSON report has every "
                      "horizon)", wrap=False)]


def _fold_blocks(report, every_repeat):
    if "forecasts" in report:
        return _horizon_blocks(report)
    first = report["estimators"]["A"]
    if first["n_splits"] == first["n_samples"] and first["n_samples"] > 1:
        return []  # leave-one-out: a row per instance says nothing
    blocks = []
    for r in range(first["n_repeats"] if every_repeat else 1):
        title = f"per fold (repeat {r})" if first["n_repeats"] > 1 else "per fold"
        blocks += [*([GAP] if blocks else []), Paragraph(title, wrap=False), _fold_table(report, r)]
    return blocks


def _title(report):
    name = report["data"]["name"]
    return (f"{name + ': ' if name else ''}{report['data']['n_samples']} instances; {report['scheme']}; "
            f"{format_level(report['confidence_level'])} confidence")


def _groups_line(groups):
    """``grouped: 50 groups of 3-30 instances``: how many groups, and how many instances each holds.

    Examples
    --------
    >>> _groups_line({"n_groups": 50, "smallest": 3, "largest": 30})
    'grouped: 50 groups of 3-30 instances'
    >>> _groups_line({"n_groups": 1, "smallest": 1, "largest": 1})
    'grouped: 1 group of 1 instance'
    """
    n, smallest, largest = groups["n_groups"], groups["smallest"], groups["largest"]
    sizes = f"{smallest}-{largest} instances" if smallest < largest else f"{smallest} instance{'s' * (smallest > 1)}"
    return f"grouped: {n} group{'s' * (n > 1)} of {sizes}"


def _evaluation_plan_line(plan):
    """An evaluation's plan in one line: its fits and the half-width planned for its recommended interval."""
    cost = f"plan: {plan['fits']:,} fits ({plan['n_repeats']} x {plan['n_splits']}-fold)"
    if plan["half_width"] is None:
        return f"{cost}; no half-width known before the fits"
    source = "the calibration's cells" if plan["source"] == "calibration" else "the pilot"
    return f"{cost}; the recommended interval's half-width was planned at {plan['half_width']:.4f} from {source}"


def report_blocks(report, *, every_repeat=False):
    """The report as a sequence of :class:`Paragraph` and :class:`Table` blocks, which :func:`render_text` and
    :func:`render_html` draw; ``every_repeat`` gives every repeat's folds, not just repeat 0's."""
    blocks = [Paragraph(_title(report))]
    if report.get("groups"):
        blocks.append(Paragraph(_groups_line(report["groups"]), wrap=False))
    if report["data"].get("time_column"):
        data = report["data"]
        blocks.append(Paragraph(f"time: {data['time_column']}, {data['first_time']} to {data['last_time']} (the rows "
                                "in time order)", wrap=False))
    if report["splitter"]:
        repeats = report["estimators"]["A"]["n_repeats"]
        which = "splitter" if repeats == 1 else f"splitter, repeat 0 of {repeats}"
        blocks += [GAP, Paragraph(f"{which}: {report['splitter']}")]
    folds = _fold_blocks(report, every_repeat)
    if folds:
        blocks += [GAP, *folds]
    for label, record in report["estimators"].items():
        blocks += [GAP, *_estimator_blocks(label, record)]
    if report["tests"]:
        first = report["estimators"]["A"]
        blocks += [GAP, *_test_blocks(report["tests"], None if first["accuracy"] is not None else first["loss"],
                                      report.get("decision"))]
    if report["diagnostic"] is not None:
        blocks.append(Paragraph(f"scheme independence: {report['diagnostic']['note']}"))
    if "plan" in report and "decision" not in report:  # an evaluation's plan (a comparison's is in its notes)
        blocks += [GAP, Paragraph(_evaluation_plan_line(report["plan"]))]
    if report["warnings"]:
        blocks += [GAP, Paragraph("warnings:", wrap=False, items=tuple(report["warnings"]))]
    if report.get("notes"):
        blocks += [GAP, Paragraph("notes:", wrap=False, items=tuple(report["notes"]))]
    if "decision" in report:
        blocks += [GAP, *_decision_blocks(report["decision"])]
    else:
        blocks += [GAP, Paragraph(f"verdict: {report['verdict']['text']}", items=tuple(report["verdict"]["caveats"]))]
    return blocks


def _text_lines(block):
    if isinstance(block, Table):
        return [block.indent + line for line in format_table(block.header, block.rows).splitlines()]
    lines = wrapped(block.text, block.indent) if block.wrap else [block.indent + block.text]
    return lines + [line for item in block.items for line in wrapped(f"- {item}", block.indent)]


def render_text(report, *, every_repeat=False):
    """The report as text, at most 100 columns wide.

    Parameters
    ----------
    report : dict
        A report of :func:`evaluation_report`, :func:`comparison_report` or
        their forward validation versions.
    every_repeat : bool, default=False
        Show every repeat's folds, not just repeat 0's.
    """
    return "\n".join(line for block in report_blocks(report, every_repeat=every_repeat) for line in _text_lines(block))


DETAILS = 'details: .decision.explain() in Python; the "explanation" of the --json report\'s "decision"'
"""The last line of a report's decision: where the rest of it is (the summary and the command line show the same
text)."""


def _decision_blocks(decision):
    """The decision in at most five lines (``Decision.summary()`` and
    :data:`DETAILS`)."""
    first, *rest = decision["summary"]
    return [Paragraph(first), *(Paragraph(line, "  ") for line in [*rest, DETAILS])]


def summary_text(subject):
    """The text of ``CVResult.summary()`` or ``PairedCVResult.summary()``: the report of the record.

    Parameters
    ----------
    subject : CVResult or PairedCVResult
        The record, of one learner or two.

    Returns
    -------
    str
        :func:`render_text` of :func:`evaluation_report` (one result) or
        :func:`comparison_report` (a pair), with every repeat's folds.
    """
    return render_text(record_report(subject), every_repeat=True)


def record_report(subject, *, confidence_level=0.95, nested=None):
    """The report of a record as Python shows it (``summary()``, ``plot()``): no data name, library wording.

    Parameters
    ----------
    subject : CVResult or PairedCVResult
        The record, of one learner or two.
    confidence_level : float, default=0.95
        The level of the report's intervals and tests.
    nested : Interval or None, default=None
        A pair's nested cross-validation difference interval
        (``nested_cv_interval(..., estimator_b=...)``), which the decision
        may rest on.

    Returns
    -------
    dict
        :func:`comparison_report` of a pair, else :func:`evaluation_report`.
    """
    if hasattr(subject, "a"):
        return comparison_report(subject, descriptions=(learner_text(subject.a), learner_text(subject.b)),
                                 data=None, confidence_level=confidence_level, command_line=False, nested=nested)
    return evaluation_report(subject, description=learner_text(subject), data=None,
                             confidence_level=confidence_level, command_line=False)


def learner_text(result):
    """How a summary names a record's learner: its name, then its description when that differs.

    Examples
    --------
    >>> from cvinference import CVResult
    >>> result = CVResult([0, 1], [0, 1], [0, 1], name="tuned tree", estimator_repr="DecisionTreeClassifier()")
    >>> learner_text(result)
    'tuned tree: DecisionTreeClassifier()'
    """
    name, description = result.name, result.estimator_repr
    if name is None or name == description:
        return description
    return name if description is None else f"{name}: {description}"
