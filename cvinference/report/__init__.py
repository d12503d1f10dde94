"""Layer 5: results turned into text, JSON-ready reports and figures.

The report renders what the layers below computed; it decides nothing. A
front-door answer's report (``Evaluation.to_dict()``, ``Comparison.to_dict()``:
what the command line's ``--json`` writes) is built from the answer's objects
by one function (``_answer_report.answer_report``), and :func:`render_text`,
:func:`render_html`, :func:`plot_report` and the answers' ``summary()`` and
``plot()`` only format it. The records' ``summary()`` is the summary of
``cvinference.evaluate(record)`` (``compare(pair)``), and their ``plot()`` is
:func:`plot_result`, the same report drawn (as the command line's ``--plot``).
:func:`to_polars` gives any result's or record's table as polars. The
builders of the report dicts and the drawing plumbing the command line and the
other layers share are private (``_report``, ``_forward_report``, ``_plot``).
"""

from ._html import record_html, render_html
from ._plan_plot import plot_plan
from ._plot import Plot, plot_decision, plot_estimate, plot_forecasts, plot_posterior, plot_report, plot_result
from ._polars import to_polars
from ._report import render_text

__all__ = [
    "Plot",
    "plot_decision",
    "plot_estimate",
    "plot_forecasts",
    "plot_plan",
    "plot_posterior",
    "plot_report",
    "plot_result",
    "record_html",
    "render_html",
    "render_text",
    "to_polars",
]
