"""Terminal rendering (plain text, no square brackets so rich markup leaves it alone): both
fields, life, mana, hand and junk counts, whose decision it is and why."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .narration import result_sentence
from .view import view

if TYPE_CHECKING:
    from .state import IotabotsState

# The view's phase names in the rulebook's words (the web table's drawing says the same).
PHASE_WORDS = {
    "order": "choosing who goes first",
    "mulligan": "mulligans",
    "main1": "Main Phase 1",
    "battle": "Battle Phase",
    "main2": "Main Phase 2",
    "end": "End Phase",
    "over": "the match is over",
}


def _bot_line(b: dict) -> str:
    flags = []
    if b["token"]:
        flags.append("token")
    if b["owner"] != b["controller"]:
        flags.append(f"owned by Seat {b['owner'] + 1}")
    if b["control_ends_this_turn"]:
        flags.append("returns at end of turn")
    if b["summoned_this_turn"]:
        flags.append("just arrived")
    if b["attacks_made"]:
        flags.append(f"attacked {b['attacks_made']}x")
    if b["counters"]:
        flags.append(f"{b['counters']} counters")
    if b["ignition_used"]:
        flags.append("effect used")
    stats = f"{b['atk']}/{b['def']}"
    if (b["atk"], b["def"]) != (b["base_atk"], b["base_def"]):
        stats += f" (printed {b['base_atk']}/{b['base_def']})"
    extra = f" ({', '.join(flags)})" if flags else ""
    text = f" - {b['text']}" if b["text"] else ""
    return f"    - {b['name']} {stats}{extra}{text}"


def render(state: IotabotsState, seat: int | None) -> str:
    v = view(state, seat)
    m = v["match"]
    lines = [
        f"IOTABOTS  duel {v['duel']}  turn {v['duel_turn']}/{v['max_turns']}  "
        f"{PHASE_WORDS[v['phase']]}  match wins {m['wins'][0]}-{m['wins'][1]}"
        + (f" (draws {m['draws']})" if m["draws"] else "")
    ]
    order = [1 - seat, seat] if seat in (0, 1) else [1, 0]
    for s in order:
        p = v["players"][s]
        who = "you " if s == seat else "    "
        active = (
            " <- turn"
            if v["active"] == s and v["phase"] not in ("order", "mulligan", "over")
            else ""
        )
        lines.append(
            f"  {who}Seat {s + 1} ({p['deck_name'].replace('_', ' ')}): LP {p['life']}  mana {p['mana']}/"
            f"{p['mana_max']}  hand {p['hand_count']}  deck {p['deck_count']}  "
            f"junk {len(p['junk'])}" + ("  BOT PROTECT" if p["bot_protect"] else "") + active
        )
        if p["field"]:
            for b in p["field"]:
                lines.append(_bot_line(b))
        else:
            lines.append("    (no Bots)")
        if p["hand"] is not None:
            hand = ", ".join(
                f"{c['name']} ({c['mana']})"
                + (f" {c['atk']}/{c['def']}" if c["type"] != "buzz" else " buzz")
                for c in p["hand"]
            )
            lines.append(f"    hand: {hand or '(empty)'}")
    if v["resolving"]:
        lines.append(f"  resolving: {v['resolving']['name']}")
    if v["terminal"]:
        # "Seat 1" and "Seat 2": a table that knows the names puts them in.
        won = ", ".join(m["results"])
        lines.append(f"  match over: {result_sentence(state, None)}  Duels won by: {won}")
    else:
        lines.append(f"  decision: {v['prompt']}")
    return "\n".join(lines)
