"""Many datasets drawn from one population, each cross-validated and scored on the truth, in one pool.

The studies (Vanwinckelen & Blockeel 2012, Algorithm 1; Nedel'ko 2021,
section 4) treat a large dataset as the population: every draw takes a
sample of it, cross-validates the learners on the sample, fits them to the
whole sample and scores that model on rows of the population outside the
sample (the truth). This module plans the draws and runs them: in this
process, every fit through :func:`run_fits`; with ``n_jobs`` > 1, each draw
a task of joblib's pool; on a Dask cluster, tasks of whole draws (see
``_cluster``). Each draw is reduced to a compact record as soon as its last
fit is in, and the records are kept in a :class:`Checkpoint`.
"""

import dataclasses
import threading
from collections.abc import Sequence

import numpy as np
from joblib import effective_n_jobs
from sklearn.utils import _safe_indexing, check_random_state
from sklearn.utils.parallel import Parallel, delayed

from .._utils._cluster import dask_client, run_on_cluster
from .._utils._progress import Progress
from ..evaluation._fit_task import FitTask, LossMoments, ScoredRows
from ..evaluation._partitions import Partitions, draw_partitions
from ..evaluation._scheduler import run_fits
from ._checkpoint import Checkpoint


@dataclasses.dataclass(frozen=True)
class DrawPlan:
    """What one draw fits.

    Attributes
    ----------
    sample : ndarray of int
        The population rows of the draw, in draw order.
    partitions : Partitions
        The cross-validation folds, over positions in ``sample``.
    scored : ScoredRows
        The population rows on which the model fitted to the whole sample is
        scored (the truth).
    """

    sample: np.ndarray
    partitions: Partitions
    scored: ScoredRows


@dataclasses.dataclass(frozen=True)
class DrawFits:
    """What the fits of one draw gave, per estimator (in the order passed).

    Attributes
    ----------
    plan : DrawPlan
    cv_loss : tuple of ndarray of shape (n_repeats, sample_size)
        Each instance's out-of-fold loss in each repeat.
    sample_loss : tuple of ndarray of shape (sample_size,)
        The loss on each instance of the sample of the model fitted to all of it
        (None where :func:`run_draws` skipped the whole-sample fits).
    truth : tuple of LossMoments
        That model's losses on the scored rows (None likewise).
    """

    plan: DrawPlan
    cv_loss: tuple
    sample_loss: tuple
    truth: tuple


def draw_seeds(random_state, n_draws):
    """One int seed per draw, in order: the first r do not depend on ``n_draws``."""
    return [int(seed) for seed in check_random_state(random_state).randint(np.iinfo(np.int32).max, size=n_draws)]


def plan_draw(X, y, seed, *, choose_sample, scored, cv, n_repeats, classifier):
    """The plan of one draw from its seed: ``choose_sample(rng)`` picks the rows, then the folds are drawn."""
    rng = np.random.RandomState(seed)
    sample = np.asarray(choose_sample(rng), dtype=np.intp)
    partitions = draw_partitions(cv, _safe_indexing(X, sample), _safe_indexing(y, sample), None,
                                 n_repeats=n_repeats, random_state=int(rng.randint(np.iinfo(np.int32).max)),
                                 classifier=classifier)
    return DrawPlan(sample=sample, partitions=partitions, scored=scored(sample))


