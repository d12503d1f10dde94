"""benchmarks/calibration_report.py: the evidence file it writes is what the library reads, and its choices.

The payload is a small hand-made run whose right answers are worked out in
the comments: a method "falls short" in a cell when its 95% Wilson interval
stays below 0.93 (nominal 0.95 - 0.02, the issue's floor).
"""

import importlib.util
import json
import pathlib
import sys

import numpy as np
import pytest

from cvinference.policy import _evidence

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _benchmark(name, file):
    """A benchmark script as a module, its siblings importable as when it is run as a script."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / file)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    return module


@pytest.fixture(scope="module")
def report():
    return _benchmark("calibration_report", "calibration_report.py")


def _row(method, measured, high, *, target="kfold", learner="tree", n=100, quantity="coverage"):
    return {"method": method, "quantity": quantity, "target": target, "learner": learner, "n": n,
            "population": "nonlinear", "nominal": 0.95 if quantity == "coverage" else 0.05,
            "measured": measured, "mc_se": 0.01, "wilson_low": measured - 0.02, "wilson_high": high,
            "replications": 500, "mean_width": 0.2, "truth": 0.8}


PAYLOAD = {"command": "python benchmarks/calibration.py", "mode": "full", "seconds": 600.0, "n_jobs": 2,
           "rows": [
               # wilson falls short at N = 100 (0.925 < 0.93), so it is not recommended although it is
               # closer to nominal at N = 300.
               _row("wilson", 0.90, 0.925), _row("wilson", 0.95, 0.97, n=300),
               # nested-cv holds in both cells: its worst deviation is |0.97 - 0.95| = 0.02.
               _row("nested-cv", 0.96, 0.975), _row("nested-cv", 0.97, 0.98, n=300),
               # conservative-z holds too, but deviates by 0.04 at N = 300.
               _row("conservative-z", 0.95, 0.965), _row("conservative-z", 0.99, 0.995, n=300),
               # conditional: nothing holds; the best of those measured has the highest worst cell (0.91).
               _row("wilson", 0.85, 0.88, target="conditional"), _row("nested-cv", 0.91, 0.928, target="conditional"),
               _row("conservative-z (n_train)", 0.95, 0.97, target="unconditional"),
               _row("matched-sample t", 0.12, 0.15, quantity="type_i"),
               _row("corrected t", 0.04, 0.06, quantity="type_i"),
               _row("matched-sample t", 0.40, 0.44, quantity="power"),
           ]}


def test_the_recommended_method_holds_in_every_cell_and_is_closest_to_nominal(report):
    method, cells, holds = report.recommended(PAYLOAD["rows"], "kfold")
    assert (method, holds) == ("nested-cv", True)
    assert sorted(row["n"] for row in cells) == [100, 300]


def test_the_pooled_intervals_of_repeats_are_not_recommended_for_a_single_result(report):
    # "wilson (10 repeats)" is closer to nominal than nested-cv (0.95 against 0.96 and 0.97) in both
    # cells, but it answers for a 10 x 10-fold result, so the recommendation stays nested-cv.
    rows = PAYLOAD["rows"] + [_row("wilson (10 repeats)", 0.95, 0.97), _row("wilson (10 repeats)", 0.95, 0.97, n=300)]
    assert report.recommended(rows, "kfold")[0] == "nested-cv"


def test_where_nothing_holds_the_best_measured_method_is_named_as_not_holding(report):
    method, _, holds = report.recommended(PAYLOAD["rows"], "conditional")
    assert (method, holds) == ("nested-cv", False)


def test_the_evidence_keeps_coverage_type_i_and_power_rows_without_the_n_train_variant(report):
    evidence = report.evidence(PAYLOAD)
    assert evidence["format"] == "cvinference.calibration-evidence"
    assert (evidence["floor"], evidence["type_i_limit"], evidence["mode"]) == (0.93, 0.06, "full")
    kept = {(row["method"], row["quantity"], row["target"], row["n"]) for row in evidence["rows"]}
    assert len(kept) == 11  # 12 rows less the n_train variant; the power row ranks the tests a decision may rest on
    assert not any("n_train" in method for method, _, _, _ in kept)
    assert any(quantity == "power" for _, quantity, _, _ in kept)
    assert all("truth" not in row and "mc_se" not in row for row in evidence["rows"])


def test_the_library_reads_what_the_report_writes(report, tmp_path, monkeypatch):
    path = tmp_path / "calibration.json"
    report.main([str(_write(tmp_path, PAYLOAD)), "--evidence", str(path)])
    monkeypatch.setattr(_evidence, "calibration_evidence", lambda: json.loads(path.read_text()))
    tree = _evidence.learner_of("sklearn.tree.DecisionTreeClassifier")
    regime = _evidence.coverage_regime("kfold", tree, 100)
    assert regime == _evidence.Regime(("tree",), (100,))
    wilson = _evidence.measured_coverage("wilson", "kfold", regime)
    assert (wilson.worst, wilson.falls_short) == (0.90, True)
    nested = _evidence.measured_coverage("nested-cv", "kfold", regime)
    assert (nested.worst, nested.falls_short) == (0.96, False)
    found = _evidence.test_evidence("matched-t", [tree], 100)  # the benchmark's "matched-sample t", by its id
    assert (found.type_i, found.power, found.regime) == (0.12, 0.40, _evidence.Regime(("tree",), (100,)))


def test_the_docs_section_is_replaced_between_its_markers_and_the_prose_is_kept(report, tmp_path):
    page = tmp_path / "calibration.md"
    page.write_text(f"# Title\n\nbefore\n\n{report.START}\nold tables\n{report.END}\n\nafter\n")
    report.main([str(_write(tmp_path, PAYLOAD)), "--docs", str(page)])
    text = page.read_text()
    assert text.startswith("# Title\n\nbefore\n\n") and text.endswith("\n\nafter\n")
    assert "old tables" not in text
    assert "| kfold | nested-cv | yes |" in text
    assert "| conditional | nested-cv | no: best of those measured |" in text
    assert "0.120 [0.100, 0.150] ✗" in text  # the matched t's type-I error is above 0.06


def _write(directory, payload):
    path = directory / "run.json"
    path.write_text(json.dumps(payload))
    return path


def test_the_family_wise_error_has_its_own_table_marked_above_0_06(report):
    rows = [_row("candidates: corrected t, Holm", 0.05, 0.07, quantity="familywise_error"),
            _row("candidates: naive t, Holm (control)", 0.62, 0.66, quantity="familywise_error")]
    text = report.generated_section({**PAYLOAD, "rows": PAYLOAD["rows"] + rows})
    assert "### Family-wise error of the candidate comparison" in text
    assert "0.050 [0.030, 0.070] |" in text and "0.620 [0.600, 0.660] ✗" in text
    assert not any(row["quantity"] == "familywise_error" for row in report.evidence(
        {**PAYLOAD, "rows": PAYLOAD["rows"] + rows})["rows"])


def test_the_recommended_test_holds_0_06_everywhere_and_has_the_most_power(report):
    rows = [
        # corrected t: most power (0.5) but 0.07 > 0.06 in one cell, so not recommended.
        _row("corrected t", 0.04, 0.06, quantity="type_i"), _row("corrected t", 0.07, 0.09, n=300, quantity="type_i"),
        _row("corrected t", 0.5, 0.55, quantity="power"),
        # nested-cv and McNemar hold (worst 0.06 and 0.05); nested-cv has more power (0.3 > 0.2).
        _row("nested-cv", 0.06, 0.08, quantity="type_i"), _row("nested-cv", 0.03, 0.05, n=300, quantity="type_i"),
        _row("nested-cv", 0.3, 0.35, quantity="power"),
        _row("McNemar", 0.05, 0.07, quantity="type_i"), _row("McNemar", 0.2, 0.25, quantity="power"),
        # a positive control is never recommended, however it does.
        _row("naive t (control)", 0.01, 0.03, quantity="type_i"),
        _row("naive t (control)", 0.9, 0.95, quantity="power"),
    ]
    assert report.recommended_test(rows) == ("nested-cv", True)
    table = report.test_summary_table(rows)
    assert "| corrected t (kfold) | 0.070 [0.050, 0.090] (nonlinear tree N=300) | no | 0.500 (0.500-0.500) |" in table
    assert "control" not in table
    only_failing = [r for r in rows if r["method"] == "corrected t"] + [_row("5x2cv t", 0.09, 0.1, quantity="type_i")]
    assert report.recommended_test(only_failing) == ("corrected t", False)  # worst 0.07 beats worst 0.09
    section = report.generated_section({**PAYLOAD, "rows": PAYLOAD["rows"] + rows})
    assert "Recommended: **nested-cv**: its type-I error is at most 0.06 in every cell" in section


@pytest.fixture(scope="module")
def calibration_module():
    return _benchmark("calibration_benchmark", "calibration.py")


def _grid_row(k, r, quantity, measured, cell="tree"):
    return {"method": f"nested-cv (K={k}, R={r})", "quantity": quantity, "target": "conditional", "learner": cell,
            "n": 300, "population": "nonlinear", "nominal": 0.95 if quantity == "coverage" else 0.05,
            "measured": measured, "mc_se": 0.01, "wilson_low": measured - 0.03, "wilson_high": measured + 0.03,
            "replications": 200, "mean_width": 0.2, "truth": 0.8, "task": "nested-grid",
            "n_fits": r * k * (k + 1) // 2, "width_sd": 0.05}


def test_the_nested_grid_names_the_cheapest_configuration_that_holds_for_each_target():
    grid = _benchmark("nested_grid_report", "nested_grid_report.py")
    rows = [_grid_row(5, 3, "coverage", 0.94), _grid_row(5, 3, "type_i", 0.07),    # 45 fits: covers; type-I high
            _grid_row(5, 5, "coverage", 0.935), _grid_row(5, 5, "type_i", 0.06),   # 75 fits: both at their limits
            _grid_row(5, 5, "coverage", 0.95, "logistic"), _grid_row(5, 5, "type_i", 0.03, "logistic"),
            _grid_row(10, 3, "coverage", 0.925), _grid_row(10, 3, "type_i", 0.02),  # 165 fits: short; type-I held
            _grid_row(10, 5, "coverage", 0.95), _grid_row(10, 5, "type_i", 0.04)]   # 275 fits: holds, dearer
    assert grid.holding(rows, "coverage") == ["nested-cv (K=5, R=3)", "nested-cv (K=5, R=5)", "nested-cv (K=10, R=5)"]
    assert grid.holding(rows, "type_i") == ["nested-cv (K=5, R=5)", "nested-cv (K=10, R=3)", "nested-cv (K=10, R=5)"]
    assert grid.choice_line(rows) == (
        "One learner: **K = 5, R = 3** is the cheapest configuration that holds (45 fits per learner, 4.5 times one "
        "10-fold cross-validation). The difference of two learners: **K = 5, R = 5** is the cheapest configuration "
        "that holds (75 fits per learner, 7.5 times one 10-fold cross-validation).")
    assert grid.choice_line(rows[:2]).endswith(
        "The difference of two learners: no configuration holds in every cell; the nearest, nested-cv (K=5, R=3), "
        "reaches 0.070 (nonlinear tree N=300).")
    section = "\n".join(grid.nested_grid_parts({"rows": rows, "mode": "nested-grid", "n_jobs": 2}, lambda run: "Run."))
    assert "| 5 | 5 | 75 | 7.5 | 0.935 [0.905, 0.965] (nonlinear tree N=300) |" in section
    assert "| 5 | 5 | 150 | 7.5 | 0.060 [0.030, 0.090] (nonlinear tree N=300) | 0.200 | 0.050 | yes |" in section


def test_the_evidence_pools_every_run_of_the_nested_defaults_cells(report):
    from statsmodels.stats.proportion import proportion_confint

    main = _row("nested-cv", 0.06, 0.08, learner="logistic", quantity="type_i", target="conditional")  # 30 of 500
    grid_default = dict(_grid_row(5, 5, "type_i", 0.09, "logistic"), n=100)  # 18 of 200, the same cell
    grid_other = dict(_grid_row(10, 5, "type_i", 0.2, "logistic"), n=100)  # not the defaults: left out
    topped_up = dict(grid_default, measured=0.05, replications=1000, mean_width=0.4, task="nested-defaults")  # 50
    phoneme = dict(_grid_row(5, 5, "type_i", 0.065), population="phoneme-pairs")  # a cell only the grid measured
    runs = ({**PAYLOAD, "rows": [main]},
            {"mode": "nested-grid", "n_jobs": 2, "rows": [grid_default, grid_other, phoneme]},
            {"mode": "nested-defaults", "n_jobs": 2, "rows": [topped_up]})
    rows = report.evidence(*runs)["rows"]
    assert [(r["method"], r["population"], r["replications"]) for r in rows] == [
        ("nested-cv", "nonlinear", 1700), ("nested-cv", "phoneme-pairs", 200)]
    pooled = rows[0]
    assert pooled["measured"] == pytest.approx((30 + 18 + 50) / 1700)
    low, high = proportion_confint(98, 1700, alpha=0.05, method="wilson")  # statsmodels, the independent oracle
    assert (pooled["wilson_low"], pooled["wilson_high"]) == (pytest.approx(low), pytest.approx(high))
    assert pooled["mean_width"] == pytest.approx((500 * 0.2 + 200 * 0.2 + 1000 * 0.4) / 1700)
    assert "task" not in pooled and rows[1]["measured"] == 0.065
    grid = _benchmark("nested_grid_report", "nested_grid_report.py")
    section = "\n".join(grid.nested_defaults_parts(runs[2], lambda run: "Run.", [main, grid_default, topped_up]))
    assert f"| nonlinear logistic N=100 | 0.060 (500) | 0.090 (200) | 0.050 (1000) | 0.058 [{low:.3f}, {high:.3f}] " \
           "(1700) | yes |" in section


def test_cells_are_chosen_by_whole_segments_of_their_keys(calibration_module):
    module = calibration_module
    keys = [cell.key for cell in module.cells("full")]
    chosen = [key for key in keys if module.in_key("tree/100", key)]
    assert chosen == ["coverage/nonlinear/tree/100", "null/nonlinear/tree/100", "power/nonlinear-power/tree/100",
                      "familywise/nonlinear/tree/100"]
    assert not any(module.in_key("nonlinear", key) for key in keys if key.startswith("power/"))
    assert sum(module.in_key("null", key) for key in keys) == 6


def test_the_repeated_rows_cover_the_mean_of_all_fold_models(calibration_module):
    # Two replications. The one-repeat "wilson" row is scored against the first partition's fold
    # models (kfold 0.80, 0.70), the pooled "wilson (10 repeats)" row against all 100 fold models'
    # mean (0.76, 0.74); both against the same conditional truth (0.78, 0.72).
    records = [{"replication": i, "intervals": {"wilson": bounds, "wilson (10 repeats)": bounds},
                "truth": {"kfold": kfold, "kfold_repeated": repeated, "conditional": conditional,
                          "at_n_train": 0.7, "n_train": 120}}
               for i, (bounds, kfold, repeated, conditional) in enumerate(
                   [((0.75, 0.77), 0.80, 0.76, 0.78), ((0.69, 0.75), 0.70, 0.74, 0.72)])]
    cell = calibration_module.Cell("coverage", "nonlinear", "tree", 100, 2)
    rows = {(row["method"], row["target"]): row for row in calibration_module.rows_of(cell, records)}
    # kfold: 0.80 is outside [0.75, 0.77] and 0.70 inside [0.69, 0.75]; 0.76 and 0.74 are both inside.
    assert rows["wilson", "kfold"]["measured"] == 0.5 and rows["wilson", "kfold"]["truth"] == pytest.approx(0.75)
    assert rows["wilson (10 repeats)", "kfold"]["measured"] == 1.0
    assert rows["wilson (10 repeats)", "kfold"]["truth"] == pytest.approx(0.75)
    # conditional: 0.78 is outside [0.75, 0.77], 0.72 inside [0.69, 0.75], for both rows.
    assert rows["wilson", "conditional"]["measured"] == rows["wilson (10 repeats)", "conditional"]["measured"] == 0.5


def test_a_method_after_the_repeated_ones_is_scored_against_the_first_partitions_models(calibration_module):
    # The order of the full mode's records: the pooled "(10 repeats)" rows come before nested-cv, whose
    # k-fold truth stays the first partition's (0.80), not the 100 fold models' mean (0.76).
    record = {"replication": 0, "intervals": {"wilson (10 repeats)": (0.75, 0.77), "nested-cv": (0.75, 0.77)},
              "truth": {"kfold": 0.80, "kfold_repeated": 0.76, "conditional": 0.76}}
    cell = calibration_module.Cell("coverage", "nonlinear", "tree", 100, 1)
    rows = {(row["method"], row["target"]): row for row in calibration_module.rows_of(cell, [record])}
    assert rows["wilson (10 repeats)", "kfold"]["measured"] == 1.0
    assert rows["nested-cv", "kfold"]["measured"] == 0.0


def test_a_paired_population_is_its_own_mirror_image(calibration_module):
    # Swapping the halves of every row gives the same multiset of (row, class): the learner on either half
    # has the same expected accuracy over the draws, which is the null of the type-I cells.
    rng = np.random.default_rng(0)
    X, y = rng.standard_normal((41, 3)), rng.integers(0, 3, size=41)
    X2, y2 = calibration_module.paired_population(X, y, seed=1)
    assert X2.shape[1] == 6 and y2.size == sum(c - c % 2 for c in np.bincount(y))
    rows = sorted(map(tuple, np.column_stack([X2, y2])))
    swapped = sorted(map(tuple, np.column_stack([X2[:, 3:], X2[:, :3], y2])))
    assert rows == swapped
    # each half holds real instances of the row's class, every kept instance once per half
    for half in (X2[:, :3], X2[:, 3:]):
        found = {tuple(row): label for row, label in zip(half, y2, strict=True)}
        assert len(found) == y2.size
        assert all(found[tuple(X[i])] == y[i] for i in range(y.size) if tuple(X[i]) in found)


def test_the_learners_cells_run_from_a_checkpoint_with_the_replications_it_holds(calibration_module, tmp_path):
    module = calibration_module
    keys = [cell.key for cell in module.cells("learners")]
    assert "coverage-folds/phoneme/forest/1000" in keys and "null-folds/spambase-pairs/svm/100" in keys
    assert {key.split("/")[2] for key in keys} == {"svm", "hgb", "forest"}
    # Two replications of a coverage-folds cell asked for three: its rows say 2; a cell without any is left out.
    cell = module.Cell("coverage-folds", "nonlinear", "svm", 100, 3)
    other = module.Cell("coverage-folds", "nonlinear", "svm", 300, 3)
    records = [{"cell": cell.key, "replication": i, "intervals": {"wilson": (0.7, 0.8)},
                "truth": {"kfold": kfold, "conditional": 0.75}} for i, kfold in enumerate((0.72, 0.85))]
    path = tmp_path / "checkpoint.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    rows = module.rows_from_checkpoint([cell, other], str(path))
    assert list(rows) == [cell.key]
    kfold = next(row for row in rows[cell.key] if row["target"] == "kfold")
    assert kfold["replications"] == 2 and kfold["measured"] == 0.5


def test_a_checkpoint_line_cut_by_a_kill_is_dropped_and_cut_off_before_appending(calibration_module, tmp_path):
    """run() appends one line per replication: a kill midway leaves a last line without its newline."""
    module = calibration_module
    records = [{"cell": "c", "replication": i, "truth": {"conditional": 0.5}} for i in range(2)]
    path = tmp_path / "checkpoint.jsonl"
    path.write_text(json.dumps(records[0]) + "\n" + json.dumps(records[1])[:20])
    assert module.read_checkpoint(str(path)) == {("c", 0): records[0]}
    module._cut_torn_line(str(path))
    assert path.read_text() == json.dumps(records[0]) + "\n"


@pytest.mark.parametrize("lines, fragment", [
    (['{"cell": "c", "replication": 0}', "not json"], "line 2 is not JSON"),
    (["{}"], "line 1 is not a replication's record"),
    (['{"cell": "c", "replication": "0"}'], "line 1 is not a replication's record"),
    (['{"cell": "c", "replication": 0, "x": 1}', '{"cell": "c", "replication": 0, "x": 2}'],
     "line 2 holds replication 0 of c again, with another record"),
])
def test_a_checkpoint_line_that_is_no_replication_is_refused_with_its_number(calibration_module, tmp_path, lines,
                                                                            fragment):
    path = tmp_path / "checkpoint.jsonl"
    path.write_text("".join(line + "\n" for line in lines))
    with pytest.raises(ValueError, match=f"--checkpoint {path}: {fragment}"):
        calibration_module.read_checkpoint(str(path))


def test_a_measured_decision_row_counts_what_it_rested_on(calibration_module, report):
    module = calibration_module
    cell = module.Cell("null-folds", "nonlinear", "svm", 100, 3)
    records = [{"replication": i, "tests": {module.DECISION_FOLDS: {
        "reject": reject, "width": width, "target": "unconditional", "rests_on": rests_on}},
        "truth": {"conditional": 0.0}}
        for i, (reject, width, rests_on) in enumerate([(True, 0.2, "corrected t (10x10-fold)"),
                                                        (False, None, "cannot tell"),
                                                        (False, 0.1, "corrected t (10x10-fold)")])]
    (row,) = module.rows_of(cell, records)
    assert row["quantity"] == "type_i" and row["measured"] == pytest.approx(1 / 3)
    assert row["mean_width"] == pytest.approx(0.15)  # the cannot-tell replication has no interval
    assert row["rests_on"] == {"corrected t (10x10-fold)": 2, "cannot tell": 1}
    table = report.decision_table([row])
    assert "| nonlinear svm N=100 | without nested CV | corrected t (10x10-fold) (2), cannot tell (1) | 0.333" in table


def test_the_metrics_cells_tag_their_rows_with_the_task_the_decision_reads(calibration_module):
    module = calibration_module
    keys = [cell.key for cell in module.cells("metrics")]
    assert "coverage-auc/spambase/tree/300" in keys and "null-auc/phoneme-pairs/logistic/300" in keys
    assert "null-regression/randhie-visits-pairs/ridge/300" in keys and "power-regression/regression-power/" \
        "tree_reg/1000" in keys
    assert {key.split("/")[2] for key in keys} == {"logistic", "tree", "ridge", "tree_reg"}
    # Regression coverage records keep a truth per metric; each "<metric>: method" row is scored against it.
    cell = module.Cell("coverage-regression", "regression", "ridge", 100, 2)
    records = [{"replication": i, "intervals": {"MSE: cv-clt within-fold": (1.0, 2.0), "R2: cv-clt within-fold":
                                                (0.3, 0.5)},
                "truth": {"MSE": {"kfold": mse, "conditional": 1.5}, "R2": {"kfold": r2, "conditional": 0.9}}}
               for i, (mse, r2) in enumerate([(1.5, 0.4), (2.5, 0.45)])]
    rows = {(row["method"], row["target"]): row for row in module.rows_of(cell, records)}
    # MSE: 1.5 inside [1, 2], 2.5 outside; R2: 0.4 and 0.45 inside [0.3, 0.5], the conditional 0.9 outside twice.
    assert rows["MSE: cv-clt within-fold", "kfold"]["measured"] == 0.5
    assert rows["R2: cv-clt within-fold", "kfold"]["measured"] == 1.0
    assert rows["R2: cv-clt within-fold", "conditional"]["measured"] == 0.0
    assert {row["task"] for row in rows.values()} == {"regression"}


def test_a_paired_regression_population_is_its_own_mirror_image(calibration_module):
    rng = np.random.default_rng(0)
    X, y = rng.standard_normal((41, 3)), rng.standard_normal(41)
    X2, y2 = calibration_module.paired_regression_population(X, y, seed=1)
    assert X2.shape == (40, 6) and y2.shape == (40,)
    rows = sorted(map(tuple, np.column_stack([X2, y2])))
    swapped = sorted(map(tuple, np.column_stack([X2[:, 3:], X2[:, :3], y2])))
    assert rows == swapped
    # each row's target is the mean of its two instances' own targets
    target = {tuple(x): value for x, value in zip(X, y, strict=True)}
    assert np.allclose(y2, [(target[tuple(row[:3])] + target[tuple(row[3:])]) / 2 for row in X2])


def test_the_metrics_run_gets_its_own_sections_and_its_task_reaches_the_evidence(report):
    auc = [dict(_row("corrected-t", 0.94, 0.96), task="roc_auc"),
           dict(_row("corrected t (10x10-fold)", 0.04, 0.06, quantity="type_i"), task="roc_auc")]
    regression = [dict(_row("MSE: cv-clt within-fold", 0.92, 0.94), task="regression"),
                  dict(_row("R2: cv-clt within-fold", 0.95, 0.97), task="regression"),
                  dict(_row("CV-CLT (per-instance differences)", 0.05, 0.07, quantity="type_i"), task="regression")]
    metrics = {**PAYLOAD, "mode": "metrics", "rows": auc + regression}
    section = report.generated_section(PAYLOAD, metrics)
    assert "### ROC AUC" in section and "### Regression" in section and "#### R2" in section
    assert "Type-I error (two learners of equal unconditional squared error)" in section
    r2 = section.split("#### R2")[1]
    assert "R2: cv-clt within-fold" in r2 and "MSE: cv-clt" not in r2 and "CV-CLT (per-instance" not in r2
    kept = report.evidence(PAYLOAD, metrics)["rows"]
    assert [(row["quantity"], row.get("task"), row.get("repeats")) for row in kept if row["method"] == "corrected-t"] \
        == [("type_i", None, None), ("coverage", "roc_auc", None), ("type_i", "roc_auc", 10)]  # PAYLOAD's first
    assert all("task" not in row for row in kept[:len(PAYLOAD["rows"]) - 1])


def test_the_evidence_leaves_out_the_coverage_cells_too_small_to_judge(report):
    """modechoice's truth is the other half of its 210 travellers: its coverage cells are shown, not used."""
    small = dict(_row("cluster", 0.82, 0.87, n=105), population="modechoice-halves", task="grouped")
    synthetic = dict(_row("cluster", 0.94, 0.96, n=40), population="clustered-m5-icc0.5", task="grouped")
    null = dict(_row("cluster paired t (10 repeats)", 0.04, 0.07, n=105, quantity="type_i"),
                population="modechoice-halves", task="grouped")
    kept = report.evidence({**PAYLOAD, "rows": [small, synthetic, null]})["rows"]
    assert [(row["population"], row["quantity"]) for row in kept] == [
        ("clustered-m5-icc0.5", "coverage"), ("modechoice-halves", "type_i")]


