"""Block-wise passes over (repeats, instances) arrays agree with numpy's whole-array operations."""

import numpy as np
import pytest

from cvinference._utils._blockwise import BLOCK_CELLS, arrays_equal, count_both_true, row_blocks


@pytest.mark.parametrize("n_rows, n_columns", [(0, 5), (1, 1), (3, 7), (5, BLOCK_CELLS // 2 + 1),
                                               (2 * BLOCK_CELLS // 1000 + 3, 1000), (2, 3 * BLOCK_CELLS)])
def test_row_blocks_cover_every_row_once_in_order(n_rows, n_columns):
    covered = np.concatenate([np.arange(n_rows)[block] for block in row_blocks(n_rows, n_columns)] or [[]])
    np.testing.assert_array_equal(covered, np.arange(n_rows))
    assert all((block.stop - block.start) * n_columns <= max(BLOCK_CELLS, n_columns)
               for block in row_blocks(n_rows, n_columns))


@pytest.mark.parametrize("shape", [(0, 4), (1, 10), (2500, 1000), (3, 1)])
def test_count_both_true_is_count_nonzero_of_the_and(shape):
    # 2500 x 1000 spans three blocks; the last is shorter than the others.
    rng = np.random.default_rng(0)
    x, y = rng.random(shape) < 0.7, rng.random(shape) < 0.4
    assert count_both_true(x, y) == np.count_nonzero(x & y)


def test_arrays_equal_is_array_equal():
    rng = np.random.default_rng(1)
    fold = rng.integers(0, 10, (2500, 1000)).astype(np.int8)
    changed = fold.copy()
    changed[-1, -1] += 1
    assert arrays_equal(fold, fold.copy())
    assert not arrays_equal(fold, changed)
    assert not arrays_equal(fold, fold[:-1])
    assert not arrays_equal(fold[:, :2], fold[:2, :])
