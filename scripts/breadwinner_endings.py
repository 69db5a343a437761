"""How Bread Winner games between two searches end, under a variant of the search's leaf value.

Plays `mcts:iterations=N,rollout=0` (the search `hard` runs in Bread Winner) against itself on
consecutive seeds, both seats valuing leaves the same way, and prints how many games ended by the
rulebook's win (all loaves) and the median length. The leaf value is the shipped heuristic's
expected-bread difference passed through a logistic curve of `--scale` loaves, optionally mixed
with a straight line in the loaf difference (`--mix`, the share of the line):

    .venv/bin/python scripts/breadwinner_endings.py --seeds 300:320 --scale 2      # as shipped
    .venv/bin/python scripts/breadwinner_endings.py --seeds 300:320 --scale 4
    .venv/bin/python scripts/breadwinner_endings.py --seeds 300:320 --mix 0.3
    .venv/bin/python scripts/breadwinner_endings.py --seeds 300:320 --press 0.85   # press=0.85

The line never saturates, so a player far ahead still sees each loaf it could add; a flatter curve
does the same in part; `--press` gives both searches the `press` option (docs/ai.md), which
rescales values only in a position the heuristic calls all but decided.
docs/rules/breadwinner.md, "Games between searching players", has the figures.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
from collections.abc import Callable
from multiprocessing import get_context

from robotable.agents.mcts import MCTSAgent
from robotable.core.registry import load_game
from robotable.games.breadwinner import heuristic


def leaf_value(scale: float, mix: float) -> Callable:
    def evaluate_all(state) -> list[float]:
        if state.is_terminal():
            return state.returns()
        first, second = heuristic.scores(state)
        lead = first - second
        value = 1.0 / (1.0 + math.exp(-lead / scale))
        if mix:
            # Twelve loaves is the whole game: a lead of 12 is the line's top.
            line = 0.5 + max(-12.0, min(12.0, lead)) / 24.0
            value = (1.0 - mix) * value + mix * line
        return [value, 1.0 - value]

    return evaluate_all


def play(job: tuple[int, int, float, float, float]) -> tuple[int, str, int]:
    seed, iterations, scale, mix, press = job
    game = load_game("breadwinner", num_players=2)
    evaluate_all = leaf_value(scale, mix)
    agents = [
        MCTSAgent(
            seed=2 * seed + s,
            iterations=iterations,
            rollout=0,
            press=press,
            evaluate_all=evaluate_all,
        )
        for s in range(2)
    ]
    state = game.new_initial_state(seed)
    while not state.is_terminal():
        state.apply_action(agents[state.current_player()].act(state))
    return seed, str(state.stats()["end_reason"]), state.turn_number()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="300:320", help="first:last (last not included)")
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--scale", type=float, default=heuristic.DEFAULT.scale)
    parser.add_argument("--mix", type=float, default=0.0)
    parser.add_argument(
        "--press", type=float, default=0.0, help="the search's press=P (0: off; docs/ai.md)"
    )
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    args = parser.parse_args(argv)
    first, _, last = args.seeds.partition(":")
    if not (first.isdigit() and last.isdigit() and int(first) < int(last)):
        parser.error(f"--seeds: expected first:last with first < last, got {args.seeds!r}")
    if not 0.0 <= args.mix <= 1.0 or not 0.0 <= args.press <= 1.0 or args.scale <= 0:
        parser.error("--mix and --press must lie in [0, 1] and --scale be positive")
    jobs = [
        (s, args.iterations, args.scale, args.mix, args.press) for s in range(int(first), int(last))
    ]
    # Spawned workers: each imports the engine afresh, as `robotable simulate` does.
    with get_context("spawn").Pool(args.workers) as pool:
        results = pool.map(play, jobs, chunksize=1)
    for seed, reason, turns in results:
        print(f"seed {seed}: {reason} after {turns} turns")
    ended = sum(reason == "all_loaves" for _, reason, _ in results)
    median = statistics.median(turns for _, _, turns in results)
    print(
        f"scale {args.scale}, mix {args.mix}, press {args.press}, "
        f"mcts:iterations={args.iterations},rollout=0: "
        f"{ended} of {len(results)} games ended by all loaves, median {median} turns"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
