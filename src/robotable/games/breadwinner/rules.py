"""The Bread Winner forward model: setup, legal actions and their effects, as functions over the
state.

No I/O. Rule numbers (BW-x.y) refer to docs/rules/breadwinner.md. After every action `advance`
moves the turn past steps that offer nothing to decide (an empty step is a skipped step, BW-4.2)
and leaves the next decision's legal actions in the state's cache.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

try:
    import cython
except ImportError:  # no Cython: its declarations do nothing
    from robotable.core import cython_shim as cython

from .actions import (
    END_BUILD,
    END_DEPLOY,
    END_MAP,
    END_TURN,
    Act,
    Build,
    Deactivate,
    Deploy,
    EndPhase,
    Hold,
    Move,
    Research,
    make_act,
    make_build,
    make_deactivate,
    make_deploy,
    make_hold,
    make_move,
    make_research,
)
from .board import (
    ADJACENT,
    BOT_FACE,
    BOT_NAMES,
    DELIVERY,
    DICE_PER_SEAT,
    FACTORY_LOC0,
    IS_LAND,
    LOC_PILE,
    NUM_FACTORIES,
    NUM_LOAVES,
    NUM_TILES,
    TILE_INDEX,
    TILE_NAMES,
    die_name,
)
from .state import (
    NUM_TALLY,
    P_BUILD,
    P_DEACT,
    P_DEPLOY,
    P_FOLLOW,
    P_MAP,
    P_OVER,
    T_ABSORBED,
    T_BUILT,
    T_DEACT,
    T_DELIVERIES,
    T_HARVESTS,
    T_LOAVES,
    T_MELTDOWNS,
    T_PLANTS,
    T_POISONS,
    T_PULSES,
    T_RESEARCH,
    T_RESTORES,
    T_STEALS,
    T_TAKEN,
    BreadWinnerState,
)

# The turn steps and tally slots are the state's fields, so state.py defines them; `Phase` stays
# importable from here, where it used to be defined (tests import rules.Phase).
from .state import Phase as Phase

DIE_NAMES = tuple(die_name(d) for d in range(16))

if TYPE_CHECKING:
    from robotable.core.protocol import Action

DRONE, HARVESTER, LOCUST, SOLDIER, SHIELD, RND = 1, 2, 3, 4, 5, 6
FIRST_FACTORY, LAST_FACTORY = FACTORY_LOC0 + 1, FACTORY_LOC0 + 4


# -- occupancy and movement (BW-5.1, BW-5.2, BW-6) ---------------------------------------------
@cython.locals(st=BreadWinnerState, occ=list, die=cython.Py_ssize_t, loc=cython.long)
def occupants(st: BreadWinnerState) -> list[list[int]]:
    """The dice at each place, in die order: tiles 0-5, factories 6-9, the pile at index -1."""
    occ: list[list[int]] = [[], [], [], [], [], [], [], [], [], [], []]
    for die, loc in enumerate(st.loc):
        occ[loc].append(die)
    return occ


@cython.locals(face=list, here=list, seat=cython.long, shield=cython.bint, other=cython.long)
def can_enter(face: list[int], here: list[int], seat: int, shield: bool) -> bool:
    """BW-5.1: a bot may stop on a tile with fewer than two bots and no rival Shield; a Shield
    also never stops on a tile with a rival bot or a friendly Shield (BW-7.5)."""
    if len(here) >= 2:
        return False
    for other in here:
        if other // DICE_PER_SEAT != seat:
            if shield or face[other] == SHIELD:
                return False
        elif shield and face[other] == SHIELD:
            return False
    return True


@cython.locals(
    face=list, here=list, seat=cython.long, shield=cython.bint, other=cython.long, rival=cython.bint
)
def can_pass(face: list[int], here: list[int], seat: int, shield: bool) -> bool:
    """BW-5.2 (and ruling BW-R3): a deploying bot passes through any tile holding only friendly
    bots, or a tile it could stop on; a rival Shield, or two bots with a rival among them, block
    it; a Shield never passes a rival bot."""
    rival = False
    for other in here:
        if other // DICE_PER_SEAT != seat:
            if shield or face[other] == SHIELD:
                return False
            rival = True
    return not rival or len(here) < 2


@cython.locals(
    st=BreadWinnerState,
    die=cython.long,
    occ=list,
    seat=cython.long,
    face=list,
    shield=cython.bint,
    reach=cython.long,
    home=cython.long,
    step=cython.long,
    tile=cython.long,
    nb=cython.long,
)
def deploy_stops(st: BreadWinnerState, die: int, occ: list[list[int]]) -> list[int]:
    """BW-5.2: tiles a factory bot may stop on; entering its own Delivery tile is step 1 and the
    factory number bounds the path length (ruling BW-R2)."""
    seat = die // DICE_PER_SEAT
    face = st.face
    shield = face[die] == SHIELD
    reach = st.loc[die] - FACTORY_LOC0
    home = DELIVERY[seat]
    if not can_pass(face, occ[home], seat, shield):
        return []
    stops: list[int] = []
    seen = {home}
    frontier = [home]
    step = 1
    while frontier:
        nxt: list[int] = []
        for tile in frontier:
            if can_enter(face, occ[tile], seat, shield):
                stops.append(tile)
            if step < reach:
                for nb in ADJACENT[tile]:
                    if nb not in seen and can_pass(face, occ[nb], seat, shield):
                        seen.add(nb)
                        nxt.append(nb)
        frontier = nxt
        step += 1
    stops.sort()
    return stops


# -- abilities (BW-7) --------------------------------------------------------------------------
@cython.locals(
    st=BreadWinnerState,
    die=cython.long,
    occ=list,
    moved=cython.bint,
    seat=cython.long,
    face=list,
    kind=cython.long,
    tile=cython.long,
    chip=cython.long,
    other=cython.long,
    loot=cython.long,
    target_tile=cython.long,
)
def abilities(st: BreadWinnerState, die: int, occ: list[list[int]], moved: bool) -> list[Action]:
    """The abilities `die` may use now. After a move only offensive actions (Poison Land,
    Meltdown, Pulse) and Unload remain (BW-5.1, ruling BW-R9)."""
    seat = die // DICE_PER_SEAT
    face = st.face
    kind = face[die]
    tile = st.loc[die]
    out: list[Action] = []
    if kind == DRONE:
        if moved:
            return out
        # BW-7.1 Plant: Land, no crop, not poisoned (ruling BW-R7), a chip to draw (BW-R8).
        if IS_LAND[tile] and st.crop[tile] < 0 and not st.poison[tile] and (st.pile or st.discards):
            out.append(make_act(die, kind, tile, "plant"))
        if st.poison[tile]:  # BW-7.2 Restore the Soil
            out.append(make_act(die, kind, tile, "restore"))
    elif kind == HARVESTER:
        chip = st.carry[die]
        if chip < 0:
            if moved:  # ruling BW-R9: Harvest and Steal do not follow a move
                return out
            if st.crop[tile] >= 0:  # BW-7.3 Harvest
                out.append(make_act(die, kind, tile, "harvest"))
            values = st.game.crop_values
            seen: set[int] = set()
            for other in occ[tile]:  # BW-7.4 Steal: a carrying rival Harvester on this tile
                if other // DICE_PER_SEAT != seat and face[other] == HARVESTER:
                    loot = st.carry[other]
                    if loot >= 0 and values[loot] not in seen:
                        seen.add(values[loot])
                        out.append(make_act(die, kind, tile, "steal", other, HARVESTER, tile))
        elif tile == DELIVERY[seat]:  # BW-7.5 Unload, on or after moving to the own Delivery
            out.append(make_act(die, kind, tile, "unload"))
    elif kind == LOCUST:
        here = occ[tile]
        # BW-7.6 Poison Land: unpoisoned Land not guarded by a Shield.
        # (A list, not a generator: compiled, a generator cannot read the C-typed locals.)
        if IS_LAND[tile] and not st.poison[tile] and SHIELD not in [face[o] for o in here]:
            out.append(make_act(die, kind, tile, "poison"))
        values = st.game.crop_values
        seen = set()
        for other in here:  # BW-7.7 Meltdown: a rival Harvester (ruling BW-R10)
            if other // DICE_PER_SEAT != seat and face[other] == HARVESTER:
                loot = st.carry[other]
                key = values[loot] if loot >= 0 else 0
                if key not in seen:
                    seen.add(key)
                    out.append(make_act(die, kind, tile, "meltdown", other, HARVESTER, tile))
    elif kind == SOLDIER:
        # BW-7.8 Pulse: a rival bot on this or an adjacent tile (ruling BW-R11); a rival Shield
        # there is the only possible target on its tile (it absorbs the pulse).
        values = st.game.crop_values
        for target_tile in (tile, *ADJACENT[tile]):
            rivals = [o for o in occ[target_tile] if o // DICE_PER_SEAT != seat]
            if not rivals:
                continue
            shields = [o for o in rivals if face[o] == SHIELD]
            if shields:
                rivals = shields[:1]
            seen_keys: set[tuple[int, int]] = set()
            for other in rivals:
                loot = st.carry[other]
                key = (face[other], values[loot] if loot >= 0 else 0)
                if key not in seen_keys:
                    seen_keys.add(key)
                    out.append(make_act(die, kind, tile, "pulse", other, face[other], target_tile))
    return out


# -- legal actions per step --------------------------------------------------------------------
@cython.locals(
    st=BreadWinnerState,
    seat=cython.long,
    occ=list,
    face=list,
    loc=list,
    used=list,
    carry=list,
    die=cython.long,
    tile=cython.long,
    kind=cython.long,
    chip=cython.long,
    shield=cython.bint,
    nb=cython.long,
)
def map_actions(st: BreadWinnerState) -> list[Action]:
    """BW-5.1: every unused map bot may move one step or act. Identical bots (same type, tile and
    harvest value) offer their choices once, through the lowest die (ruling BW-R13)."""
    seat = st.seat
    occ = occupants(st)
    face, loc, used, carry = st.face, st.loc, st.used, st.carry
    values = st.game.crop_values
    out: list[Action] = []
    seen: set[tuple[int, int, int]] = set()
    for die in range(seat * DICE_PER_SEAT, (seat + 1) * DICE_PER_SEAT):
        tile = loc[die]
        if tile < 0 or tile >= NUM_TILES or used[die]:
            continue
        kind = face[die]
        chip = carry[die]
        key = (kind, tile, values[chip] if chip >= 0 else 0)
        if key in seen:
            continue
        seen.add(key)
        shield = kind == SHIELD
        for nb in ADJACENT[tile]:
            if can_enter(face, occ[nb], seat, shield):
                out.append(make_move(die, kind, tile, nb))
        out.extend(abilities(st, die, occ, False))
    return out


@cython.locals(
    st=BreadWinnerState, occ=list, loc=list, face=list, die=cython.long, where=cython.long
)
def deploy_actions(st: BreadWinnerState) -> list[Action]:
    occ = occupants(st)
    out: list[Action] = []
    loc, face = st.loc, st.face
    for die in range(st.seat * DICE_PER_SEAT, (st.seat + 1) * DICE_PER_SEAT):
        where = loc[die]
        if FIRST_FACTORY <= where <= LAST_FACTORY:
            for tile in deploy_stops(st, die, occ):
                out.append(make_deploy(die, face[die], where - FACTORY_LOC0, tile))
    return out


@cython.locals(st=BreadWinnerState, seat=cython.long, taken=list, loc=list, die=cython.long)
def empty_factories(st: BreadWinnerState, seat: int) -> list[int]:
    taken = [False] * 5
    loc = st.loc
    for die in range(seat * DICE_PER_SEAT, (seat + 1) * DICE_PER_SEAT):
        if loc[die] >= FIRST_FACTORY:
            taken[loc[die] - FACTORY_LOC0] = True
    return [n for n in (1, 2, 3, 4) if not taken[n]]


@cython.locals(st=BreadWinnerState, kind=cython.long)
def build_actions(st: BreadWinnerState) -> list[Action]:
    """BW-5.3/5.4: rolled faces onto empty factories; three R&D buy any bot."""
    roll = st.roll
    if roll is None:
        return []
    empties = empty_factories(st, st.seat)
    if not empties:
        return []
    if st.turn == 1 and NUM_FACTORIES - len(empties) >= st.game.first_turn_bots:
        return []  # BW-R20: the first player's first build is capped
    out: list[Action] = []
    for kind in (1, 2, 3, 4, 5):
        if roll[kind - 1]:
            for number in empties:
                out.append(make_build(kind, number))
    if roll[RND - 1] >= 3:
        for kind in (1, 2, 3, 4, 5):
            for number in empties:
                out.append(make_research(kind, number))
    return out


@cython.locals(
    st=BreadWinnerState,
    loc=list,
    face=list,
    carry=list,
    die=cython.long,
    where=cython.long,
    chip=cython.long,
)
def deactivate_actions(st: BreadWinnerState) -> list[Action]:
    """BW-5.5: any own bot on the map or a factory (identical bots offered once)."""
    out: list[Action] = []
    seen: set[tuple[int, int, int]] = set()
    loc, face, carry = st.loc, st.face, st.carry
    values = st.game.crop_values
    for die in range(st.seat * DICE_PER_SEAT, (st.seat + 1) * DICE_PER_SEAT):
        where = loc[die]
        if where == LOC_PILE:
            continue
        chip = carry[die]
        key = (face[die], where, values[chip] if chip >= 0 else 0)
        if key not in seen:
            seen.add(key)
            out.append(make_deactivate(die, face[die], where))
    return out


@cython.locals(st=BreadWinnerState, die=cython.long)
def follow_actions(st: BreadWinnerState) -> list[Action]:
    die = st.follow
    acts = abilities(st, die, occupants(st), True)
    acts.append(make_hold(die, st.face[die], st.loc[die]))
    return acts


@cython.locals(st=BreadWinnerState, phase=cython.long)
def legal_actions(st: BreadWinnerState) -> list[Action]:
    """The decision the state stands at (always one with a real choice, see `advance`)."""
    phase = st.phase
    if phase == P_MAP:
        return [*map_actions(st), END_MAP]
    if phase == P_FOLLOW:
        return follow_actions(st)
    if phase == P_DEPLOY:
        return [*deploy_actions(st), END_DEPLOY]
    if phase == P_BUILD:
        return [*build_actions(st), END_TURN if st.turn <= 2 else END_BUILD]
    if phase == P_DEACT:
        return [*deactivate_actions(st), END_TURN]
    return []


# -- turn flow (BW-4) --------------------------------------------------------------------------
@cython.locals(st=BreadWinnerState)
def setup(st: BreadWinnerState) -> list[dict[str, Any]]:
    """A fresh table (BW-3.1, every die in its pile) -> the first player's opening roll (BW-5.3)
    and the first decision; returns the events of the roll. With the fairness rulings the second
    player first takes its loaves from the centre (BW-R19) and the first player's first build is
    capped (BW-R20)."""
    events: list[dict[str, Any]] = []
    head_start = st.game.second_player_loaves
    if head_start:
        second = 1 - st.first
        st.loaves[second] += head_start
        st.centre -= head_start
        if not st.quiet:
            events.append(
                {
                    "type": "head_start",
                    "seat": second,
                    "loaves": head_start,
                    "centre": st.centre,
                }
            )
    if st.game.first_turn_bots < NUM_FACTORIES and not st.quiet:
        events.append(
            {"type": "first_turn_limit", "seat": st.first, "bots": st.game.first_turn_bots}
        )
    enter_build(st, events)
    advance(st, events)
    return events


@cython.locals(st=BreadWinnerState, phase=cython.long)
def advance(st: BreadWinnerState, events: list[dict[str, Any]]) -> None:
    """Skip steps with nothing to decide (BW-4.2) and cache the next decision's legal actions."""
    while True:
        phase = st.phase
        if phase == P_OVER:
            st._legal = []
            return
        if phase == P_MAP:
            acts = map_actions(st)
            if acts:
                acts.append(END_MAP)
                st._legal = acts
                return
            st.phase = P_DEPLOY
        elif phase == P_FOLLOW:
            st._legal = follow_actions(st)
            return
        elif phase == P_DEPLOY:
            acts = deploy_actions(st)
            if acts:
                acts.append(END_DEPLOY)
                st._legal = acts
                return
            enter_build(st, events)
        elif phase == P_BUILD:
            acts = build_actions(st)
            if acts:
                acts.append(END_TURN if st.turn <= 2 else END_BUILD)
                st._legal = acts
                return
            leave_build(st, events)
        else:  # step 4
            acts = deactivate_actions(st)
            if acts:
                acts.append(END_TURN)
                st._legal = acts
                return
            end_turn(st, events)


