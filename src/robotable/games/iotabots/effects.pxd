# The compiled engine's declarations for effects.py (Cython reads this; plain Python never does):
# the state's extension types, so `@cython.locals(state=IotabotsState)` reads its C fields, and
# the interpreter's readers (stats, targets, requirements: called per Bot, per card and per
# legal-action list) as cpdef, C calls from the compiled rules and heuristic.

from robotable.games.iotabots.state cimport Bot, IotabotsTables, IotabotsState
from robotable.games.iotabots.board cimport check_life, draw, leave_hand, new_bot, remove_bot


cpdef long choice_kind(object step) except? -2
cpdef bint condition_holds(IotabotsState state, long seat, object cond, long source_uid) except -1
cpdef tuple stats(IotabotsState state, long seat, Bot bot)
cpdef bint attackable(IotabotsState state, long seat, Bot bot) except -1
cpdef bint direct_attack_allowed(IotabotsState state, long seat) except -1
cpdef tuple find_bot(IotabotsState state, long uid)
cpdef list bot_options(IotabotsState state, object step, long controller, long source_uid)
cpdef list card_options(IotabotsState state, long seat, long kind)
cpdef bint can_activate(
    IotabotsState state, long seat, long card, long eff, long source_uid, bint from_hand
) except -1
cpdef push(IotabotsState state, long card, long eff, long controller, long source_uid, long battled=*)

# The effect stack's entry points, as C calls from the rules (which cimport them) and from one
# another; interpreted callers call them as before.
cpdef list options_for(IotabotsState state)
cpdef push_triggers(IotabotsState state, list entries)
cpdef resolve(IotabotsState state, list events)
cpdef resume(IotabotsState state, object action, list events)
