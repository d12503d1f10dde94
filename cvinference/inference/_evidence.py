"""What the calibration benchmark measured, and the choices it makes for ``method="auto"`` and the verdicts.

``benchmarks/calibration.py`` measures, with real fits on populations whose
truth is known, how often every interval covers each target and how often
every comparison test rejects a true null; ``benchmarks/calibration_report.py``
keeps the figures the library needs in ``data/calibration.json``. A *regime*
is a measured cell: a learner (a decision tree, logistic regression, k-NN,
naive Bayes) at a sample size N. A result is matched to the cells of its
learner, recognised from its ``estimator_repr``, or of every learner when it
is not recognised, at the measured N nearest its size.
"""

import functools
import json
import math
from importlib import resources
from typing import NamedTuple, Optional

_LEARNER_KINDS = (
    ("DecisionTree", "tree"), ("ExtraTree", "tree"), ("LogisticRegression", "logistic"),
    ("KNeighbors", "knn"), ("GaussianNB", "naive_bayes"),
)
"""Class names in an estimator's repr, and the measured learner each stands for (first match wins)."""

LEARNER_WORDS = {"tree": "a decision tree", "logistic": "logistic regression", "knn": "k-NN",
                 "naive_bayes": "naive Bayes"}


@functools.lru_cache(maxsize=1)
def calibration_evidence():
    """The benchmark's rows, as ``data/calibration.json`` holds them (an empty list when absent)."""
    path = resources.files("cvinference.inference") / "data" / "calibration.json"
    if not path.is_file():
        return {"rows": [], "floor": 0.93, "type_i_limit": 0.075, "mode": None}
    return json.loads(path.read_text())


def learner_kind(estimator_repr):
    """The measured learner an estimator's repr names, or None."""
    if not estimator_repr:
        return None
    # The final estimator of a pipeline is named last.
    found = [(estimator_repr.rfind(name), kind) for name, kind in _LEARNER_KINDS if name in estimator_repr]
    return max(found)[1] if found else None


class Regime(NamedTuple):
    """The measured cells that stand for a result: one learner (or all) at the nearest measured N."""

    learner: Optional[str]
    n: Optional[int]

    def describe(self):
        who = LEARNER_WORDS.get(self.learner, "the measured learners")
        return f"{who} at N = {self.n}"


def regime_of(rows, learner, n_samples):
    """The :class:`Regime` of a result among ``rows``: its learner when measured, and the measured N nearest."""
    learners = {row["learner"] for row in rows}
    learner = learner if learner in learners else None
    sizes = sorted({row["n"] for row in rows if learner is None or row["learner"] == learner})
    if not sizes:
        return Regime(learner, None)
    nearest = min(sizes, key=lambda n: (abs(math.log(n) - math.log(n_samples)), n))
    return Regime(learner, nearest)


def _cells(rows, regime, **match):
    return [row for row in rows
            if row["n"] == regime.n and (regime.learner is None or row["learner"] == regime.learner)
            and all(row[key] == value for key, value in match.items())]


class Measured(NamedTuple):
    """A method's measured coverage in a regime: its worst cell, and whether it falls short anywhere."""

    method: str
    worst: float
    deviation: float
    falls_short: bool
    cells: int


def measured_coverage(method, target, regime):
    """How ``method`` covered ``target`` in the cells of ``regime``; None when it was not measured there."""
    evidence = calibration_evidence()
    cells = _cells(evidence["rows"], regime, method=method, target=target, quantity="coverage")
    if not cells:
        return None
    return Measured(method=method, worst=min(row["measured"] for row in cells),
                    deviation=max(abs(row["measured"] - row["nominal"]) for row in cells),
                    falls_short=any(row["wilson_high"] < evidence["floor"] for row in cells), cells=len(cells))


def coverage_regime(target, estimator_repr, n_samples):
    """The regime of a result for the coverage rows of ``target``."""
    rows = [row for row in calibration_evidence()["rows"] if row["quantity"] == "coverage" and row["target"] == target]
    return regime_of(rows, learner_kind(estimator_repr), n_samples)


def evidence_source():
    """Where the figures come from, in words."""
    evidence = calibration_evidence()
    return f"the calibration benchmark ({evidence['mode']} run of benchmarks/calibration.py, docs/calibration.md)"


def test_family(name):
    """A test's name without its parenthesis: "corrected t (5x10-fold)" and "corrected t (10x10-fold)" match."""
    return name.split(" (")[0]


def steadiest_test():
    """The measured test (controls left out) whose worst type-I error is lowest: ``(name, worst)``, or None."""
    worst = {}
    for row in calibration_evidence()["rows"]:
        if row["quantity"] == "type_i" and "control" not in row["method"]:
            worst[row["method"]] = max(worst.get(row["method"], 0.0), row["measured"])
    if not worst:
        return None
    name = min(worst, key=worst.get)
    return name, worst[name]


def type_i_error(test_name, learner_kinds, n_samples):
    """The largest measured type-I error of a test for these learners (all when unknown) at the nearest N.

    ``test_name`` is matched to the benchmark's tests by :func:`test_family`.
    Returns ``(rate, regime)``, or ``(None, None)`` when it was not measured.
    """
    rows = [row for row in calibration_evidence()["rows"]
            if row["quantity"] == "type_i" and test_family(row["method"]) == test_family(test_name)]
    rates = []
    regimes = []
    for kind in dict.fromkeys(learner_kinds) or (None,):
        regime = regime_of(rows, kind, n_samples)
        cells = _cells(rows, regime)
        if cells:
            rates.append(max(row["measured"] for row in cells))
            regimes.append(regime)
    if not rates:
        return None, None
    worst = max(range(len(rates)), key=rates.__getitem__)
    return rates[worst], regimes[worst]
