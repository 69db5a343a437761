# The compiled engine's view of rng.py (Cython reads this beside it; plain Python never does):
# GameRng as a final extension type whose state is a C unsigned 64-bit integer, so a game whose
# state declares `rng` as a GameRng (its state.pxd) draws with C calls. Python callers, JSON and
# pickling see the same `state` integer as in the pure engine.

cimport cython


@cython.final
cdef class GameRng:
    cdef public unsigned long long state
    cpdef unsigned long long next64(self)
    cpdef long below(self, long n) except? -1
    cpdef void shuffle(self, list items) except *
    cpdef GameRng clone(self)
