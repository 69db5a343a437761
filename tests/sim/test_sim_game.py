"""A tiny card race registered only for the balance-lab tests.

Each seat holds two cards from a shared deck; on its turn it plays one (scoring its value) and
draws. The first seat to reach the target wins; at the turn limit the best scores share the win
(a draw). Options let a test make chosen games crash, so error handling can be checked.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from typing import Any, ClassVar

from robotable.core.options import OptionSpec
from robotable.core.protocol import TERMINAL, Action, Game, State
from robotable.core.registry import register_game
from robotable.core.rng import GameRng

BUNDLED = (("Ace", 1), ("Bolt", 2), ("Cog", 3), ("Dud", 0))


@dataclass(frozen=True, slots=True)
class Play(Action):
    kind: ClassVar[str] = "play"
    card: str

    def label(self) -> str:
        return f"play {self.card}"


class TinyGame(Game):
    name = "simtiny"
    title = "Sim tiny"
    min_players = 2
    max_players = 4
    option_specs = (
        OptionSpec("target", int, 10, "points to win", minimum=1),
        OptionSpec("cards", str, "", "card file (TOML, [[card]] name/value); empty: bundled"),
        OptionSpec("crash_every", int, 0, "games with seed % crash_every == 0 crash (0: none)"),
    )
    action_classes = (Play,)

    def __init__(self, num_players=None, **options: Any) -> None:
        super().__init__(num_players, **options)
        path = self.options.get("cards")
        if path:
            with open(path, "rb") as fh:
                data = tomllib.load(fh)
            self.deck = tuple((c["name"], int(c["value"])) for c in data["card"])
        else:
            self.deck = BUNDLED
        self.values = dict(self.deck)

    def new_initial_state(self, seed: int = 0) -> TinyState:
        state = TinyState(self, GameRng(seed))
        state.crash = bool(self.options["crash_every"]) and seed % self.options["crash_every"] == 0
        for seat in range(self.num_players):
            state.hands[seat] = [state.draw(), state.draw()]
        return state

    def state_from_json(self, data: dict[str, Any]) -> TinyState:
        raise NotImplementedError


class TinyState(State):
    def __init__(self, game: TinyGame, rng: GameRng) -> None:
        self.game = game
        self.rng = rng
        self._legal = None
        n = game.num_players
        self.scores = [0] * n
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.seat = 0
        self.turns = 1
        self.crash = False
        self.over = False

    def draw(self) -> str:
        return self.game.deck[self.rng.below(len(self.game.deck))][0]

    def _legal_actions(self):
        return [Play(c) for c in sorted(set(self.hands[self.seat]))]

    def _apply(self, action: Play):
        if self.crash and self.turns == 3:
            raise RuntimeError("tiny game crash on purpose")
        seat = self.seat
        self.hands[seat].remove(action.card)
        self.scores[seat] += self.game.values[action.card]
        new = self.draw()
        self.hands[seat].append(new)
        events = [
            {"type": "play", "seat": seat, "card": action.card},
            {"type": "draw", "seat": seat, "card": new, "to": [seat]},
        ]
        limit = 6 * self.game.num_players
        if self.scores[seat] >= self.game.options["target"] or self.turns >= limit:
            self.over = True
        else:
            self.seat = (seat + 1) % self.game.num_players
            self.turns += 1
        return events

    def current_player(self) -> int:
        return TERMINAL if self.over else self.seat

    def is_terminal(self) -> bool:
        return self.over

    def returns(self) -> list[float]:
        if not self.over:
            return [0.0] * len(self.scores)
        best = max(self.scores)
        top = [s for s, v in enumerate(self.scores) if v == best]
        return [1.0 / len(top) if s in top else 0.0 for s in range(len(self.scores))]

    def turn_number(self) -> int:
        return self.turns

    def stats(self) -> dict[str, Any]:
        reached = max(self.scores) >= self.game.options["target"]
        return {
            "ended_by": "target" if reached else "limit",
            "reached_target": reached,
            "top_score": max(self.scores),
            "scores": list(self.scores),
        }

    def clone(self) -> TinyState:
        twin = TinyState.__new__(TinyState)
        twin.game = self.game
        twin.rng = self.rng.clone()
        twin._legal = self._legal
        twin.scores = list(self.scores)
        twin.hands = [list(h) for h in self.hands]
        twin.seat, twin.turns, twin.crash, twin.over = self.seat, self.turns, self.crash, self.over
        return twin

    def view(self, seat):
        return {
            "scores": list(self.scores),
            "hand": list(self.hands[seat]) if seat is not None else [],
        }

    def to_json(self):
        return {"scores": self.scores, "hands": self.hands, "rng": self.rng.state}

    def determinize(self, seat, rng):
        twin = self.clone()
        twin.rng = GameRng(rng.getrandbits(64))
        for other in range(len(twin.hands)):
            if other != seat:
                twin.hands[other] = [twin.draw() for _ in twin.hands[other]]
        twin._legal = None
        return twin


register_game(TinyGame)


class TinyGameNoCards(TinyGame):
    """The same race without a content option: --cards must say so."""

    name = "simtiny_nocards"
    option_specs = tuple(s for s in TinyGame.option_specs if s.name != "cards")


register_game(TinyGameNoCards)


def test_tiny_game_plays_to_the_end():
    import robotable
    from robotable.agents import make_agent

    game = robotable.load_game("simtiny", num_players=3)
    state = game.new_initial_state(seed=5)
    agent = make_agent("random", seed=1)
    while not state.is_terminal():
        state.apply_action(agent.act(state))
    assert sum(state.returns()) == 1.0
