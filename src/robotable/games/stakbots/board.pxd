# The compiled engine's declarations for board.py (Cython reads this; plain Python never does):
# the readers the rules call most are cpdef, so compiled callers that cimport them call C
# directly, and interpreted ones (tests, narration) call them as before.

from robotable.games.stakbots.state cimport StakBotsState


cpdef long power(StakBotsState st, long c) except? -1
cpdef long stak_of(StakBotsState st, long c) except? -2
cpdef long top_stak(StakBotsState st, long c) except? -2
