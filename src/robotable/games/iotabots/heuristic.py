"""Position evaluation for agents: a duel estimate from public information, folded into the
match score (IB-1.2). Uses only what `seat` may know: life, mana, the field, hand/deck counts.
"""

from __future__ import annotations

import math
from functools import cache
from typing import TYPE_CHECKING

from . import effects
from .state import DRAW, MULLIGAN, ORDER

if TYPE_CHECKING:
    from .state import IotabotsState

LIFE_WEIGHT = 0.12
BOARD_WEIGHT = 0.22
HAND_WEIGHT = 0.18
BEACON_WEIGHT = 0.9


@cache
def match_value(wins: int, losses: int, played: int) -> float:
    """Match score for a seat with these duel results, future duels taken as coin flips."""
    if wins >= 2 or losses >= 2 or played >= 3:
        return 1.0 if wins > losses else 0.0 if losses > wins else 0.5
    return 0.5 * match_value(wins + 1, losses, played + 1) + 0.5 * match_value(
        wins, losses + 1, played + 1
    )


def board_strength(state: IotabotsState, seat: int) -> float:
    total = 0.0
    for b in state.field[seat]:
        atk, dfn = effects.stats(state, seat, b)
        card = state.game.cards[b.card]
        total += 0.6 * atk * card.attacks + 0.4 * dfn + 0.5
        if b.counters:
            total += BEACON_WEIGHT * b.counters / 0.25
    return total


def duel_estimate(state: IotabotsState, seat: int) -> float:
    """Probability-like estimate that `seat` wins the current duel."""
    o = 1 - seat
    x = LIFE_WEIGHT * (state.life[seat] - state.life[o])
    x += BOARD_WEIGHT * (board_strength(state, seat) - board_strength(state, o))
    x += HAND_WEIGHT * (len(state.hand[seat]) - len(state.hand[o]))
    x += 0.05 * (state.mana_max[seat] - state.mana_max[o])
    # running out of cards loses the duel (IB-4.1)
    if len(state.deck[seat]) < 3:
        x -= 1.0
    if len(state.deck[o]) < 3:
        x += 1.0
    return 1.0 / (1.0 + math.exp(-x))


def evaluate(state: IotabotsState, seat: int) -> float:
    if state.is_terminal():
        return state.returns()[seat]
    results = state.results
    wins = results.count(seat)
    losses = results.count(1 - seat)
    played = len(results) - results.count(DRAW) + results.count(DRAW)
    in_duel = state.phase not in (ORDER, MULLIGAN)
    p = duel_estimate(state, seat) if in_duel else 0.5
    return p * match_value(wins + 1, losses, played + 1) + (1 - p) * match_value(
        wins, losses + 1, played + 1
    )
