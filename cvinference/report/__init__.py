"""Layer 4: results turned into text, JSON-ready reports and figures.

A report is built once from the records and the inference results
(:func:`evaluation_report`, :func:`comparison_report`); :func:`render_text`,
JSON and :func:`plot_report` only format it. The records' ``summary()`` is
:func:`summary_text`, the same report rendered.
"""

from ._plot import plot_report, pyplot
from ._report import (
    REPORT_FORMAT,
    REPORT_VERSION,
    WIDTH,
    comparison_report,
    evaluation_report,
    pair_tests,
    render_text,
    summary_text,
)

__all__ = [
    "REPORT_FORMAT",
    "REPORT_VERSION",
    "WIDTH",
    "comparison_report",
    "evaluation_report",
    "pair_tests",
    "plot_report",
    "pyplot",
    "render_text",
    "summary_text",
]