def test_a_real_populations_truth_is_a_random_subset_of_its_rest(calibration_module):
    # A real population's rows are in the data's order (here sorted by the target): the capped truth must be
    # drawn at random from the rest, not be its first TRUTH_ROWS rows.
    module = calibration_module
    n = module.TRUTH_ROWS * 2 + 500
    population = module.Population(np.arange(n, dtype=float)[:, None], np.arange(n, dtype=float), held_back=0)
    cell = module.Cell("coverage-regression", "real", "ridge", 100, 1)
    _, y, _, y_truth = module._metric_sample(population, cell, np.random.default_rng(0))
    assert y_truth.size == module.TRUTH_ROWS and not set(y) & set(y_truth)
    assert y_truth.max() > module.TRUTH_ROWS * 1.5  # the first TRUTH_ROWS rows would stop near TRUTH_ROWS


def test_complete_only_leaves_out_the_cells_a_run_has_not_finished(calibration_module, tmp_path):
    module = calibration_module
    full, partial = module.Cell("coverage-folds", "nonlinear", "svm", 100, 2), module.Cell(
        "coverage-folds", "nonlinear", "svm", 300, 2)
    records = [{"cell": cell.key, "replication": i, "intervals": {"wilson": (0.7, 0.8)},
                "truth": {"kfold": 0.75, "conditional": 0.75}} for cell, i in ((full, 0), (full, 1), (partial, 0))]
    path = tmp_path / "checkpoint.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    assert list(module.rows_from_checkpoint([full, partial], str(path))) == [full.key, partial.key]
    assert list(module.rows_from_checkpoint([full, partial], str(path), complete_only=True)) == [full.key]
