"""The leave-one-out shortcuts equal brute-force refits, row for row.

The oracle, ``_brute_force``, refits a clone on the other n - 1 rows for
every row, as ``cross_val_predict(..., cv=LeaveOneOut())`` does, but places
each refit's ``predict_proba`` columns by class label itself, so that a class
missing from a training set (a singleton class left out) gets probability 0
without relying on cross_val_predict's handling of missing classes (which
also warns). ``test_oracle_is_cross_val_predict`` checks the oracle against
cross_val_predict where no class goes missing.
"""

import copy
import warnings

import numpy as np
import pytest
from scipy import sparse
from sklearn.base import clone
from sklearn.model_selection import LeaveOneOut, cross_val_predict
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier
from threadpoolctl import threadpool_limits

from cvinference import cross_val_correctness
from cvinference.evaluation import _fast_loo
from cvinference.evaluation._fast_loo import fast_loo_predictions


@pytest.fixture(autouse=True, scope="module")
def _one_thread():
    """Hundreds of tiny fits: OpenMP and BLAS threads only cost time here."""
    with threadpool_limits(limits=1):
        yield


def _brute_force(estimator, X, y):
    """Leave-one-out predictions and probabilities from n refits."""
    classes = np.unique(y)
    predictions = np.empty_like(y)
    proba = np.zeros((y.size, classes.size))
    for row in range(y.size):
        train = np.delete(np.arange(y.size), row)
        model = clone(estimator).fit(X[train], y[train])
        predictions[row] = model.predict(X[row : row + 1])[0]
        proba[row, np.searchsorted(classes, model.classes_)] = model.predict_proba(X[row : row + 1])[0]
    return predictions, proba


def _assert_matches_brute_force(estimator, X, y):
    predictions, proba = fast_loo_predictions(estimator, X, y, need_proba=True)
    expected_predictions, expected_proba = _brute_force(estimator, X, y)
    assert predictions.dtype == y.dtype
    np.testing.assert_array_equal(predictions, expected_predictions)
    np.testing.assert_allclose(proba, expected_proba, rtol=1e-9, atol=1e-12)


@pytest.fixture
def refits(monkeypatch):
    """The rows the shortcut hands to brute force, in order."""
    rows = []
    refit_row = _fast_loo._refit_row

    def counting(estimator, X, y, row, *args):
        rows.append(row)
        return refit_row(estimator, X, y, row, *args)

    monkeypatch.setattr(_fast_loo, "_refit_row", counting)
    return rows


