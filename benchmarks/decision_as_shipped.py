"""The decision as shipped, in every measured null and power cell: the false alarms and power of ``decide`` now.

    python benchmarks/decision_as_shipped.py [--out benchmarks/results/decision_as_shipped.json]

``cvinference.decide`` rests on one test, chosen from the learners' types, the size, the metric, the number of
repeats and the calibration evidence the library ships, never from the data (the policy's ``cell_choice``).
In a cell of the calibration benchmark, whose two learners are of one type at one size, the decision therefore
rejects exactly when that test rejects, and its false-alarm rate (or power) is that test's on the same
replications. This script asks the library's own choice, with the evidence of this commit, which test that is
in every type-I and power cell of every run in ``benchmarks/results/`` and writes the decision's rows: so the
decision is measured as shipped, and ``tests/test_calibration_report.py`` fails whenever the evidence or the
rule changes and this file was not written again (it refits nothing: a few seconds).

Rows, per cell and number of repeats R of the cross-validation the decision reads (10 where the run measured
10 x 10-fold only; 1, 3 and 10 in the --decision cells), one for the decision from the folds (and 5x2cv's)
alone, and one for the front door's ``nested="auto"`` where the run measured nested CV's difference interval in
that cell or the front door's route runs more repeats: where no test of the record is eligible, it runs the
calibrated route of most measured power (nested CV, where the cell measured it, or the corrected t on more repeats;
``front_door_choice``), and the decision rests on its test (" ran Rx10-fold" in ``method`` where it ran more
repeats); and, in the cells that measured several R, one for ``n_repeats="auto"`` ("repeats auto: Rx10-fold"),
which plans the R of most measured power before any fit (``planned_repeats``) and then goes on as the front door
does. ``method`` names the route, ``rests_on`` the test (or "cannot tell", counted as no rejection), and the
figures are that test's row's (``measured``, ``wilson_low``, ``wilson_high``, ``replications``).
"""

import argparse
import json
import os
import sys

from calibration_nested import rate_row
from evidence_names import test_fields

from cvinference.policy._decision import DECISION_TESTS, cell_choice, front_door_choice, label_task
from cvinference.policy._evidence import _MEASURED_CLASSES, FAMILY_OF_KIND, Learner, repeats_of
from cvinference.policy._routes import planned_repeats

RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")
RUNS = ("calibration.json", "calibration_learners.json", "calibration_metrics.json", "calibration_grouped.json",
        "calibration_decision.json")
"""The runs whose null and power cells hold the tests a decision weighs."""

STAND_INS = {"forest100": "forest"}
"""Learners measured under another name (the forest-size check's 100-tree forest) and the type they are."""

LOSS_OF_TASK = {"regression": "squared_error"}


def learner_of_kind(kind):
    """The :class:`Learner` of a benchmark learner's key, as the library recognises that learner's records."""
    kind = STAND_INS.get(kind, kind)
    name = next((cls for cls, key in _MEASURED_CLASSES.items() if key == kind), kind)
    return Learner(name, kind, FAMILY_OF_KIND.get(kind))


def tests_of(task):
    """The tests (ids) a decision on records of ``task`` weighs, and the task whose rows judge them."""
    if task in DECISION_TESTS:
        return DECISION_TESTS[task], task
    return DECISION_TESTS["label metric"], label_task(task)


def _cells(rows):
    cells = {}
    for row in rows:
        if row["quantity"] in ("type_i", "power") and not row["method"].startswith("decision"):
            key = (row.get("task", "classification"), row["quantity"], row["population"], row["learner"], row["n"])
            cells.setdefault(key, []).append(row)
    return cells


def _fields(row):
    """A run's row (named as the benchmark names its tests) with the fields the evidence keys it by."""
    return test_fields(row["method"])


def _row_of(cell_rows, key, repeats):
    """The cell's row of the test whose id is ``key`` at ``repeats`` (or the test's only row, where it states no
    R x K-fold design)."""
    found = [row for row in cell_rows if _fields(row)["method"] == key]
    exact = [row for row in found if repeats_of(_fields(row)) == repeats]
    return (exact or [row for row in found if repeats_of(_fields(row)) is None] or [None])[0]


