"""Small array helpers: read-only copies, compact integer codes, Python scalars."""

import numpy as np


def locked(array):
    """``array`` itself, made read-only."""
    array.setflags(write=False)
    return array


def readonly_array(values, dtype=None):
    """A read-only copy of ``values``."""
    return locked(np.array(values, dtype=dtype, copy=True))


def smallest_int_dtype(n_values):
    """The narrowest signed integer dtype that can hold codes 0 .. n_values - 1."""
    for dtype in (np.int8, np.int16, np.int32, np.int64):
        if n_values - 1 <= np.iinfo(dtype).max:
            return np.dtype(dtype)
    raise OverflowError(f"cannot encode {n_values} distinct values")


def python_scalar(value):
    """A numpy scalar as the Python value it holds, for readable messages and JSON."""
    return value.item() if isinstance(value, np.generic) else value
