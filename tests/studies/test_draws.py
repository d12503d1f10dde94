"""The studies' engine: draws from a population, fitted in one pool, kept in a checkpoint."""

import json
import threading
import time

import joblib
import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_predict
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

from cvinference.evaluation._fit_task import LossMoments, ScoredRows
from cvinference.records._losses import get_loss, make_log_loss
from cvinference.studies._checkpoint import Checkpoint
from cvinference.studies._draws import draw_seeds, plan_draw, run_draws

X, Y = make_classification(3000, 6, n_informative=3, random_state=0)
N = len(Y)
CLASSES = np.unique(Y)


def _plans(n_draws=4, sample_size=60, n_repeats=2, seed=0):
    def choose(rng):
        return rng.choice(N, sample_size, replace=False)

    def scored(sample):
        return ScoredRows(0, N, np.sort(sample))

    return [plan_draw(X, Y, s, choose_sample=choose, scored=scored, cv=3, n_repeats=n_repeats, classifier=True)
            for s in draw_seeds(seed, n_draws)]


def _everything(fits):
    return {"cv": [loss.tolist() for loss in fits.cv_loss], "sample": [loss.tolist() for loss in fits.sample_loss],
            "truth": [list(moments) for moments in fits.truth]}


def _run(plans, loss="zero_one", n_jobs=1, checkpoint=None, estimators=None):
    estimators = estimators or [GaussianNB(), DecisionTreeClassifier(random_state=0)]
    return run_draws(estimators, X, Y, plans, names=["a", "b"][:len(estimators)], loss=get_loss(loss),
                     classes=CLASSES, summarize=_everything, checkpoint=checkpoint, n_jobs=n_jobs)


@pytest.mark.parametrize("loss", ["zero_one", make_log_loss()])
def test_every_number_equals_sklearn_on_the_same_rows(loss):
    plans = _plans(n_draws=2)
    records = _run(plans, loss=loss)
    loss = get_loss(loss)
    for plan, record in zip(plans, records, strict=True):
        sample, rest = plan.sample, np.setdiff1d(np.arange(N), plan.sample)
        for e, estimator in enumerate([GaussianNB(), DecisionTreeClassifier(random_state=0)]):
            model = estimator.fit(X[sample], Y[sample])

            def losses(rows, model=model):
                if loss.needs_proba:
                    return loss(Y[rows], model.predict_proba(X[rows]), CLASSES)
                return loss(Y[rows], model.predict(X[rows]))

            truth = losses(rest)  # oracle: the model scored on every row outside the sample at once
            n, mean, m2 = record["truth"][e]
            assert n == rest.size and mean == pytest.approx(truth.mean(), rel=1e-12)
            assert m2 == pytest.approx(np.square(truth - truth.mean()).sum(), rel=1e-9)
            np.testing.assert_allclose(record["sample"][e], losses(sample))
            for r in range(2):
                folds = [(np.flatnonzero(plan.partitions.fold[r] != j), np.flatnonzero(plan.partitions.fold[r] == j))
                         for j in range(3)]
                method = "predict_proba" if loss.needs_proba else "predict"
                out = cross_val_predict(estimator, X[sample], Y[sample], cv=folds, method=method)
                expected = loss(Y[sample], out, CLASSES) if loss.needs_proba else loss(Y[sample], out)
                np.testing.assert_allclose(record["cv"][e][r], expected)


def test_loss_moments_merge_to_the_moments_of_the_union():
    rng = np.random.default_rng(1)
    values = rng.exponential(size=1001)
    merged = LossMoments(0, 0.0, 0.0)
    for block in np.array_split(values, 7):
        merged = merged.merged(LossMoments.of(block))
    # Oracle: numpy on all values at once.
    assert merged.n == 1001 and merged.mean == pytest.approx(values.mean(), rel=1e-13)
    assert merged.std == pytest.approx(values.std(), rel=1e-12)


def test_scored_rows_skip_the_excluded_ones_in_blocks():
    rows = ScoredRows(3, 50, excluded=np.array([0, 4, 17, 49, 60]))
    blocks = list(rows.blocks(size=10))
    assert np.concatenate(blocks).tolist() == [i for i in range(3, 50) if i not in (4, 17, 49)]
    assert rows.count == 44 and all(block.size <= 10 for block in blocks)


