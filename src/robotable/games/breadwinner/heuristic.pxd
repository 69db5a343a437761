# The compiled engine's declarations for heuristic.py (Cython reads this; plain Python never does):
# the state's extension type, so `@cython.locals(st=BreadWinnerState)` reads its C fields.

from robotable.games.breadwinner.state cimport BreadWinnerState