class _DrawTasks(Sequence):
    """The fit tasks of the pending draws, made on access.

    Per draw and estimator: the whole-sample fit (predicting the sample and
    scoring the truth rows) unless ``whole_sample`` is false, then every fold
    of every repeat.
    """

    def __init__(self, plans, draws, n_estimators, whole_sample=True):
        self._plans, self._draws, self._n_estimators = plans, draws, n_estimators
        self._whole = int(bool(whole_sample))
        first = plans[draws[0]].partitions if draws else None
        self._per_estimator = self._whole + (first.n_repeats * first.n_splits if first else 0)
        self._per_draw = self._per_estimator * n_estimators

    def __len__(self):
        return len(self._draws) * self._per_draw

    def locate(self, index):
        """(draw, estimator, repeat, fold) of task ``index``; repeat and fold are None for the whole-sample fit."""
        position, within = divmod(index, self._per_draw)
        estimator, fit = divmod(within, self._per_estimator)
        if fit < self._whole:
            return self._draws[position], estimator, None, None
        repeat, fold = divmod(fit - self._whole, self._plans[self._draws[position]].partitions.n_splits)
        return self._draws[position], estimator, repeat, fold

    def __getitem__(self, index):
        draw, estimator, repeat, fold = self.locate(index)
        plan = self._plans[draw]
        if repeat is None:
            return FitTask(estimator, f"the whole sample of draw {draw}", plan.sample, plan.sample, plan.scored)
        train, test = plan.partitions.split(repeat, fold)
        return FitTask(estimator, f"fold {fold} of repeat {repeat} of draw {draw}", plan.sample[train],
                       plan.sample[test])

    @property
    def fits_per_draw(self):
        return self._per_draw


class _DrawCollector:
    """Assembles each pending draw's outputs; hands a finished draw to ``summarize`` and the checkpoint."""

    def __init__(self, tasks, plans, y, loss, n_estimators, summarize, checkpoint, progress):
        self._tasks, self._plans, self._y, self._loss = tasks, plans, y, loss
        self._n_estimators = n_estimators
        self._summarize, self._checkpoint, self._progress = summarize, checkpoint, progress
        self._open = {}
        self._lock = threading.Lock()

    def _buffers(self, draw):
        if draw not in self._open:
            plan = self._plans[draw]
            shape = plan.partitions.fold.shape
            self._open[draw] = {
                "cv_loss": [np.empty(shape) for _ in range(self._n_estimators)],
                "sample_loss": [None] * self._n_estimators,
                "truth": [None] * self._n_estimators,
                "left": self._tasks.fits_per_draw,
            }
        return self._open[draw]

    def _instance_losses(self, rows, output):
        predictions, losses = output[0], output[1]
        if losses is not None:
            return np.asarray(losses, dtype=np.float64)
        return self._loss(self._y[rows], predictions)

    def __call__(self, index, output):
        draw, estimator, repeat, fold = self._tasks.locate(index)
        plan = self._plans[draw]
        with self._lock:
            buffers = self._buffers(draw)
            if repeat is None:
                buffers["sample_loss"][estimator] = self._instance_losses(plan.sample, output)
                buffers["truth"][estimator] = LossMoments(*output[2])
            else:
                test = plan.partitions.test(repeat, fold)
                buffers["cv_loss"][estimator][repeat, test] = self._instance_losses(plan.sample[test], output)
            buffers["left"] -= 1
            if buffers["left"]:
                return
            del self._open[draw]
        fits = DrawFits(plan=plan, cv_loss=tuple(buffers["cv_loss"]), sample_loss=tuple(buffers["sample_loss"]),
                        truth=tuple(buffers["truth"]))
        self._checkpoint.save(draw, self._summarize(fits))
        self._progress.step()


class _Record:
    """Receives the one record of a draw run on its own (what a :class:`Checkpoint` receives otherwise)."""

    record = None

    def save(self, draw, record):
        self.record = record


class _Silent:
    def step(self):
        pass


def draw_record(X, y, estimators, names, loss, classes, summarize, whole_sample, draw_and_plan):
    """Every fit of one draw, here and in order, reduced to its record: one task of a study on a cluster."""
    draw, plan = draw_and_plan
    plans = {draw: plan}
    tasks = _DrawTasks(plans, [draw], len(estimators), whole_sample)
    kept = _Record()
    collector = _DrawCollector(tasks, plans, y, loss, len(estimators), summarize, kept, _Silent())
    run_fits(estimators, X, y, tasks, names=names, n_jobs=1,
             proba_loss=(loss, y, classes) if loss.needs_proba else None, score_loss=(loss, classes), collect=collector)
    return kept.record


