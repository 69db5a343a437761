"""A Bread Winner position evaluation for agents (greedy one-ply, MCTS leaves).

It estimates each seat's future bread from public information only (BW-8), then passes the
difference through a logistic curve, so the value stays in [0, 1]:
- loaves held count in full;
- a carried harvest (face up) counts most of its value, less the farther the carrier is from
  its home Delivery tile and less again for each rival threat on it (a rival Soldier in pulse
  range with no own Shield there, a rival Locust on its tile, an empty rival Harvester on its
  tile that can steal it);
- a planted crop is worth its seen value, or the mean of the chips nobody has seen, shared by
  the seats according to where their empty Harvesters stand and how near their homes are;
- every bot is worth what it can do where it stands: a Drone on plantable or poisoned Land, an
  empty Harvester on Land, a Soldier with rival bots in range, a Locust beside a rival Harvester
  or on the rival's home row, a Shield guarding a crop. A bot that can do nothing is worth less
  than a die in the pile, which will be rolled again, so agents recycle idle bots in step 4;
- the first Harvester in play is worth a bonus (no crop comes home without one);
- poisoned Land costs the seat whose home row it is (it can no longer plant there).

Why the threats, the recycling and the first-Harvester bonus: without them, one-ply agents let the
map fill with idle bots (nobody deactivated, no die was left to roll) and passed one harvest back
and forth by Steal, and 98% of greedy games stopped at the turn cap (docs/balancing.md, "Bread
Winner: games that end"). The weights were tuned with the lab (`robotable tune breadwinner --config breadwinner-weights`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from .board import ADJACENT, DICE_PER_SEAT, FACTORY_LOC0, IS_LAND, NUM_DICE, NUM_TILES
from .state import BreadWinnerState

try:
    import cython
except ImportError:  # no Cython: its declarations do nothing
    from robotable.core import cython_shim as cython

# Steps from each tile to each seat's own Delivery tile.
HOME_DISTANCE = ((0, 1, 1, 2, 2, 3), (3, 2, 2, 1, 1, 0))
NEIGHBOUR_MASK = tuple(sum(1 << n for n in ADJACENT[t]) for t in range(NUM_TILES))
REACH_MASK = tuple(NEIGHBOUR_MASK[t] | 1 << t for t in range(NUM_TILES))
# Tiles a bot on factory n reaches when deployed (a path of n tiles, home Delivery first).
FACTORY_REACH = tuple(
    tuple(sum(1 << t for t in range(NUM_TILES) if HOME_DISTANCE[seat][t] < n) for n in range(5))
    for seat in (0, 1)
)


@dataclass(frozen=True, slots=True)
class Weights:
    """The evaluation's numbers, in loaves. Agents use DEFAULT; the tuning script varies them."""

    pile_die: float = 0.152  # a die in the pile will be rolled again
    idle_bot: float = 0.092  # a bot on the map with nothing to do where it stands
    factory_bot: float = 0.173  # a Drone or Harvester on a factory, ready to deploy
    idle_factory_bot: float = 0.11  # a fighting bot on a factory with nothing in reach
    factory_fighter_bonus: float = 0.065  # ... with something in reach
    first_harvester: float = 0.5
    harvester: float = 0.241  # an empty Harvester on Land
    drone_plant: float = 0.555  # a Drone on plantable Land: this share of its crop's edge
    factory_drone_per_loaf: float = 0.03
    drone_restore: float = 0.246  # a Drone on poisoned Land
    locust_hunting: float = 0.345  # a Locust on a tile with a rival Harvester
    locust_poisoning: float = 0.35  # a Locust on the rival's unpoisoned home row
    soldier_per_target: float = 0.095  # up to two rival bots in pulse range
    shield_guarding: float = 0.22  # a Shield on Land with a crop
    carry_home: float = 0.85  # share of a carried harvest at the Delivery tile
    carry_per_step: float = 0.185  # ... less this per step from home
    steal_risk: float = 0.404  # share kept with an empty rival Harvester on the tile
    meltdown_risk: float = 0.6  # ... with a rival Locust on the tile
    pulse_risk: float = 0.6  # ... in a rival Soldier's range without an own Shield
    claim_on: float = 0.6  # crop share with an own empty Harvester on the crop
    claim_next: float = 0.45  # ... next to it
    claim_factory: float = 0.35  # ... on a factory that reaches it
    claim_home_row: float = 0.3  # ... nobody near, the crop on the own home row
    claim_far: float = 0.12  # ... nobody near, elsewhere
    poison_home_row: float = 0.45
    poison_far: float = 0.1
    scale: float = 2.0  # loaves of lead that make the logistic curve 0.73


DEFAULT = Weights()

