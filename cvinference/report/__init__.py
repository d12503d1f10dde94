"""Layer 4: results turned into text, JSON-ready reports and figures.

A report is built once from the records and the inference results
(:func:`evaluation_report`, :func:`comparison_report`); :func:`render_text`,
JSON and :func:`plot_report` only format it.
"""

from ._plot import plot_report, pyplot
from ._report import REPORT_FORMAT, REPORT_VERSION, WIDTH, comparison_report, evaluation_report, render_text
from ._summary import paired_summary_lines, single_summary_lines

__all__ = [
    "REPORT_FORMAT",
    "REPORT_VERSION",
    "WIDTH",
    "comparison_report",
    "evaluation_report",
    "paired_summary_lines",
    "plot_report",
    "pyplot",
    "render_text",
    "single_summary_lines",
]
