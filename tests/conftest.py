"""Puts ``tests/`` on ``sys.path`` (pytest's rootdir-based import of a conftest without ``__init__.py``),
so that every test module can import the shared case builder ``result_cases``; and the ``evidence`` fixture."""

import pytest


@pytest.fixture
def evidence(monkeypatch):
    """``evidence(*rows)`` replaces the calibration evidence the library reads by these rows (none: nothing
    measured), with the shipped floor (0.93) and type-I limit (0.06)."""
    from cvinference.inference import _evidence

    def install(*rows):
        table = {"rows": list(rows), "floor": 0.93, "type_i_limit": 0.06, "mode": "test"}
        monkeypatch.setattr(_evidence, "calibration_evidence", lambda: table)
    return install
