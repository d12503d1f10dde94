"""Every study killed with SIGKILL midway and restarted: it resumes from its checkpoint to the same result.

Each run is a process of its own (``run_study`` in a forked child), killed
with SIGKILL once its checkpoint file holds a finished draw; a new process
with the same arguments then finishes the study. The processes are forked
from a server that ``multiprocessing``'s forkserver starts with
``sys.executable`` and ``PYTHONPATH`` set to this checkout, after it has
imported scikit-learn and cvinference: a fresh interpreter spends seconds
on those imports, a fork milliseconds, and the killed and the restarted
runs still share nothing but the checkpoint file.

The learners sleep in ``fit`` so that a run lasts long enough to be killed
midway, and append one line per fit to a log, the process and thread that
fitted: the tests count a run's fits with it and see whether a pool took
part.
"""

import functools
import json
import multiprocessing
import multiprocessing.forkserver
import os
import signal
import sys
import threading
import time
import traceback
from contextlib import contextmanager, nullcontext
from pathlib import Path

import joblib
import pytest
from sklearn.datasets import make_classification
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi

pytestmark = pytest.mark.skipif(sys.platform == "win32" or not hasattr(signal, "SIGKILL"),
                                reason="needs SIGKILL, fork and process groups (POSIX)")

REPO_ROOT = Path(__file__).resolve().parents[2]
FIT_LOG = "CVINFERENCE_TEST_FIT_LOG"
FIT_SECONDS = "CVINFERENCE_TEST_FIT_SECONDS"
POOL_AFTER = "CVINFERENCE_TEST_POOL_AFTER"

X, Y = make_classification(1000, 4, n_informative=2, n_redundant=0, random_state=0)
N_DRAWS = 6


def _fitters(log):
    """The (process, thread) of every fit logged (a line still being written is not one yet)."""
    lines = log.read_text().split("\n")[:-1] if log.exists() else []
    return [tuple(line.split(" ", 1)) for line in lines]


class _Logged:
    """Logs every fit to ``$CVINFERENCE_TEST_FIT_LOG``, then sleeps ``$CVINFERENCE_TEST_FIT_SECONDS``.

    With ``$CVINFERENCE_TEST_POOL_AFTER`` = n, a fit after the first n waits
    until a second process or thread has fitted: a run cannot end before its
    pool has started, however slowly the pool's workers start.
    """

    def fit(self, X, y):
        log = os.environ.get(FIT_LOG)
        if log:
            with open(log, "a", encoding="utf-8") as file:
                file.write(f"{os.getpid()} {threading.current_thread().name}\n")
            deadline = time.monotonic() + 60
            while (len(fitters := _fitters(Path(log))) > int(os.environ.get(POOL_AFTER, sys.maxsize))
                   and len(set(fitters)) < 2 and time.monotonic() < deadline):
                time.sleep(0.01)
        time.sleep(float(os.environ.get(FIT_SECONDS, "0")))
        return super().fit(X, y)


class SlowNB(_Logged, GaussianNB):
    pass


class SlowTree(_Logged, DecisionTreeClassifier):
    pass


STUDIES = {
    "conditional_error_study": (
        lambda **run: cvi.conditional_error_study(SlowNB(), X, Y, sample_size=40, cv=3, max_repeats=2, **run),
        {"": 1 + 3 * 2}),
    "winner_table": (
        lambda **run: cvi.winner_table(SlowNB(), SlowTree(max_depth=2, random_state=0), X, Y, sample_size=40, cv=3,
                                       **run),
        {"": 2 * (1 + 3)}),
    "precision_study": (
        lambda **run: cvi.precision_study(SlowNB(), X, Y, sample_size=40, folds=(2, 3), **run),
        {"K=2": 1 + 2, "K=3": 3}),
    "fold_size_study": (
        lambda **run: cvi.fold_size_study(SlowNB(), X, Y, sample_size=40, n_splits=3, **run),
        {"": 1 + 3 * 3}),
}
"""Per study: the call, and the fits of one draw in each part of its checkpoint ("" for the plain draws),
counted by hand from the study's scheme: conditional_error_study fits the whole sample, then 2 repeats of 3
folds; winner_table does so for each learner with 1 repeat; precision_study fits the whole sample once (in
the first K's part), and K folds per K; fold_size_study the whole sample, then 3 folds for each of Wong's 3
approaches."""


