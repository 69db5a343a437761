"""Events: plain dicts describing what happened, filtered per seat so they never leak.

An event is `{"type": ..., ...}`. An event carrying a secret lists the seats that may see it in
`"to"`; everybody else (spectators included) never receives it. A game that reveals something to
one seat emits the private event with `"to"` and, when the table should know that something
happened, a separate public event without the secret.
"""

from __future__ import annotations

from typing import Any

Event = dict[str, Any]


def visible_events(events: list[Event], seat: int | None) -> list[Event]:
    """The events `seat` may see (`None` is a spectator: only public events)."""
    return [e for e in events if "to" not in e or (seat is not None and seat in e["to"])]
