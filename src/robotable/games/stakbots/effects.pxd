# The compiled engine's declarations for effects.py (Cython reads this; plain Python never does):
# the state's extension type, so `@cython.locals(st=StakBotsState)` reads its C fields.

from robotable.games.stakbots.state cimport StakBotsState
from robotable.games.stakbots.board cimport power, top_stak

# The atomic moves and the card effects, as C calls from the rules (which cimport them) and from
# one another; interpreted callers (tests, the narration) call them as before.
cpdef _to_heap(StakBotsState st, long c)
cpdef stopped(StakBotsState st, long c)
cpdef uncovered(StakBotsState st, long s, dict event)
cpdef scrap_from_stak(StakBotsState st, long s, long c, list events, str reason)
cpdef scrap_from_hand(StakBotsState st, long s, long c, list events, str reason)
cpdef add_damage(StakBotsState st, long c, long amount)
cpdef return_to_hand(StakBotsState st, long s, long c, list events)
cpdef reset(StakBotsState st, long s, long c, list events, long by_seat=*, long by=*)
cpdef long take_top(StakBotsState st, long seat, list events) except? -2
cpdef draw(StakBotsState st, long seat, list events)
cpdef damage_ability(
    StakBotsState st, long src, long src_seat, long hit, long hit_seat, set doomed, list events
)
cpdef fire(StakBotsState st, long c, long k, list events)
cpdef list choices(StakBotsState st, tuple d)
cpdef list distinct(StakBotsState st, list hand)
cpdef resolve_target(StakBotsState st, long c, long chooser, long k, long depth, list events)
cpdef resolve_player(StakBotsState st, long c, long chooser, long seat, list events)
