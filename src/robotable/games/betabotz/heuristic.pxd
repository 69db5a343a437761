# The compiled engine's declarations for heuristic.py (Cython reads this; plain Python never does):
# the state's extension type, so `@cython.locals(s=BetabotzState)` reads its C fields, the
# projection every MCTS leaf asks for (evaluate_all) as cpdef, C calls from this module, and
# C's exp for the softmax (the same libm function Python's math.exp calls).

from libc.math cimport exp

from robotable.games.betabotz.state cimport BetabotzState


cpdef tuple _projected_perms(BetabotzState s)
cpdef list _public_projection(BetabotzState s)
