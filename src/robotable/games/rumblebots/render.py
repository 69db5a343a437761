"""The terminal board of Rumblebots, drawn from a seat's view (view.py): workshops, the
Laboratory rows, and the battle step by step. The choices are not listed on the board: the front
end lists (and numbers) them itself, in the words of `RumblebotsState.describe_action`.
"""

from __future__ import annotations

from typing import Any

from .state import RumblebotsState
from .view import view


def _card(c: dict[str, Any] | None) -> str:
    if c is None:
        return "(empty)"
    if c["contraption"]:
        up = "" if c.get("upright", True) else " (used)"
        return f"{c['name']} <Contraption, cost {c['cost']}/{c['scrap']}>{up}"
    return (
        f"{c['name']} [{'/'.join(c['factions'])}] ATK {c['attack']}+{c['crits']}c "
        f"DEF {c['defense']}+{c['barriers']}b cost {c['cost']}/{c['scrap']}"
    )


def _seat(p: int, seat: int | None) -> str:
    return f"Seat {p + 1}" + (" (you)" if p == seat else "")


def render(s: RumblebotsState, seat: int | None) -> str:
    v = view(s, seat)
    out: list[str] = []
    title = "SHOWDOWN" if v["showdown"] else f"Round {v['round']}"
    out.append(
        f"=== Rumblebots - {title} - {v['phase']} phase ({v['direction']}) - Champion: "
        f"{_seat(v['champion'], seat)} ==="
    )
    spaces = ", ".join(str(x) for x in v["round_spaces"])
    out.append(f"Crystal supply {v['crystal_supply']}, round spaces (rounds 1-5) {spaces}")
    out.append("Laboratory:")
    out.append(
        "  (a bot: [factions] ATK attack+crits c, DEF defense+barriers b, "
        "cost scraps to build/scrap value)"
    )
    for row in v["laboratory"]["rows"]:
        if row["open"]:
            slots = " | ".join(_card(c) for c in row["slots"])
            out.append(f"  tier {row['tier']} ({row['deck_count']} in deck): {slots}")
        else:
            out.append(f"  tier {row['tier']} ({row['deck_count']} in deck): not revealed yet")
    td = v["laboratory"]["transformation_deck"]
    out.append(f"  Transformation deck: {', '.join(td) if td else '(empty)'}")
    out.append(f"  Recycling area: {len(v['laboratory']['recycling_area'])} card(s)")
    for p in v["seats"]:
        cr = p["crystals"]
        mark = " *Champion*" if p["champion"] else ""
        out.append(
            f"{_seat(p['seat'], seat)}{mark}: Workshop tier {p['workshop_tier']}, scraps {p['scraps']}, "
            f"crystals {cr['total']} (storage {cr['storage']}, reactor {cr['reactor']}, "
            f"cryo {cr['cryo_cell']})"
        )
        for c in p["bots"]:
            out.append(f"    {_card(c)}")
        for c in p["contraptions"]:
            out.append(f"    {_card(c)}")
        if p["built_this_phase"]:
            out.append(
                "    built this phase: " + "; ".join(_card(c) for c in p["built_this_phase"])
            )
        if "hand" in p and p["hand"]:
            out.append("    scanned hand: " + "; ".join(_card(c) for c in p["hand"]))
        elif p["hand_count"]:
            out.append(
                f"    scanned hand: {p['hand_count']} hidden card(s), tiers "
                + ", ".join(str(x) for x in p["hand_tiers"])
            )
        if "battle" in p:
            b = p["battle"]
            state = "in" if b["active"] else "out"
            out.append(
                f"    battle: {state}, deck {b['deck_count']} card(s), "
                f"discard {', '.join(c['name'] for c in b['discard']) or '-'}"
            )
    b = v["battle"]
    if b is not None:  # the web table's battle panel says the same (web/games/rumblebots.js)
        out.append(
            f"Clash: Champion {_seat(b['champion'], seat)} defends with "
            f"{', '.join(c['name'] for c in b['defense_gang']) or 'nothing'}."
        )
        if b["challenger"] is not None:
            out.append(
                f"       Challenger {_seat(b['challenger'], seat)} attacks with "
                f"{', '.join(c['name'] for c in b['attack_gang']) or 'nothing yet'}."
            )
            out.append(
                f"       Attack {b['attack']} vs defense {b['defense']}; "
                f"crits {b['crits']} of {b['crits_needed']} needed."
            )
        mods = [f"{k} {v:+d}" for k, v in b["modifiers"].items() if v]
        if mods:
            out.append(f"       This clash's modifiers: {', '.join(mods)}.")
    if v["battle_log"]:
        out.append(f"Battle log (battle {v['battle_number']}):")
        out.extend("  " + line for line in v["battle_log"])
    out.append(f"> {v['prompt']}")
    return "\n".join(out)
