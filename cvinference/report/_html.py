"""Reports as HTML for notebooks: the text report's blocks as paragraphs, lists and real tables."""

import html

from .._utils._notebook import MONOSPACE
from ._report import Table, record_report, report_blocks

_INDENT_EM = 1.5
"""How far in (em) a block indented by two spaces in the text is drawn."""


def _escaped(text):
    return html.escape(str(text), quote=False)


def _table_html(table):
    """A report table: titles, then rows; the first column left-aligned, numbers right-aligned, all monospace."""
    def cells(row, tag):
        return "".join(f'<{tag} style="text-align: {"left" if i == 0 else "right"}; {MONOSPACE}; padding: 0 0.6em">'
                       f"{_escaped(cell)}</{tag}>" for i, cell in enumerate(row))
    body = "".join(f"<tr>{cells(row, 'td')}</tr>" for row in table.rows)
    margin = _INDENT_EM * len(table.indent) / 2
    return (f'<table style="border-collapse: collapse; margin: 0.3em 0 0.3em {margin:g}em">'
            f"<thead><tr>{cells(table.header, 'th')}</tr></thead><tbody>{body}</tbody></table>")


def _paragraph_html(paragraph, first):
    if not paragraph.text and not paragraph.items:
        return ""  # the text's empty line between sections: the paragraphs' margins stand for it
    margin = _INDENT_EM * len(paragraph.indent) / 2
    text = f"<strong>{_escaped(paragraph.text)}</strong>" if first else _escaped(paragraph.text)
    items = "".join(f"<li>{_escaped(item)}</li>" for item in paragraph.items)
    listed = f'<ul style="margin: 0.1em 0 0.1em {margin:g}em">{items}</ul>' if items else ""
    return f'<p style="margin: 0.3em 0 0.1em {margin:g}em">{text}</p>{listed}'


def render_html(report, *, every_repeat=False):
    """The report as an HTML fragment: each table of the text report as an HTML ``<table>``.

    Parameters
    ----------
    report : dict
        A report of :func:`evaluation_report` or :func:`comparison_report`.
    every_repeat : bool, default=False
        Give every repeat's per-fold table, not just repeat 0's.

    Returns
    -------
    str
        A ``<div>`` of paragraphs, lists and tables (numbers in a monospace
        font), the same content as :func:`render_text`.
    """
    parts = [_table_html(block) if isinstance(block, Table) else _paragraph_html(block, first=i == 0)
             for i, block in enumerate(report_blocks(report, every_repeat=every_repeat))]
    return f'<div class="cvinference-report">{"".join(parts)}</div>'


def record_html(subject):
    """``CVResult._repr_html_`` and ``PairedCVResult._repr_html_``: the report of ``summary()`` as HTML tables.

    Parameters
    ----------
    subject : CVResult or PairedCVResult
        The record, of one learner or two.

    Returns
    -------
    str
        :func:`render_html` of the record's report, every repeat's folds.
    """
    return render_html(record_report(subject), every_repeat=True)
