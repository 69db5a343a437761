"""Helpers for the Rumblebots tests: positions built by hand, random play, conservation."""

from __future__ import annotations

import random

import robotable
from robotable.games.rumblebots import rules
from robotable.games.rumblebots.state import RumblebotsState


def game(n: int = 2, **options):
    """The game; hand-built positions count crystals and scraps as the rulebook deals them, so
    RB-2.5's head starts (a first Champion's Cryo-cell crystals, none by default; the two-seat
    round-4 scrap of the other seat) are off unless a test asks for one, whatever the default."""
    options.setdefault("first_champion_cryo", 0)
    options.setdefault("first_challengers_scraps", ())
    return robotable.load_game("rumblebots", num_players=n, **options)


def ids_of(g, *names: str) -> list[int]:
    """Distinct physical ids for the given names (copies taken in order)."""
    cards = g.content.cards
    used: set[int] = set()
    out = []
    for name in names:
        cid = next(i for i, d in enumerate(cards) if d.name == name and i not in used)
        used.add(cid)
        out.append(cid)
    return out


def battle(
    g,
    decks: list[list[str]],
    champion: int = 0,
    contraptions: list[list[str]] | None = None,
    reactor: list[int] | None = None,
    round_: int = 1,
    storage: list[int] | None = None,
) -> tuple[RumblebotsState, list]:
    """A Battle Phase with fixed deck orders (each list is bottom .. top)."""
    s = g.new_initial_state(seed=0)
    n = g.num_players
    names = [name for deck in decks for name in deck]
    extra = [name for cs in (contraptions or []) for name in cs]
    ids = iter(ids_of(g, *names, *extra))
    s.round = round_
    s.direction = 1 if round_ % 2 else -1
    s.champion = champion
    s.collection = [[] for _ in range(n)]
    decks_ids = []
    for p in range(n):
        d = [next(ids) for _ in decks[p]]
        decks_ids.append(d)
        s.collection[p] = list(d)
    for p, cs in enumerate(contraptions or []):
        s.collection[p].extend(next(ids) for _ in cs)
    if reactor:
        s.reactor = list(reactor)
    if storage:
        s.storage = list(storage)
        s.supply -= sum(storage)
    ev: list = []
    s.phase = rules.BATTLE
    s.battle_no += 1
    s.log = None
    s.add_log(("battle", s.round, champion))
    for p in range(n):
        s.bdeck[p] = list(decks_ids[p])
        s.discard[p] = []
        s.used[p] = []
        s.active[p] = True
        s.known_top[p] = s.known_bottom[p] = 0
    s.attack, s.defense = [], []
    s.challenger = -1
    s.last_challenger = champion
    s.pending = []
    s._legal = None
    s.refill_defense(ev)
    s.bstep = rules.BS_NEXT
    rules.advance_battle(s, ev)
    return s, ev


def names(g, ids: list[int]) -> list[str]:
    return [g.content.cards[c].name for c in ids]


def play_random(state, rng: random.Random, max_steps: int = 3000, hook=None):
    steps = 0
    while not state.is_terminal() and steps < max_steps:
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        before = state.clone() if hook else None
        events = state.apply_action(action)
        if hook:
            hook(before, action, events, state)
        steps += 1
    return steps


def all_card_ids(s: RumblebotsState) -> list[int]:
    """Every physical card wherever it is (build and battle zones)."""
    out: list[int] = []
    for t in range(1, 5):
        out += s.decks[t]
        out += [c for c in s.lab[t] if c >= 0]
    out += s.transform_deck + s.recycled + s.reserve
    for p in range(s.game.num_players):
        out += s.collection[p] + s.fresh[p] + s.hand[p]
    return out


def battle_zone_ids(s: RumblebotsState, p: int) -> list[int]:
    cards = s.game.content.cards
    gangs = []
    if s.champion == p:
        gangs += s.defense
    if s.challenger == p:
        gangs += s.attack
    contr = [c for c in s.collection[p] if cards[c].contraption]
    return s.bdeck[p] + s.discard[p] + gangs + contr


def crystals_total(s: RumblebotsState) -> int:
    n = s.game.num_players
    return s.supply + sum(s.spaces) + sum(s.storage[p] + s.reactor[p] + s.cryo[p] for p in range(n))
