"""Drone Mode (SB-11.14): the automated staks' fixed behaviour, no search.

The Drone owns `game.drones` staks (their owner is the pseudo-seat `game.num_players`) and takes
a turn after each of the player's: every Drone stak still in play, in order, attacks once with
its top card, at the player's weakest top card. A choice a Drone card's entry effect asks for is
answered at once by a fixed rule (`pick`), so the Drone never is a deciding seat.
"""

from __future__ import annotations

from typing import Any

from .actions import ChoosePlayer, Target
from .board import power
from .state import StakBotsState

try:
    import cython
except ImportError:  # no Cython: its declarations do nothing
    from robotable.core import cython_shim as cython


@cython.locals(st=StakBotsState)
def weakest_top(st: StakBotsState) -> int:
    """SB-11.14: the player's stak whose top card has the least power left (power minus
    damage), the first such stak on a tie; -1 when the player has none in play."""
    g = st.game
    best = -1
    least = 0
    for s in range(g.num_players):
        if not st.alive[s]:
            continue
        for k in g.staks_of[s]:
            stak = st.staks[k]
            if not stak:
                continue
            top = stak[-1]
            left = power(st, top) - st.dmg[top]
            if best < 0 or left < least:
                best, least = k, left
    return best


@cython.locals(st=StakBotsState)
def pick(st: StakBotsState, choices: list[Any]) -> Any:
    """SB-11.14: a Drone card's choice: the player's card with the most power (the first on a
    tie), else the player (Expel), else the first choice offered."""
    g = st.game
    drone = g.num_players
    best = None
    most = -1
    for a in choices:
        if type(a) is Target and a.seat != drone:
            stak = st.staks[g.staks_of[a.seat][a.stak]]
            p = power(st, stak[len(stak) - 1 - a.depth])
            if p > most:
                best, most = a, p
        elif type(a) is ChoosePlayer and best is None:
            best = a
    return best if best is not None else choices[0]