def _integer_grid(seed, n=30, n_features=2, levels=3, n_classes=2):
    """Small integer features: many exact distance ties and duplicate rows."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, levels, size=(n, n_features)).astype(float)
    return X, rng.integers(0, n_classes, size=n)


def _blobs(seed, n=40, n_features=3, n_classes=3, offset=0.0):
    """Continuous features, shifted by ``offset``: ties have probability 0."""
    rng = np.random.default_rng(seed)
    y = np.arange(n) % n_classes
    return rng.normal(size=(n, n_features)) + y[:, None] + offset, y


# --------------------------------------------------------------------------
# KNeighborsClassifier
# --------------------------------------------------------------------------


@pytest.mark.parametrize("n_neighbors", [1, 3, 5, 8])
@pytest.mark.parametrize("weights", ["uniform", "distance"])
def test_knn_exact_distance_ties(n_neighbors, weights):
    X, y = _integer_grid(0)
    _assert_matches_brute_force(KNeighborsClassifier(n_neighbors, weights=weights), X, y)


@pytest.mark.parametrize("algorithm", ["brute", "kd_tree", "ball_tree"])
@pytest.mark.parametrize(
    "metric", [{"metric": "euclidean"}, {"metric": "manhattan"}, {"metric": "minkowski", "p": 3}], ids=str
)
@pytest.mark.parametrize("n_neighbors, weights", [(4, "uniform"), (5, "distance")])
def test_knn_metrics_and_algorithms(algorithm, metric, n_neighbors, weights):
    X, y = _blobs(1, n=30)
    X[:6] = X[6:12]  # duplicates, with different labels for some
    estimator = KNeighborsClassifier(n_neighbors, weights=weights, algorithm=algorithm, **metric)
    _assert_matches_brute_force(estimator, X, y)


@pytest.mark.parametrize("weights", ["uniform", "distance"])
def test_knn_duplicates_outnumbering_k(weights):
    """Seven copies of one point, labels alternating; k = 3 cannot hold them."""
    X, y = _blobs(2, n=30, n_classes=2)
    X[:7] = X[20]
    y[:7] = [0, 1, 0, 1, 0, 1, 1]
    _assert_matches_brute_force(KNeighborsClassifier(3, weights=weights), X, y)


def test_knn_vote_ties_need_no_refit(refits):
    """Even k and two classes: exact 2-2 ties, broken as the refit breaks them."""
    X, y = _blobs(3, n=40, n_classes=2)
    estimator = KNeighborsClassifier(4)
    predictions, _ = fast_loo_predictions(estimator, X, y)
    votes = _fast_loo._knn_shortcut(estimator, X, y, 2).scores
    assert np.any(votes[:, 0] == votes[:, 1])
    assert refits == []
    np.testing.assert_array_equal(predictions, _brute_force(estimator, X, y)[0])


@pytest.mark.parametrize("weights", ["uniform", "distance"])
def test_knn_string_labels_multiclass_and_singleton(weights):
    X, codes = _integer_grid(4, n=36, n_features=3, levels=4, n_classes=3)
    y = np.array(["ant", "bee", "cat"])[codes]
    y[5] = "dog"
    _assert_matches_brute_force(KNeighborsClassifier(3, weights=weights), X, y)


@pytest.mark.parametrize("weights", ["uniform", "distance"])
def test_knn_sparse_input(weights):
    X, y = _integer_grid(5, n=36, n_features=4, levels=3)
    X[X == 1] = 0
    estimator = KNeighborsClassifier(3, weights=weights, algorithm="brute")
    _assert_matches_brute_force(estimator, sparse.csr_matrix(X), y)


def test_knn_all_other_rows_as_neighbours():
    X, y = _integer_grid(6, n=9)
    _assert_matches_brute_force(KNeighborsClassifier(8, weights="distance"), X, y)


@pytest.mark.parametrize("weights", ["uniform", "distance"])
def test_knn_clean_data_needs_no_refit(weights, refits):
    """Far from the origin, so the euclidean norms dominate the rounding."""
    X, y = _blobs(7, n=60, n_features=4, offset=1e3)
    _assert_matches_brute_force(KNeighborsClassifier(5, weights=weights), X, y)
    assert refits == []


def test_knn_weighted_vote_tie_is_refitted(refits):
    """Row 0's votes: 1/3 + 1/6 for class 0 against 1/2 for class 1, equal but for rounding."""
    X = np.array([[0.0], [3.0], [6.0], [-2.0], [100.0], [101.0]])
    y = np.array([1, 0, 0, 1, 0, 1])
    _assert_matches_brute_force(KNeighborsClassifier(3, weights="distance"), X, y)
    assert 0 in refits


@pytest.mark.parametrize("algorithm", ["brute", "kd_tree"])
def test_knn_distances_zero_up_to_rounding_are_refitted(algorithm, refits):
    """Rows 0 and 1 are 1e-9 apart: zero up to rounding (brute force's |x|^2 - 2 x.y + |y|^2 gives 0)."""
    X, y = _blobs(16, n=30, n_features=4, n_classes=2, offset=1e3)
    X[1] = X[0] + 1e-9
    _assert_matches_brute_force(KNeighborsClassifier(3, weights="distance", algorithm=algorithm), X, y)
    assert {0, 1} <= set(refits)


def test_knn_without_sklearns_private_algorithm_attribute(monkeypatch, refits):
    """sklearn keeps the algorithm "auto" resolved to in ``_fit_method``; without it, brute force's rounding is
    assumed."""
    comparable_distances = _fast_loo._comparable_distances

    def without_fit_method(model, *args):
        model = copy.copy(model)
        del model._fit_method
        return comparable_distances(model, *args)

    monkeypatch.setattr(_fast_loo, "_comparable_distances", without_fit_method)
    X, y = _blobs(16, n=30, n_features=4, n_classes=2, offset=1e3)
    X[1] = X[0] + 1e-9
    _assert_matches_brute_force(KNeighborsClassifier(3, weights="distance", algorithm="kd_tree"), X, y)
    assert {0, 1} <= set(refits)


