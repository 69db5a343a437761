# The compiled engine's declarations for heuristic.py (Cython reads this; plain Python never does):
# the state's extension types, so `@cython.locals(state=IotabotsState)` reads its C fields, and
# effects' `stats` (once per Bot on the field per leaf) and `direct_attack_allowed` as C
# calls.

from robotable.games.iotabots.state cimport Bot, IotabotsState
from robotable.games.iotabots.effects cimport direct_attack_allowed, stats