# The same evaluation with its numbers fitted to the results of 160 games between two `hard`
# searches (`scripts/fit_heuristic.py breadwinner`: the log loss of each position's value
# against who went on to win, a fifth of the games held out; the die and idle-bot values kept as
# shipped, since fitted they fall below an idle bot and games freeze). DEFAULT picks good moves
# one ply ahead, which is what greedy needs; these value positions deep in a search better: with
# them as its leaf values, `hard`'s search beats itself with DEFAULT's (docs/ai.md), while greedy
# with them plays far worse. Offered to the search as `leaf=fitted`; Bread Winner's `expert` uses it.
FITTED = replace(
    DEFAULT,
    factory_fighter_bonus=0.0863,
    first_harvester=0.5818,
    harvester=0.2653,
    drone_plant=0.8015,
    factory_drone_per_loaf=0.0005,
    drone_restore=0.2573,
    locust_hunting=0.3758,
    locust_poisoning=0.4369,
    soldier_per_target=0.098,
    shield_guarding=0.2217,
    carry_home=0.9996,
    carry_per_step=0.0769,
    steal_risk=0.6573,
    meltdown_risk=0.5646,
    pulse_risk=0.6715,
    claim_on=0.7863,
    claim_next=0.3827,
    claim_factory=0.362,
    claim_home_row=0.2214,
    claim_far=0.1169,
    poison_home_row=0.7265,
    poison_far=0.0864,
    scale=4.208,
)


@cython.locals(tile=cython.long, seat=cython.long)
def _claims(
    w: Weights, tile: int, harvesters: list[int], factory_harvesters: list[int]
) -> tuple[float, float]:
    """Each seat's expected share of a crop on `tile`, discounted for the way home.

    One crop has one owner, so claims that add up to more than the whole are scaled down.
    """
    claims = [0.0, 0.0]
    for seat in (0, 1):
        if harvesters[seat] >> tile & 1:
            claims[seat] = w.claim_on
        elif harvesters[seat] & NEIGHBOUR_MASK[tile]:
            claims[seat] = w.claim_next
        elif factory_harvesters[seat] >> tile & 1:
            claims[seat] = w.claim_factory
        elif HOME_DISTANCE[seat][tile] == 1:
            claims[seat] = w.claim_home_row
        else:
            claims[seat] = w.claim_far
    scale = 1.0 / max(1.0, claims[0] + claims[1])
    return (
        claims[0] * scale * (1.0 - 0.1 * HOME_DISTANCE[0][tile]),
        claims[1] * scale * (1.0 - 0.1 * HOME_DISTANCE[1][tile]),
    )