# --------------------------------------------------------------------------
# GaussianNB
# --------------------------------------------------------------------------


@pytest.mark.parametrize("var_smoothing", [1e-9, 1e-2, 1.0])
def test_gaussian_nb_multiclass(var_smoothing, refits):
    X, y = _blobs(8, n=60, n_features=4)
    _assert_matches_brute_force(GaussianNB(var_smoothing=var_smoothing), X, y)
    assert refits == []


def test_gaussian_nb_outlier_moves_the_largest_variance(refits):
    """Without row 0 another feature has the largest variance, and epsilon_ shrinks."""
    rng = np.random.default_rng(9)
    X = np.column_stack([rng.normal(scale=0.1, size=40), rng.normal(size=40)])
    X[0, 0] = 10.0
    y = np.arange(40) % 2
    assert np.argmax(np.var(X, axis=0)) == 0
    assert np.argmax(np.var(X[1:], axis=0)) == 1
    _assert_matches_brute_force(GaussianNB(var_smoothing=1.0), X, y)
    assert refits == []


def test_gaussian_nb_string_labels_singleton_and_duplicates():
    X, codes = _blobs(10, n=40, n_features=3)
    X[:5] = X[10:15]
    y = np.array(["red", "green", "blue"])[codes]
    y[7] = "white"
    _assert_matches_brute_force(GaussianNB(), X, y)


@pytest.mark.parametrize("var_smoothing", [1e-9, 0.0])
def test_gaussian_nb_constant_features(var_smoothing, refits):
    """A constant feature, and one constant within class 0.

    Without smoothing every model has a zero variance, and brute force
    divides by it: every row is refitted.
    """
    X, y = _blobs(11, n=30, n_features=3, n_classes=2)
    X[:, 0] = 2.5
    X[y == 0, 1] = -1.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        _assert_matches_brute_force(GaussianNB(var_smoothing=var_smoothing), X, y)
    assert refits == ([] if var_smoothing else list(range(30)))


def test_gaussian_nb_downdate_to_zero_variance_is_refitted(refits):
    """Row 4 is its class's only deviation in feature 1: downdating leaves rounding noise."""
    X, y = _blobs(17, n=30, n_features=2, n_classes=2)
    X[y == 0, 1] = 0.3
    X[4, 1] = 2.9
    _assert_matches_brute_force(GaussianNB(), X, y)
    assert y[4] == 0
    assert refits == [4]


def test_gaussian_nb_exact_tie_is_refitted(refits):
    """Without row 3 (x = 0.7) the classes mirror each other about 0.7: equal log likelihoods."""
    X = np.array([[0.1], [0.4], [0.6], [0.7], [0.8], [1.0], [1.3]])
    y = np.array([0, 0, 0, 0, 1, 1, 1])
    _assert_matches_brute_force(GaussianNB(), X, y)
    assert refits == [3]


def test_gaussian_nb_training_set_without_variance(refits):
    """Leaving row 0 out leaves identical rows: epsilon_ is 0 and brute force divides by 0."""
    X = np.ones((12, 2))
    X[0] = [3.0, 4.0]
    y = np.arange(12) % 2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        _assert_matches_brute_force(GaussianNB(), X, y)
    assert refits == [0]


def test_gaussian_nb_in_blocks_of_rows(monkeypatch):
    """Blocks of 2 rows (3 classes x 4 features each, limit 30 elements)."""
    monkeypatch.setattr(_fast_loo, "_BLOCK_ELEMENTS", 30)
    X, y = _blobs(18, n=25, n_features=4)
    _assert_matches_brute_force(GaussianNB(var_smoothing=1e-3), X, y)


def test_gaussian_nb_integer_features():
    X, y = _integer_grid(12, n=40, n_features=3, levels=4, n_classes=3)
    _assert_matches_brute_force(GaussianNB(var_smoothing=1e-2), X.astype(np.int64), y)


