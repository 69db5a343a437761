# The compiled engine's declarations for heuristic.py (Cython reads this; plain Python never does):
# the state's extension type, so `@cython.locals(s=RumbleState)` reads its C fields, and the
# scores and the softmax (twice per leaf) as cpdef, C calls from `evaluate_all`.

from robotable.games.rumblebots.state cimport RumbleState


cpdef tuple _scores(RumbleState s, object w=*)
cpdef list _shares(list scores, object temperature=*)
