"""Tune Iotabots' heuristic weights with Optuna: greedy with the trial's weights against greedy
with the shipped ones, on the same deals with seats swapped (common random numbers).

    .venv/bin/python scripts/tune_iotabots.py --trials 40 --games 200
    .venv/bin/python scripts/tune_iotabots.py --compare '{"hand": 0.3}' --games 400
    .venv/bin/python scripts/tune_iotabots.py --compare '{"hand": 0.3}' --mcts 300 --games 100

A trial's score is the share of points (a drawn match is half) that its weights take. The best of
many noisy trials looks better than it is, so the best weights are measured again on fresh seeds;
`--mcts N` measures with MCTS of N iterations valuing its leaves by each heuristic instead of
greedy, which is how `hard` uses the heuristic. Prints JSON lines.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from concurrent.futures import ProcessPoolExecutor

from robotable.agents.greedy import GreedyAgent
from robotable.agents.mcts import MCTSAgent
from robotable.core.registry import load_game
from robotable.games.iotabots import heuristic
from robotable.games.iotabots.heuristic import DEFAULT, Weights

# Weights searched, each within a range around the shipped value.
SEARCHED = {
    "life": (0.04, 0.3),
    "board": (0.08, 0.5),
    "hand": (0.05, 0.45),
    "mana": (0.0, 0.3),
    "deck_out": (0.3, 2.0),
    "attack": (0.2, 1.0),
    "defence": (0.1, 0.8),
    "presence": (0.0, 1.5),
    "beacon": (0.3, 1.8),
}


def agent(weights: Weights, seed: int, mcts: int):
    def evaluate(state, seat):
        return heuristic.evaluate(state, seat, weights)

    if not mcts:
        return GreedyAgent(seed=seed, evaluate=evaluate)
    return MCTSAgent(
        seed=seed, iterations=mcts, evaluate_all=lambda st: [evaluate(st, 0), evaluate(st, 1)]
    )


def points(job: tuple[dict, int, int]) -> float:
    """The points the trial's weights take in one deal played twice, seats swapped."""
    values, seed, mcts = job
    game = load_game("iotabots")
    tuned = dataclasses.replace(DEFAULT, **values)
    total = 0.0
    for tuned_seat in (0, 1):
        weights = [DEFAULT, DEFAULT]
        weights[tuned_seat] = tuned
        agents = [agent(weights[s], 2 * seed + s, mcts) for s in (0, 1)]
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            state.apply_action(agents[state.current_player()].act(state))
        total += state.returns()[tuned_seat]
    return total / 2


def share(pool, values: dict, deals: int, seed0: int, mcts: int = 0) -> float:
    return sum(pool.map(points, [(values, seed0 + d, mcts) for d in range(deals)])) / deals


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=40)
    parser.add_argument("--games", type=int, default=200, help="games per measure (deals x 2)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--compare", help="JSON weights to measure against the shipped ones")
    parser.add_argument("--mcts", type=int, default=0, help="with --compare: MCTS, not greedy")
    args = parser.parse_args(argv)
    deals = max(1, args.games // 2)
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        if args.compare:
            best = json.loads(args.compare)
        else:
            import optuna

            optuna.logging.set_verbosity(optuna.logging.WARNING)

            def objective(trial: optuna.Trial) -> float:
                values = {k: trial.suggest_float(k, lo, hi) for k, (lo, hi) in SEARCHED.items()}
                result = share(pool, values, deals, 10_000)
                print(json.dumps({"trial": trial.number, "share": result, **values}), flush=True)
                return result

            study = optuna.create_study(
                direction="maximize", sampler=optuna.samplers.TPESampler(seed=args.seed)
            )
            study.enqueue_trial({k: getattr(DEFAULT, k) for k in SEARCHED})
            study.optimize(objective, n_trials=args.trials)
            best = study.best_params
            print(json.dumps({"best": best, "share": study.best_value}), flush=True)
        fresh = share(pool, best, deals, 50_000, args.mcts)
        print(json.dumps({"weights": best, "fresh_seeds_share": fresh, "mcts": args.mcts}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
