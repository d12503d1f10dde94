"""Reports of the command line: one dict of every number, rendered as text or written as JSON.

A report is built once from the results (:func:`evaluation_report`,
:func:`comparison_report`); :func:`render_text` and the command line's JSON writer only
format it, so the terminal and the JSON file always hold the same numbers.
"""

import math
import re

from .._utils._text import bounds_text, format_level, format_pvalue, format_table, wrapped
from .._utils._warnings import quietly
from ..inference import accuracy_interval, independent_sample_test, loss_interval, matched_sample_test, mcnemar_test, metric_interval
from ..inference._estimands import CONDITIONS_FAIL

REPORT_FORMAT = "cvinference.report"
REPORT_VERSION = 1
WIDTH = 100


def _number(value):
    """A JSON-safe float: nan and infinities become None."""
    if value is None:
        return None
    value = float(value)
    return value if math.isfinite(value) else None


def interval_record(interval, name, quantity="accuracy"):
    """The numbers and words of an :class:`Interval`, JSON-safe."""
    return {
        "name": name, "quantity": quantity, "estimate": _number(interval.estimate), "low": _number(interval.low),
        "high": _number(interval.high), "confidence_level": interval.confidence_level,
        "method": interval.method, "averaging": interval.averaging,
        "standard_error": _number(interval.standard_error), "df": _number(interval.df),
        "estimand": interval.estimand, "assumptions": interval.assumptions,
        "notes": list(interval.notes), "warnings": list(interval.warnings),
    }


def test_record(test, name, confidence_level):
    """The numbers and words of a :class:`TestResult` and its interval, JSON-safe."""
    interval = test.confidence_interval(confidence_level)
    return {
        "name": name, "method": test.method, "statistic": _number(test.statistic), "df": _number(test.df),
        "df_denominator": _number(getattr(test, "df_denominator", None)),
        "pvalue": _number(test.pvalue), "alternative": test.alternative, "estimate": _number(test.estimate),
        "low": _number(interval.low), "high": _number(interval.high), "confidence_level": confidence_level,
        "conditions_hold": all(c.satisfied for c in test.conditions) if test.conditions else None,
        "estimand": test.estimand, "assumptions": test.assumptions,
        "notes": list(test.notes), "warnings": list(test.warnings),
    }


test_record.__test__ = False  # a report helper, not a pytest test


def _folds_record(result):
    return {
        "fold": result.fold[0].tolist(),
        "m_j": result.fold_sizes.tolist(), "r_j": result.fold_correct.tolist(),
        "p_j": result.fold_accuracy.tolist(), "mean_loss_j": result.fold_mean_loss.tolist(),
    }


def _conditions_record(result):
    conditions = result.large_sample_conditions()
    return {"rule": conditions.rule, "satisfied": conditions.satisfied, "description": conditions.describe(),
            "failing_folds": list(conditions.failing_folds),
            "counts": {name: value.tolist() for name, value in conditions.counts.items()}}


def estimator_record(result, description, confidence_level, *, metrics=()):
    """Accuracy, intervals, conditions and per-fold arrays of one estimator."""
    intervals = [
        interval_record(quietly(accuracy_interval, result, confidence_level), "recommended (method='auto')"),
        interval_record(quietly(accuracy_interval, result, confidence_level, method="normal"),
                        "dataset level, normal (Wong Theorem 1)"),
        interval_record(quietly(accuracy_interval, result, confidence_level, method="wilson"), "Wilson"),
        interval_record(quietly(accuracy_interval, result, confidence_level, method="clopper-pearson"),
                        "Clopper-Pearson (exact)"),
    ]
    if result.n_splits >= 2 and not result.is_loo:
        intervals.insert(2, interval_record(
            quietly(accuracy_interval, result, confidence_level, averaging="fold", method="t"),
            "fold level, t (Wong 4.3.3)"))
    if result.loss_name != "zero_one":
        intervals.append(interval_record(quietly(loss_interval, result, confidence_level),
                                         f"mean {result.loss_name}, half-sample (Nedel'ko)", result.loss_name))
    if metrics:
        intervals += [interval_record(quietly(metric_interval, result, metric, confidence_level),
                                      f"{metric}, fold level t", metric) for metric in metrics]
    return {
        "description": description, "accuracy": result.accuracy, "mean_loss": result.mean_loss,
        "loss": result.loss_name, "n_samples": result.n_samples, "n_splits": result.n_splits,
        "n_repeats": result.n_repeats, "intervals": intervals, "conditions": _conditions_record(result),
        "folds": _folds_record(result),
    }


