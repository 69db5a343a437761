"""robotable: five robot tabletop games to play, simulate and study.

import robotable
game = robotable.load_game("stakbots", num_players=2)
state = game.new_initial_state(seed=7)
"""

from __future__ import annotations

# First, before any engine module is imported: the finder that loads the compiled engine where
# it is built and current and the source otherwise (ROBOTABLE_PURE=1 forces the source).
from . import _engine  # noqa: F401
from .core.errors import (
    ContentError,
    IllegalAction,
    OptionError,
    RecordError,
    RobotableError,
)
from .core.events import visible_events
from .core.protocol import TERMINAL, Action, Game, State
from .core.records import load_record, make_record, replay_record, save_record
from .core.registry import game_names, load_game

__version__ = "0.1.0"

__all__ = [
    "TERMINAL",
    "Action",
    "ContentError",
    "Game",
    "IllegalAction",
    "OptionError",
    "RecordError",
    "RobotableError",
    "State",
    "game_names",
    "load_game",
    "load_record",
    "make_record",
    "replay_record",
    "save_record",
    "visible_events",
]
