"""Stak Bots state: plain data (card ids in small lists), cloned by hand.

Zones (SB-1.5): `staks[k]` bottom -> top (stak k belongs to seat `game.owner[k]`: with one stak
per seat, k is the seat; with several, seat s holds `game.staks_of[s]`, SB-11.12), `hands[s]`, `supply` (top = last), `scrapheap`
(top = last). Per card id: `vis` (what the table knows of it, SB-9) and `dmg` (damage this turn).
Entry effects waiting to resolve are `pending`, a stack of card ids (top = last, SB-6.4); a choice
an effect is asking for is `decision` = (kind, card, chooser). The forward model is rules.py;
this file imports none of the rules or words: the protocol methods that need them go through
the Game object (`self.game.rules`, `.views`, `.narration`, named in __init__.py; the two
every step runs are taken from it when a state is built), so the package's imports run one way.
"""

from __future__ import annotations

import random
from typing import Any

from robotable.core.protocol import TERMINAL, Action, State, StateBase
from robotable.core.rng import GameRng, random_bits

try:
    import cython
except ImportError:  # no Cython: its declarations do nothing
    from robotable.core import cython_shim as cython

# What the table knows of a card (SB-9), per card id in `state.vis`.
HIDDEN = 0  # face-down in a stak, in the supply (nobody), or in a hand (only its holder)
UP = 1  # face-up in a stak or on the scrapheap (everybody)
KNOWN = 2  # face-down in a stak after a reset, or in a hand after Begone: everybody saw it

# Kinds of pending decision (SB-6.7), the first item of `state.decision`.
D_TOP = 1  # choose a top card (Shot, Reaper, Begone, Trip, Pit)
D_FACEUP = 2  # choose a face-up card anywhere (Tranq)
D_PLAYER = 3  # choose a player (Expel)
D_DISCARD = 4  # the chosen player picks a hand card to scrap (Expel)
D_REACT = 5  # the attacked seat may play a card onto the defending stak (SB-11.5)
DECISION_NAMES = {
    D_TOP: "top",
    D_FACEUP: "face_up",
    D_PLAYER: "player",
    D_DISCARD: "discard",
    D_REACT: "react",
}


class StakBotsTables:
    """What the game holds for the rules, built once per game (the `StakBotsGame` object in
    __init__.py derives from this and fills it) and shared by every state: per card (names,
    bot, base_power...), per stak (owner, local, several...), the modes' switches and the
    ready-made actions. Plain attributes here; compiled, an extension type with C fields
    (state.pxd), so the rules' `g.base_power` is a struct read. The Game itself is an ABC,
    which an extension type cannot be; StakBotsGame inherits both."""


_FIELDS = (
    "staks",
    "hands",
    "supply",
    "scrapheap",
    "vis",
    "dmg",
    "damaged",
    "alive",
    "active",
    "turn",
    "attacker",
    "stopped",
    "fed",
    "stomp",
    "n_actions",
    "n_effects",
    "pending",
    "decision",
    "result",
    "end_reason",
    "counts",
    "n_attacks",
    "declared",
    "stomp_from",
    "drone_next",
)
# Fields added with the SB-11 modes: a state saved before them reads with these values.
_LATER = {"n_attacks": 0, "declared": -1, "stomp_from": -1, "drone_next": 0}


