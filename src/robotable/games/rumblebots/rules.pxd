# The compiled engine's declarations for rules.py (Cython reads this; plain Python never does):
# the state's extension type, so `@cython.locals(s=RumbleState)` reads its C fields, and the
# effects' helpers the battle calls per reveal, cimported so that they are C calls here.

from robotable.games.rumblebots.state cimport RumbleState
from robotable.games.rumblebots.effects cimport (
    beats, check_dominance, clash_numbers, distinct_names, first_named, refill_defense,
)


cpdef named(object cls, object name)
cpdef lab_action(long tier, long slot, object name)
cpdef tuple card_tables(object content)
cpdef long crystals_of(RumbleState s, long seat) except? -1
cpdef long _next_active(RumbleState s, long after) except? -2
cpdef list usable_contraptions(RumbleState s, long seat, tuple effects)

# The forward model's own steps, as C calls from one another (a build, a clash, the end of a turn
# call several per action): a `def` called within its module is a Python call.
cpdef list setup(RumbleState s, object seed)
cpdef start_round(RumbleState s, list ev)
cpdef long paid_in_round(object extra, long number) except? -1
cpdef begin_turn(RumbleState s, list ev)
cpdef end_turn(RumbleState s, list ev)
cpdef _append_once(list acts, Py_ssize_t given, object act)
cpdef list build_legal(RumbleState s)
cpdef reveal_row(RumbleState s, long tier, list ev)
cpdef apply_build(RumbleState s, object action, list ev)
cpdef _built(RumbleState s, long seat, long cid, str source, list ev)
cpdef start_battle(RumbleState s, list ev)
cpdef _surrender(RumbleState s, long seat, str why, list ev, list discarded=*)
cpdef advance_battle(RumbleState s, list ev)
cpdef challenger_wins(RumbleState s, list ev)
cpdef transform(RumbleState s, long seat, long cid, list ev)
cpdef form_gang(RumbleState s, str faction, list ev)
cpdef end_battle(RumbleState s, list ev)
cpdef list pending_legal(RumbleState s)
cpdef apply_pending(RumbleState s, object action, list ev)
cpdef list legal_actions(RumbleState s)
cpdef list apply(RumbleState s, object action)
