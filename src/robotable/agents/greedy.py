"""One-ply lookahead on the game's heuristic (`Game.evaluate`).

The lookahead runs on a determinized copy, so drawing a card while looking ahead never shows the
agent the real top of a hidden pile.
"""

from __future__ import annotations

from collections.abc import Callable

from ..core.protocol import Action, State
from .base import Agent


class GreedyAgent(Agent):
    name = "greedy"

    def __init__(
        self,
        seed: int = 0,
        noise: float = 0.0,
        evaluate: Callable[[State, int], float] | None = None,
    ) -> None:
        super().__init__(seed)
        # Another evaluation than the game's own: tuning scripts compare heuristic weights.
        self.evaluate = evaluate
        # The chance of a uniformly random legal move instead of the best one: a gentler player.
        self.noise = noise
        if noise:
            self.name = f"greedy:noise={noise}"

    def act(self, state: State) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if self.noise and self.rng.random() < self.noise:
            return self.rng.choice(legal)
        seat = state.current_player()
        evaluate = self.evaluate or state.game.evaluate
        sample = state.determinize(seat, self.rng).silence()  # its lookahead reads no events
        return self.rng.choice(best_of(legal, one_ply_values(sample, legal, evaluate, seat)))


def one_ply_values(
    state: State, actions: list[Action], evaluate: Callable[[State, int], float], seat: int
) -> list[float]:
    """`evaluate` for `seat` of the position after each action (a game's evaluation gives the
    result itself once the game is over)."""
    values = []
    for action in actions:
        after = state.clone()
        after.apply_action(action)
        values.append(evaluate(after, seat))
    return values


def best_of(actions: list[Action], values: list[float]) -> list[Action]:
    """The actions of the highest value, ties (within rounding) all kept, in their order."""
    best: list[Action] = []
    best_value = float("-inf")
    for action, value in zip(actions, values):
        if value > best_value + 1e-12:
            best, best_value = [action], value
        elif abs(value - best_value) <= 1e-12:
            best.append(action)
    return best