def _scheme(result):
    repeats = f", {result.n_repeats} repeats" if result.n_repeats > 1 else ""
    return ("leave-one-out" if result.is_loo else f"{result.n_splits}-fold cross-validation") + repeats


def evaluation_report(result, *, description, data, confidence_level=0.95, metrics=()):
    """The report of ``cvinference evaluate``: one estimator's intervals and conditions."""
    return {
        "format": REPORT_FORMAT, "version": REPORT_VERSION, "command": "evaluate", "data": data,
        "scheme": _scheme(result), "confidence_level": confidence_level,
        "estimators": {"A": estimator_record(result, description, confidence_level, metrics=metrics)},
        "tests": [], "diagnostic": None, "verdict": _evaluation_verdict(result, confidence_level),
    }


def comparison_report(pair, *, descriptions, data, confidence_level=0.95, extra_tests=(), metrics=()):
    """The report of ``cvinference compare``/``demo``: both estimators and every applicable test.

    ``extra_tests`` holds (name, TestResult) pairs computed elsewhere (the
    corrected repeated-CV t, 5x2cv), which need their own fits.
    """
    a, b = pair.a, pair.b
    repeat = None if a.n_repeats == 1 else 0
    suffix = "" if repeat is None else " (repeat 0)"
    tests = [(f"matched-sample t{suffix}", quietly(matched_sample_test, a, b, repeat=repeat)),
             (f"independent-sample z{suffix}", quietly(independent_sample_test, a, b, repeat=repeat)),
             (f"McNemar{suffix}", quietly(mcnemar_test, a, b, repeat=repeat)), *extra_tests]
    records = [test_record(test, name, confidence_level) for name, test in tests]
    diagnostic = tests[0][1].diagnostic
    return {
        "format": REPORT_FORMAT, "version": REPORT_VERSION, "command": "compare", "data": data,
        "scheme": _scheme(a), "confidence_level": confidence_level,
        "estimators": {label: estimator_record(result, description, confidence_level, metrics=metrics)
                       for label, result, description in (("A", a, descriptions[0]), ("B", b, descriptions[1]))},
        "tests": records,
        "diagnostic": None if diagnostic is None else {
            "phi": _number(diagnostic.phi), "high": diagnostic.high, "note": diagnostic.note,
            "table": {"both_correct": diagnostic.both_correct, "a_only": diagnostic.a_only,
                      "b_only": diagnostic.b_only, "both_wrong": diagnostic.both_wrong}},
        "verdict": _comparison_verdict(records, pair, confidence_level),
    }


_CONDITIONAL_CAVEAT = (
    "These numbers describe this dataset: the models were trained on parts of it and tested on the rest, "
    "so they estimate how well the learner does given these data, not how it would do on another dataset "
    "of the same size, whose variation one dataset cannot show (Vanwinckelen & Blockeel 2015)."
)


def _evaluation_verdict(result, confidence_level):
    chosen = quietly(accuracy_interval, result, confidence_level)
    text = (f"Accuracy {chosen.estimate:.1%}; with {format_level(confidence_level)} confidence between "
            f"{chosen.low:.1%} and {chosen.high:.1%} ({chosen.method} interval).")
    caveats = [_CONDITIONAL_CAVEAT]
    if not chosen.conditions.satisfied:
        caveats.insert(0, "Wong's large-sample conditions fail in some folds, so the exact (Clopper-Pearson) "
                          "interval is the one to quote.")
    return {"text": text, "caveats": caveats}


