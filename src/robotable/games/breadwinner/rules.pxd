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

# The forward model's own steps, as C calls from one another (a step's end builds the next step's
# legal actions at once): a `def` called within its module is a Python call.
cpdef list map_actions(BreadWinnerState st)
cpdef list deploy_actions(BreadWinnerState st)
cpdef list empty_factories(BreadWinnerState st, long seat)
cpdef list build_actions(BreadWinnerState st)
cpdef list deactivate_actions(BreadWinnerState st)
cpdef list follow_actions(BreadWinnerState st)
cpdef list legal_actions(BreadWinnerState st)
cpdef advance(BreadWinnerState st, list events)
cpdef enter_build(BreadWinnerState st, list events)
cpdef leave_build(BreadWinnerState st, list events)
cpdef end_turn(BreadWinnerState st, list events)
cpdef finish(BreadWinnerState st, long winner, str reason, list events)
cpdef discard_chip(BreadWinnerState st, long chip)
cpdef drop_harvest(BreadWinnerState st, long die, list events)
cpdef list apply_action(BreadWinnerState st, object action)
cpdef _act(BreadWinnerState st, object action, list events, long base)
