# The compiled engine's declarations for effects.py (Cython reads this; plain Python never does):
# the state's extension type, so `@cython.locals(s=RumblebotsState)` reads its C fields, and the
# helpers the battle calls per reveal (gang totals, the clash score) as cpdef: compiled callers
# that cimport them call C directly; interpreted ones (render, tests) call them as before.

from robotable.games.rumblebots.state cimport RumblebotsState


cpdef tuple gang_totals(RumblebotsState s, list gang, long owner)
cpdef tuple clash_numbers(RumblebotsState s)
cpdef bint beats(RumblebotsState s, long atk, long crit, long dfn, long threshold) except -1
cpdef list distinct_names(RumblebotsState s, list ids)
cpdef object first_named(list ids, list names, object name)
cpdef refill_defense(RumblebotsState s, list ev)
cpdef bint check_dominance(RumblebotsState s, list ev) except -1
