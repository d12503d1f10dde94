"""Puts ``tests/`` on ``sys.path`` (pytest's rootdir-based import of a conftest without ``__init__.py``),
so that every test module can import the shared case builder ``result_cases``; and the ``evidence`` and
``null_row`` fixtures."""

import pytest


@pytest.fixture
def evidence(monkeypatch):
    """``evidence(*rows)`` replaces the calibration evidence the library reads by these rows (none: nothing
    measured), with the shipped floor (0.93) and type-I limit (0.06)."""
    from cvinference.policy import _evidence

    def install(*rows):
        table = {"rows": list(rows), "floor": 0.93, "type_i_limit": 0.06, "mode": "test"}
        monkeypatch.setattr(_evidence, "calibration_evidence", lambda: table)
    return install


@pytest.fixture
def null_row():
    """``null_row(method, measured, learner=..., n=..., task=..., **design)``: an evidence row of a null cell, the
    type-I error ``measured`` of ``method`` (a test's id; ``design``: its fields, ``repeats=10, folds=10``; its Wilson
    interval's upper end 0.03 above it), for :func:`evidence`."""
    def make(method, measured, *, learner, n, task="grouped", target="kfold", **design):
        return {"method": method, **design, "quantity": "type_i", "target": target, "learner": learner, "n": n,
                "population": "clustered-test", "nominal": 0.05, "measured": measured, "wilson_low": 0.0,
                "wilson_high": measured + 0.03, "replications": 200, "mean_width": 1.0, "task": task}
    return make
