"""The face ``Evaluation`` and ``Comparison`` share: their objects, rendered by the report as text, HTML, a figure and
the JSON of the command line's ``--json``."""

import json
from types import MappingProxyType
from typing import NamedTuple

from .._utils._docstring import fill_doc
from .._utils._params import Integer, Nullable, validate_params
from ..report import render_html, render_text
from ..report._answer_report import answer_report
from ..report._plot import draw_report


class Words(NamedTuple):
    """How an answer's report words what it holds: the learners and data as named, the call's settings and notes.

    Attributes
    ----------
    descriptions : tuple of str
        The learners as the report names them, A's first.
    data : dict or None
        The data's ``{"name", "n_samples", ...}`` (the command line's), or None.
    confidence_level : float
        The level of every interval and test.
    metrics : tuple
        The metrics asked for; a decision is about the first.
    pos_label : object
        Their positive class, or None.
    names : tuple of str or None
        The learners' names given to the decision.
    season : int or None
        Forward validation's seasonal naive baseline, or None.
    notes : tuple of str
        The call's notes (the plan's, the seeds'), after the report's own.
    left_out : tuple of str
        What the assembler left out (a forward pair's test), before the report's notes.
    command_line : bool
        Words the warnings' repeat hint for the front door (``n_repeats``), not for a record's functions.
    every_repeat : bool
        The summary shows every repeat's folds, not just repeat 0's (a record's ``summary()``).
    """

    descriptions: tuple
    data: object = None
    confidence_level: float = 0.95
    metrics: tuple = ()
    pos_label: object = None
    names: object = None
    season: object = None
    notes: tuple = ()
    left_out: tuple = ()
    command_line: bool = True
    every_repeat: bool = False


def by_quantity(rows):
    """:class:`~cvinference.policy.NamedInterval` s as read-only mappings, quantity to method (each interval's
    ``method``) to Interval, in their order; the first row of a quantity and method is kept (the recommended one,
    chosen by ``method="auto"``, comes first and carries why it was chosen)."""
    found = {}
    for row in rows:
        found.setdefault(row.quantity, {}).setdefault(row.interval.method, row.interval)
    return MappingProxyType({quantity: MappingProxyType(methods) for quantity, methods in found.items()})


def recommended(rows):
    """The (quantity, method) of the interval to quote: the first row's (``method="auto"``'s choice for a
    classifier, the pre-whitened HAC interval for forecasts, the interval of a regressor's loss)."""
    return (rows[0].quantity, rows[0].interval.method) if rows else None


class Answer:
    """A front-door answer: its objects, and their report (:meth:`to_dict`, what the command line's ``--json``
    writes) rendered as :meth:`summary`, HTML and :meth:`plot`. A subclass is a frozen dataclass with the fields
    ``rows`` (each learner's intervals, as :class:`~cvinference.policy.NamedInterval` s) and ``words``
    (:class:`Words`)."""

    def to_dict(self):
        """The report as a JSON-ready dict: exactly what the command line's ``--json`` writes for the same call.

        Returns
        -------
        dict
            Built from the answer's objects by the report layer
            (``format`` ``"cvinference.report"``; docs/cli.md describes
            its keys).
        """
        return answer_report(self)

    @validate_params(indent=Nullable(Integer(minimum=0)))
    def to_json(self, *, indent=None):
        """:meth:`to_dict` as JSON text, as the command line's ``--json`` writes it: a report, not a store.

        An answer has no ``from_json``: its records are the store. To keep
        an answer and read it again, keep its record,
        ``evaluation.result.to_json()`` or ``comparison.pair.to_json()``, and
        answer that again: ``cvi.evaluate(CVResult.from_json(s))`` or
        ``cvi.compare(PairedCVResult.from_json(s))`` (no fit; the same
        report, but for what a comparison's own fits made beyond the pair:
        its plan, 5x2cv and nested cross-validation).

        Parameters
        ----------
        indent : int or None, default=None
            As ``json.dumps`` takes it: None writes one line.

        Returns
        -------
        str
        """
        return json.dumps(self.to_dict(), allow_nan=False, indent=indent)

    def summary(self):
        """The report as text: exactly what the command line prints for the same call.

        Returns
        -------
        str
        """
        return render_text(self.to_dict(), every_repeat=self.words.every_repeat)

    def _repr_html_(self):
        return render_html(self.to_dict())

    @fill_doc
    def plot(self, ax=None, *, path=None):
        """Draw the report as the command line's ``--plot`` does.

        Needs matplotlib.
        %(display)s

        Parameters
        ----------
        ax : matplotlib Axes, sequence of Axes or None, default=None
            None draws every panel on a new figure; one Axes gets the main
            panel; as many Axes as panels get one each.
        %(plot_path)s

        Returns
        -------
        %(plot_returns)s
        """
        return draw_report(self.to_dict(), ax, path=path)
