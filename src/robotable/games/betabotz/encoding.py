"""RL hooks: a fixed action index space and a flat observation built from a view (BZ-12).

Action indices (NUM_ACTIONS in all), one block per action kind, in this order:
choose_lot[6], bid[1000] (the amount), draw_code, pass, play_code[32] (code kind),
choose_seat[6], choose_attribute[4], propose_team, invite[6], finish_invites,
set_share[100] (the proposer's share), accept, reject, discard_component[128] (component id),
discard_code[32] (code kind), take_breach[16] (breach id).
Two legal actions of one state never share an index: within a block the index is the field value.
"""

from __future__ import annotations

from typing import Any

from . import effects as fx
from .content import ATTRS, GROUNDS, MAX_BREACHES, MAX_CODE_KINDS, MAX_COMPONENTS, MAX_REWARD
from .rules import component_count
from .state import (
    MAX_BID,
    PK_BID,
    PK_TEAM_ANSWER,
    ST_AUCTION,
    ST_MISSION,
    ST_MISSION_BREACH,
    ST_OVER,
    BetabotzState,
    BetabotzTables,
)
from .state import PENDING_NAMES as PENDING

_BLOCKS: list[tuple[str, int]] = [
    ("choose_lot", 6),
    ("bid", MAX_BID + 1),
    ("draw_code", 1),
    ("pass", 1),
    ("play_code", MAX_CODE_KINDS),
    ("choose_seat", 6),
    ("choose_attribute", 4),
    ("propose_team", 1),
    ("invite", 6),
    ("finish_invites", 1),
    ("set_share", MAX_REWARD + 1),
    ("accept", 1),
    ("reject", 1),
    ("discard_component", MAX_COMPONENTS),
    ("discard_code", MAX_CODE_KINDS),
    ("take_breach", MAX_BREACHES),
]
OFFSET: dict[str, int] = {}
_o = 0
for _kind, _size in _BLOCKS:
    OFFSET[_kind] = _o
    _o += _size
NUM_ACTIONS = _o
_FIELD = {
    "choose_lot": "slot",
    "bid": "amount",
    "play_code": "code",
    "choose_seat": "seat",
    "choose_attribute": "attribute",
    "invite": "seat",
    "set_share": "share",
    "discard_component": "card",
    "discard_code": "code",
    "take_breach": "breach",
}


def num_distinct_actions(game: Any) -> int:
    return NUM_ACTIONS


def action_index(game: Any, action: Any) -> int:
    kind = action.kind
    field = _FIELD.get(kind)
    return OFFSET[kind] + (getattr(action, field) if field else 0)


PHASES = ("betabot", "enhancement", "mission", "end")
STAGES = ("auction", "auction breaches", "mission", "mission breaches", "over")
GLOBAL = 4 + 5 + 2  # phase, stage, mission number, bank
MISSION = (
    1 + 4 + 1 + 1 + 1 + 1 + 1 + 3
)  # present, require, reward, loss, damage, 2 discards, ground
PRIORITY = 6 + 1
PENDING_SIZE = len(PENDING) + 1
PROPOSAL = 6 + 1
LOT = 1 + 1 + 4 + 1 + 1 + 1 + 6
SEAT = 1 + 1 + 4 + 4 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + MAX_BREACHES + 1
OBS_SIZE = (
    GLOBAL + MISSION + PRIORITY + PENDING_SIZE + PROPOSAL + 6 * LOT + 6 * SEAT + MAX_CODE_KINDS
)


def _onehot(k: int, size: int) -> list[float]:
    v = [0.0] * size
    if 0 <= k < size:
        v[k] = 1.0
    return v


def observation_size(game: Any) -> int:
    return OBS_SIZE


# Both encoders below fill the one layout through these helpers: `encode_observation` from a
# view's dicts, `encode_state` from the state (the RL adapters' path, no dicts built), reading
# only what that seat's view shows: its own Code hand, never another's nor a deck's order.
# `rel` is a seat counted from the viewer (-1 for none: an all-zero one-hot).


def _header(out: list[float], phase: int, stage: int, mission_number: int, bank: int) -> None:
    out += _onehot(phase, 4)
    out += _onehot(stage, 5)
    out += [mission_number / 10.0, bank / 100.0]


