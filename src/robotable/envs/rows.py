# cython: boundscheck=False, wraparound=False
"""Observations and legal masks written in place into a batch's preallocated arrays.

The vector environments keep one float32 array of observations and one int8 array of masks,
one row per sub-env; these two functions fill row `row` of them. The compiled engine compiles
this very file (`robotable._build`, typed by `rows.pxd`): each write is then a C loop over a
typed memoryview, with no intermediate numpy array. Plain Python does the same with one numpy
assignment, so both engines write the same bytes (numpy and C both round a double to the nearest
float32).
"""

from __future__ import annotations

from typing import Any

try:
    import cython
except ImportError:  # pragma: no cover - a runtime install without Cython
    from ..core import cython_shim as cython


def write_observation(out: Any, row: int, values: list) -> None:
    """`out[row, :] = values`: `values` is a list of exactly `out.shape[1]` numbers."""
    width = out.shape[1]
    if len(values) != width:
        raise ValueError(f"observation of {len(values)} numbers for a row of {width}")
    if not 0 <= row < out.shape[0]:
        raise IndexError(f"row {row} outside 0..{out.shape[0] - 1}")
    if not cython.compiled:
        out[row] = values
        return
    for j in range(width):
        out[row, j] = values[j]


def write_mask(out: Any, row: int, indices: list) -> None:
    """Row `row` of `out` becomes 1 at `indices` (each in range) and 0 elsewhere."""
    width = out.shape[1]
    if not 0 <= row < out.shape[0]:
        raise IndexError(f"row {row} outside 0..{out.shape[0] - 1}")
    if not cython.compiled:
        if indices and not (min(indices) >= 0 and max(indices) < width):
            raise IndexError(f"action indices {indices} not all in 0..{width - 1}")
        out[row] = 0
        if indices:
            out[row, indices] = 1
        return
    for j in range(width):
        out[row, j] = 0
    for k in range(len(indices)):
        j = indices[k]
        if not 0 <= j < width:
            raise IndexError(f"action index {j} outside 0..{width - 1}")
        out[row, j] = 1
