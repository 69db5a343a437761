"""Iotabots match state: plain data (ids, ints, small lists), its clone, JSON and `determinize`.

The bottom of the package: of its siblings it imports only `content` (and `IotabotsGame`, for
type hints). The forward model (`rules.py`, `effects.py`), the view (`view.py`) and the words
(`narration.py`) sit above it; the protocol methods that need them reach them as
`self.game.rules`, `self.game.views` and `self.game.narration`, which `IotabotsGame` wires (the
two every step runs, rules.legal_actions and rules.apply_action, are taken from it when a state
is built).
"""

from __future__ import annotations

import enum
import random
from typing import TYPE_CHECKING, Any

from robotable.core.errors import RecordError
from robotable.core.protocol import TERMINAL, Action, State, StateBase
from robotable.core.rng import GameRng

try:
    import cython
except ImportError:  # no Cython: its declarations do nothing
    from robotable.core import cython_shim as cython

from .content import ZONE_SIZE

if TYPE_CHECKING:
    from . import IotabotsGame

DRAW = 2  # a drawn duel in state.results (the seats are 0 and 1)


class Phase(enum.IntEnum):
    ORDER = 0  # IB-1.3: a seat chooses to go first or second
    MULLIGAN = 1  # IB-3.2
    MAIN1 = 2
    BATTLE = 3
    MAIN2 = 4
    END = 5  # IB-4.6: discarding down to 5
    OVER = 6  # the match is over


# the phases as plain names: the rules test them on every call, and a global beats Phase.X
ORDER, MULLIGAN, MAIN1, BATTLE, MAIN2, END, OVER = tuple(Phase)


class Choice(enum.IntEnum):
    """What a pending effect decision picks (IB-8.4)."""

    BOT = 0  # a Bot on the field
    HAND = 1  # a card in the deciding seat's hand
    JUNK = 2  # a card in the deciding seat's Junk Zone


class IotabotsTables:
    """What the game holds for the rules, built once per game (the `IotabotsGame` object in
    __init__.py derives from this and fills it in `_build_tables`) and shared by every state:
    per card (base stats, triggers, continuous effects), the option switches the rules test and
    the ready-made actions. Plain attributes here; compiled, an extension type with C fields
    (state.pxd), so the rules' `g.base_atk` is a struct read. The Game itself is an ABC, which
    an extension type cannot be; the IotabotsGame class inherits both."""


# A Bot's fields, in the order of its JSON list.
_BOT_FIELDS = (
    "uid",
    "card",
    "owner",
    "entered",
    "attacks",
    "atk_mod",
    "def_mod",
    "home",
    "may_attack",
    "counters",
    "used",
)


class Bot:
    """A Bot (or token) on the field. `entered` is the duel turn it came under its controller.
    Compiled, an extension type with C fields (state.pxd)."""

    __slots__ = _BOT_FIELDS
    FIELDS = _BOT_FIELDS

    def __init__(self, uid: int, card: int, owner: int, entered: int) -> None:
        self.uid = uid
        self.card = card
        self.owner = owner
        self.entered = entered
        self.attacks = 0  # attacks made this turn
        self.atk_mod = 0  # until the end of the turn (IB-8.6 modify)
        self.def_mod = 0
        self.home = -1  # temporary control: the seat whose zone it goes back to at end of turn
        self.may_attack = False  # its card effect lets it attack on the turn it arrived
        self.counters = 0
        self.used = False  # ignition effect used this turn

    def copy(self) -> Bot:
        # `b` is typed in state.pxd (where plain Python never looks; a cython.declare here would
        # be a call per Bot): the copies below are C struct writes in the compiled engine.
        b = Bot.__new__(Bot)
        b.uid = self.uid
        b.card = self.card
        b.owner = self.owner
        b.entered = self.entered
        b.attacks = self.attacks
        b.atk_mod = self.atk_mod
        b.def_mod = self.def_mod
        b.home = self.home
        b.may_attack = self.may_attack
        b.counters = self.counters
        b.used = self.used
        return b

    def to_json(self) -> list:
        return [getattr(self, f) for f in Bot.FIELDS]

    @staticmethod
    def from_json(data: Any, where: str) -> Bot:
        if not isinstance(data, list) or len(data) != len(Bot.FIELDS):
            raise RecordError(f"iotabots state: {where} must be a list of {len(Bot.FIELDS)}")
        b = Bot.__new__(Bot)
        for name, value in zip(Bot.FIELDS, data):
            want = bool if name in ("may_attack", "used") else int
            if not isinstance(value, want) or (want is int and isinstance(value, bool)):
                raise RecordError(f"iotabots state: {where}.{name} must be {want.__name__}")
            if want is int and not -(2**63) <= value < 2**63:
                # compiled, the fields are C longs: both engines take the same range
                raise RecordError(f"iotabots state: {where}.{name} must fit in 64 bits")
            setattr(b, name, value)
        return b


