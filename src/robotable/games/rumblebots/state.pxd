# The compiled engine's view of Rumblebots' state (Cython reads this beside state.py; plain
# Python never does): an extension type whose fields are C struct members, so the rules read
# `st.bdeck` or `st.champion` without a dictionary or descriptor lookup. The fields and their
# meaning are state.py's; every one is public, so interpreted code (render, narration, tests)
# reads and writes them as before. Counters, seats, steps and the phase are C longs (64-bit):
# state.py stores them as plain ints on both engines. `offered` and `forced` are C booleans that
# read back as Python bools, as they are everywhere assigned. `log` (the shared cons list) and
# `end_reason` stay Python objects.

from robotable.core.protocol cimport StateBase
from robotable.core.rng cimport GameRng


# The game's shared tables (state.py's RumblebotsTables; the Rumblebots Game derives from it). Only
# attributes the Game sets per instance: its class attributes (name, rules...) stay Python.
cdef class RumblebotsTables:
    cdef public long num_players
    cdef public object options
    cdef public object content
    cdef public tuple cards
    cdef public tuple tables
    cdef public tuple battle
    cdef public list powers


cdef class RumblebotsState(StateBase):
    cdef public RumblebotsTables game
    cdef public object _legal
    cdef public GameRng rng
    cdef public long round
    cdef public long phase
    cdef public long champion
    cdef public long first_champion
    cdef public long direction
    cdef public list order
    cdef public long turn_pos
    cdef public list scraps
    cdef public list tier
    cdef public list storage
    cdef public list reactor
    cdef public list cryo
    cdef public list collection
    cdef public list fresh
    cdef public list hand
    cdef public long builds
    cdef public long upgrades
    cdef public long energizes
    cdef public list decks
    cdef public list lab
    cdef public list lab_open
    cdef public list transform_deck
    cdef public list recycled
    cdef public list reserve
    cdef public long supply
    cdef public list spaces
    cdef public list active
    cdef public list bdeck
    cdef public list known_top
    cdef public list known_bottom
    cdef public list discard
    cdef public list used
    cdef public list defense
    cdef public list attack
    cdef public long challenger
    cdef public long last_challenger
    cdef public long bstep
    cdef public long atk_mod
    cdef public long crit_mod
    cdef public long def_mod
    cdef public long bar_mod
    cdef public long reboots
    cdef public long reveals
    cdef public bint offered
    cdef public bint forced
    cdef public list pending
    cdef public object log
    cdef public long winner
    cdef public object end_reason
    cdef public long turns
    cdef public long battle_no
    cdef public long clashes
    cdef public object opening
    cdef public bint quiet
    # protocol.pxd's hook, answered through the C method table (state.py defines it; the other
    # two, _legal_actions and _apply, are StateBase's: they call the rules' entry points)
    cpdef bint is_terminal(self) except -1
    # the battle log's cons cell, a C call from the rules (state.py)
    cpdef add_log(self, tuple entry)
