"""Plain text for summaries and reports: tables, numbers, p-values, wrapped lines."""

import math
import re
import textwrap

import numpy as np


def format_table(header, rows):
    """Right-aligned columns separated by two spaces.

    Parameters
    ----------
    header : sequence of str
        Column titles.
    rows : sequence of sequence of str
        Cells, already formatted as text.

    Returns
    -------
    str
        The table, one line per row, titles first.

    Examples
    --------
    >>> print(format_table(["fold", "p_j"], [["0", "0.95"], ["1", "1.00"]]))
    fold   p_j
       0  0.95
       1  1.00
    """
    widths = [max(len(cell) for cell in column) for column in zip(header, *rows, strict=True)]
    lines = ["  ".join(cell.rjust(width) for cell, width in zip(line, widths, strict=True)) for line in [header, *rows]]
    return "\n".join(lines)


def listed(names):
    """``"a"``, ``"a and b"``, ``"a, b and c"``.

    Examples
    --------
    >>> listed(["McNemar", "5x2cv t", "corrected t"])
    'McNemar, 5x2cv t and corrected t'
    """
    names = list(names)
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def format_number(value, digits=4):
    """A number in ``digits`` significant digits; an integer as it is; None as ``"None"``."""
    if value is None:
        return "None"
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    return f"{value:.{digits}g}"


def format_level(confidence_level):
    """A confidence level as a percentage, without rounding it away: 0.975 is 97.5%."""
    return f"{100 * confidence_level:.10g}%"


def format_pvalue(pvalue):
    """``p = 0.032`` style: three decimals, ``p < 0.001`` below that.

    Near the usual thresholds a fourth decimal shows on which side p lies.

    Examples
    --------
    >>> format_pvalue(0.0321), format_pvalue(1e-7), format_pvalue(1.0), format_pvalue(0.0496)
    ('p = 0.032', 'p < 0.001', 'p = 1.000', 'p = 0.0496')
    """
    if pvalue is None or math.isnan(pvalue):
        return "p = nan"
    if pvalue < 0.0005:
        return "p < 0.001"
    near_threshold = round(pvalue, 3) in (0.01, 0.05, 0.1) and round(pvalue, 4) != round(pvalue, 3)
    return f"p = {pvalue:.4f}" if near_threshold else f"p = {pvalue:.3f}"


def text_block(title, lines):
    """``title:`` followed by one ``  - line`` per line, wrapped at 100 columns; nothing when there are no lines.

    Examples
    --------
    >>> for line in text_block("notes", ["short", "a long note " * 10]):
    ...     print(line)
    notes:
      - short
      - a long note a long note a long note a long note a long note a long note a long note a long note a
        long note a long note
    """
    return [f"{title}:", *(part for line in lines for part in wrapped(line, "  - ", continuation="    "))] \
        if lines else []


_FORMULA_SPACE = re.compile(r" (=|-|<|>|<=|>=) ")
"""A space on either side of an operator: no line breaks there, so ``N = 300`` and ``a - b`` stay whole."""
_GLUE = "\u00a0"  # textwrap breaks only at ASCII whitespace


def wrapped(text, indent="", width=100, continuation=None):
    """``text`` wrapped at ``width`` columns, continuation lines indented two more spaces (or by ``continuation``).

    No line breaks next to an operator, so that a formula stays on one line.

    Examples
    --------
    >>> wrapped("the type-I error was 0.064 for a logistic regression at N = 100", width=60)
    ['the type-I error was 0.064 for a logistic regression at', '  N = 100']
    """
    glued = _FORMULA_SPACE.sub(f"{_GLUE}\\1{_GLUE}", text)
    return [line.replace(_GLUE, " ") for line in textwrap.wrap(
        glued, width=width, initial_indent=indent, subsequent_indent=indent + "  " if continuation is None else
        continuation, break_on_hyphens=False)]