def mulligan_seat(state: IotabotsState) -> int:
    """IB-3.2: the starting player decides first, then the other player."""
    return state.first if not state.kept[state.first] else 1 - state.first


_LIST_FIELDS = ("deck", "hand", "junk")
_SEAT_INT_FIELDS = ("life", "mana", "mana_max", "mulligans")


class IotabotsState(StateBase):
    """An Iotabots match position; compiled, an extension type (state.pxd), so a `StateBase` registered as a
    `State` (see `StateBase`)."""

    __slots__ = (
        "game",
        "_legal",
        "rng",
        # match
        "results",
        "reasons",
        "firsts",
        "chooser",
        "phase",
        "total_turns",
        # duel
        "first",
        "active",
        "turn",
        "deck",
        "hand",
        "known",
        "junk",
        "field",
        "life",
        "mana",
        "mana_max",
        "mulligans",
        "kept",
        "protect",
        "next_uid",
        "resolving",
        "frames",
        "choice",
        "quiet",  # events are not built (silence()); never part of the position
    )

    def __init__(self, game: IotabotsGame, seed: int) -> None:
        self.game = game
        self.rules_legal_actions = game.rules.legal_actions
        self.rules_apply_action = game.rules.apply_action
        self._legal: list[Action] | None = None
        self.quiet = False
        self.rng = GameRng(seed)
        self.results: list[int] = []  # per duel: winning seat, or 2 for a drawn duel
        self.reasons: list[str] = []  # per duel: how it ended
        self.firsts: list[int] = []  # per duel: the starting player
        self.chooser = 0  # who chooses first/second (IB-1.3)
        self.phase = Phase.ORDER
        self.total_turns = 0
        self.first = 0
        self.active = 0
        self.turn = 0  # turn number within the duel, 1 = the starting player's first turn
        self.deck: list[list[int]] = [[], []]  # top of the deck is the end of the list
        self.hand: list[list[int]] = [[], []]
        # cards every seat saw go into a hand (Recall, Callback): part of the hand, but public
        self.known: list[list[int]] = [[], []]
        self.junk: list[list[int]] = [[], []]
        self.field: list[list[Bot]] = [[], []]
        self.life = [20, 20]
        self.mana = [0, 0]
        self.mana_max = [0, 0]
        self.mulligans = [0, 0]
        self.kept = [False, False]  # IB-3.2: the seat's opening hand is final
        self.protect = [False, False]  # Bot Protect: until that seat's next Standby Phase
        self.next_uid = 1
        self.resolving = -1  # the Buzz card being resolved (its owner is the active seat)
        # Effect resolution stack (IB-8.5): [card, effect, step, controller, source uid, battled uid]
        self.frames: list[tuple[int, int, int, int, int, int]] = []
        self.choice: tuple[int, int] | None = None  # (Choice, deciding seat) of the top frame

    # -- protocol ------------------------------------------------------------------------------
    def current_player(self) -> int:
        phase = self.phase
        if phase == Phase.OVER:
            return TERMINAL
        if self.choice is not None:
            return self.choice[1]
        if phase == Phase.ORDER:
            return self.chooser
        if phase == Phase.MULLIGAN:
            return mulligan_seat(self)
        return self.active

    def is_terminal(self) -> bool:
        return self.phase == Phase.OVER

    def returns(self) -> list[float]:
        """IB-1.2: the match result; a drawn match shares the point."""
        if self.phase != Phase.OVER:
            return [0.0, 0.0]
        w0 = self.results.count(0)
        w1 = self.results.count(1)
        if w0 > w1:
            return [1.0, 0.0]
        if w1 > w0:
            return [0.0, 1.0]
        return [0.5, 0.5]

    def turn_number(self) -> int:
        return self.total_turns

    def describe_action(self, action: Action) -> str:
        """The choice in words for the deciding seat (cards by name, never by slot)."""
        return self.game.narration.describe_action(self, action)

    def silence(self) -> IotabotsState:
        self.quiet = True
        return self

    def clone(self) -> IotabotsState:
        # `s` is typed in state.pxd: the copies below are C struct writes in the compiled engine.
        s = IotabotsState.__new__(IotabotsState)
        s.game = self.game
        s.rules_legal_actions = self.rules_legal_actions
        s.rules_apply_action = self.rules_apply_action
        s._legal = self._legal
        s.quiet = self.quiet
        s.rng = self.rng.clone()
        s.results = self.results[:]
        s.reasons = self.reasons[:]
        s.firsts = self.firsts[:]
        s.chooser = self.chooser
        s.phase = self.phase
        s.total_turns = self.total_turns
        s.first = self.first
        s.active = self.active
        s.turn = self.turn
        s.deck = [self.deck[0][:], self.deck[1][:]]
        s.hand = [self.hand[0][:], self.hand[1][:]]
        s.known = [self.known[0][:], self.known[1][:]]
        s.junk = [self.junk[0][:], self.junk[1][:]]
        s.field = [[b.copy() for b in self.field[0]], [b.copy() for b in self.field[1]]]
        s.life = self.life[:]
        s.mana = self.mana[:]
        s.mana_max = self.mana_max[:]
        s.mulligans = self.mulligans[:]
        s.kept = self.kept[:]
        s.protect = self.protect[:]
        s.next_uid = self.next_uid
        s.resolving = self.resolving
        s.frames = self.frames[:]
        s.choice = self.choice
        return s

    # -- visibility (IB-11): hands and deck order are secret; everything else is public ----------
    # (`view` and `observation_view` are the protocol's, answered by `game.views`: view.py)
    def determinize(self, seat: int, rng: random.Random | Any) -> IotabotsState:
        """IB-11.2: resample what `seat` cannot see. The opponent's hand and deck are pooled and
        dealt again (sizes kept; deck lists are open; cards publicly returned to the hand stay),
        `seat`'s own deck is reordered, and the
        copy gets a fresh GameRng drawn from `rng`."""
        s = cython.declare(IotabotsState, self.clone())
        s._legal = None
        other = 1 - seat
        r = rng.random  # a shuffle by random keys: uniform, and cheaper than rng.shuffle
        hidden = s.hand[other]
        known = s.known[other]
        if known:
            hidden = hidden[:]
            for c in known:
                hidden.remove(c)
        pool = [c for _, c in sorted([(r(), c) for c in hidden + s.deck[other]])]
        n = len(hidden)
        s.hand[other] = sorted(known + pool[:n])
        s.deck[other] = pool[n:]
        s.deck[seat] = [c for _, c in sorted([(r(), c) for c in s.deck[seat]])]
        s.rng = GameRng(rng.getrandbits(63))
        return s

    # -- JSON ----------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        g = self.game
        return {
            "game": g.name,
            "num_players": g.num_players,
            "options": dict(g.options),
            "rng": self.rng.state,
            "results": self.results[:],
            "reasons": self.reasons[:],
            "firsts": self.firsts[:],
            "chooser": self.chooser,
            "phase": int(self.phase),
            "total_turns": self.total_turns,
            "first": self.first,
            "active": self.active,
            "turn": self.turn,
            "deck": [x[:] for x in self.deck],
            "hand": [x[:] for x in self.hand],
            "known": [x[:] for x in self.known],
            "junk": [x[:] for x in self.junk],
            "field": [[b.to_json() for b in f] for f in self.field],
            "life": self.life[:],
            "mana": self.mana[:],
            "mana_max": self.mana_max[:],
            "mulligans": self.mulligans[:],
            "kept": self.kept[:],
            "protect": self.protect[:],
            "next_uid": self.next_uid,
            "resolving": self.resolving,
            "frames": [list(f) for f in self.frames],
            "choice": list(self.choice) if self.choice is not None else None,
        }

    @classmethod
    def from_json(cls, game: IotabotsGame, data: Any) -> IotabotsState:
        def fail(field: str, what: str) -> RecordError:
            return RecordError(f"iotabots state: field '{field}' {what}")

        if not isinstance(data, dict):
            raise RecordError("iotabots state: expected a JSON object")
        if data.get("game") != game.name:
            raise fail("game", f"must be '{game.name}', got {data.get('game')!r}")
        n_cards = len(game.pool.cards)

        def get(field: str) -> Any:
            if field not in data:
                raise fail(field, "is missing")
            return data[field]

        # hi: compiled, the counters are C longs; the rng's state (to 2**64 - 1) passes its own
        def integer(field: str, lo: int = -(2**63), hi: int = 2**63 - 1) -> int:
            v = get(field)
            if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
                raise fail(field, f"must be an integer in [{lo}, {hi}], got {v!r}")
            return v

        def pair(field: str, kind: type) -> list:
            v = get(field)
            if not isinstance(v, list) or len(v) != 2:
                raise fail(field, "must be a list of 2 (one per seat)")
            for x in v:
                if not isinstance(x, kind) or (kind is int and isinstance(x, bool)):
                    raise fail(field, f"must hold {kind.__name__} values, got {x!r}")
            return list(v)

        def card_lists(field: str) -> list[list[int]]:
            v = pair(field, list)
            for lst in v:
                for x in lst:
                    if not isinstance(x, int) or isinstance(x, bool) or not 0 <= x < n_cards:
                        raise fail(field, f"holds an unknown card index {x!r}")
            return [list(x) for x in v]

        s = cls.__new__(cls)
        s.game = game
        s.rules_legal_actions = game.rules.legal_actions
        s.rules_apply_action = game.rules.apply_action
        s._legal = None
        s.quiet = False
        s.rng = GameRng(integer("rng", 0, 2**64 - 1))
        results = get("results")
        if not isinstance(results, list) or any(r not in (0, 1, 2) for r in results):
            raise fail("results", "must be a list of 0, 1 or 2")
        s.results = list(results)
        reasons = get("reasons")
        if not isinstance(reasons, list) or not all(isinstance(r, str) for r in reasons):
            raise fail("reasons", "must be a list of strings")
        s.reasons = list(reasons)
        firsts = get("firsts")
        if not isinstance(firsts, list) or any(f not in (0, 1) for f in firsts):
            raise fail("firsts", "must be a list of seats 0 or 1")
        s.firsts = [int(f) for f in firsts]
        s.chooser = integer("chooser", 0, 1)
        s.phase = Phase(integer("phase", 0, len(Phase) - 1))
        s.total_turns = integer("total_turns", 0)
        s.first = integer("first", 0, 1)
        s.active = integer("active", 0, 1)
        s.turn = integer("turn", 0)
        s.deck = card_lists("deck")
        s.hand = card_lists("hand")
        s.known = card_lists("known")
        for i in range(2):
            rest = list(s.hand[i])
            for c in s.known[i]:
                if c not in rest:
                    raise fail("known", f"seat {i}: card {c} is not in that hand")
                rest.remove(c)
        s.junk = card_lists("junk")
        fields = pair("field", list)
        s.field = [
            [Bot.from_json(b, f"field[{i}][{j}]") for j, b in enumerate(fields[i])]
            for i in range(2)
        ]
        for i in range(2):
            if len(s.field[i]) > ZONE_SIZE:
                raise fail("field", f"seat {i} has more than {ZONE_SIZE} Bots")
            for b in s.field[i]:
                if b.card not in game.in_play or b.owner not in (0, 1):
                    raise fail("field", f"seat {i} holds a Bot of no deck, or a bad owner")
        s.life = pair("life", int)
        s.mana = pair("mana", int)
        s.mana_max = pair("mana_max", int)
        s.mulligans = pair("mulligans", int)
        s.kept = pair("kept", bool)
        s.protect = pair("protect", bool)
        s.next_uid = integer("next_uid", 0)
        s.resolving = integer("resolving", -1, n_cards - 1)
        frames = get("frames")
        if not isinstance(frames, list):
            raise fail("frames", "must be a list")
        s.frames = []
        for f in frames:
            if (
                not isinstance(f, list)
                or len(f) != 6
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in f)
                or not 0 <= f[0] < n_cards
                or not 0 <= f[1] < len(game.pool.cards[f[0]].effects)
            ):
                raise fail("frames", f"holds a malformed frame {f!r}")
            s.frames.append(tuple(f))
        choice = get("choice")
        if choice is None:
            s.choice = None
        elif (
            isinstance(choice, list)
            and len(choice) == 2
            and choice[0] in (0, 1, 2)
            and choice[1] in (0, 1)
            and s.frames
        ):
            s.choice = (int(choice[0]), int(choice[1]))
        else:
            raise fail("choice", f"must be null or [kind 0..2, seat 0..1], got {choice!r}")
        return s


State.register(IotabotsState)
