# The compiled engine's view of Stak Bots' state (Cython reads this beside state.py; plain
# Python never does): an extension type whose fields are C struct members, so the rules read
# `st.vis` or `st.active` without a dictionary or descriptor lookup. The fields and their
# meaning are state.py's; every one is public, so interpreted code (effects.py, narration,
# tests) reads and writes them as before. Counters are C longs (64-bit); `fed` is a C boolean
# that reads back as a Python bool, as it is everywhere it is assigned.

from robotable.core.protocol cimport StateBase


cdef class StakBotsState(StateBase):
    cdef public object game
    cdef public object _legal
    cdef public object rng
    cdef public list staks
    cdef public list hands
    cdef public list supply
    cdef public list scrapheap
    cdef public list vis
    cdef public list dmg
    cdef public list damaged
    cdef public list alive
    cdef public long active
    cdef public long turn
    cdef public list attacker
    cdef public list stopped
    cdef public bint fed
    cdef public long stomp
    cdef public long n_actions
    cdef public long n_effects
    cdef public list pending
    cdef public object decision
    cdef public object result
    cdef public object end_reason
    cdef public list counts
    cdef public long n_attacks
    cdef public long declared
    cdef public long stomp_from
    cdef public long drone_next
    cdef public object opening