class StakBotsState(StateBase):
    """A Stak Bots position; compiled, an extension type (state.pxd), so a `StateBase` registered as a
    `State` (see `StateBase`)."""

    # `opening`: what happened before the first decision, set by setup (rules.py) only.
    # `quiet`: events are not built (silence()); never part of the position.
    __slots__ = (
        "game",
        "_legal",
        "rng",
        "opening",
        "quiet",
        *_FIELDS,
    )

    def __init__(self, game: Any) -> None:
        self.game = game
        self._legal = None
        self.rules_legal_actions = game.rules.legal_actions
        self.rules_apply_action = game.rules.apply_action
        self.rng = GameRng(0)
        n = game.num_players
        k = len(game.owner)
        self.staks: list[list[int]] = [[] for _ in range(k)]
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.supply: list[int] = []
        self.scrapheap: list[int] = []
        self.vis: list[int] = [HIDDEN] * len(game.deck)
        self.dmg: list[int] = [0] * len(game.deck)
        self.damaged: list[int] = []  # ids with dmg > 0, repaired at the end of the turn
        self.alive: list[bool] = [True] * n
        self.active = 0
        self.turn = 0
        # Per stak: the one card of it that attacked this turn (SB-4.3, SB-11.12), and whether
        # that card was since turned face-down, returned or scrapped (SB-4.4).
        self.attacker: list[int] = [-1] * k
        self.stopped: list[bool] = [False] * k
        self.fed = False  # a card reached the scrapheap this turn (SB-3.3)
        self.stomp = -1  # the stak a Stomp Bot must keep attacking (SB-5.6)
        self.stomp_from = -1  # the stak that Stomp Bot sits on
        self.drone_next = 0  # in the Drone's turn, its next stak to attack (SB-11.14)
        self.n_actions = 0  # free actions taken this turn (SB-3.6)
        self.n_effects = 0  # entry effects resolved this turn (SB-6.8)
        self.pending: list[int] = []
        self.decision: tuple[int, int, int] | None = None
        self.result: list[float] | None = None
        self.end_reason = ""
        # game-long tallies for stats(): attacks, plays, scraps, effects, reshuffles
        self.counts: list[int] = [0, 0, 0, 0, 0]
        self.n_attacks = 0  # attacks finished this turn, for the attack tally (SB-11.7)
        self.declared = -1  # the stak an attack waits on a reaction for (SB-11.5)
        self.quiet = False

    # -- protocol -----------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.result is not None:
            return TERMINAL
        d = self.decision
        return d[2] if d is not None else self.active

    def is_terminal(self) -> bool:
        return self.result is not None

    def returns(self) -> list[float]:
        if self.result is None:
            return [0.0] * self.game.num_players
        return list(self.result)

    def turn_number(self) -> int:
        return self.turn

    # The rules and the words live above this file: the package sets the rules' entry points
    # (above); `view`, `observation_view`, `prompt` and `stats` are the protocol's, answered by
    # `game.views` (view.py), and the words by `game.narration`.
    def describe_action(self, action: Action) -> str:
        return self.game.narration.describe_action(self, action)

    def opening_events(self) -> list[dict[str, Any]]:
        return list(getattr(self, "opening", None) or [])

    def clone(self) -> StakBotsState:
        # Typed, the copies below are C struct writes in the compiled engine.
        c = cython.declare(StakBotsState, StakBotsState.__new__(StakBotsState))
        c.game = self.game
        c._legal = self._legal  # never mutated, safe to share
        c.rules_legal_actions = self.rules_legal_actions
        c.rules_apply_action = self.rules_apply_action
        c.rng = GameRng.__new__(GameRng)
        c.rng.state = self.rng.state
        c.staks = [s[:] for s in self.staks]
        c.hands = [h[:] for h in self.hands]
        c.supply = self.supply[:]
        c.scrapheap = self.scrapheap[:]
        c.vis = self.vis[:]
        c.dmg = self.dmg[:]
        c.damaged = self.damaged[:]
        c.alive = self.alive[:]
        c.active = self.active
        c.turn = self.turn
        c.attacker = self.attacker[:]
        c.stopped = self.stopped[:]
        c.fed = self.fed
        c.stomp = self.stomp
        c.n_actions = self.n_actions
        c.n_effects = self.n_effects
        c.pending = self.pending[:]
        c.decision = self.decision
        c.result = self.result
        c.end_reason = self.end_reason
        c.counts = self.counts[:]
        c.n_attacks = self.n_attacks
        c.declared = self.declared
        c.stomp_from = self.stomp_from
        c.drone_next = self.drone_next
        c.quiet = self.quiet
        return c

    def silence(self) -> StakBotsState:
        self.quiet = True
        return self

    # -- information (SB-9): one model drives view, events and determinize ------------------
    @cython.locals(i=cython.Py_ssize_t, x=cython.long, hidden=cython.long)
    def determinize(self, seat: int, rng: random.Random | Any) -> StakBotsState:
        """Resample every card `seat` cannot identify (SB-9.6): face-down stak cards nobody
        knows, other seats' hand cards nobody saw, and the supply, as one pool."""
        c = cython.declare(StakBotsState, self.clone())
        vis = c.vis
        hidden = HIDDEN
        hands = [h for s, h in enumerate(c.hands) if s != seat]
        pool = [x for stak in c.staks for x in stak if vis[x] == hidden]
        for hand in hands:
            pool += [x for x in hand if vis[x] == hidden]
        pool += c.supply
        # Shuffle by sorting on random keys: 40 random bits per card (getrandbits; compiled, one
        # call for all, core.rng.random_bits) and an int sort, several times cheaper than
        # random.shuffle; card ids (< 256) ride in the low bits.
        keys = sorted([(r << 8) | x for r, x in zip(random_bits(rng, 40, len(pool)), pool)])
        it = iter([k & 255 for k in keys])
        for zone in (*c.staks, *hands):
            for i, x in enumerate(zone):
                if vis[x] == hidden:
                    zone[i] = next(it)
        c.supply = list(it)
        c.rng = GameRng(rng.getrandbits(63))
        c._legal = None
        return c

    # -- JSON -----------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        g = self.game
        data: dict[str, Any] = {
            "game": g.name,
            "num_players": g.num_players,
            "options": dict(g.options),
            "rng": self.rng.state,
        }
        for name in _FIELDS:
            value = getattr(self, name)
            if isinstance(value, list):
                value = [v[:] if isinstance(v, list) else v for v in value]
            elif isinstance(value, tuple):
                value = list(value)
            data[name] = value
        return data

    @classmethod
    def from_json(cls, game: Any, data: Any) -> StakBotsState:
        return _from_json(cls, game, data)


