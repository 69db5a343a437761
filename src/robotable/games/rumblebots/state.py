"""Rumblebots state: plain data (ids and small lists), its constants, clone, JSON, determinize.

This is the data layer: it imports nothing from the rules or the views. The protocol methods that
need them (`_legal_actions`, `_apply`, `view`, `prompt`, `describe_action`) reach them through
the game, whose class (in `__init__.py`) holds the modules.

Visibility model (one place, RB-9): everything is public except (a) the order of every tier deck
and of every battle deck (hidden from everybody; cards put on top or under a battle deck face
down by Reboot and revive stay known), and (b) a scanned hand, seen only by its owner (others see
how many cards of which tier). `view`, the "to" of the `scanned` event and `determinize` all
follow this model.
"""

from __future__ import annotations

import random
from typing import Any

from robotable.core.errors import RecordError
from robotable.core.protocol import TERMINAL, Action, State, StateBase
from robotable.core.rng import GameRng, shuffle

try:
    import cython
except ImportError:  # no Cython: its declarations do nothing
    from robotable.core import cython_shim as cython

# Phases (the `phase` field) and the round of the Showdown (the `round` field runs 1-6).
BUILD, BATTLE, OVER = 0, 1, 2
SHOWDOWN = 6
ROW_SIZE = 4  # Laboratory slots per tier row (the `lab` field)

# Pending decision kinds (the `pending` stack entries are (kind, seat, source card id, flag)).
P_FACTION = 0
P_ATTACK_WINDOW = 1
P_DEFEND_WINDOW = 2
P_TARGET_DEFEAT = 3
P_TARGET_REVIVE = 4
PENDING_NAMES = ("faction", "attack_window", "defense_window", "target_defeat", "target_revive")

# flag of a target decision: where its source is (an Enter bot in the gang, a Reboot bot
# already under its owner's deck, or a Contraption); informational, for views and logs
SRC_BOT = 0
SRC_REBOOT = 1
SRC_CONTRAPTION = 2


_LIST_FIELDS = (
    "scraps", "tier", "storage", "reactor", "cryo", "active", "known_top", "known_bottom",
    "spaces", "order",
)  # fmt: skip
_NESTED_FIELDS = ("collection", "fresh", "hand", "decks", "lab", "bdeck", "discard", "used")
_ID_LISTS = ("transform_deck", "recycled", "reserve", "defense", "attack")
_INT_FIELDS = (
    "round", "phase", "champion", "first_champion", "direction", "turn_pos", "builds",
    "upgrades", "energizes", "supply", "challenger", "last_challenger", "bstep", "atk_mod",
    "crit_mod", "def_mod", "bar_mod", "reboots", "reveals", "winner", "turns", "battle_no",
    "clashes",
)  # fmt: skip
_BOOL_FIELDS = ("offered", "forced")


class RumblebotsTables:
    """What the game holds for the rules and every state shares: the seat count, the options,
    the card set, its cards by id and the per-card tables of the build phase (rules.card_tables),
    of the battle (effects.battle_tables) and of the heuristic (heuristic.card_powers). The
    Rumblebots Game object (__init__.py) derives from this and fills it. Plain attributes
    here; compiled, an extension type with C fields (state.pxd), so the rules' `s.game.cards`
    is a struct read, not two attribute lookups. The Game itself is an ABC, which an extension
    type cannot be; the Game class inherits both."""


