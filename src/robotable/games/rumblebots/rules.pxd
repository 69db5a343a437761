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