State.register(StakBotsState)


def _from_json(cls: type[StakBotsState], game: Any, data: Any) -> StakBotsState:
    """Rebuild a state; the first problem raises ValueError naming the field."""
    where = f"game {game.name} state"
    if not isinstance(data, dict):
        raise ValueError(f"{where}: expected a JSON object, got {type(data).__name__}")
    data = {**_LATER, **data}
    k = len(game.owner)
    if isinstance(data.get("attacker"), int) and not isinstance(data["attacker"], bool):
        # Saved before SB-11.12, with one stak per seat: one attacker for the active seat.
        active = data.get("active")
        data["attacker"] = [data["attacker"] if s == active else -1 for s in range(k)]
        data["stopped"] = [data.get("stopped") is True and s == active for s in range(k)]
    missing = [f for f in ("game", "num_players", "options", "rng", *_FIELDS) if f not in data]
    if missing:
        raise ValueError(f"{where}: missing field '{missing[0]}'")
    if data["game"] != game.name:
        raise ValueError(f"{where}: field 'game' is {data['game']!r}, expected {game.name!r}")
    n = game.num_players
    if data["num_players"] != n:
        raise ValueError(f"{where}: field 'num_players' is {data['num_players']!r}, expected {n}")
    saved = data["options"]
    if isinstance(saved, dict):
        # A state saved before an option existed (the SB-11 modes) was played with its default.
        absent = {o.name: o.default_for(n) for o in game.option_specs if o.name not in saved}
        saved = {**absent, **saved}
    if saved != dict(game.options):
        raise ValueError(f"{where}: field 'options' {data['options']!r} differ from the game's")
    size = len(game.deck)

    def is_int(v: Any) -> bool:
        return isinstance(v, int) and not isinstance(v, bool)

    def int_field(name: str, low: int, high: int) -> int:
        v = data[name]
        if not is_int(v) or not low <= v <= high:
            raise ValueError(f"{where}: field '{name}' must be an integer in [{low}, {high}]")
        return v

    def id_list(name: str, v: Any) -> list[int]:
        if not isinstance(v, list) or not all(is_int(x) and 0 <= x < size for x in v):
            raise ValueError(f"{where}: field '{name}' must be a list of card ids < {size}")
        return list(v)

    def per_seat(name: str, count: int = n, what: str = "seat") -> list[list[int]]:
        v = data[name]
        if not isinstance(v, list) or len(v) != count:
            raise ValueError(f"{where}: field '{name}' must hold one list per {what}")
        return [id_list(f"{name}[{i}]", x) for i, x in enumerate(v)]

    def bool_list(name: str) -> list[bool]:
        v = data[name]
        if not isinstance(v, list) or len(v) != n or not all(isinstance(x, bool) for x in v):
            raise ValueError(f"{where}: field '{name}' must be a list of {n} booleans")
        return list(v)

    s = cls.__new__(cls)
    s.game = game
    s._legal = None
    s.rules_legal_actions = game.rules.legal_actions
    s.rules_apply_action = game.rules.apply_action
    s.quiet = False
    rng = data["rng"]
    if not is_int(rng) or not 0 <= rng < 1 << 64:
        raise ValueError(f"{where}: field 'rng' must be an unsigned 64-bit integer")
    s.rng = GameRng(rng)
    s.staks = per_seat("staks", k, "stak")
    s.hands = per_seat("hands")
    s.supply = id_list("supply", data["supply"])
    s.scrapheap = id_list("scrapheap", data["scrapheap"])
    everywhere = sorted([c for z in (*s.staks, *s.hands, s.supply, s.scrapheap) for c in z])
    if everywhere != list(range(size)):
        raise ValueError(
            f"{where}: fields 'staks', 'hands', 'supply', 'scrapheap' must hold each of the "
            f"{size} cards exactly once"
        )
    for name, allowed in (("vis", (HIDDEN, UP, KNOWN)), ("dmg", None)):
        v = data[name]
        ok = isinstance(v, list) and len(v) == size
        ok = ok and all(is_int(x) and (x in allowed if allowed else x >= 0) for x in v)
        if not ok:
            raise ValueError(f"{where}: field '{name}' must be a list of {size} valid integers")
    s.vis = list(data["vis"])
    s.dmg = list(data["dmg"])
    s.damaged = id_list("damaged", data["damaged"])
    s.alive = bool_list("alive")
    s.active = int_field("active", 0, n if game.drones else n - 1)  # n: the Drone (SB-11.14)
    s.turn = int_field("turn", 0, 1 << 31)
    att = data["attacker"]
    if (
        not isinstance(att, list)
        or len(att) != k
        or not all(is_int(x) and -1 <= x < size for x in att)
    ):
        raise ValueError(f"{where}: field 'attacker' must be a card id or -1 per stak")
    s.attacker = list(att)
    stopped = data["stopped"]
    if (
        not isinstance(stopped, list)
        or len(stopped) != k
        or not all(isinstance(x, bool) for x in stopped)
    ):
        raise ValueError(f"{where}: field 'stopped' must be a boolean per stak")
    s.stopped = list(stopped)
    if not isinstance(data["fed"], bool):
        raise ValueError(f"{where}: field 'fed' must be a boolean")
    s.fed = data["fed"]
    s.stomp = int_field("stomp", -1, k - 1)
    s.n_actions = int_field("n_actions", 0, 1 << 31)
    s.n_effects = int_field("n_effects", 0, 1 << 31)
    s.pending = id_list("pending", data["pending"])
    d = data["decision"]
    if d is not None:
        ok = isinstance(d, list | tuple) and len(d) == 3 and all(is_int(x) for x in d)
        if not ok or d[0] not in DECISION_NAMES or not 0 <= d[1] < size or not 0 <= d[2] < n:
            raise ValueError(f"{where}: field 'decision' must be null or [kind, card, seat]")
        d = (d[0], d[1], d[2])
    s.decision = d
    r = data["result"]
    if r is not None and (
        not isinstance(r, list)
        or len(r) != n
        or not all(isinstance(x, int | float) and not isinstance(x, bool) for x in r)
    ):
        raise ValueError(f"{where}: field 'result' must be null or {n} numbers")
    s.result = [float(x) for x in r] if r is not None else None
    if not isinstance(data["end_reason"], str):
        raise ValueError(f"{where}: field 'end_reason' must be a string")
    s.end_reason = data["end_reason"]
    cnt = data["counts"]
    if not isinstance(cnt, list) or len(cnt) != 5 or not all(is_int(x) for x in cnt):
        raise ValueError(f"{where}: field 'counts' must be a list of 5 integers")
    s.counts = list(cnt)
    s.n_attacks = int_field("n_attacks", 0, 1 << 31)
    s.declared = int_field("declared", -1, k - 1)
    s.stomp_from = int_field("stomp_from", -1, k - 1)
    s.drone_next = int_field("drone_next", 0, game.drones)
    return s
