"""What ``accuracy_interval(record)`` with ``method="auto"`` costs against the explicit method it chooses (issue 59).

``auto`` reads the calibration evidence to choose; issue 59 measured it at 26-44 ms a call, about 95% of it scanning
the evidence's rows, against 2-3 ms for an explicit method. The evidence is now indexed once and each question
answered once (``policy/_evidence.py``, ``read_evidence``), so ``auto`` should cost about what its arithmetic costs:
the chosen interval plus the widths of the candidates it compares on the record.

Records: out-of-fold predictions of a binary label with 10% errors in 10 folds (``CVResult.from_predictions``, no
learner known, so the evidence of every measured learner stands), N = 100, 1,000 and 10,000 (at N = 100 a fold has
one error: Wong's conditions fail). Each call is timed in rounds interleaved with the explicit method's calls, after
a warm-up call each (the first call builds the index); the median per call is reported, with the ratio.

Run ``python benchmarks/auto_cost.py`` (``--label before`` against another checkout, with ``PYTHONPATH``); it writes
``benchmarks/results/auto_cost.json`` (one entry per label).
"""

import argparse
import json
import pathlib
import sys
import time
import warnings

import numpy as np

import cvinference as cvi

SIZES = (100, 1000, 10000)
RESULTS = pathlib.Path(__file__).parent / "results" / "auto_cost.json"


def record(n_samples, seed=0):
    """Out-of-fold predictions of a balanced binary label, 10% of them wrong, in 10 equal folds."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n_samples)
    wrong = rng.permutation(n_samples)[:n_samples // 10]
    y_pred = y.copy()
    y_pred[wrong] = 1 - y_pred[wrong]
    return cvi.CVResult.from_predictions(y, y_pred, fold=np.arange(n_samples) % 10)


def per_call(function, calls):
    started = time.perf_counter()
    for _ in range(calls):
        function()
    return (time.perf_counter() - started) / calls


def measure(n_samples, rounds, calls):
    result = record(n_samples)
    chosen = cvi.accuracy_interval(result).method  # the warm-up call of auto, and the method it chooses
    cvi.accuracy_interval(result, method=chosen)
    times = {"auto": [], "explicit": []}
    for _ in range(rounds):
        times["auto"].append(per_call(lambda: cvi.accuracy_interval(result), calls))
        times["explicit"].append(per_call(lambda: cvi.accuracy_interval(result, method=chosen), calls))
    auto_ms, explicit_ms = (1000 * float(np.median(times[k])) for k in ("auto", "explicit"))
    return {"n_samples": n_samples, "chosen": chosen, "auto_ms": round(auto_ms, 3),
            "explicit_ms": round(explicit_ms, 3), "ratio": round(auto_ms / explicit_ms, 2)}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--calls", type=int, default=20)
    parser.add_argument("--label", default="after")
    args = parser.parse_args(argv)
    with warnings.catch_warnings():  # auto's evidence warnings, the same every call: not what is timed
        warnings.simplefilter("ignore")
        rows = [measure(n, args.rounds, args.calls) for n in SIZES]
    print("| N | auto chose | auto ms/call | explicit ms/call | ratio |\n|---|---|---|---|---|")
    for row in rows:
        print(f"| {row['n_samples']:,} | {row['chosen']} | {row['auto_ms']:.2f} | {row['explicit_ms']:.2f} | "
              f"{row['ratio']:.2f} |")
    found = json.loads(RESULTS.read_text()) if RESULTS.is_file() else {}
    found[args.label] = {"python": sys.version.split()[0], "cvinference": cvi.__version__,
                         "rounds": args.rounds, "calls": args.calls, "rows": rows}
    RESULTS.write_text(json.dumps(found, indent=1) + "\n")


if __name__ == "__main__":
    main()
