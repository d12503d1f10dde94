"""Issue 44, item 4: variants are ``method=`` values of the function they vary (scipy's habit).

The clustered McNemar tests are ``mcnemar_test(a, b, method="mcnemar-obuchowski"/"mcnemar-durkalski")`` and the
cluster-robust paired t is ``matched_sample_test(a, b, method="cluster-paired-t")``; each names its method in its
errors.
"""


import numpy as np
import pytest

import cvinference as cvi

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


def test_the_new_methods_name_themselves_in_their_errors():
    a, b = _record(0, n_repeats=2), _record(1, n_repeats=2)
    with pytest.raises(ValueError, match=r"^mcnemar_test\(method='mcnemar-durkalski'\) counts instances in each group"):
        cvi.mcnemar_test(a, b, method="mcnemar-durkalski")
    plain = cvi.CVResult(y_true=a.y_true, y_pred=a.y_pred[0], fold=a.fold[0])
    with pytest.raises(ValueError, match=r"^matched_sample_test\(method='cluster-paired-t'\) treats the groups"):
        cvi.matched_sample_test(plain, plain, method="cluster-paired-t")
    with pytest.raises(ValueError, match="method must be one of 'matched-t', 'cluster-paired-t'; got method='z'"):
        cvi.matched_sample_test(a, b, method="z")


@pytest.mark.parametrize(("function", "old", "new"), [
    (cvi.mcnemar_test, "obuchowski", "mcnemar-obuchowski"), (cvi.mcnemar_test, "durkalski", "mcnemar-durkalski"),
    (cvi.matched_sample_test, "t", "matched-t"), (cvi.matched_sample_test, "cluster", "cluster-paired-t"),
    (cvi.independent_sample_test, "z", "independent-z"), (cvi.independent_sample_test, "t", "independent-t")])
def test_a_method_option_renamed_to_its_id_is_refused_with_the_id(function, old, new):
    """Issue 59: the tests' method= options are their ids; an old value's error names the new one (no shim)."""
    with pytest.raises(ValueError, match=rf"^method='{old}' is now method='{new}'; method must be one of "):
        function(_record(0), _record(1), method=old)
