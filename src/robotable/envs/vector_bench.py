"""Steps per second of robotable's vector envs against Gymnasium's Sync and Async vector envs.

    python -m robotable.envs.vector_bench --game stakbots --sizes 1,16,64 --seconds 3 --rounds 3
    python -m robotable.envs.vector_bench --game stakbots,rumblebots --sizes 64 --cpp

All kinds step N copies of the same single env (`RobotableEnv`, random opponents or
`--opponents SPEC`) with the same policy: a uniformly random legal action per sub-env, drawn
from the batched `action_mask` in a few numpy calls: `robotable` (RobotableVectorEnv, in
process), `parallel` (ParallelVectorEnv, `--workers` processes sharing memory), `sync` and
`async` (Gymnasium's), and on request `unbatched` (RobotableVectorEnv with each opponent acting
on its own: `--opponents policy:DIR --kinds robotable,unbatched` times batched policy moves).
A figure is sub-env steps per second of wall-clock time (the parallel and Async kinds work in
other processes, so this process's CPU time would not count them), the median over rounds that
alternate the kinds so a busy neighbour hurts each alike; the in-process kinds are also timed in
this process's CPU time (`cpu_steps_per_second`), the clock OpenSpiel's C++ games are timed in. `--cpp` times those
C++ games' random play in every round too (envs/openspiel_bench.py, a tenth of a second each)
and divides each round's in-process CPU rate by that round's C++ median. Environment start-up
(workers starting) is not timed.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from gymnasium.vector import AsyncVectorEnv, SyncVectorEnv

from ..core.errors import OptionError
from .gymnasium import RobotableEnv
from .parallel import ParallelVectorEnv
from .vector import RobotableVectorEnv

# `unbatched` is `robotable` with every opponent acting on its own (batch_opponents=False): with
# a trained policy as the opponent, what stepping opponents in batch gains.
KINDS = ("robotable", "parallel", "sync", "async", "unbatched")
DEFAULT_KINDS = KINDS[:4]
IN_PROCESS = ("robotable", "sync", "unbatched")


def random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal action per row of `masks` (0 where a row has none): one draw a
    row, not one per action, so the policy's share of a timed step stays small beside the env's
    (a worker of the parallel kind idles while this process picks the actions)."""
    flat = np.flatnonzero(masks != 0)  # the legal actions' flat indices, row by row (a bool
    # array: numpy finds them several times faster than in the int8 masks)
    num_rows, width = masks.shape
    if not len(flat):
        return np.zeros(num_rows, dtype=np.int64)
    counts = np.bincount(flat // width, minlength=num_rows)
    firsts = np.cumsum(counts) - counts
    picks = np.minimum(firsts + (rng.random(num_rows) * counts).astype(np.int64), len(flat) - 1)
    return np.where(counts > 0, flat[picks] - np.arange(num_rows) * width, 0)


def make(kind: str, game: str, num_envs: int, workers: int = 2, **kwargs: Any) -> Any:
    if kind in ("robotable", "unbatched"):
        batch = kind == "robotable"
        return RobotableVectorEnv(game, num_envs=num_envs, batch_opponents=batch, **kwargs)
    if kind == "parallel":
        return ParallelVectorEnv(game, num_envs=num_envs, workers=min(workers, num_envs), **kwargs)
    factories: list[Callable[[], RobotableEnv]] = [
        lambda: RobotableEnv(game, **kwargs) for _ in range(num_envs)
    ]
    if kind == "sync":
        return SyncVectorEnv(factories)
    if kind == "async":
        return AsyncVectorEnv(factories)
    raise ValueError(f"unknown kind {kind!r} (known: {', '.join(KINDS)})")


def steps_per_second(envs: Any, seconds: float, seed: int) -> tuple[float, float]:
    """Sub-env steps per second of wall-clock time and of this process's CPU time."""
    rng = np.random.default_rng(seed)
    _, infos = envs.reset(seed=seed)
    for _ in range(3):  # warm up: first decisions, worker pipes
        infos = envs.step(random_actions(infos["action_mask"], rng))[4]
    steps = 0
    start, cpu = time.perf_counter(), time.process_time()
    deadline = start + seconds
    while steps < 2 or time.perf_counter() < deadline:
        infos = envs.step(random_actions(infos["action_mask"], rng))[4]
        steps += 1
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    return envs.num_envs * steps / wall, envs.num_envs * steps / cpu


def cpp_median(seconds: float, seed: int) -> float:
    """The median of OpenSpiel's C++ games' random decisions per CPU second (one pass)."""
    from .openspiel_bench import CPP_GAMES, cpp_random_playouts

    return statistics.median(
        cpp_random_playouts(name, seconds, seed)["random_actions_per_s"] for name in CPP_GAMES
    )


def run(
    game: str,
    sizes: list[int],
    seconds: float,
    rounds: int,
    seed: int = 1,
    kinds: tuple[str, ...] = DEFAULT_KINDS,
    workers: int = 2,
    cpp: bool = False,
    **kwargs: Any,
) -> dict[str, Any]:
    figures: dict[str, dict[str, list[float]]] = {
        str(n): {kind: [] for kind in kinds} for n in sizes
    }
    cpu: dict[str, dict[str, list[float]]] = {
        str(n): {kind: [] for kind in kinds if kind in IN_PROCESS} for n in sizes
    }
    references: list[float] = []
    ratios: dict[str, list[float]] = {str(n): [] for n in sizes}
    for round_number in range(rounds):
        if cpp:
            references.append(cpp_median(0.1, seed + round_number))
        for n in sizes:
            # Rotate the order each round: no kind always runs first (or right after Async).
            shift = round_number % len(kinds)
            for kind in kinds[shift:] + kinds[:shift]:
                envs = make(kind, game, n, workers=workers, **kwargs)
                try:
                    wall_rate, cpu_rate = steps_per_second(envs, seconds, seed)
                finally:
                    envs.close()
                figures[str(n)][kind].append(wall_rate)
                if kind in IN_PROCESS:
                    cpu[str(n)][kind].append(cpu_rate)
            if cpp and "robotable" in kinds:
                ratios[str(n)].append(cpu[str(n)]["robotable"][-1] / references[-1])
    result = {
        "game": game,
        "seconds": seconds,
        "rounds": rounds,
        "workers": workers,
        "clock": "wall-clock",
        "steps_per_second": _medians(figures),
        "cpu_steps_per_second": _medians(cpu),
        "samples": figures,
    }
    if cpp:
        result["cpp_median_by_round"] = references
        result["cpp_median"] = statistics.median(references)
        result["robotable_cpu_vs_cpp_median"] = {n: statistics.median(r) for n, r in ratios.items()}
    return result


def _medians(figures: dict[str, dict[str, list[float]]]) -> dict[str, dict[str, float]]:
    return {
        n: {kind: statistics.median(values) for kind, values in row.items()}
        for n, row in figures.items()
    }


def _listed(known: list[str] | tuple[str, ...], what: str) -> Callable[[str], list[str]]:
    """An argparse type: a comma-separated list of names out of `known`, at least one."""

    def parse(text: str) -> list[str]:
        names = [x.strip() for x in text.split(",") if x.strip()]
        unknown = [x for x in names if x not in known]
        if unknown or not names:
            bad = f"unknown {what} {', '.join(map(repr, unknown))}" if unknown else f"no {what}"
            raise argparse.ArgumentTypeError(f"{bad} in {text!r} (known: {', '.join(known)})")
        return names

    return parse


def _positive(kind: type) -> Callable[[str], Any]:
    """An argparse type: a finite int or float above zero."""

    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            value = None
        if value is None or not 0 < value < math.inf:
            raise argparse.ArgumentTypeError(f"{text!r} is not a positive {kind.__name__}")
        return value

    return parse


def _sizes(text: str) -> list[int]:
    """An argparse type: comma-separated positive ints."""
    return [_positive(int)(x.strip()) for x in text.split(",")]


def main(argv: list[str] | None = None) -> None:
    from .. import _engine
    from ..core.registry import game_names

    parser = argparse.ArgumentParser(prog="python -m robotable.envs.vector_bench")
    parser.add_argument("--game", type=_listed(game_names(), "game"), default="stakbots")
    parser.add_argument("--sizes", type=_sizes, default="1,16,64")
    parser.add_argument("--seconds", type=_positive(float), default=3.0)
    parser.add_argument("--rounds", type=_positive(int), default=3)
    parser.add_argument("--kinds", type=_listed(KINDS, "kind"), default=",".join(DEFAULT_KINDS))
    parser.add_argument("--opponents", default="random", help="the opponents' agent spec")
    parser.add_argument("--players", type=_positive(int), default=None, help="seats")
    parser.add_argument(
        "--workers", type=_positive(int), default=2, help="the parallel kind's processes"
    )
    parser.add_argument("--cpp", action="store_true", help="also time OpenSpiel's C++ games")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    kinds = tuple(args.kinds)
    try:
        results = _runs(args, kinds)
    except OptionError as exc:  # seats the game does not take, an opponent that cannot play
        parser.error(str(exc))
    for result in results:
        result["engine"] = _engine.describe()
    if args.json:
        print(json.dumps(results if len(results) > 1 else results[0]))
        return
    for result in results:
        print(format_result(result, kinds))


def _runs(args: argparse.Namespace, kinds: tuple[str, ...]) -> list[dict[str, Any]]:
    return [
        run(
            game,
            args.sizes,
            args.seconds,
            args.rounds,
            kinds=kinds,
            workers=args.workers,
            cpp=args.cpp,
            opponents=args.opponents,
            num_players=args.players,
        )
        for game in args.game
    ]


def format_result(result: dict[str, Any], kinds: tuple[str, ...]) -> str:
    lines = [
        f"{result['game']}, {result['engine']}: sub-env steps/s of wall-clock time "
        f"(median of {result['rounds']}; parallel: {result['workers']} workers)",
        f"{'N':>4} "
        + " ".join(f"{k:>10}" for k in kinds)
        + f" {'robotable CPU':>14}"
        + (f" {'CPU vs C++':>10}" if "cpp_median" in result else ""),
    ]
    for n, row in result["steps_per_second"].items():
        cpu = result["cpu_steps_per_second"][n].get("robotable", float("nan"))
        line = f"{n:>4} " + " ".join(f"{row[k]:10,.0f}" for k in kinds) + f" {cpu:14,.0f}"
        if "cpp_median" in result:
            line += f" {result['robotable_cpu_vs_cpp_median'][n]:9.3f}x"
        lines.append(line)
    if "cpp_median" in result:
        lines.append(f"OpenSpiel C++ median random decisions/s (CPU): {result['cpp_median']:,.0f}")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
