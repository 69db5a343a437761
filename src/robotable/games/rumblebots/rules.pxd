# The compiled engine's declarations for rules.py (Cython reads this; plain Python never does):
# the state's extension type, so `@cython.locals(s=RumblebotsState)` reads its C fields, and the
# effects' helpers the battle calls per reveal, cimported so that they are C calls here.

from robotable.games.rumblebots.state cimport RumblebotsState
from robotable.games.rumblebots.effects cimport (
    beats, check_dominance, clash_numbers, distinct_names, first_named, refill_defense,
)


cpdef named(object cls, object name)
cpdef lab_action(long tier, long slot, object name)
cpdef tuple card_tables(object content)
cpdef long crystals_of(RumblebotsState s, long seat) except? -1
cpdef long _next_active(RumblebotsState s, long after) except? -2
cpdef list usable_contraptions(RumblebotsState s, long seat, tuple effects)

# The forward model's own steps, as C calls from one another (a build, a clash, the end of a turn
# call several per action): a `def` called within its module is a Python call.
cpdef list setup(RumblebotsState s, object seed)
cpdef start_round(RumblebotsState s, list ev)
cpdef long paid_in_round(object extra, long number) except? -1
cpdef begin_turn(RumblebotsState s, list ev)
cpdef end_turn(RumblebotsState s, list ev)
cpdef _append_once(list acts, Py_ssize_t given, object act)
cpdef list build_legal(RumblebotsState s)
cpdef reveal_row(RumblebotsState s, long tier, list ev)
cpdef apply_build(RumblebotsState s, object action, list ev)
cpdef _built(RumblebotsState s, long seat, long cid, str source, list ev)
cpdef start_battle(RumblebotsState s, list ev)
cpdef _surrender(RumblebotsState s, long seat, str why, list ev, list discarded=*)
cpdef advance_battle(RumblebotsState s, list ev)
cpdef challenger_wins(RumblebotsState s, list ev)
cpdef transform(RumblebotsState s, long seat, long cid, list ev)
cpdef form_gang(RumblebotsState s, str faction, list ev)
cpdef end_battle(RumblebotsState s, list ev)
cpdef list pending_legal(RumblebotsState s)
cpdef apply_pending(RumblebotsState s, object action, list ev)
cpdef list legal_actions(RumblebotsState s)
cpdef list apply_action(RumblebotsState s, object action)
