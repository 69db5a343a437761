# The compiled engine's declarations for rules.py (Cython reads this; plain Python never does):
# the state's extension type, so `@cython.locals(st=StakBotsState)` reads its C fields.

from robotable.games.stakbots.state cimport StakBotsState
from robotable.games.stakbots.board cimport power, stak_of, top_stak
from robotable.games.stakbots.effects cimport (
    add_damage, choices, damage_ability, draw, fire, resolve_player, resolve_target,
    scrap_from_hand, scrap_from_stak, take_top,
)

# The forward model's own steps, as C calls from one another (a play, an attack and the chain of
# entry effects after it call several per action): a `def` called within its module is a Python
# call.
cpdef settle(StakBotsState st, list events)
cpdef start_turn(StakBotsState st, list events)
cpdef end_turn(StakBotsState st, list events)
cpdef finish(StakBotsState st, list winners, str reason, list events, double share=*)
cpdef list with_teammates(StakBotsState st, list seats)
cpdef after_chain(StakBotsState st, list events)
cpdef drone_step(StakBotsState st, list events)
cpdef bint declare(StakBotsState st, long src, long t, list events) except -1
cpdef run(StakBotsState st, list events)
cpdef attack(StakBotsState st, long src, long target, list events)
cpdef list legal_actions(StakBotsState st)
cpdef list play_staks(StakBotsState st, long a)
cpdef list apply_action(StakBotsState st, object action)
cpdef answer(StakBotsState st, object action, list events)
cpdef play_card(StakBotsState st, long seat, long k, long c, bint reaction, list events)
