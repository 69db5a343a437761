"""A Stak Bots position evaluation for agents (greedy one-ply, MCTS leaves).

It reads only what `seat` may know (SB-9): stak sizes, face-up cards, the seat's own hand, the
other hands' sizes and publicly known cards. The identities of face-down cards, other hands and
the supply are never read, so the value is the same on every determinization of a position.
Each seat still in gets a strength; the value is the seat's share of the table's strength.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .board import power
from .content import Bot
from .state import HIDDEN, UP, StakBotsState

try:
    import cython
except ImportError:  # no Cython: its declarations do nothing
    from robotable.core import cython_shim as cython


@dataclass(frozen=True, slots=True)
class Weights:
    """The evaluation's numbers: a seat's strength in cards of its staks. Agents use DEFAULT;
    scripts/fit_heuristic.py fits others to searched games' results."""

    stak_card: float = 1.0  # every card in a stak is a life
    hand_card: float = 0.45  # a card in hand is a future play or a free way to feed the scrapheap
    face_up_power: float = 0.06  # a face-up card's power protects the ones beneath it
    top_power: float = 0.12  # the top card fights now
    top_fatal: float = 0.5  # ... and its ability: Fatal
    top_bash: float = 0.35
    top_spike: float = 0.3
    top_stomp: float = 0.2
    hand_reaper: float = 0.35  # a card its owner holds, by what it can do from the hand
    hand_shot: float = 0.3
    hand_begone: float = 0.25
    hand_fatal: float = 0.2
    hand_tranq: float = 0.15
    hand_bountiful: float = 0.15
    # The share of the table's strength is taken of strengths raised to this power: being ahead
    # in a duel should read as more than its 50-60% of the cards.
    sharpness: float = 2.0
    # The ability bonuses above by Bot, built once per set of numbers (not weights themselves).
    top_ability: dict = field(init=False, repr=False, compare=False)
    own_hand: dict = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        top = {Bot.FATAL: self.top_fatal, Bot.BASH: self.top_bash, Bot.SPIKE: self.top_spike}
        top[Bot.STOMP] = self.top_stomp
        own = {Bot.REAPER: self.hand_reaper, Bot.SHOT: self.hand_shot}
        own[Bot.BEGONE] = self.hand_begone
        own[Bot.FATAL] = self.hand_fatal
        own[Bot.TRANQ] = self.hand_tranq
        own[Bot.BOUNTIFUL] = self.hand_bountiful
        object.__setattr__(self, "top_ability", top)  # frozen: set once, here
        object.__setattr__(self, "own_hand", own)


DEFAULT = Weights()


@cython.locals(st=StakBotsState)
def strength_parts(st: StakBotsState, s: int, w: Weights = DEFAULT) -> tuple[float, float, float]:
    """Seat s's strength as (public part, hand bonus its owner sees, hand bonus all see); s is
    the seat count for the Drone (SB-11.14), which holds no hand."""
    g = st.game
    if s < g.num_players and not st.alive[s]:
        return 0.0, 0.0, 0.0
    vis = st.vis
    top_ability, own_hand = w.top_ability, w.own_hand
    value = 0.0
    for k in g.staks_of[s]:  # SB-11.12: a seat's staks add up
        stak = st.staks[k]
        if not stak:
            continue
        value += w.stak_card * len(stak)
        for c in stak:
            if vis[c] == UP:
                value += w.face_up_power * power(st, c)
        top = stak[-1]
        p = power(st, top)
        left = max(p - st.dmg[top], 0)
        value += w.top_power * left + top_ability.get(g.bot[top], 0.0)
    if not value:
        return 0.05, 0.0, 0.0
    if s == g.num_players:
        return value, 0.0, 0.0
    hand = st.hands[s]
    value += w.hand_card * len(hand)
    own = known = 0.0
    for c in hand:
        bonus = own_hand.get(g.bot[c], 0.0)
        own += bonus
        if vis[c] != HIDDEN:
            known += bonus
    return value, own, known


@cython.locals(st=StakBotsState)
def strength(st: StakBotsState, s: int, seat: int, w: Weights = DEFAULT) -> float:
    """Seat s's strength as `seat` sees it: its own hand fully, others' only where known."""
    public, own, known = strength_parts(st, s, w)
    return public + (own if s == seat else known)


def _sides(g) -> range:
    """Whose strengths are weighed: every seat, and the Drone (SB-11.14) after them."""
    return range(g.num_players + (1 if g.drones else 0))


def _share(values: list[float], seat: int, teams: list[int] | None, sharpness: float) -> float:
    if teams is not None:
        # SB-11.10: a team's strength is its seats' together; a win is shared by its two seats.
        totals = [0.0, 0.0]
        for s, v in enumerate(values):
            totals[teams[s]] += v
        return _share(totals, teams[seat], None, sharpness) / 2
    if sum(values) <= 0:
        return 1.0 / len(values)
    return values[seat] ** sharpness / sum(v**sharpness for v in values)


@cython.locals(st=StakBotsState)
def evaluate(st: StakBotsState, seat: int, w: Weights = DEFAULT) -> float:
    if st.result is not None:
        return st.result[seat]
    g = st.game
    teams = g.team if g.options["teams"] else None
    return _share([strength(st, s, seat, w) for s in _sides(g)], seat, teams, w.sharpness)


@cython.locals(st=StakBotsState)
def evaluate_all(st: StakBotsState, w: Weights = DEFAULT) -> list[float]:
    """`evaluate` for every seat in one pass over the staks (the same numbers)."""
    if st.result is not None:
        return list(st.result)
    g = st.game
    teams = g.team if g.options["teams"] else None
    parts = [strength_parts(st, s, w) for s in _sides(g)]
    seen = [public + known for public, _, known in parts]
    values = []
    for seat in range(g.num_players):
        public, own, _ = parts[seat]
        row = seen[:]
        row[seat] = public + own
        values.append(_share(row, seat, teams, w.sharpness))
    return values
