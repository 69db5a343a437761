# The compiled engine's declarations for heuristic.py (Cython reads this; plain Python never does):
# the state's extension type, so `@cython.locals(s=BetabotzState)` reads its C fields, the
# projection every MCTS leaf asks for (evaluate_all) as cpdef, C calls from this module, and
# C's exp for the softmax (the same libm function Python's math.exp calls); the card tables'
# type (BetabotzTables) and effects.py's cpdef helpers (`fx`), so a unit's values are C calls.

from libc.math cimport exp

from robotable.games.betabotz.state cimport BetabotzState, BetabotzTables
from robotable.games.betabotz cimport effects as fx


cpdef tuple _projected_perms(BetabotzState s)
cpdef list _public_projection(BetabotzState s)
