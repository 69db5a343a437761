# The compiled engine's declarations for mcts.py (Cython reads this; plain Python never does):
# the tree record as an extension type, so the search reads and counts with C struct fields,
# and C's log and sqrt for UCB (the same libm functions Python's math module calls).

from libc.math cimport log, sqrt


cdef class _Edge:
    cdef public double visits
    cdef public double total
    cdef public long avail
    cdef public dict children
    cdef public object order
