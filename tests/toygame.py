"""A tiny game with hidden hands and chance, used to test the framework apart from real games.

Countdown: a pile of tokens; on your turn take 1-3 tokens, or play a hidden boost card from your
hand (take its value, draw a replacement). Whoever takes the last token wins.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar

from robotable.core.errors import RecordError
from robotable.core.options import OptionSpec
from robotable.core.protocol import TERMINAL, Action, Game, State
from robotable.core.registry import register_game
from robotable.core.rng import GameRng


@dataclass(frozen=True, slots=True)
class Take(Action):
    kind: ClassVar[str] = "take"
    count: int

    def label(self) -> str:
        return f"take {self.count}"


@dataclass(frozen=True, slots=True)
class Boost(Action):
    kind: ClassVar[str] = "boost"
    value: int

    def label(self) -> str:
        return f"play boost {self.value}"


class CountdownState(State):
    def __init__(self, game: CountdownGame) -> None:
        self.game = game
        self._legal = None
        self.pile = game.options["pile"]
        self.turn = 0
        self.to_move = 0
        self.winner = -1
        self.hands: list[list[int]] = [[] for _ in range(game.num_players)]
        self.deck: list[int] = []
        self.rng = GameRng(0)

    def current_player(self) -> int:
        return TERMINAL if self.winner >= 0 else self.to_move

    def is_terminal(self) -> bool:
        return self.winner >= 0

    def returns(self) -> list[float]:
        if self.winner < 0:
            return [0.0] * self.game.num_players
        return [1.0 if s == self.winner else 0.0 for s in range(self.game.num_players)]

    def turn_number(self) -> int:
        return self.turn

    def _legal_actions(self) -> list[Action]:
        takes: list[Action] = [Take(n) for n in (1, 2, 3) if n <= self.pile]
        boosts = sorted({v for v in self.hands[self.to_move] if v <= self.pile})
        return takes + [Boost(v) for v in boosts]

    def _apply(self, action: Action) -> list[dict]:
        seat = self.to_move
        if isinstance(action, Boost):
            self.hands[seat].remove(action.value)
            self.pile -= action.value
            if self.deck:
                self.hands[seat].append(self.deck.pop())
            event = {"type": "boost", "seat": seat, "card": f"boost {action.value}"}
        else:
            self.pile -= action.count
            event = {"type": "take", "seat": seat, "count": action.count}
        if self.pile == 0:
            self.winner = seat
        else:
            self.to_move = (seat + 1) % self.game.num_players
            self.turn += 1
        return [event]

    def clone(self) -> CountdownState:
        twin = CountdownState.__new__(CountdownState)
        twin.game = self.game
        twin._legal = self._legal
        twin.pile, twin.turn, twin.to_move, twin.winner = (
            self.pile,
            self.turn,
            self.to_move,
            self.winner,
        )
        twin.hands = [list(h) for h in self.hands]
        twin.deck = list(self.deck)
        twin.rng = self.rng.clone()
        return twin

    def view(self, seat: int | None) -> dict[str, Any]:
        deciding = seat is not None and seat == self.current_player()
        return {
            "game": self.game.name,
            "seat": seat,
            "current_player": self.current_player(),
            "turn": self.turn,
            "prompt": self.prompt(),
            "terminal": self.is_terminal(),
            "returns": self.returns() if self.is_terminal() else None,
            "legal_actions": [
                {"index": i, "label": str(a), "action": a.to_json()}
                for i, a in enumerate(self.legal_actions())
            ]
            if deciding
            else [],
            "pile": self.pile,
            "hand": sorted(self.hands[seat]) if seat is not None else None,
            "hand_sizes": [len(h) for h in self.hands],
            "deck_size": len(self.deck),
        }

    def determinize(self, seat: int, rng: random.Random) -> CountdownState:
        twin = self.clone()
        unseen = [v for s, h in enumerate(twin.hands) if s != seat for v in h] + twin.deck
        rng.shuffle(unseen)
        for s, h in enumerate(twin.hands):
            if s != seat:
                size = len(h)
                twin.hands[s] = [unseen.pop() for _ in range(size)]
        twin.deck = unseen
        twin.rng = GameRng(rng.getrandbits(63))
        twin._legal = None
        return twin

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game.name,
            "num_players": self.game.num_players,
            "options": dict(self.game.options),
            "pile": self.pile,
            "turn": self.turn,
            "to_move": self.to_move,
            "winner": self.winner,
            "hands": [list(h) for h in self.hands],
            "deck": list(self.deck),
            "rng": self.rng.state,
        }


class CountdownGame(Game):
    name = "countdown"
    title = "Countdown (test game)"
    description = "Take 1-3 tokens or play a hidden boost; whoever takes the last token wins."
    min_players = 2
    max_players = 3
    option_specs = (OptionSpec("pile", int, 21, "tokens in the pile", minimum=1, maximum=99),)
    action_classes = (Take, Boost)

    def new_initial_state(self, seed: int = 0) -> CountdownState:
        state = CountdownState(self)
        state.rng = GameRng(seed)
        state.deck = [1, 2, 3, 4, 5] * 2
        state.rng.shuffle(state.deck)
        for hand in state.hands:
            hand.extend(state.deck.pop() for _ in range(2))
        return state

    def state_from_json(self, data: dict[str, Any]) -> CountdownState:
        try:
            state = CountdownState(self)
            state.pile, state.turn = int(data["pile"]), int(data["turn"])
            state.to_move, state.winner = int(data["to_move"]), int(data["winner"])
            state.hands = [list(h) for h in data["hands"]]
            state.deck = list(data["deck"])
            state.rng = GameRng(int(data["rng"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"countdown state: bad or missing field ({exc})") from None
        return state

    def evaluate(self, state: State, seat: int) -> float:
        if state.is_terminal():
            return state.returns()[seat]
        # Leaving a multiple of 4 to the next seat wins the two-seat game without boosts.
        mine = state.current_player() == seat
        good = state.pile % 4 != 0
        return 0.7 if good == mine else 0.3


register_game(CountdownGame)
