"""A Stak Bots position evaluation for agents (greedy one-ply, MCTS leaves).

It reads only what `seat` may know (SB-9): stak sizes, face-up cards, the seat's own hand, the
other hands' sizes and publicly known cards. The identities of face-down cards, other hands and
the supply are never read, so the value is the same on every determinization of a position.
Each seat still in gets a strength; the value is the seat's share of the table's strength.
"""

from __future__ import annotations

from .board import power
from .content import Bot
from .state import HIDDEN, UP, StakBotsState

try:
    import cython
except ImportError:  # no Cython: its declarations do nothing
    from robotable.core import cython_shim as cython

STAK_CARD = 1.0  # every card in a stak is a life
HAND_CARD = 0.45  # a card in hand is a future play or a free way to feed the scrapheap
FACE_UP_POWER = 0.06  # a face-up card's power protects the ones beneath it
TOP_POWER = 0.12  # the top card fights now
TOP_ABILITY = {Bot.FATAL: 0.5, Bot.BASH: 0.35, Bot.SPIKE: 0.3, Bot.STOMP: 0.2}
OWN_HAND = {
    Bot.REAPER: 0.35,
    Bot.SHOT: 0.3,
    Bot.BEGONE: 0.25,
    Bot.FATAL: 0.2,
    Bot.TRANQ: 0.15,
    Bot.BOUNTIFUL: 0.15,
}


@cython.locals(st=StakBotsState)
def strength_parts(st: StakBotsState, s: int) -> tuple[float, float, float]:
    """Seat s's strength as (public part, hand bonus its owner sees, hand bonus all see); s is
    the seat count for the Drone (SB-11.14), which holds no hand."""
    g = st.game
    if s < g.num_players and not st.alive[s]:
        return 0.0, 0.0, 0.0
    vis = st.vis
    value = 0.0
    for k in g.staks_of[s]:  # SB-11.12: a seat's staks add up
        stak = st.staks[k]
        if not stak:
            continue
        value += STAK_CARD * len(stak)
        for c in stak:
            if vis[c] == UP:
                value += FACE_UP_POWER * power(st, c)
        top = stak[-1]
        p = power(st, top)
        left = max(p - st.dmg[top], 0)
        value += TOP_POWER * left + TOP_ABILITY.get(g.bot[top], 0.0)
    if not value:
        return 0.05, 0.0, 0.0
    if s == g.num_players:
        return value, 0.0, 0.0
    hand = st.hands[s]
    value += HAND_CARD * len(hand)
    own = known = 0.0
    for c in hand:
        bonus = OWN_HAND.get(g.bot[c], 0.0)
        own += bonus
        if vis[c] != HIDDEN:
            known += bonus
    return value, own, known


@cython.locals(st=StakBotsState)
def strength(st: StakBotsState, s: int, seat: int) -> float:
    """Seat s's strength as `seat` sees it: its own hand fully, others' only where known."""
    public, own, known = strength_parts(st, s)
    return public + (own if s == seat else known)


def _sides(g) -> range:
    """Whose strengths are weighed: every seat, and the Drone (SB-11.14) after them."""
    return range(g.num_players + (1 if g.drones else 0))


def _share(values: list[float], seat: int, teams: list[int] | None = None) -> float:
    if teams is not None:
        # SB-11.10: a team's strength is its seats' together; a win is shared by its two seats.
        totals = [0.0, 0.0]
        for s, v in enumerate(values):
            totals[teams[s]] += v
        return _share(totals, teams[seat]) / 2
    if sum(values) <= 0:
        return 1.0 / len(values)
    # A share sharpened a little: being ahead in a duel should read as more than 50-60%.
    return values[seat] ** 2 / sum(v**2 for v in values)


@cython.locals(st=StakBotsState)
def evaluate(st: StakBotsState, seat: int) -> float:
    if st.result is not None:
        return st.result[seat]
    g = st.game
    teams = g.team if g.options["teams"] else None
    return _share([strength(st, s, seat) for s in _sides(g)], seat, teams)


@cython.locals(st=StakBotsState)
def evaluate_all(st: StakBotsState) -> list[float]:
    """`evaluate` for every seat in one pass over the staks (the same numbers)."""
    if st.result is not None:
        return list(st.result)
    g = st.game
    teams = g.team if g.options["teams"] else None
    parts = [strength_parts(st, s) for s in _sides(g)]
    seen = [public + known for public, _, known in parts]
    values = []
    for seat in range(g.num_players):
        public, own, _ = parts[seat]
        row = seen[:]
        row[seat] = public + own
        values.append(_share(row, seat, teams))
    return values
