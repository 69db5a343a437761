"""The data of a Dice Race position: squares, hidden hands, the draw pile, the RNG.

Plain data with a hand-written clone and JSON. The forward model is in rules.py and what a seat
sees in view.py, which the state reaches through `self.game.rules` and `self.game.views` (this
module imports nothing above it).
"""

from __future__ import annotations

import random
from typing import Any

from robotable.core.protocol import TERMINAL, Action, State
from robotable.core.rng import GameRng


class DiceRaceState(State):
    def __init__(self, game: Any) -> None:
        self.game = game
        self._legal: list[Action] | None = None
        n = game.num_players
        self.squares = [0] * n  # each racer's square, 0 = the start
        self.hands: list[list[int]] = [[] for _ in range(n)]  # boost cards: secret to others
        self.pile: list[int] = []  # the draw pile, face down: its order is secret to all
        self.to_move = 0
        self.turn = 0  # turns taken so far
        self.winners: list[int] = []  # empty until the race is over
        self.rng = GameRng(0)

    # -- the protocol's questions -----------------------------------------------------------
    def current_player(self) -> int:
        return TERMINAL if self.winners else self.to_move

    def is_terminal(self) -> bool:
        return bool(self.winners)

    def returns(self) -> list[float]:
        if not self.winners:
            return [0.0] * self.game.num_players
        share = 1.0 / len(self.winners)
        return [share if s in self.winners else 0.0 for s in range(self.game.num_players)]

    def turn_number(self) -> int:
        return self.turn

    def _legal_actions(self) -> list[Action]:
        return self.game.rules.legal_actions(self)

    def _apply(self, action: Action) -> list[dict[str, Any]]:
        return self.game.rules.apply(self, action)

    # -- what a seat knows --------------------------------------------------------------------
    # (`view`, `observation_view`, `prompt` and `stats` are the protocol's: view.py answers them)
    def determinize(self, seat: int, rng: random.Random | Any) -> DiceRaceState:
        """A world `seat` cannot tell from this one: the other hands and the pile dealt again
        from the cards `seat` has not seen, and the die's future rolls drawn anew."""
        twin = self.clone()
        unseen = [v for s, h in enumerate(twin.hands) if s != seat for v in h] + twin.pile
        rng.shuffle(unseen)
        for s, hand in enumerate(twin.hands):
            if s != seat:
                twin.hands[s] = [unseen.pop() for _ in hand]
        twin.pile = unseen
        twin.rng = GameRng(rng.getrandbits(63))
        twin._legal = None
        return twin

    # -- copies and JSON ----------------------------------------------------------------------
    def clone(self) -> DiceRaceState:
        twin = DiceRaceState.__new__(DiceRaceState)
        twin.game = self.game
        twin._legal = self._legal
        twin.squares = list(self.squares)
        twin.hands = [list(h) for h in self.hands]
        twin.pile = list(self.pile)
        twin.to_move, twin.turn = self.to_move, self.turn
        twin.winners = list(self.winners)
        twin.rng = self.rng.clone()
        return twin

    def to_json(self) -> dict[str, Any]:
        return {
            "squares": list(self.squares),
            "hands": [list(h) for h in self.hands],
            "pile": list(self.pile),
            "to_move": self.to_move,
            "turn": self.turn,
            "winners": list(self.winners),
            "rng": self.rng.state,
        }
