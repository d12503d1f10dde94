"""Non-inferiority and equivalence at the margin's boundary, with real fits (issue 49, item 2).

``decide(pair, margin=m)`` answers "A non-inferior" when the one-sided test of the test the decision rests on
rejects "A is worse than B by m or more", and "equivalent" when both of Schuirmann's one-sided tests reject. Its
type-I error is the rate of those answers when the truth lies exactly on the boundary, a difference of -m; its
power, the rate when the truth lies inside, at 0.

The truth at the boundary is built from the calibration's symmetric population (calibration.py, "Populations": A =
the learner on block 1, B = the same learner on block 2, equal in expected accuracy at every training size) by
degrading the predictions at a known rate: each instance of the sample carries a coin of probability m, drawn
independently of everything else, and on the instances whose coin is up A's prediction is set wrong (the other
class) and B's right. With p_A and p_B the learners' expected accuracies, A's becomes (1 - m) p_A and B's
(1 - m) p_B + m, so the difference is (1 - m)(p_A - p_B) - m = -m exactly, for the expected accuracy at any training
size (the targets of every test the decision weighs). The coins are the instance's, the same in every repeat, as a
systematic advantage of B would be. The equivalence's other boundary, +m, is the same cell with A and B swapped,
which the population's symmetry makes the same in distribution; it is not run separately.

A replication fits one 10 x 10-fold ``CVEvaluator.compare`` of A and B (predict), and reads, for every prefix of r in
(1, 3, 10) repeats and every margin in :data:`MARGINS`:
* ``decide`` as shipped (without nested CV: what ``cvi.compare(..., n_repeats=r, margin=m)`` decides before it,
  ``nested="auto"``, refits), on the boundary's record (type-I) and on the undegraded record (power);
* every test the decision weighed, re-levelled the same way (``cvinference.policy._margin.margin_answer``), each a
  row of its own: the evidence the decision reads (``cvinference/policy/_margin_evidence.py``). A test whose
  interval is not symmetric (McNemar's) cannot be re-levelled and answers nothing: its rows are 0, as ``decide``
  says "cannot tell" where it would rest on it.

Rows (``quantity`` "type_i" at the boundary, "power" at 0, with ``alternative``, ``margin``, ``repeats`` and
Wilson bounds) go to ``cvinference/policy/data/margin_calibration.json``; ``--markdown`` prints the table of
docs/calibration.md, "Non-inferiority and equivalence". A JSONL ``--checkpoint`` keeps every finished replication:
a run cut short resumes, and ``--from-checkpoint`` reports what it holds.

    OMP_NUM_THREADS=1 python benchmarks/margin_calibration.py --checkpoint /tmp/margin.jsonl   # about 2 h, 1 core

``--confirm --seed 1 --out FILE`` checks the shipped rule on fresh replications: the decisions re-read with the
evidence that ships, so that the rows judged are not the rows that set the rule.
"""

import argparse
import json
import os
import time
import warnings
from pathlib import Path

import calibration
import numpy as np
from calibration_decision import decision_learner, method_of
from evidence_names import test_fields
from scipy import stats

import cvinference as cvi
from cvinference.inference._methods import display_label
from cvinference.policy._evidence import FAMILY_OF_KIND, Learner, folds_of, repeats_of
from cvinference.policy._margin import MARGIN_ALTERNATIVES, margin_answer, symmetric
from cvinference.policy._margin_evidence import margin_type_i

MARGINS = (0.01, 0.02, 0.05)
PREFIXES = (1, 3, 10)
N_SPLITS = 10
N_REPEATS = 10
NOMINAL = 0.95
POPULATION = "nonlinear"
DECISION = "decision (decide, as shipped, without nested CV)"
"""The key of the decision's answers in a replication's record (the run's decide, before the margin's evidence)."""
BEFORE = "decision before the margin's evidence (decide, without nested CV, {r}x10-fold)"
"""The rows of the decision as it was run, the answer of the test it rests on wherever it rests on one."""
SHIPPED = "decision with the margin's evidence (decide, without nested CV, {r}x10-fold)"
"""The decision as it ships with this run's evidence: the answer of the test it rests on where that test's
one-sided answer was measured within the limit at the boundary for the cell (this run's rows, read by the policy's
own rules), "cannot tell" where not."""
CELLS = {("logistic", 100): 400, ("logistic", 300): 400, ("logistic", 1000): 400, ("tree", 100): 400,
         ("tree", 300): 400, ("tree", 1000): 400, ("forest", 1000): 100, ("hgb", 1000): 60, ("forest", 3000): 20}
