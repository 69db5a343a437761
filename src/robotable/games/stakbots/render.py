"""What a seat sees (SB-9): the view dict and the terminal rendering built from it.

`build_view` is the visibility model: a card's identity is shown only when it is face-up, on
the scrapheap, in the viewer's own hand, or publicly known (a reset card, a card returned to a
hand by Begone Bot). determinize (state.py) resamples exactly the cards shown as unknown here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from robotable.core.narration import plural

from .board import power
from .modes import ORDINAL
from .state import DECISION_NAMES, HIDDEN, KNOWN, UP, StakBotsState

if TYPE_CHECKING:
    from .content import CardDef


def static_card_views(cards: tuple[CardDef, ...]) -> list[dict[str, Any]]:
    """What never changes of each card as a view shows it: built once per game, copied per view
    (views are built for every seat after every move, and the web server's time goes there)."""
    return [
        {
            "id": c,
            "name": d.name,
            "bot": d.bot.title,
            "power": "X" if d.power is None else d.power,
            "rank": d.rank,
            "text": d.text,
            "short": d.short,
        }
        for c, d in enumerate(cards)
    ]


def card_json(st: StakBotsState, c: int, live: bool = False) -> dict[str, Any]:
    """A card as the view shows it; `live` adds its current power and damage (in a stak)."""
    out = dict(st.game.card_views[c])
    if live:
        out["current_power"] = power(st, c)
        out["damage"] = st.dmg[c]
    return out


def _staks(st: StakBotsState, s: int) -> list[dict[str, Any]]:
    """Seat s's staks (or the Drone's, s = the seat count) as the view shows them."""
    g = st.game
    vis = st.vis
    out = []
    for k in g.staks_of[s]:
        cards = []
        for c in st.staks[k]:
            if vis[c] == UP:
                cards.append({"face_up": True, **card_json(st, c, live=True)})
            elif vis[c] == KNOWN:
                cards.append({"face_up": False, "known": card_json(st, c)})
            else:
                cards.append({"face_up": False})
        out.append(
            {
                "stak": g.local[k],
                "size": len(cards),
                "cards": cards,
                "top": cards[-1] if cards else None,
                "attacked": st.active == s and st.attacker[k] >= 0,
            }
        )
    return out


def build_view(st: StakBotsState, seat: int | None, words: bool = True) -> dict[str, Any]:
    """`seat`'s view; without `words`, its "legal_actions" are left empty (`observation_view`)."""
    g = st.game
    vis = st.vis
    deciding = st.current_player()
    legal = st.legal_action_entries(seat) if words else []
    seats = []
    for s in range(g.num_players):
        staks = _staks(st, s)
        first = staks[0]
        hand = st.hands[s]
        seats.append(
            {
                "seat": s,
                "team": g.team[s] if g.options["teams"] else None,  # SB-11.10
                "in_game": st.alive[s],
                # The seat's first stak (its only one unless SB-11.12); `staks` holds them all.
                "stak_size": first["size"],
                "stak": first["cards"],
                "top": first["top"],
                "staks": staks,
                "hand_size": len(hand),
                "hand": [card_json(st, c) for c in hand] if s == seat else None,
                "known_hand": [card_json(st, c) for c in hand if vis[c] == KNOWN],
            }
        )
    decision = None
    if st.decision is not None:
        kind, c, chooser = st.decision
        decision = {
            "kind": DECISION_NAMES[kind],
            "seat": chooser,
            "card": card_json(st, c),
            "why": st.prompt(),
        }
    heap = st.scrapheap
    # The card that attacked this turn (the last to attack, with several staks): a scrapped
    # attacker may since have been reshuffled into the supply, a hidden card again, and then
    # only the fact that an attack happened stays public.
    mine = [k for k in g.staks_of[st.active] if st.attacker[k] >= 0]
    attacker = st.attacker[mine[-1]] if mine else -1
    n = g.num_players
    drone = None
    if g.drones:  # SB-11.14: the Drone's staks, all public as any stak is
        drone = {
            "seat": n,
            "in_game": any(st.staks[k] for k in g.staks_of[n]),
            "staks": _staks(st, n),
        }
    return {
        "game": g.name,
        "seat": seat,
        "current_player": deciding,
        "turn": st.turn,
        "prompt": st.prompt(),
        "terminal": st.result is not None,
        "returns": list(st.result) if st.result is not None else None,
        "legal_actions": legal,
        "num_players": g.num_players,
        "options": dict(g.options),
        "active": st.active,
        "decision": decision,
        "seats": seats,
        "drone": drone,
        "supply_size": len(st.supply),
        "scrapheap": [card_json(st, c) for c in heap],
        "scrapheap_top": card_json(st, heap[-1]) if heap else None,
        "attacker": card_json(st, attacker) if attacker >= 0 and vis[attacker] != HIDDEN else None,
        "attacked_this_turn": attacker >= 0,
        "attacker_stopped": bool(mine) and st.stopped[mine[-1]],
        "scrapheap_fed": st.fed,
        "stomp_target": g.owner[st.stomp] if st.stomp >= 0 else None,
        "stomp_target_stak": g.local[st.stomp] if st.stomp >= 0 else None,
        "actions_this_turn": st.n_actions,
        "attacks_this_turn": st.n_attacks,
        "effects_this_turn": st.n_effects,
        "pending_effects": [card_json(st, c) for c in reversed(st.pending) if vis[c] != HIDDEN],
        "end_reason": st.end_reason or None,
    }


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
    v = build_view(st, seat)
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
