# The compiled engine's view of rows.py: the batch arrays as typed memoryviews (C-contiguous,
# float32 observations and int8 masks), so a row is written by a C loop.

cimport cython


@cython.locals(width=Py_ssize_t, j=Py_ssize_t)
cpdef void write_observation(float[:, ::1] out, Py_ssize_t row, list values) except *


@cython.locals(width=Py_ssize_t, j=Py_ssize_t, k=Py_ssize_t)
cpdef void write_mask(signed char[:, ::1] out, Py_ssize_t row, list indices) except *