def test_the_same_records_for_any_n_jobs():
    plans = _plans()
    assert _run(plans, n_jobs=1) == _run(plans, n_jobs=2)


def test_the_first_draws_do_not_depend_on_n_draws():
    assert draw_seeds(7, 3) == draw_seeds(7, 10)[:3]


class CountingNB(GaussianNB):
    fits = 0

    def fit(self, X, y):
        type(self).fits += 1
        return super().fit(X, y)


class ThreadRecordingNB(GaussianNB):
    """A fit of 5 ms, cheap by the evaluator's rule (under 0.05 s); records the thread it ran in."""

    threads = []

    def fit(self, X, y):
        type(self).threads.append(threading.current_thread().name)
        time.sleep(0.005)
        return super().fit(X, y)


def test_with_n_jobs_2_the_draws_go_to_the_pool_however_cheap_their_fits():
    plans = _plans(n_draws=6)
    ThreadRecordingNB.threads = []
    with joblib.parallel_config(backend="threading"):
        records = _run(plans, n_jobs=2, estimators=[ThreadRecordingNB()])
    assert len(ThreadRecordingNB.threads) == 6 * (1 + 2 * 3)
    # Every fit ran in a worker of the pool: none in this thread, none beside the pool.
    assert threading.current_thread().name not in ThreadRecordingNB.threads
    assert "cvinference-fits-here" not in ThreadRecordingNB.threads
    assert records == _run(plans, estimators=[GaussianNB()])


def test_a_checkpoint_keeps_finished_draws_and_a_rerun_fits_nothing(tmp_path):
    path = tmp_path / "draws.json"
    plans = _plans(n_draws=3)
    CountingNB.fits = 0
    first = _run(plans, checkpoint=Checkpoint(path, "key"), estimators=[CountingNB()])
    assert CountingNB.fits == 3 * (1 + 2 * 3)  # per draw: the whole sample, then 2 repeats x 3 folds
    saved = json.loads(path.read_text())
    assert sorted(saved["draws"]) == ["0", "1", "2"] and saved["fingerprint"] == "key"
    CountingNB.fits = 0
    again = _run(plans, checkpoint=Checkpoint(path, "key"), estimators=[CountingNB()])
    assert CountingNB.fits == 0 and again == first
    assert first == _run(plans, estimators=[CountingNB()])  # and equal to a run without a checkpoint


def test_without_whole_sample_fits_only_the_folds_are_fitted_and_they_are_unchanged():
    plans = _plans(n_draws=3)
    full = _run(plans)
    CountingNB.fits = 0
    records = run_draws([CountingNB(), DecisionTreeClassifier(random_state=0)], X, Y, plans, names=["a", "b"],
                        loss=get_loss("zero_one"), classes=CLASSES, whole_sample=False,
                        summarize=lambda fits: {"cv": [loss.tolist() for loss in fits.cv_loss],
                                                "sample": fits.sample_loss, "truth": fits.truth})
    assert CountingNB.fits == 3 * 2 * 3  # per draw 2 repeats x 3 folds, no whole-sample fit
    assert [record["cv"] for record in records] == [record["cv"] for record in full]
    assert all(record["sample"] == record["truth"] == [None, None] for record in records)


def test_the_progress_line_names_its_label(capsys):
    run_draws([GaussianNB()], X, Y, _plans(n_draws=2), names=["a"], loss=get_loss("zero_one"), classes=CLASSES,
              summarize=lambda fits: {}, verbose=1, label="K=3")
    err = capsys.readouterr().err  # not a terminal: a line per update (a terminal's "\r" split by splitlines too)
    assert err.splitlines()[-1].startswith("K=3: draws 2/2, ") and err.endswith("left\n")


