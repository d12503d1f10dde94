"""Layer 4: results turned into text, JSON-ready reports and figures.

A report is built once from the records and the inference results
(:func:`evaluation_report`, :func:`comparison_report`; for forward validation
:func:`forward_evaluation_report`, :func:`forward_comparison_report`); :func:`render_text`,
JSON, :func:`render_html` and :func:`draw_report` only format it. The records' ``summary()`` is
:func:`summary_text`, the same report rendered, and their ``plot()`` is
:func:`plot_result`, the same report drawn (as the command line's ``--plot``).
:func:`to_polars` gives any result's or record's table as polars.
"""

from ._forward_report import forward_comparison_report, forward_evaluation_report
from ._html import record_html, render_html
from ._plan_plot import plot_plan
from ._plot import (
    Plot,
    draw_panels,
    draw_report,
    plot_decision,
    plot_estimate,
    plot_forecasts,
    plot_posterior,
    plot_report,
    plot_result,
    pyplot,
)
from ._polars import to_polars
from ._report import (
    REPORT_FORMAT,
    REPORT_VERSION,
    WIDTH,
    comparison_report,
    evaluation_report,
    record_report,
    render_text,
    summary_text,
)

__all__ = [
    "REPORT_FORMAT",
    "REPORT_VERSION",
    "WIDTH",
    "Plot",
    "comparison_report",
    "draw_panels",
    "draw_report",
    "evaluation_report",
    "forward_comparison_report",
    "forward_evaluation_report",
    "plot_decision",
    "plot_estimate",
    "plot_forecasts",
    "plot_plan",
    "plot_posterior",
    "plot_report",
    "plot_result",
    "pyplot",
    "record_html",
    "record_report",
    "render_html",
    "render_text",
    "summary_text",
    "to_polars",
]
