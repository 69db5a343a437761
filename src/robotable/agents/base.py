"""What an agent is: something that picks an action for the deciding seat of a state.

Agents see the protocol only. They may read `state.view(seat)` and work on
`state.determinize(seat, rng)`; they never read hidden fields of the real state.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from ..core.protocol import Action, State


class Agent(ABC):
    name: str = "agent"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    # Whether a decision depends on the agent's own earlier ones (a kept tree, a turn's shared
    # budget): such an agent cannot take over a game partway through as if it had played it.
    remembers: bool = False

    @abstractmethod
    def act(self, state: State) -> Action:
        """The action this agent takes for `state.current_player()`."""

    def reseed(self, seed: int) -> None:
        """Draw the next decision's randomness from a stream of `seed` (a run's decision
        streams, runner.GameJob.decision_streams: each decision's own, so that a game can be
        taken over partway through and go on as it would have)."""
        self.rng.seed(seed)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"
