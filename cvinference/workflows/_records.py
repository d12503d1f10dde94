"""``evaluate(record)`` and ``compare(pair)``: the answer of records a user already holds, with no fit."""

import inspect

from ..policy import assess_pair, assess_record
from ..records import CVResult, ForwardResult, PairedCVResult, PairedForwardResult
from ..report._report import learner_text
from ._answer import Words
from ._settings import metric_list

RECORDS = (CVResult, ForwardResult)
"""The records of one learner that :func:`~cvinference.evaluate` answers without a fit."""
PAIRS = (PairedCVResult, PairedForwardResult)
"""The records of two learners that :func:`~cvinference.compare` answers without a fit."""
READ = ("confidence_level", "metric", "pos_label", "names", "margin", "question", "season", "random_state")
"""The settings a record's answer reads (``random_state`` seeds a forward record's block bootstrap); the others
(folds, repeats, budget, the learners' seeds...) only say how to fit."""


def _is_default(value, default):
    return value is default or (isinstance(value, (bool, int, float, str)) and value == default)


def check_record_call(function, subject, given, wanted, other):
    """Refuse, naming the fix, what :func:`function` cannot answer from ``subject``: an object of another kind
    (``other``: the other front door's records) or a setting that only a fit reads (``given``: the call's
    arguments but the subject, by name)."""
    name = function.__name__
    if isinstance(subject, other):
        which = "evaluate(record)" if name == "compare" else "compare(pair)"
        raise TypeError(f"{name}() was given a {type(subject).__name__}, a record that cvi.{which} answers; pass it "
                        f"there, or pass {name}() {wanted}.")
    if not isinstance(subject, RECORDS + PAIRS):
        raise TypeError(f"{name}() needs {wanted}, and was given a {type(subject).__name__} without them; pass "
                        "the data too, or a record of the fits already made.")
    parameters = inspect.signature(function).parameters
    read = [key for key in READ if key in parameters]
    fitting = [key for key, value in given.items()
               if key not in read and not _is_default(value, parameters[key].default)]
    if fitting:
        raise ValueError(f"{name}() was given a {type(subject).__name__}, whose fits are made, and "
                         f"{fitting[0]}={given[fitting[0]]!r}, which only says how to fit; drop "
                         f"{', '.join(fitting)} (the answer reads {', '.join(read)}).")


def _words(results, confidence_level, metrics, pos_label, names=None, season=None):
    """A record's answer words as its ``summary()`` does: its learners named by the record, no data name, every
    repeat's folds."""
    return Words(tuple(learner_text(result) for result in results), None, confidence_level, tuple(metrics),
                 pos_label, names, season, command_line=False, every_repeat=True)


def record_evaluation(record, *, confidence_level=0.95, metric=None, pos_label=None, season=None, random_state=None):
    """The fields of :func:`~cvinference.evaluate`'s answer for a record already made: no fit."""
    metrics = metric_list(metric)
    found = assess_record(record, confidence_level, metrics=metrics, pos_label=pos_label, season=season,
                          random_state=random_state)
    return dict(result=record, rows=(found.intervals,), words=_words((record,), confidence_level, metrics, pos_label,
                                                                     season=season), fits=0, budget=None,
                checks=found.checks)


def pair_comparison(pair, *, confidence_level=0.95, metric=None, pos_label=None, names=None, margin=None,
                    question=None, season=None, random_state=None):
    """The fields of :func:`~cvinference.compare`'s answer for a pair already made: no fit, no nested
    cross-validation, no plan."""
    metrics = metric_list(metric)
    found = assess_pair(pair, confidence_level, metrics=metrics, pos_label=pos_label, names=names, margin=margin,
                        question=question, season=season, random_state=random_state)
    words = _words((pair.a, pair.b), confidence_level, metrics, pos_label, names, season)
    return dict(pair=pair, rows=found.intervals, test_rows=tuple(found.tests), nested=None,
                decision=found.decision, words=words._replace(left_out=tuple(found.notes)), fits=0, budget=None,
                plan=None, checks=found.checks, diagnostic=found.diagnostic, horizons=found.horizons)
