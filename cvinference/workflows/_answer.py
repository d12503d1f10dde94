"""The face ``Evaluation`` and ``Comparison`` share: the report they hold, as text, HTML and a figure."""

from .._utils._docstring import fill_doc
from .._utils._serialize import Serializable
from ..report import draw_report, render_html, render_text


class Answer(Serializable):
    """A front-door result: its ``report`` (what the command line's ``--json`` writes) rendered as ``summary()``,
    HTML and a figure. A subclass is a frozen dataclass with a ``report`` field."""

    def summary(self):
        """The report as text: exactly what the command line prints for the same call.

        Returns
        -------
        str
        """
        return render_text(self.report)

    def _repr_html_(self):
        return render_html(self.report)

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
        return draw_report(self.report, ax, path=path)
