# The compiled engine's declarations for encoding.py (Cython reads this; plain Python never
# does): the state's extension types, so encode_state and a Bot's numbers read C fields, and a
# Bot's current stats and whether it may attack as the C calls the rules make.

from robotable.games.iotabots.state cimport Bot, IotabotsTables, IotabotsState
from robotable.games.iotabots.effects cimport stats as bot_stats
from robotable.games.iotabots.rules cimport can_attack


cpdef list encode_state(object game, IotabotsState state, object seat)
cpdef tuple _bot(IotabotsTables game, IotabotsState state, long seat, Bot bot)
