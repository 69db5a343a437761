# The compiled engine's view of Bread Winner's state (Cython reads this beside state.py; plain
# Python never does): an extension type whose fields are C struct members, so the rules read
# `st.loc` or `st.phase` without a dictionary or descriptor lookup. The fields and their meaning
# are state.py's; every one is public, so interpreted code (narration, render, tests) reads and
# writes them as before. Counters, seats and steps are C longs (64-bit): `phase` and
# `follow_ret` hold a step as a plain int (a `Phase` member assigned to them reads back as its
# int; every reader compares them or goes through `Phase(...)`). `game` stays a Python object.

from robotable.core.protocol cimport StateBase
from robotable.core.rng cimport GameRng


cdef class BreadWinnerState(StateBase):
    cdef public object game
    cdef public GameRng rng
    cdef public long seat
    cdef public long first
    cdef public long turn
    cdef public long phase
    cdef public long follow
    cdef public long follow_ret
    cdef public object roll
    cdef public list loc
    cdef public list face
    cdef public list carry
    cdef public list used
    cdef public list crop
    cdef public list known
    cdef public list poison
    cdef public list pile
    cdef public list discards
    cdef public list loaves
    cdef public long centre
    cdef public long winner
    cdef public object reason
    cdef public list tally
    cdef public object _legal
    cdef public object _opening
    cdef public bint quiet
    # protocol.pxd's hook, answered through the C method table (state.py defines it; the other
    # two, _legal_actions and _apply, are StateBase's: they call the rules' entry points)
    cpdef bint is_terminal(self) except -1
