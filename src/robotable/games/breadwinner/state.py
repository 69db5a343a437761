"""Bread Winner state: plain data (small int lists, the turn steps and the tally slots), a
hand-written clone, JSON and the visibility model.

This is the package's data layer: of the game's own modules it imports only board.py (and the
Game class, for types only). The forward model (rules.py), the view (view.py) and the words
(narration.py) import it, so the state reaches them through its game (`self.game.rules`,
`self.game.views`, `self.game.narration`, set on the Game class in __init__.py; the two every
step runs are taken from it when a state is built) and never imports them.

Visibility model (BW-8, one place for view, events and determinize): every die, the loaves, the
poison chips, the Discarded Harvest and every face-up (carried, or dropped after being seen) crop
chip are public. Hidden from BOTH seats: the values of face-down planted chips and of the chips
in the crop pile. `view` shows a face-down chip without its value and the pile as a count;
no event ever carries a hidden value (planting names no value); `determinize` deals the hidden
chip ids again at random over the pile and the face-down tiles.
"""

from __future__ import annotations

import random
from enum import IntEnum
from typing import TYPE_CHECKING, Any

from robotable.core.errors import RecordError
from robotable.core.protocol import TERMINAL, Action, State, StateBase
from robotable.core.rng import GameRng

try:
    import cython
except ImportError:  # no Cython: its declarations do nothing
    from robotable.core import cython_shim as cython

from .board import (
    DICE_PER_SEAT,
    FACTORY_LOC0,
    IS_LAND,
    LOC_PILE,
    NUM_DICE,
    NUM_LOAVES,
    NUM_TILES,
    TILE_NAMES,
    Face,
    die_name,
)

if TYPE_CHECKING:
    from . import BreadWinnerGame


class Phase(IntEnum):
    """The step of the turn a state stands at (BW-4), saved by name in the JSON."""

    MAP = 0  # step 1: each map bot moves one step or acts
    FOLLOW = 1  # pending decision: the bot that just moved may take an offensive action / unload
    DEPLOY = 2  # step 2: factory bots move onto the map
    BUILD = 3  # step 3: the roll is made; place bots on empty factories
    DEACT = 4  # step 4: return own bots to the pile
    OVER = 5


# Plain ints for the hot path (an enum member lookup costs more than a module global).
P_MAP, P_FOLLOW, P_DEPLOY, P_BUILD, P_DEACT, P_OVER = 0, 1, 2, 3, 4, 5

# Tally slots (per seat) for State.stats(); rules.py counts into them.
TALLY = (
    "deliveries",
    "loaves_delivered",
    "loaves_taken_from_rival",
    "plants",
    "restores",
    "harvests",
    "steals",
    "poisons",
    "meltdowns",
    "pulses",
    "pulses_absorbed",
    "bots_built",
    "research_builds",
    "deactivations",
)
TALLY_INDEX = {name: i for i, name in enumerate(TALLY)}
T_DELIVERIES, T_LOAVES, T_TAKEN, T_PLANTS, T_RESTORES, T_HARVESTS, T_STEALS = range(7)
T_POISONS, T_MELTDOWNS, T_PULSES, T_ABSORBED, T_BUILT, T_RESEARCH, T_DEACT = range(7, 14)
NUM_TALLY = len(TALLY)

PHASE_NAMES = {p: p.name.lower() for p in Phase}
PHASE_BY_NAME = {name: p for p, name in PHASE_NAMES.items()}
STEP_TEXT = {
    Phase.MAP: "step 1: move one step or act with each bot on the map",
    Phase.FOLLOW: "step 1: the bot that just moved may still take an offensive action",
    Phase.DEPLOY: "step 2: move bots from the BotFactories onto the map",
    Phase.BUILD: "step 3: build rolled bots onto empty BotFactories",
    Phase.DEACT: "step 4: deactivate any of your bots back to the dice pile",
    Phase.OVER: "the game is over",
}


