"""Issue 59, item 4: the evidence is keyed by the table's ids (``policy/data/*.json``).

Each coverage row names its interval by its id in the table of methods (docs/methods.md) with the fields that tell
its rows apart (``averaging``, ``metric``, ``variance``, ``repeats``), and each type-I and power row its test by its
id with the fields of its design (``repeats`` and ``folds``, ``repeat``, ``unit``, ``scores``; the margin
calibration's too), not by the benchmark's display name (tests/test_names.py checks every row's id); the rewrite moved
no figure. Oracles: the figures of the shipped evidence before the rewrite (the files at commit 4fefe6e, which still
named rows "fold t", "MSE: cv-clt within-fold", "corrected t (3x10-fold)", ...), as a digest over every row of
every file and as a few cells read there by hand."""

import hashlib
import json
import sys
from pathlib import Path

import pytest

from cvinference.policy import _evidence
from cvinference.policy._evidence import CoverageKey, calibration_evidence, coverage_regime, learner_of
from cvinference.policy._forward_decision import forward_evidence
from cvinference.policy._margin_evidence import margin_evidence

FIGURES = ("task", "quantity", "target", "learner", "n", "population", "nominal", "measured", "wilson_low",
           "wilson_high", "replications", "mean_width")
"""Every field of a row but its method's name: what the rewrite must not move."""

BEFORE = ("11b9d6fb1a8f36ab8118855008a8cb98c447f756f25dbf40ac2ea138bd0fcbab", 2973)
"""The digest and the number of rows of the evidence's figures at 4fefe6e, before the rewrite:
``git show 4fefe6e:cvinference/policy/data/calibration.json`` read by :func:`_digest`."""


MARGIN_FIGURES = ("task", "quantity", "alternative", "margin", "repeats", "truth", "learner", "n", "population",
                  "nominal", "measured", "wilson_low", "wilson_high", "replications")
"""Every field of a margin calibration row but its method's name."""

FORWARD_FIGURES = ("cell", "difference", "learner", "mean_width", "measured", "noise_phi", "phi", "quantity",
                   "replications", "series", "target", "target_se", "truth_replications", "truth_windows", "wilson")
"""Every field of a forward calibration row but its method's name."""

EVERY_FILE_BEFORE = [
    (calibration_evidence, FIGURES, BEFORE),
    (margin_evidence, MARGIN_FIGURES, ("de9af4d02fcf19200ad9fe24fa0c7a4b9a3786c8f51e8801e2e60b1ed6761458", 1944)),
    (forward_evidence, FORWARD_FIGURES, ("6f8a44c2364f7d0f43cab61519ff164483ce4a2733db082a4a23bd050b0ff442", 120)),
]
"""Each evidence file's reader, the fields of its figures and their digest at 4fefe6e (``git show
4fefe6e:cvinference/policy/data/<file>`` read by :func:`_digest` with those fields)."""


def _digest(rows, fields=FIGURES):
    figures = sorted(json.dumps([row.get(key) for key in fields]) for row in rows)
    return hashlib.sha256("\n".join(figures).encode()).hexdigest(), len(figures)


@pytest.mark.parametrize(("read", "fields", "before"), EVERY_FILE_BEFORE, ids=["calibration", "margin", "forward"])
def test_the_rewrite_moved_no_figure_in_any_evidence_file(read, fields, before):
    assert _digest(read()["rows"], fields) == before


# Cells of the evidence before the rewrite, by their old name (4fefe6e), and the key that reads them now.
KNOWN_CELLS = [
    (None, "fold t", CoverageKey("t", averaging="fold"), "kfold", "tree", 100, "nonlinear", 0.9),
    ("grouped", "cluster half-sample", CoverageKey("cluster-half-sample"), "kfold", "tree", 40,
     "clustered-m5-icc0.05", 0.985),
    ("regression", "MSE: cv-clt within-fold", CoverageKey("cv-clt", metric="mean_squared_error",
                                                          variance="within-fold"), "kfold", "ridge", 100,
     "regression", 0.905),
    ("regression", "R2: cv-clt (10 repeats)", CoverageKey("cv-clt", metric="r2", repeats=10), "kfold", "ridge", 100,
     "regression", 0.85),
    (None, "cv-clt all-pairs", CoverageKey("cv-clt", variance="all-pairs"), "conditional", "logistic", 100,
     "nonlinear", 0.898),
    ("roc_auc", "corrected-t (10 repeats)", CoverageKey("corrected-t", repeats=10), "unconditional", "tree", 100,
     "nonlinear", 0.965),
]


@pytest.mark.parametrize(("task", "old", "key", "target", "learner", "n", "population", "measured"), KNOWN_CELLS,
                         ids=[cell[1] for cell in KNOWN_CELLS])
def test_a_known_cell_reads_the_same_figure_by_its_key(task, old, key, target, learner, n, population, measured):
    rows = _evidence._evidence_index().select(task or "classification", "coverage", key, target)
    [cell] = [row for row in rows if (row["learner"], row["n"], row["population"]) == (learner, n, population)]
    assert cell["measured"] == measured
    regime = coverage_regime(target, learner_of(next(name for name, kind in _evidence._MEASURED_CLASSES.items()
                                                     if kind == learner)), n, task=task or "classification")
    assert _evidence.measured_coverage(key, target, regime, task=task or "classification").worst <= measured


