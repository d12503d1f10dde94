"""Passes over (repeats, instances) arrays a block of rows at a time.

A block holds about a million cells, so its temporaries stay in cache and
no temporary of the whole array's size is made.
"""

import numpy as np

BLOCK_CELLS = 1 << 20
"""Cells (repeats times instances) handled at a time."""


def row_blocks(n_rows, n_columns):
    """Slices of consecutive rows covering ``range(n_rows)``, about BLOCK_CELLS cells each."""
    rows = max(BLOCK_CELLS // max(n_columns, 1), 1)
    return [slice(start, start + rows) for start in range(0, n_rows, rows)]


def count_both_true(x, y):
    """``np.count_nonzero(x & y)`` for two boolean arrays of the same 2-d shape."""
    if x.shape != y.shape:
        raise ValueError(f"count_both_true needs arrays of one shape; got {x.shape} and {y.shape}.")
    both = 0
    buffer = None
    for block in row_blocks(*x.shape):
        rows = x[block]
        buffer = np.logical_and(rows, y[block], out=None if buffer is None else buffer[:rows.shape[0]])
        both += int(np.count_nonzero(buffer))
    return both


def arrays_equal(x, y):
    """``np.array_equal(x, y)`` for two 2-d arrays, stopping at the first block that differs."""
    if x.shape != y.shape:
        return False
    return all(np.array_equal(x[block], y[block]) for block in row_blocks(*x.shape))