class BreadWinnerState(StateBase):
    """A Bread Winner position; compiled, an extension type (state.pxd), so a `StateBase`
    registered as a `State` (see `StateBase`). `phase` and `follow_ret` hold plain ints
    (P_MAP...), equal to the `Phase` members; readers compare them or go through `Phase(...)`."""

    # `_opening`: the events of the opening roll, set by __init__ only (never cloned nor saved).
    __slots__ = (
        "game",
        "rng",
        "seat",
        "first",
        "turn",
        "phase",
        "follow",
        "follow_ret",
        "roll",
        "loc",
        "face",
        "carry",
        "used",
        "crop",
        "known",
        "poison",
        "pile",
        "discards",
        "loaves",
        "centre",
        "winner",
        "reason",
        "tally",
        "_legal",
        "_opening",
        "quiet",  # events are not built (silence()); never part of the position
    )

    def __init__(self, game: BreadWinnerGame, seed: int) -> None:
        self.game = game
        self.rules_legal_actions = game.rules.legal_actions
        self.rules_apply_action = game.rules.apply_action
        self.quiet = False
        self.rng = GameRng(seed)
        choice = game.options["first_player"]
        self.first = self.rng.below(2) if choice == "random" else int(choice[-1])
        self.seat = self.first
        self.turn = 1
        self.phase = P_BUILD
        self.follow = -1
        self.follow_ret = P_MAP
        self.roll: list[int] | None = None
        self.loc = [LOC_PILE] * NUM_DICE  # BW-3.1: every die starts in its owner's pile
        self.face = [0] * NUM_DICE
        self.carry = [-1] * NUM_DICE
        self.used = [False] * NUM_DICE
        self.crop = [-1] * NUM_TILES
        self.known = [False] * NUM_TILES
        self.poison = [False] * NUM_TILES
        self.pile = list(range(len(game.crop_values)))
        self.discards: list[int] = []
        self.loaves = [0, 0]
        self.centre = NUM_LOAVES
        self.winner = -1
        self.reason = ""
        self.tally = [0] * (2 * NUM_TALLY)
        self._legal: list[Action] | None = None
        # The rules make the first player's opening roll and the first decision. Its events are
        # kept for the front ends' log (never cloned nor saved).
        self._opening = game.rules.setup(self)

    # -- protocol -----------------------------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.phase == P_OVER else self.seat

    def is_terminal(self) -> bool:
        return self.phase == P_OVER

    def returns(self) -> list[float]:
        if self.phase != P_OVER:
            return [0.0, 0.0]
        if self.winner < 0:
            return [0.5, 0.5]
        return [1.0, 0.0] if self.winner == 0 else [0.0, 1.0]

    def turn_number(self) -> int:
        return self.turn

    def opening_events(self) -> list[dict[str, Any]]:
        return list(getattr(self, "_opening", None) or [])

    def clone(self) -> BreadWinnerState:
        # Typed, the copies below are C struct writes in the compiled engine.
        twin = cython.declare(BreadWinnerState, BreadWinnerState.__new__(BreadWinnerState))
        twin.game = self.game
        twin.rules_legal_actions = self.rules_legal_actions
        twin.rules_apply_action = self.rules_apply_action
        twin.rng = self.rng.clone()
        twin.seat = self.seat
        twin.first = self.first
        twin.turn = self.turn
        twin.phase = self.phase
        twin.follow = self.follow
        twin.follow_ret = self.follow_ret
        twin.roll = None if self.roll is None else self.roll[:]
        twin.loc = self.loc[:]
        twin.face = self.face[:]
        twin.carry = self.carry[:]
        twin.used = self.used[:]
        twin.crop = self.crop[:]
        twin.known = self.known[:]
        twin.poison = self.poison[:]
        twin.pile = self.pile[:]
        twin.discards = self.discards[:]
        twin.loaves = self.loaves[:]
        twin.centre = self.centre
        twin.winner = self.winner
        twin.reason = self.reason
        twin.tally = self.tally[:]
        twin._legal = self._legal  # never mutated, so it may be shared
        twin.quiet = self.quiet
        return twin

    def silence(self) -> BreadWinnerState:
        self.quiet = True
        return self

    def determinize(self, seat: int, rng: random.Random | Any) -> BreadWinnerState:
        """Deal the hidden chips (crop pile and face-down unseen crops) again at random (BW-8)."""
        twin = cython.declare(BreadWinnerState, self.clone())
        # The pile is drawn from at random, so its order never matters: only the face-down
        # unseen crops need fresh chips, each taken at random from the hidden pool.
        crop, known = twin.crop, twin.known
        hidden = [t for t in (1, 2, 3, 4) if crop[t] >= 0 and not known[t]]
        if hidden:
            pool = twin.pile
            pool.extend(crop[t] for t in hidden)
            for tile in hidden:
                j = rng.randrange(len(pool))
                pool[j], pool[-1] = pool[-1], pool[j]
                crop[tile] = pool.pop()
        twin.rng = GameRng(rng.getrandbits(63))
        return twin

    def describe_action(self, action: Action) -> str:
        return self.game.narration.describe_action(self, action)

    # -- JSON ---------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game.name,
            "num_players": self.game.num_players,
            "options": self.game.json_options(),
            "seat": self.seat,
            "first": self.first,
            "turn": self.turn,
            "phase": PHASE_NAMES[Phase(self.phase)],
            "follow": self.follow,
            "follow_ret": PHASE_NAMES[Phase(self.follow_ret)],
            "roll": None if self.roll is None else self.roll[:],
            "loc": self.loc[:],
            "face": self.face[:],
            "carry": self.carry[:],
            "used": self.used[:],
            "crop": self.crop[:],
            "known": self.known[:],
            "poison": self.poison[:],
            "pile": self.pile[:],
            "discards": self.discards[:],
            "loaves": self.loaves[:],
            "centre": self.centre,
            "winner": self.winner,
            "reason": self.reason,
            "tally": self.tally[:],
            "rng": self.rng.state,
        }

    @classmethod
    def from_json(cls, game: BreadWinnerGame, data: dict[str, Any]) -> BreadWinnerState:
        return _StateReader(game, data).read()