def _mission(
    out: list[float],
    require: list,
    reward: int,
    lose_bitz: int,
    damage: int,
    discard_component: bool,
    discard_code: bool,
    ground: int,
) -> None:
    """The mission revealed: its requirement per attribute, its consequences (`damage`, their
    total) and its ground."""
    out.append(1.0)
    out += [v / 30.0 for v in require]
    out += [reward / 30.0, lose_bitz / 10.0, damage / 3.0]
    out += [float(discard_component), float(discard_code)]
    out += _onehot(ground, 3)


def _decisions(
    out: list[float], priority: int, streak: int, pending: int, members: list, keeps: int
) -> None:
    """Mission priority (`priority` relative, -1 outside a mission), the pending decision's kind
    (len(PENDING) for none) and the team proposed (its members relative, what the proposer
    keeps)."""
    if priority >= 0:
        out += _onehot(priority, 6) + [streak / 6.0]
    else:
        out += [0.0] * PRIORITY
    out += _onehot(pending, PENDING_SIZE)
    flags = [0.0] * 6
    for r in members:
        flags[r] = 1.0
    out += flags + [keeps / 30.0]


def _lot(
    out: list[float], min_bid: int, values: list, gold: bool, green: bool, bid: Any, bidder: int
) -> None:
    """An auction lot: its card's minimum bid, attributes (a Betabot) or mods (a component) and
    colours; the highest bid (None for none) and its bidder (relative)."""
    out += [1.0, min_bid / 20.0]
    out += [v / 10.0 for v in values]
    out += [float(gold), float(green)]
    out += [(bid or 0) / 50.0]
    out += _onehot(bidder, 6)


def _seat(
    out: list[float],
    bitz: int,
    attributes: list,
    mission_values: list,
    components: int,
    hand: int,
    bid: Any,
    drew: bool,
    team: bool,
    share: Any,
    failsafe: bool,
    bounty: int,
    starter: bool,
    breaches: list,
    gold: int,
) -> None:
    """A seat: `components` counted toward the limit, `hand` its hand size, `bid` the amount of
    its auction bid (None for none), `share` its team share (None for none), `breaches` the ids
    of the Limit Breaches it holds, `gold` its gold components."""
    out += [1.0, bitz / 100.0]
    out += [v / 20.0 for v in attributes]
    out += [v / 20.0 for v in mission_values]
    out += [components / 6.0, hand / 6.0]
    out += [1.0 if bid is not None else 0.0, (bid / 50.0) if bid is not None else 0.0, float(drew)]
    out += [1.0 if team else 0.0, (share or 0) / 30.0]
    out += [float(failsafe), bounty / 10.0, float(starter)]
    flags = [0.0] * MAX_BREACHES
    for b in breaches:
        flags[b] = 1.0
    out += flags
    out += [gold / 5.0]


def _hand(out: list[float], kinds: list) -> None:
    """The viewer's Code hand, a count per kind (none for a spectator)."""
    counts = [0.0] * MAX_CODE_KINDS
    for kind in kinds:
        counts[kind] += 0.25
    out += counts


