"""A decision in words: the paragraph of its JSON, its summary of at most five lines, and its full explanation.

:class:`~cvinference.results.Decision` keeps the figures; this module only
writes them. ``Decision.summary()`` (and the decision of a comparison's
report, on the command line too) is short: the answer, what it rests on in
one line with its p-value and its sidedness, at most two of the notes that
change how to read the answer, and where the rest is
(``Decision.explain()``, or the ``"decision"`` object of the JSON report).
"""

import math
import re

from .._utils._text import bounds_text, format_figure, format_level, format_pvalue, text_block, wrapped
from ._detectable import POWER
from ._margin import margin_answer

SUMMARY_LINES = 5
"""The most lines ``Decision.summary()`` holds (the answer, what it rests on, two notes and where the details are)."""

_NOTES = SUMMARY_LINES - 3
"""How many notes (caveats, or what "no difference shown" rules out) the summary keeps."""

_FIRST_ASIDE = re.compile(r" \(|; |\. ")
"""Where the first clause of a reason ends: its first parenthesis, semicolon or sentence end."""

_ABOUT_THE_ANSWER = ("does not beat", "says the opposite", "groups", "One evaluation set")
"""Words of the caveats that change what the answer means (a learner below its baseline, accuracy answering the
opposite, grouped instances, one evaluation set): the summary shows them before those about the evidence."""


def header(decision):
    """``decision: A better (accuracy; A = ..., B = ...)``: the answer, what it is about and who A and B are."""
    margin = "" if decision.margin is None else f", margin {decision.margin:g}"
    a, b = decision.names
    return f"decision: {decision.answer} ({decision.metric}{margin}; A = {a}, B = {b})"


def _contrast(decision):
    return "B - A" if decision.lower_is_better else "A - B"


def figures_text(decision):
    """The test's figures as the paragraph says them: the difference, its interval, its two-sided p-value."""
    test = decision.rests_on
    return (f"{decision.metric} {_contrast(decision)} = {format_figure(test.estimate, signed=True)}, "
            f"{format_level(decision.confidence_level)} interval {bounds_text(test.low, test.high, signed=True)}, "
            f"two-sided {format_pvalue(test.pvalue)} ({test.name}; {test.target} target)")


def paragraph(decision):
    """The decision in one paragraph: the answer, the figures of its test (or why none) and the reason."""
    a, b = decision.names
    higher = "lower" if decision.lower_is_better else "higher"
    if decision.rests_on is None:
        question = f"whether {a} or {b} has the {higher} {decision.metric}"
        if decision.question == "non-inferior":
            question = f"whether {a} is worse than {b} by less than {decision.margin:g} in {decision.metric}"
        elif decision.question == "equivalent":
            question = f"whether {a} and {b} are within {decision.margin:g} in {decision.metric}"
        return f"Cannot tell {question}. {decision.reason} {decision.route}".strip()
    figures = figures_text(decision)
    if decision.margin is not None:
        return f"{_margin_verdict(decision)}: {_margin_bound(decision)}; {figures}. {decision.reason}"
    if decision.answer == "no difference shown":
        return (f"No difference in {decision.metric} between {a} and {b} is shown at the {decision.alpha:.2g} level: "
                f"{figures}.{detectable_sentence(decision)} {decision.reason}")
    better, worse = (a, b) if decision.answer == "A better" else (b, a)
    return f"{better} has a {higher} {decision.metric} than {worse}: {figures}. {decision.reason}"


def _margin_found(decision):
    test = decision.rests_on
    return margin_answer(test.estimate, test.low, test.high, test.df, confidence_level=decision.confidence_level,
                         margin=decision.margin, question=decision.question)


def _margin_verdict(decision):
    """The answer about a margin in words."""
    (a, b), margin, metric = decision.names, decision.margin, decision.metric
    if decision.question == "non-inferior":
        worse = f"{metric} {'above' if decision.lower_is_better else 'below'} {b}'s"
        return (f"{a} is not worse than {b} by {margin:g} or more ({worse} by less than {margin:g})"
                if decision.answer == "A non-inferior" else
                f"{a} is not shown to be worse than {b} by less than {margin:g} in {metric}")
    return (f"{a} and {b} are equivalent in {metric} within {margin:g}" if decision.answer == "equivalent" else
            f"{a} and {b} are not shown to be equivalent in {metric} within {margin:g}")


def _margin_bound(decision):
    """The 1 - 2 alpha interval of the test against -margin (and +margin), with the margin's p-value and its
    sidedness."""
    found, margin = _margin_found(decision), decision.margin
    interval = (f"its {format_level(1 - 2 * decision.alpha)} interval "
                f"{bounds_text(found.low, found.high, signed=True)}")
    if decision.question == "non-inferior":
        where = "lies above" if decision.answer == "A non-inferior" else "reaches"
        return f"{interval} {where} -{margin:g} (one-sided {format_pvalue(found.pvalue)})"
    where = "lies within" if decision.answer == "equivalent" else "is not within"
    return f"{interval} {where} [-{margin:g}, +{margin:g}] (two one-sided tests, {format_pvalue(found.pvalue)})"