def run_study(study, n_jobs, checkpoint, *, random_state=0):
    call, _ = STUDIES[study]
    return call(n_draws=N_DRAWS, random_state=random_state, n_jobs=n_jobs, checkpoint=checkpoint)


def _child(study, n_jobs, backend, checkpoint, output, env):
    """A run in a process of its own: the study's to_dict() as JSON in ``output``, or the traceback beside it.

    It ends with ``os._exit``, as a script's end would not wait for the pool's
    idle workers (multiprocessing would, in a child of its own).
    """
    os.setsid()  # its own process group, so that a pool's workers are killed with it
    os.environ.update(env)
    try:
        if not Path(cvi.__file__).resolve().is_relative_to(REPO_ROOT):
            raise ImportError(f"cvinference came from {cvi.__file__}, not from the checkout {REPO_ROOT}")
        with joblib.parallel_config(backend=backend) if backend else nullcontext():
            result = run_study(study, n_jobs, checkpoint)
        Path(output).write_text(json.dumps(result.to_dict(), allow_nan=False), encoding="utf-8")
    except BaseException:  # noqa: BLE001 - any failure is written for the test to show
        Path(f"{output}.error").write_text(traceback.format_exc(), encoding="utf-8")
        os._exit(1)
    os._exit(0)


@contextmanager
def _environment(name, value):
    old = os.environ.get(name)
    os.environ[name] = value
    try:
        yield
    finally:
        if old is None:
            del os.environ[name]
        else:
            os.environ[name] = old


