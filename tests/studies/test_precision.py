"""precision_study: Nedel'ko's (2021) study of K-fold cross-validation's precision on a population."""

import json
import math
import pickle
import statistics

import numpy as np
import pytest
from scipy.special import polygamma
from sklearn.datasets import make_classification
from sklearn.linear_model import LinearRegression, Perceptron
from sklearn.model_selection import cross_val_predict
from sklearn.naive_bayes import GaussianNB

from cvinference.evaluation._fit_task import ScoredRows
from cvinference.studies._draws import draw_seeds, plan_draw
from cvinference.studies._precision import PrecisionStudyResult, precision_study

X, Y = make_classification(4000, 5, n_informative=3, flip_y=0.05, random_state=0)
ARGS = dict(sample_size=80, folds=(2, 5), n_draws=6, random_state=0)
CLIP = (0.001, 0.999)  # Nedel'ko (2021), section 5


class CountingNB(GaussianNB):
    fits = 0

    def fit(self, X, y):
        type(self).fits += 1
        return super().fit(X, y)


@pytest.fixture(scope="module")
def result():
    return precision_study(GaussianNB(), X, Y, **ARGS, n_jobs=1)


def _log_loss(model, rows):
    """Oracle: -ln p(true class), p clipped to Nedel'ko's [0.001, 0.999], by hand from predict_proba."""
    proba = model.predict_proba(X[rows])
    return -np.log(np.clip(proba[np.arange(rows.size), np.searchsorted(model.classes_, Y[rows])], *CLIP))


def test_the_columns_equal_their_formulas_on_the_per_draw_arrays(result):
    cv, true, n = result.cv_loss, result.true_loss, result.sample_size
    for j in range(len(result.folds)):
        delta = cv[:, j] - true
        # Oracles: Nedel'ko (2021) section 2 and 3 by hand, population (divisor n) statistics from `statistics`.
        assert result.bias_cv[j] == pytest.approx(sum(delta) / len(delta), rel=1e-12)
        assert result.err_cv[j] == pytest.approx(math.sqrt(sum(d * d for d in delta) / len(delta)), rel=1e-12)
        assert result.sigma_tilde[j] == pytest.approx(statistics.pstdev(cv[:, j]), rel=1e-12)
        assert result.kappa[j] == pytest.approx(np.corrcoef(cv[:, j], true)[0, 1], rel=1e-10)
        assert result.mean_s_tilde[j] == pytest.approx(statistics.fmean(result.cv_std[:, j]), rel=1e-12)
        assert result.eps_s_tilde[j] == pytest.approx(statistics.pstdev(np.log(result.cv_std[:, j])), rel=1e-12)
        assert result.s_folds[j] == pytest.approx(statistics.fmean(result.fold_std[:, j]), rel=1e-12)
        assert result.r_folds[j] == pytest.approx(statistics.pstdev(np.log(result.fold_std[:, j])), rel=1e-12)
        assert result.half_sample_ratio[j] == pytest.approx(
            result.err_cv[j] / (result.mean_s_tilde[j] / math.sqrt(n / 2)), rel=1e-12)
    assert result.mean_train_loss == pytest.approx(statistics.fmean(result.train_loss), rel=1e-12)
    assert result.mean_true_loss == pytest.approx(statistics.fmean(true), rel=1e-12)
    assert result.sigma == pytest.approx(statistics.pstdev(true), rel=1e-12)
    assert result.mean_s == pytest.approx(statistics.fmean(result.true_std), rel=1e-12)
    assert result.eps_s == pytest.approx(statistics.pstdev(np.log(result.true_std)), rel=1e-12)
    assert result.err_test == pytest.approx(math.sqrt(statistics.fmean(result.true_std ** 2) / n), rel=1e-12)
    assert result.cv_loss.shape == result.cv_std.shape == result.fold_std.shape == (6, 2)
    assert result.true_loss.shape == result.true_std.shape == result.train_loss.shape == (6,)


def test_the_decomposition_of_section_2_holds_exactly(result):
    # Nedel'ko (2021), section 2: E(Delta^2) = sigma~^2 + sigma^2 + bias^2 - 2 sigma~ sigma kappa.
    s, t = result.sigma_tilde, result.sigma
    rebuilt = s ** 2 + t ** 2 + result.bias_cv ** 2 - 2 * s * t * result.kappa
    np.testing.assert_allclose(result.err_cv ** 2, rebuilt, rtol=0, atol=1e-12)