def detectable_sentence(decision):
    """What "no difference shown" rules out: the sentence of its minimum detectable difference ("" if none)."""
    mdd = decision.minimum_detectable_difference
    if mdd is None or not math.isfinite(mdd):
        return ""
    return (f" The test would have detected a difference in {decision.metric} of {format_figure(mdd)} or more with "
            f"power {POWER:g} (its minimum detectable difference at the observed variance); smaller differences are "
            "not ruled out.")


def first_clause(text):
    """The first clause of ``text``: up to its first parenthesis, semicolon or sentence end, with a full stop.

    Examples
    --------
    >>> first_clause("No test kept its type-I error at or below 0.06 in the benchmark (full runs) for N = 150.")
    'No test kept its type-I error at or below 0.06 in the benchmark.'
    """
    return _FIRST_ASIDE.split(text.strip(), maxsplit=1)[0].rstrip(".") + "."


def rests_on_line(decision):
    """What the decision rests on in one line: the test, its figures and its p-value with its sidedness (a margin's:
    one-sided, or two one-sided tests); with none, the first clause of why."""
    test = decision.rests_on
    if test is None:
        return f"rests on no test: {first_clause(decision.reason)}"
    difference = (f"{decision.metric} {_contrast(decision)} = {format_figure(test.estimate, signed=True)} "
                  f"{bounds_text(test.low, test.high, signed=True)}")
    if decision.margin is None:
        return (f"rests on {test.name}: {difference} ({format_level(decision.confidence_level)} interval), "
                f"two-sided {format_pvalue(test.pvalue)} ({test.target} target)")
    found = _margin_found(decision)
    against = f"-{decision.margin:g}" if decision.question == "non-inferior" else f"\u00b1{decision.margin:g}"
    sided = "one-sided" if decision.question == "non-inferior" else "two one-sided tests,"
    return (f"rests on {test.name}: {difference}; its {format_level(1 - 2 * decision.alpha)} interval "
            f"{bounds_text(found.low, found.high, signed=True)} against {against}, {sided} "
            f"{format_pvalue(found.pvalue)} ({test.target} target)")


def _notes(decision):
    """What changes how to read the answer, most important first: what "no difference shown" rules out, then the
    caveats about the answer itself, then those about its evidence."""
    notes = []
    mdd = decision.minimum_detectable_difference
    if decision.answer == "no difference shown" and mdd is not None and math.isfinite(mdd):
        notes.append(f"rules out differences of {format_figure(mdd)} or more in {decision.metric}, not smaller ones "
                     f"(the test's minimum detectable difference, power {POWER:g})")
    ranked = sorted(decision.caveats, key=lambda caveat: not any(words in caveat for words in _ABOUT_THE_ANSWER))
    return notes + [f"caveat: {caveat}" for caveat in ranked]


def summary_lines(decision):
    """The answer, what it rests on and at most two notes: the summary's lines but for where the details are."""
    return [header(decision), rests_on_line(decision), *_notes(decision)[:_NOTES]]


def left_out(decision):
    """What the summary leaves to the explanation, in words ("" when nothing but the full paragraph)."""
    more = len(_notes(decision)) - _NOTES
    parts = [f"{more} more caveat{'s' * (more > 1)}"] if more > 0 else []
    if decision.context:
        parts.append(f"{len(decision.context)} test{'s' * (len(decision.context) > 1)} for context")
    if decision.route:
        parts.append("the route that settles it")
    return ", ".join(parts)


def summary(decision):
    """``Decision.summary()``: :func:`summary_lines` and a last line, ``details: decision.explain()``."""
    more = left_out(decision)
    return "\n".join([*summary_lines(decision), f"details: decision.explain(){f' ({more})' if more else ''}"])


def explanation(decision):
    """``Decision.explain()``: the answer, the paragraph (what it rests on and why, the margin's or the minimum
    detectable difference's sentence, the route), the calibration of its test, the tests for context with why each
    is not the one, and every caveat."""
    lines = [header(decision), *wrapped(paragraph(decision))]
    test, mdd = decision.rests_on, decision.minimum_detectable_difference
    if test is not None:
        measured = ", ".join(f"{what} {'not measured' if value is None else f'{value:.3f}'}" for what, value in
                             (("type-I error", test.measured_type_i), ("power", test.measured_power)))
        lines += wrapped(f"calibration of {test.name}{f' ({test.regime})' if test.regime else ''}: {measured}")
    if decision.answer in ("A better", "B better") and mdd is not None and math.isfinite(mdd):
        lines += wrapped(f"minimum detectable difference of {test.name} (power {POWER:g} at its observed "
                         f"variance): {format_figure(mdd)}")
    context = [f"{test.name}: {format_pvalue(test.pvalue)}, not the one: {test.why_not}" for test in decision.context]
    return "\n".join(lines + text_block("tests for context (p-values two-sided)", context)
                     + text_block("caveats", decision.caveats))
