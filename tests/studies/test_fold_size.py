"""fold_size_study: Wong's (2015, section 4.3.2) three ways of cutting a sample into folds, on one population."""

import json
import pickle
import statistics
import warnings

import numpy as np
import pytest
from scipy import stats
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import make_classification
from sklearn.linear_model import LinearRegression
from sklearn.model_selection import PredefinedSplit, cross_val_predict
from sklearn.naive_bayes import GaussianNB

from cvinference import CVResult, accuracy_interval
from cvinference.studies._draws import draw_seeds
from cvinference.studies._fold_size import (
    APPROACHES,
    FoldSizeStudyResult,
    _approach_plans,
    fold_size_study,
    fold_t_interval,
)

X, Y = make_classification(4000, 6, n_informative=3, random_state=0)
N_ROWS = len(Y)
SAMPLE, K, DRAWS = 63, 5, 5


@pytest.fixture(scope="module")
def study():
    return fold_size_study(GaussianNB(), X, Y, sample_size=SAMPLE, n_splits=K, n_draws=DRAWS, random_state=0)


def _direct(draw, seed, sample_size=SAMPLE, n_splits=K):
    """One draw recomputed with sklearn alone: cross_val_predict on each approach's folds, and the conditional fit."""
    plan = _approach_plans(X, Y, draw_seeds(seed, draw + 1)[draw], sample_size=sample_size, n_splits=n_splits,
                           n_rows=N_ROWS)
    Xs, ys = X[plan.sample], Y[plan.sample]
    predictions = [cross_val_predict(GaussianNB(), Xs, ys, cv=PredefinedSplit(fold)) for fold in plan.partitions.fold]
    rest = np.setdiff1d(np.arange(N_ROWS), plan.sample)
    conditional = GaussianNB().fit(Xs, ys).score(X[rest], Y[rest])
    return plan, predictions, conditional


def test_one_draw_equals_a_direct_sklearn_computation(study):
    plan, predictions, conditional = _direct(0, 0)
    assert len(np.unique(plan.sample)) == SAMPLE and plan.partitions.fold.shape == (3, SAMPLE)
    for a, (fold, predicted) in enumerate(zip(plan.partitions.fold, predictions, strict=True)):
        correct = predicted == Y[plan.sample]
        assert study.fold_sizes[0, a].tolist() == [int(np.sum(fold == j)) for j in range(K)]
        assert study.fold_correct[0, a].tolist() == [int(correct[fold == j].sum()) for j in range(K)]
    assert study.conditional_accuracy[0] == pytest.approx(conditional, abs=1e-12)


def test_every_approach_uses_the_same_sample_and_its_own_splitter():
    from cvinference.splitters import EqualSizeKFold, RandomAssignmentKFold, RemainderLastKFold
    from cvinference.studies._draws import plan_draw
    from cvinference.studies._population import rest_of_population

    seed = draw_seeds(3, 1)[0]
    plan = _approach_plans(X, Y, seed, sample_size=SAMPLE, n_splits=K, n_rows=N_ROWS)
    for a, splitter in enumerate((RandomAssignmentKFold, RemainderLastKFold, EqualSizeKFold)):
        alone = plan_draw(X, Y, seed, choose_sample=lambda rng: rng.choice(N_ROWS, SAMPLE, replace=False),
                          scored=rest_of_population(N_ROWS), cv=splitter(K), n_repeats=1, classifier=True)
        np.testing.assert_array_equal(alone.sample, plan.sample)
        np.testing.assert_array_equal(alone.partitions.fold[0], plan.partitions.fold[a])
    assert plan.scored.count == N_ROWS - SAMPLE


