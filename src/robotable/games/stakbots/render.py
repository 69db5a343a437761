"""The terminal board of Stak Bots, drawn from a seat's view (view.py): the seat's own stak in
full, opponents' tops and sizes, the hand, supply and scrapheap, and whose decision it is.
"""

from __future__ import annotations

from typing import Any

from robotable.core.narration import plural

from .modes import ORDINAL
from .state import StakBotsState
from .view import view


def _card_line(c: dict[str, Any]) -> str:
    power = c.get("current_power", c["power"])
    if c["power"] == "X" and "current_power" in c:
        power = f"X={c['current_power']}"
    dmg = f" dmg {c['damage']}" if c.get("damage") else ""
    short = f"  {c['short']}" if c["short"] else ""
    return f"{c['name']} P{power}{dmg} r{c['rank']}{short}"


def _stak_lines(cards: list[dict[str, Any]], mine: bool, indent: str) -> list[str]:
    """One stak: the viewer's own in full, another seat's top and face-up cards."""
    lines = []
    if mine:
        run = 0  # consecutive unknown face-down cards print as one line
        for depth, c in enumerate(reversed(cards)):
            mark = "top " if depth == 0 else "    "
            if not c["face_up"] and "known" not in c:
                run += 1
                continue
            if run:
                lines.append(f"{indent}      [{run} face-down]")
                run = 0
            if c["face_up"]:
                lines.append(f"{indent}  {mark}{_card_line(c)}")
            else:
                lines.append(f"{indent}  {mark}[face-down, was {c['known']['name']}]")
        if run:
            lines.append(f"{indent}      [{run} face-down]")
    elif cards:
        tc = cards[-1]
        lines.append(f"{indent}  top: {_card_line(tc) if tc['face_up'] else '-'}")
        below = [c for c in cards[:-1] if c["face_up"]]
        if below:
            lines.append(
                f"{indent}  face-up below: " + ", ".join(c["name"] for c in reversed(below))
            )
    return lines


def render(st: StakBotsState, seat: int | None) -> str:
    """Plain text for the terminal: the seat's own stak in full, opponents' tops and sizes,
    the hand, supply and scrapheap, and whose decision it is and why."""
    v = view(st, seat)
    lines = []
    who = "a spectator's view" if seat is None else f"you are Seat {seat + 1}"
    whose = (
        "the Drone's"
        if v["drone"] and v["active"] == v["num_players"]
        else (f"Seat {v['active'] + 1}'s")
    )
    lines.append(f"== Stak Bots, turn {v['turn']}, {whose} turn ({who}) ==")
    top = v["scrapheap_top"]
    heap_top = _card_line(top) if top else "empty"
    lines.append(
        f"supply {plural(v['supply_size'], 'card')} | "
        f"scrapheap {plural(len(v['scrapheap']), 'card')}, top: {heap_top}"
    )
    team = v["seats"][seat]["team"] if seat is not None else None
    for sv in v["seats"]:
        s = sv["seat"]
        mine = s == seat
        # Whose side each seat is on, from the reader's chair; a spectator sits on no side.
        sides = []
        if seat is not None:
            side = "teammate" if sv["team"] is not None and sv["team"] == team else "opponent"
            sides.append("you" if mine else side)
        if sv["team"] is not None:
            sides.append(f"team {sv['team'] + 1}")
        label = f" ({', '.join(sides)})" if sides else ""
        if not sv["in_game"]:
            lines.append(f"Seat {s + 1}{label}: out of the game")
            continue
        multi = len(sv["staks"]) > 1
        if multi:  # SB-11.12
            sizes = ", ".join(plural(k["size"], "card") for k in sv["staks"])
            lines.append(
                f"Seat {s + 1}{label}: staks {sizes}, hand {plural(sv['hand_size'], 'card')}"
            )
        else:
            lines.append(
                f"Seat {s + 1}{label}: stak {plural(sv['stak_size'], 'card')}, "
                f"hand {plural(sv['hand_size'], 'card')}"
            )
        for k in sv["staks"]:
            if multi:
                lines.append(f"  {ORDINAL[k['stak']]} stak:" + ("" if k["cards"] else " empty"))
            lines += _stak_lines(k["cards"], mine, "  " if multi else "")
        if mine and sv["hand"] is not None:
            hand = ", ".join(_card_line(c) for c in sv["hand"]) or "empty"
            lines.append(f"  your hand: {hand}")
        elif sv["known_hand"]:
            lines.append("  known in hand: " + ", ".join(c["name"] for c in sv["known_hand"]))
    drone = v["drone"]
    if drone:  # SB-11.14
        sizes = ", ".join(plural(k["size"], "card") for k in drone["staks"])
        lines.append(f"Drone (automated): staks {sizes}")
        for k in drone["staks"]:
            if len(drone["staks"]) > 1:
                lines.append(f"  {ORDINAL[k['stak']]} stak:" + ("" if k["cards"] else " empty"))
            lines += _stak_lines(k["cards"], False, "  " if len(drone["staks"]) > 1 else "")
    att = v["attacker"]
    if att:
        stopped = " (stopped)" if v["attacker_stopped"] else ""
        lines.append(f"attacker this turn: {att['name']}{stopped}")
    lines.append(f"scrapheap fed this turn: {'yes' if v['scrapheap_fed'] else 'no'}")
    if v["pending_effects"]:
        lines.append("waiting entry effects: " + ", ".join(c["name"] for c in v["pending_effects"]))
    if v["terminal"]:
        lines.append(f"game over: {v['prompt']}")
    else:
        lines.append(f"decision: {v['prompt']}")
    return "\n".join(lines)
