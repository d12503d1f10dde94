"""What the statistics layer asks of the policy: the method ``method="auto"`` stands for, and the warnings the
calibration evidence owes an explicit method.

The intervals of :mod:`cvinference.inference` compute what they are told.
Where they are told ``"auto"``, or where the evidence has something to say
about the method they were told, they look these two functions up by name
when called (``_utils/_upward.py``, the sanctioned upward reference), so the
inference layer imports nothing from the evidence. The choice is said in
the result's notes, as before ("method='auto' chose ...").
"""

from ..inference._accuracy_interval import CLUSTER_METHODS
from ..inference._methods import row
from ..inference._regression import _KFOLD_WORDS, METRIC_WORDS
from ._auto_choice import GroupedCells, choose_auto, evidence_warning, grouped_choice, grouped_evidence_warning
from ._evidence import grouped_task
from ._regression_evidence import regression_evidence_warning
from ._score_evidence import delong_evidence_warning


def _regression_cells(metric):
    """Where the evidence keeps the grouped intervals of ``regression_interval(result, metric)``."""
    return GroupedCells(grouped_task(classification=False), metric, METRIC_WORDS[metric],
                        _KFOLD_WORDS[metric])


def choose_method(function, result, messages, **context):
    """The method ``function(result, method="auto", ...)`` computes, chosen on the calibration evidence.

    Parameters
    ----------
    function : {"accuracy_interval", "regression_interval"}
        The public function asking.
    result : CVResult
        Its record.
    messages : Messages
        Where the note that says why (and a warning where every candidate
        falls short) goes; the result carries them.
    **context
        What the choice reads besides the record: for
        ``accuracy_interval``, ``averaging``, ``conditions`` (the
        :class:`LargeSampleConditions`), ``conditions_hold``, ``target`` and
        ``width_of`` (the width of a ``(method, averaging)`` interval on
        this record, which the choice compares);
        for ``regression_interval``, ``metric``.

    Returns
    -------
    tuple of (str, str, str) or str
        ``(method, averaging, why)`` for ``accuracy_interval`` (``why``: one
        short clause where the choice is not the rule's default, else "");
        the method for ``regression_interval``.
    """
    if function == "accuracy_interval":
        return tuple(choose_auto(result, context["averaging"], context["conditions"], context["conditions_hold"],
                                 context["target"], messages, context.get("width_of")))
    if function == "regression_interval":
        return grouped_choice(result, "kfold", messages, _regression_cells(context["metric"])).method
    raise ValueError(f"function={function!r} has no automatic choice; pass 'accuracy_interval' or "
                     "'regression_interval'.")


def evidence_warnings(function, result, method, messages, **context):
    """Warn where the calibration evidence measured ``function(result, method=method)`` short of its target.

    Parameters
    ----------
    function : {"accuracy_interval", "regression_interval", "metric_interval"}
        The public function asking.
    result : CVResult
        Its record.
    method : str
        The method it computes (told, not chosen).
    messages : Messages
        Where the warnings go.
    **context
        For ``accuracy_interval``: ``averaging`` and ``target`` (the error
        the interval is meant to cover). For ``regression_interval``:
        ``metric``, and for the CV-CLT ``variance`` and ``n_pooled`` (the
        number of repeats it pools). For ``metric_interval``: ``metric``
        (only ``method="delong"`` reads evidence: DeLong's interval of a
        cross-validated record's pooled scores).
    """
    if function == "accuracy_interval":
        if method in CLUSTER_METHODS:
            grouped_evidence_warning(result, method, context["target"], messages)
        elif context["target"] != row(function, method).target:  # another target than the method's own is asked for
            evidence_warning(result, context["averaging"], method, context["target"], messages)
    elif function == "regression_interval":
        metric = context["metric"]
        if method == "cv-clt":
            regression_evidence_warning(result, metric, METRIC_WORDS[metric], context["variance"],
                                        context["n_pooled"], messages)
        else:
            grouped_evidence_warning(result, method, "kfold", messages, _regression_cells(metric))
    elif function == "metric_interval":
        if method == "delong":
            delong_evidence_warning(result, context["metric"], messages)
    else:
        raise ValueError(f"function={function!r} reads no evidence; pass 'accuracy_interval', "
                         "'regression_interval' or 'metric_interval'.")
