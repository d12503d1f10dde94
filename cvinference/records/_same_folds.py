"""Whether two records were cross-validated on identical folds."""

from .._utils._blockwise import arrays_equal
from ._pair_cache import cached_for_pair


def same_folds(a, b):
    """Whether two results were cross-validated on identical folds in every repeat."""
    return cached_for_pair(a, b, "same folds", lambda: arrays_equal(a.fold, b.fold))
