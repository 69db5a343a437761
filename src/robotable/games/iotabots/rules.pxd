# The compiled engine's declarations for rules.py (Cython reads this; plain Python never does):
# the state's extension types, so `@cython.locals(state=IotabotsState)` reads its C fields;
# `can_attack` and `attack_targets` (per Bot and per legal-action list) as cpdef; the board's
# moves and the effect interpreter's readers as C calls.

from robotable.games.iotabots.state cimport Bot, IotabotsTables, IotabotsState
from robotable.games.iotabots.board cimport check_life, draw, leave_hand, new_bot, remove_bot
from robotable.games.iotabots.effects cimport (
    attackable, can_activate, direct_attack_allowed, options_for, push, push_triggers, resolve,
    resume, stats,
)


cpdef bint can_attack(IotabotsState state, Bot bot) except -1
cpdef list attack_targets(IotabotsState state)

# The forward model's own steps, as C calls from one another: a `def` called within its module
# is a Python call.
cpdef begin_turn(IotabotsState state, list events)
cpdef end_turn(IotabotsState state, list events)
cpdef finish_turn(IotabotsState state, list events)
cpdef list legal_actions(IotabotsState state)
cpdef list main_actions(IotabotsState state)
cpdef list apply_action(IotabotsState state, object action)
cpdef battle(IotabotsState state, long slot, long target, list events)
