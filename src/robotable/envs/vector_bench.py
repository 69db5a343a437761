"""Steps per second of robotable's vector env against Gymnasium's Sync and Async vector envs.

    python -m robotable.envs.vector_bench --game stakbots --sizes 1,16,64 --seconds 3 --rounds 3

All three step N copies of the same single env (`RobotableEnv`, random opponents) with the same
policy: a uniformly random legal action per sub-env, drawn from the batched `action_mask` in one
numpy call. A figure is sub-env steps per second of wall-clock time (AsyncVectorEnv works in
other processes, so this process's CPU time would not count it), the median over rounds that
alternate the three kinds so a busy neighbour hurts each alike. Environment start-up (Async
forks N workers) is not timed.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from gymnasium.vector import AsyncVectorEnv, SyncVectorEnv

from .gymnasium import RobotableEnv
from .vector import RobotableVectorEnv

KINDS = ("robotable", "sync", "async")


def random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal action per row of `masks` (0 where a row has none)."""
    return (rng.random(masks.shape) * masks).argmax(axis=1)


def make(kind: str, game: str, num_envs: int, **kwargs: Any) -> Any:
    if kind == "robotable":
        return RobotableVectorEnv(game, num_envs=num_envs, **kwargs)
    factories: list[Callable[[], RobotableEnv]] = [
        lambda: RobotableEnv(game, **kwargs) for _ in range(num_envs)
    ]
    if kind == "sync":
        return SyncVectorEnv(factories)
    if kind == "async":
        return AsyncVectorEnv(factories)
    raise ValueError(f"unknown kind {kind!r} (known: {', '.join(KINDS)})")


def steps_per_second(envs: Any, seconds: float, seed: int) -> float:
    rng = np.random.default_rng(seed)
    _, infos = envs.reset(seed=seed)
    for _ in range(3):  # warm up: first decisions, worker pipes
        infos = envs.step(random_actions(infos["action_mask"], rng))[4]
    steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while steps < 2 or time.perf_counter() < deadline:
        infos = envs.step(random_actions(infos["action_mask"], rng))[4]
        steps += 1
    return envs.num_envs * steps / (time.perf_counter() - start)


def run(
    game: str, sizes: list[int], seconds: float, rounds: int, seed: int = 1, **kwargs: Any
) -> dict[str, Any]:
    figures: dict[str, dict[str, list[float]]] = {
        str(n): {kind: [] for kind in KINDS} for n in sizes
    }
    for round_number in range(rounds):
        for n in sizes:
            # Rotate the order each round: no kind always runs first (or right after Async).
            order = KINDS[round_number % 3 :] + KINDS[: round_number % 3]
            for kind in order:
                envs = make(kind, game, n, **kwargs)
                try:
                    figures[str(n)][kind].append(steps_per_second(envs, seconds, seed))
                finally:
                    envs.close()
    medians = {
        n: {kind: statistics.median(values) for kind, values in row.items()}
        for n, row in figures.items()
    }
    return {
        "game": game,
        "seconds": seconds,
        "rounds": rounds,
        "clock": "wall-clock",
        "steps_per_second": medians,
        "samples": figures,
    }


def main(argv: list[str] | None = None) -> None:
    from .. import _engine

    parser = argparse.ArgumentParser(prog="python -m robotable.envs.vector_bench")
    parser.add_argument("--game", default="stakbots")
    parser.add_argument("--sizes", default="1,16,64")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    sizes = [int(x) for x in args.sizes.split(",")]
    result = run(args.game, sizes, args.seconds, args.rounds)
    result["engine"] = _engine.describe()
    if args.json:
        print(json.dumps(result))
        return
    print(f"{args.game}, {result['engine']}: sub-env steps/s (median of {args.rounds})")
    print(f"{'N':>4} {'robotable':>11} {'Sync':>11} {'Async':>11} {'vs Sync':>8} {'vs Async':>9}")
    for n, row in result["steps_per_second"].items():
        ours, sync, asyn = row["robotable"], row["sync"], row["async"]
        print(
            f"{n:>4} {ours:11,.0f} {sync:11,.0f} {asyn:11,.0f} {ours / sync:7.2f}x "
            f"{ours / asyn:8.2f}x"
        )


if __name__ == "__main__":
    main()
