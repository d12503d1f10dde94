"""The variants that were functions of their own before version 0.1, now ``method=`` values (scipy's habit).

Each keeps working until version 0.2: it warns (FutureWarning) naming the call to write, and returns
that call's result, the same numbers.
"""

from .._utils._deprecation import removal_version, warn_deprecated
from .._utils._params import Options, validate_params
from ._clustered import MCNEMAR_METHODS
from ._paired_tests import matched_sample_test, mcnemar_test
from ._parameters import ALTERNATIVE, REPEAT

_SINCE = "0.1"


def _warn_renamed(old, new):
    warn_deprecated(f"{old}() is deprecated since version {_SINCE} and will be removed in version "
                    f"{removal_version(_SINCE)}; call {new} instead, which gives the same result.")


@validate_params(method=Options(*MCNEMAR_METHODS), alternative=ALTERNATIVE, repeat=REPEAT)
def clustered_mcnemar_test(a, b=None, *, method="obuchowski", alternative="two-sided", repeat=None):
    """McNemar-type test of two classifiers' accuracies when the instances come in groups.

    .. deprecated:: 0.1
        Removed in version 0.2; call ``mcnemar_test(a, b, method="obuchowski")`` (or
        ``method="durkalski"``), whose docstring gives the parameters, the formulas and their sources.

    Examples
    --------
    >>> import warnings
    >>> import numpy as np
    >>> from cvinference import CVResult, mcnemar_test
    >>> from cvinference.inference import clustered_mcnemar_test
    >>> patient = np.repeat(np.arange(30), 2)
    >>> a = CVResult(y_true=[0] * 60, y_pred=[0, 1, 1, 0, 0, 0] * 10, fold=patient % 3, groups=patient)
    >>> b = CVResult(y_true=[0] * 60, y_pred=[1, 1, 0, 0, 1, 0] * 10, fold=patient % 3, groups=patient)
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     old = clustered_mcnemar_test(a, b, method="durkalski")
    >>> print(caught[0].message)
    clustered_mcnemar_test() is deprecated since version 0.1 and will be removed in version 0.2; call
    mcnemar_test(a, b, method='durkalski') instead, which gives the same result.
    >>> old == mcnemar_test(a, b, method="durkalski")
    True
    """
    _warn_renamed("clustered_mcnemar_test", f"mcnemar_test(a, b, method={method!r})")
    return mcnemar_test(a, b, method=method, alternative=alternative, repeat=repeat)


@validate_params(alternative=ALTERNATIVE, repeat=REPEAT)
def cluster_paired_test(a, b=None, *, alternative="two-sided", repeat=None):
    """Cluster-robust paired t of two learners' mean per-instance losses on the same grouped instances.

    .. deprecated:: 0.1
        Removed in version 0.2; call ``matched_sample_test(a, b, method="cluster")``, whose docstring
        gives the parameters, the formulas and their sources.

    Examples
    --------
    >>> import warnings
    >>> import numpy as np
    >>> from cvinference import CVResult, matched_sample_test
    >>> from cvinference.inference import cluster_paired_test
    >>> patient = np.repeat(np.arange(30), 2)
    >>> a = CVResult(y_true=[0] * 60, y_pred=[0, 1, 1, 0, 0, 0] * 10, fold=patient % 3, groups=patient)
    >>> b = CVResult(y_true=[0] * 60, y_pred=[1, 1, 0, 0, 1, 0] * 10, fold=patient % 3, groups=patient)
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     old = cluster_paired_test(a, b)
    >>> print(caught[0].message)
    cluster_paired_test() is deprecated since version 0.1 and will be removed in version 0.2; call
    matched_sample_test(a, b, method='cluster') instead, which gives the same result.
    >>> old == matched_sample_test(a, b, method="cluster")
    True
    """
    _warn_renamed("cluster_paired_test", "matched_sample_test(a, b, method='cluster')")
    return matched_sample_test(a, b, method="cluster", alternative=alternative, repeat=repeat)