def _numbered_draw_record(*arguments):
    return arguments[-1][0], draw_record(*arguments)


def _draws_in_pool(shared, draws_and_plans, n_jobs, receive):
    """Every draw a task of joblib's pool (batched by joblib), its record handed to ``receive`` as it comes."""
    tasks = (delayed(_numbered_draw_record)(*shared, draw_and_plan) for draw_and_plan in draws_and_plans)
    try:
        pool = Parallel(n_jobs=n_jobs, return_as="generator_unordered")
    except ValueError:  # a backend that cannot return results as they come (joblib's "multiprocessing")
        pool = Parallel(n_jobs=n_jobs)
    for draw, record in pool(tasks):
        receive(draw, record)


def run_draws(estimators, X, y, plans, *, names, loss, classes, summarize, checkpoint=None, n_jobs=None,
              verbose=0, whole_sample=True, label=None):
    """Run every fit of every draw not yet in ``checkpoint`` in one pool; return the records in draw order.

    With ``n_jobs`` > 1 each draw is a task of joblib's pool
    (:func:`draw_record`: all its fits in one worker, its compact record
    sent back), batched by joblib. Inside
    ``joblib.parallel_config(backend="dask")`` the draws go to the cluster
    instead, a second's worth a task, with the population sent to every
    worker once; ``n_jobs`` is then the cluster's.

    Parameters
    ----------
    estimators : sequence of estimator
        Cloned for every fit.
    X, y : array-like
        The population, already validated; ``y`` an ndarray.
    plans : list of DrawPlan
        One per draw (see :func:`plan_draw`).
    names : sequence of str
        The estimators' names in error messages.
    loss : Loss
        The per-instance loss.
    classes : ndarray or None
        The population's classes (the columns of ``predict_proba``).
    summarize : callable
        ``summarize(DrawFits) -> dict``: the compact, JSON-safe record kept of a draw.
    checkpoint : Checkpoint or None
        Holds the records of finished draws, which are not refitted, and
        receives the others as they finish.
    n_jobs : int or None
    verbose : int
        Above 0, a progress line on standard error.
    whole_sample : bool, default=True
        False skips the whole-sample fits (another call on the same samples
        made them): ``summarize`` then gets ``sample_loss`` and ``truth`` of None.
    label : str or None
        Put before the progress line, to tell several calls apart.

    Returns
    -------
    list of dict
        The record of every draw, in draw order.
    """
    checkpoint = Checkpoint(None, "") if checkpoint is None else checkpoint
    pending = [draw for draw in range(len(plans)) if draw not in checkpoint.records]
    client = dask_client() if pending else None
    progress = Progress(len(plans), verbose, done=len(plans) - len(pending), unit="draws", label=label)

    def receive(draw, record):
        checkpoint.save(draw, record)
        progress.step()
    shared = (X, y, list(estimators), list(names), loss, classes, summarize, whole_sample)
    if client is not None:
        run_on_cluster(client, draw_record, shared, [(draw, plans[draw]) for draw in pending],
                       lambda draw_and_plan, record: receive(draw_and_plan[0], record))
    elif pending and effective_n_jobs(n_jobs) > 1:
        _draws_in_pool(shared, [(draw, plans[draw]) for draw in pending], n_jobs, receive)
    elif pending:
        tasks = _DrawTasks(plans, pending, len(estimators), whole_sample)
        collector = _DrawCollector(tasks, plans, y, loss, len(estimators), summarize, checkpoint, progress)
        proba_loss = (loss, y, classes) if loss.needs_proba else None
        run_fits(estimators, X, y, tasks, names=names, n_jobs=1, proba_loss=proba_loss, score_loss=(loss, classes),
                 collect=collector)
    return [checkpoint.records[draw] for draw in range(len(plans))]
