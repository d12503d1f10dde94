"""One fitting path: every refitting scheme hands FitTask items to run_fits, with unchanged results.

Issue 12 moved the 5x2cv fits into ``CVEvaluator.compare`` and the bootstrap's
samples and fits into ``cvinference/evaluation/_bootstrap_fits.py``, and made
every fit a typed :class:`FitTask`. This file checks that

* every producer of fits (the evaluator, and through it 5x2cv; holdout and
  random subsampling; the bootstrap; nested cross-validation) hands ``run_fits`` ``FitTask`` items;
* no result changed. The numbers in ``FIVE_BY_TWO``, ``BOOTSTRAP``,
  ``HOLDOUT`` and ``SUBSAMPLING`` were produced by the code at commit
  ea97ee3, before the fits moved to the evaluation layer, with exactly the
  calls the tests below make (printed with ``repr``, which round-trips a
  float). They are compared with ``==``: not one bit may change, with one job
  or with two (where the slow estimator's fits go to a joblib pool);
* the bootstrap's fits equal plain scikit-learn fits on the documented
  samples (``RandomState(seed).randint(0, n, size=(B, n))``).

The independent scikit-learn oracles of the other schemes are in
tests/inference/test_five_by_two.py (5x2cv), tests/inference/test_resampling.py
(holdout: ``train_test_split``; subsampling: ``StratifiedShuffleSplit``) and
tests/inference/test_bootstrap.py (the statistics).
"""

import contextlib
import threading
import time

import joblib
import numpy as np
import pytest
from sklearn.base import clone
from sklearn.datasets import load_iris, load_wine
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

import cvinference as cvi
from cvinference.evaluation import _bootstrap_fits, _evaluator, _holdout, _nested_fits, _paired_subsampling
from cvinference.evaluation._fit_task import FitTask
from cvinference.evaluation._scheduler import CHEAP_FIT_SECONDS

X_WINE, Y_WINE = load_wine(return_X_y=True)
X_IRIS, Y_IRIS = load_iris(return_X_y=True)

# --------------------------------------------------------------------------- recorded at commit ea97ee3

FIVE_BY_TWO = {  # random_state: the two tests" statistics and the fits" details
    0: {
        "t": (3.607042096811743, 0.015428383498964936, 0.1235955056179775, 0.03426505771230763),
        "F": (7.150537634408611, 0.021186079594583025, 0.08651685393258426, 0.03426505771230763),
        "accuracy_a": [[0.9438202247191011, 0.9662921348314607],
                        [0.9662921348314607, 0.9550561797752809],
                        [0.9662921348314607, 0.9887640449438202],
                        [0.9887640449438202, 0.9662921348314607],
                        [0.9438202247191011, 0.9775280898876404]],
        "accuracy_b": [[0.8202247191011236, 0.9438202247191011],
                        [0.8764044943820225, 0.8539325842696629],
                        [0.8426966292134831, 0.8764044943820225],
                        [0.898876404494382, 0.9101123595505618],
                        [0.8651685393258427, 0.9101123595505618]],
        "differences": [[0.1235955056179775, 0.022471910112359605],
                         [0.0898876404494382, 0.101123595505618],
                         [0.12359550561797761, 0.1123595505617977],
                         [0.0898876404494382, 0.0561797752808989],
                         [0.0786516853932584, 0.0674157303370786]],
        "s_squared": [0.005112990783991912, 6.312334301224624e-05, 6.312334301224748e-05,
                       0.0005681100871102124, 6.312334301224624e-05],
    },
    7: {
        "t": (3.5318871448736444, 0.016706161773248716, 0.1235955056179775, 0.034994183151454916),
        "F": (4.154639175257728, 0.06471273582647588, 0.0640449438202247, 0.034994183151454916),
        "accuracy_a": [[0.9887640449438202, 0.9438202247191011],
                        [0.9662921348314607, 0.9662921348314607],
                        [0.9438202247191011, 0.9887640449438202],
                        [0.9775280898876404, 0.9438202247191011],
                        [0.9775280898876404, 0.9887640449438202]],
        "accuracy_b": [[0.8651685393258427, 0.9101123595505618],
                        [0.898876404494382, 0.9213483146067416],
                        [0.898876404494382, 0.9101123595505618],
                        [0.9325842696629213, 0.9213483146067416],
                        [0.9101123595505618, 0.8764044943820225]],
        "differences": [[0.1235955056179775, 0.0337078651685393],
                         [0.0674157303370787, 0.0449438202247191],
                         [0.0449438202247191, 0.0786516853932584],
                         [0.0449438202247191, 0.022471910112359494],
                         [0.0674157303370786, 0.1123595505617977]],
        "s_squared": [0.004039893952783739, 0.00025249337204898495, 0.0005681100871102124,
                       0.00025249337204898495, 0.0010099734881959348],
    },
}