def _recomputed(draw, k, *, n_repeats, sample_size, n_draws, seed):
    """Oracle for one draw: the documented scheme replayed, every loss from sklearn models fitted here."""
    rng = np.random.RandomState(seed)
    order = rng.permutation(Y.size)
    seeds = draw_seeds(rng, n_draws)
    half = Y.size // 2
    test_rows = order[:half]
    start = half + draw * sample_size  # disjoint pieces of the training half, in order
    sample = order[start:start + sample_size]
    model = GaussianNB().fit(X[sample], Y[sample])
    true = _log_loss(model, test_rows)
    plan = plan_draw(X[order], Y[order], seeds[draw], choose_sample=lambda r: np.arange(start, start + sample_size),
                     scored=lambda s: ScoredRows(0, half), cv=k, n_repeats=n_repeats, classifier=True)
    losses, fold_stds = [], []
    for fold in plan.partitions.fold:
        splits = [(np.flatnonzero(fold != j), np.flatnonzero(fold == j)) for j in range(k)]
        proba = cross_val_predict(GaussianNB(), X[sample], Y[sample], cv=splits, method="predict_proba")
        loss = -np.log(np.clip(proba[np.arange(sample_size), Y[sample]], *CLIP))
        losses.append(loss)
        fold_stds.append(np.std([loss[fold == j].mean() for j in range(k)], ddof=1))
    losses = np.array(losses)
    return {"cv_loss": losses.mean(), "cv_std": math.sqrt(np.mean((losses - losses.mean()) ** 2)),
            "fold_std": np.mean(fold_stds), "true_loss": true.mean(), "true_std": true.std(),
            "train_loss": _log_loss(model, sample).mean()}


def test_one_draw_equals_sklearn_fits_on_the_same_rows_for_every_k(result):
    for j, k in enumerate(result.folds):  # the same sample serves every K
        expected = _recomputed(4, int(k), n_repeats=1, sample_size=80, n_draws=6, seed=0)
        for key in ("cv_loss", "cv_std", "fold_std"):
            assert getattr(result, key)[4, j] == pytest.approx(expected[key], rel=1e-9), key
        for key in ("true_loss", "true_std", "train_loss"):
            assert getattr(result, key)[4] == pytest.approx(expected[key], rel=1e-9), key


def test_repeats_pool_the_estimate_and_average_the_fold_spread():
    result = precision_study(GaussianNB(), X, Y, sample_size=40, folds=(4,), n_repeats=2, n_draws=2, random_state=3)
    expected = _recomputed(1, 4, n_repeats=2, sample_size=40, n_draws=2, seed=3)
    for key in ("cv_loss", "cv_std", "fold_std"):
        assert getattr(result, key)[1, 0] == pytest.approx(expected[key], rel=1e-9), key
    assert any("n_repeats=2" in note for note in result.notes)


def test_r_folds_reading_matches_nedelko_table_2_in_theory():
    # For normal fold means, (K-1) S_folds^2 / s^2 ~ chi2(K-1), and Var(ln chi2(nu)) = psi'(nu / 2), so
    # std(ln S_folds) = sqrt(psi'((K-1)/2)) / 2. Nedel'ko (2021), Table 2 prints 0.642, 0.397, 0.250.
    theory = {k: math.sqrt(polygamma(1, (k - 1) / 2)) / 2 for k in (2, 3, 5, 10)}
    assert theory[3] == pytest.approx(0.642, abs=0.002)
    assert theory[5] == pytest.approx(0.397, abs=0.005)  # 0.4015
    assert theory[10] == pytest.approx(0.250, abs=0.002)
    assert theory[2] == pytest.approx(math.pi / math.sqrt(2) / 2, rel=1e-12)  # 1.111; his 1.367 is higher
    # The other plausible reading, the coefficient of variation of S_folds, does not fit: at K = 3 (chi with
    # 2 df) it is sqrt(2 - pi/2) / sqrt(pi/2) = 0.523, not 0.642.
    assert math.sqrt(2 - math.pi / 2) / math.sqrt(math.pi / 2) == pytest.approx(0.523, abs=0.001)


