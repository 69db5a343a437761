# The compiled engine's declarations for encoding.py (Cython reads this; plain Python never does):
# the state's extension type, so `encode_state` reads its C fields, and a card's power as the C
# call the rules make.

from robotable.games.stakbots.state cimport StakBotsState
from robotable.games.stakbots.board cimport power