"""Replications per (learner, N): the forest has 25 trees (calibration_decision.py), hgb scikit-learn's defaults."""

OUT = Path(__file__).resolve().parents[1] / "cvinference" / "policy" / "data" / "margin_calibration.json"


def with_predictions(result, y_pred, repeats):
    """The record of the first ``repeats`` repeats of ``result`` with the predictions ``y_pred`` (its names kept)."""
    return cvi.CVResult(result.y_true, y_pred[:repeats], result.fold[:repeats],
                        response_method=result.response_method, estimator_type=result.estimator_type,
                        name=result.name, estimator_repr=result.estimator_repr, cv_repr=result.cv_repr)


def degraded(pair, coins):
    """The pair's predictions with A's set wrong and B's right on the instances whose coin is up (binary labels)."""
    y = pair.a.y_true
    wrong = np.where(coins, 1 - y, pair.a.y_pred)
    right = np.where(coins, y, pair.b.y_pred)
    return wrong, right


def answers(pair, repeats, y_pred_a, y_pred_b, *, check_margin=None):
    """The decision's and each symmetric test's answers to every margin and question on the first ``repeats``."""
    sub = cvi.PairedCVResult(with_predictions(pair.a, y_pred_a, repeats), with_predictions(pair.b, y_pred_b, repeats))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        decision = cvi.decide(sub, confidence_level=NOMINAL)
        if check_margin is not None:  # the shipped route with a margin, against the re-levelling below
            shipped = cvi.decide(sub, confidence_level=NOMINAL, margin=check_margin).answer
    tests = {DECISION: decision.rests_on}
    tests |= {method_of(test.name): test for test in decision.context if test is not None}
    if decision.rests_on is not None:
        tests[method_of(decision.rests_on.name)] = decision.rests_on
    found = {}
    for name, test in tests.items():
        usable = test is not None and symmetric(test.estimate, test.low, test.high)
        for margin in MARGINS:
            for alternative in MARGIN_ALTERNATIVES:
                reject = usable and margin_answer(
                    test.estimate, test.low, test.high, test.df, confidence_level=NOMINAL, margin=margin,
                    question=alternative).answer in ("A non-inferior", "equivalent")
                found[f"{name}|{alternative}|{margin:g}"] = bool(reject)
    if check_margin is not None:
        mine = found[f"{DECISION}|non-inferior|{check_margin:g}"]
        assert mine == (shipped == "A non-inferior"), (shipped, mine)
    rests_on = "cannot tell" if decision.rests_on is None else method_of(decision.rests_on.name)
    return found, rests_on


def replication(population, learner, n, seed):
    start = time.perf_counter()
    rng = np.random.default_rng(seed)
    sample, _ = population.draw(n, rng)
    X, y = population.X[sample], population.y[sample]
    half = population.X.shape[1] // 2
    estimators = [decision_learner(learner, columns, calibration.learner) for columns in ((0, half), (half, 2 * half))]
    seed_cv = int(rng.integers(2**31))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pair = cvi.CVEvaluator(cv=N_SPLITS, n_repeats=N_REPEATS, random_state=seed_cv).compare(*estimators, X, y)
    uniform = rng.random(n)
    boundaries = {margin: degraded(pair, uniform < margin) for margin in MARGINS}
    record = {"inside": {}, "boundary": {}, "rests_on": {}, "difference": {
        f"{margin:g}": float(np.mean(a == y) - np.mean(b == y)) for margin, (a, b) in boundaries.items()}}
    for repeats in PREFIXES:
        inside, rests_on = answers(pair, repeats, pair.a.y_pred, pair.b.y_pred)
        record["inside"][str(repeats)] = inside
        record["rests_on"][str(repeats)] = rests_on
        for margin in MARGINS:
            found, _ = answers(pair, repeats, *boundaries[margin],
                               check_margin=margin if repeats == N_REPEATS else None)
            record["boundary"][f"{repeats}|{margin:g}"] = {k: v for k, v in found.items() if k.endswith(f"|{margin:g}")}
    record["seconds"] = time.perf_counter() - start
    return record


def rate(count, trials):
    ci = stats.binomtest(int(count), int(trials)).proportion_ci(NOMINAL, method="wilson")
    return {"measured": round(count / trials, 4), "wilson_low": round(float(ci.low), 4),
            "wilson_high": round(float(ci.high), 4), "replications": int(trials)}


