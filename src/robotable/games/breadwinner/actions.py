"""Bread Winner decisions: one small frozen dataclass per kind.

Fields that only serve the label (bot type, tiles by name) are part of the action, so the label
reads on its own ("Harvester A2 L1a -> D_A (home)"); an action whose fields disagree with the
state is simply not legal. The `make_*` factories memoise actions (they are immutable values), so
the hot path builds each distinct action once and `action in legal` hits on identity.
"""

from __future__ import annotations

from functools import cache

from robotable.core.protocol import Action, action

from .board import (
    BOT_NAMES,
    DELIVERY,
    DICE_PER_SEAT,
    TILE_INDEX,
    TILE_NAMES,
    die_name,
    where_name,
)

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
@cache
def make_move(die: int, face: int, frm: int, to: int) -> Move:
    return Move(die, BOT_NAMES[face], TILE_NAMES[frm], TILE_NAMES[to])


@cache
def make_act(
    die: int, face: int, at: int, ability: str, target: int = -1, tface: int = 0, tat: int = -1
) -> Act:
    if target < 0:
        return Act(die, BOT_NAMES[face], TILE_NAMES[at], ability)
    return Act(
        die, BOT_NAMES[face], TILE_NAMES[at], ability, target, BOT_NAMES[tface], TILE_NAMES[tat]
    )


@cache
def make_hold(die: int, face: int, at: int) -> Hold:
    return Hold(die, BOT_NAMES[face], TILE_NAMES[at])


@cache
def make_deploy(die: int, face: int, factory: int, to: int) -> Deploy:
    return Deploy(die, BOT_NAMES[face], factory, TILE_NAMES[to])


@cache
def make_build(face: int, factory: int) -> Build:
    return Build(BOT_NAMES[face], factory)


@cache
def make_research(face: int, factory: int) -> Research:
    return Research(BOT_NAMES[face], factory)


@cache
def make_deactivate(die: int, face: int, loc: int) -> Deactivate:
    return Deactivate(die, BOT_NAMES[face], where_name(loc))


END_MAP = EndPhase("map")
END_DEPLOY = EndPhase("deploy")
END_BUILD = EndPhase("build")
END_TURN = EndPhase("turn")
