# The compiled engine's declarations for heuristic.py (Cython reads this; plain Python never does):
# the state's extension type, so `@cython.locals(s=RumblebotsState)` reads its C fields, and the
# scores and the softmax (twice per leaf) as cpdef, C calls from `evaluate_all`.

from robotable.games.rumblebots.state cimport RumblebotsState


cpdef tuple _scores(RumblebotsState s, object w=*)
cpdef list _shares(list scores, object temperature=*)