def rows_of(learner, n, records):
    """The cell's rows: per prefix, method, question and margin, the boundary's type-I error and the power at 0."""
    rows = []
    for repeats in PREFIXES:
        for margin in MARGINS:
            boundary = [r["boundary"][f"{repeats}|{margin:g}"] for r in records]
            inside = [r["inside"][str(repeats)] for r in records]
            keys = dict.fromkeys(k for found in boundary for k in found)
            for key in keys:
                method, alternative, _ = key.split("|")
                held = [found[key] for found in boundary if key in found]
                power = [found[key] for found in inside if key in found]
                base = {**test_fields(method if method != DECISION else BEFORE.format(r=repeats)),
                        "alternative": alternative, "margin": margin, "repeats": repeats, "learner": learner,
                        "n": n, "population": POPULATION, "nominal": 1 - NOMINAL, "task": "classification"}
                rows.append(base | {"quantity": "type_i", "truth": -margin} | rate(sum(held), len(held)))
                if power:
                    rows.append(base | {"quantity": "power", "truth": 0.0} | rate(sum(power), len(power)))
    return rows


def shipped_rows(learner, n, records, rows):
    """The rows of :data:`SHIPPED` for a cell: its records' decisions re-read with the evidence ``rows`` (None: the
    evidence that ships)."""
    kind = Learner(learner, learner, FAMILY_OF_KIND.get(learner))
    found = []
    for repeats in PREFIXES:
        for margin in MARGINS:
            for alternative in MARGIN_ALTERNATIVES:
                declared = {"type_i": [], "power": []}
                for record in records:
                    test = record["rests_on"][str(repeats)]
                    evidence = None if test == "cannot tell" else margin_type_i(
                        test_fields(test)["method"], [kind, kind], n, alternative, repeats, rows=rows)
                    answers_here = evidence is None or evidence.holds
                    key = f"{test}|{alternative}|{margin:g}"
                    declared["type_i"].append(answers_here and record["boundary"][f"{repeats}|{margin:g}"].get(
                        key, False))
                    declared["power"].append(answers_here and record["inside"][str(repeats)].get(key, False))
                base = {**test_fields(SHIPPED.format(r=repeats)), "alternative": alternative, "margin": margin,
                        "repeats": repeats, "learner": learner, "n": n, "population": POPULATION,
                        "nominal": 1 - NOMINAL, "task": "classification"}
                found += [base | {"quantity": quantity, "truth": -margin if quantity == "type_i" else 0.0}
                          | rate(sum(values), len(values)) for quantity, values in declared.items()]
    return found


def read_checkpoint(path):
    done = {}
    if path and os.path.exists(path):
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                if line.endswith("\n") and line.strip():
                    record = json.loads(line)
                    done[record["cell"], record["replication"]] = record
    return done


def run(cells, seed, checkpoint, log=print):
    done = read_checkpoint(checkpoint)
    population = calibration.load(POPULATION)
    jobs = []
    for (learner, n), replications in cells.items():
        seeds = np.random.SeedSequence([seed, *f"margin/{learner}/{n}".encode()]).spawn(replications)
        jobs += [(index, learner, n, int(s.generate_state(1)[0])) for index, s in enumerate(seeds)
                 if (f"{learner}/{n}", index) not in done]
    jobs.sort()  # round-robin over the cells: a run cut short leaves each about as many
    log(f"{len(jobs)} replications to run, {len(done)} from the checkpoint", flush=True)
    start = time.perf_counter()
    with open(checkpoint, "a") if checkpoint else open(os.devnull, "w") as out:
        for count, (index, learner, n, job_seed) in enumerate(jobs, 1):
            record = replication(population, learner, n, job_seed) | {"cell": f"{learner}/{n}", "replication": index}
            done[record["cell"], index] = record
            out.write(json.dumps(record) + "\n")
            out.flush()
            if count % 20 == 0 or count == len(jobs):
                elapsed = time.perf_counter() - start
                log(f"  {count}/{len(jobs)}, {elapsed:.0f} s", flush=True)
    return done


def _rate(row):
    return f"{row['measured']:.3f} [{row['wilson_low']:.3f}, {row['wilson_high']:.3f}]"


def _test_label(row):
    """A test's row named as a report names it, its R x K-fold design where it states one (None: a decision's row)."""
    if row["method"] == "decision":
        return None
    design = f" ({repeats_of(row)}x{folds_of(row)}-fold)" if repeats_of(row) is not None else ""
    return display_label(row["method"], design)