BOOTSTRAP = {  # (method, stratify): estimate, low, high, values, details
    (".632", False): (
        0.961270054330457, 0.9287891228070175, 0.9849228758169934,
        [0.9683999999999999, 0.9799365079365079, 0.9789333333333333, 0.9473333333333334,
         0.9334736842105263, 0.9605, 0.9785762711864406, 0.9513846153846154,
         0.9756923076923077, 0.9346206896551724, 0.9667368421052632, 0.9262666666666667,
         0.9876078431372549, 0.9425454545454546, 0.9789333333333333],
        {"resubstitution_accuracy": 1.0, "loo_bootstrap_accuracy": 0.9387184403962927,
         "no_information_accuracy": 0.33333333333333326, "relative_overfitting_rate": 0.09192233940556085,
         "weight": 0.6541274443842424, "accuracy_632": 0.961270054330457,
         "accuracy_632_plus": 0.9599140500285464, "n_never_left_out": 1,
         "n_empty_bootstraps": 0},
    ),
    (".632", True): (
        0.9625913497390007, 0.9337162280701755, 0.9781745762711864,
        [0.9628235294117647, 0.9616969696969697, 0.9642264150943396, 0.9334736842105263,
         0.9770181818181818, 0.9667368421052632, 0.9785762711864406, 0.9765925925925927,
         0.9341666666666667, 0.9531851851851851, 0.9736666666666667, 0.9635384615384616,
         0.9655272727272727, 0.9481967213114755, 0.9774285714285714],
        {"resubstitution_accuracy": 1.0, "loo_bootstrap_accuracy": 0.9408090976882924,
         "no_information_accuracy": 0.33333333333333326, "relative_overfitting_rate": 0.08878635346756152,
         "weight": 0.6533470553544791, "accuracy_632": 0.9625913497390007,
         "accuracy_632_plus": 0.9613277982708711, "n_never_left_out": 1,
         "n_empty_bootstraps": 0},
    ),
    (".632+", False): (
        0.9599140500285464, 0.9240537970593035, 0.9847094884430309,
        [0.9675030851501439, 0.9795786480548017, 0.9785384406411302, 0.9447938504542278,
         0.9293696915511847, 0.9590885551527706, 0.9781677490672931, 0.949228791773779,
         0.9751650424394844, 0.930661205383265, 0.9657415437987859, 0.9211913923329058,
         0.9874722486520774, 0.9395099540581929, 0.9785384406411302],
        {"resubstitution_accuracy": 1.0, "loo_bootstrap_accuracy": 0.9387184403962927,
         "no_information_accuracy": 0.33333333333333326, "relative_overfitting_rate": 0.09192233940556085,
         "weight": 0.6541274443842424, "accuracy_632": 0.961270054330457,
         "accuracy_632_plus": 0.9599140500285464, "n_never_left_out": 1,
         "n_empty_bootstraps": 0},
    ),
    (".632+", True): (
        0.9613277982708711, 0.9296429078194991, 0.9777501619301731,
        [0.9615758754863813, 0.9603712064208678, 0.9630726082891867, 0.9293696915511847,
         0.9765474246697343, 0.9657415437987859, 0.9781677490672931, 0.9761040532365397,
         0.9301503094606544, 0.9511893728761198, 0.9730467417263733, 0.9623391069442238,
         0.9644571085782844, 0.9457417582417582, 0.9769746429612358],
        {"resubstitution_accuracy": 1.0, "loo_bootstrap_accuracy": 0.9408090976882924,
         "no_information_accuracy": 0.33333333333333326, "relative_overfitting_rate": 0.08878635346756152,
         "weight": 0.6533470553544791, "accuracy_632": 0.9625913497390007,
         "accuracy_632_plus": 0.9613277982708711, "n_never_left_out": 1,
         "n_empty_bootstraps": 0},
    ),
    ("oob", False): (
        0.9387184403962927, 0.8873245614035088, 0.9761437908496732,
        [0.95, 0.9682539682539683, 0.9666666666666667, 0.9166666666666666,
         0.8947368421052632, 0.9375, 0.9661016949152542, 0.9230769230769231,
         0.9615384615384616, 0.896551724137931, 0.9473684210526316, 0.8833333333333333,
         0.9803921568627451, 0.9090909090909091, 0.9666666666666667],
        {"resubstitution_accuracy": 1.0, "loo_bootstrap_accuracy": 0.9387184403962927,
         "no_information_accuracy": 0.33333333333333326, "relative_overfitting_rate": 0.09192233940556085,
         "weight": 0.6541274443842424, "accuracy_632": 0.961270054330457,
         "accuracy_632_plus": 0.9599140500285464, "n_never_left_out": 1,
         "n_empty_bootstraps": 0},
    ),
    ("oob", True): (
        0.9408090976882924, 0.8951206140350877, 0.9654661016949152,
        [0.9411764705882353, 0.9393939393939394, 0.9433962264150944, 0.8947368421052632,
         0.9636363636363636, 0.9473684210526316, 0.9661016949152542, 0.962962962962963,
         0.8958333333333334, 0.9259259259259259, 0.9583333333333334, 0.9423076923076923,
         0.9454545454545454, 0.9180327868852459, 0.9642857142857143],
        {"resubstitution_accuracy": 1.0, "loo_bootstrap_accuracy": 0.9408090976882924,
         "no_information_accuracy": 0.33333333333333326, "relative_overfitting_rate": 0.08878635346756152,
         "weight": 0.6533470553544791, "accuracy_632": 0.9625913497390007,
         "accuracy_632_plus": 0.9613277982708711, "n_never_left_out": 1,
         "n_empty_bootstraps": 0},
    ),
}

