# The compiled engine's declarations for effects.py (Cython reads this; plain Python never does):
# the state's extension type, so `@cython.locals(s=BetabotzState)` reads its C fields, and the
# per-seat helpers that mission resolution and the breach checks call as cpdef (C calls from
# this module; rules.py and the heuristic call them through the module, as before).

from robotable.games.betabotz.state cimport BetabotzState


cpdef list chip_order(BetabotzState s)
cpdef recompute_perm(BetabotzState s, long seat)
cpdef long has_breach_effect(BetabotzState s, long seat, object effect) except? -1
cpdef long mission_value(BetabotzState s, long seat, long a) except? -1
cpdef list units(BetabotzState s)
cpdef list unit_values(BetabotzState s, list members)
cpdef bint meets(list values, tuple require) except -1
