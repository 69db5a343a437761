# The compiled engine's declarations for encoding.py (Cython reads this; plain Python never does):
# the state's and the game's tables' extension types, so `encode_state` reads their C fields, and
# a card's power as the C call the rules make.

from robotable.games.stakbots.state cimport StakBotsState, StakBotsTables
from robotable.games.stakbots.board cimport power
