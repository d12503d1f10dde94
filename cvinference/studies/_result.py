"""What every study result offers: a table, a text summary, a figure, and a JSON round trip."""

import dataclasses

import numpy as np

from .._utils._arrays import readonly_array
from .._utils._docstring import fill_doc
from .._utils._notebook import import_pandas, summary_html
from .._utils._serialize import Serializable
from .._utils._text import format_number, format_table, wrapped
from ..report._plot import draw_panels


def _cell(value):
    return value if isinstance(value, str) else format_number(value)


class StudyResult(Serializable):
    """The common face of the studies' results (frozen dataclasses).

    A subclass defines ``_title()`` (one line), ``_columns()`` (an ordered
    dict of equally long lists: the table), ``_findings()`` (sentences) and
    ``_panels()`` (the figure's panels: functions of one Axes, the main one last). Its arrays are read-only copies.
    """

    def __post_init__(self):
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if isinstance(value, np.ndarray) and value.flags.writeable:
                object.__setattr__(self, field.name, readonly_array(value))
        super().__post_init__()

    def to_frame(self):
        """The table as a pandas DataFrame (needs the ``pandas`` extra).

        Returns
        -------
        pandas.DataFrame
        """
        return import_pandas().DataFrame(self._columns())

    def summary(self):
        """The study in text: what it measured, the table, and what it found.

        Returns
        -------
        str
        """
        columns = self._columns()
        rows = list(zip(*([_cell(value) for value in values] for values in columns.values()), strict=True))
        lines = [self._title(), "", format_table(list(columns), rows)]
        findings = [line for finding in self._findings() for line in wrapped(f"- {finding}")]
        return "\n".join(lines + ([""] + findings if findings else []))

    @fill_doc
    def plot(self, ax=None, *, path=None):
        """Draw the study's figure (needs the ``plot`` extra: matplotlib).

        %(display)s

        Parameters
        ----------
        ax : matplotlib Axes, sequence of Axes or None, default=None
            None draws every panel on a new figure; one Axes draws the main
            panel (the last) there; as many Axes as panels draw each on its
            own.
        %(plot_path)s

        Returns
        -------
        %(plot_returns)s
        """
        return draw_panels(self._panels(), ax, figsize=(8, 4.5), title=self._title(), path=path, dpi=120)

    def __str__(self):
        return self.summary()

    def _repr_html_(self):
        return summary_html(self)
