"""Regime: a question about a margin (non-inferior, equivalent), answered from the test the difference's
decision rests on.
"""

import dataclasses
import math

from ..._utils._params import Real
from ...records import PairedCVResult
from .._evidence import pair_learners, type_i_limit
from .._margin import margin_answer, symmetric
from .._margin_evidence import margin_measured, margin_type_i
from ._regime import Regime

MARGIN = Real(0.0, math.inf, closed="neither", what="a margin in the metric's units",
              example="0.01 for one point of accuracy")
"""The rule of a ``margin=`` parameter: a positive number in the metric's units."""


def margin_question(margin, question):
    """The question of ``margin`` and ``question`` (None: "non-inferior" with a margin, else "difference"),
    refused where they disagree."""
    question = question or ("difference" if margin is None else "non-inferior")
    if (margin is None) != (question == "difference"):
        raise ValueError(f"question={question!r} with margin={margin!r}: 'non-inferior' and 'equivalent' need a "
                         "margin in the metric's units (margin=0.01 for one point of accuracy), and a difference "
                         "takes none; pass both, or neither.")
    return question


def _margin_evidence(decision, pair, question):
    """The margin calibration's figures for the test ``decision`` rests on, answering ``question`` on ``pair``:
    measured for accuracy on ungrouped k-fold records only (None elsewhere, or where that test was not measured)."""
    if (decision.metric != "accuracy" or not isinstance(pair, PairedCVResult) or pair.a.groups is not None
            or pair.a.n_splits < 2 or pair.a.is_loo):
        return None
    return margin_type_i(decision.rests_on.method, pair_learners(pair), pair.a.n_samples, question,
                         pair.a.n_repeats)


def _on_margin(decision, margin, question, pair):
    """``decision`` answering about ``margin`` from the test it rests on, where the margin calibration measured that
    test's one-sided answer within the limit at the margin's boundary (or did not measure it: then with a caveat);
    "cannot tell" where that test's interval cannot be re-levelled (not symmetric) or its answer was measured wrong
    too often at the boundary, the test then shown for context."""
    test = decision.rests_on
    if test is None:
        return dataclasses.replace(decision, question=question, margin=margin)
    evidence = _margin_evidence(decision, pair, question)
    why = ""
    if not symmetric(test.estimate, test.low, test.high):
        why = (f"its interval [{test.low:.6g}, {test.high:.6g}] is not symmetric about {test.estimate:.6g}, so its "
               "level cannot be changed from its bounds; a margin needs a test with a t or normal interval.")
    elif evidence is not None and not evidence.holds:
        why = (f"at a true difference of exactly the margin, its {question} answer was wrong {evidence.type_i:.3f} "
               f"of the time for {evidence.worst_cell}, above {type_i_limit():g} (the margin calibration, "
               "benchmarks/margin_calibration.py; docs/calibration.md, \"Non-inferiority and equivalence\").")
    if why:
        return dataclasses.replace(
            decision, answer="cannot tell", target=None, rests_on=None, question=question, margin=margin,
            context=(dataclasses.replace(test, role="context", why_not=why), *decision.context),
            reason=f"The test the decision would rest on, {test.name}, cannot answer a margin: {why}")
    found = margin_answer(test.estimate, test.low, test.high, test.df, confidence_level=decision.confidence_level,
                          margin=margin, question=question)
    if evidence is None:
        scope = (" for this record and metric (it measured accuracy on k-fold records without groups)"
                 if margin_measured() else "")
        return dataclasses.replace(decision, answer=found.answer, question=question, margin=margin, caveats=(
            *decision.caveats, f"The margin calibration did not measure {test.name}'s {question} answer at the "
            f"margin's boundary{scope}: its type-I error there, under a true difference of exactly the margin, is "
            "not known."))
    margins = " to ".join(dict.fromkeys(f"{m:g}" for m in (evidence.margins[0], evidence.margins[-1])))
    reason = (f"{decision.reason} At a true difference of exactly the margin, its {question} answer was wrong at "
              f"most {evidence.type_i:.3f} of the time (at most {type_i_limit():g}) for {evidence.regime}, margins "
              f"{margins} (benchmarks/margin_calibration.py)." + (f" {evidence.beyond}" if evidence.beyond else ""))
    return dataclasses.replace(decision, answer=found.answer, question=question, margin=margin, reason=reason)


def _decide(request, again):
    """The margin's question, answered from the test the difference's decision rests on."""
    difference = again(request._replace(margin=None, question="difference"))
    return _on_margin(difference, request.margin, request.question, request.pair)


REGIME = Regime("margin", "a margin was given: non-inferiority or equivalence, answered from the test the "
                "difference's decision rests on", lambda request: request.margin is not None, _decide)
