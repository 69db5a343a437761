"""The track in text, for the terminal."""

from __future__ import annotations

from typing import Any


def render(state: Any, seat: int | None) -> str:
    view = state.view(seat)
    length = view["length"]
    lines = []
    for s, square in enumerate(view["squares"]):
        track = "".join("R" if i == square else "." for i in range(length + 1))
        who = "You" if s == seat else f"Seat {s + 1}"
        cards = view["hand_sizes"][s]
        lines.append(f"{who:>8} {track}| square {square} of {length}, {cards} boost cards")
    if view["hand"] is not None:
        shown = ", ".join(str(v) for v in view["hand"]) or "none"
        lines.append(f"Your boost cards: {shown}")
    lines.append(f"Draw pile: {view['pile_size']} cards; {view['turns_left']} turns left")
    return "\n".join(lines)