FIXED_BELOW = 1e4
"""Figures whose size is below this are written with four decimals, larger ones in scientific notation
(:func:`format_figure`): the bound where ``"{:.4g}"`` turns scientific."""

_SCIENTIFIC_BELOW = 5e-5
"""Non-zero figures smaller than this in size, which four decimals would write as 0.0000, are written in scientific
notation too (:func:`format_figure`)."""


def format_figure(value, signed=False):
    """A report's number in its one format: four decimals below :data:`FIXED_BELOW` in size, four significant
    digits in scientific notation from there and below 5e-5, where four decimals would read 0.0000 (so
    13772.1653 is ``1.377e+04`` wherever a report shows it, never ``13772.1653`` beside it); ``signed`` writes
    the sign of a difference; nan, the infinities and None as they are named.

    Examples
    --------
    >>> format_figure(0.85333), format_figure(13772.1653), format_figure(-346499204.6586, signed=True)
    ('0.8533', '1.377e+04', '-3.465e+08')
    >>> format_figure(0.0), format_figure(float("nan")), format_figure(None)
    ('0.0000', 'nan', 'None')

    A value that four decimals would show as zero keeps its digits (the squared error of returns):

    >>> format_figure(1.234e-5), format_figure(0.0004)
    ('1.234e-05', '0.0004')
    """
    if value is None:
        return "None"
    value = float(value)
    sign = "+" if signed else ""
    if not math.isfinite(value) or value == 0 or _SCIENTIFIC_BELOW <= abs(value) < FIXED_BELOW:
        return f"{value:{sign}.4f}"
    return f"{value:{sign}.3e}"


def bounds_text(low, high, signed=False):
    """``[low, high]`` in :func:`format_figure`'s format (signed for differences), both bounds alike: in scientific
    notation when either is (an interval that straddles 10,000 is not written half in each); ``n/a`` for a
    missing bound.

    Examples
    --------
    >>> bounds_text(0.7864, 0.9057), bounds_text(-576836312.8, -116162096.5, signed=True)
    ('[0.7864, 0.9057]', '[-5.768e+08, -1.162e+08]')
    >>> bounds_text(9756.4489, 25540.2)
    '[9.756e+03, 2.554e+04]'
    """
    if low is None or high is None:
        return "n/a"
    texts = [format_figure(low, signed), format_figure(high, signed)]
    if any("e" in text for text in texts):
        sign = "+" if signed else ""
        texts = [f"{float(bound):{sign}.3e}" if math.isfinite(float(bound)) else text
                 for bound, text in zip((low, high), texts, strict=True)]
    return f"[{texts[0]}, {texts[1]}]"


def loss_noun(loss_name):
    """A loss's name as a noun: "log_loss" as it is, "brier" as "brier loss" (grammar only: any loss, a user's
    callable's too, is named so).

    Examples
    --------
    >>> loss_noun("log_loss"), loss_noun("brier")
    ('log_loss', 'brier loss')
    """
    return loss_name if loss_name.endswith("loss") else f"{loss_name} loss"


METRIC_WORDS = {"squared_error": "mean squared error", "absolute_error": "mean absolute error",
                "mean_squared_error": "mean squared error", "mean_absolute_error": "mean absolute error", "r2": "R²"}
"""How reports name a regression loss or metric."""


def loss_words(loss_name):
    """A loss as reports name it: "mean squared error" for ``"squared_error"``, else "mean <name> loss".

    Examples
    --------
    >>> loss_words("squared_error"), loss_words("log_loss")
    ('mean squared error', 'mean log_loss')
    """
    if loss_name in METRIC_WORDS:
        return METRIC_WORDS[loss_name]
    return f"mean {loss_noun(loss_name)}"


def grouped_baseline_words(n_groups):
    """How reports name the test of beating a trivial baseline that took the groups as the independent units.

    Examples
    --------
    >>> grouped_baseline_words(50)
    'one-sided cluster-robust t, 50 groups'
    """
    return f"one-sided cluster-robust t, {n_groups} groups"
