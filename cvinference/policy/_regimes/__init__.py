"""The regimes of :func:`~cvinference.policy.decide`, one module each, and its dispatch table.

:data:`REGIMES` is ordered: the first row whose ``applies(request)`` holds
decides, so a row may assume what the rows above it ruled out (after
"forward", the pair is a :class:`PairedCVResult`; after "regression", the
records are classifiers'). A new regime is a module holding its
:class:`Regime` row, and that row in the table; ``decide``'s Notes list the
rows, in order, from the table (:func:`notes`).
"""

import textwrap

from . import _forward, _grouped, _labels, _margin, _regression, _restated, _scores, _single_set
from ._regime import Regime, Request

__all__ = ["REGIMES", "Regime", "Request", "dispatch", "notes"]

REGIMES = (
    _margin.REGIME,
    _forward.REGIME,
    _restated.REGIME,
    _single_set.REGIME,
    _grouped.REGIME,
    _regression.REGIME,
    _scores.REGIME,
    _labels.REGIME,
)
"""The dispatch table of ``decide``: the first row that applies decides; the last applies to every request."""


def dispatch(request):
    """The :class:`~cvinference.policy.Decision` of ``request``, by the first row of :data:`REGIMES` that applies."""
    regime = next(row for row in REGIMES if row.applies(request))
    return regime.decide(request, dispatch)


def notes(indent="    "):
    """The numbered list of the regimes, in the table's order, as ``decide``'s Notes show it.

    Examples
    --------
    >>> print(notes(indent="").splitlines()[0])
    1. **margin**: a margin was given: non-inferiority or equivalence, answered from the test the
    """
    return "\n".join(textwrap.fill(f"{number}. **{row.name}**: {row.description}.", width=100, initial_indent=indent,
                                   subsequent_indent=indent + "   ") for number, row in enumerate(REGIMES, start=1))
