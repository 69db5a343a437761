# The compiled engine's declarations for view.py (Cython reads this; plain Python never does):
# the state's extension type for every reader's `st`, so they read its C fields as the view did
# when it was a method of the state. (A cpdef function takes no closure: view.py counts with
# loops and list comprehensions, never a generator expression.)

from robotable.games.breadwinner.state cimport BreadWinnerState


cpdef object chip_value(BreadWinnerState st, object chip)
cpdef dict bot_view(BreadWinnerState st, object die)
cpdef dict view(BreadWinnerState st, object seat, object words=*)
cpdef str prompt(BreadWinnerState st)
cpdef dict stats(BreadWinnerState st)