class RumblebotsState(StateBase):
    """A Rumblebots position; compiled, an extension type (state.pxd), so a `StateBase` registered as a
    `State` (see `StateBase`)."""

    __slots__ = (
        "game", "_legal", "rng", "round", "phase", "champion", "first_champion", "direction",
        "order", "turn_pos", "scraps", "tier", "storage", "reactor", "cryo", "collection", "fresh",
        "hand", "builds", "upgrades", "energizes", "decks", "lab", "lab_open",
        "transform_deck", "recycled", "reserve", "supply", "spaces", "active", "bdeck",
        "known_top", "known_bottom", "discard", "used", "defense", "attack", "challenger",
        "last_challenger", "bstep", "atk_mod", "crit_mod", "def_mod", "bar_mod", "reboots",
        "reveals", "offered", "forced", "pending", "log", "winner", "end_reason", "turns",
        "battle_no", "clashes", "opening", "quiet",
    )  # fmt: skip

    def __init__(self, game: Any) -> None:
        n = game.num_players
        self.game = game
        self.rules_legal_actions = game.rules.legal_actions
        self.rules_apply_action = game.rules.apply_action
        self._legal: list[Action] | None = None
        self.rng = GameRng(0)
        self.round = 1
        self.phase = BUILD
        self.champion = 0
        self.first_champion = 0  # who held the token in round 1 (RB-2.5's head start)
        self.direction = 1
        self.order: list[int] = list(range(n))
        self.turn_pos = 0
        self.scraps = [0] * n
        self.tier = [1] * n
        self.storage = [0] * n
        self.reactor = [0] * n
        self.cryo = [0] * n
        self.collection: list[list[int]] = [[] for _ in range(n)]
        self.fresh: list[list[int]] = [[] for _ in range(n)]
        self.hand: list[list[int]] = [[] for _ in range(n)]
        self.builds = self.upgrades = self.energizes = 0
        self.decks: list[list[int]] = [[] for _ in range(5)]
        self.lab: list[list[int]] = [[-1] * ROW_SIZE for _ in range(5)]
        self.lab_open = [False] * 5
        self.transform_deck: list[int] = []
        self.recycled: list[int] = []
        self.reserve: list[int] = []
        self.supply = 0
        self.spaces: list[int] = []
        self.active = [True] * n
        self.bdeck: list[list[int]] = [[] for _ in range(n)]
        self.known_top = [0] * n
        self.known_bottom = [0] * n
        self.discard: list[list[int]] = [[] for _ in range(n)]
        self.used: list[list[int]] = [[] for _ in range(n)]
        self.defense: list[int] = []
        self.attack: list[int] = []
        self.challenger = -1
        self.last_challenger = -1
        self.bstep = 0
        self.atk_mod = self.crit_mod = self.def_mod = self.bar_mod = 0
        self.reboots = 0
        self.reveals = 0
        self.offered = False
        self.forced = False
        self.pending: list[tuple[int, int, int, int]] = []
        self.log: tuple | None = None  # cons list (previous, entry): shared by clones
        self.winner = -1
        self.end_reason = ""
        self.turns = 0
        self.battle_no = 0
        self.clashes = 0
        self.quiet = False  # events not built (silence()); never part of the position

    # ------------------------------------------------------------------ log and battle deck
    def add_log(self, entry: tuple) -> None:
        # One tuple, not *entry: compiled, a method with a starred parameter is a Python call
        # by name from the rules, a few per battle step (its lookups were some 4% of a random
        # game's profile); this one is a C call (state.pxd).
        self.log = (self.log, entry)

    def log_entries(self) -> list[tuple]:
        out = []
        node = self.log
        while node is not None:
            node, entry = node
            out.append(entry)
        out.reverse()
        return out

    def draw_top(self, seat: int) -> int:
        """Take the top card of `seat`'s battle deck, keeping the known top and bottom counts
        (what `view` and `determinize` treat as seen) true."""
        deck = self.bdeck[seat]
        cid = deck.pop()
        if self.known_top[seat]:
            self.known_top[seat] -= 1
        elif self.known_bottom[seat] > len(deck):
            self.known_bottom[seat] = len(deck)
        return cid

    # The rules' helpers that tests and tools call on a state; the rules themselves live in
    # effects.py (imported by rules.py), reached here through the game.
    def refill_defense(self, ev: list) -> None:
        """Ruling RB-5.3 (effects.refill_defense)."""
        self.game.rules.refill_defense(self, ev)

    def create_crystals(self, seat: int, amount: int, ev: list, card: str) -> None:
        """RB-8.7 (effects.create_crystals)."""
        self.game.rules.create_crystals(self, seat, amount, ev, card)

    # ------------------------------------------------------------------ protocol
    def current_player(self) -> int:
        if self.phase == OVER:
            return TERMINAL
        if self.pending:
            return self.pending[-1][1]
        return self.order[self.turn_pos]

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def returns(self) -> list[float]:
        n = self.game.num_players
        if self.phase != OVER:
            return [0.0] * n
        return [1.0 if p == self.winner else 0.0 for p in range(n)]

    def turn_number(self) -> int:
        return self.turns

    def opening_events(self) -> list[dict[str, Any]]:
        # Setup's events (the first Champion's crystal, the first row, round 1's first income),
        # told before the first move; a clone or a record read back has none to tell.
        return list(getattr(self, "opening", None) or [])

    def silence(self) -> RumblebotsState:
        self.quiet = True
        return self

    def clone(self) -> RumblebotsState:
        # Typed, the copies below are C struct writes in the compiled engine.
        c = cython.declare(RumblebotsState, RumblebotsState.__new__(RumblebotsState))
        c.game = self.game
        c.rules_legal_actions = self.rules_legal_actions
        c.rules_apply_action = self.rules_apply_action
        c._legal = self._legal
        c.rng = self.rng.clone()
        c.round = self.round
        c.phase = self.phase
        c.champion = self.champion
        c.first_champion = self.first_champion
        c.direction = self.direction
        c.order = self.order[:]
        c.turn_pos = self.turn_pos
        c.scraps = self.scraps[:]
        c.tier = self.tier[:]
        c.storage = self.storage[:]
        c.reactor = self.reactor[:]
        c.cryo = self.cryo[:]
        c.collection = [z[:] for z in self.collection]
        c.fresh = [z[:] for z in self.fresh]
        c.hand = [z[:] for z in self.hand]
        c.builds = self.builds
        c.upgrades = self.upgrades
        c.energizes = self.energizes
        c.decks = [z[:] for z in self.decks]
        c.lab = [z[:] for z in self.lab]
        c.lab_open = self.lab_open[:]
        c.transform_deck = self.transform_deck[:]
        c.recycled = self.recycled[:]
        c.reserve = self.reserve  # never changes after setup
        c.supply = self.supply
        c.spaces = self.spaces[:]
        c.active = self.active[:]
        c.bdeck = [z[:] for z in self.bdeck]
        c.known_top = self.known_top[:]
        c.known_bottom = self.known_bottom[:]
        c.discard = [z[:] for z in self.discard]
        c.used = [z[:] for z in self.used]
        c.defense = self.defense[:]
        c.attack = self.attack[:]
        c.challenger = self.challenger
        c.last_challenger = self.last_challenger
        c.bstep = self.bstep
        c.atk_mod = self.atk_mod
        c.crit_mod = self.crit_mod
        c.def_mod = self.def_mod
        c.bar_mod = self.bar_mod
        c.reboots = self.reboots
        c.reveals = self.reveals
        c.offered = self.offered
        c.forced = self.forced
        c.pending = self.pending[:]
        c.log = self.log
        c.winner = self.winner
        c.end_reason = self.end_reason
        c.turns = self.turns
        c.battle_no = self.battle_no
        c.clashes = self.clashes
        c.quiet = self.quiet
        return c

    # ------------------------------------------------------------------ JSON
    def to_json(self) -> dict[str, Any]:
        g = self.game
        data: dict[str, Any] = {
            "game": g.name,
            "num_players": g.num_players,
            "options": {k: list(v) if isinstance(v, tuple) else v for k, v in g.options.items()},
            "rng": self.rng.state,
        }
        for name in _INT_FIELDS:
            data[name] = getattr(self, name)
        for name in _BOOL_FIELDS:
            data[name] = getattr(self, name)
        for name in _LIST_FIELDS:
            data[name] = [int(x) if not isinstance(x, bool) else x for x in getattr(self, name)]
        for name in _NESTED_FIELDS:
            data[name] = [z[:] for z in getattr(self, name)]
        for name in _ID_LISTS:
            data[name] = getattr(self, name)[:]
        data["lab_open"] = self.lab_open[:]
        data["pending"] = [list(p) for p in self.pending]
        data["log"] = [list(e) for e in self.log_entries()]
        data["end_reason"] = self.end_reason
        return data

    @classmethod
    def from_json(cls, game: Any, data: Any) -> RumblebotsState:
        """Rebuild a state; malformed data raises RecordError naming the field."""
        where = "rumblebots state"
        if not isinstance(data, dict):
            raise RecordError(f"{where}: expected a JSON object")
        if data.get("game") != game.name:
            raise RecordError(
                f"{where}: field 'game' must be {game.name!r}, got {data.get('game')!r}"
            )
        if data.get("num_players") != game.num_players:
            raise RecordError(
                f"{where}: field 'num_players' is {data.get('num_players')!r}, "
                f"the game has {game.num_players}"
            )
        opts = data.get("options")
        mine = {k: list(v) if isinstance(v, tuple) else v for k, v in game.options.items()}
        if opts != mine:
            raise RecordError(f"{where}: field 'options' differs from the game's options")
        n = game.num_players
        total = game.content.num_cards
        s = cls(game)

        def need(name: str) -> Any:
            if name not in data:
                raise RecordError(f"{where}: missing field '{name}'")
            return data[name]

        def as_int(name: str, v: Any) -> int:
            if not isinstance(v, int) or isinstance(v, bool):
                raise RecordError(f"{where}: field '{name}' must be an integer, got {v!r}")
            return v

        def id_list(name: str, v: Any) -> list[int]:
            if not isinstance(v, list):
                raise RecordError(f"{where}: field '{name}' must be a list, got {v!r}")
            out = [as_int(name, x) for x in v]
            for x in out:
                if not -1 <= x < total:
                    raise RecordError(f"{where}: field '{name}' holds an unknown card id {x}")
            return out

        rng = as_int("rng", need("rng"))
        s.rng = GameRng(rng)
        for name in _INT_FIELDS:
            setattr(s, name, as_int(name, need(name)))
        for name in _BOOL_FIELDS:
            v = need(name)
            if not isinstance(v, bool):
                raise RecordError(f"{where}: field '{name}' must be true or false, got {v!r}")
            setattr(s, name, v)
        for name in _LIST_FIELDS:
            v = need(name)
            if not isinstance(v, list):
                raise RecordError(f"{where}: field '{name}' must be a list, got {v!r}")
            if name != "spaces" and len(v) != n:
                raise RecordError(f"{where}: field '{name}' must be a list of {n} values")
            if name == "active":
                if not all(isinstance(x, bool) for x in v):
                    raise RecordError(f"{where}: field 'active' must hold true/false values")
                setattr(s, name, list(v))
            else:
                setattr(s, name, [as_int(name, x) for x in v])
        for name in _NESTED_FIELDS:
            v = need(name)
            want = 5 if name in ("decks", "lab") else n
            if not isinstance(v, list) or len(v) != want:
                raise RecordError(f"{where}: field '{name}' must be a list of {want} lists")
            setattr(s, name, [id_list(name, z) for z in v])
        for name in _ID_LISTS:
            setattr(s, name, id_list(name, need(name)))
        lab_open = need("lab_open")
        if not isinstance(lab_open, list) or len(lab_open) != 5:
            raise RecordError(f"{where}: field 'lab_open' must be a list of 5 booleans")
        if not all(isinstance(x, bool) for x in lab_open):
            raise RecordError(f"{where}: field 'lab_open' must hold true/false values")
        s.lab_open = list(lab_open)
        pending = need("pending")
        if not isinstance(pending, list):
            raise RecordError(f"{where}: field 'pending' must be a list")
        s.pending = []
        for p in pending:
            if not isinstance(p, list) or len(p) != 4:
                raise RecordError(f"{where}: field 'pending' holds a malformed entry {p!r}")
            s.pending.append(tuple(as_int("pending", x) for x in p))  # type: ignore[arg-type]
        log = need("log")
        if not isinstance(log, list):
            raise RecordError(f"{where}: field 'log' must be a list")
        s.log = None
        for e in log:
            if not isinstance(e, list) or not e or not isinstance(e[0], str):
                raise RecordError(f"{where}: field 'log' holds a malformed entry {e!r}")
            s.add_log(tuple(e))
        reason = need("end_reason")
        if not isinstance(reason, str):
            raise RecordError(f"{where}: field 'end_reason' must be a string")
        s.end_reason = reason
        zones = [*s.transform_deck, *s.recycled, *s.reserve]
        for t in range(5):
            zones += s.decks[t] + [c for c in s.lab[t] if c >= 0]
        for p in range(n):
            zones += s.collection[p] + s.fresh[p] + s.hand[p]
        if sorted(zones) != list(range(total)):
            raise RecordError(
                f"{where}: field 'collection' and the other card zones must hold every card "
                "id exactly once"
            )
        if s.phase not in (BUILD, BATTLE, OVER):
            raise RecordError(f"{where}: field 'phase' must be 0, 1 or 2, got {s.phase}")
        if not 1 <= s.round <= SHOWDOWN:
            raise RecordError(f"{where}: field 'round' must be 1-6, got {s.round}")
        for name in ("champion", "first_champion"):
            if not 0 <= getattr(s, name) < n:
                raise RecordError(
                    f"{where}: field '{name}' must be a seat from 0 to {n - 1}, "
                    f"got {getattr(s, name)}"
                )
        if s.phase != OVER and not s.pending and not 0 <= s.turn_pos < len(s.order):
            raise RecordError(f"{where}: field 'turn_pos' is out of range")
        return s

    # ------------------------------------------------------------------ words (view.py)
    # `view`, `observation_view`, `prompt` and `stats` are the protocol's: they call
    # `self.game.views` (view.py), as in every game.
    def battle_log(self) -> list[str]:
        """The current (or last) battle, one readable line per step (view.battle_log)."""
        return self.game.views.battle_log(self)

    def describe_action(self, action: Action) -> str:
        """The choice in words for the deciding seat: bots by name with their numbers, the
        seat's own things as "your" (narration.describe_action)."""
        return self.game.narration.describe_action(self, action)

    # ------------------------------------------------------------------ determinize (RB-9)
    @cython.locals(
        seat=cython.long,
        n=cython.long,
        t=cython.long,
        p=cython.long,
        k=cython.long,
        mine=cython.long,
        lo=cython.Py_ssize_t,
        hi=cython.Py_ssize_t,
        pool=list,
        taken=list,
        hand=list,
        keep=list,
        deck=list,
        middle=list,
    )
    def determinize(self, seat: int, rng: random.Random | Any) -> RumblebotsState:
        """Resample what `seat` cannot see: every tier deck's order, the other seats' scanned
        hands (pooled with the deck of the same tier) and the hidden part of every battle deck."""
        c = cython.declare(RumblebotsState, self.clone())
        cards = self.game.cards
        n = self.game.num_players
        for t in range(1, 5):
            pool = c.decks[t]
            taken = []  # (seat, count) of hand cards of this tier
            for p in range(n):
                hand = c.hand[p]
                if p == seat or not hand:  # most hands are empty: nothing to pool
                    continue
                keep = [x for x in hand if cards[x].tier != t]
                mine = len(hand) - len(keep)
                if mine:
                    pool.extend([x for x in hand if cards[x].tier == t])
                    c.hand[p] = keep
                    taken.append((p, mine))
            shuffle(rng, pool)  # rng.shuffle(pool), without its per-card Python calls
            # loops, not generators: a generator cannot read the compiled engine's C locals
            for p, k in taken:
                hand = c.hand[p]
                for _ in range(k):
                    hand.append(pool.pop())
        for p in range(n):
            deck = c.bdeck[p]
            lo, hi = c.known_bottom[p], len(deck) - c.known_top[p]
            if hi - lo > 1:
                middle = deck[lo:hi]
                shuffle(rng, middle)
                deck[lo:hi] = middle
        c.rng = GameRng(rng.getrandbits(63))
        c._legal = self._legal if seat == self.current_player() else None
        return c


State.register(RumblebotsState)

__all__ = ["RumblebotsState"]