def test_a_partial_checkpoint_resumes_with_the_missing_draws_only(tmp_path):
    path = tmp_path / "draws.json"
    plans = _plans(n_draws=3)
    full = _run(plans, estimators=[CountingNB()])
    partial = Checkpoint(path, "key")
    partial.save(1, full[1])
    CountingNB.fits = 0
    resumed = _run(plans, checkpoint=Checkpoint(path, "key"), estimators=[CountingNB()])
    assert CountingNB.fits == 2 * (1 + 2 * 3) and resumed == full


@pytest.mark.parametrize(("content", "match"), [
    ("{not json", "cannot be read as a study checkpoint"),
    (json.dumps({"format": "something else"}), "is not a cvinference study checkpoint"),
    (json.dumps({"format": "cvinference.StudyCheckpoint", "version": 99, "draws": {}}), "checkpoint version 99"),
    (json.dumps({"format": "cvinference.StudyCheckpoint", "version": 1, "fingerprint": "other", "draws": {}}),
     "was written by a study with other arguments or data"),
])
def test_a_checkpoint_that_does_not_fit_is_refused_before_any_fit(tmp_path, content, match):
    path = tmp_path / "draws.json"
    path.write_text(content)
    with pytest.raises(ValueError, match=match):
        Checkpoint(path, "key")
    assert path.read_text() == content


def test_a_failed_fit_names_the_draw():
    plans = _plans(n_draws=1)
    with pytest.raises(ValueError) as excinfo:
        _run(plans, estimators=[LogisticRegression(C=-1)])
    assert "of draw 0" in " ".join(getattr(excinfo.value, "__notes__", []))


def test_checkpoint_parts_share_one_file_and_read_back(tmp_path):
    path = tmp_path / "parts.json"
    store = Checkpoint(path, "key")
    store.save(0, {"plain": 1.0})
    store.part("K=2").save(1, {"a": 0.5})
    store.part("K=5").save(0, {"a": 0.25})
    saved = json.loads(path.read_text())
    # The layout: the plain draws as before, and each part's draws under "parts".
    assert saved["draws"] == {"0": {"plain": 1.0}}
    assert saved["parts"] == {"K=2": {"1": {"a": 0.5}}, "K=5": {"0": {"a": 0.25}}}
    reread = Checkpoint(path, "key")
    assert reread.records == {0: {"plain": 1.0}}
    assert reread.part("K=2").records == {1: {"a": 0.5}} and reread.part("K=5").records == {0: {"a": 0.25}}
    assert reread.part("K=10").records == {}
    with pytest.raises(ValueError, match="other arguments or data"):
        Checkpoint(path, "other")


def test_a_file_without_parts_is_still_read(tmp_path):
    path = tmp_path / "plain.json"
    Checkpoint(path, "key").save(2, {"e": 0.1})
    assert "parts" not in json.loads(path.read_text())  # a study without parts writes none
    store = Checkpoint(path, "key")
    assert store.records == {2: {"e": 0.1}} and store.part("x").records == {}


@pytest.mark.parametrize("parts", [[1, 2], {"K=2": [1]}, {"K=2": {"one": {}}}])
def test_malformed_parts_are_refused(tmp_path, parts):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"format": "cvinference.StudyCheckpoint", "version": 1, "fingerprint": "key",
                                "draws": {}, "parts": parts}))
    with pytest.raises(ValueError, match="checkpoint="):
        Checkpoint(path, "key")


def test_run_draws_resumes_from_a_part(tmp_path):
    path = tmp_path / "draws.json"
    plans = _plans(n_draws=3)
    CountingNB.fits = 0
    first = _run(plans, checkpoint=Checkpoint(path, "key").part("p"), estimators=[CountingNB()])
    assert CountingNB.fits == 3 * (1 + 2 * 3)
    CountingNB.fits = 0
    again = _run(plans, checkpoint=Checkpoint(path, "key").part("p"), estimators=[CountingNB()])
    assert CountingNB.fits == 0 and again == first
    CountingNB.fits = 0
    _run(plans, checkpoint=Checkpoint(path, "key").part("q"), estimators=[CountingNB()])
    assert CountingNB.fits == 3 * (1 + 2 * 3)  # another part starts afresh
    assert sorted(json.loads(path.read_text())["parts"]) == ["p", "q"]