def test_nedelko_tables_satisfy_the_decomposition_and_err_test():
    # Nedel'ko (2021), Tables 1 and 2 (N = 1000): sigma = 0.007; per K: bias, err_cv, sigma~, kappa.
    sigma = 0.007
    for bias, err, sigma_tilde, kappa in [(0.040, 0.052, 0.030, -0.421), (0.022, 0.035, 0.024, -0.390),
                                          (0.012, 0.032, 0.026, -0.454), (0.007, 0.031, 0.027, -0.485)]:
        rebuilt = math.sqrt(sigma_tilde ** 2 + sigma ** 2 + bias ** 2 - 2 * sigma_tilde * sigma * kappa)
        assert rebuilt == pytest.approx(err, abs=0.0015)  # his figures are rounded to 3 decimals
    assert 0.637 / math.sqrt(1000) == pytest.approx(0.019, abs=0.0015)  # err_test of Table 1 (he prints 0.019)
    assert 0.553 / math.sqrt(100) == pytest.approx(0.056, abs=0.001)
    # His closing rule at K = 10, Table 2: err_cv / (E S~ / sqrt(N/2)) is about 1.
    assert 0.031 / (0.649 / math.sqrt(500)) == pytest.approx(1.0, abs=0.1)


def test_the_whole_sample_is_fitted_once_per_draw_and_every_k_equals_its_own_study(result, capsys):
    CountingNB.fits = 0
    counted = precision_study(CountingNB(), X, Y, **ARGS, n_jobs=1, verbose=1)
    assert CountingNB.fits == 6 * (1 + 2 + 5)  # one whole-sample fit per draw, not one per K
    progress = capsys.readouterr().err
    assert "K=2: draws 6/6" in progress and "K=5: draws 6/6" in progress
    # Oracle: a study of one K alone, which fits the whole sample for that K; the samples do not depend on folds.
    for j, k in enumerate(ARGS["folds"]):
        alone = precision_study(GaussianNB(), X, Y, **{**ARGS, "folds": (k,)})
        for name in ("cv_loss", "cv_std", "fold_std"):
            np.testing.assert_array_equal(getattr(counted, name)[:, j], getattr(alone, name)[:, 0])
        for name in ("true_loss", "true_std", "train_loss"):
            np.testing.assert_array_equal(getattr(counted, name), getattr(alone, name))
    assert {**counted.to_dict(), "estimator": "GaussianNB()"} == result.to_dict()


def test_the_same_result_for_any_n_jobs(result):
    assert precision_study(GaussianNB(), X, Y, **ARGS, n_jobs=2).to_dict() == result.to_dict()


def test_to_dict_round_trips_exactly_through_json(result):
    data = json.loads(json.dumps(result.to_dict(), allow_nan=False))
    rebuilt = PrecisionStudyResult.from_dict(data)
    assert rebuilt.to_dict() == result.to_dict()
    assert pickle.loads(pickle.dumps(result)).to_dict() == result.to_dict()
    for name in ("folds", "cv_loss", "cv_std", "fold_std", "true_loss", "true_std", "train_loss"):
        original, copy = getattr(result, name), getattr(rebuilt, name)
        assert copy.dtype == original.dtype and np.array_equal(copy, original) and not copy.flags.writeable
    assert rebuilt.notes == result.notes and rebuilt.summary() == result.summary()


def test_summary_frame_and_plot(result, tmp_path):
    text = result.summary()
    assert "Nedel'ko" in text and "err_cv" in text and "disjoint pieces" in text
    pd = pytest.importorskip("pandas")
    frame = result.to_frame()
    assert isinstance(frame, pd.DataFrame) and frame.shape == (2, 16)
    assert list(frame.columns[:10]) == ["folds", "bias_cv", "err_cv", "sigma_tilde", "kappa", "mean_s_tilde",
                                        "eps_s_tilde", "s_folds", "r_folds", "half_sample_ratio"]
    assert frame["folds"].tolist() == [2, 5] and (frame["err_test"] == result.err_test).all()
    pytest.importorskip("matplotlib")
    path = tmp_path / "precision.png"
    result.plot(path=path)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    import matplotlib.pyplot as plt

    drawn = result.plot()  # one panel, on a new figure
    axis = drawn.ax_
    assert drawn.axes_ == (axis,) and drawn.figure_.axes == [axis] and axis.get_xlabel() == "number of folds K"
    assert " ".join(axis.get_title().split()).startswith(f"precision of K-fold cross-validation: {result.estimator}")
    plt.close(axis.figure)


