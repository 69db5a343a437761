# The compiled engine's declarations for view.py (Cython reads this; plain Python never does):
# a Bot's current numbers and whether it may attack, as the C calls the rules make.

from robotable.games.iotabots.effects cimport stats as bot_stats
from robotable.games.iotabots.rules cimport can_attack
