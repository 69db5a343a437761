"""Terminal rendering for 3 to 6 seats, built from the view (so it never shows a secret)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .content import ATTR_SHORT, ATTRS

if TYPE_CHECKING:
    from .state import BetabotzState


def _attrs(d: dict[str, int]) -> str:
    return " ".join(f"{ATTR_SHORT[i]}{d[a]:>3}" for i, a in enumerate(ATTRS))


def _mods(d: dict[str, int]) -> str:
    return " ".join(f"{ATTR_SHORT[ATTRS.index(a)]}{v:+d}" for a, v in d.items())


def _seat(i: int) -> str:
    # Seats count from 1 for people, and say "Seat N" as every prompt does, so a front end that
    # knows the players' names (the terminal's table, the web) puts them in.
    return f"Seat {i + 1}"


def _seats(seats: list[int]) -> str:
    names = [_seat(i) for i in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def render(state: BetabotzState, seat: int | None) -> str:
    return render_view(state.view(seat))


def render_view(v: dict[str, Any]) -> str:
    lines: list[str] = []
    me = v["seat"]
    who = "spectator" if me is None else _seat(me)
    lines.append(
        f"== Betabotz  mission {v['mission_number']}/{v['missions_total']}  "
        f"phase: {v['phase']}  starter chip: {_seat(v['starter_chip'])}  bank: {v['bank']}  "
        f"(view of {who}) =="
    )
    stack = " ".join(
        (m["ground"][:4].upper() if m["mission"] is None else "done")
        for m in v["mission_stack"][v["mission_number"] :]
    )
    lines.append(f"missions to come: {stack or '(none)'}")
    m = v["mission"]
    if m is not None:
        req = ", ".join(f"{a} {n}" for a, n in m["require"].items())
        lines.append(
            f"MISSION {m['name']} ({m['ground']}): needs {req}; reward {m['reward']} Bitz; "
            f"on failure: {m['consequence']}"
        )
        for u in m.get("units", []):
            ok = all(u["values"][a] >= n for a, n in m["require"].items())
            kind = "together" if len(u["members"]) > 1 else "alone"
            lines.append(
                f"  {_seats(u['members'])} {kind}: {_attrs(u['values'])}"
                f"  -> {'SUCCEEDS' if ok else 'fails'}"
            )
        for ch in m.get("code_changes", []):
            lines.append(
                f"  in force: {ch['card']} gives {_seat(ch['player'])} {ch['amount']:+d} "
                f"{ch['attribute']}"
            )
        if "priority" in m:
            lines.append(
                f"  priority: {_seat(m['priority'])} ({m['passes_in_a_row']} passes in a row)"
            )
    a = v["auction"]
    if a is not None:
        lines.append(f"AUCTION ({a['kind']}s):")
        for lot in a["lots"]:
            card = lot["card"]
            stats = _attrs(card["attributes"]) if "attributes" in card else _mods(card["mods"])
            tags = "".join(
                [" gold" if card.get("gold") else "", " green" if card.get("green") else ""]
            )
            cost = f" +{card['acquire_cost']} on win" if card.get("acquire_cost") else ""
            bid = "no bid" if lot["bid"] is None else f"{_seat(lot['bidder'])} bids {lot['bid']}"
            lines.append(
                f"  lot {lot['slot'] + 1}: {card['name']:<18} min {card['min_bid']:>2}{cost}  {stats}"
                f"{tags}  | {bid}"
            )
    lines.append("SEATS:")
    for s in v["seats"]:
        bot = s["betabot"]["name"] if s["betabot"] else "(no Betabot yet)"
        flags = []
        if s["starter_chip"]:
            flags.append("chip")
        if s["bid"]:
            flags.append(f"bid {s['bid']['amount']} on lot {s['bid']['slot'] + 1}")
        if s["drew"]:
            flags.append("drew a Code")
        if s["team"] is not None:
            flags.append(f"team of {_seat(s['team'])}, share {s['share']}")
        if s["failsafe"]:
            flags.append("failsafe")
        if s["bounty"]:
            flags.append(f"bounty {s['bounty']}")
        mark = ">" if s["seat"] == v["current_player"] else " "
        lines.append(
            f"{mark}{_seat(s['seat'])}: {bot:<10} {s['bitz']:>4} Bitz  {_attrs(s['attributes'])}"
            f"  codes {s['hand_count']}  {'; '.join(flags)}"
        )
        if s["components"]:
            comps = ", ".join(
                c["name"] + ("*" if c["gold"] else "") + ("(g)" if c["green"] else "")
                for c in s["components"]
            )
            lines.append(f"      components ({s['component_count']}/5): {comps}")
        if s["breaches"]:
            lines.append("      limit breaches: " + ", ".join(b["name"] for b in s["breaches"]))
        if "hand" in s:
            hand = ", ".join(c["name"] + ("*" if c["gold"] else "") for c in s["hand"])
            lines.append(f"      hand: {hand or '(empty)'}")
    p = v["proposal"]
    if p is not None:
        keeps = f", the proposer keeps {p['keeps']} Bitz of the reward" if "keeps" in p else ""
        lines.append(f"PROPOSAL by {_seat(p['proposer'])}: a team of {_seats(p['members'])}{keeps}")
    if v["terminal"]:
        won = [i for i, r in enumerate(v["returns"]) if r == 1.0]
        lines.append(f"GAME OVER: {_seats(won)} {'wins' if len(won) == 1 else 'win'}")
    else:
        lines.append(f"decision: {v['prompt']}")
    return "\n".join(lines)
