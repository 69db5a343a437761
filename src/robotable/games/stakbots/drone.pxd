# The compiled engine's declarations for drone.py (Cython reads this; plain Python never does):
# the state's extension type, so `@cython.locals(st=StakBotsState)` reads its C fields.

from robotable.games.stakbots.state cimport StakBotsState
from robotable.games.stakbots.board cimport power
