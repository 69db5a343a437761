"""Helpers for Stak Bots tests: build exact positions from short card specs.

A spec names a card by bot type and optionally power: "Shot", "Core:5", "Leader". A leading "?"
puts it face-down: "?Core:2". Staks are listed bottom -> top. Cards not placed go to the supply
(or the scrapheap when `heap` lists them).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import robotable
from robotable.games.stakbots.content import Bot
from robotable.games.stakbots.state import HIDDEN, UP, StakBotsState

RULES_DECK = str(Path(__file__).with_name("rules_deck.toml"))


def game(n: int = 2, **options: Any):
    return robotable.load_game("stakbots", num_players=n, **options)


def rules_game(n: int = 2, **options: Any):
    """A game on the roomy test deck (rule behaviour does not depend on the deck)."""
    options.setdefault("cards", RULES_DECK)
    return robotable.load_game("stakbots", num_players=n, **options)


def _pick(g, spec: str, used: set[int]) -> int:
    bot_name, _, power = spec.partition(":")
    bot = Bot[bot_name.upper()]
    for c in g.deck.cards:
        if c.id in used or c.bot != bot:
            continue
        if power and c.power != int(power):
            continue
        used.add(c.id)
        return c.id
    raise LookupError(f"no free card for spec {spec!r}")


def position(
    staks: list[list[str]],
    hands: list[list[str]] | None = None,
    heap: list[str] | None = None,
    supply_top: list[str] | None = None,
    active: int = 0,
    empty_supply: bool = False,
    g=None,
    per_seat: int = 1,
    **options: Any,
) -> StakBotsState:
    """A state at the start of `active`'s turn (after the draw) with exactly these cards."""
    n = len(staks) // per_seat  # staks are listed per stak, seat by seat (SB-11.12)
    if per_seat > 1:
        options["staks"] = per_seat
    g = g or rules_game(n, **options)
    n = g.num_players  # the Drone's staks (SB-11.14) come after the seats' own
    st = g.new_initial_state(0)
    used: set[int] = set()
    st.vis = [HIDDEN] * len(g.deck)
    st.dmg = [0] * len(g.deck)
    st.damaged = []
    for s in range(len(staks)):
        st.staks[s] = []
        for spec in staks[s]:
            down = spec.startswith("?")
            c = _pick(g, spec.lstrip("?"), used)
            st.staks[s].append(c)
            st.vis[c] = HIDDEN if down else UP
    hands = hands or [[] for _ in range(n)]
    for s in range(n):
        st.hands[s] = [_pick(g, spec, used) for spec in hands[s]]
    st.scrapheap = [_pick(g, spec, used) for spec in (heap or [])]
    for c in st.scrapheap:
        st.vis[c] = UP
    top = [_pick(g, spec, used) for spec in (supply_top or [])]
    rest = [c for c in range(len(g.deck)) if c not in used]
    if empty_supply:
        st.scrapheap += rest
        for c in rest:
            st.vis[c] = UP
        rest = []
    st.supply = rest + list(reversed(top))  # the first supply_top card is drawn first
    st.alive = [True] * n
    st.active = active
    st.turn = 1
    st.attacker = [-1] * len(st.staks)
    st.stopped = [False] * len(st.staks)
    st.stomp_from = -1
    st.declared = -1
    st.fed = False
    st.stomp = -1
    st.n_actions = 0
    st.n_effects = 0
    st.n_attacks = 0
    st.pending = []
    st.decision = None
    st.result = None
    st.end_reason = ""
    st._legal = None
    return st


def names(st: StakBotsState, cards: list[int]) -> list[str]:
    return [st.game.names[c] for c in cards]


def stak_names(st: StakBotsState, seat: int) -> list[str]:
    return names(st, st.staks[seat])


def find(st: StakBotsState, kind: str, **fields: Any):
    """The one legal action of `kind` whose fields match."""
    found = [
        a
        for a in st.legal_actions()
        if a.kind == kind and all(getattr(a, k) == v for k, v in fields.items())
    ]
    assert len(found) == 1, (kind, fields, [str(a) for a in st.legal_actions()])
    return found[0]


def do(st: StakBotsState, kind: str, **fields: Any) -> list[dict]:
    return st.apply_action(find(st, kind, **fields))


def play(st: StakBotsState, bot: str) -> list[dict]:
    """Play the (first) hand card of this bot type."""
    for a in st.legal_actions():
        if a.kind == "play" and st.game.bot[a.card] == Bot[bot.upper()]:
            return st.apply_action(a)
    raise AssertionError(f"no legal play of {bot}: {[str(a) for a in st.legal_actions()]}")


def card_of(st: StakBotsState, seat: int, depth: int = 0) -> int:
    stak = st.staks[seat]
    return stak[len(stak) - 1 - depth]


def random_game(n: int, seed: int, **options: Any):
    """Yield (state, action) along a seeded random game."""
    g = game(n, **options)
    st = g.new_initial_state(seed)
    rng = random.Random(seed)
    while not st.is_terminal():
        a = rng.choice(st.legal_actions())
        yield st, a
        st.apply_action(a)
