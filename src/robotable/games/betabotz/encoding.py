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

from .content import ATTRS, GROUNDS, MAX_BREACHES, MAX_CODE_KINDS, MAX_COMPONENTS, MAX_REWARD
from .state import MAX_BID
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


def encode_observation(game: Any, view: dict[str, Any]) -> list[float]:
    """Seats are relative to the viewer (the viewer first; a spectator sees seat 0 first)."""
    seats = view["seats"]
    n = len(seats)
    me = view["seat"] if view["seat"] is not None else 0

    def rel(s: int | None) -> int:
        return -1 if s is None else (s - me) % n

    out: list[float] = []
    out += _onehot(PHASES.index(view["phase"]), 4)
    out += _onehot(STAGES.index(view["stage"]), 5)
    out += [view["mission_number"] / 10.0, view["bank"] / 100.0]
    m = view["mission"]
    if m is None:
        out += [0.0] * MISSION
    else:
        out.append(1.0)
        out += [m["require"].get(a, 0) / 30.0 for a in ATTRS]
        out += [m["reward"] / 30.0, m["lose_bitz"] / 10.0, sum(m["damage"].values()) / 3.0]
        out += [float(m["discard_component"]), float(m["discard_code"])]
        out += _onehot(GROUNDS.index(m["ground"]), 3)
    if m is not None and "priority" in m:
        out += _onehot(rel(m["priority"]), 6) + [m["passes_in_a_row"] / 6.0]
    else:
        out += [0.0] * PRIORITY
    p = view["pending"]
    out += _onehot(PENDING.index(p["kind"]) if p else len(PENDING), PENDING_SIZE)
    prop = view["proposal"]
    members = [0.0] * 6
    keeps = 0.0
    if prop:
        for s in prop["members"]:
            members[rel(s)] = 1.0
        keeps = prop.get("keeps", 0) / 30.0
    out += members + [keeps]
    lots = view["auction"]["lots"] if view["auction"] else []
    for slot in range(6):
        if slot >= len(lots):
            out += [0.0] * LOT
            continue
        lot = lots[slot]
        card = lot["card"]
        vals = card.get("attributes") or card.get("mods", {})
        out += [1.0, card["min_bid"] / 20.0]
        out += [vals.get(a, 0) / 10.0 for a in ATTRS]
        out += [float(card.get("gold", False)), float(card.get("green", False))]
        out += [(lot["bid"] or 0) / 50.0]
        out += _onehot(rel(lot["bidder"]), 6)
    for r in range(6):
        if r >= n:
            out += [0.0] * SEAT
            continue
        e = seats[(me + r) % n]
        out += [1.0, e["bitz"] / 100.0]
        out += [e["attributes"][a] / 20.0 for a in ATTRS]
        out += [e["mission_values"][a] / 20.0 for a in ATTRS]
        out += [e["component_count"] / 6.0, e["hand_count"] / 6.0]
        bid = e["bid"]
        out += [1.0 if bid else 0.0, (bid["amount"] / 50.0) if bid else 0.0, float(e["drew"])]
        out += [1.0 if e["team"] is not None else 0.0, (e["share"] or 0) / 30.0]
        out += [float(e["failsafe"]), e["bounty"] / 10.0, float(e["starter_chip"])]
        flags = [0.0] * MAX_BREACHES
        for b in e["breaches"]:
            flags[b["id"]] = 1.0
        out += flags
        out += [sum(1 for c in e["components"] if c["gold"]) / 5.0]
    counts = [0.0] * MAX_CODE_KINDS
    own = seats[me].get("hand", []) if view["seat"] is not None else []
    for card in own:
        counts[card["kind"]] += 0.25
    out += counts
    return out
