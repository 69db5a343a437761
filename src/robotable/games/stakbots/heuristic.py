"""A Stak Bots position evaluation for agents (greedy one-ply, MCTS leaves).

It reads only what `seat` may know (SB-9): stak sizes, face-up cards, the seat's own hand, the
other hands' sizes and publicly known cards. The identities of face-down cards, other hands and
the supply are never read, so the value is the same on every determinization of a position.
Each seat still in gets a strength; the value is the seat's share of the table's strength.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .content import Bot
from .rules import HIDDEN, UP, power

if TYPE_CHECKING:
    from .state import StakBotsState

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


def strength(st: StakBotsState, s: int, seat: int) -> float:
    if not st.alive[s]:
        return 0.0
    stak = st.staks[s]
    if not stak:
        return 0.05
    g = st.game
    vis = st.vis
    value = STAK_CARD * len(stak)
    for c in stak:
        if vis[c] == UP:
            value += FACE_UP_POWER * power(st, c)
    top = stak[-1]
    p = power(st, top)
    left = max(p - st.dmg[top], 0)
    value += TOP_POWER * left + TOP_ABILITY.get(g.bot[top], 0.0)
    hand = st.hands[s]
    value += HAND_CARD * len(hand)
    if s == seat:
        for c in hand:
            value += OWN_HAND.get(g.bot[c], 0.0)
    else:
        for c in hand:
            if vis[c] != HIDDEN:
                value += OWN_HAND.get(g.bot[c], 0.0)
    return value


def evaluate(st: StakBotsState, seat: int) -> float:
    if st.result is not None:
        return st.result[seat]
    values = [strength(st, s, seat) for s in range(st.game.num_players)]
    total = sum(values)
    if total <= 0:
        return 1.0 / st.game.num_players
    # A share sharpened a little: being ahead in a duel should read as more than 50-60%.
    mine = values[seat] ** 2
    return mine / sum(v**2 for v in values)
