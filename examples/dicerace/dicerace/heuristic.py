"""How good a Dice Race position is for a seat, in [0, 1], for the greedy and search agents.

Only what every seat may know is used (squares and hand sizes, never a hand's values), so the
value of a determinized world is the value of the real one.
"""

from __future__ import annotations

from typing import Any

AVERAGE_BOOST = 2.0


def evaluate_all(state: Any) -> list[float]:
    if state.is_terminal():
        return list(state.returns())
    length = state.game.options["length"]
    reach = [
        min(length, square + AVERAGE_BOOST * len(hand)) / length
        for square, hand in zip(state.squares, state.hands)
    ]
    n = len(reach)
    mean = sum(reach) / n
    return [min(1.0, max(0.0, 1.0 / n + r - mean)) for r in reach]


def evaluate(state: Any, seat: int) -> float:
    return evaluate_all(state)[seat]
