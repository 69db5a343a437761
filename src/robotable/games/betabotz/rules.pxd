# The compiled engine's declarations for rules.py (Cython reads this; plain Python never does):
# the state's extension type, so `@cython.locals(s=BetabotzState)` reads its C fields, and the
# helpers apply and legal_actions call on every action (and per bid or share amount offered) as
# cpdef (compiled callers in this module call C directly; interpreted ones and tests call them
# as before); the card tables' type (BetabotzTables) and effects.py's cpdef helpers (`fx`).

from robotable.games.betabotz.state cimport BetabotzState, BetabotzTables
from robotable.games.betabotz cimport effects as fx


cpdef _bid(long amount)
cpdef _share(long x)
cpdef _numbered(dict cache, object cls, long number, object name)
cpdef long lot_min(BetabotzState s, long slot, long seat) except? -1
cpdef list bid_amounts(BetabotzState s, long seat, long slot)
cpdef bint _next_actor(BetabotzState s) except -1
cpdef list _solo_others(BetabotzState s, long seat)
cpdef list _pending_actions(BetabotzState s)
cpdef _apply_pending(BetabotzState s, object action, long seat, list events)
cpdef _advance(BetabotzState s, list events)

# The flow's steps each action may take (an auction closed, a Code card resolved, a mission
# closed): C calls from _advance and _apply_pending, where a `def` was a Python call by name.
cpdef _open_auction(BetabotzState s, long phase, list events)
cpdef _close_auction(BetabotzState s, list events)
cpdef _open_mission(BetabotzState s, list events)
cpdef _start_code(BetabotzState s, long seat, long kind_id, list events)
cpdef _finish_code(BetabotzState s, list events, object attr=*)
cpdef _close_mission(BetabotzState s, list events)
cpdef _end_game(BetabotzState s, list events)