@cython.locals(
    st=BreadWinnerState,
    loc=list,
    face=list,
    carry=list,
    crop=list,
    known=list,
    poison=list,
    die=cython.long,
    where=cython.long,
    seat=cython.long,
    rival=cython.long,
    kind=cython.long,
    chip=cython.long,
    tile=cython.long,
    bit=cython.long,
)
def scores(st: BreadWinnerState, w: Weights = DEFAULT) -> tuple[float, float]:
    """Each seat's expected bread, in loaves."""
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

    # Where each seat's bots stand, as tile bit masks, per kind of bot.
    bots = [0, 0]
    harvesters = [0, 0]  # empty Harvesters on the map
    factory_harvesters = [0, 0]  # tiles reached by an empty Harvester on a factory
    locusts = [0, 0]
    soldier_reach = [0, 0]
    shields = [0, 0]
    carriers = [0, 0]
    has_harvester = [False, False]
    pile_dice = [0, 0]
    for die in range(NUM_DICE):
        where = loc[die]
        seat = die // DICE_PER_SEAT
        if where < 0:
            pile_dice[seat] += 1
            continue
        kind = face[die]
        if kind == 2:
            has_harvester[seat] = True
        if where >= NUM_TILES:
            if kind == 2:
                factory_harvesters[seat] |= FACTORY_REACH[seat][where - FACTORY_LOC0]
            continue
        bit = 1 << where
        bots[seat] |= bit
        if kind == 2:
            if carry[die] >= 0:
                carriers[seat] |= bit
            else:
                harvesters[seat] |= bit
        elif kind == 3:
            locusts[seat] |= bit
        elif kind == 4:
            soldier_reach[seat] |= REACH_MASK[where]
        elif kind == 5:
            shields[seat] |= bit
    plantable = 0
    poisonable = [0, 0]  # per seat: its unpoisoned, unshielded home-row Land
    for tile in (1, 2, 3, 4):
        if crop[tile] < 0 and not poison[tile]:
            plantable |= 1 << tile
        if not poison[tile] and not (shields[0] | shields[1]) >> tile & 1:
            poisonable[0 if HOME_DISTANCE[0][tile] == 1 else 1] |= 1 << tile

    for seat in (0, 1):
        score[seat] += w.pile_die * pile_dice[seat]
        # A seat without a Harvester values its pile by the chance the next roll shows one.
        chance = 1.0 if has_harvester[seat] else 1.0 - (5 / 6) ** pile_dice[seat]
        score[seat] += w.first_harvester * chance

    for die in range(NUM_DICE):
        where = loc[die]
        if where < 0:
            continue
        seat = die // DICE_PER_SEAT
        rival = 1 - seat
        kind = face[die]
        if where >= NUM_TILES:  # on a factory: worth what it could do where it can go
            reach = FACTORY_REACH[seat][where - FACTORY_LOC0]
            if kind == 2:
                score[seat] += w.factory_bot
            elif kind == 1:
                bonus = w.factory_drone_per_loaf * mean_hidden if plantable & reach else 0.0
                score[seat] += w.factory_bot + bonus
            elif kind == 4:
                bonus = w.factory_fighter_bonus if bots[rival] & reach else 0.0
                score[seat] += w.idle_factory_bot + bonus
            elif kind == 3:
                prey = (harvesters[rival] | carriers[rival] | poisonable[rival]) & reach
                score[seat] += w.idle_factory_bot + (w.factory_fighter_bonus if prey else 0.0)
            else:
                bonus = w.factory_fighter_bonus if carriers[seat] else 0.0
                score[seat] += w.idle_factory_bot + bonus
            continue
        bit = 1 << where
        if kind == 2:
            chip = carry[die]
            if chip < 0:  # an empty Harvester belongs on Land, not parked on a Delivery tile
                score[seat] += w.harvester if IS_LAND[where] else w.idle_bot
                continue
            # The harvest is the worth of a carrying Harvester, at risk from rival threats.
            keep = 1.0
            if harvesters[rival] & bit:
                keep *= w.steal_risk
                score[rival] += values[chip] * (1.0 - w.steal_risk) * 0.5
            if locusts[rival] & bit:
                keep *= w.meltdown_risk
            if soldier_reach[rival] & bit and not shields[seat] & bit:
                keep *= w.pulse_risk
            way_home = w.carry_home - w.carry_per_step * HOME_DISTANCE[seat][where]
            score[seat] += values[chip] * keep * way_home
        elif kind == 1:
            if IS_LAND[where] and poison[where]:
                score[seat] += w.drone_restore
            elif plantable >> where & 1:
                # Worth part of what planting here would bring: the crop's share against the
                # rival's. Where the rival would more likely take the crop, the Drone is idle.
                claim = _claims(w, where, harvesters, factory_harvesters)
                edge = mean_hidden * (claim[seat] - claim[rival])
                score[seat] += w.idle_bot + w.drone_plant * max(0.0, edge)
            else:
                score[seat] += w.idle_bot
        elif kind == 3:
            if (harvesters[rival] | carriers[rival]) & bit:
                score[seat] += w.locust_hunting
            elif IS_LAND[where] and not poison[where] and HOME_DISTANCE[rival][where] == 1:
                score[seat] += w.locust_poisoning
            else:
                score[seat] += w.idle_bot
        elif kind == 4:
            targets = bin(bots[rival] & REACH_MASK[where]).count("1")
            score[seat] += w.idle_bot + w.soldier_per_target * min(targets, 2)
        elif kind == 5:
            # It guards a crop from Poison Land (BW-R17); what it does for a carried harvest is
            # counted in that harvest's pulse risk.
            guarding = IS_LAND[where] and crop[where] >= 0
            score[seat] += w.shield_guarding if guarding else w.idle_bot

    for tile in (1, 2, 3, 4):
        if poison[tile]:
            for seat in (0, 1):
                home_row = HOME_DISTANCE[seat][tile] == 1
                score[seat] -= w.poison_home_row if home_row else w.poison_far
        chip = crop[tile]
        if chip < 0:
            continue
        value = values[chip] if known[tile] else mean_hidden
        claim = _claims(w, tile, harvesters, factory_harvesters)
        score[0] += value * claim[0]
        score[1] += value * claim[1]
    return score[0], score[1]


@cython.locals(st=BreadWinnerState)
def evaluate(st: BreadWinnerState, seat: int, w: Weights = DEFAULT) -> float:
    if st.is_terminal():
        return st.returns()[seat]
    mine, theirs = scores(st, w)
    if seat == 1:
        mine, theirs = theirs, mine
    return 1.0 / (1.0 + math.exp(-(mine - theirs) / w.scale))


@cython.locals(st=BreadWinnerState)
def evaluate_all(st: BreadWinnerState, w: Weights = DEFAULT) -> list[float]:
    """Both seats' `evaluate` from one pass over the board: an MCTS leaf needs both."""
    if st.is_terminal():
        return st.returns()
    first, second = scores(st, w)
    return [
        1.0 / (1.0 + math.exp(-(first - second) / w.scale)),
        1.0 / (1.0 + math.exp(-(second - first) / w.scale)),
    ]


@cython.locals(st=BreadWinnerState)
def evaluate_all_fitted(st: BreadWinnerState) -> list[float]:
    """`evaluate_all` with the FITTED numbers: a search's leaf values (`leaf=fitted`)."""
    return evaluate_all(st, FITTED)


# The search's other leaf values, by name (`Game.leaf_evaluations`, the option `leaf=NAME`).
LEAF_EVALUATIONS = {"fitted": evaluate_all_fitted}
