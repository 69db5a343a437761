"""Bread Winner's fixed geometry and piece names (ruling BW-R2: the six-tile map).

```
 row 3            [ D_B ]          seat 1 (B) sits here
 row 2       [ L2a ]  [ L2b ]
 row 1       [ L1a ]  [ L1b ]
 row 0            [ D_A ]          seat 0 (A) sits here
```
Each Delivery tile spans the Land row next to it, so it touches both of its Land tiles.
"""

from __future__ import annotations

from enum import IntEnum

NUM_SEATS = 2
DICE_PER_SEAT = 8
NUM_DICE = NUM_SEATS * DICE_PER_SEAT
NUM_LOAVES = 12
NUM_POISON_CHIPS = 4
NUM_FACTORIES = 4

TILE_NAMES = ("D_A", "L1a", "L1b", "L2a", "L2b", "D_B")
NUM_TILES = len(TILE_NAMES)
TILE_INDEX = {name: i for i, name in enumerate(TILE_NAMES)}
# Orthogonal adjacency (undirected): D_A-L1a, D_A-L1b, L1a-L1b, L1a-L2a, L1b-L2b, L2a-L2b,
# L2a-D_B, L2b-D_B.
ADJACENT: tuple[tuple[int, ...], ...] = ((1, 2), (0, 2, 3), (0, 1, 4), (1, 4, 5), (2, 3, 5), (3, 4))
IS_LAND = (False, True, True, True, True, False)
LAND_TILES = (1, 2, 3, 4)
DELIVERY = (0, 5)  # DELIVERY[seat]: that seat's own Delivery tile
SEAT_LETTERS = ("A", "B")

# Where a die is: LOC_PILE, a tile index 0-5, or a factory (factory n is FACTORY_LOC0 + n).
LOC_PILE = -1
FACTORY_LOC0 = 5  # factory 1 -> 6 ... factory 4 -> 9


class Face(IntEnum):
    """Die faces: the bot a die shows."""

    DRONE = 1
    HARVESTER = 2
    LOCUST = 3
    SOLDIER = 4
    SHIELD = 5
    RND = 6


BOT_NAMES = ("", "Drone", "Harvester", "Locust", "Soldier", "Shield", "R&D")
BOT_SHORT = ("", "Dr", "Hv", "Lc", "So", "Sh", "RD")
BOT_FACE = {name: face for face, name in enumerate(BOT_NAMES) if name}
BUILDABLE = (1, 2, 3, 4, 5)
BOT_ABILITIES = {
    "Drone": "Plant: on an unplanted, unpoisoned Land tile, plant a face-down crop chip; the Drone "
    "deactivates. Restore the Soil: on a poisoned tile, remove the poison; the Drone deactivates.",
    "Harvester": "Harvest: pick up the crop chip on its tile (face up). Steal: take the harvest of "
    "a carrying rival Harvester on its tile. Unload (also after moving): on its own Delivery tile, "
    "take that many loaves from the centre, then from the rival; the Harvester deactivates.",
    "Locust": "Poison Land (offensive): poison an unshielded Land tile; a planted crop there is "
    "discarded; the Locust deactivates. Meltdown (offensive): destroy a rival Harvester on its "
    "tile and its harvest; both deactivate.",
    "Soldier": "Pulse (offensive): destroy a rival bot on its own or an adjacent tile; a rival "
    "Shield there absorbs the pulse instead. The Soldier deactivates.",
    "Shield": "Rival bots cannot enter its tile; it absorbs any Pulse aimed at the tile. It cannot "
    "move onto a tile with a rival bot or a friendly Shield.",
    "R&D": "Cannot be built. Three R&D in one roll buy one bot of your choice, six buy two.",
}


def die_name(die: int) -> str:
    """A die's public name: seat letter and number 1-8 ("A3")."""
    return f"{SEAT_LETTERS[die // DICE_PER_SEAT]}{die % DICE_PER_SEAT + 1}"


def where_name(loc: int) -> str:
    if loc == LOC_PILE:
        return "pile"
    if loc < NUM_TILES:
        return TILE_NAMES[loc]
    return f"factory {loc - FACTORY_LOC0}"