def test_the_benchmarks_writer_keys_coverage_rows_as_the_library_reads_them():
    """benchmarks/calibration_report.py writes the evidence: its names become the keys the library reads."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    try:
        from calibration_report import coverage_fields
    finally:
        sys.path.pop(0)
    for _, old, key, *_ in KNOWN_CELLS:
        assert CoverageKey.of(coverage_fields(old)) == key, old
    assert coverage_fields("auto") == {"method": "auto"}


# Type-I cells before the rewrite, by their old name (4fefe6e), task and cell, the fields that key them now, and their
# figure there (each cell's rows, where more than one run measured it).
KNOWN_TEST_CELLS = [
    ("corrected t (3x10-fold)", None, ("forest", 3000, "nonlinear"),
     {"method": "corrected-t", "repeats": 3, "folds": 10}, 0.025),
    ("clustered McNemar (Obuchowski, repeat 0)", "grouped", ("tree", 40, "clustered-m5-icc0.05"),
     {"method": "mcnemar-obuchowski", "repeat": 0}, 0.08),
    ("cluster paired t (10 repeats)", "grouped-regression", ("ridge", 40, "clustered-m5-icc0.05-regression"),
     {"method": "cluster-paired-t", "repeats": 10}, 0.03),
    ("DeLong paired z (pooled scores, repeat 0)", "roc_auc", ("logistic", 100, "nonlinear"),
     {"method": "delong-paired", "scores": "pooled", "repeat": 0}, (0.13, 0.16)),  # two runs measured this cell
    ("McNemar", None, ("tree", 100, "nonlinear"), {"method": "mcnemar"}, 0.096),
    ("5x2cv combined F", "grouped", ("tree", 40, "clustered-m5-icc0.05"), {"method": "5x2cv-f"}, 0.085),
    ("CV-CLT loss difference (instances, repeat 0)", "grouped-regression",
     ("ridge", 40, "clustered-m5-icc0.05-regression"),
     {"method": "cv-clt-difference", "unit": "instances", "repeat": 0}, 0.04),
]


def _benchmarks_test_fields():
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    try:
        from evidence_names import test_fields
    finally:
        sys.path.pop(0)
    return test_fields


@pytest.mark.parametrize(("old", "task", "cell", "key", "measured"), KNOWN_TEST_CELLS,
                         ids=[cell[0] for cell in KNOWN_TEST_CELLS])
def test_a_known_test_cell_reads_the_same_figure_by_its_id_and_design(old, task, cell, key, measured):
    rows = _evidence._evidence_index().select(task or "classification", "type_i", key["method"])
    found = [row["measured"] for row in rows if (row["learner"], row["n"], row["population"]) == cell
             and all(row.get(field) == value for field, value in key.items())]
    assert tuple(sorted(found)) == (measured if isinstance(measured, tuple) else (measured,))
    assert _benchmarks_test_fields()(old) == key  # the benchmark's writer keys its rows so


def test_a_known_margin_cell_reads_the_same_figure_by_its_id_and_design():
    # 4fefe6e: "McNemar" and "decision with the margin's evidence (decide, without nested CV, 3x10-fold)", logistic
    # regression at N = 100, non-inferior at margin 0.01, each measured 0.0 (at R = 1 and 3)
    test_fields = _benchmarks_test_fields()
    for old, repeats, key in (("McNemar", 1, {"method": "mcnemar"}),
                              ("decision with the margin's evidence (decide, without nested CV, 3x10-fold)", 3,
                               {"method": "decision", "margin_evidence": True, "nested": False, "repeats": 3,
                                "folds": 10})):
        [found] = [row for row in margin_evidence()["rows"] if row["quantity"] == "type_i"
                   and (row["learner"], row["n"], row["alternative"], row["margin"], row["repeats"])
                   == ("logistic", 100, "non-inferior", 0.01, repeats)
                   and all(row.get(field) == value for field, value in key.items())]
        assert found["measured"] == 0.0 and test_fields(old) == key


def test_the_margin_benchmarks_writer_keys_its_rows_as_the_library_reads_them():
    """benchmarks/margin_calibration.py writes a replication's answers (keyed by the tests' report names) as rows of
    the tests' ids and designs, in the shipped file's field order; the decision's rows as "decision"."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    try:
        import margin_calibration as benchmark
    finally:
        sys.path.pop(0)
    boundary = {f"{r}|{m:g}": {f"{name}|non-inferior|{m:g}": False
                               for name in ("McNemar", f"corrected t ({r}x10-fold)", benchmark.DECISION)}
                for r in benchmark.PREFIXES for m in benchmark.MARGINS}
    record = {"boundary": boundary, "inside": {str(r): {} for r in benchmark.PREFIXES},
              "rests_on": {str(r): "McNemar" for r in benchmark.PREFIXES}}
    rows = benchmark.rows_of("logistic", 100, [record])
    assert {(row["method"], row.get("folds"), row["repeats"]) for row in rows} == {
        (method, folds, r) for r in benchmark.PREFIXES for method, folds in (("mcnemar", None), ("corrected-t", 10),
                                                                             ("decision", 10))}
    shipped = {row["method"]: list(row) for row in margin_evidence()["rows"]}
    assert all(list(row) == shipped[row["method"]] for row in rows)
    assert {row["method"] for row in benchmark.shipped_rows("logistic", 100, [record], rows)} == {"decision"}