def test_wong_203_in_5_folds_gives_his_fold_sizes():
    # Wong (2015), section 4.3.2: approach (2) gives 40, 40, 40, 40, 43; approach (3) gives 40, 40, 41, 41, 41
    # (EqualSizeKFold puts the larger folds first: the same sizes in another order).
    result = fold_size_study(GaussianNB(), X, Y, sample_size=203, n_splits=5, n_draws=2, random_state=1)
    for draw in range(2):
        assert result.fold_sizes[draw, 1].tolist() == [40, 40, 40, 40, 43]
        assert result.fold_sizes[draw, 2].tolist() == [41, 41, 41, 40, 40]
        assert sorted(result.fold_sizes[draw, 2].tolist()) == [40, 40, 41, 41, 41]
        assert result.fold_sizes[draw, 0].sum() == 203 and result.fold_sizes[draw, 0].min() > 0
    # approach (2)'s term by hand: p(1-p)(mean(1/m_j) - k/n)
    p = result.cv_accuracy[:, 1]
    by_hand = p * (1 - p) * ((4 / 40 + 1 / 43) / 5 - 5 / 203)
    np.testing.assert_allclose(result.unequal_size_term[:, 1], by_hand, rtol=1e-12)
    assert result._columns()["size_spread"][1:] == [3.0, 1.0]


def test_approaches_2_and_3_cut_the_same_shuffled_order():
    # Wong: approach (3) generates and sorts the random numbers as approach (2) does; only the cuts differ.
    plan = _approach_plans(X, Y, draw_seeds(0, 1)[0], sample_size=203, n_splits=5, n_rows=N_ROWS)
    remainder_last, equal = plan.partitions.fold[1], plan.partitions.fold[2]
    assert set(np.flatnonzero(remainder_last == 0)) < set(np.flatnonzero(equal == 0))  # the first 40 of the first 41


def test_every_column_against_an_oracle_from_the_per_draw_arrays(study):
    columns = study._columns()
    assert list(columns) == ["approach", "size_spread", "fold_accuracy_variance", "unequal_size_variance", "bias",
                             "rmse", "sd_cv", "coverage_conditional", "coverage_unconditional"]
    assert columns["approach"] == list(APPROACHES)
    truth = study.conditional_accuracy.tolist()
    unconditional = sum(truth) / len(truth)
    t = stats.t.ppf(0.975, K - 1)
    for a in range(3):
        spread, variance, unequal, cv, cover_c, cover_u = [], [], [], [], [], []
        for d in range(DRAWS):
            sizes, correct = study.fold_sizes[d, a].tolist(), study.fold_correct[d, a].tolist()
            p_j = [r / m for r, m in zip(correct, sizes, strict=True)]
            p = sum(p_j) / K
            s2 = statistics.variance(p_j)  # ddof=1
            spread.append(max(sizes) - min(sizes))
            variance.append(s2)
            unequal.append(p * (1 - p) * (sum(1 / m for m in sizes) / K - K / SAMPLE))
            cv.append(p)
            low, high = max(0.0, p - t * (s2 / K) ** 0.5), min(1.0, p + t * (s2 / K) ** 0.5)
            cover_c.append(low <= truth[d] <= high)
            cover_u.append(low <= unconditional <= high)
        errors = [c - truth_d for c, truth_d in zip(cv, truth, strict=True)]
        assert columns["size_spread"][a] == statistics.mean(spread)
        assert columns["fold_accuracy_variance"][a] == pytest.approx(statistics.mean(variance), rel=1e-12)
        assert columns["unequal_size_variance"][a] == pytest.approx(statistics.mean(unequal), rel=1e-9, abs=1e-15)
        assert columns["bias"][a] == pytest.approx(statistics.mean(errors), rel=1e-12, abs=1e-15)
        assert columns["rmse"][a] == pytest.approx(statistics.mean(e * e for e in errors) ** 0.5, rel=1e-12)
        assert columns["sd_cv"][a] == pytest.approx(statistics.stdev(cv), rel=1e-12)
        assert columns["coverage_conditional"][a] == sum(cover_c) / DRAWS
        assert columns["coverage_unconditional"][a] == sum(cover_u) / DRAWS
    # the spreads of this design: 63 = 4 x 12 + 15 and 3 x 13 + 2 x 12
    assert columns["size_spread"][1:] == [3.0, 1.0]
    assert study.unconditional_accuracy == pytest.approx(unconditional, rel=1e-12)