@cython.locals(st=BreadWinnerState, seat=cython.long)
def enter_build(st: BreadWinnerState, events: list[dict[str, Any]]) -> None:
    """BW-5.3: roll every die in the pile (if there is an empty factory to build on)."""
    st.phase = P_BUILD
    seat = st.seat
    pile = [d for d in range(seat * DICE_PER_SEAT, (seat + 1) * DICE_PER_SEAT) if st.loc[d] < 0]
    if not pile or not empty_factories(st, seat):
        st.roll = None
        return
    roll = [0, 0, 0, 0, 0, 0]
    rng = st.rng
    for _ in pile:
        roll[rng.below(6)] += 1
    st.roll = roll
    if not st.quiet:
        events.append({"type": "dice_rolled", "seat": seat, "faces": _roll_faces(roll)})


def _roll_faces(roll: list[int]) -> dict[str, int]:
    return {BOT_NAMES[i + 1]: n for i, n in enumerate(roll) if n}


@cython.locals(st=BreadWinnerState)
def leave_build(st: BreadWinnerState, events: list[dict[str, Any]]) -> None:
    st.roll = None
    if st.turn <= 2:  # BW-4.1: the first turn is building only
        end_turn(st, events)
    else:
        st.phase = P_DEACT


@cython.locals(st=BreadWinnerState, used=list, die=cython.Py_ssize_t)
def end_turn(st: BreadWinnerState, events: list[dict[str, Any]]) -> None:
    """BW-4.3 and the stalemate ruling BW-R14."""
    st.roll = None
    st.follow = -1
    if not st.quiet:
        events.append({"type": "turn_ended", "seat": st.seat, "turn": st.turn})
    if st.turn >= 2 * st.game.max_turns:
        loaves = st.loaves
        if loaves[0] != loaves[1] and st.game.stalemate == "most_loaves":
            finish(st, 0 if loaves[0] > loaves[1] else 1, "turn_cap_most_loaves", events)
        else:
            finish(st, -1, "turn_cap_draw", events)
        return
    st.turn += 1
    st.seat = 1 - st.seat
    used = st.used
    for die in range(len(used)):
        used[die] = False
    if st.turn <= 2:
        enter_build(st, events)
    else:
        st.phase = P_MAP