def test_overlapping_samples_when_the_training_half_is_too_small():
    result = precision_study(GaussianNB(), X[:300], Y[:300], sample_size=60, folds=(3,), n_draws=3, random_state=1)
    assert "independent draws without replacement" in result.notes[0] and np.isfinite(result.err_cv).all()


@pytest.mark.parametrize(("estimator", "changes", "error", "match"), [
    (CountingNB(), {"sample_size": 2001}, ValueError, "sample_size=2001 exceeds the training half"),
    (CountingNB(), {"n_draws": 1}, ValueError, "n_draws must be an integer >= 2"),
    (CountingNB(), {"folds": (1, 5)}, ValueError, "between 2 and sample_size=80"),
    (CountingNB(), {"folds": (2, 81)}, ValueError, "between 2 and sample_size=80"),
    (CountingNB(), {"folds": (5, 2)}, ValueError, "strictly increasing"),
    (CountingNB(), {"folds": (2, 2)}, ValueError, "strictly increasing"),
    (CountingNB(), {"folds": (2.0, 5)}, TypeError, "integers"),
    (CountingNB(), {"folds": (50,)}, ValueError, "too small for 50-fold"),
    (CountingNB(), {"loss": "squared_error"}, ValueError, "numeric target"),
    (CountingNB(), {"loss": "no_such_loss"}, ValueError, "got loss=.no_such_loss.\\."),
    (CountingNB(), {"checkpoint": "x.json", "random_state": None}, ValueError, "needs an int random_state"),
    (Perceptron(), {}, TypeError, "has no predict_proba"),
    (LinearRegression(), {"loss": "zero_one"}, TypeError, "must be a classifier"),
])
def test_bad_input_is_refused_before_any_fit(estimator, changes, error, match, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    CountingNB.fits = 0
    with pytest.raises(error, match=match):
        precision_study(estimator, X, Y, **{**ARGS, **changes})
    assert CountingNB.fits == 0


def test_a_checkpoint_resumes_without_refitting(tmp_path):
    path = tmp_path / "precision.json"
    args = {**ARGS, "n_draws": 3}
    CountingNB.fits = 0
    first = precision_study(CountingNB(), X, Y, **args, checkpoint=path)
    assert CountingNB.fits == 3 * (1 + 2 + 5)  # per draw: the whole sample once, then K folds per K
    saved = json.loads(path.read_text())
    assert sorted(saved["parts"]) == ["K=2", "K=5"] and sorted(saved["parts"]["K=5"]) == ["0", "1", "2"]
    del saved["parts"]["K=5"]["1"]
    path.write_text(json.dumps(saved))
    CountingNB.fits = 0
    resumed = precision_study(CountingNB(), X, Y, **args, checkpoint=path)
    assert CountingNB.fits == 5  # only the folds of draw 1 at K=5: its whole sample was fitted with K=2
    CountingNB.fits = 0
    again = precision_study(CountingNB(), X, Y, **args, checkpoint=path)
    assert CountingNB.fits == 0
    plain = precision_study(CountingNB(), X, Y, **args)
    assert first.to_dict() == resumed.to_dict() == again.to_dict() == plain.to_dict()
    with pytest.raises(ValueError, match="other arguments"):
        precision_study(CountingNB(), X, Y, **{**args, "folds": (2, 3)}, checkpoint=path)


def test_a_dataframe_population_gives_the_same_result():
    pd = pytest.importorskip("pandas")
    args = {**ARGS, "n_draws": 2, "folds": (3,)}
    frame = pd.DataFrame(X, columns=[f"x{i}" for i in range(X.shape[1])], index=np.arange(Y.size)[::-1])
    expected = precision_study(GaussianNB(), X, Y, **args).to_dict()
    assert precision_study(GaussianNB(), frame, pd.Series(Y, index=frame.index), **args).to_dict() == expected
