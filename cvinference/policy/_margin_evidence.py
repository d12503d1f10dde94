"""What the margin's calibration measured: how often a test's one-sided answer about a margin is wrong at its boundary.

``benchmarks/margin_calibration.py`` builds a true difference of exactly -m (the symmetric population's learners,
A's predictions set wrong and B's right on a random share m of the instances) and counts how often each test the
decision weighs answers "A non-inferior" (or "equivalent") there: the type-I error of the margin's question, which
the two-sided calibration of the same test does not give (a one-sided test at alpha reads the 1 - 2 alpha interval,
whose tail an underestimated variance inflates more). Its rows are read with the calibration's rules: the learner by
type, the neighbouring sizes, the worst cell, the record's repeats where measured.
"""

import functools
import json
from importlib import resources
from typing import NamedTuple

from ._evidence import LEARNER_WORDS, read_evidence, type_i_limit

EVIDENCE = "margin_calibration.json"
"""The margin calibration's rows (``benchmarks/margin_calibration.py``), shipped with the policy."""

TASK = "classification"
"""The measured metric: accuracy, on ungrouped k-fold records."""


@functools.lru_cache(maxsize=1)
def margin_evidence():
    """The margin calibration's setting and rows (no rows where the file is absent)."""
    path = resources.files("cvinference.policy") / "data" / EVIDENCE
    if not path.is_file():
        return {"setting": {}, "rows": []}
    return json.loads(path.read_text())


class MarginEvidence(NamedTuple):
    """A test's worst type-I error at a margin's boundary in the cells that stand for a pair, and where."""

    type_i: float
    regime: str  # the cells read in words, with the stand-ins for learners not measured themselves
    worst_cell: str
    margins: tuple
    beyond: str | None = None  # where the pair's N lies beyond the measured sizes, in words

    @property
    def holds(self):
        """Whether the worst type-I error is within the limit the decision accepts (:func:`type_i_limit`)."""
        return self.type_i <= type_i_limit()


def margin_measured():
    """Whether the margin calibration's rows ship (the decision's caveat says what is missing either way)."""
    return bool(margin_evidence()["rows"])


def margin_type_i(test_name, learners, n_samples, alternative, repeats=None, rows=None):
    """How often a test's answer about a margin was wrong at the margin's boundary, for a pair like this one.

    Parameters
    ----------
    test_name : str or None
        The test's id, the ``method`` of its rows (None: a test no row of the
        table computes, not measured).
    learners : list of Learner
        The pair's learners (:func:`pair_learners`), matched by type.
    n_samples : int
        The pair's N; the neighbouring measured sizes stand.
    alternative : {"non-inferior", "equivalent"}
    repeats : int, optional
        The record's number of repeats R: the cells measured at R stand where
        they cover every learner and size (:func:`at_repeats`).
    rows : list of dict, optional
        The evidence's rows; by default the shipped file's
        (:func:`margin_evidence`; the benchmark passes its own run's).

    Returns
    -------
    MarginEvidence or None
        The worst type-I error over the measured margins, the regime and the
        worst cell in words; None where the benchmark did not measure that
        test answering that question on accuracy.
    """
    if test_name is None:  # a test no row of the table computes: never measured
        return None
    reading = read_evidence(test_name, tuple(learners), n_samples, task=TASK, target=alternative, repeats=repeats,
                            rows=margin_evidence()["rows"] if rows is None else rows, detail="alternative")
    if not reading.cells:
        return None
    worst = reading.worst_row
    where = f"{LEARNER_WORDS.get(worst['learner'], worst['learner'])} at N = {worst['n']}, margin {worst['margin']:g}"
    margins = tuple(sorted({row["margin"] for row in reading.cells}))
    return MarginEvidence(worst["measured"], reading.where, where, margins, reading.regime.beyond)