@cython.locals(st=BreadWinnerState)
def finish(st: BreadWinnerState, winner: int, reason: str, events: list[dict[str, Any]]) -> None:
    st.phase = P_OVER
    st.winner = winner
    st.reason = reason
    st.roll = None
    st.follow = -1
    if not st.quiet:
        events.append(
            {
                "type": "game_over",
                "winner": winner,
                "reason": reason,
                "loaves": st.loaves[:],
                "max_turns": st.game.max_turns,
            }
        )


# -- effects -----------------------------------------------------------------------------------
@cython.locals(st=BreadWinnerState, die=cython.long)
def to_pile(st: BreadWinnerState, die: int) -> None:
    """Deactivate: the die returns to its owner's pile (its harvest must be dealt with first)."""
    st.loc[die] = LOC_PILE
    st.face[die] = 0
    st.carry[die] = -1


@cython.locals(st=BreadWinnerState)
def discard_chip(st: BreadWinnerState, chip: int) -> None:
    st.discards.append(chip)


@cython.locals(st=BreadWinnerState, die=cython.long, chip=cython.long, tile=cython.long)
def drop_harvest(st: BreadWinnerState, die: int, events: list[dict[str, Any]]) -> None:
    """BW-7.8: a destroyed carrying Harvester leaves its chip face down on crop-free, unpoisoned
    Land (ruling BW-R12); anywhere else the chip goes to the Discarded Harvest pile."""
    chip = st.carry[die]
    if chip < 0:
        return
    st.carry[die] = -1
    tile = st.loc[die]
    value = st.game.crop_values[chip]
    if IS_LAND[tile] and st.crop[tile] < 0 and not st.poison[tile]:
        st.crop[tile] = chip
        st.known[tile] = True  # everybody saw it face up: it stays public (ruling BW-R12)
        if not st.quiet:
            events.append(
                {
                    "type": "harvest_dropped",
                    "tile": TILE_NAMES[tile],
                    "value": value,
                    "owner": die // DICE_PER_SEAT,
                }
            )
    else:
        discard_chip(st, chip)
        if not st.quiet:
            events.append(
                {
                    "type": "harvest_discarded",
                    "tile": TILE_NAMES[tile],
                    "value": value,
                    "owner": die // DICE_PER_SEAT,
                }
            )