def test_the_interval_is_accuracy_interval_t_and_scipys_t_interval(study):
    plan, predictions, _ = _direct(0, 0)
    for level in (0.95, 0.5):
        low, high = fold_t_interval(study.fold_accuracy[0], level)
        for a in range(3):
            result = CVResult(y_true=Y[plan.sample], y_pred=predictions[a], fold=plan.partitions.fold[a])
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # small folds may fail Wong's large-sample conditions
                interval = accuracy_interval(result, level, averaging="fold", method="t")
            assert (low[a], high[a]) == (interval.low, interval.high)
            p_j = study.fold_accuracy[0, a]
            scipy_low, scipy_high = stats.t.interval(level, K - 1, loc=p_j.mean(), scale=stats.sem(p_j))
            assert low[a] == pytest.approx(max(0.0, scipy_low), rel=1e-12)
            assert high[a] == pytest.approx(min(1.0, scipy_high), rel=1e-12)
    np.testing.assert_array_equal(study.interval_low[0], fold_t_interval(study.fold_accuracy[0], 0.95)[0])


def test_equal_sizes_add_exactly_no_variance_when_k_divides_n():
    result = fold_size_study(GaussianNB(), X, Y, sample_size=60, n_splits=5, n_draws=3, random_state=2)
    assert (result.fold_sizes[:, 1:] == 12).all()
    assert (result.unequal_size_term[:, 1:] == 0).all()
    assert result._columns()["unequal_size_variance"][1:] == [0.0, 0.0]
    assert (result.unequal_size_term[:, 0] > 0).all()  # multinomial sizes are never all 12 here


def test_n_jobs_and_the_json_round_trip_leave_the_result_unchanged(study):
    parallel = fold_size_study(GaussianNB(), X, Y, sample_size=SAMPLE, n_splits=K, n_draws=DRAWS, random_state=0,
                               n_jobs=2)
    assert parallel.to_dict() == study.to_dict()
    data = json.loads(json.dumps(study.to_dict(), allow_nan=False))
    back = FoldSizeStudyResult.from_dict(data)
    assert back.to_dict() == study.to_dict()
    assert pickle.loads(pickle.dumps(study)).to_dict() == study.to_dict()
    assert back == study
    for name in ("fold_sizes", "fold_correct", "conditional_accuracy"):
        assert not getattr(study, name).flags.writeable, name
    for name in ("fold_sizes", "fold_correct", "conditional_accuracy"):
        np.testing.assert_array_equal(getattr(back, name), getattr(study, name))
        assert getattr(back, name).dtype == getattr(study, name).dtype
    assert back.approaches == APPROACHES and back._columns() == study._columns()


def test_a_run_resumed_from_a_partial_checkpoint_equals_an_uninterrupted_one(study, tmp_path):
    path = tmp_path / "fold_size.json"
    first = fold_size_study(GaussianNB(), X, Y, sample_size=SAMPLE, n_splits=K, n_draws=DRAWS, random_state=0,
                            checkpoint=path)
    assert first.to_dict() == study.to_dict()
    data = json.loads(path.read_text())
    data["draws"] = {draw: record for draw, record in data["draws"].items() if int(draw) < 2}
    path.write_text(json.dumps(data))
    resumed = fold_size_study(GaussianNB(), X, Y, sample_size=SAMPLE, n_splits=K, n_draws=DRAWS, random_state=0,
                              checkpoint=path, confidence_level=0.9)
    assert len(json.loads(path.read_text())["draws"]) == DRAWS
    np.testing.assert_array_equal(resumed.fold_correct, study.fold_correct)
    np.testing.assert_array_equal(resumed.conditional_accuracy, study.conditional_accuracy)


class _NeverFit(ClassifierMixin, BaseEstimator):
    def fit(self, X, y):
        raise RuntimeError("a study fitted although its arguments were bad")

    def predict(self, X):
        raise RuntimeError("never")


