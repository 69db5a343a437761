"""The agent ladder: a Bradley-Terry fit of a round robin, on the Elo scale, with intervals.

Every game is cut into pairwise results between the agents at its seats: for each pair of seats
the one with the higher return beat the other, equal returns are half a win each. (Two seats
played by the same agent, which happens with fewer agents than seats, say nothing and are
skipped.) The ratings are the maximum-likelihood Bradley-Terry strengths of those pairwise
results, shown on the Elo scale (a 400-point gap = 10:1 odds) and centred on 1500. Intervals are
percentile intervals of a bootstrap that resamples whole games, so pairs from the same game stay
together.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .runner import GameResult
from .stats import bradley_terry, elo_from_log_strengths


@dataclass(frozen=True, slots=True)
class Rating:
    agent: str
    elo: float
    low: float
    high: float
    pair_games: int
    score: float  # share of pairwise points won


def pairwise_matrix(results: Sequence[GameResult], num_agents: int) -> list[list[float]]:
    """wins[a][b]: pairwise points agent a took from agent b over all finished games."""
    wins = [[0.0] * num_agents for _ in range(num_agents)]
    for r in results:
        _add_game(wins, r, 1.0)
    return wins


def _add_game(wins: list[list[float]], r: GameResult, weight: float) -> None:
    if r.returns is None:
        return
    seats = len(r.returns)
    for i in range(seats):
        for j in range(i + 1, seats):
            a, b = r.arrangement[i], r.arrangement[j]
            if a == b:
                continue
            if r.returns[i] > r.returns[j]:
                wins[a][b] += weight
            elif r.returns[i] < r.returns[j]:
                wins[b][a] += weight
            else:
                wins[a][b] += weight / 2
                wins[b][a] += weight / 2


def ladder(
    results: Sequence[GameResult],
    labels: Sequence[str],
    bootstrap: int = 1000,
    seed: int = 0,
    level: float = 0.95,
) -> dict[str, Any]:
    """Ratings with bootstrap intervals, the pairwise score matrix and the counts behind them."""
    import numpy as np

    k = len(labels)
    done = [r for r in results if r.returns is not None]
    per_game = np.zeros((len(done), k, k))
    for g, r in enumerate(done):
        matrix = [[0.0] * k for _ in range(k)]
        _add_game(matrix, r, 1.0)
        per_game[g] = matrix
    total = per_game.sum(axis=0) if len(done) else np.zeros((k, k))
    point = elo_from_log_strengths(bradley_terry(total.tolist()))
    samples = []
    if bootstrap and len(done):
        rng = np.random.default_rng(seed)
        for _ in range(bootstrap):
            counts = rng.multinomial(len(done), np.full(len(done), 1 / len(done)))
            matrix = np.tensordot(counts, per_game, axes=1)
            samples.append(elo_from_log_strengths(bradley_terry(matrix.tolist())))
    tail = (1 - level) / 2
    ratings = []
    for a in range(k):
        if samples:
            column = np.array([s[a] for s in samples])
            low, high = (float(x) for x in np.quantile(column, [tail, 1 - tail]))
        else:
            low = high = math.nan
        played = float(total[a].sum() + total[:, a].sum())
        ratings.append(
            Rating(
                agent=labels[a],
                elo=point[a],
                low=low,
                high=high,
                pair_games=int(round(played)),
                score=float(total[a].sum()) / played if played else math.nan,
            )
        )
    order = sorted(range(k), key=lambda a: -ratings[a].elo)
    score_matrix = [
        [
            float(total[a][b] / (total[a][b] + total[b][a])) if total[a][b] + total[b][a] else None
            for b in range(k)
        ]
        for a in range(k)
    ]
    return {
        "ratings": [
            {
                "rank": rank + 1,
                "agent": ratings[a].agent,
                "elo": ratings[a].elo,
                "ci": [ratings[a].low, ratings[a].high],
                "pair_games": ratings[a].pair_games,
                "score": ratings[a].score,
            }
            for rank, a in enumerate(order)
        ],
        "agents": list(labels),
        "pairwise_score": score_matrix,
        "pairwise_wins": total.tolist(),
        "bootstrap": bootstrap,
        "level": level,
        "games": len(results),
        "errors": len(results) - len(done),
    }
