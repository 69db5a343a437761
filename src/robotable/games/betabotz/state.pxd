# The compiled engine's view of Betabotz's state (Cython reads this beside state.py; plain
# Python never does): an extension type whose fields are C struct members, so the rules read
# `s.stage` or `s.bitz` without a descriptor lookup. The fields and their meaning are state.py's
# (FIELDS); every one is public, so interpreted code (narration, render, tests) and the JSON
# reader's getattr/setattr read and write them as before. Stages, counters and seats are C longs
# (64-bit; every one is assigned a plain int); lists are typed `list`; `rng` is a GameRng
# (core/rng.pxd), so draws are C calls; `game` is the Game through its card tables
# (BetabotzTables below); `content` stays a Python object.

from robotable.core.protocol cimport StateBase
from robotable.core.rng cimport GameRng


# The card set's tables for the rules (state.py's BetabotzTables; BetabotzGame derives from it):
# lists by id, read per action. The rest of the Game (options, the modules it wires) stays Python.
cdef class BetabotzTables:
    cdef public list bot_name
    cdef public list comp_name
    cdef public list kind_name
    cdef public list bot_attrs
    cdef public list bot_min_bid
    cdef public list comp_mods
    cdef public list comp_min_bid
    cdef public list comp_gold
    cdef public list comp_green
    cdef public list comp_acquire
    cdef public list code_kind
    cdef public list card_gold
    cdef public list kind_op
    cdef public list kind_target
    cdef public list kind_attr
    cdef public list breach_attr
    cdef public list breach_effect
    cdef public list breach_amount
    cdef public list mission_ground
    cdef public list mission_reward
    cdef public list missions_by_ground


cdef class BetabotzState(StateBase):
    cdef public BetabotzTables game
    cdef public object content
    cdef public long n
    cdef public GameRng rng
    cdef public object _legal
    cdef public bint quiet
    cdef public long stage
    cdef public long phase
    cdef public long revealed
    cdef public long chip
    cdef public long bank
    cdef public long turn
    cdef public list bitz
    cdef public list bot
    cdef public list comps
    cdef public list damage
    cdef public list perm
    cdef public list temp
    cdef public list hand
    cdef public list holder
    cdef public list bot_deck
    cdef public list comp_deck
    cdef public list code_deck
    cdef public list code_discard
    cdef public list comp_discard
    cdef public list mission_order
    cdef public list lots
    cdef public list lot_bid
    cdef public list lot_bidder
    cdef public list seat_lot
    cdef public list drew
    cdef public long actor
    cdef public long turn_open
    cdef public long priority
    cdef public long streak
    cdef public list team_of
    cdef public list share
    cdef public list shield
    cdef public list bounty
    cdef public list proposals_left
    cdef public list code_log
    cdef public list cip
    cdef public list draft
    cdef public long draft_share
    cdef public list pending
    cdef public list final_bitz
    cdef public list ground_tally
    # protocol.pxd's hook, answered through the C method table (state.py defines it; the other
    # two, _legal_actions and _apply, are StateBase's: they call the rules' entry points)
    cpdef bint is_terminal(self) except -1

    # C calls from the compiled rules (apply_action asks who decides); Python callers as before.
    cpdef long current_player(self) except? -1
    cpdef bint is_terminal(self) except -1