@pytest.mark.parametrize("estimator, kwargs, error, match", [
    (_NeverFit(), {"sample_size": N_ROWS}, ValueError, "sample_size=4000 leaves too few rows"),
    (_NeverFit(), {"sample_size": 60, "n_splits": 1}, ValueError, "n_splits must be an integer >= 2"),
    (_NeverFit(), {"sample_size": 9, "n_splits": 5}, ValueError, "sample_size=9 is too small for 5-fold"),
    (_NeverFit(), {"sample_size": 60, "n_draws": 1}, ValueError, "n_draws must be an integer >= 2"),
    (_NeverFit(), {"sample_size": 60, "confidence_level": 1.0}, ValueError, "confidence_level must be"),
    (_NeverFit(), {"sample_size": 60, "n_splits": 2.5}, TypeError, "n_splits must be an integer"),
    (LinearRegression(), {"sample_size": 60}, TypeError, "must be a classifier.*regressor"),
    (_NeverFit(), {"sample_size": 60, "checkpoint": "x.json"}, ValueError, "needs an int random_state"),
])
def test_bad_input_is_refused_before_any_fit(estimator, kwargs, error, match, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(error, match=match):
        fold_size_study(estimator, X, Y, n_draws=kwargs.pop("n_draws", 3), **kwargs)
    assert not (tmp_path / "x.json").exists()


def test_summary_frame_and_plot(study, tmp_path):
    text = study.summary()
    assert text.startswith("Fold size study (Wong 2015, section 4.3.2)")
    for name in APPROACHES:
        assert name in text
    assert "standard error over draws" in text
    best, difference, standard_error = study.variance_differences()
    assert difference[best] == 0 and (difference >= 0).all() and standard_error.shape == (3,)
    assert APPROACHES[best] in study._findings()[0]
    pd = pytest.importorskip("pandas")
    frame = study.to_frame()
    assert isinstance(frame, pd.DataFrame) and frame.shape == (3, 9)
    assert frame["approach"].tolist() == list(APPROACHES)
    pytest.importorskip("matplotlib")
    figure = study.plot(path=tmp_path / "fold_size.png").figure_
    assert (tmp_path / "fold_size.png").stat().st_size > 0
    assert len(figure.axes) == 2
    assert " ".join(figure.get_suptitle().split()) == study._title()  # the learner, the draws, the folds
    import matplotlib.pyplot as plt

    _, axis = plt.subplots()
    assert study.plot(ax=axis).ax_ is axis and axis.get_ylabel() == "coverage"  # the main panel: the last
    assert [label.get_text() for label in axis.get_xticklabels()] == [a.replace(" (", "\n(") for a in APPROACHES]
    figure, axes = plt.subplots(1, 2)
    drawn = study.plot(ax=axes)
    assert drawn.figure_ is figure and drawn.axes_ == tuple(axes) and drawn.ax_ is axes[1]
    assert [axis.get_ylabel() for axis in axes] == ["sample variance of the fold accuracies", "coverage"]
    with pytest.raises(ValueError, match=r"^ax must be a matplotlib Axes \(the main panel only\) or 2 Axes"):
        study.plot(ax=[axis, *axes])
    plt.close("all")


class _CountingNB(GaussianNB):
    fits = 0

    def fit(self, X, y, sample_weight=None):
        type(self).fits += 1
        return super().fit(X, y, sample_weight)


def test_the_whole_sample_is_fitted_once_per_draw_for_all_three_approaches():
    _CountingNB.fits = 0
    fold_size_study(_CountingNB(), X, Y, sample_size=40, n_splits=4, n_draws=3, random_state=0, n_jobs=1)
    assert _CountingNB.fits == 3 * (1 + 3 * 4)


def test_the_findings_say_when_differences_are_monte_carlo_noise(study):
    best, difference, standard_error = study.variance_differences()
    within = [a for a in range(3) if a != best and difference[a] <= 2 * standard_error[a]]
    first = study._findings()[0]
    assert first.count("within Monte-Carlo noise") == len(within)
    assert ("do not differ in fold-accuracy variance beyond Monte-Carlo noise" in first) == (len(within) == 2)
    # the standard error is that of the paired per-draw difference (the approaches share the samples)
    other = next(a for a in range(3) if a != best)
    paired = study.fold_variance[:, other] - study.fold_variance[:, best]
    assert standard_error[other] == pytest.approx(statistics.stdev(paired) / DRAWS ** 0.5, rel=1e-12)


def test_when_k_divides_n_approaches_2_and_3_are_the_same_partition():
    result = fold_size_study(GaussianNB(), X, Y, sample_size=40, n_splits=4, n_draws=3, random_state=5)
    np.testing.assert_array_equal(result.fold_correct[:, 1], result.fold_correct[:, 2])
    columns = result._columns()
    assert [columns[name][1] for name in columns][1:] == [columns[name][2] for name in columns][1:]
    best = result.variance_differences()[0]
    assert best in (0, 1)  # (2) and (3) tie, and argmin takes the first
    if best == 1:
        assert f"{APPROACHES[2]} gave the same fold accuracies in every draw" in result._findings()[0]
