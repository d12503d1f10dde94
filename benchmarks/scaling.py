"""Scaling: n_jobs against one process, the worker pool against scikit-learn's, and studies on loky and Dask.

    python benchmarks/scaling.py [--n-jobs K] [--runs 5] [--output docs/scaling.md] [--quick]

K defaults to every core. On a 16-core machine this one command measures
the 16-core rows; its table replaces the generated section of
docs/scaling.md (between ``<!-- scaling figures -->`` and
``<!-- end scaling figures -->``), with the machine named. Every ratio is
of medians of interleaved runs made in this one process (see run.py), or,
for first calls, of fresh processes started in turn.

Core use is the one-process time divided by K times the wall time: the
one-process run (n_jobs=1) makes the same fits in the same process, so its
wall time is the sum of the single fits plus the study's own bookkeeping.
"""

import argparse
import functools
import json
import pickle
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import joblib
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_validate
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi
from cvinference.evaluation._partitions import draw_partitions

from run import Report, Timings, _medians, _seconds, _single_fits, interleaved, machine

START, END = "<!-- scaling figures -->", "<!-- end scaling figures -->"
TREE = DecisionTreeClassifier(random_state=0)
NEVER_SLOWER = 1.05
SKLEARN_PARITY = 1.05
PHYSICAL = 1.25
FIRST_CALL = 1.2


def workloads(quick):
    """(name, estimator, X, y, cv, n_repeats): cheap and heavy estimators, small and large n."""
    scale = 10 if quick else 1
    large_X, large_y = make_classification(200_000 // scale, 10, random_state=0)
    w1_X, w1_y = make_classification(20_000 // scale, 20, random_state=0)
    small_X, small_y = make_classification(1_000, 10, random_state=0)
    return [
        (f"GaussianNB, n = {len(large_y):,} x 10, 10-fold x 5", GaussianNB(), large_X, large_y, 10, 5),
        (f"decision tree, n = {len(w1_y):,} x 20, 10-fold", TREE, w1_X, w1_y, 10, 1),
        (f"logistic regression, n = {len(w1_y):,} x 20, 10-fold", LogisticRegression(), w1_X, w1_y, 10, 1),
        ("GaussianNB, n = 1,000 x 10, 10-fold x 5", GaussianNB(), small_X, small_y, 10, 5),
    ]


def never_slower(report, n_jobs, runs, quick):
    report.section(
        "Never slower for asking (warm pool)",
        f"cross_val_correctness(estimator, X, y, cv, n_repeats, random_state=0) with n_jobs={n_jobs} against "
        f"n_jobs=1, after one warm-up call each (the pool is started). Target: at most {NEVER_SLOWER}.")
    for name, estimator, X, y, cv, n_repeats in workloads(quick):
        candidates = {f"n_jobs={k}": functools.partial(cvi.cross_val_correctness, estimator, X, y, cv=cv,
                                                       n_repeats=n_repeats, random_state=0, n_jobs=k)
                      for k in (1, n_jobs)}
        times = interleaved(candidates, runs)
        report.row(f"{name}: n_jobs={n_jobs} / n_jobs=1", times[f"n_jobs={n_jobs}"] / times["n_jobs=1"], NEVER_SLOWER,
                   detail=_medians(times, f"n_jobs={n_jobs}", "n_jobs=1"))


_FIRST_CALL = """
import json, sys, time
from sklearn.datasets import make_classification
from sklearn.model_selection import RepeatedStratifiedKFold, cross_validate
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier
import cvinference as cvi
estimator = {estimator}
X, y = make_classification({n}, {p}, random_state=0)
start = time.perf_counter()
if "{library}" == "cvinference":
    cvi.cross_val_correctness(estimator, X, y, cv=10, n_repeats={n_repeats}, random_state=0, n_jobs={n_jobs})
else:
    cross_validate(estimator, X, y, cv=RepeatedStratifiedKFold(n_splits=10, n_repeats={n_repeats}, random_state=0),
                   n_jobs={n_jobs})
print(json.dumps(time.perf_counter() - start))
"""


def _first_call(library, estimator, n, p, n_repeats, n_jobs):
    code = _FIRST_CALL.format(library=library, estimator=estimator, n=n, p=p, n_repeats=n_repeats, n_jobs=n_jobs)
    return json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                     check=True).stdout)