def _comparison_verdict(records, pair, confidence_level):
    alpha = 1 - confidence_level
    rejecting = [r["name"] for r in records if r["pvalue"] is not None and r["pvalue"] < alpha]
    others = [r["name"] for r in records if r["name"] not in rejecting]
    difference = pair.a.accuracy - pair.b.accuracy
    better, worse = ("A", "B") if difference > 0 else ("B", "A")
    pooled = f", all {pair.a.n_repeats} repeats" if pair.a.n_repeats > 1 else ""
    points = f"{100 * abs(difference):.1f} percentage points{pooled and f' ({pooled[2:]})'}"
    reliable_records = [r for r in records if r["name"].startswith(("McNemar", "5x2cv"))]
    reliable = "; ".join(f"{r['name']} {format_pvalue(r['pvalue'])}" for r in reliable_records)
    reliable_names = " and ".join(dict.fromkeys("McNemar's test" if r["name"].startswith("McNemar") else "5x2cv"
                                                for r in reliable_records))
    if not rejecting:
        text = (f"No test finds a difference at the {alpha:g} level: the accuracies differ by "
                f"{points}, which is within what chance gives on this dataset.")
    elif not others:
        text = (f"{better} is more accurate than {worse} by {points}; every test finds the "
                f"difference at the {alpha:g} level.")
    else:
        text = (f"{better} is more accurate than {worse} by {points}. {len(rejecting)} of "
                f"{len(records)} tests find the difference at the {alpha:g} level ({', '.join(rejecting)}); "
                f"{', '.join(others)} {'does' if len(others) == 1 else 'do'} not.")
    if difference == 0 and rejecting:
        text = f"A and B are equally accurate overall, yet {', '.join(rejecting)} find a difference; treat it as noise."
    elif rejecting and reliable:
        confirmed = any(r["name"] in rejecting for r in reliable_records)
        text += (f" Dietterich (1998) found {reliable_names} to raise few false alarms: {reliable}"
                 + ("." if confirmed else "; they do not confirm the difference, so treat it as unproven."))
    caveats = []
    phi = pair.scheme_diagnostic(repeat=0 if pair.a.n_repeats > 1 else None).phi
    if not math.isnan(phi):
        if abs(phi) <= 0.1:
            caveats.append(f"A and B's correctness is nearly uncorrelated (phi = {phi:.2f}).")
        else:
            together, effect = ("right and wrong on the same instances", "conservative") if phi > 0 else (
                "right where the other is wrong", "anti-conservative")
            caveats.append(
                f"A and B tend to be {together} (phi = {phi:.2f}); the independent-sample z assumes their "
                f"correctness is independent (Wong's scheme independence), which makes it {effect} here.")
    failing = [r["name"] for r in records if r["conditions_hold"] is False]
    if failing:
        caveats.append(f"The large-sample conditions of {', '.join(failing)} fail (see the conditions column and "
                       "the per-fold table): their normal and t approximations are rough; McNemar's test does "
                       "not need them.")
    caveats.append(_CONDITIONAL_CAVEAT)
    return {"text": text, "caveats": caveats}


def _estimator_lines(label, record):
    lines = wrapped(f"{label}: {record['description']}")
    lines += [f"  accuracy {record['accuracy']:.4f} ({record['n_samples']} instances)"]
    rows = [[interval["name"], f"{interval['estimate']:.4f}", bounds_text(interval["low"], interval["high"])]
            for interval in record["intervals"]]
    lines += ["  " + line for line in format_table(["interval", "estimate", "bounds"], rows).splitlines()]
    lines += wrapped(f"large-sample conditions: {record['conditions']['description']}", "  ")
    return lines


