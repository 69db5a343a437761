# Declarations for the compiled engine (Cython reads this beside protocol.py; plain Python never
# does). `StateBase` is an extension type so that a game's state may be one too, with C fields
# (an extension type cannot inherit the ABC `State`). It declares no fields: `game` and `_legal`
# stay wherever each subclass keeps them, so a Python subclass of `State` with those names in
# its `__slots__` (as every game's and docs/protocol.md's are) keeps one copy of each.

cdef class StateBase:
    # The hooks the provided `legal_actions` and `apply_action` call, as C methods: a compiled
    # game's state declares the same in its own .pxd, and a Python subclass of `State` (a
    # user's game) overrides them as ordinary methods, which Cython finds and calls instead.
    cpdef object _legal_actions(self)
    cpdef object _apply(self, object action)
    cpdef bint is_terminal(self) except -1