# --------------------------------------------------------------------------
# Both, and the fallbacks
# --------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(20))
def test_randomised_sweep(seed):
    rng = np.random.default_rng(seed)
    X, y = _integer_grid(seed, n=int(rng.integers(8, 17)), n_features=int(rng.integers(1, 4)), n_classes=3)
    n_neighbors = int(rng.integers(1, 7))
    for estimator in (
        KNeighborsClassifier(n_neighbors, weights=("uniform", "distance")[seed % 2]),
        GaussianNB(var_smoothing=(1e-9, 0.1)[seed % 2]),
    ):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            _assert_matches_brute_force(estimator, X, y)


@pytest.mark.parametrize("estimator", [KNeighborsClassifier(3, weights="distance"), GaussianNB()], ids=repr)
def test_oracle_is_cross_val_predict(estimator):
    X, y = _blobs(13, n=30)
    predictions, proba = fast_loo_predictions(estimator, X, y, need_proba=True)
    np.testing.assert_array_equal(predictions, cross_val_predict(clone(estimator), X, y, cv=LeaveOneOut()))
    expected = cross_val_predict(clone(estimator), X, y, cv=LeaveOneOut(), method="predict_proba")
    np.testing.assert_allclose(proba, expected, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("estimator", [KNeighborsClassifier(3), GaussianNB()], ids=repr)
def test_estimator_untouched_and_proba_only_on_request(estimator):
    X, y = _blobs(14, n=20)
    before = estimator.get_params()
    predictions, proba = fast_loo_predictions(estimator, X, y)
    assert proba is None
    assert predictions.shape == (20,)
    assert estimator.get_params() == before
    assert not hasattr(estimator, "classes_")


class _SubclassedKNN(KNeighborsClassifier):
    pass


@pytest.mark.parametrize(
    "estimator",
    [
        make_pipeline(StandardScaler(), KNeighborsClassifier(3)),
        _SubclassedKNN(3),
        KNeighborsClassifier(3, weights=lambda distances: np.ones_like(distances)),
        KNeighborsClassifier(3, metric="precomputed"),
        KNeighborsClassifier(20),
        KNeighborsClassifier(21),
        GaussianNB(priors=[0.5, 0.5]),
        DecisionTreeClassifier(),
    ],
    ids=repr,
)
def test_no_shortcut(estimator):
    X, y = _blobs(15, n=20, n_classes=2)
    assert fast_loo_predictions(estimator, X, y) is None


@pytest.mark.parametrize(
    "X, y",
    [
        (np.zeros((1, 2)), np.array([0])),
        (np.zeros((4, 2)), np.array([0.1, 0.2, 0.3, 0.4])),
        (np.zeros((4, 2)), np.array([[0, 1], [1, 0], [0, 1], [1, 0]])),
        (sparse.csr_matrix(np.eye(4)), np.array([0, 1, 0, 1])),
        (np.eye(4, dtype=np.float32), np.array([0, 1, 0, 1])),
    ],
    ids=["one row", "continuous y", "2-d y", "sparse X", "float32 X"],
)
def test_no_gaussian_nb_shortcut_for_data(X, y):
    assert fast_loo_predictions(GaussianNB(), X, y) is None


@pytest.mark.parametrize("estimator", [KNeighborsClassifier(5), GaussianNB()], ids=["knn", "nb"])
@pytest.mark.parametrize("container", ["DataFrame", "list"])
def test_lists_and_data_frames_take_the_fast_path_and_equal_refits(estimator, container):
    """Issue 13, item 1: a DataFrame or a list X crashed in this module ('no attribute dtype' / 'ndim')."""
    pd = pytest.importorskip("pandas")
    from sklearn.datasets import load_iris

    X, y = load_iris(return_X_y=True)
    data = pd.DataFrame(X, columns=list("abcd")) if container == "DataFrame" else X.tolist()
    fast = fast_loo_predictions(estimator, data, y)
    assert fast is not None
    brute = cross_val_predict(estimator, X, y, cv=LeaveOneOut())
    np.testing.assert_array_equal(fast[0], brute)
    result = cross_val_correctness(estimator, data, y, cv="loo")
    np.testing.assert_array_equal(result.y_pred[0], brute)


def test_text_features_fall_back_to_refits():
    assert fast_loo_predictions(GaussianNB(), [["a", "b"], ["c", "d"]], np.array([0, 1])) is None