def worst_table(data, alternative="non-inferior"):
    """Per cell and method, the type-I error at the boundary, worst over the margins (what the decision reads)."""
    rows = [row for row in data["rows"] if row["quantity"] == "type_i" and row["alternative"] == alternative]
    methods = [method for method in dict.fromkeys(map(_test_label, rows)) if method is not None]
    cells = list(dict.fromkeys((row["learner"], row["n"]) for row in rows))
    lines = ["| learner, N | " + " | ".join(methods) + " |", "|---" * (1 + len(methods)) + "|"]
    for learner, n in cells:
        texts = []
        for method in methods:
            found = [row for row in rows if (row["learner"], row["n"], _test_label(row)) == (learner, n, method)]
            texts.append(_rate(max(found, key=lambda row: row["measured"])) if found else "")
        lines.append(f"| {learner}, {n} | " + " | ".join(texts) + " |")
    return "\n".join(lines)


def decision_table(data):
    """The decision as it ships (:data:`SHIPPED`), per cell: at each number of repeats, its type-I error at the
    boundary (worst over the margins) for each question, and its power at 0 against the largest margin."""
    rows = [row for row in data["rows"] if row["method"] == "decision" and row["margin_evidence"]]
    largest = max(MARGINS)
    header = ["learner, N"] + [f"{question} type-I, {r}x10" for question in ("NI", "eq") for r in PREFIXES] + [
        f"{question} power at 0, margin {largest:g}, {r}x10" for question in ("NI", "eq") for r in PREFIXES]
    lines = ["| " + " | ".join(header) + " |", "|---" * len(header) + "|"]
    def rows_of_cell(learner, n, quantity, alternative, repeats):
        return [r for r in rows if (r["learner"], r["n"], r["quantity"], r["alternative"], r["repeats"])
                == (learner, n, quantity, alternative, repeats)]
    for learner, n in dict.fromkeys((r["learner"], r["n"]) for r in rows):
        texts = [_rate(max(rows_of_cell(learner, n, "type_i", alternative, r), key=lambda row: row["measured"]))
                 for alternative in MARGIN_ALTERNATIVES for r in PREFIXES]
        texts += [_rate(next(row for row in rows_of_cell(learner, n, "power", alternative, r)
                             if row["margin"] == largest)) for alternative in MARGIN_ALTERNATIVES for r in PREFIXES]
        lines.append(f"| {learner}, {n} | " + " | ".join(texts) + " |")
    return "\n".join(lines)


def markdown(data):
    """The tables of docs/calibration.md, "Non-inferiority and equivalence"."""
    return "\n\n".join([decision_table(data), worst_table(data), worst_table(data, "equivalent")])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--checkpoint", default=None)
    parser.add_argument("--from-checkpoint", action="store_true", help="run nothing: report what --checkpoint holds")
    parser.add_argument("--cells", nargs="*", default=None, metavar="LEARNER/N", help="run only these cells")
    parser.add_argument("--replications", type=int, default=None, help="every cell's replications")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--markdown", action="store_true", help="print the table of the rows in --out and stop")
    parser.add_argument("--confirm", action="store_true",
                        help="an independent check of the shipped rule: re-read the decisions with the evidence that "
                             "ships, not this run's rows (use another --seed and an --out of its own)")
    args = parser.parse_args(argv)
    if args.markdown:
        print(markdown(json.loads(args.out.read_text())))
        return
    cells = {key: args.replications or count for key, count in CELLS.items()
             if args.cells is None or f"{key[0]}/{key[1]}" in args.cells}
    done = read_checkpoint(args.checkpoint) if args.from_checkpoint else run(cells, args.seed, args.checkpoint)
    rows, seconds, by_cell = [], {}, {}
    for (learner, n), replications in cells.items():
        records = [done[f"{learner}/{n}", i] for i in range(replications) if (f"{learner}/{n}", i) in done]
        if records:
            rows += rows_of(learner, n, records)
            by_cell[learner, n] = records
            seconds[f"{learner}/{n}"] = round(float(np.mean([r["seconds"] for r in records])), 2)
    evidence = None if args.confirm else rows
    rows += [row for (learner, n), records in by_cell.items()
             for row in shipped_rows(learner, n, records, evidence)]
    setting = {"population": "calibration.py's symmetric nonlinear population, A on block 1 and B on block 2",
               "boundary": "A wrong and B right on a coin of probability m per instance: a difference of exactly -m",
               "cv": f"CVEvaluator(cv={N_SPLITS}, n_repeats={N_REPEATS}), prefixes of {PREFIXES} repeats",
               "margins": list(MARGINS), "seconds_per_replication": seconds,
               "command": "python benchmarks/margin_calibration.py"}
    data = {"setting": setting, "rows": rows}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(data, indent=0) + "\n")
    print(markdown(data))


if __name__ == "__main__":
    main()