HOLDOUT = {  # stratify: y_pred and y_true as digit strings, n_train
    True: ("110000100012122220010020100111220101111221210000122020111122",
           "110000101012122220010020100112210101111121210100222020111122", 118),
    False: ("002100121010022100022011001000212201211122102",
            "002000121010022100022011001000212201211122102", 133),
}

SUBSAMPLING = {  # stratify: round_accuracy, accuracy, n_train
    True: ([0.9, 0.9, 0.9, 0.9166666666666666, 0.95, 0.9],
           0.9111111111111111, 118),
    False: ([0.8833333333333333, 0.9166666666666666, 0.95, 0.8833333333333333, 0.9666666666666667, 0.9],
            0.9166666666666666, 118),
}


# --------------------------------------------------------------------------- helpers

FIT_THREADS = set()


class SlowTree(DecisionTreeClassifier):
    """``DecisionTreeClassifier`` whose fit also waits past the cheap-fit threshold, so its fits go to the pool.

    It records the thread of every fit, so a test can see that the pool ran some.
    """

    def fit(self, X, y, sample_weight=None, check_input=True):
        FIT_THREADS.add(threading.current_thread().name)
        time.sleep(1.2 * CHEAP_FIT_SECONDS)
        return super().fit(X, y, sample_weight=sample_weight, check_input=check_input)


@contextlib.contextmanager
def fits_run(where):
    """``(n_jobs, tree factory)``: one job with a plain tree, or two whose slow trees' fits go to a pool.

    The threading backend keeps the file fast (starting loky workers takes
    seconds); tests/evaluation/test_scheduler.py runs the pool under loky.
    """
    if where == "here":
        yield 1, lambda: DecisionTreeClassifier(random_state=0)
        return
    FIT_THREADS.clear()
    with joblib.parallel_config(backend="threading"):
        yield 2, lambda: SlowTree(random_state=0)
    assert len(FIT_THREADS) >= 2, "no fit ran in the pool"


