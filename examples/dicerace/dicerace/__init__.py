"""Dice Race: two to four robot racers, a die and hidden boost cards. The worked example of
docs/robotable's own-game guide (docs/your-own-game.md), installed as its own package.

Imports run one way: actions, state (data) <- rules (forward model) <- view, heuristic,
encoding, render, narration (they only read) <- this Game, which names them.
"""

from __future__ import annotations

from typing import Any

from robotable.core.errors import RecordError
from robotable.core.options import OptionSpec
from robotable.core.protocol import Game
from robotable.core.rng import GameRng

from . import encoding, heuristic, narration, render, rules, view
from .actions import ACTION_CLASSES
from .state import DiceRaceState


class DiceRaceGame(Game):
    name = "dicerace"
    title = "Dice Race"
    description = (
        "Robot racers roll a die or play hidden boost cards to land exactly on the finish."
    )
    minutes = "5"
    version = "1"
    min_players = 2
    max_players = 4
    option_specs = (
        OptionSpec(
            "length", int, 20, "squares from the start to the finish", minimum=5, maximum=60
        ),
        OptionSpec(
            "turns", int, 30, "turns each racer takes before the race ends", minimum=1, maximum=200
        ),
    )
    action_classes = ACTION_CLASSES
    # The modules core wires to the protocol's methods (evaluate, render, narrate_event, the
    # RL encoding hooks); `rules` is what the state calls for its legal actions and moves, and
    # `views` for what a seat sees and reads (view, observation_view, prompt, stats).
    rules = rules
    views = view
    heuristic = heuristic
    renderer = render
    narration = narration
    encoding = encoding

    def new_initial_state(self, seed: int = 0) -> DiceRaceState:
        return rules.setup(self, seed)

    def state_from_json(self, data: dict[str, Any]) -> DiceRaceState:
        state = DiceRaceState(self)
        try:
            state.squares = [int(v) for v in data["squares"]]
            state.hands = [[int(v) for v in hand] for hand in data["hands"]]
            state.pile = [int(v) for v in data["pile"]]
            state.to_move, state.turn = int(data["to_move"]), int(data["turn"])
            state.winners = [int(v) for v in data["winners"]]
            state.rng = GameRng(int(data["rng"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"game dicerace, state: bad or missing field ({exc!r})") from None
        if len(state.squares) != self.num_players or len(state.hands) != self.num_players:
            raise RecordError(
                f"game dicerace, state: squares and hands need {self.num_players} seats"
            )
        return state


GAME = DiceRaceGame