def first_calls(report, n_jobs, runs, quick):
    report.section(
        "The first call (a fresh process each time)",
        f"The first cross-validation of a fresh Python process, which starts joblib's worker pool: "
        f"cvinference's cross_val_correctness with n_jobs={n_jobs} against n_jobs=1, and against scikit-learn's "
        f"cross_validate(cv=RepeatedStratifiedKFold) with n_jobs={n_jobs} (the same number of fits). Target "
        f"against scikit-learn: at most {FIRST_CALL}. {runs} fresh processes per candidate, in turn.")
    scale = 10 if quick else 1
    for name, estimator, n, p, n_repeats in (
            (f"GaussianNB, n = {200_000 // scale:,} x 10, 10-fold x 5", "GaussianNB()", 200_000 // scale, 10, 5),
            (f"decision tree, n = {20_000 // scale:,} x 20, 10-fold x 5", "DecisionTreeClassifier(random_state=0)",
             20_000 // scale, 20, 5)):
        candidates = {"cvinference n_jobs=1": ("cvinference", 1),
                      f"cvinference n_jobs={n_jobs}": ("cvinference", n_jobs),
                      f"scikit-learn n_jobs={n_jobs}": ("sklearn", n_jobs)}
        rounds = {key: [] for key in candidates}
        for _ in range(runs):
            for key, (library, k) in candidates.items():
                rounds[key].append(_first_call(library, estimator, n, p, n_repeats, k))
        times = Timings(rounds)
        ours = f"cvinference n_jobs={n_jobs}"
        report.row(f"{name}: first call, n_jobs={n_jobs} / n_jobs=1", times[ours] / times["cvinference n_jobs=1"],
                   detail=_medians(times, ours, "cvinference n_jobs=1"))
        theirs = f"scikit-learn n_jobs={n_jobs}"
        report.row(f"{name}: first call / scikit-learn's first call", times[ours] / times[theirs],
                   FIRST_CALL, detail=_medians(times, ours, theirs))


SIZES = (1_000, 4_000, 20_000)
"""The sizes of the comparison with cross_validate: fits of a few milliseconds, about 30 ms and about 0.3 s."""


def against_sklearn(report, n_jobs, runs, quick):
    for n in SIZES:
        _against_sklearn_at(report, n_jobs, runs, n // (10 if quick and n > 1_000 else 1))


def _against_sklearn_at(report, n_jobs, runs, n):
    X, y = make_classification(n, 20, random_state=0)
    splits = _splits(X, y, 5)
    other = DecisionTreeClassifier(max_depth=12, random_state=0)
    report.section(
        f"Many workers: evaluate and compare against cross_validate (n = {len(y):,} x 20, 10-fold x 5)",
        f"Warm calls with n_jobs={n_jobs} on the same 50 splits: CVEvaluator(cv, n_repeats=5).evaluate(tree) "
        f"against cross_validate(tree, cv=those splits), compare(tree, deeper-limited tree) against two "
        f"cross_validate calls, and both against the physical limit: the sum of the single fits (one "
        f"process, no pool) divided by {n_jobs}. Targets: {SKLEARN_PARITY} against scikit-learn, {PHYSICAL} "
        f"against the limit.")
    evaluator = cvi.CVEvaluator(10, n_repeats=5, random_state=0, n_jobs=n_jobs)
    times = interleaved({
        "evaluate": lambda: evaluator.evaluate(TREE, X, y),
        "cross_validate": lambda: cross_validate(TREE, X, y, cv=splits, n_jobs=n_jobs),
        "compare": lambda: evaluator.compare(TREE, other, X, y),
        "two cross_validate": lambda: (cross_validate(TREE, X, y, cv=splits, n_jobs=n_jobs),
                                       cross_validate(other, X, y, cv=splits, n_jobs=n_jobs)),
        "single fits": lambda: _single_fits(TREE, X, y, splits),
        "single fits of both": lambda: (_single_fits(TREE, X, y, splits), _single_fits(other, X, y, splits)),
    }, runs)
    fit_ms = times["single fits"] / len(splits) * 1000
    report.row(f"evaluate / cross_validate ({fit_ms:.3g} ms a fit)", times["evaluate"] / times["cross_validate"],
               SKLEARN_PARITY, detail=_medians(times, "evaluate", "cross_validate"))
    report.row("compare / two cross_validate", times["compare"] / times["two cross_validate"], SKLEARN_PARITY,
               detail=_medians(times, "compare", "two cross_validate"))
    for name, fits in (("evaluate", "single fits"), ("compare", "single fits of both")):
        report.row(f"{name} / physical limit", times[name] / (times[fits] / n_jobs), PHYSICAL,
                   detail=f"{name} {times[name]:.3g} s; sum of the single fits {times[fits]:.3g} s / {n_jobs}")


DASK_PARITY = 1.35


def dask_evaluate(report, n_jobs, runs, quick):
    """evaluate and cross_validate of 60 medium fits on a LocalCluster against the same on loky."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        report.section("evaluate on a Dask cluster (not measured: dask[distributed] is not installed)")
        return
    X, y = make_classification(10_000 // (10 if quick else 1), 20, random_state=0)
    evaluator = cvi.CVEvaluator(10, n_repeats=6, random_state=0, n_jobs=n_jobs)
    splits = _splits(X, y, 6)
    report.section(
        f"evaluate on a Dask cluster (n = {len(y):,} x 20, 10-fold x 6: 60 fits of a tree)",
        f"Warm calls: CVEvaluator(10, n_repeats=6, n_jobs={n_jobs}).evaluate(tree) under "
        f"joblib.parallel_config(backend='dask') on a LocalCluster of {n_jobs} single-thread worker processes, "
        f"against the same call on loky; scikit-learn's cross_validate on the same 60 splits under both "
        f"backends beside it. Target: dask / loky at most {DASK_PARITY}. The fits go to the cluster by futures "
        "(the data sent once, fits batched into tasks of about a second).")

    def under(backend, call):
        def run():
            with joblib.parallel_config(backend=backend):
                return call()
        return run

    ours = lambda: evaluator.evaluate(TREE, X, y)  # noqa: E731
    theirs = lambda: cross_validate(TREE, X, y, cv=splits, n_jobs=n_jobs)  # noqa: E731
    with LocalCluster(n_workers=n_jobs, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster):
        times = interleaved({"evaluate, loky": under("loky", ours), "evaluate, dask": under("dask", ours),
                             "cross_validate, loky": under("loky", theirs),
                             "cross_validate, dask": under("dask", theirs)}, runs)
    report.row("evaluate: dask / loky", times["evaluate, dask"] / times["evaluate, loky"], DASK_PARITY,
               detail=_medians(times, "evaluate, dask", "evaluate, loky"))
    report.row("cross_validate: dask / loky", times["cross_validate, dask"] / times["cross_validate, loky"],
               detail=_medians(times, "cross_validate, dask", "cross_validate, loky"))
    report.row("evaluate on dask / cross_validate on dask", times["evaluate, dask"] / times["cross_validate, dask"],
               detail=_medians(times, "evaluate, dask", "cross_validate, dask"))


def _splits(X, y, n_repeats):
    partitions = draw_partitions(10, X, y, None, n_repeats=n_repeats, random_state=0, classifier=True)
    return [partitions.split(r, j) for r in range(n_repeats) for j in range(10)]


def _study(n_draws, n_jobs=None):
    X, y = _population()
    return cvi.conditional_error_study(DecisionTreeClassifier(max_depth=6, random_state=0), X, y, sample_size=300,
                                       n_draws=n_draws, cv=10, max_repeats=10, random_state=0, n_jobs=n_jobs)


def _population():
    return make_classification(20_000, 10, random_state=1)


def studies(report, n_jobs, quick):
    n_draws = 10 if quick else 100
    fits = n_draws * (1 + 10 * 10)
    report.section(
        f"A study of {fits:,} fits: core use on loky and on a Dask cluster",
        f"conditional_error_study(tree of depth 6, make_classification(20000, 10), sample_size=300, "
        f"n_draws={n_draws}, cv=10, max_repeats=10): {fits:,} fits of a few milliseconds. Core use = "
        f"one-process time / ({n_jobs} x wall time); targets 0.90 on loky, 0.80 on a LocalCluster of "
        f"{n_jobs} single-thread worker processes (the futures path: tasks of whole draws, the population "
        f"scattered once); on loky each draw is a task too. Each run's result is compared with the one-process run's.")
    one = _seconds(lambda: _study(n_draws, 1))
    reference = _study(n_draws, 1).to_dict()
    _study(2, n_jobs)  # the pool is warm, as the cluster is
    start = time.perf_counter()
    loky = _study(n_draws, n_jobs)
    loky_seconds = time.perf_counter() - start
    report.row("loky: core use", one / (n_jobs * loky_seconds), 0.90, lower_is_better=False,
               detail=f"one process {one:.3g} s, n_jobs={n_jobs} {loky_seconds:.3g} s; identical: "
                      f"{'yes' if loky.to_dict() == reference else 'NO'}")
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        report.row("Dask: core use (not measured: dask[distributed] is not installed)", float("nan"))
        return None
    with LocalCluster(n_workers=n_jobs, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client, joblib.parallel_config(backend="dask"):
        _study(2)
        start = time.perf_counter()
        on_cluster = _study(n_draws)
        dask_seconds = time.perf_counter() - start
        overhead = _task_overhead(client)
    report.row("Dask futures: core use", one / (n_jobs * dask_seconds), 0.80, lower_is_better=False,
               detail=f"one process {one:.3g} s, cluster {dask_seconds:.3g} s; identical: "
                      f"{'yes' if on_cluster.to_dict() == reference else 'NO'}")
    return {"draw_seconds": one / n_draws, "n_draws": n_draws, "task_seconds": overhead,
            "task_bytes": _task_bytes()}


def _nothing(item):
    return None


def _task_overhead(client, tasks=2000):
    """Seconds per task of the cluster's scheduler: empty tasks submitted at once, gathered at once."""
    client.gather(client.map(_nothing, range(100), pure=False))
    start = time.perf_counter()
    client.gather(client.map(_nothing, range(tasks), pure=False))
    return (time.perf_counter() - start) / tasks


def _task_bytes():
    """Bytes of one draw's task arguments (its plan), pickled."""
    from cvinference.studies._draws import plan_draw
    from cvinference.studies._population import rest_of_population

    X, y = _population()
    plan = plan_draw(X, y, 0, choose_sample=lambda rng: rng.choice(len(y), 300, replace=False),
                     scored=rest_of_population(len(y)), cv=10, n_repeats=10, classifier=True)
    return len(pickle.dumps((0, plan)))


def beyond(report, figures):
    from cvinference._utils._cluster import TASK_SECONDS

    report.section(
        "Beyond one machine: 64 to 256 workers (arithmetic from the figures above, not measured)",
        f"On the futures path a task holds whole draws: one until draws are timed, then about "
        f"{TASK_SECONDS:g} s of them (s seconds a task), shrinking to one draw at the end. Two things bound "
        "the core use of W workers. The scheduler handles a task in about o seconds (measured above as the "
        "time per empty task) while W workers ask for W / s tasks a second: at most min(1, s / (W x o)). "
        "And the last draws: workers finish within about one draw's time t of each other, W x t idle "
        "worker-seconds beside D x t of work: at most D / (D + W). Each task carries its draws' plans (the "
        "rows and folds, the bytes below per draw); the population is sent once per worker. Bound = "
        "min(1, s / (W x o)) x D / (D + W), for D = 10,000 draws of the study above.")
    if figures is None:
        return
    t, o = figures["draw_seconds"], figures["task_seconds"]
    task = max(t, TASK_SECONDS)
    draws = 10_000
    for workers in (16, 64, 128, 256):
        bound = min(1.0, task / (workers * o)) * draws / (draws + workers)
        report.row(f"W = {workers}: core use bound", bound, lower_is_better=False,
                   detail=f"t = {t * 1000:.0f} ms a draw, s = {task:.2g} s a task, o = {o * 1000:.2f} ms a task, "
                          f"{figures['task_bytes']:,} bytes a draw")


SECTIONS = {"never-slower": never_slower, "first-calls": first_calls, "sklearn": against_sklearn,
            "dask-evaluate": dask_evaluate, "studies": None}


def write(path, text):
    page = Path(path).read_text()
    head, rest = page.split(START, 1)
    _, tail = rest.split(END, 1)
    Path(path).write_text(f"{head}{START}\n{text}\n{END}{tail}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-jobs", type=int, default=joblib.cpu_count())
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--output", default=str(Path(__file__).resolve().parents[1] / "docs" / "scaling.md"))
    parser.add_argument("--quick", action="store_true", help="data a tenth the size and 3 runs, for a smoke run")
    parser.add_argument("--print-only", action="store_true", help="print the table; write no file")
    parser.add_argument("--sections", default=",".join(SECTIONS),
                        help=f"comma-separated, of {', '.join(SECTIONS)} (default: all)")
    args = parser.parse_args(argv)
    runs = 3 if args.quick else args.runs
    started = time.perf_counter()
    report = Report()
    chosen = args.sections.split(",")
    unknown = sorted(set(chosen) - set(SECTIONS))
    if unknown:
        parser.error(f"--sections: unknown {', '.join(unknown)}; choose from {', '.join(SECTIONS)}")
    for name in ("never-slower", "first-calls", "sklearn", "dask-evaluate"):
        if name in chosen:
            SECTIONS[name](report, args.n_jobs, runs, args.quick)
    if "studies" in chosen:
        beyond(report, studies(report, args.n_jobs, args.quick))
    command = "python benchmarks/scaling.py" + "".join(f" {a}" for a in (argv if argv is not None else sys.argv[1:]))
    text = "\n".join([
        f"Written by `{command}` in {time.perf_counter() - started:.0f} s, with n_jobs = {args.n_jobs}.",
        "", textwrap.fill(f"Machine: {machine()}.", 100), "", report.markdown().replace("## ", "### ")])
    print(text)
    if not args.print_only:
        write(args.output, text)


if __name__ == "__main__":
    main()
