"""Uniformly random legal play: the baseline, and the fastest playout policy."""

from __future__ import annotations

from ..core.protocol import Action, State
from .base import Agent


class RandomAgent(Agent):
    name = "random"

    def act(self, state: State) -> Action:
        return self.rng.choice(state.legal_actions())
