"""A Bread Winner position evaluation for agents (greedy one-ply, MCTS leaves).

It estimates each seat's future bread from public information only (BW-8), then passes the
difference through a logistic curve, so the value stays in [0, 1]:
- loaves held count in full;
- a carried harvest (face up) counts most of its value, less the farther the carrier is from
  its home Delivery tile;
- a planted crop is worth its seen value, or the mean of the chips nobody has seen, shared by
  each seat according to where its empty Harvesters stand (on it, next to it, elsewhere) and
  how near its home is;
- a Drone on plantable Land, an empty Harvester, other bots in play: small worths, so that
  building the machinery of a delivery is rewarded before the bread arrives;
- poisoned Land costs the seat whose home row it is (it can no longer plant there).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .board import ADJACENT, DICE_PER_SEAT, IS_LAND, NUM_DICE, NUM_TILES

if TYPE_CHECKING:
    from .state import BreadWinnerState

# Steps from each tile to each seat's own Delivery tile.
HOME_DISTANCE = ((0, 1, 1, 2, 2, 3), (3, 2, 2, 1, 1, 0))
# Per bot type (index = face) in play on the map; factory bots count FACTORY_SHARE of it.
BOT_WORTH = (0.0, 0.25, 0.3, 0.15, 0.15, 0.1, 0.0)
PILE_DIE = 0.1  # a die in the pile will be rolled again
FACTORY_SHARE = 0.8
SCALE = 2.0
NEIGHBOUR_MASK = tuple(sum(1 << n for n in ADJACENT[t]) for t in range(NUM_TILES))


def _scores(st: BreadWinnerState) -> tuple[float, float]:
    values = st.game.crop_values
    loc, face, carry, crop, known, poison = st.loc, st.face, st.carry, st.crop, st.known, st.poison
    score = [float(st.loaves[0]), float(st.loaves[1])]
    # Mean value of the chips nobody has seen (pile and unseen face-down crops): public.
    hidden = len(st.pile)
    hidden_sum = 0
    for chip in st.pile:
        hidden_sum += values[chip]
    for tile in (1, 2, 3, 4):
        chip = crop[tile]
        if chip >= 0 and not known[tile]:
            hidden += 1
            hidden_sum += values[chip]
    mean_hidden = hidden_sum / hidden if hidden else 2.0
    empty_harvesters = [0, 0]  # per seat: bit t set when an empty Harvester stands on tile t
    for die in range(NUM_DICE):
        where = loc[die]
        seat = die // DICE_PER_SEAT
        if where < 0:
            score[seat] += PILE_DIE
            continue
        kind = face[die]
        if where >= NUM_TILES:
            score[seat] += BOT_WORTH[kind] * FACTORY_SHARE
            continue
        if kind == 2:
            chip = carry[die]
            if chip >= 0:  # the harvest is the worth of a carrying Harvester
                score[seat] += values[chip] * (0.8 - 0.1 * HOME_DISTANCE[seat][where])
            else:
                score[seat] += BOT_WORTH[kind]
                empty_harvesters[seat] |= 1 << where
            continue
        score[seat] += BOT_WORTH[kind]
        if kind == 1 and IS_LAND[where] and crop[where] < 0 and not poison[where]:
            score[seat] += 0.1 * mean_hidden  # a Drone ready to plant
    for tile in (1, 2, 3, 4):
        chip = crop[tile]
        if poison[tile]:
            for seat in (0, 1):
                score[seat] -= 0.25 if HOME_DISTANCE[seat][tile] == 1 else 0.1
        if chip < 0:
            continue
        value = values[chip] if known[tile] else mean_hidden
        for seat in (0, 1):
            # Who is likely to get the crop: an empty own Harvester on it, or next to it.
            mask = empty_harvesters[seat]
            if mask >> tile & 1:
                share = 0.5
            elif mask & NEIGHBOUR_MASK[tile]:
                share = 0.35
            else:
                share = 0.1
            score[seat] += value * share * (1.0 - 0.1 * HOME_DISTANCE[seat][tile])
    return score[0], score[1]


def evaluate(st: BreadWinnerState, seat: int) -> float:
    if st.is_terminal():
        return st.returns()[seat]
    mine, theirs = _scores(st)
    if seat == 1:
        mine, theirs = theirs, mine
    return 1.0 / (1.0 + math.exp(-(mine - theirs) / SCALE))
