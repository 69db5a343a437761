"""A Bread Winner position evaluation for agents (greedy one-ply, MCTS leaves).

Uses only public information (BW-8): loaves held, carried harvests (face up) discounted by the
carrier's distance to its home Delivery tile, planted crops at their public value (or the mean of
the chips nobody has seen), and a small weight for bots in play. The score difference goes
through a logistic curve, so the value stays in [0, 1].
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .board import DICE_PER_SEAT, NUM_DICE, NUM_TILES

if TYPE_CHECKING:
    from .state import BreadWinnerState

# Steps from each tile to each seat's own Delivery tile.
HOME_DISTANCE = ((0, 1, 1, 2, 2, 3), (3, 2, 2, 1, 1, 0))
# Per bot type (index = face): the worth of having it in play (map or factory).
BOT_WORTH = (0.0, 0.2, 0.25, 0.15, 0.15, 0.1, 0.0)
SCALE = 2.5


def _scores(st: BreadWinnerState) -> tuple[float, float]:
    values = st.game.crop_values
    loc, face, carry = st.loc, st.face, st.carry
    score = [float(st.loaves[0]), float(st.loaves[1])]
    # Mean value of the chips nobody has seen (pile and unseen face-down crops): public.
    hidden = len(st.pile)
    hidden_sum = sum(values[c] for c in st.pile)
    harvesters_on = [[0, 0] for _ in range(NUM_TILES)]
    for die in range(NUM_DICE):
        where = loc[die]
        if where < 0:
            continue
        seat = die // DICE_PER_SEAT
        kind = face[die]
        score[seat] += BOT_WORTH[kind]
        if where < NUM_TILES and kind == 2:
            harvesters_on[where][seat] += 1
            chip = carry[die]
            if chip >= 0:
                # A carried harvest is most of a delivery; closer to home is worth more.
                score[seat] += values[chip] * (0.7 - 0.1 * HOME_DISTANCE[seat][where])
    for tile in range(NUM_TILES):
        chip = st.crop[tile]
        if chip < 0 or st.known[tile]:
            continue
        hidden += 1
        hidden_sum += values[chip]
    mean_hidden = hidden_sum / hidden if hidden else 0.0
    for tile in range(NUM_TILES):
        chip = st.crop[tile]
        if chip < 0:
            continue
        value = values[chip] if st.known[tile] else mean_hidden
        for seat in (0, 1):
            # A crop is worth more to the seat whose Harvester stands on it and whose home is near.
            near = 0.3 - 0.06 * HOME_DISTANCE[seat][tile]
            if harvesters_on[tile][seat]:
                near += 0.2
            score[seat] += value * near
    return score[0], score[1]


def evaluate(st: BreadWinnerState, seat: int) -> float:
    if st.is_terminal():
        return st.returns()[seat]
    mine, theirs = _scores(st)
    if seat == 1:
        mine, theirs = theirs, mine
    return 1.0 / (1.0 + math.exp(-(mine - theirs) / SCALE))
