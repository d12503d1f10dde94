"""Results in notebooks: an HTML view of ``summary()`` and tables through optional pandas."""

import dataclasses
import html
import numbers

MONOSPACE = "font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, 'DejaVu Sans Mono', monospace"
"""The CSS of text whose columns must line up, whatever font the notebook's theme chose for the rest."""

_SHORT = 80
"""The longest text field shown in a result's table of figures; longer ones are in its summary."""


def _figure_rows(result):
    """(name, value as text, whether a number) of a dataclass result's numbers and short texts, in field order."""
    if not dataclasses.is_dataclass(result):
        return []
    rows = []
    for field in dataclasses.fields(result):
        value = getattr(result, field.name)
        if isinstance(value, bool) or value is None or field.name.startswith("_"):
            continue
        if isinstance(value, numbers.Real):
            rows.append((field.name, f"{value:.6g}", True))
        elif isinstance(value, str) and 0 < len(value) <= _SHORT:
            rows.append((field.name, value, False))
    return rows


def summary_html(result):
    """``_repr_html_``: a table of the result's figures, then ``result.summary()`` in a monospace block.

    The summary's own columns line up in any notebook theme, and the
    figures (estimate, bounds, statistic, p-value, ...) are an HTML table.
    """
    rows = "".join(f'<tr><th style="text-align: left; padding: 0 0.6em">{html.escape(name)}</th>'
                   f'<td style="text-align: {"right" if number else "left"}; {MONOSPACE}; padding: 0 0.6em">'
                   f"{html.escape(value)}</td></tr>" for name, value, number in _figure_rows(result))
    table = f'<table style="border-collapse: collapse; margin: 0.3em 0">{rows}</table>' if rows else ""
    text = (f'<pre style="{MONOSPACE}; white-space: pre-wrap; margin: 0.3em 0">'
            f"{html.escape(result.summary())}</pre>")
    return f'<div class="cvinference-result">{table}{text}</div>'


def import_pandas():
    """The pandas module, or an ImportError that says how to install it."""
    try:
        import pandas
    except ImportError as error:
        raise ImportError("to_frame needs pandas; install it with pip install 'cvinference[pandas]'") from error
    return pandas