def _decision_row(cell, cell_rows, key, repeats, route, source):
    """The row of a decision that rests on the test ``key`` at ``repeats`` (None: "cannot tell") in ``cell``."""
    task, quantity, population, kind, n = cell
    chosen = None if key is None else _row_of(cell_rows, key, repeats)
    replications = max(row["replications"] for row in cell_rows)
    figures = ({k: chosen[k] for k in ("measured", "mc_se", "wilson_low", "wilson_high", "replications")
                if k in chosen} if chosen else rate_row(0, replications))
    return {"method": f"decision (decide, as shipped, {route})", "quantity": quantity,
            "target": chosen["target"] if chosen else "per test", "learner": kind, "n": n,
            "population": population, "task": task, "nominal": 0.05, **figures,
            "rests_on": chosen["method"] if chosen else "cannot tell", "source": source}


def decision_rows(rows, source):
    """The decision's rows in every type-I and power cell of one run's ``rows``: ``decide`` on the R x 10-fold
    record, and the front door's ``nested="auto"`` from it where its route (nested CV, where the cell measured it,
    or more repeats) runs."""
    found = []
    for cell, cell_rows in _cells(rows).items():
        task, _, _, kind, n = cell
        tests, judged_by = tests_of(task)
        measured = {repeats_of(_fields(row)) for row in cell_rows} - {None}
        has_nested = any(_fields(row)["method"] == "nested-cv" for row in cell_rows)
        for repeats in sorted(measured) or [10]:
            common = {"task": judged_by, "loss_name": LOSS_OF_TASK.get(task)}
            key = cell_choice(tests, learner_of_kind(kind), n, repeats=repeats, **common)
            found.append(_decision_row(cell, cell_rows, key, repeats, f"{repeats}x10-fold", source))
            routed, rests_at = front_door_choice(tests, learner_of_kind(kind), n, repeats=repeats, nested=has_nested,
                                                 **common)
            if has_nested or rests_at != repeats:
                route = f"{repeats}x10-fold, nested auto" + ("" if rests_at == repeats else f" ran {rests_at}x10-fold")
                found.append(_decision_row(cell, cell_rows, routed, rests_at, route, source))
        if len(measured) > 1:  # the cell measured several R: n_repeats="auto" plans one of them
            planned = planned_repeats([learner_of_kind(kind)] * 2, n, judged_by, 10)[0]
            repeats = 1 if planned is None else planned.repeats
            routed, rests_at = front_door_choice(tests, learner_of_kind(kind), n, repeats=repeats, nested=has_nested,
                                                 task=judged_by, loss_name=LOSS_OF_TASK.get(task))
            route = f"repeats auto: {repeats}x10-fold, nested auto" + (
                "" if rests_at == repeats else f" ran {rests_at}x10-fold")
            found.append(_decision_row(cell, cell_rows, routed, rests_at, route, source))
    return found


def as_shipped(results=RESULTS, runs=RUNS):
    """Every run's decision rows, and the pooled false-alarm rate over the null cells."""
    rows, found = [], [name for name in runs if os.path.exists(os.path.join(results, name))]
    for name in found:
        with open(os.path.join(results, name)) as handle:
            rows += decision_rows(json.load(handle)["rows"], name)
    nulls = [row for row in rows if row["quantity"] == "type_i"]
    alarms = sum(round(row["measured"] * row["replications"]) for row in nulls)
    pooled = rate_row(alarms, sum(row["replications"] for row in nulls)) if nulls else None
    return {"command": "python benchmarks/decision_as_shipped.py", "runs": found, "pooled_type_i": pooled,
            "rows": rows}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=os.path.join(RESULTS, "decision_as_shipped.json"))
    args = parser.parse_args(argv)
    payload = as_shipped()
    with open(args.out, "w") as handle:
        json.dump(payload, handle, indent=1)
        handle.write("\n")
    worst = max((row for row in payload["rows"] if row["quantity"] == "type_i"), key=lambda row: row["wilson_low"])
    pooled = payload["pooled_type_i"]
    print(f"{len(payload['rows'])} decision rows from {', '.join(payload['runs'])} written to {args.out}; pooled "
          f"false alarms {pooled['measured']:.4f} [{pooled['wilson_low']:.4f}, {pooled['wilson_high']:.4f}] over "
          f"{pooled['replications']} null replications; the highest Wilson lower bound "
          f"{worst['wilson_low']:.3f} ({worst['population']} {worst['learner']} N={worst['n']}, {worst['method']})",
          file=sys.stderr)


if __name__ == "__main__":
    main()
