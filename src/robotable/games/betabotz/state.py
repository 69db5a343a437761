"""Betabotz state: plain data (ids, ints, small lists), hand-written clone, JSON, determinize.

The forward model lives in rules.py and effects.py, the view and the words in view.py and
narration.py; this module only holds the data and imports none of them. The protocol methods
that need them go through the Game object (`self.game.rules`, `.views`, `.narration`), which
`__init__.py` wires (a state takes the two every step runs from it when it is built; `view`,
`observation_view`, `prompt` and `stats` are the protocol's, answered by `game.views`), so
imports flow one way: data -> rules -> presentation -> the Game.
Visibility model (one for view, events and determinize, BZ-10): every seat's Code hand is secret
to the others (counts are public); the orders of the Betabot, Component, Code and Mission decks
are secret to all (the grounds of the mission stack are public). Everything else is public.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from robotable.core.errors import RecordError
from robotable.core.protocol import TERMINAL, Action, State, StateBase
from robotable.core.rng import GameRng, sample, shuffle

try:
    import cython
except ImportError:  # no Cython: its declarations do nothing
    from robotable.core import cython_shim as cython

from .content import ATTR_SHORT, ATTRS, GROUNDS, Content

if TYPE_CHECKING:
    from . import BetabotzGame

# Stages of the flow (what `_advance` does next when no decision is pending).
ST_AUCTION = 0
ST_AUCTION_BREACH = 1  # after an auction: limit breach checks, then move the chip
ST_MISSION = 2
ST_MISSION_BREACH = 3  # after a mission: limit breach checks, then the next round
ST_OVER = 4
STAGE_NAMES = ("auction", "auction breaches", "mission", "mission breaches", "over")

# Pending decisions: (kind, seat, x). The top of the stack decides.
PK_BID = 0  # x = slot chosen
PK_DISCARD_COMP = 1  # x = 0 over the limit, 1 a mission consequence
PK_DISCARD_CODE = 2  # over the hand limit
PK_BREACH = 3  # x = attribute
PK_CODE_SEAT = 4  # x = code kind being played
PK_CODE_ATTR = 5  # x = code kind being played
PK_TEAM_INVITE = 6
PK_TEAM_SHARE = 7
PK_TEAM_ANSWER = 8
PENDING_NAMES = (
    "bid amount",
    "discard component",
    "discard code",
    "limit breach",
    "code target",
    "code attribute",
    "team members",
    "team split",
    "team answer",
)

_copy = list.copy

HAND_LIMIT = 4
COMPONENT_LIMIT = 5
BREACH_VALUE = 13
MISSIONS = 10
MAX_BID = 999

# Fields copied by clone and written by to_json: name -> kind ("i" int, "l" list of int,
# "ll" list of lists of int, "p" list of 3-tuples).
FIELDS: dict[str, str] = {
    "stage": "i",
    "phase": "i",
    "revealed": "i",
    "chip": "i",
    "bank": "i",
    "turn": "i",
    "bitz": "l",
    "bot": "l",
    "comps": "ll",
    "damage": "ll",
    "perm": "ll",
    "temp": "ll",
    "hand": "ll",
    "holder": "l",
    "bot_deck": "l",
    "comp_deck": "l",
    "code_deck": "l",
    "code_discard": "l",
    "comp_discard": "l",
    "mission_order": "l",
    "lots": "l",
    "lot_bid": "l",
    "lot_bidder": "l",
    "seat_lot": "l",
    "drew": "l",
    "actor": "i",
    "turn_open": "i",
    "priority": "i",
    "streak": "i",
    "team_of": "l",
    "share": "l",
    "shield": "l",
    "bounty": "l",
    "proposals_left": "l",
    "code_log": "l",
    "cip": "l",
    "draft": "l",
    "draft_share": "i",
    "pending": "p",
    "final_bitz": "l",
    # Unit attempts and successes per ground (comptown, rustland, chiptropolis), for stats().
    "ground_tally": "l",
}


class BetabotzTables:
    """What the rules and the heuristic read from the card set on every action, as lists by
    id, built once per game from its Content by `build_tables`; the BetabotzGame derives from
    this class, and every state reaches it as `state.game`. Plain attributes here; compiled, an
    extension type with C fields (state.pxd), so `g.mission_reward[m]` is a struct read and a
    list index where `content.missions[m].reward` was two attribute lookups on frozen
    dataclasses. The Content stays what the words, the view and the JSON read."""

    def build_tables(self, c: Content) -> None:
        # Names go into the actions legal_actions lists (their words and JSON).
        self.bot_name = [b.name for b in c.betabots]
        self.comp_name = [x.name for x in c.components]
        self.kind_name = [k.name for k in c.codes]
        self.bot_attrs = [list(b.attrs) for b in c.betabots]
        self.bot_min_bid = [b.min_bid for b in c.betabots]
        self.comp_mods = [list(x.mods) for x in c.components]
        self.comp_min_bid = [x.min_bid for x in c.components]
        self.comp_gold = [int(x.gold) for x in c.components]
        self.comp_green = [int(x.green) for x in c.components]
        self.comp_acquire = [x.acquire_cost for x in c.components]
        self.code_kind = list(c.code_card_kind)  # a Code card (instance) -> its kind
        self.card_gold = [int(c.codes[k].gold) for k in c.code_card_kind]
        self.kind_op = [int(k.op) for k in c.codes]
        self.kind_target = [int(k.target) for k in c.codes]
        self.kind_attr = [k.attr for k in c.codes]
        self.breach_attr = [b.attr for b in c.breaches]
        self.breach_effect = [int(b.effect) for b in c.breaches]
        self.breach_amount = [b.amount for b in c.breaches]
        self.mission_ground = [m.ground for m in c.missions]
        self.mission_reward = [m.reward for m in c.missions]
        self.missions_by_ground = [list(ids) for ids in c.missions_by_ground]


class BetabotzState(StateBase):
    """A Betabotz position; compiled, an extension type (state.pxd), so a `StateBase` registered as a
    `State` (see `StateBase`)."""

    # `quiet`: events are not built (silence()); never part of the position.
    __slots__ = (
        "game",
        "content",
        "n",
        "rng",
        "_legal",
        "quiet",
        *FIELDS,
    )

    def __init__(self, game: BetabotzGame) -> None:
        self.game = game
        self.rules_legal_actions = game.rules.legal_actions
        self.rules_apply_action = game.rules.apply_action
        self.content: Content = game.content
        self.n = game.num_players
        self.rng = GameRng(0)
        self._legal: list[Action] | None = None
        self.quiet = False

    # -- protocol basics ----------------------------------------------------------------------
    def current_player(self) -> int:
        if self.stage == ST_OVER:
            return TERMINAL
        if self.pending:
            return self.pending[-1][1]
        if self.stage == ST_AUCTION:
            return self.actor
        return self.priority

    def is_terminal(self) -> bool:
        return self.stage == ST_OVER

    def returns(self) -> list[float]:
        if self.stage != ST_OVER:
            return [0.0] * self.n
        won = self.game.rules.winners(self)
        return [1.0 if s in won else 0.0 for s in range(self.n)]

    def turn_number(self) -> int:
        return self.turn

    def describe_action(self, action: Action) -> str:
        """The choice in words for the deciding seat (narration.py; front ends only)."""
        return self.game.narration.describe_action(self, action)

    # -- clone / JSON -------------------------------------------------------------------------
    def silence(self) -> BetabotzState:
        self.quiet = True
        return self

    def clone(self) -> BetabotzState:
        # Typed, the copies below are C struct writes in the compiled engine.
        c = cython.declare(BetabotzState, BetabotzState.__new__(BetabotzState))
        c.game = self.game
        c.rules_legal_actions = self.rules_legal_actions
        c.rules_apply_action = self.rules_apply_action
        c.content = self.content
        c.n = self.n
        c.rng = self.rng.clone()
        c._legal = self._legal  # never mutated, safe to share
        c.quiet = self.quiet
        c.stage = self.stage
        c.phase = self.phase
        c.revealed = self.revealed
        c.chip = self.chip
        c.bank = self.bank
        c.turn = self.turn
        c.bitz = self.bitz[:]
        c.bot = self.bot[:]
        c.comps = list(map(_copy, self.comps))
        c.damage = list(map(_copy, self.damage))
        c.perm = list(map(_copy, self.perm))
        c.temp = list(map(_copy, self.temp))
        c.hand = list(map(_copy, self.hand))
        c.holder = self.holder[:]
        c.bot_deck = self.bot_deck[:]
        c.comp_deck = self.comp_deck[:]
        c.code_deck = self.code_deck[:]
        c.code_discard = self.code_discard[:]
        c.comp_discard = self.comp_discard[:]
        c.mission_order = self.mission_order[:]
        c.lots = self.lots[:]
        c.lot_bid = self.lot_bid[:]
        c.lot_bidder = self.lot_bidder[:]
        c.seat_lot = self.seat_lot[:]
        c.drew = self.drew[:]
        c.actor = self.actor
        c.turn_open = self.turn_open
        c.priority = self.priority
        c.streak = self.streak
        c.team_of = self.team_of[:]
        c.share = self.share[:]
        c.shield = self.shield[:]
        c.bounty = self.bounty[:]
        c.proposals_left = self.proposals_left[:]
        c.code_log = self.code_log[:]
        c.cip = self.cip[:]
        c.draft = self.draft[:]
        c.draft_share = self.draft_share
        c.pending = self.pending[:]
        c.final_bitz = self.final_bitz[:]
        c.ground_tally = self.ground_tally[:]
        return c

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "game": self.game.name,
            "version": self.game.version,
            "num_players": self.n,
            "options": {k: v for k, v in self.game.options.items()},
            "rng": self.rng.state,
        }
        for name, kind in FIELDS.items():
            value = getattr(self, name)
            if kind == "i":
                data[name] = value
            elif kind == "l":
                data[name] = list(value)
            elif kind == "ll":
                data[name] = [list(x) for x in value]
            else:
                data[name] = [list(x) for x in value]
        return data

    @classmethod
    def from_json(cls, game: BetabotzGame, data: Any) -> BetabotzState:
        if not isinstance(data, dict):
            raise RecordError("betabotz state: expected a JSON object")
        for key in ("game", "num_players", "options", "rng", *FIELDS):
            if key not in data:
                raise RecordError(f"betabotz state: missing field '{key}'")
        if data["game"] != game.name:
            raise RecordError(f"betabotz state: field 'game' is {data['game']!r}, not 'betabotz'")
        if data["num_players"] != game.num_players:
            raise RecordError(
                f"betabotz state: field 'num_players' is {data['num_players']!r}, "
                f"the game has {game.num_players}"
            )
        s = cls(game)
        s.rng = GameRng(_int(data["rng"], "rng"))
        for name, kind in FIELDS.items():
            v = data[name]
            if kind == "i":
                setattr(s, name, _int(v, name))
            elif kind == "l":
                setattr(s, name, _ints(v, name))
            elif kind == "ll":
                if not isinstance(v, list) or len(v) != game.num_players:
                    raise RecordError(
                        f"betabotz state: field '{name}' must be a list of {game.num_players} lists"
                    )
                setattr(s, name, [_ints(x, name) for x in v])
            else:
                if not isinstance(v, list):
                    raise RecordError(f"betabotz state: field '{name}' must be a list")
                out = []
                for x in v:
                    t = _ints(x, name)
                    if len(t) != 3:
                        raise RecordError(f"betabotz state: field '{name}': entries have 3 ints")
                    out.append(tuple(t))
                setattr(s, name, out)
        _check_ranges(s)
        return s

    @cython.locals(
        seat=cython.long,
        s=cython.long,
        pos=cython.Py_ssize_t,
        k=cython.Py_ssize_t,
        g=cython.long,
        i=cython.Py_ssize_t,
        ground_of=list,
        by_ground=list,
        pool=list,
        order=list,
        spots=list,
    )
    def determinize(self, seat: int, rng: random.Random | Any) -> BetabotzState:
        """Resample what `seat` cannot see: other hands, deck orders, future mission identities."""
        c = cython.declare(BetabotzState, self.clone())
        c._legal = None
        if self.stage == ST_OVER:  # every hand was revealed at the end (BZ-10.1)
            c.rng = GameRng(rng.getrandbits(63))
            return c
        # Code cards: other seats' hands and the deck form one unseen pool (BZ-10.2).
        pool = list(c.code_deck)
        for s in range(c.n):
            if s != seat:
                pool.extend(c.hand[s])
        shuffle(rng, pool)  # rng.shuffle(pool), without its per-card Python calls
        pos = 0
        for s in range(c.n):
            if s != seat:
                k = len(c.hand[s])
                c.hand[s] = pool[pos : pos + k]
                pos += k
        c.code_deck = pool[pos:]
        shuffle(rng, c.comp_deck)
        shuffle(rng, c.bot_deck)
        # Future missions: each unrevealed position keeps its (public) ground and takes a mission
        # of that ground that nobody has seen yet (the stack drew from the whole ground deck).
        # The positions of each ground, found in one pass (a new mission keeps its ground).
        order = c.mission_order
        ground_of = c.game.mission_ground
        spots = [[], [], []]
        for i in range(c.revealed, len(order)):
            spots[ground_of[order[i]]].append(i)
        seen = set(order[: c.revealed])
        by_ground = c.game.missions_by_ground
        for g in range(3):
            if not spots[g]:
                continue
            unseen = [m for m in by_ground[g] if m not in seen]
            pick = sample(rng, unseen, len(spots[g]))
            for i, m in zip(spots[g], pick):
                order[i] = m
        c.rng = GameRng(rng.getrandbits(63))
        return c

    # -- derived values used everywhere -------------------------------------------------------
    def attr_text(self, seat: int) -> str:
        return " ".join(f"{ATTR_SHORT[a]} {self.perm[seat][a]}" for a in range(4))


State.register(BetabotzState)


def _int(v: Any, name: str) -> int:
    if not isinstance(v, int) or isinstance(v, bool):
        raise RecordError(f"betabotz state: field '{name}' must be an integer, got {v!r}")
    return v


def _ints(v: Any, name: str) -> list[int]:
    if not isinstance(v, list):
        raise RecordError(f"betabotz state: field '{name}' must be a list of integers")
    for x in v:
        _int(x, name)
    return list(v)


def _check_ranges(s: BetabotzState) -> None:
    n = s.n
    c = s.content
    per_seat = ("bitz", "bot", "seat_lot", "drew", "team_of", "share", "shield", "bounty")
    for name in (*per_seat, "proposals_left"):
        if len(getattr(s, name)) != n:
            raise RecordError(f"betabotz state: field '{name}' must have {n} entries")
    for name in ("perm", "temp", "damage"):
        if any(len(x) != 4 for x in getattr(s, name)):
            raise RecordError(f"betabotz state: field '{name}' must hold 4 attributes per seat")
    if len(s.ground_tally) != 6 or any(x < 0 for x in s.ground_tally):
        raise RecordError("betabotz state: field 'ground_tally' must hold 6 counts >= 0")
    if not 0 <= s.stage <= ST_OVER:
        raise RecordError(f"betabotz state: field 'stage' out of range: {s.stage}")
    if not 0 <= s.chip < n:
        raise RecordError(f"betabotz state: field 'chip' out of range: {s.chip}")
    if len(s.holder) != len(c.breaches):
        raise RecordError(f"betabotz state: field 'holder' must have {len(c.breaches)} entries")
    codes = sorted(s.code_deck + s.code_discard + [x for h in s.hand for x in h])
    if codes != list(range(len(c.code_card_kind))):
        raise RecordError("betabotz state: Code cards are not each in exactly one place")
    for p in s.pending:
        if not 0 <= p[0] < len(PENDING_NAMES) or not 0 <= p[1] < n:
            raise RecordError(f"betabotz state: field 'pending': bad entry {list(p)}")


__all__ = ["ATTRS", "GROUNDS", "BetabotzState"]
