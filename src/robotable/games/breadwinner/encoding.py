"""RL hooks: a fixed action index space and a flat observation built from a view.

Layouts are documented in docs/rules/breadwinner.md ("Encodings").
"""

from __future__ import annotations

from typing import Any

from robotable.core.protocol import Action

from .actions import PHASES, Act, Build, Deactivate, Deploy, EndPhase, Hold, Move, Research
from .board import BOT_FACE, DICE_PER_SEAT, NUM_DICE, NUM_TILES, TILE_INDEX

UNTARGETED = ("plant", "restore", "harvest", "unload", "poison")
TARGETED = ("steal", "meltdown", "pulse")
ACT_SLOTS = len(UNTARGETED) + len(TARGETED) * NUM_DICE  # 53 per die

MOVE_BASE = 0
ACT_BASE = MOVE_BASE + NUM_DICE * NUM_TILES  # 96
HOLD_BASE = ACT_BASE + NUM_DICE * ACT_SLOTS  # 944
DEPLOY_BASE = HOLD_BASE + NUM_DICE  # 960
BUILD_BASE = DEPLOY_BASE + NUM_DICE * NUM_TILES  # 1056
RESEARCH_BASE = BUILD_BASE + 5 * 4  # 1076
DEACTIVATE_BASE = RESEARCH_BASE + 5 * 4  # 1096
END_BASE = DEACTIVATE_BASE + NUM_DICE  # 1112
NUM_DISTINCT_ACTIONS = END_BASE + len(PHASES)  # 1116


def num_distinct_actions(game: Any) -> int:
    return NUM_DISTINCT_ACTIONS


def action_index(game: Any, action: Action) -> int:
    cls = type(action)
    if cls is Move:
        return MOVE_BASE + action.die * NUM_TILES + TILE_INDEX[action.to]
    if cls is Act:
        base = ACT_BASE + action.die * ACT_SLOTS
        if action.ability in UNTARGETED:
            return base + UNTARGETED.index(action.ability)
        slot = TARGETED.index(action.ability)
        return base + len(UNTARGETED) + slot * NUM_DICE + action.target
    if cls is Hold:
        return HOLD_BASE + action.die
    if cls is Deploy:
        return DEPLOY_BASE + action.die * NUM_TILES + TILE_INDEX[action.to]
    if cls is Build:
        return BUILD_BASE + (BOT_FACE[action.bot] - 1) * 4 + action.factory - 1
    if cls is Research:
        return RESEARCH_BASE + (BOT_FACE[action.bot] - 1) * 4 + action.factory - 1
    if cls is Deactivate:
        return DEACTIVATE_BASE + action.die
    if cls is EndPhase:
        return END_BASE + PHASES.index(action.phase)
    raise ValueError(f"game breadwinner: {action!r} is not a Bread Winner action")


PHASE_ORDER = ("map", "follow", "deploy", "build", "deact", "over")
BOT_TYPES = ("Drone", "Harvester", "Locust", "Soldier", "Shield")
TILE_FEATURES = 4 + 2 * len(BOT_TYPES) + 2  # 16
SEAT_FEATURES = 2 + 4 * (1 + len(BOT_TYPES))  # 26
GLOBAL_FEATURES = 4 + len(PHASE_ORDER) + 1 + 1 + 6 + 1  # 19
OBSERVATION_SIZE = NUM_TILES * TILE_FEATURES + 2 * SEAT_FEATURES + GLOBAL_FEATURES  # 167


def observation_size(game: Any) -> int:
    return OBSERVATION_SIZE


def encode_observation(game: Any, view: dict[str, Any]) -> list[float]:
    """Flat features from `seat`'s point of view ("mine" first; a spectator sees as seat 0)."""
    me = view["seat"] if view["seat"] is not None else 0
    out: list[float] = []
    for tile in view["tiles"]:
        crop = tile["crop"]
        out.append(1.0 if crop else 0.0)
        out.append((crop["value"] or 0) / 5.0 if crop else 0.0)
        out.append(1.0 if crop and crop["value"] is None else 0.0)
        out.append(1.0 if tile["poisoned"] else 0.0)
        counts = [0.0] * (2 * len(BOT_TYPES))
        carried = [0.0, 0.0]
        for bot in tile["bots"]:
            side = 0 if bot["owner"] == me else 1
            counts[side * len(BOT_TYPES) + BOT_TYPES.index(bot["type"])] += 0.5
            if bot["carrying"]:
                carried[side] += bot["carrying"] / 5.0
        out.extend(counts)
        out.extend(carried)
    for seat in (me, 1 - me):
        info = view["seats"][seat]
        out.append(info["loaves"] / 12.0)
        out.append(info["pile"] / DICE_PER_SEAT)
        for factory in info["factories"]:
            slot = [0.0] * (1 + len(BOT_TYPES))
            bot = factory["bot"]
            slot[0 if bot is None else 1 + BOT_TYPES.index(bot["type"])] = 1.0
            out.extend(slot)
    out.append(view["loaves_centre"] / 12.0)
    out.append(view["crop_pile"] / 10.0)
    out.append(len(view["discarded_harvest"]) / 10.0)
    out.append(sum(view["discarded_harvest"]) / 30.0)
    phase = [0.0] * len(PHASE_ORDER)
    phase[PHASE_ORDER.index(view["phase"])] = 1.0
    out.extend(phase)
    out.append(1.0 if view["current_player"] == me else 0.0)
    out.append(min(1.0, view["turn"] / (2.0 * view["max_turns"])))
    roll = view["roll"] or {}
    for name in (*BOT_TYPES, "R&D"):
        out.append(roll.get(name, 0) / DICE_PER_SEAT)
    out.append(1.0 if view["first_player"] == me else 0.0)
    return out
