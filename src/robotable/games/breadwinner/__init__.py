"""Bread Winner (seed 003): two rival companies deploy dice bots on a six-tile map to plant, harvest
and deliver crops until one holds all twelve loaves. Rules: docs/rules/breadwinner.md.

Imports run one way: board, actions, content and state (data) <- rules (forward model) <-
view, narration, render, heuristic, encoding (they only read) <- this Game, which wires them.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, ClassVar

from robotable.core.errors import ContentError, OptionError
from robotable.core.options import OptionSpec, rules_option
from robotable.core.protocol import Game

from . import encoding, heuristic, narration, plans, render, rules, view
from .actions import ACTION_CLASSES
from .content import check_crop_values, load_crop_values
from .state import BreadWinnerState


class BreadWinnerGame(Game):
    name = "breadwinner"
    title = "Bread Winner"
    description = (
        "Two rival food companies roll dice into bots (Drone, Harvester, Locust, Soldier, Shield) "
        "and race to plant, harvest and deliver crops for bread: hold all 12 loaves to win."
    )
    version = "1"
    min_players = 2
    max_players = 2
    option_specs = (
        rules_option(
            {"first_turn_bots": 4, "second_player_loaves": 0},
            "balanced: the first player builds at most 2 bots on the first turn; printed: up to 4",
        ),
        OptionSpec(
            "crop_values",
            tuple,
            None,
            "the 10 crop chips' values, e.g. 1,2,2,3,3,3,4,4,5,5 (unset: the bundled chips)",
        ),
        OptionSpec(
            "crop_file",
            str,
            "",
            "a crop chip file (TOML: [[chip]] name, value, count), used when crop_values is unset",
            content="crop chip file",
        ),
        OptionSpec(
            "max_turns",
            int,
            60,
            "turns each player takes before the game ends without a Bread Winner",
            minimum=1,
            maximum=1000,
        ),
        OptionSpec(
            "stalemate",
            str,
            "most_loaves",
            "when the turns run out: most_loaves wins (equal loaves draw), or draw always",
            choices=("most_loaves", "draw"),
        ),
        OptionSpec(
            "act_after_deploy",
            bool,
            False,
            "a bot deployed from a factory may at once take an offensive action or unload",
        ),
        OptionSpec(
            "first_player",
            str,
            "random",
            "who takes the first turn: random, seat0 (the first seat) or seat1 (the second)",
            choices=("random", "seat0", "seat1"),
        ),
        OptionSpec(
            "second_player_loaves",
            int,
            0,
            "loaves the second player takes from the centre before the first turn",
            minimum=0,
            maximum=3,
        ),
        OptionSpec(
            "first_turn_bots",
            int,
            2,
            "bots the first player may build on the first turn (4: one on every factory)",
            minimum=1,
            maximum=4,
        ),
    )
    action_classes = ACTION_CLASSES
    heuristic = heuristic
    renderer = render
    encoding = encoding
    # What the state calls (state.py imports none of these; core/protocol.py's StateBase):
    rules: ClassVar[ModuleType] = rules  # the forward model: setup, legal_actions, apply_action
    views: ClassVar[ModuleType] = view  # view, prompt, stats
    narration: ClassVar[ModuleType] = narration  # events and choices in words

    def __init__(self, num_players: int | None = None, **options: Any) -> None:
        super().__init__(num_players, **options)
        try:
            if self.options["crop_values"] is not None:
                values = check_crop_values(
                    self.options["crop_values"], f"game {self.name}, option 'crop_values'"
                )
            elif self.options["crop_file"]:
                values = load_crop_values(self.options["crop_file"])
            else:
                values = load_crop_values()
        except ContentError as exc:
            raise OptionError(str(exc)) from None
        # The resolved values are stored in the options, so records replay with the same chips.
        self.options["crop_values"] = values
        self.crop_values: tuple[int, ...] = values
        self.max_turns: int = self.options["max_turns"]
        self.stalemate: str = self.options["stalemate"]
        self.act_after_deploy: bool = self.options["act_after_deploy"]
        self.second_player_loaves: int = self.options["second_player_loaves"]
        self.first_turn_bots: int = self.options["first_turn_bots"]
        self._json_options = {
            k: list(v) if isinstance(v, tuple) else v for k, v in self.options.items()
        }

    def json_options(self) -> dict[str, Any]:
        return dict(self._json_options)

    def new_initial_state(self, seed: int = 0) -> BreadWinnerState:
        return BreadWinnerState(self, seed)

    def state_from_json(self, data: dict[str, Any]) -> BreadWinnerState:
        return BreadWinnerState.from_json(self, data)

    def turn_plans(self, state: BreadWinnerState) -> list[Any]:
        """A turn in fewer decisions: a step as suggested, skip to a step, end the turn now
        (plans.py; issue 79 point 4)."""
        return plans.turn_plans(state)


GAME = BreadWinnerGame
