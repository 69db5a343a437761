# Declarations for the compiled engine (Cython reads this beside protocol.py; plain Python never
# does). `StateBase` is an extension type so that a game's state may be one too, with C fields
# (an extension type cannot inherit the ABC `State`). It declares no fields: `game` and `_legal`
# stay wherever each subclass keeps them, so a Python subclass of `State` with those names in
# its `__slots__` (as every game's and docs/protocol.md's are) keeps one copy of each.

cdef class StateBase:
    pass