State.register(BreadWinnerState)


class _StateReader:
    """Rebuilds a state from JSON, rejecting malformed data with one line naming the field."""

    def __init__(self, game: BreadWinnerGame, data: Any) -> None:
        self.game = game
        self.data = data

    def fail(self, field: str, why: str) -> RecordError:
        return RecordError(f"breadwinner state, field '{field}': {why}")

    def get(self, field: str) -> Any:
        if field not in self.data:
            raise self.fail(field, "missing")
        return self.data[field]

    def integer(self, field: str, low: int, high: int) -> int:
        value = self.get(field)
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise self.fail(field, f"expected an integer {low}..{high}, got {value!r}")
        return value

    def ints(self, field: str, length: int | None, low: int, high: int) -> list[int]:
        value = self.get(field)
        if not isinstance(value, list) or (length is not None and len(value) != length):
            raise self.fail(field, f"expected a list of {length} integers")
        for item in value:
            if not isinstance(item, int) or isinstance(item, bool) or not low <= item <= high:
                raise self.fail(field, f"expected integers {low}..{high}, got {item!r}")
        return list(value)

    def bools(self, field: str, length: int) -> list[bool]:
        value = self.get(field)
        if not isinstance(value, list) or len(value) != length:
            raise self.fail(field, f"expected a list of {length} booleans")
        if not all(isinstance(item, bool) for item in value):
            raise self.fail(field, "expected booleans")
        return list(value)

    def phase(self, field: str) -> Phase:
        value = self.get(field)
        if value not in PHASE_BY_NAME:
            raise self.fail(field, f"unknown phase {value!r}")
        return PHASE_BY_NAME[value]

    def read(self) -> BreadWinnerState:
        game = self.game
        if not isinstance(self.data, dict):
            raise RecordError("breadwinner state: expected a JSON object")
        if self.get("game") != game.name:
            raise self.fail("game", f"expected '{game.name}', got {self.data['game']!r}")
        if self.get("num_players") != game.num_players:
            raise self.fail("num_players", f"expected {game.num_players}")
        if self.get("options") != game.json_options():
            raise self.fail("options", "differ from the game's options")
        st = BreadWinnerState.__new__(BreadWinnerState)
        st.game = game
        st.rules_legal_actions = game.rules.legal_actions
        st.rules_apply_action = game.rules.apply_action
        st.quiet = False
        chips = len(game.crop_values)
        st.seat = self.integer("seat", 0, 1)
        st.first = self.integer("first", 0, 1)
        st.turn = self.integer("turn", 1, 2 * game.max_turns)
        st.phase = int(self.phase("phase"))
        st.follow = self.integer("follow", -1, NUM_DICE - 1)
        st.follow_ret = int(self.phase("follow_ret"))
        roll = self.get("roll")
        st.roll = None if roll is None else self.ints("roll", 6, 0, DICE_PER_SEAT)
        st.loc = self.ints("loc", NUM_DICE, LOC_PILE, FACTORY_LOC0 + 4)
        st.face = self.ints("face", NUM_DICE, 0, 5)
        st.carry = self.ints("carry", NUM_DICE, -1, chips - 1)
        st.used = self.bools("used", NUM_DICE)
        st.crop = self.ints("crop", NUM_TILES, -1, chips - 1)
        st.known = self.bools("known", NUM_TILES)
        st.poison = self.bools("poison", NUM_TILES)
        st.pile = self.ints("pile", None, 0, chips - 1)
        st.discards = self.ints("discards", None, 0, chips - 1)
        st.loaves = self.ints("loaves", 2, 0, NUM_LOAVES)
        st.centre = self.integer("centre", 0, NUM_LOAVES)
        st.winner = self.integer("winner", -1, 1)
        reason = self.get("reason")
        if not isinstance(reason, str):
            raise self.fail("reason", "expected a string")
        st.reason = reason
        st.tally = self.ints("tally", 2 * NUM_TALLY, 0, 1 << 30)
        rng = self.get("rng")
        if not isinstance(rng, int) or isinstance(rng, bool) or not 0 <= rng < 1 << 64:
            raise self.fail("rng", "expected a 64-bit unsigned integer")
        st.rng = GameRng(rng)
        st._legal = None
        self.check(st)
        return st

    def check(self, st: BreadWinnerState) -> None:
        """Conservation and placement invariants (BW-3)."""
        if sum(st.loaves) + st.centre != NUM_LOAVES:
            raise self.fail("loaves", f"loaves and centre must add up to {NUM_LOAVES}")
        places = (
            st.pile + st.discards + [c for c in st.crop if c >= 0] + [c for c in st.carry if c >= 0]
        )
        if sorted(places) != list(range(len(self.game.crop_values))):
            raise self.fail("pile", "every crop chip must be in exactly one place")
        for die in range(NUM_DICE):
            loc, face = st.loc[die], st.face[die]
            if (loc == LOC_PILE) != (face == 0):
                raise self.fail(
                    "loc",
                    f"die {die_name(die)}: a die shows a face (1-5) exactly when off the pile",
                )
            if st.carry[die] >= 0 and (face != Face.HARVESTER or not 0 <= loc < NUM_TILES):
                raise self.fail("carry", f"die {die_name(die)}: only map Harvesters carry")
        for t in range(NUM_TILES):
            if sum(1 for d in range(NUM_DICE) if st.loc[d] == t) > 2:
                raise self.fail("loc", f"tile {TILE_NAMES[t]} holds more than two bots")
            if (st.crop[t] >= 0 or st.poison[t]) and not IS_LAND[t]:
                raise self.fail("crop", f"tile {TILE_NAMES[t]} is not Land")
        seen = set()
        for die in range(NUM_DICE):
            loc = st.loc[die]
            if loc > FACTORY_LOC0:
                key = (die // DICE_PER_SEAT, loc)
                if key in seen:
                    raise self.fail("loc", f"two bots on one factory ({die_name(die)})")
                seen.add(key)
        if st.phase == P_FOLLOW and st.follow < 0:
            raise self.fail("follow", "a follow-up decision needs its bot")
        if (st.phase == P_OVER) != bool(st.reason):
            raise self.fail("reason", "set exactly when the game is over")
