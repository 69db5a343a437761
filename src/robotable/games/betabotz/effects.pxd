# The compiled engine's declarations for effects.py (Cython reads this; plain Python never does):
# the state's extension type, so `@cython.locals(s=BetabotzState)` reads its C fields, and the
# per-seat helpers that mission resolution, the breach checks and the flow call as cpdef (C
# calls from this module, and from rules.py and the heuristic, whose .pxd cimport this module as
# `fx`: their `fx.name(...)` is a C call for the names below, a module attribute for the rest).

from robotable.games.betabotz.state cimport BetabotzState, BetabotzTables


cpdef list chip_order(BetabotzState s)
cpdef recompute_perm(BetabotzState s, long seat)
cpdef perm_changed(BetabotzState s, long seat, list events)
cpdef long has_breach_effect(BetabotzState s, long seat, long effect) except? -1
cpdef long mission_value(BetabotzState s, long seat, long a) except? -1
cpdef list units(BetabotzState s)
cpdef list unit_values(BetabotzState s, list members)
cpdef bint meets(list values, tuple require) except -1
cpdef draw_codes(BetabotzState s, long seat, long count, list events)
cpdef long remove_code_of_kind(BetabotzState s, long seat, long kind) except? -1
cpdef bint check_breaches(BetabotzState s, list events) except -1
cpdef list resolve_code(BetabotzState s, long seat, long kind_id, long target, long attr)
cpdef resolve_mission(BetabotzState s, list events)
cpdef _consequences(BetabotzState s, long m, object mission, list events, list pushes)