def encode_observation(game: Any, view: dict[str, Any]) -> list[float]:
    """Seats are relative to the viewer (the viewer first; a spectator sees seat 0 first)."""
    seats = view["seats"]
    n = len(seats)
    me = view["seat"] if view["seat"] is not None else 0

    def rel(s: int | None) -> int:
        return -1 if s is None else (s - me) % n

    out: list[float] = []
    _header(
        out,
        PHASES.index(view["phase"]),
        STAGES.index(view["stage"]),
        view["mission_number"],
        view["bank"],
    )
    m = view["mission"]
    if m is None:
        out += [0.0] * MISSION
    else:
        _mission(
            out,
            [m["require"].get(a, 0) for a in ATTRS],
            m["reward"],
            m["lose_bitz"],
            sum(m["damage"].values()),
            m["discard_component"],
            m["discard_code"],
            GROUNDS.index(m["ground"]),
        )
    in_mission = m is not None and "priority" in m
    p = view["pending"]
    prop = view["proposal"]
    _decisions(
        out,
        rel(m["priority"]) if in_mission else -1,
        m["passes_in_a_row"] if in_mission else 0,
        PENDING.index(p["kind"]) if p else len(PENDING),
        [rel(s) for s in prop["members"]] if prop else [],
        prop.get("keeps", 0) if prop else 0,
    )
    lots = view["auction"]["lots"] if view["auction"] else []
    for slot in range(6):
        if slot >= len(lots):
            out += [0.0] * LOT
            continue
        lot = lots[slot]
        card = lot["card"]
        vals = card.get("attributes") or card.get("mods", {})
        _lot(
            out,
            card["min_bid"],
            [vals.get(a, 0) for a in ATTRS],
            card.get("gold", False),
            card.get("green", False),
            lot["bid"],
            rel(lot["bidder"]),
        )
    for r in range(6):
        if r >= n:
            out += [0.0] * SEAT
            continue
        e = seats[(me + r) % n]
        bid = e["bid"]
        _seat(
            out,
            e["bitz"],
            [e["attributes"][a] for a in ATTRS],
            [e["mission_values"][a] for a in ATTRS],
            e["component_count"],
            e["hand_count"],
            bid["amount"] if bid else None,
            e["drew"],
            e["team"] is not None,
            e["share"],
            e["failsafe"],
            e["bounty"],
            e["starter_chip"],
            [b["id"] for b in e["breaches"]],
            sum([1 for c in e["components"] if c["gold"]]),
        )
    own = seats[me].get("hand", []) if view["seat"] is not None else []
    _hand(out, [card["kind"] for card in own])
    return out


def encode_state(game: BetabotzTables, s: BetabotzState, seat: Any) -> list[float]:
    """`encode_observation(game, s.observation_view(seat))`, read from the state: each field as
    view.view shows it to `seat` (its own Code hand only)."""
    n = s.n
    me = seat if seat is not None else 0
    stage = s.stage
    shown = s.revealed > 0 and stage in (ST_MISSION, ST_MISSION_BREACH, ST_OVER)
    in_mission = stage == ST_MISSION
    out: list[float] = []
    _header(out, s.phase, stage, s.revealed, s.bank)
    if shown:
        m = s.content.missions[s.mission_order[s.revealed - 1]]
        _mission(
            out,
            m.require,
            m.reward,
            m.lose_bitz,
            sum(m.damage),
            m.discard_component,
            m.discard_code,
            m.ground,
        )
    else:
        out += [0.0] * MISSION
    pending = s.pending
    answering = bool(pending) and pending[-1][0] == PK_TEAM_ANSWER
    _decisions(
        out,
        (s.priority - me) % n if shown and in_mission else -1,
        s.streak if shown and in_mission else 0,
        pending[-1][0] if pending else len(PENDING),
        [(t - me) % n for t in s.draft],
        s.draft_share if answering else 0,
    )
    lots = s.lots if stage == ST_AUCTION or (pending and pending[-1][0] == PK_BID) else []
    betabots = s.phase == 0  # the first auction sells Betabots, the others components
    for slot in range(6):
        if slot >= len(lots):
            out += [0.0] * LOT
            continue
        card = lots[slot]
        bidder = s.lot_bidder[slot]
        _lot(
            out,
            game.bot_min_bid[card] if betabots else game.comp_min_bid[card],
            game.bot_attrs[card] if betabots else game.comp_mods[card],
            False if betabots else game.comp_gold[card],
            False if betabots else game.comp_green[card],
            s.lot_bid[slot] if bidder >= 0 else None,
            (bidder - me) % n if bidder >= 0 else -1,
        )
    auction = stage == ST_AUCTION
    for r in range(6):
        if r >= n:
            out += [0.0] * SEAT
            continue
        i = (me + r) % n
        lot = s.seat_lot[i]
        teamed = in_mission and s.team_of[i] >= 0
        _seat(
            out,
            s.bitz[i],
            s.perm[i],
            [fx.mission_value(s, i, a) for a in range(len(ATTRS))],
            component_count(s, i),
            len(s.hand[i]),
            s.lot_bid[lot] if auction and lot >= 0 else None,
            auction and bool(s.drew[i]),
            teamed,
            s.share[i] if teamed else None,
            bool(s.shield[i]),
            s.bounty[i],
            i == s.chip,
            [b for b, holder in enumerate(s.holder) if holder == i],
            sum([game.comp_gold[c] for c in s.comps[i]]),
        )
    _hand(out, [game.code_kind[card] for card in s.hand[me]] if seat is not None else [])
    return out