WHERE = ["here", "pool"]


# --------------------------------------------------------------------------- results unchanged since ea97ee3


@pytest.mark.parametrize("where", WHERE)
@pytest.mark.parametrize("random_state", sorted(FIVE_BY_TWO))
def test_5x2cv_results_unchanged(random_state, where):
    expected = FIVE_BY_TWO[random_state]
    with fits_run(where) as (n_jobs, tree):
        t = cvi.paired_ttest_5x2cv(GaussianNB(), tree(), X_WINE, Y_WINE, random_state=random_state, n_jobs=n_jobs)
        f = cvi.combined_ftest_5x2cv(GaussianNB(), tree(), X_WINE, Y_WINE, random_state=random_state,
                                     n_jobs=n_jobs)
    assert (t.statistic, t.pvalue, t.estimate, t.standard_error) == expected["t"]
    assert (f.statistic, f.pvalue, f.estimate, f.standard_error) == expected["F"]
    for test in (t, f):
        for key in ("accuracy_a", "accuracy_b", "differences", "s_squared"):
            np.testing.assert_array_equal(test.details[key], expected[key])
        np.testing.assert_array_equal(test.details["test_sizes"], np.full((5, 2), 89))


@pytest.mark.parametrize("where", WHERE)
@pytest.mark.parametrize("method, stratify", sorted(BOOTSTRAP))
def test_bootstrap_results_unchanged(method, stratify, where):
    estimate, low, high, values, details = BOOTSTRAP[method, stratify]
    with fits_run(where) as (n_jobs, tree):
        result = cvi.bootstrap_accuracy(tree(), X_IRIS, Y_IRIS, method=method, stratify=stratify, n_bootstraps=15,
                                        random_state=3, n_jobs=n_jobs)
    assert (result.estimate, result.low, result.high) == (estimate, low, high)
    np.testing.assert_array_equal(result.values, values)
    assert dict(result.details) == details


@pytest.mark.parametrize("stratify", sorted(HOLDOUT))
def test_holdout_results_unchanged(stratify):
    y_pred, y_true, n_train = HOLDOUT[stratify]
    if stratify:
        result = cvi.evaluation.holdout(DecisionTreeClassifier(random_state=0), X_WINE, Y_WINE, random_state=5)
    else:
        result = cvi.evaluation.holdout(GaussianNB(), X_WINE, Y_WINE, stratify=False, test_size=0.25, random_state=2)
    np.testing.assert_array_equal(result.y_pred[0], [int(c) for c in y_pred])
    np.testing.assert_array_equal(result.y_true, [int(c) for c in y_true])
    assert result.n_train == n_train


@pytest.mark.parametrize("where", WHERE)
@pytest.mark.parametrize("stratify", sorted(SUBSAMPLING))
def test_random_subsampling_results_unchanged(stratify, where):
    round_accuracy, accuracy, n_train = SUBSAMPLING[stratify]
    with fits_run(where) as (n_jobs, tree):
        result = cvi.evaluation.random_subsampling(tree(), X_WINE, Y_WINE, n_rounds=6, stratify=stratify,
                                                   random_state=4,
                                                   n_jobs=n_jobs)
    np.testing.assert_array_equal(result.round_accuracy, round_accuracy)
    assert (result.accuracy, result.n_train) == (accuracy, n_train)


# --------------------------------------------------------------------------- the bootstrap's fits


def test_bootstrap_fits_equal_plain_fits_on_numpy_samples():
    """The documented samples (numpy's randint rows), each fitted with plain scikit-learn."""
    tree, n, n_bootstraps = DecisionTreeClassifier(max_depth=2, random_state=0), Y_IRIS.size, 6
    record = cvi.evaluation.bootstrap_sampling(tree, X_IRIS, Y_IRIS, n_bootstraps=n_bootstraps, random_state=8,
                                               n_jobs=1)
    samples = np.random.RandomState(8).randint(0, n, size=(n_bootstraps, n))
    np.testing.assert_array_equal(record.sample_indices, samples)
    np.testing.assert_array_equal(record.y_pred, clone(tree).fit(X_IRIS, Y_IRIS).predict(X_IRIS))
    for sample, left_out, correct in zip(samples, record.out_of_bag, record.out_of_bag_correct, strict=True):
        rows = sorted(set(range(n)) - set(sample.tolist()))
        np.testing.assert_array_equal(np.flatnonzero(left_out), rows)
        expected = clone(tree).fit(X_IRIS[sample], Y_IRIS[sample]).predict(X_IRIS[rows]) == Y_IRIS[rows]
        np.testing.assert_array_equal(correct[rows], expected)
        assert not correct[~left_out].any()


