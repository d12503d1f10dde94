"""The shape of a regime of :func:`~cvinference.policy.decide`: a row of its dispatch table, and the question
every row is asked about."""

import warnings
from collections.abc import Callable
from typing import NamedTuple

from ..._utils._warnings import InferenceWarning, first_caller_outside_package
from .._decide_inputs import unused_inputs_warning


class Request(NamedTuple):
    """What :func:`~cvinference.policy.decide` was asked, its inputs checked: the pair, the metric, the level,
    the tests and nested interval passed, the learners' names (resolved, except for forward validation), the
    positive label, the margin and the question ("difference", "non-inferior" or "equivalent")."""

    pair: object
    metric: object
    confidence_level: float
    tests: list | None
    nested: object
    names: tuple | None
    pos_label: object
    margin: float | None
    question: str


class Regime(NamedTuple):
    """A row of the dispatch table: the regime's ``name``, a one-line ``description`` (``decide``'s Notes list
    them), ``applies(request)``, whether the regime takes the request, and ``decide(request, again)``, the
    :class:`~cvinference.policy.Decision` it gives; ``again`` dispatches a restated request through the whole
    table (the margin's question is answered from the difference's decision)."""

    name: str
    description: str
    applies: Callable
    decide: Callable


def warn_unused(request):
    """Warn that ``tests`` and ``nested``, about accuracy, are not read by a decision on another metric."""
    metric = request.metric
    unused = unused_inputs_warning(metric if isinstance(metric, str) else "a callable", request.tests, request.nested)
    if unused:
        warnings.warn(unused, InferenceWarning, stacklevel=first_caller_outside_package())
