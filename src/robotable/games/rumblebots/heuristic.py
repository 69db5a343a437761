"""A position evaluation for agents (greedy, MCTS leaves), from public information only.

Each seat gets a score: the fighting power of its collection (what wins clashes), its crystals
(what wins rounds and Dominance), its Workshop tier (access to stronger bots) and, for the seat
building now, the scraps it still holds. The value is the seat's share of a softmax over scores.
Hidden things (deck order, another seat's scanned hand) are never read.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from .content import (
    KW_BUDDY,
    KW_CRYSTALS,
    KW_ENERGIZED,
    KW_ENTER,
    KW_FINALE,
    KW_REBOOT,
    KW_SWARM,
    KW_TRANSFORMATION,
)
from .state import BUILD, SHOWDOWN, RumblebotsState

try:
    import cython
except ImportError:  # no Cython: its declarations do nothing
    from robotable.core import cython_shim as cython


@dataclass(frozen=True, slots=True)
class Weights:
    """A seat's score, in points of collection power over `power_unit`, and the softmax over
    the scores. Agents use DEFAULT; scripts/fit_heuristic.py fits the others to searched games."""

    power_unit: float = 5.0  # collection power per point of score (the unit: never fitted)
    crystal: float = 1.2  # a crystal in Storage, Reactor or Cryo-cell, before the Showdown
    crystal_showdown: float = 0.4  # ... in the Showdown, where crystals no longer win rounds
    tier: float = 0.6  # a Workshop tier
    scraps: float = 0.35  # a scrap the builder still holds
    hand: float = 0.1  # a card in the builder's own scanned hand
    champion: float = 0.3  # holding the Champion's place, before the Showdown
    champion_showdown: float = 0.8  # ... in the Showdown
    temperature: float = 2.5  # the softmax's: how much a point of score lead is worth


DEFAULT = Weights()

# The same score with its numbers fitted to 200 games between two searches that follow their
# values (`scripts/fit_heuristic.py rumblebots`: the log loss of each position's value against
# who won, a fifth of the games held out, a pull towards DEFAULT). DEFAULT was overconfident (a
# softer softmax) and counts crystals and the Workshop tier for more than searched games bear
# out. Offered to the search as `leaf=fitted`; `expert` uses it (docs/ai.md has what it measured).
FITTED = replace(
    DEFAULT,
    crystal=0.7797,
    crystal_showdown=0.3411,
    tier=0.235,
    scraps=0.2677,
    hand=0.0974,
    champion=0.2113,
    champion_showdown=0.6062,
    temperature=3.4848,
)

_ACTIVE = (KW_ENTER, KW_REBOOT, KW_CRYSTALS, KW_TRANSFORMATION)


def bot_power(d) -> float:  # type: ignore[no-untyped-def]
    """Rough battle worth of one card."""
    if d.contraption:
        return 3.0 + 0.5 * d.amount
    p = d.attack + d.defense + 1.6 * d.crits + 1.2 * d.barriers
    if d.keyword in (KW_SWARM, KW_BUDDY, KW_ENERGIZED):
        p += 0.6 * d.amount
    elif d.keyword is KW_FINALE:
        p += 0.3 * d.amount
    elif d.keyword in _ACTIVE:
        p += 2.0
    return p


def card_powers(content: Any) -> list[float]:
    """`bot_power` of every card id, computed once per game, which holds it (`game.powers`):
    a leaf evaluation sums it over every seat's collection, and calling it per card was most
    of the heuristic's cost."""
    return [bot_power(d) for d in content.cards]


# The scores stay Python floats: C doubles would let a compiler fuse a multiply and an add
# (FMA, rounded once) where Python rounds twice, and the engines would differ.
@cython.locals(
    s=RumblebotsState, n=cython.long, p=cython.long, builder=cython.long, powers=list, scores=list
)
def _scores(s: RumblebotsState, w: Weights = DEFAULT) -> tuple[list[float], int, float]:
    """Every seat's score as any seat but the builder sees it, the builder's seat (-1: nobody
    builds now) and the builder's own score, which counts its scanned hand too. Each score is
    summed in `seat_scores`' order, so both views give the same floats."""
    powers = s.game.powers
    n = s.game.num_players
    showdown = s.round >= SHOWDOWN
    builder = s.order[s.turn_pos] if s.phase == BUILD and not s.pending else -1
    # each number read once per call, not once per seat (a leaf reads them all)
    unit = w.power_unit
    crystal = w.crystal_showdown if showdown else w.crystal
    champion = w.champion_showdown if showdown else w.champion
    tier = w.tier
    scores = []
    own = 0.0
    for p in range(n):
        # sum() of lists, as before over generators: the builtin's float summation, unchanged
        power = sum([powers[c] for c in s.collection[p]])
        power += sum([powers[c] for c in s.fresh[p]])
        crystals = s.storage[p] + s.reactor[p] + s.cryo[p]
        score = power / unit + crystal * crystals + tier * s.tier[p]
        if p == builder:
            score += w.scraps * s.scraps[p]
            # own scanned cards are options worth a little, to the builder alone
            own = score + w.hand * len(s.hand[p])
            if p == s.champion:
                own += champion
        if p == s.champion:
            score += champion
        scores.append(score)
    return scores, builder, own


@cython.locals(s=RumblebotsState, scores=list, builder=cython.long)
def seat_scores(s: RumblebotsState, seat: int, w: Weights = DEFAULT) -> list[float]:
    scores, builder, own = _scores(s, w)
    if seat == builder:
        scores[builder] = own
    return scores


def _shares(scores: list[float], temperature: float = DEFAULT.temperature) -> list[float]:
    """Each seat's share of the softmax over `scores`."""
    top = max(scores)
    weights = [math.exp((x - top) / temperature) for x in scores]
    total = sum(weights)
    return [x / total for x in weights]


def evaluate(s: RumblebotsState, seat: int, w: Weights = DEFAULT) -> float:
    if s.is_terminal():
        return s.returns()[seat]
    return _shares(seat_scores(s, seat, w), w.temperature)[seat]


@cython.locals(s=RumblebotsState, scores=list, builder=cython.long, values=list)
def evaluate_all(s: RumblebotsState, w: Weights = DEFAULT) -> list[float]:
    """`evaluate` for every seat from one pass over the collections (MCTS values every leaf for
    every seat): the same numbers, since only the builder's own view of its score differs.
    scripts/fit_heuristic.py searches with other numbers `w` through it."""
    if s.is_terminal():
        return s.returns()
    scores, builder, own = _scores(s, w)
    values = _shares(scores, w.temperature)
    if builder >= 0:
        scores[builder] = own
        values[builder] = _shares(scores, w.temperature)[builder]
    return values


def evaluate_all_fitted(s: RumblebotsState) -> list[float]:
    """`evaluate_all` with the FITTED numbers: a search's leaf values (`leaf=fitted`)."""
    return evaluate_all(s, FITTED)


# The leaf values a search may ask for by name (`mcts:...,leaf=fitted`; Game.leaf_evaluations).
LEAF_EVALUATIONS = {"fitted": evaluate_all_fitted}
