"""A position evaluation for agents (greedy, MCTS leaves), from public information only.

Each seat gets a score: the fighting power of its collection (what wins clashes), its crystals
(what wins rounds and Dominance), its Workshop tier (access to stronger bots) and, for the seat
building now, the scraps it still holds. The value is the seat's share of a softmax over scores.
Hidden things (deck order, another seat's scanned hand) are never read.
"""

from __future__ import annotations

import math

from .content import Keyword
from .state import BUILD, SHOWDOWN, RumbleState

_TEMPERATURE = 2.5
_ACTIVE = (Keyword.ENTER, Keyword.REBOOT, Keyword.CRYSTALS, Keyword.TRANSFORMATION)


def bot_power(d) -> float:  # type: ignore[no-untyped-def]
    """Rough battle worth of one card."""
    if d.contraption:
        return 3.0 + 0.5 * d.amount
    p = d.attack + d.defense + 1.6 * d.crits + 1.2 * d.barriers
    if d.keyword in (Keyword.SWARM, Keyword.BUDDY, Keyword.ENERGIZED):
        p += 0.6 * d.amount
    elif d.keyword is Keyword.FINALE:
        p += 0.3 * d.amount
    elif d.keyword in _ACTIVE:
        p += 2.0
    return p


def seat_scores(s: RumbleState, seat: int) -> list[float]:
    cards = s.game.content.cards
    n = s.game.num_players
    showdown = s.round >= SHOWDOWN
    builder = s.order[s.turn_pos] if s.phase == BUILD and not s.pending else -1
    scores = []
    for p in range(n):
        owned = s.collection[p]
        power = sum(bot_power(cards[c]) for c in owned)
        power += sum(bot_power(cards[c]) for c in s.fresh[p])
        crystals = s.storage[p] + s.reactor[p] + s.cryo[p]
        score = power / 5.0 + (0.4 if showdown else 1.2) * crystals + 0.6 * s.tier[p]
        if p == builder:
            score += 0.35 * s.scraps[p]
            if p == seat:
                # own scanned cards are options worth a little
                score += 0.1 * len(s.hand[p])
        if p == s.champion:
            score += 0.8 if showdown else 0.3
        scores.append(score)
    return scores


def evaluate(s: RumbleState, seat: int) -> float:
    if s.is_terminal():
        return s.returns()[seat]
    scores = seat_scores(s, seat)
    top = max(scores)
    weights = [math.exp((x - top) / _TEMPERATURE) for x in scores]
    return weights[seat] / sum(weights)
