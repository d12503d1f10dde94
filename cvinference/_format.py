"""Plain-text tables for summaries and reports."""


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
    widths = [max(len(cell) for cell in column) for column in zip(header, *rows)]
    lines = ["  ".join(cell.rjust(width) for cell, width in zip(line, widths)) for line in [header, *rows]]
    return "\n".join(lines)