# --------------------------------------------------------------------------- every producer hands FitTask items


def test_fit_task_fields():
    task = FitTask(estimator=1, where="fold 0 of repeat 0", train=np.arange(3), test=None)
    assert FitTask._fields == ("estimator", "where", "train", "test", "scored")
    assert (task.estimator, task.where, task.test, task.scored) == (1, "fold 0 of repeat 0", None, None)


@pytest.fixture
def submitted(monkeypatch):
    """{producer module name: [the tasks of each call of run_fits]}, recorded on the way to the real run_fits."""
    calls = {}
    for module in (_evaluator, _holdout, _bootstrap_fits, _paired_subsampling, _nested_fits):
        def spy(estimators, X, y, tasks, *args, _real=module.run_fits, _name=module.__name__, **kwargs):
            calls.setdefault(_name.rsplit(".", 1)[1], []).append([tasks[i] for i in range(len(tasks))])
            return _real(estimators, X, y, tasks, *args, **kwargs)
        monkeypatch.setattr(module, "run_fits", spy)
    return calls


def assert_fit_tasks(tasks, n_estimators, where):
    for task in tasks:
        assert type(task) is FitTask
        assert 0 <= task.estimator < n_estimators and where in task.where
        for rows in (task.train, task.test):
            assert rows is None or (isinstance(rows, np.ndarray) and rows.dtype.kind in "iu")


@pytest.mark.parametrize("producer, module, n_fits, n_estimators, where", [
    (lambda: cvi.cross_val_correctness(GaussianNB(), X_IRIS, Y_IRIS, cv=5, random_state=0),
     "_evaluator", 5, 1, "fold"),
    (lambda: cvi.paired_ttest_5x2cv(GaussianNB(), DecisionTreeClassifier(), X_IRIS, Y_IRIS, random_state=0),
     "_evaluator", 20, 2, "repeat"),
    (lambda: cvi.combined_ftest_5x2cv(GaussianNB(), DecisionTreeClassifier(), X_IRIS, Y_IRIS, random_state=0),
     "_evaluator", 20, 2, "repeat"),
    (lambda: cvi.evaluation.holdout(GaussianNB(), X_IRIS, Y_IRIS, random_state=0), "_holdout", 1, 1, "holdout"),
    (lambda: cvi.evaluation.random_subsampling(GaussianNB(), X_IRIS, Y_IRIS, n_rounds=3, random_state=0),
     "_holdout", 3, 1, "round"),
    (lambda: cvi.bootstrap_accuracy(GaussianNB(), X_IRIS, Y_IRIS, n_bootstraps=4, random_state=0),
     "_bootstrap_fits", 5, 1, ""),
    (lambda: cvi.conservative_z_interval(GaussianNB(), X_IRIS, Y_IRIS, estimator_b=DecisionTreeClassifier(),
                                         n_pairs=2, n_rounds=3, random_state=0),
     "_paired_subsampling", 30, 2, "split"),
    (lambda: cvi.nested_cv_interval(GaussianNB(), X_IRIS, Y_IRIS, n_splits=3, n_repeats=2, random_state=0,
                                    estimator_b=DecisionTreeClassifier()),
     "_nested_fits", 2 * 2 * 6, 2, "repeat"),
], ids=["kfold", "5x2cv t", "5x2cv F", "holdout", "subsampling", "bootstrap", "paired subsampling", "nested"])
def test_every_scheme_submits_fit_tasks_to_run_fits(submitted, producer, module, n_fits, n_estimators, where):
    producer()
    assert list(submitted) == [module]
    [tasks] = submitted[module]
    assert len(tasks) == n_fits
    assert_fit_tasks(tasks, n_estimators, where)
