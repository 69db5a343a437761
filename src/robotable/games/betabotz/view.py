"""What a seat sees and reads (BZ-10): the view, the prompt and the end-of-game stats, which a
state reaches as `game.views`."""

from __future__ import annotations

from typing import Any

from . import effects as fx
from .content import ATTRS, GROUNDS
from .rules import component_count, lot_min, lot_name, winners
from .state import (
    HAND_LIMIT,
    PENDING_NAMES,
    PK_BID,
    PK_BREACH,
    PK_CODE_ATTR,
    PK_CODE_SEAT,
    PK_DISCARD_CODE,
    PK_DISCARD_COMP,
    PK_TEAM_ANSWER,
    PK_TEAM_INVITE,
    PK_TEAM_SHARE,
    ST_AUCTION,
    ST_MISSION,
    ST_MISSION_BREACH,
    ST_OVER,
    STAGE_NAMES,
    BetabotzState,
)


# -- words -------------------------------------------------------------------------------------
def prompt(s: BetabotzState) -> str:
    """Why the deciding seat decides, addressed to it (the front ends say who decides; seats
    a person reads count from 1)."""
    if s.stage == ST_OVER:
        return "game over"
    seat = s.current_player()
    c = s.content
    if s.pending:
        kind, _, x = s.pending[-1]
        if kind == PK_BID:
            return f"how many Bitz on {lot_name(s, x)}? (at least {lot_min(s, x, seat)})"
        if kind == PK_DISCARD_COMP:
            why = "over the component limit" if x == 0 else "mission failed"
            return f"{why}: discard a component"
        if kind == PK_DISCARD_CODE:
            return f"over the hand limit of {HAND_LIMIT}: discard a Code card"
        if kind == PK_BREACH:
            return f"{ATTRS[x]} reached 13: choose a Limit Breach"
        if kind == PK_CODE_SEAT:
            return f"choose the player {c.codes[x].name} targets"
        if kind == PK_CODE_ATTR:
            return f"choose the attribute {c.codes[x].name} changes"
        if kind == PK_TEAM_INVITE:
            return f"invite members to your team (so far: {_seats(s.draft)})"
        if kind == PK_TEAM_SHARE:
            return "how much of the reward do you keep? the rest is split equally"
        return (
            f"Seat {s.draft[0] + 1} proposes a team of {_seats(s.draft)}, keeping "
            f"{s.draft_share} Bitz of the reward: accept?"
        )
    if s.stage == ST_AUCTION:
        what = "a Betabot (you must bid)" if s.phase == 0 else "a component or draw a Code card"
        return f"auction turn: bid on {what}"
    return "mission priority: play a Code card, propose a team or pass"


def _seats(seats: list[int]) -> str:
    names = [f"Seat {i + 1}" for i in sorted(seats)]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def stats(s: BetabotzState) -> dict[str, Any]:
    c = s.content
    return {
        "missions": s.revealed,
        "bank": s.bank,
        "bitz": s.bitz[:],
        "betabots": [c.betabots[b].name if b >= 0 else None for b in s.bot],
        "components": [len(x) for x in s.comps],
        "breaches": sum(1 for h in s.holder if h >= 0),
        "winners": winners(s) if s.stage == ST_OVER else [],
        "ended_by": "ten missions" if s.stage == ST_OVER else "unfinished",
        # Per ground: how many units tried its missions and the share that succeeded.
        "missions_by_ground": {
            ground: {
                "attempts": s.ground_tally[2 * g],
                "success_rate": s.ground_tally[2 * g + 1] / s.ground_tally[2 * g],
            }
            for g, ground in enumerate(GROUNDS)
            if s.ground_tally[2 * g]
        },
    }


# -- the view (BZ-10) --------------------------------------------------------------------------
def _comp_dict(c, cid: int) -> dict[str, Any]:
    comp = c.components[cid]
    return {
        "id": cid,
        "name": comp.name,
        "min_bid": comp.min_bid,
        "mods": {ATTRS[a]: v for a, v in enumerate(comp.mods) if v},
        "gold": comp.gold,
        "green": comp.green,
        "acquire_cost": comp.acquire_cost,
    }


def _code_dict(c, kind_id: int) -> dict[str, Any]:
    k = c.codes[kind_id]
    return {"kind": kind_id, "name": k.name, "gold": k.gold, "text": k.text}


def mission_dict(c, mid: int) -> dict[str, Any]:
    m = c.missions[mid]
    return {
        "id": mid,
        "name": m.name,
        "ground": GROUNDS[m.ground],
        "require": {ATTRS[a]: v for a, v in enumerate(m.require) if v},
        "reward": m.reward,
        "consequence": m.consequence_text(),
        "lose_bitz": m.lose_bitz,
        "damage": {ATTRS[a]: v for a, v in enumerate(m.damage) if v},
        "discard_component": m.discard_component,
        "discard_code": m.discard_code,
    }


