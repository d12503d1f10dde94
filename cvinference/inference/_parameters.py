"""The rules of the parameters the inference functions share (see :mod:`cvinference._utils._params`)."""

from .._utils._params import Integer, Nullable, Options
from ._distributions import ALTERNATIVES

ALTERNATIVE = Options(*ALTERNATIVES)
"""``alternative``: the alternative hypothesis, in scipy's words."""

MIN_COUNT = Integer(minimum=1)
"""``min_count``: the large-sample conditions' smallest count (Wong's 5)."""

REPEAT = Nullable(Integer(minimum=0))
"""``repeat``: one repeat's number, or None for all; its upper end depends on the result."""
