"""Fixed indices for the RL adapters (robotable.envs): an action index space and an observation
of fixed size, built from a seat's view alone."""

from __future__ import annotations

from typing import Any

from .actions import Boost
from .rules import BOOST_VALUES


def num_distinct_actions(game: Any) -> int:
    return 1 + len(BOOST_VALUES)  # roll, then one index per boost value


def action_index(game: Any, action: Any) -> int:
    return BOOST_VALUES.index(action.value) + 1 if isinstance(action, Boost) else 0


def observation_size(game: Any) -> int:
    # per seat (from the viewer round the table): square and hand size; then the viewer's hand
    # by value, the pile's size, the turns left and whether the viewer decides now
    return 2 * game.num_players + len(BOOST_VALUES) + 3


def encode_observation(game: Any, view: dict[str, Any]) -> list[float]:
    n = game.num_players
    me = view["seat"] if view["seat"] is not None else 0
    length = view["length"]
    out: list[float] = []
    for offset in range(n):
        seat = (me + offset) % n
        out += [view["squares"][seat] / length, view["hand_sizes"][seat] / 4]
    hand = view["hand"] or []
    out += [hand.count(v) / 2 for v in BOOST_VALUES]
    out += [
        view["pile_size"] / 12,
        view["turns_left"] / max(1, game.options["turns"] * n),
        1.0 if view["current_player"] == view["seat"] else 0.0,
    ]
    return out
