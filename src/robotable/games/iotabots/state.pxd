# The compiled engine's view of Iotabots' state (Cython reads this beside state.py; plain Python
# never does): extension types whose fields are C struct members, so the rules read
# `state.field` or `bot.atk_mod` without a dictionary or descriptor lookup. The fields and their
# meaning are state.py's; every one is public, so interpreted code (narration, render, tests)
# reads and writes them as before. Seats, counters and uids are C longs (64-bit); `may_attack`
# and `used` are C booleans that read back as Python bools, as they are everywhere assigned.
# `phase` stays a Python object (a `Phase` member: the view and prompt read it as one), and so
# do `choice` and `_legal`; `rng` is a GameRng (core/rng.pxd), so draws are C calls; `game`
# is the Game, through its tables.
# `Bot.copy` and `clone` type their new object here (a `cython.locals` plain Python never reads;
# a `cython.declare` in the .py would be a call per Bot in the pure engine); `clone` is cpdef.

cimport cython

from robotable.core.protocol cimport StateBase
from robotable.core.rng cimport GameRng


# The game's tables for the rules (state.py's IotabotsTables; IotabotsGame derives from it). Only
# attributes the Game sets per instance and the rules read per action: the rest of the Game
# (its class attributes, options, pool, decks...) stays Python.
cdef class IotabotsTables:
    cdef public tuple cards
    cdef public list names
    cdef public list triggers
    cdef public list ignition
    cdef public list static_self
    cdef public list aura
    cdef public list untargetable
    cdef public list no_direct
    cdef public bint has_aura
    cdef public bint any_untargetable
    cdef public bint any_no_direct
    cdef public bint direct_requires_empty
    cdef public list card_mana
    cdef public list card_is_buzz
    cdef public list attacks_of
    cdef public list base_atk
    cdef public list base_def
    cdef public list buzz_free
    cdef public list summon_actions
    cdef public list play_actions
    cdef public list choose_card_actions
    cdef public list activate_actions
    cdef public list attack_actions
    cdef public list choose_bot_actions
    cdef public list order_actions
    cdef public list mulligan_actions
    cdef public object enter_battle
    cdef public object end_battle
    cdef public object end_turn


cdef class Bot:
    cdef public long uid
    cdef public long card
    cdef public long owner
    cdef public long entered
    cdef public long attacks
    cdef public long atk_mod
    cdef public long def_mod
    cdef public long home
    cdef public bint may_attack
    cdef public long counters
    cdef public bint used

    @cython.locals(b=Bot)
    cpdef Bot copy(self)


cdef class IotabotsState(StateBase):
    cdef public IotabotsTables game
    cdef public object _legal
    cdef public GameRng rng
    cdef public list results
    cdef public list reasons
    cdef public list firsts
    cdef public long chooser
    cdef public object phase
    cdef public long total_turns
    cdef public long first
    cdef public long active
    cdef public long turn
    cdef public list deck
    cdef public list hand
    cdef public list known
    cdef public list junk
    cdef public list field
    cdef public list life
    cdef public list mana
    cdef public list mana_max
    cdef public list mulligans
    cdef public list kept
    cdef public list protect
    cdef public long next_uid
    cdef public long resolving
    cdef public list frames
    cdef public object choice
    cdef public bint quiet
    # protocol.pxd's hook, answered through the C method table (state.py defines it; the other
    # two, _legal_actions and _apply, are StateBase's: they call the rules' entry points)
    cpdef bint is_terminal(self) except -1

    @cython.locals(s=IotabotsState)
    cpdef IotabotsState clone(self)
