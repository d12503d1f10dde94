"""Issue 59, item 4: the coverage evidence is keyed by the table's ids (``policy/data/calibration.json``).

Each coverage row names its interval by its id in the table of methods (docs/methods.md) with the fields that tell
its rows apart (``averaging``, ``metric``, ``variance``, ``repeats``), not by the benchmark's display name
(tests/test_names.py checks every row's id); the rewrite moved no figure. Oracles: the figures of the shipped
evidence before the rewrite (the file at commit 4fefe6e, which still named rows "fold t", "MSE: cv-clt
within-fold", ...), as a digest over every row and as a few cells read there by hand."""

import hashlib
import json
import sys
from pathlib import Path

import pytest

from cvinference.policy import _evidence
from cvinference.policy._evidence import CoverageKey, calibration_evidence, coverage_regime, learner_of

FIGURES = ("task", "quantity", "target", "learner", "n", "population", "nominal", "measured", "wilson_low",
           "wilson_high", "replications", "mean_width")
"""Every field of a row but its method's name: what the rewrite must not move."""

BEFORE = ("11b9d6fb1a8f36ab8118855008a8cb98c447f756f25dbf40ac2ea138bd0fcbab", 2973)
"""The digest and the number of rows of the evidence's figures at 4fefe6e, before the rewrite:
``git show 4fefe6e:cvinference/policy/data/calibration.json`` read by :func:`_digest`."""


def _digest(rows):
    figures = sorted(json.dumps([row.get(key) for key in FIGURES]) for row in rows)
    return hashlib.sha256("\n".join(figures).encode()).hexdigest(), len(figures)


def test_the_rewrite_moved_no_figure():
    assert _digest(calibration_evidence()["rows"]) == BEFORE


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