@cython.locals(
    st=BreadWinnerState, seat=cython.long, base=cython.long, die=cython.long, kind=cython.long
)
def apply_action(st: BreadWinnerState, action: Action) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    seat = st.seat
    tally = st.tally
    base = seat * NUM_TALLY
    cls = type(action)
    if cls is Move:
        die = action.die
        st.loc[die] = TILE_INDEX[action.to]
        st.used[die] = True
        if not st.quiet:
            moved = {
                "type": "bot_moved",
                "seat": seat,
                "card": action.bot,
                "die": DIE_NAMES[die],
                "from_tile": action.frm,
                "to_tile": action.to,
            }
            if st.carry[die] >= 0:  # a carried chip is face up: its value is public (BW-7.3)
                moved["carrying"] = st.game.crop_values[st.carry[die]]
            events.append(moved)
        # Only Locusts, Soldiers and a carrying Harvester reaching home can act after moving.
        kind = st.face[die]
        if (
            kind in (LOCUST, SOLDIER)
            or (kind == HARVESTER and st.carry[die] >= 0 and st.loc[die] == DELIVERY[seat])
        ) and abilities(st, die, occupants(st), True):
            st.phase = P_FOLLOW
            st.follow = die
            st.follow_ret = P_MAP
    elif cls is Act:
        _act(st, action, events, base)
        if st.phase == P_FOLLOW:
            st.phase = st.follow_ret
            st.follow = -1
    elif cls is Hold:
        st.phase = st.follow_ret
        st.follow = -1
        if not st.quiet:
            events.append(
                {
                    "type": "bot_held",
                    "seat": seat,
                    "card": action.bot,
                    "die": DIE_NAMES[action.die],
                    "tile": action.at,
                }
            )
    elif cls is Deploy:
        die = action.die
        st.loc[die] = TILE_INDEX[action.to]
        st.used[die] = True
        st.phase = P_DEPLOY
        if not st.quiet:
            events.append(
                {
                    "type": "bot_deployed",
                    "seat": seat,
                    "card": action.bot,
                    "die": DIE_NAMES[die],
                    "factory": action.factory,
                    "to_tile": action.to,
                }
            )
        # Option act_after_deploy (ruling BW-R4): the deployed bot may act as after a move.
        if st.game.act_after_deploy and abilities(st, die, occupants(st), True):
            st.phase = P_FOLLOW
            st.follow = die
            st.follow_ret = P_DEPLOY
    elif cls is Build or cls is Research:
        kind = BOT_FACE[action.bot]
        # The seat's first die in the pile (a rolled face always has one there). A loop, not a
        # generator: compiled, a generator cannot read the C-typed locals.
        die = seat * DICE_PER_SEAT
        while st.loc[die] >= 0:
            die += 1
        if cls is Build:
            st.roll[kind - 1] -= 1
        else:
            st.roll[RND - 1] -= 3
            tally[base + T_RESEARCH] += 1
        st.loc[die] = FACTORY_LOC0 + action.factory
        st.face[die] = kind
        tally[base + T_BUILT] += 1
        if not st.quiet:
            events.append(
                {
                    "type": "bot_built",
                    "seat": seat,
                    "card": action.bot,
                    "die": DIE_NAMES[die],
                    "factory": action.factory,
                    "research": cls is Research,
                }
            )
    elif cls is Deactivate:
        die = action.die
        if not st.quiet:
            events.append(
                {
                    "type": "bot_deactivated",
                    "seat": seat,
                    "card": action.bot,
                    "die": DIE_NAMES[die],
                    "at": action.at,
                }
            )
        chip = st.carry[die]
        if chip >= 0:  # ruling BW-R15: a deactivated Harvester's harvest is discarded
            discard_chip(st, chip)
            if not st.quiet:
                events.append(
                    {
                        "type": "harvest_discarded",
                        "tile": action.at,
                        "value": st.game.crop_values[chip],
                        "owner": seat,
                    }
                )
        to_pile(st, die)
        tally[base + T_DEACT] += 1
    elif cls is EndPhase:
        phase = action.phase
        if phase != "turn" and not st.quiet:  # ending the turn says so itself (turn_ended)
            events.append({"type": "step_done", "seat": seat, "step": phase})
        if phase == "map":
            st.phase = P_DEPLOY
        elif phase == "deploy":
            enter_build(st, events)
        elif phase == "build":
            leave_build(st, events)
        else:
            end_turn(st, events)
    advance(st, events)
    return events


