"""RL hooks: a fixed action index space and a flat observation built from a view.

Layouts are documented in docs/rules/breadwinner.md ("Encodings").
"""

from __future__ import annotations

from typing import Any

from robotable.core.protocol import Action

from .actions import PHASES, Act, Build, Deactivate, Deploy, EndPhase, Hold, Move, Research
from .board import (
    BOT_FACE,
    BOT_NAMES,
    DICE_PER_SEAT,
    FACTORY_LOC0,
    LOC_PILE,
    NUM_DICE,
    NUM_FACTORIES,
    NUM_TILES,
    TILE_INDEX,
    Face,
)
from .state import PHASE_NAMES, BreadWinnerState, Phase

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
BOT_TYPES = BOT_NAMES[Face.DRONE : Face.SHIELD + 1]  # the buildable bots: face f is type f - 1
ROLL_FACES = BOT_NAMES[Face.DRONE :]  # a roll counts every face, R&D too
TILE_FEATURES = 4 + 2 * len(BOT_TYPES) + 2  # 16
SEAT_FEATURES = 2 + 4 * (1 + len(BOT_TYPES))  # 26
GLOBAL_FEATURES = 4 + len(PHASE_ORDER) + 1 + 1 + 6 + 1  # 19
OBSERVATION_SIZE = NUM_TILES * TILE_FEATURES + 2 * SEAT_FEATURES + GLOBAL_FEATURES  # 167

# The state's phase (an int, P_MAP...) -> its slot in PHASE_ORDER.
PHASE_SLOT = tuple(PHASE_ORDER.index(PHASE_NAMES[phase]) for phase in Phase)
NO_ROLL = (0,) * len(ROLL_FACES)


def observation_size(game: Any) -> int:
    return OBSERVATION_SIZE


# Both encoders below fill the one layout through these: `encode_observation` from a view's
# dicts, `encode_state` from the state's lists (the RL adapters' path, no dicts built), reading
# only what that view shows. A bot is (owner, type index, carried value or 0); a crop's value is
# None while it lies face down unseen.


def _tile(out: list[float], me: int, crop: bool, value: Any, poisoned: bool, bots: list) -> None:
    out.append(1.0 if crop else 0.0)
    out.append((value or 0) / 5.0 if crop else 0.0)
    out.append(1.0 if crop and value is None else 0.0)
    out.append(1.0 if poisoned else 0.0)
    counts = [0.0] * (2 * len(BOT_TYPES))
    carried = [0.0, 0.0]
    for owner, kind, carrying in bots:
        side = 0 if owner == me else 1
        counts[side * len(BOT_TYPES) + kind] += 0.5
        if carrying:
            carried[side] += carrying / 5.0
    out.extend(counts)
    out.extend(carried)


def _seat(out: list[float], loaves: int, pile: int, factories: list) -> None:
    """`factories`: the type index of the bot on each factory, -1 for an empty one."""
    out.append(loaves / 12.0)
    out.append(pile / DICE_PER_SEAT)
    for kind in factories:
        slot = [0.0] * (1 + len(BOT_TYPES))
        slot[1 + kind] = 1.0
        out.extend(slot)


def _public(
    out: list[float],
    me: int,
    centre: int,
    crop_pile: int,
    discarded: list,
    phase: int,
    deciding: int,
    turn: int,
    max_turns: int,
    roll: Any,
    first: int,
) -> None:
    """The global features: `phase` a slot of PHASE_ORDER, `roll` a count per ROLL_FACES."""
    out.append(centre / 12.0)
    out.append(crop_pile / 10.0)
    out.append(len(discarded) / 10.0)
    out.append(sum(discarded) / 30.0)
    phases = [0.0] * len(PHASE_ORDER)
    phases[phase] = 1.0
    out.extend(phases)
    out.append(1.0 if deciding == me else 0.0)
    out.append(min(1.0, turn / (2.0 * max_turns)))
    for count in roll:
        out.append(count / DICE_PER_SEAT)
    out.append(1.0 if first == me else 0.0)


def encode_observation(game: Any, view: dict[str, Any]) -> list[float]:
    """Flat features from `seat`'s point of view ("mine" first; a spectator sees as seat 0)."""
    me = view["seat"] if view["seat"] is not None else 0
    out: list[float] = []
    for tile in view["tiles"]:
        crop = tile["crop"]
        bots = [
            (bot["owner"], BOT_TYPES.index(bot["type"]), bot["carrying"]) for bot in tile["bots"]
        ]
        value = crop["value"] if crop is not None else None
        _tile(out, me, crop is not None, value, tile["poisoned"], bots)
    for seat in (me, 1 - me):
        info = view["seats"][seat]
        factories = [
            -1 if f["bot"] is None else BOT_TYPES.index(f["bot"]["type"]) for f in info["factories"]
        ]
        _seat(out, info["loaves"], info["pile"], factories)
    roll = view["roll"] or {}
    _public(
        out,
        me,
        view["loaves_centre"],
        view["crop_pile"],
        view["discarded_harvest"],
        PHASE_ORDER.index(view["phase"]),
        view["current_player"],
        view["turn"],
        view["max_turns"],
        [roll.get(name, 0) for name in ROLL_FACES],
        view["first_player"],
    )
    return out


def encode_state(game: Any, st: BreadWinnerState, seat: Any) -> list[float]:
    """`encode_observation(game, st.observation_view(seat))`, read from the state. Every die is
    public (BW-8), so is every count here; a face-down crop's value only once everyone has seen
    it (`known`), as the view shows it."""
    me = seat if seat is not None else 0
    values = game.crop_values
    loc = st.loc
    face = st.face
    carry = st.carry
    out: list[float] = []
    on_tile: list[list] = [[] for _ in range(NUM_TILES)]  # each tile's bots, in die order
    in_pile = [0, 0]
    factories = [[-1] * NUM_FACTORIES, [-1] * NUM_FACTORIES]
    for d in range(NUM_DICE):
        where = loc[d]
        owner = d // DICE_PER_SEAT
        if where == LOC_PILE:
            in_pile[owner] += 1
        elif where < NUM_TILES:
            chip = carry[d]
            on_tile[where].append((owner, face[d] - 1, values[chip] if chip >= 0 else 0))
        elif factories[owner][where - FACTORY_LOC0 - 1] < 0:  # the view shows the first die
            factories[owner][where - FACTORY_LOC0 - 1] = face[d] - 1
    crop = st.crop
    known = st.known
    poison = st.poison
    for t in range(NUM_TILES):
        chip = crop[t]
        value = values[chip] if chip >= 0 and known[t] else None
        _tile(out, me, chip >= 0, value, poison[t], on_tile[t])
    for s in (me, 1 - me):
        _seat(out, st.loaves[s], in_pile[s], factories[s])
    _public(
        out,
        me,
        st.centre,
        len(st.pile),
        [values[chip] for chip in st.discards],
        PHASE_SLOT[st.phase],
        st.current_player(),
        st.turn,
        game.max_turns,
        NO_ROLL if st.roll is None else st.roll,
        st.first,
    )
    return out
