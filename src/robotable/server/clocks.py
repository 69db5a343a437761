"""Table clocks: a time limit per move, or a bank of time per player for the whole game.

When a person's time runs out, the table moves for them: it plays the move the Medium AI would
(one-ply lookahead on the game's heuristic), marked in the log as chosen because time ran out,
so a table with an absent player keeps going instead of waiting for ever. AI seats have no clock
(their thinking is bounded by the server's AI limits).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

TIMEOUT_AGENT = "medium"  # what plays for a person whose time ran out


@dataclass(slots=True)
class Clock:
    mode: str  # "move": `seconds` for each decision; "game": `seconds` in all, per player
    seconds: float
    banks: list[float] = field(default_factory=list)  # "game": each seat's time left

    @classmethod
    def new(cls, mode: str, seconds: float, num_players: int) -> Clock:
        return cls(mode, seconds, [seconds] * num_players if mode == "game" else [])

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> Clock | None:
        if not data:
            return None
        return cls(data["mode"], float(data["seconds"]), [float(b) for b in data.get("banks", [])])

    def to_json(self) -> dict[str, Any]:
        return {"mode": self.mode, "seconds": self.seconds, "banks": self.banks}

    def allowance(self, seat: int) -> float:
        """Seconds `seat` has for the decision it is starting."""
        return self.seconds if self.mode == "move" else max(0.0, self.banks[seat])

    def spend(self, seat: int, elapsed: float) -> None:
        if self.mode == "game":
            self.banks[seat] = max(0.0, self.banks[seat] - elapsed)

    def view(self, deciding: int | None, elapsed: float = 0.0) -> dict[str, Any]:
        """What the pages show: the mode, the deciding person's time left, every bank."""
        left = None if deciding is None else max(0.0, self.allowance(deciding) - elapsed)
        return {
            "mode": self.mode,
            "seconds": self.seconds,
            "seat": deciding,
            "remaining": None if left is None else round(left, 1),
            "banks": [round(b, 1) for b in self.banks],
        }