@functools.cache
def _processes():
    """The forkserver context, its server started with PYTHONPATH set to this checkout and this module's imports
    done."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["cvinference", "joblib", "pytest", "sklearn.datasets", "sklearn.naive_bayes",
                                    "sklearn.tree"])
    with _environment("PYTHONPATH", str(REPO_ROOT)):
        multiprocessing.forkserver.ensure_running()
    return context


class Run:
    """One run of a study in a process of its own; ``kill`` sends SIGKILL to it and whatever it started."""

    def __init__(self, study, n_jobs, folder, name, *, backend=None, seconds_per_fit=0.0, checkpoint=None,
                 wait_for_pool=False):
        self.output, self.log = folder / f"{name}.json", folder / f"{name}.log"
        env = {FIT_LOG: str(self.log), FIT_SECONDS: str(seconds_per_fit)}
        if wait_for_pool:  # after the fits of one draw
            env[POOL_AFTER] = str(sum(STUDIES[study][1].values()))
        self.process = _processes().Process(
            target=_child, args=(study, n_jobs, backend, checkpoint, str(self.output), env))
        self.process.start()

    def result(self, timeout=120):
        self.process.join(timeout)
        self._kill_group()
        error = Path(f"{self.output}.error")
        assert self.process.exitcode == 0, error.read_text() if error.exists() else self.process.exitcode
        return json.loads(self.output.read_text())

    def kill(self):
        self.process.kill()
        self.process.join()
        self._kill_group()

    def _kill_group(self):
        """SIGKILL what is left of the run's process group: the pool's workers, or the run itself after a timeout."""
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


@functools.cache
def _reference(study, folder):
    """The to_dict() of an uninterrupted run without a checkpoint (no sleep in fit)."""
    return Run(study, 1, Path(folder), f"reference-{study}").result()


def _saved(checkpoint):
    """How many draws the checkpoint file holds, per part ("" for the plain draws)."""
    if not checkpoint.exists():
        return {}
    data = json.loads(checkpoint.read_text())  # replaced atomically, so never seen half written
    return {"": len(data["draws"]), **{name: len(draws) for name, draws in data.get("parts", {}).items()}}


def _kill_midway(run, checkpoint, *, parallel, timeout=60):
    """Kill the run as soon as its checkpoint holds a finished draw and, if ``parallel``, two fitters took part."""
    deadline = time.monotonic() + timeout
    try:
        while not (sum(_saved(checkpoint).values()) >= 1 and (not parallel or len(set(_fitters(run.log))) >= 2)):
            if not run.process.is_alive():
                error = Path(f"{run.output}.error")
                pytest.fail(error.read_text() if error.exists() else "the run ended before it could be killed midway")
            assert time.monotonic() < deadline, "no draw was saved in time"
            time.sleep(0.005)
    finally:
        run.kill()


SECONDS_PER_FIT = 0.02


@pytest.mark.parametrize(("study", "n_jobs", "backend"), [
    *[(study, 1, None) for study in STUDIES],
    *[(study, 2, "threading") for study in STUDIES],  # a pool of threads starts in no time
    ("conditional_error_study", 2, None),  # joblib's default pool (loky), whose workers outlive a killed run
])
@pytest.mark.slow
def test_a_killed_run_resumes_to_the_result_of_an_uninterrupted_one(study, n_jobs, backend, tmp_path,
                                                                    tmp_path_factory):
    checkpoint = tmp_path / "study.json"
    per_draw = STUDIES[study][1]
    arguments = dict(backend=backend, seconds_per_fit=SECONDS_PER_FIT, checkpoint=checkpoint)
    expected = _reference(study, tmp_path_factory.getbasetemp())

    killed = Run(study, n_jobs, tmp_path, "killed", wait_for_pool=n_jobs > 1, **arguments)
    _kill_midway(killed, checkpoint, parallel=n_jobs > 1)
    assert killed.process.exitcode == -signal.SIGKILL and not killed.output.exists()
    saved = _saved(checkpoint)
    assert 1 <= sum(saved.values()) < N_DRAWS * len(per_draw)
    if n_jobs > 1:
        assert len(set(_fitters(killed.log))) >= 2  # the pool was fitting when the run was killed

    resumed = Run(study, n_jobs, tmp_path, "resumed", **arguments)
    assert resumed.result() == expected
    # The restart fitted every fit of the unfinished draws, and none of a saved draw.
    assert len(_fitters(resumed.log)) == sum((N_DRAWS - saved.get(part, 0)) * fits for part, fits in per_draw.items())
    assert _saved(checkpoint) == {"": 0, **{part: N_DRAWS for part in per_draw}}


@pytest.mark.parametrize("study", list(STUDIES))
def test_the_fits_per_draw_counted_by_hand_are_the_studys(study, tmp_path, monkeypatch):
    log = tmp_path / "fits.log"
    monkeypatch.setenv(FIT_LOG, str(log))
    run_study(study, 1, None)
    assert len(_fitters(log)) == N_DRAWS * sum(STUDIES[study][1].values())


@pytest.mark.parametrize("study", list(STUDIES))
def test_a_checkpoint_of_other_arguments_or_cut_short_is_refused_before_any_fit(study, tmp_path, monkeypatch):
    checkpoint, log = tmp_path / "study.json", tmp_path / "fits.log"
    run_study(study, 1, checkpoint)
    monkeypatch.setenv(FIT_LOG, str(log))
    written = checkpoint.read_bytes()
    with pytest.raises(ValueError, match="was written by a study with other arguments or data"):
        run_study(study, 1, checkpoint, random_state=1)
    cut = written[:len(written) // 2]  # as a full disk would leave a file written in place
    checkpoint.write_bytes(cut)
    with pytest.raises(ValueError, match="cannot be read as a study checkpoint"):
        run_study(study, 1, checkpoint)
    assert not log.exists()  # nothing was fitted
    assert checkpoint.read_bytes() == cut  # and the file was left as it was
