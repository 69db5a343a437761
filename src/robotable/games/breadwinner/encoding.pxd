# The compiled engine's declarations for encoding.py (Cython reads this; plain Python never
# does): the state's extension type for encode_state's `st`, so it reads the state's C fields.

from robotable.games.breadwinner.state cimport BreadWinnerState


cpdef list encode_state(object game, BreadWinnerState st, object seat)