@cython.locals(
    st=BreadWinnerState,
    base=cython.long,
    die=cython.long,
    seat=cython.long,
    tile=cython.long,
    chip=cython.long,
    victim=cython.long,
)
def _act(st: BreadWinnerState, action: Act, events: list[dict[str, Any]], base: int) -> None:
    die = action.die
    seat = die // DICE_PER_SEAT
    tile = st.loc[die]
    ability = action.ability
    tally = st.tally
    values = st.game.crop_values
    event: dict[str, Any] = {
        "type": ability,
        "seat": seat,
        "card": action.bot,
        "die": DIE_NAMES[die],
        "tile": TILE_NAMES[tile],
    }  # (filled in below as the ability resolves; told only when the state is not quiet)
    if not st.quiet:
        events.append(event)
    st.used[die] = True
    if ability == "plant":  # BW-7.1
        if not st.pile:  # the empty crop pile takes back the Discarded Harvest, shuffled
            st.pile = st.discards
            st.discards = []
            if not st.quiet:
                events.append({"type": "crops_reshuffled", "chips": len(st.pile)})
        chip = st.pile.pop(st.rng.below(len(st.pile)))
        st.crop[tile] = chip
        st.known[tile] = False  # face down: nobody sees its value (ruling BW-R5)
        to_pile(st, die)
        tally[base + T_PLANTS] += 1
    elif ability == "restore":  # BW-7.2
        st.poison[tile] = False
        to_pile(st, die)
        tally[base + T_RESTORES] += 1
    elif ability == "harvest":  # BW-7.3
        chip = st.crop[tile]
        st.crop[tile] = -1
        st.known[tile] = False
        st.carry[die] = chip
        event["value"] = values[chip]
        tally[base + T_HARVESTS] += 1
    elif ability == "steal":  # BW-7.4
        victim = action.target
        chip = st.carry[victim]
        st.carry[victim] = -1
        st.carry[die] = chip
        event["target"] = DIE_NAMES[victim]
        event["value"] = values[chip]
        tally[base + T_STEALS] += 1
    elif ability == "unload":  # BW-7.5
        chip = st.carry[die]
        value = values[chip]
        take = min(value, st.centre)
        st.centre -= take
        rival = 1 - seat
        taken = min(value - take, st.loaves[rival])
        st.loaves[rival] -= taken
        st.loaves[seat] += take + taken
        st.carry[die] = -1
        discard_chip(st, chip)
        to_pile(st, die)
        event["value"] = value
        event["from_centre"] = take
        event["from_rival"] = taken
        event["loaves"] = st.loaves[seat]  # the seat's loaves after the delivery
        event["rival_loaves"] = st.loaves[rival]
        event["centre"] = st.centre
        tally[base + T_DELIVERIES] += 1
        tally[base + T_LOAVES] += value
        tally[base + T_TAKEN] += taken
        if st.loaves[seat] == NUM_LOAVES:  # BW-2.1: all the bread wins at once
            finish(st, seat, "all_loaves", events)
    elif ability == "poison":  # BW-7.6
        st.poison[tile] = True
        chip = st.crop[tile]
        if chip >= 0:  # ruling BW-R7: the Locust poisons the seed too
            st.crop[tile] = -1
            st.known[tile] = False
            discard_chip(st, chip)
            event["discarded_value"] = values[chip]
        to_pile(st, die)
        tally[base + T_POISONS] += 1
    elif ability == "meltdown":  # BW-7.7
        victim = action.target
        chip = st.carry[victim]
        if chip >= 0:
            st.carry[victim] = -1
            discard_chip(st, chip)
            event["discarded_value"] = values[chip]
        event["target"] = DIE_NAMES[victim]
        to_pile(st, victim)
        to_pile(st, die)
        tally[base + T_MELTDOWNS] += 1
    else:  # pulse, BW-7.8
        victim = action.target
        event["target"] = DIE_NAMES[victim]
        event["target_card"] = BOT_NAMES[st.face[victim]]
        event["target_tile"] = action.target_at
        if st.face[victim] == SHIELD:
            tally[base + T_ABSORBED] += 1
        drop_harvest(st, victim, events)
        to_pile(st, victim)
        to_pile(st, die)
        tally[base + T_PULSES] += 1
