# The compiled engine's view of Stak Bots' state (Cython reads this beside state.py; plain
# Python never does): an extension type whose fields are C struct members, so the rules read
# `st.vis` or `st.active` without a dictionary or descriptor lookup. The fields and their
# meaning are state.py's; every one is public, so interpreted code (effects.py, narration,
# tests) reads and writes them as before. Counters are C longs (64-bit); `fed` is a C boolean
# that reads back as a Python bool, as it is everywhere it is assigned.

from robotable.core.protocol cimport StateBase
from robotable.core.rng cimport GameRng


# The game's tables for the rules (state.py's StakBotsTables; the StakBots Game derives from it).
# Only attributes the Game sets per instance: its class attributes (name, rules...) stay Python.
cdef class StakBotsTables:
    cdef public long num_players
    cdef public long drones
    cdef public long hand_limit
    cdef public long tally
    cdef public bint multi
    cdef public bint reactive
    cdef public bint recycling
    cdef public bint play_anywhere
    cdef public object options
    cdef public object deck
    cdef public object entry
    cdef public object end_a
    cdef public list names
    cdef public list bot
    cdef public list base_power
    cdef public list defkey
    cdef public list play_a
    cdef public list scrap_hand_a
    cdef public list scrap_top_a
    cdef public list discard_a
    cdef public list team
    cdef public list owner
    cdef public list local
    cdef public list staks_of
    cdef public list stak_order
    cdef public list targets
    cdef public list several
    cdef public list stak_word
    cdef public list attack_a
    cdef public list attack_ab
    cdef public list plays_for
    cdef public list recycle_a
    cdef public list react_a
    cdef public list top_target_a
    cdef public list player_a


cdef class StakBotsState(StateBase):
    cdef public StakBotsTables game
    cdef public object _legal
    cdef public GameRng rng
    cdef public list staks
    cdef public list hands
    cdef public list supply
    cdef public list scrapheap
    cdef public list vis
    cdef public list dmg
    cdef public list damaged
    cdef public list alive
    cdef public long active
    cdef public long turn
    cdef public list attacker
    cdef public list stopped
    cdef public bint fed
    cdef public long stomp
    cdef public long n_actions
    cdef public long n_effects
    cdef public list pending
    cdef public object decision
    cdef public object result
    cdef public object end_reason
    cdef public list counts
    cdef public long n_attacks
    cdef public long declared
    cdef public long stomp_from
    cdef public long drone_next
    cdef public object opening
    cdef public bint quiet
    # protocol.pxd's hook, answered through the C method table (state.py defines it; the other
    # two, _legal_actions and _apply, are StateBase's: they call the rules' entry points)
    cpdef bint is_terminal(self) except -1
