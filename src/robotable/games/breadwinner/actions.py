"""Bread Winner decisions: one small frozen dataclass per kind.

Fields that only serve the label (bot type, tiles by name) are part of the action, so the label
reads on its own ("Harvester A2 L1a -> D_A (home)"); an action whose fields disagree with the
state is simply not legal. The `make_*` factories memoise actions (they are immutable values), so
the hot path builds each distinct action once and `action in legal` hits on identity.
"""

from __future__ import annotations

from robotable.core.protocol import Action, action

from .board import (
    BOT_NAMES,
    DELIVERY,
    DICE_PER_SEAT,
    FACTORY_LOC0,
    NUM_DICE,
    NUM_FACTORIES,
    NUM_TILES,
    TILE_INDEX,
    TILE_NAMES,
    die_name,
    where_name,
)

try:
    import cython
except ImportError:  # no Cython: its declarations do nothing
    from robotable.core import cython_shim as cython

ABILITIES = ("plant", "restore", "harvest", "steal", "unload", "poison", "meltdown", "pulse")
PHASES = ("map", "deploy", "build", "turn")


def _tile_label(tile: str, die: int) -> str:
    """A tile name, marked (home)/(rival) for Delivery tiles as seen by the die's owner."""
    index = TILE_INDEX.get(tile)
    if index is not None and index in DELIVERY:
        return f"{tile} ({'home' if DELIVERY[die // DICE_PER_SEAT] == index else 'rival'})"
    return tile


@action("move")
class Move(Action):
    """Step 1: a map bot moves one step (BW-5.1)."""

    die: int
    bot: str
    frm: str
    to: str

    def label(self) -> str:
        return f"{self.bot} {die_name(self.die)} {self.frm} -> {_tile_label(self.to, self.die)}"


@action("act")
class Act(Action):
    """Step 1: a map bot uses an ability (BW-7.x), before moving or, if offensive, after it."""

    die: int
    bot: str
    at: str
    ability: str
    target: int = -1
    target_bot: str = ""
    target_at: str = ""

    def label(self) -> str:
        head = f"{self.bot} {die_name(self.die)} on {_tile_label(self.at, self.die)}: "
        ability = self.ability
        if ability == "plant":
            return head + "plant a crop"
        if ability == "restore":
            return head + "restore the soil"
        if ability == "harvest":
            return head + "harvest the crop"
        if ability == "steal":
            return head + f"steal the harvest of {self.target_bot} {die_name(self.target)}"
        if ability == "unload":
            return head + "unload the harvest"
        if ability == "poison":
            return head + "poison the land"
        if ability == "meltdown":
            return head + f"meltdown {self.target_bot} {die_name(self.target)}"
        return head + f"pulse {self.target_bot} {die_name(self.target)} on {self.target_at}"


@action("hold")
class Hold(Action):
    """After moving (or deploying), the bot takes no action."""

    die: int
    bot: str
    at: str

    def label(self) -> str:
        return f"{self.bot} {die_name(self.die)} on {_tile_label(self.at, self.die)}: no action"


@action("deploy")
class Deploy(Action):
    """Step 2: a factory bot moves onto the map (BW-5.2)."""

    die: int
    bot: str
    factory: int
    to: str

    def label(self) -> str:
        return (
            f"{self.bot} {die_name(self.die)} factory {self.factory} -> "
            f"{_tile_label(self.to, self.die)}"
        )


@action("build", "build {bot} on factory {factory}")
class Build(Action):
    """Step 3: place a rolled bot on an empty factory (BW-5.3)."""

    bot: str
    factory: int


@action("research", "R&D (spend three): build {bot} on factory {factory}")
class Research(Action):
    """Step 3: spend three rolled R&D to build a bot of one's choice (BW-5.4)."""

    bot: str
    factory: int


@action("deactivate")
class Deactivate(Action):
    """Step 4: return an own bot from the map or a factory to the pile (BW-5.5)."""

    die: int
    bot: str
    at: str

    def label(self) -> str:
        return f"deactivate {self.bot} {die_name(self.die)} on {self.at}"


@action("end")
class EndPhase(Action):
    """Finish the current step of the turn (every step may be skipped, BW-4.2)."""

    phase: str

    def label(self) -> str:
        return {
            "map": "done with the map bots (go to step 2, deploy)",
            "deploy": "done deploying (go to step 3, build)",
            "build": "done building (go to step 4, deactivate)",
            "turn": "end the turn",
        }.get(self.phase, f"end {self.phase}")


ACTION_CLASSES: tuple[type[Action], ...] = (
    Move,
    Act,
    Hold,
    Deploy,
    Build,
    Research,
    Deactivate,
    EndPhase,
)