def view(s: BetabotzState, seat: int | None, words: bool = True) -> dict[str, Any]:
    """`seat`'s view; without `words`, its "legal_actions" are left empty (`observation_view`)."""
    c = s.content
    n = s.n
    over = s.stage == ST_OVER
    cur = s.current_player()
    in_mission = s.stage == ST_MISSION
    seats = []
    for i in range(n):
        b = s.bot[i]
        entry: dict[str, Any] = {
            "seat": i,
            "bitz": s.bitz[i],
            "betabot": None
            if b < 0
            else {
                "id": b,
                "name": c.betabots[b].name,
                "min_bid": c.betabots[b].min_bid,
                "base": dict(zip(ATTRS, c.betabots[b].attrs)),
            },
            "attributes": dict(zip(ATTRS, s.perm[i])),
            "mission_values": {a: fx.mission_value(s, i, k) for k, a in enumerate(ATTRS)},
            "code_changes": dict(zip(ATTRS, s.temp[i])),
            "damage": dict(zip(ATTRS, s.damage[i])),
            "components": [_comp_dict(c, x) for x in s.comps[i]],
            "component_count": component_count(s, i),
            "breaches": [
                {"id": bb, "name": br.name, "attribute": ATTRS[br.attr], "text": br.text}
                for bb, br in enumerate(c.breaches)
                if s.holder[bb] == i
            ],
            "hand_count": len(s.hand[i]),
            "bid": None
            if s.stage != ST_AUCTION or s.seat_lot[i] < 0
            else {"slot": s.seat_lot[i], "amount": s.lot_bid[s.seat_lot[i]]},
            "drew": bool(s.drew[i]) if s.stage == ST_AUCTION else False,
            "team": s.team_of[i] if in_mission and s.team_of[i] >= 0 else None,
            "share": s.share[i] if in_mission and s.team_of[i] >= 0 else None,
            "failsafe": bool(s.shield[i]),
            "bounty": s.bounty[i],
            "proposals_left": s.proposals_left[i] if in_mission else 0,
            "starter_chip": i == s.chip,
        }
        if seat == i or over:
            entry["hand"] = [_code_dict(c, c.code_card_kind[x]) for x in s.hand[i]]
        seats.append(entry)
    auction = None
    if s.stage == ST_AUCTION or (s.pending and s.pending[-1][0] == PK_BID):
        lots = []
        for slot, card in enumerate(s.lots):
            if s.phase == 0:
                bb = c.betabots[card]
                info = {
                    "id": card,
                    "name": bb.name,
                    "min_bid": bb.min_bid,
                    "attributes": dict(zip(ATTRS, bb.attrs)),
                }
            else:
                info = _comp_dict(c, card)
            lots.append(
                {
                    "slot": slot,
                    "card": info,
                    "bid": s.lot_bid[slot] if s.lot_bidder[slot] >= 0 else None,
                    "bidder": s.lot_bidder[slot] if s.lot_bidder[slot] >= 0 else None,
                }
            )
        auction = {
            "kind": "betabot" if s.phase == 0 else "component",
            "lots": lots,
            "actor": s.actor,
        }
    mission = None
    if s.revealed and s.stage in (ST_MISSION, ST_MISSION_BREACH, ST_OVER):
        mid = s.mission_order[s.revealed - 1]
        mission = mission_dict(c, mid)
        if in_mission:
            mission["units"] = [
                {"members": u, "values": dict(zip(ATTRS, fx.unit_values(s, u)))}
                for u in fx.units(s)
            ]
            mission["priority"] = s.priority
            mission["passes_in_a_row"] = s.streak
            log = s.code_log
            mission["code_changes"] = [
                {
                    "player": log[i],
                    "attribute": "all" if log[i + 1] == -2 else ATTRS[log[i + 1]],
                    "amount": log[i + 2],
                    "card": c.codes[log[i + 3]].name,
                }
                for i in range(0, len(log), 4)
            ]
    pending = None
    if s.pending:
        kind, pseat, x = s.pending[-1]
        pending = {"kind": PENDING_NAMES[kind], "seat": pseat}
        if kind == PK_BID:
            pending["slot"] = x
        elif kind in (PK_CODE_SEAT, PK_CODE_ATTR):
            pending["card"] = c.codes[x].name
            if kind == PK_CODE_ATTR and s.cip and s.cip[2] >= 0:
                pending["target"] = s.cip[2]
        elif kind == PK_BREACH:
            pending["attribute"] = ATTRS[x]
    proposal = None
    if s.draft:
        proposal = {"proposer": s.draft[0], "members": sorted(s.draft)}
        if s.pending and s.pending[-1][0] == PK_TEAM_ANSWER:
            proposal["keeps"] = s.draft_share
    legal = s.legal_action_entries(seat) if words else []
    return {
        "game": "betabotz",
        "seat": seat,
        "current_player": cur,
        "turn": s.turn,
        "prompt": prompt(s),
        "terminal": over,
        "returns": s.returns() if over else None,
        "legal_actions": legal,
        "phase": ("betabot", "enhancement", "mission", "end")[s.phase],
        "stage": STAGE_NAMES[s.stage],
        "mission_number": s.revealed,
        "missions_total": len(s.mission_order),
        "starter_chip": s.chip,
        "bank": s.bank,
        "seats": seats,
        "auction": auction,
        "mission": mission,
        "mission_stack": [
            {
                "number": i + 1,
                "ground": GROUNDS[c.missions[m].ground],
                "mission": c.missions[m].name if i < s.revealed else None,
            }
            for i, m in enumerate(s.mission_order)
        ],
        "pending": pending,
        "proposal": proposal,
        "breach_pool": [
            {
                "id": bb,
                "name": br.name,
                "attribute": ATTRS[br.attr],
                "text": br.text,
                "holder": s.holder[bb] if s.holder[bb] >= 0 else None,
            }
            for bb, br in enumerate(c.breaches)
        ],
        "decks": {
            "betabot": len(s.bot_deck),
            "component": len(s.comp_deck),
            "code": len(s.code_deck),
            "code_discard": [c.codes[c.code_card_kind[x]].name for x in s.code_discard],
            "component_discard": [c.components[x].name for x in s.comp_discard],
        },
        "code_kinds": [_code_dict(c, k.id) for k in c.codes],
    }


__all__ = ["mission_dict", "prompt", "stats", "view"]
