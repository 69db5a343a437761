# The compiled engine's declarations for encoding.py (Cython reads this; plain Python never
# does): the state's extension type and the card tables, so encode_state reads C fields, and
# effects.py's cpdef helpers (`fx`) as C calls.

from robotable.games.betabotz.state cimport BetabotzState, BetabotzTables
from robotable.games.betabotz cimport effects as fx


cpdef list encode_state(BetabotzTables game, BetabotzState s, object seat)
