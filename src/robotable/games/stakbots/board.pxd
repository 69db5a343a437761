# The compiled engine's declarations for board.py (Cython reads this; plain Python never does):
# the state's extension type, so `@cython.locals(st=StakBotsState)` reads its C fields.

from robotable.games.stakbots.state cimport StakBotsState
