"""Terminal rendering: the six-tile map drawn as a 2D board from a seat's view (never more).

Bots are written `A2 Hv` (owner letter and die number, bot type); `+3` marks a Harvester carrying
a 3-loaf harvest. A tile line shows its crop (`crop ?` face down and unseen, `crop 3` seen) and
`POISON`. The viewing seat's side is drawn at the bottom.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .board import BOT_SHORT, SEAT_LETTERS
from .narration import result_sentence

if TYPE_CHECKING:
    from .state import BreadWinnerState

CELL = 21


def _bot(bot: dict[str, Any]) -> str:
    text = f"{bot['name']} {BOT_SHORT[bot['face']]}"
    if bot["carrying"]:
        text += f"+{bot['carrying']}"
    return text


def _cell_lines(tile: dict[str, Any]) -> list[str]:
    head = tile["id"]
    if tile["kind"] == "delivery":
        head += f" {SEAT_LETTERS[tile['owner']]} delivery"
    crop = tile["crop"]
    if crop is not None:
        head += " crop " + ("?" if crop["value"] is None else str(crop["value"]))
    if tile["poisoned"]:
        head += " POISON"
    bots = "  ".join(_bot(b) for b in tile["bots"]) or "."
    return [f" {head}".ljust(CELL), f" {bots}".ljust(CELL)]


def _border(cells: int) -> str:
    return "+" + "+".join("-" * CELL for _ in range(cells)) + "+"


def _factories(seat_info: dict[str, Any]) -> str:
    parts = []
    for factory in seat_info["factories"]:
        bot = factory["bot"]
        parts.append(f"[{factory['number']}: {_bot(bot) if bot else '--'}]")
    # "Seat 1 (A)": a table that knows the names puts them in; the letter marks the seat's bots.
    return (
        f"Seat {seat_info['seat'] + 1} ({seat_info['letter']}) factories "
        + " ".join(parts)
        + f"   dice in pile {seat_info['pile']}   loaves {seat_info['loaves']}"
    )


def render(st: BreadWinnerState, seat: int | None) -> str:
    view = st.view(seat)
    tiles = {t["id"]: t for t in view["tiles"]}
    bottom = 1 if seat == 1 else 0
    pad = " " * (CELL // 2 + 1)
    rows: list[list[str]] = [["D_B"], ["L2a", "L2b"], ["L1a", "L1b"], ["D_A"]]
    if bottom == 1:
        rows = [["D_A"], ["L1b", "L1a"], ["L2b", "L2a"], ["D_B"]]
    lines = [
        f"Bread Winner   turn {view['turn']}   "
        f"loaves: centre {view['loaves_centre']}, Seat 1 {view['seats'][0]['loaves']}, "
        f"Seat 2 {view['seats'][1]['loaves']}",
        f"crop pile {view['crop_pile']} face down   discarded harvest "
        f"{', '.join(str(v) for v in view['discarded_harvest']) or '-'}   "
        f"poison chips left {view['poison_supply']}",
        "",
        _factories(view["seats"][1 - bottom]),
    ]
    single = pad + _border(1)
    double = _border(2)
    for index, row in enumerate(rows):
        if index == 0:
            lines.append(single)
        elif index in (1, 2, 3):
            lines.append(double)
        indent = pad if len(row) == 1 else ""
        cells = [_cell_lines(tiles[name]) for name in row]
        for i in range(2):
            lines.append(indent + "|" + "|".join(c[i] for c in cells) + "|")
    lines.append(single)
    lines.append(_factories(view["seats"][bottom]))
    lines.append("")
    if view["roll"]:
        rolled = ", ".join(f"{name} x{n}" for name, n in view["roll"].items() if n)
        lines.append(f"roll to build from: {rolled or 'nothing left'}")
    if view["terminal"]:
        lines.append(result_sentence(st, None))
    else:
        lines.append(f"decision: {view['prompt']}")
    return "\n".join(lines)
