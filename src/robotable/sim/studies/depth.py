"""The depth study (`simulate --depth`): how much search pays in a game.

`mcts:N` in one seat against greedy (or the one --agents agent) in the others, every seat order
in equal blocks; the searching agent's advantage over the fair share is the game's depth
(sim/challenge.py computes it; its table is the challenge table of sim/studies/cards.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .. import formatting as fmt
from ..challenge import depth_agents, depth_summary
from ..runner import GameResult, RunSpec


@dataclass(frozen=True, slots=True)
class Depth:
    """`simulate --depth`: mcts with `iterations` per move in one seat, BASE in the others."""

    base: str
    iterations: int
    key = "depth"  # the summary's key

    def agents(self, seats: int) -> list[str]:
        return depth_agents(self.iterations, self.base, seats)

    def summarize(
        self, spec: RunSpec, results: Sequence[GameResult], events: Sequence[str] = ()
    ) -> dict[str, Any]:
        return depth_summary(spec, results, self.iterations, self.base)

    def warnings(self, summary: dict[str, Any]) -> list[str]:
        return []


def draws(n: int) -> str:
    return f"{n} draw" if n == 1 else f"{n} draws"


def depth_sentence(d: dict[str, Any]) -> str:
    """What `--depth` found, in words, with the interval and the test."""
    return (
        f"Depth: {d['search']} wins {fmt.pct(d['win_rate'])} {fmt.ci(d['ci'])} of "
        f"{d['decided']} decided games against {d['baseline']} (fair share "
        f"{fmt.pct(d['fair_share'])}), {fmt.points(d['advantage'])} "
        f"{fmt.signed_ci(d['advantage_ci'])} (exact binomial p = {fmt.p_value(d['p_value'])}; "
        f"{draws(d['draws'])} left out)."
    )