# -- memoised factories (ints in, shared immutable actions out) --------------------------------
# Each kind's actions sit in a flat table indexed by their small-int fields and are made the
# first time they are asked for: an index computed in C (compiled) instead of a functools cache,
# which hashes a tuple of the arguments at every call. The bounds: dice 0-15, faces 0-6, tiles
# 0-5, factories 1-4, a deactivated die's location -1 (the pile) to 9 (factory 4).
_FACES = len(BOT_NAMES)
_FACTORIES = NUM_FACTORIES + 1
_LOCS = FACTORY_LOC0 + NUM_FACTORIES + 2
_ABILITY = {name: i for i, name in enumerate(ABILITIES)}
_MOVES: list = [None] * (NUM_DICE * _FACES * NUM_TILES * NUM_TILES)
_ACTS: list = [None] * (NUM_DICE * _FACES * NUM_TILES * len(ABILITIES))
_TARGETED: dict = {}  # Acts with a target die (steal, meltdown, pulse), by all their fields
_HOLDS: list = [None] * (NUM_DICE * _FACES * NUM_TILES)
_DEPLOYS: list = [None] * (NUM_DICE * _FACES * _FACTORIES * NUM_TILES)
_BUILDS: list = [None] * (_FACES * _FACTORIES)
_RESEARCH: list = [None] * (_FACES * _FACTORIES)
_DEACTIVATES: list = [None] * (NUM_DICE * _FACES * _LOCS)


@cython.locals(i=cython.Py_ssize_t)
def make_move(die: int, face: int, frm: int, to: int) -> Move:
    i = ((die * _FACES + face) * NUM_TILES + frm) * NUM_TILES + to
    made = _MOVES[i]
    if made is None:
        made = _MOVES[i] = Move(die, BOT_NAMES[face], TILE_NAMES[frm], TILE_NAMES[to])
    return made


@cython.locals(i=cython.Py_ssize_t)
def make_act(
    die: int, face: int, at: int, ability: str, target: int = -1, tface: int = 0, tat: int = -1
) -> Act:
    if target >= 0:
        key = (die, face, at, ability, target, tface, tat)
        made = _TARGETED.get(key)
        if made is None:
            made = _TARGETED[key] = Act(
                die,
                BOT_NAMES[face],
                TILE_NAMES[at],
                ability,
                target,
                BOT_NAMES[tface],
                TILE_NAMES[tat],
            )
        return made
    i = ((die * _FACES + face) * NUM_TILES + at) * len(ABILITIES) + _ABILITY[ability]
    made = _ACTS[i]
    if made is None:
        made = _ACTS[i] = Act(die, BOT_NAMES[face], TILE_NAMES[at], ability)
    return made


@cython.locals(i=cython.Py_ssize_t)
def make_hold(die: int, face: int, at: int) -> Hold:
    i = (die * _FACES + face) * NUM_TILES + at
    made = _HOLDS[i]
    if made is None:
        made = _HOLDS[i] = Hold(die, BOT_NAMES[face], TILE_NAMES[at])
    return made


@cython.locals(i=cython.Py_ssize_t)
def make_deploy(die: int, face: int, factory: int, to: int) -> Deploy:
    i = ((die * _FACES + face) * _FACTORIES + factory) * NUM_TILES + to
    made = _DEPLOYS[i]
    if made is None:
        made = _DEPLOYS[i] = Deploy(die, BOT_NAMES[face], factory, TILE_NAMES[to])
    return made


def make_build(face: int, factory: int) -> Build:
    return _by_face_and_factory(_BUILDS, Build, face, factory)


def make_research(face: int, factory: int) -> Research:
    return _by_face_and_factory(_RESEARCH, Research, face, factory)


@cython.locals(i=cython.Py_ssize_t)
def _by_face_and_factory(table: list, kind: type, face: int, factory: int) -> Action:
    """A Build or Research (`kind`) of a bot type at a factory, from its table."""
    i = face * _FACTORIES + factory
    made = table[i]
    if made is None:
        made = table[i] = kind(BOT_NAMES[face], factory)
    return made


@cython.locals(i=cython.Py_ssize_t)
def make_deactivate(die: int, face: int, loc: int) -> Deactivate:
    i = (die * _FACES + face) * _LOCS + loc + 1
    made = _DEACTIVATES[i]
    if made is None:
        made = _DEACTIVATES[i] = Deactivate(die, BOT_NAMES[face], where_name(loc))
    return made


END_MAP = EndPhase("map")
END_DEPLOY = EndPhase("deploy")
END_BUILD = EndPhase("build")
END_TURN = EndPhase("turn")
