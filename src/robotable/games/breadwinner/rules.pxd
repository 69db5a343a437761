# The compiled engine's declarations for rules.py (Cython reads this; plain Python never does):
# the state's extension type, so `@cython.locals(st=BreadWinnerState)` reads its C fields, and
# the helpers the legal-action generators call per die or per tile as cpdef (compiled callers in
# this module call C directly; interpreted ones call them as before), and the action factories,
# cimported so that they are C calls here.

from robotable.games.breadwinner.state cimport BreadWinnerState
from robotable.games.breadwinner.actions cimport (
    make_act, make_build, make_deactivate, make_deploy, make_hold, make_move, make_research,
)


cpdef list occupants(BreadWinnerState st)
cpdef bint can_enter(list face, list here, long seat, bint shield) except -1
cpdef bint can_pass(list face, list here, long seat, bint shield) except -1
cpdef list deploy_stops(BreadWinnerState st, long die, list occ)
cpdef list abilities(BreadWinnerState st, long die, list occ, bint moved)
cpdef to_pile(BreadWinnerState st, long die)
