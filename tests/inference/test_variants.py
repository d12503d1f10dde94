"""Issue 44, item 4: variants are ``method=`` values of the function they vary, and the old names still work.

``clustered_mcnemar_test(a, b, method=m)`` is ``mcnemar_test(a, b, method=m)`` and ``cluster_paired_test(a, b)``
is ``matched_sample_test(a, b, method="cluster")``; the old names warn (FutureWarning, naming the new call and
the version that removes them) and return the same result.
"""

import re
import warnings

import numpy as np
import pytest

import cvinference as cvi
from cvinference.inference import cluster_paired_test, clustered_mcnemar_test

N_GROUPS = 30


def _record(seed, n_repeats=1, regression=False):
    """A learner's grouped record on one dataset (the same y for every seed), its errors drawn with ``seed``."""
    rng, data = np.random.default_rng(seed), np.random.default_rng(99)
    groups = np.repeat(np.arange(N_GROUPS), 4)
    fold = np.tile(groups % 5, (n_repeats, 1))
    if regression:
        y = data.normal(size=groups.size)
        y_pred = np.tile(y + rng.normal(size=groups.size) + rng.normal(size=N_GROUPS)[groups], (n_repeats, 1))
        return cvi.CVResult(y_true=y, y_pred=y_pred, fold=fold, loss=(y_pred - y) ** 2, loss_name="squared_error",
                            groups=groups)
    y = data.integers(0, 2, groups.size)
    wrong = rng.random((n_repeats, groups.size)) < rng.random(N_GROUPS)[groups] * 0.6
    return cvi.CVResult(y_true=y, y_pred=np.where(wrong, 1 - y, y), fold=fold, groups=groups)


def _old(function, *args, **kwargs):
    new = {"clustered_mcnemar_test": f"mcnemar_test(a, b, method={kwargs.get('method', 'obuchowski')!r})",
           "cluster_paired_test": "matched_sample_test(a, b, method='cluster')"}[function.__name__]
    message = re.escape(f"{function.__name__}() is deprecated since version 0.1 and will be removed in version 0.2; "
                        f"call {new} instead, which gives the same result.")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cvi.InferenceWarning)
        with pytest.warns(FutureWarning, match=f"^{message}$") as caught:
            result = function(*args, **kwargs)
    assert caught[0].filename == __file__
    return result


def _new(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cvi.InferenceWarning)
        warnings.simplefilter("error", FutureWarning)
        return function(*args, **kwargs)


@pytest.mark.parametrize("kwargs", [{}, {"method": "obuchowski"}, {"method": "durkalski"},
                                    {"method": "durkalski", "alternative": "greater"}, {"repeat": 1}])
def test_clustered_mcnemar_test_is_mcnemar_test_with_its_method(kwargs):
    a, b = _record(0, n_repeats=2), _record(1, n_repeats=2)
    kwargs = {"repeat": 0, **kwargs}
    old = _old(clustered_mcnemar_test, a, b, **kwargs)
    new = _new(cvi.mcnemar_test, a, b, **{"method": "obuchowski", **kwargs})
    assert old == new
    assert old.method == new.method and old.statistic == new.statistic and old.pvalue == new.pvalue
    assert _new(cvi.mcnemar_test, cvi.PairedCVResult(a, b), **{"method": "obuchowski", **kwargs}) == new


@pytest.mark.parametrize("regression", [False, True])
@pytest.mark.parametrize("kwargs", [{}, {"alternative": "less"}, {"repeat": 1}])
def test_cluster_paired_test_is_matched_sample_test_with_method_cluster(regression, kwargs):
    a, b = _record(2, n_repeats=2, regression=regression), _record(3, n_repeats=2, regression=regression)
    old = _old(cluster_paired_test, a, b, **kwargs)
    new = _new(cvi.matched_sample_test, a, b, method="cluster", **kwargs)
    assert old == new and type(old) is type(new)
    assert (old.estimate, old.standard_error, old.df) == (new.estimate, new.standard_error, new.df)


def test_the_old_names_keep_their_own_checks():
    a, b = _record(0), _record(1)
    with pytest.raises(ValueError, match="method must be one of 'obuchowski', 'durkalski'; got method='mcnemar'"):
        clustered_mcnemar_test(a, b, method="mcnemar")
    with pytest.raises(TypeError, match="got an unexpected keyword argument 'method'"):
        cluster_paired_test(a, b, method="t")


def test_the_new_methods_name_themselves_in_their_errors():
    a, b = _record(0, n_repeats=2), _record(1, n_repeats=2)
    with pytest.raises(ValueError, match=r"^mcnemar_test\(method='durkalski'\) counts instances in each group"):
        cvi.mcnemar_test(a, b, method="durkalski")
    plain = cvi.CVResult(y_true=a.y_true, y_pred=a.y_pred[0], fold=a.fold[0])
    with pytest.raises(ValueError, match=r"^matched_sample_test\(method='cluster'\) treats the groups"):
        cvi.matched_sample_test(plain, plain, method="cluster")
    with pytest.raises(ValueError, match="method must be one of 't', 'cluster'; got method='z'"):
        cvi.matched_sample_test(a, b, method="z")


def test_the_top_level_spelling_warns_twice_naming_both_moves():
    a, b = _record(0), _record(1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cvi.InferenceWarning)
        with pytest.warns(FutureWarning) as caught:
            old = cvi.cluster_paired_test(a, b)
    assert [str(w.message).split(";")[0] for w in caught] == [
        "cvinference.cluster_paired_test moved to cvinference.inference.cluster_paired_test in version 0.1",
        "cluster_paired_test() is deprecated since version 0.1 and will be removed in version 0.2"]
    assert old == _new(cvi.matched_sample_test, a, b, method="cluster")