def _test_lines(records):
    rows = []
    for record in records:
        df, df_denominator = record["df"], record["df_denominator"]
        df = "" if df is None else (f"{df:.4g}" if df_denominator is None else f"{df:g}, {df_denominator:g}")
        statistic = "n/a" if record["statistic"] is None else f"{record['statistic']:.4g}"
        rows.append([record["name"], statistic, df, format_pvalue(record["pvalue"]),
                     f"{record['estimate']:+.4f}", bounds_text(record["low"], record["high"], signed=True),
                     {True: "hold", False: "FAIL", None: "not checked"}[record["conditions_hold"]]])
    header = ["test", "statistic", "df", "p-value", "A - B", "interval", "conditions"]
    return ["tests of accuracy(A) = accuracy(B); A - B > 0 when A is more accurate",
            *format_table(header, rows).splitlines()]


def _fold_lines(report):
    """Per-fold counts of repeat 0, side by side, with whether Wong's conditions hold in each fold."""
    records = list(report["estimators"].items())
    first = records[0][1]["folds"]
    if len(first["m_j"][0]) == first["m_j"][0].count(1) and len(first["m_j"][0]) > 1:
        return []  # leave-one-out: a row per instance says nothing
    header, columns = ["fold", "m_j"], [range(len(first["m_j"][0])), first["m_j"][0]]
    holds = [True] * len(first["m_j"][0])
    for label, record in records:
        m, r = record["folds"]["m_j"][0], record["folds"]["r_j"][0]
        label = label if len(records) == 2 else ""
        header += [f"r_{label}j", f"p_{label}j"]
        columns += [r, [f"{p:.4f}" for p in record["folds"]["p_j"][0]]]
        holds = [h and r_j >= 5 and m_j - r_j >= 5 for h, r_j, m_j in zip(holds, r, m)]
    if len(records) == 2:
        a, b = (record["folds"]["p_j"][0] for _, record in records)
        header.append("d_j")
        columns.append([f"{x - y:+.4f}" for x, y in zip(a, b)])
    header.append("r_j, m_j - r_j >= 5")
    columns.append(["yes" if h else "NO" for h in holds])
    rows = [[str(cell) for cell in row] for row in zip(*columns)]
    repeat = " (repeat 0)" if first["m_j"] and len(first["m_j"]) > 1 else ""
    return [f"per fold{repeat}", *format_table(header, rows).splitlines()]


def _report_warnings(report):
    """The distinct warnings of every interval and test, but for failing conditions (shown elsewhere)."""
    records = [i for e in report["estimators"].values() for i in e["intervals"]] + report["tests"]
    cautions = (re.sub(r"Pass repeat=0( \.\. \d+)? to use one repeat\.", "--repeats 1 uses a single repeat.", w)
                for r in records for w in r["warnings"] if not w.startswith(CONDITIONS_FAIL))
    return list(dict.fromkeys(cautions))


def render_text(report):
    """The report as terminal text, at most 100 columns wide."""
    lines = wrapped(f"{report['data']['name']}: {report['data']['n_samples']} instances; {report['scheme']}; "
                     f"{format_level(report['confidence_level'])} confidence")
    folds = _fold_lines(report)
    if folds:
        lines += ["", *folds]
    for label, record in report["estimators"].items():
        lines += ["", *_estimator_lines(label, record)]
    if report["tests"]:
        lines += ["", *_test_lines(report["tests"])]
    if report["diagnostic"] is not None:
        lines += wrapped(f"scheme independence: {report['diagnostic']['note']}")
    cautions = _report_warnings(report)
    if cautions:
        lines += ["", "warnings:", *(line for caution in cautions for line in wrapped(f"- {caution}"))]
    lines += ["", *wrapped(f"verdict: {report['verdict']['text']}")]
    for caveat in report["verdict"]["caveats"]:
        lines += wrapped(f"- {caveat}")
    return "\n".join(lines)
