"""Terminal rendering: workshops, the Laboratory rows, and the battle step by step."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .state import RumbleState


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


def render(s: RumbleState, seat: int | None) -> str:
    v = s.view(seat)
    out: list[str] = []
    title = "SHOWDOWN" if v["showdown"] else f"Round {v['round']}"
    out.append(
        f"=== Rumblebots - {title} - {v['phase']} phase ({v['direction']}) - Champion: "
        f"seat {v['champion']} ==="
    )
    out.append(f"Crystal supply {v['crystal_supply']}, round spaces {v['round_spaces']}")
    out.append("Laboratory:")
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
            f"Seat {p['seat']}{mark}: Workshop tier {p['workshop_tier']}, scraps {p['scraps']}, "
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
                f"    scanned hand: {p['hand_count']} hidden card(s), tiers {p['hand_tiers']}"
            )
        if "battle" in p:
            b = p["battle"]
            state = "in" if b["active"] else "out"
            out.append(
                f"    battle: {state}, deck {b['deck_count']} card(s), "
                f"discard {', '.join(c['name'] for c in b['discard']) or '-'}"
            )
    b = v["battle"]
    if b is not None:
        out.append(
            f"Clash: Champion seat {b['champion']} defends with "
            f"{', '.join(c['name'] for c in b['defense_gang']) or '(nothing)'}"
        )
        if b["challenger"] is not None:
            out.append(
                f"       Challenger seat {b['challenger']} attacks with "
                f"{', '.join(c['name'] for c in b['attack_gang']) or '(nothing yet)'}"
            )
            out.append(
                f"       attack {b['attack']} vs defense {b['defense']}; "
                f"crits {b['crits']} of {b['crits_needed']} needed"
            )
    if v["battle_log"]:
        out.append(f"Battle log (battle {v['battle_number']}):")
        out.extend("  " + line for line in v["battle_log"])
    out.append(f"> {v['prompt']}")
    for a in v["legal_actions"]:
        out.append(f"  [{a['index']}] {a['label']}")
    return "\n".join(out)
