# The compiled engine's declarations for heuristic.py (Cython reads this; plain Python never does):
# the state's extension type, so `@cython.locals(st=BreadWinnerState)` reads its C fields, and
# `_claims` (called per crop and per Drone) as cpdef, a C call from `scores`.

from robotable.games.breadwinner.state cimport BreadWinnerState


cpdef tuple _claims(object w, long tile, list harvesters, list factory_harvesters)
