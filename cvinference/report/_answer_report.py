"""The report of a front-door answer (``cvinference.evaluate``, ``cvinference.compare``), built from its objects.

An :class:`~cvinference.workflows.Evaluation` or
:class:`~cvinference.workflows.Comparison` holds its records, its intervals,
tests and decision once, as result objects, and the words of the call (the
learners' descriptions, the data's name, the level, the metrics, the notes).
:func:`answer_report` turns them into the report dict that the command
line's ``--json`` writes, that ``to_dict()`` returns and that ``summary()``,
HTML and ``plot()`` render: one function, so that they always agree.
"""

from ..policy import PairAssessment, RecordAssessment
from ..records import ForwardResult, PairedForwardResult
from ._forward_report import forward_comparison_report, forward_evaluation_report
from ._report import comparison_report, evaluation_report


def _evaluation_report(answer, words):
    assessment = RecordAssessment(answer.rows[0], answer.checks)
    if isinstance(answer.result, ForwardResult):
        return forward_evaluation_report(answer.result, description=words.descriptions[0], data=words.data,
                                         confidence_level=words.confidence_level, season=words.season,
                                         assessment=assessment)
    return evaluation_report(answer.result, description=words.descriptions[0], data=words.data,
                             confidence_level=words.confidence_level, metrics=words.metrics,
                             pos_label=words.pos_label, assessment=assessment, command_line=words.command_line)


def _comparison_report(answer, words):
    pair = answer.pair
    assessment = PairAssessment(answer.rows, list(answer.test_rows), answer.decision, list(words.left_out),
                                answer.checks, answer.diagnostic, answer.horizons)
    if isinstance(pair, PairedForwardResult):
        return forward_comparison_report(pair, descriptions=words.descriptions, data=words.data,
                                         confidence_level=words.confidence_level, season=words.season,
                                         names=words.names, assessment=assessment)
    report = comparison_report(pair, descriptions=words.descriptions, data=words.data,
                               confidence_level=words.confidence_level, metrics=words.metrics, nested=answer.nested,
                               names=words.names, pos_label=words.pos_label, assessment=assessment,
                               command_line=words.command_line)
    return report


def answer_report(answer):
    """The report dict of a front-door answer: what ``to_dict()`` returns and the command line's ``--json`` writes.

    Parameters
    ----------
    answer : Evaluation or Comparison
        The answer of :func:`~cvinference.evaluate` or
        :func:`~cvinference.compare`.

    Returns
    -------
    dict
        :func:`evaluation_report` (or its forward validation version) of
        an evaluation, :func:`comparison_report` (or its forward version,
        with the plan it ran) of a comparison, with the answer's notes
        after the report's own.
    """
    words = answer.words
    report = _comparison_report(answer, words) if hasattr(answer, "pair") else _evaluation_report(answer, words)
    if answer.plan is not None:
        report["plan"] = answer.plan.to_dict()
    if words.notes:
        report["notes"] = [*report.get("notes", []), *words.notes]
    return report
