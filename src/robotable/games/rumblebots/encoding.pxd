# The compiled engine's declarations for encoding.py (Cython reads this; plain Python never does):
# the state's extension type, so `Encoding.encode_state` reads its C fields, and the clash's
# numbers as the C call the rules make.

from robotable.games.rumblebots.state cimport RumblebotsState
from robotable.games.rumblebots.effects cimport clash_numbers
