# The compiled engine's declarations for board.py (Cython reads this; plain Python never does):
# the state's extension types, and the moves the turn flow and the effects make on every draw,
# summon and destruction as cpdef (compiled callers that cimport them call C directly;
# interpreted ones, tests among them, call them as before).

from robotable.games.iotabots.state cimport Bot, IotabotsState


cpdef bint check_life(IotabotsState state, object reason, list events) except -1
cpdef bint draw(IotabotsState state, long seat, long n, list events, object by=*) except -1
cpdef leave_hand(IotabotsState state, long seat, long card)
cpdef Bot new_bot(IotabotsState state, long card, long seat)
cpdef Bot remove_bot(IotabotsState state, long seat, long slot, bint to_hand=*)
