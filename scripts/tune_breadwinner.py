"""Tune Bread Winner's heuristic weights with Optuna: greedy games that end by the rules, and win.

The objective adds two shares, each over the same seeds in every trial: greedy-against-greedy
games that end by the rulebook's win (all 12 loaves in one hand) rather than at the turn cap, and
the points (a draw is half) that greedy with the trial's weights takes against greedy with a
reference evaluation, seats swapped. The reference is the shipped weights, or `--opponent FILE`,
a Python file with `evaluate(state, seat)` (for example an earlier heuristic.py, from git).

    .venv/bin/python scripts/tune_breadwinner.py --trials 60 --games 100
    .venv/bin/python scripts/tune_breadwinner.py --compare '{"steal_risk": 0.5}' --games 200
    .venv/bin/python scripts/tune_breadwinner.py --compare '{}' --mcts 200 --opponent OLD.py

Prints JSON lines: one per trial, then the best weights, then both weight sets measured again on
fresh seeds (self-play, and head to head against the reference).
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import json
import sys
from collections.abc import Callable

from robotable.agents.greedy import GreedyAgent
from robotable.agents.mcts import MCTSAgent
from robotable.core.registry import load_game
from robotable.games.breadwinner import heuristic
from robotable.games.breadwinner.heuristic import DEFAULT, Weights

Evaluate = Callable[..., float]

# Weights searched, each within a range around the shipped value.
SEARCHED = {
    "pile_die": (0.1, 0.2),
    "idle_bot": (0.03, 0.12),
    "factory_bot": (0.15, 0.3),
    "idle_factory_bot": (0.06, 0.16),
    "factory_fighter_bonus": (0.05, 0.2),
    "harvester": (0.15, 0.3),
    "drone_plant": (0.3, 0.8),
    "drone_restore": (0.2, 0.5),
    "carry_per_step": (0.1, 0.2),
    "steal_risk": (0.2, 0.6),
    "locust_hunting": (0.2, 0.5),
    "locust_poisoning": (0.25, 0.6),
    "soldier_per_target": (0.04, 0.16),
    "poison_home_row": (0.3, 0.8),
}


def weighted(w: Weights) -> Evaluate:
    return lambda state, seat: heuristic.evaluate(state, seat, w)


def make_agent(seed: int, evaluate: Evaluate, mcts: int):
    """Greedy on `evaluate`, or with `mcts` > 0 an MCTS of that many iterations valuing its leaves
    with `evaluate`."""
    if not mcts:
        return GreedyAgent(seed=seed, evaluate=evaluate)
    return MCTSAgent(
        seed=seed, iterations=mcts, evaluate_all=lambda st: [evaluate(st, 0), evaluate(st, 1)]
    )


def play(evaluations: list[Evaluate], games: int, seed0: int, options: dict, mcts: int = 0) -> dict:
    """Self-play games; with two evaluations, the first plays seat 1 in even games, seat 2 in odd."""
    game = load_game("breadwinner", **options)
    ends = points = 0.0
    turns = []
    for g in range(games):
        first = g % 2  # the seat of evaluations[0]
        seats = (
            [evaluations[0], evaluations[-1]] if first == 0 else [evaluations[-1], evaluations[0]]
        )
        agents = [make_agent(2 * (seed0 + g) + s, seats[s], mcts) for s in range(2)]
        state = game.new_initial_state(seed0 + g)
        while not state.is_terminal():
            state.apply_action(agents[state.current_player()].act(state))
        stats = state.stats()
        ends += stats["end_reason"] == "all_loaves"
        turns.append(stats["turns"])
        returns = state.returns()
        points += 1.0 if returns[first] > returns[1 - first] else 0.5 * (returns[0] == returns[1])
    turns.sort()
    return {
        "games": games,
        "end_by_rules": ends / games,
        "median_turns": turns[len(turns) // 2],
        "points_of_first": points / games,
    }


def load_opponent(path: str) -> Evaluate:
    spec = importlib.util.spec_from_file_location("reference_heuristic", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"--opponent {path}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    # Registered first: a dataclass (the heuristic's Weights) looks its module up while defined.
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module.evaluate


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=60)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--compare", help="JSON weights to compare with the shipped ones")
    parser.add_argument("--opponent", help="a heuristic file to play against (default: shipped)")
    parser.add_argument(
        "--mcts", type=int, default=0, help="with --compare: MCTS of N iterations, not greedy"
    )
    parser.add_argument("-o", "--option", action="append", default=[], help="game option K=V")
    args = parser.parse_args(argv)
    options = dict(kv.split("=", 1) for kv in args.option)
    reference = load_opponent(args.opponent) if args.opponent else weighted(DEFAULT)

    if args.compare:
        tuned = dataclasses.replace(DEFAULT, **json.loads(args.compare))
    else:
        import optuna

        optuna.logging.set_verbosity(optuna.logging.WARNING)

        def objective(trial: optuna.Trial) -> float:
            values = {k: trial.suggest_float(k, lo, hi) for k, (lo, hi) in SEARCHED.items()}
            mine = weighted(dataclasses.replace(DEFAULT, **values))
            alone = play([mine], args.games, 10_000, options)
            head = play([mine, reference], args.games, 20_000, options)
            result = {"self_play": alone, "against_reference": head}
            print(json.dumps({"trial": trial.number, **result, "weights": values}), flush=True)
            return alone["end_by_rules"] + head["points_of_first"]

        study = optuna.create_study(
            direction="maximize", sampler=optuna.samplers.TPESampler(seed=args.seed)
        )
        study.enqueue_trial({k: getattr(DEFAULT, k) for k in SEARCHED})
        study.optimize(objective, n_trials=args.trials)
        tuned = dataclasses.replace(DEFAULT, **study.best_params)
        print(json.dumps({"best": study.best_params, "objective": study.best_value}))

    for name, w in (("shipped", DEFAULT), ("tuned", tuned)):
        if name == "tuned" and tuned == DEFAULT:
            continue
        alone = play([weighted(w)], args.games, 30_000, options, args.mcts)
        head = play([weighted(w), reference], args.games, 40_000, options, args.mcts)
        print(json.dumps({name: {"self_play": alone, "against_reference": head}}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
