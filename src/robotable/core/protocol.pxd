# Declarations for the compiled engine (Cython reads this beside protocol.py; plain Python never
# does). `StateBase` is an extension type so that a game's state may be one too, with C fields
# (an extension type cannot inherit the ABC `State`). It declares two fields, the rules' entry
# points its hooks call (see protocol.py); `game` and `_legal` stay wherever each subclass keeps
# them, so a Python subclass of `State` with those names in its `__slots__` (as every game's and
# docs/protocol.md's are) keeps one copy of each.

cdef class StateBase:
    # A built-in game's forward model, taken from `game.rules` when its state is built (see
    # protocol.py): the hooks below call them with a C field read.
    cdef public object rules_legal_actions
    cdef public object rules_apply_action
    # The hooks the provided `legal_actions` and `apply_action` call, as C methods: the built-in
    # games' states use the first two as they are (the fields above) and declare is_terminal in
    # their own .pxd; a Python subclass of `State` (a user's game) overrides them as ordinary
    # methods, which Cython finds and calls instead.
    cpdef object _legal_actions(self)
    cpdef object _apply(self, object action)
    cpdef bint is_terminal(self) except -1
