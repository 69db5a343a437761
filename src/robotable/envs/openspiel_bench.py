"""robotable's MCTS against OpenSpiel's IS-MCTS on the same game, at the same time per move.

`robotable bench GAME --vs-openspiel` calls `compare`. Both searchers see the game through the
same interface a user would: robotable's `make_agent("mcts:time=T")` plays the robotable State
inside the OpenSpiel adapter; OpenSpiel's Python IS-MCTS bot (the one shipped in
open_spiel.python.algorithms.ismcts, with its standard one-random-rollout evaluator) plays
through `python_robotable_<game>`. OpenSpiel's bot only has an iteration budget, so it runs here
in a thin subclass that keeps simulating until the same per-move deadline; its search code is
untouched. The robotable seat rotates over every seat from game to game.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

from ..core.rng import derive_seed
from ..frontend.bench import BENCH_TABLES
from . import openspiel as rospiel

# OpenSpiel's IS-MCTS examples use uct_c = 2 for returns in [-1, 1]; robotable's returns are in
# [0, 1], where the same exploration is uct_c = 1.
OPENSPIEL_UCT_C = 1.0


class TimedISMCTSBot(ismcts.ISMCTSBot):
    """OpenSpiel's IS-MCTS with a time budget per move instead of a simulation count."""

    def __init__(
        self,
        game: Any,
        seconds: float,
        random_state: np.random.RandomState,
        evaluator: str = "rollout",
    ) -> None:
        if evaluator == "rollout":
            evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=random_state)
        elif evaluator == "heuristic":
            evaluator = rospiel.HeuristicEvaluator()
        else:
            raise ValueError(f"evaluator must be 'rollout' or 'heuristic', got {evaluator!r}")
        super().__init__(
            game, evaluator, OPENSPIEL_UCT_C, max_simulations=1, random_state=random_state
        )
        self.seconds = seconds
        self.last_simulations = 0
        # Resample with the bot's own generator, so a seeded run is reproducible up to timing.
        self.set_resampler(
            lambda state, player: state.resample_from_infostate(player, random_state.uniform)
        )

    def run_search(self, state: Any) -> list[tuple[int, float]]:
        self.reset()
        legal = state.legal_actions()
        if len(legal) == 1:
            self.last_simulations = 0
            return [(legal[0], 1.0)]
        self._root_node = self.create_new_node(state)
        deadline = time.perf_counter() + self.seconds
        done = 0
        # The first simulation only expands the root; a policy needs at least one more.
        while done < 2 or time.perf_counter() < deadline:
            self.run_simulation(self.sample_root_state(state))
            done += 1
        self.last_simulations = done
        return self.get_final_policy(state, self._root_node)


def compare(
    game_name: str,
    games: int,
    seconds_per_move: float,
    seed: int,
    *,
    num_players: int | None = None,
    openspiel_evaluator: str = "rollout",
    progress: Any = None,
    **options: Any,
) -> dict[str, Any]:
    """Play `games` games, robotable's MCTS in one seat (rotating) and OpenSpiel's IS-MCTS in
    the others, both with `seconds_per_move` of search per decision.

    Returns iterations per second of each searcher (over decisions with more than one legal
    action), robotable's mean return ("win rate": 1 per win, shared on a draw), the fair share
    1/seats it should beat, and per-seat detail. `progress(i, result)` is called after each game.

    `openspiel_evaluator="rollout"` (default) is OpenSpiel's standard leaf evaluation, one random
    rollout to the end; "heuristic" values leaves with the game's own `evaluate` instead, as
    robotable's MCTS does after its short rollout, to separate search overhead from leaf cost.
    """
    from ..agents import make_agent

    if games <= 0 or seconds_per_move <= 0:
        raise ValueError("compare: games and seconds_per_move must be positive")
    spiel_game = rospiel.load(game_name, num_players=num_players, seed=seed, **options)
    n = spiel_game.num_players()
    rob_iterations = rob_time = 0.0
    rob_moves = 0
    os_iterations = os_time = 0.0
    os_moves = 0
    score = 0.0
    by_seat = [[0, 0.0] for _ in range(n)]  # games, robotable return sum, per robotable seat
    lengths = []
    for index in range(games):
        rob_seat = index % n
        game_seed = derive_seed(seed, index)
        agent = make_agent(f"mcts:time={seconds_per_move}", seed=game_seed % 2**31)
        bots = {
            s: TimedISMCTSBot(
                spiel_game,
                seconds_per_move,
                np.random.RandomState((game_seed + s) % 2**32),
                openspiel_evaluator,
            )
            for s in range(n)
            if s != rob_seat
        }
        state = spiel_game.new_initial_state()
        moves = 0
        while not state.is_terminal():
            seat = state.current_player()
            searched = len(state.legal_actions()) > 1
            start = time.perf_counter()
            if seat == rob_seat:
                action = rospiel.action_to_index(state, agent.act(state.robotable_state))
                if searched:
                    rob_time += time.perf_counter() - start
                    rob_iterations += agent.last_iterations
                    rob_moves += 1
            else:
                bot = bots[seat]
                action = bot.step(state)
                if searched:
                    os_time += time.perf_counter() - start
                    os_iterations += bot.last_simulations
                    os_moves += 1
            state.apply_action(int(action))
            moves += 1
        returns = state.returns()
        score += returns[rob_seat]
        by_seat[rob_seat][0] += 1
        by_seat[rob_seat][1] += returns[rob_seat]
        lengths.append(moves)
        if progress is not None:
            progress(index, returns)
    rob_rate = rob_iterations / rob_time if rob_time else 0.0
    os_rate = os_iterations / os_time if os_time else 0.0
    return {
        "game": game_name,
        "num_players": n,
        "games": games,
        "seconds_per_move": seconds_per_move,
        "seed": seed,
        "robotable": {
            "agent": f"mcts:time={seconds_per_move}",
            "iterations_per_second": rob_rate,
            "searched_moves": rob_moves,
        },
        "openspiel": {
            "agent": f"open_spiel ISMCTSBot (uct_c={OPENSPIEL_UCT_C}, {openspiel_evaluator} "
            "evaluator), time budget",
            "iterations_per_second": os_rate,
            "searched_moves": os_moves,
        },
        "speedup": rob_rate / os_rate if os_rate else float("inf"),
        "robotable_win_rate": score / games,
        "fair_share": 1.0 / n,
        "robotable_win_rate_by_seat": [
            (total / played if played else None) for played, total in by_seat
        ],
        "mean_game_length": sum(lengths) / len(lengths),
    }


def format_report(result: dict[str, Any]) -> str:
    """A few human-readable lines of a `compare` result."""
    r, o = result["robotable"], result["openspiel"]
    seats = ", ".join(
        "-" if v is None else f"{v:.2f}" for v in result["robotable_win_rate_by_seat"]
    )
    return "\n".join(
        [
            f"{result['game']} ({result['num_players']} seats), {result['games']} games, "
            f"{result['seconds_per_move']} s per move, seed {result['seed']}",
            f"  robotable mcts   {r['iterations_per_second']:10.0f} iterations/s",
            f"  OpenSpiel ISMCTS {o['iterations_per_second']:10.0f} iterations/s "
            f"(robotable x{result['speedup']:.1f})",
            f"  robotable win rate {result['robotable_win_rate']:.3f} "
            f"(fair share {result['fair_share']:.3f}; by robotable seat: {seats})",
        ]
    )


# -- the engines against OpenSpiel's C++ games, driven by the same Python loop -----------------
# Card and board games with several decisions a turn, hidden cards or dice: robotable's kind.
CPP_GAMES = (
    "backgammon",
    "bridge(use_double_dummy_result=false)",  # the double-dummy solver is not the game
    "crazy_eights",
    "dou_dizhu",
    "euchre",
    "gin_rummy",
    "hearts",
    "leduc_poker",
    "liars_dice",
    "oh_hell",
    "skat",
    "spades",
)


def cpp_random_playouts(name: str, seconds: float, seed: int) -> dict[str, float]:
    """Random playouts of an OpenSpiel C++ game with robotable's bench loop (`legal_actions()`,
    then `apply_action` of a uniform pick), in CPU time. Chance nodes are steps of their own in
    OpenSpiel (robotable's games roll inside `apply_action`): they are timed, picked uniformly
    like a decision, and not counted as actions."""
    import random

    import pyspiel

    game = pyspiel.load_game(name)
    rng = random.Random(seed)
    clock = time.process_time
    games = decisions = steps = 0
    start = clock()
    deadline = start + seconds
    while clock() < deadline or games == 0:
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            if not state.is_chance_node():
                decisions += 1
            state.apply_action(legal[rng.randrange(len(legal))])
            steps += 1
        games += 1
    elapsed = clock() - start
    return {
        "random_actions_per_s": decisions / elapsed,
        "steps_per_s": steps / elapsed,
        "random_games_per_s": games / elapsed,
    }


def engines_vs_cpp(seconds: float, rounds: int, seed: int = 1) -> dict[str, Any]:
    """Every robotable game on both engines (`robotable bench --json` in its own process per
    engine) and OpenSpiel's C++ games with the same loop, in one run: rounds alternate the
    engines' order, and the C++ games run between them. A game's ratio to the C++ median is
    taken within each round (its rate over that round's C++ median) and the median of those
    ratios reported: the machine's speed drifts over a run of several minutes, and a round's
    two halves drift together."""
    import statistics

    from ..frontend.bench import ENGINES, _speedup, bench_in_subprocess

    robo: dict[str, dict[str, list[dict[str, Any]]]] = {
        f"{g}/{n}": {e: [] for e in ENGINES} for g, n in BENCH_TABLES
    }
    cpp: dict[str, list[dict[str, float]]] = {name: [] for name in CPP_GAMES}
    for number in range(rounds):
        order = ENGINES if number % 2 == 0 else ENGINES[::-1]
        for game, players in BENCH_TABLES:
            for engine in order:
                robo[f"{game}/{players}"][engine].append(
                    bench_in_subprocess(engine, game, players, [], seconds, seed)
                )
        for name in CPP_GAMES:
            cpp[name].append(cpp_random_playouts(name, seconds, seed + number))
    cpp_rates = {
        name: statistics.median(run["random_actions_per_s"] for run in runs)
        for name, runs in cpp.items()
    }
    reference = statistics.median(cpp_rates.values())
    round_reference = [
        statistics.median(runs[number]["random_actions_per_s"] for runs in cpp.values())
        for number in range(rounds)
    ]
    games: dict[str, Any] = {}
    for key, by_engine in robo.items():
        numeric = [k for k, v in by_engine["pure"][0].items() if isinstance(v, int | float)]
        medians = {
            e: {k: statistics.median(run[k] for run in runs) for k in numeric}
            for e, runs in by_engine.items()
        }
        games[key] = {
            **medians,
            "speedup": {
                k: _speedup(k, medians["compiled"][k], medians["pure"][k]) for k in numeric
            },
            "vs_cpp_median": {
                e: statistics.median(
                    run["random_actions_per_s"] / round_reference[number]
                    for number, run in enumerate(by_engine[e])
                )
                for e in ENGINES
            },
        }
    from .. import _engine

    return {
        "seconds": seconds,
        "rounds": rounds,
        "compiled_engine": _engine.describe(),
        "clock": "process CPU time, one core",
        "openspiel": {
            "random_actions_per_s": cpp_rates,
            "median": reference,
            "median_by_round": round_reference,
        },
        "games": games,
    }


def random_vs_cpp(seconds: float, rounds: int, seed: int = 1) -> dict[str, Any]:
    """The random-move rate of every robotable game on this process's engine beside OpenSpiel's
    C++ games, interleaved: each round runs every robotable table and every C++ game for
    `seconds` each, in this one process, so that a table's rate and the C++ median it is divided
    by are taken seconds apart. `engines_vs_cpp` runs the whole bench of each table (both engines,
    MCTS, clones) between them, a round of minutes, and this machine's speed drifts by a third
    within that; here a round is 20 x `seconds` (two seconds at the command's default). Reports
    each table's ratio per round and their median."""
    import statistics

    from .. import _engine
    from ..core.registry import load_game
    from ..frontend.bench import random_playouts

    tables = {f"{g}/{n}": load_game(g, num_players=n) for g, n in BENCH_TABLES}
    rates: dict[str, list[float]] = {key: [] for key in tables}
    references: list[float] = []

    def cpp_round(number: int) -> None:
        references.append(
            statistics.median(
                cpp_random_playouts(name, seconds, seed + number)["random_actions_per_s"]
                for name in CPP_GAMES
            )
        )

    def robotable_round(number: int) -> None:
        for key, game in tables.items():
            rates[key].append(random_playouts(game, seconds, seed + number)["random_actions_per_s"])

    # A short unrecorded run of each first: the first games of a process pay for imports and
    # the first calls' caches.
    for game in tables.values():
        random_playouts(game, min(seconds, 0.1), seed)
    for name in CPP_GAMES:
        cpp_random_playouts(name, min(seconds, 0.1), seed)
    for number in range(rounds):
        # The C++ games run first in even rounds and last in odd ones, as the engines alternate
        # in `engines_vs_cpp`: a drift within a round leans neither way over the run.
        first, second = (
            (cpp_round, robotable_round) if number % 2 == 0 else (robotable_round, cpp_round)
        )
        first(number)
        second(number)
    ratios = {key: [r / ref for r, ref in zip(rs, references)] for key, rs in rates.items()}
    return {
        "seconds": seconds,
        "rounds": rounds,
        "engine": _engine.describe(),
        "clock": "process CPU time, one core",
        "openspiel_median_by_round": references,
        "games": {
            key: {
                "random_actions_per_s": statistics.median(rates[key]),
                "vs_cpp_median": statistics.median(ratios[key]),
                "vs_cpp_median_by_round": ratios[key],
            }
            for key in tables
        },
    }


def format_random(result: dict[str, Any]) -> str:
    lines = [
        f"{result['rounds']} interleaved rounds of {result['seconds']} s a table or game; "
        f"engine: {result['engine']}",
        "OpenSpiel C++ median by round: "
        + ", ".join(f"{v:,.0f}" for v in result["openspiel_median_by_round"]),
        f"{'game/seats':<14} {'actions/s':>10} {'vs C++':>7}  by round",
    ]
    for key, g in result["games"].items():
        lines.append(
            f"{key:<14} {g['random_actions_per_s']:>10,.0f} {g['vs_cpp_median']:>6.2f}x  "
            + " ".join(f"{r:.2f}" for r in g["vs_cpp_median_by_round"])
        )
    return "\n".join(lines)


def format_engines(result: dict[str, Any]) -> str:
    lines = [
        f"median of {result['rounds']} alternating runs of {result['seconds']} s; "
        f"compiled: {result['compiled_engine']}",
        "OpenSpiel C++ games, same loop, random actions/s: "
        + ", ".join(
            f"{k} {v:,.0f}" for k, v in result["openspiel"]["random_actions_per_s"].items()
        ),
        f"OpenSpiel median: {result['openspiel']['median']:,.0f} (by round: "
        + ", ".join(f"{v:,.0f}" for v in result["openspiel"]["median_by_round"])
        + "); vs C++: the median over rounds of a game's rate over that round's C++ median",
        f"{'game/seats':<14} {'actions/s c':>12} {'p':>10} {'vs C++ c':>8} {'p':>6} "
        f"{'MCTS it/s c':>11} {'p':>7} {'x':>5} {'clone us c/p':>13} {'apply us c/p':>13} "
        f"{'bytes':>7}",
    ]
    for key, g in result["games"].items():
        c, p, s, v = g["compiled"], g["pure"], g["speedup"], g["vs_cpp_median"]
        lines.append(
            f"{key:<14} {c['random_actions_per_s']:>12,.0f} {p['random_actions_per_s']:>10,.0f} "
            f"{v['compiled']:>7.2f}x {v['pure']:>5.2f}x {c['mcts_iterations_per_s']:>11,.0f} "
            f"{p['mcts_iterations_per_s']:>7,.0f} {s['mcts_iterations_per_s']:>4.2f}x "
            f"{c['clone_us']:>6.1f}/{p['clone_us']:<6.1f} {c['apply_us']:>6.1f}/{p['apply_us']:<6.1f} "
            f"{c['state_bytes']:>7,.0f}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    import argparse
    import json

    parser = argparse.ArgumentParser(
        prog="python -m robotable.envs.openspiel_bench",
        description="Both engines of every game beside OpenSpiel's C++ games, in one run.",
    )
    # Defaults by mode: the whole bench's rounds are long (every part of both engines), the
    # random-only rounds short and many (a tenth of a second a table or game, so that a round
    # takes two seconds and the machine's drift within it is small).
    parser.add_argument("--seconds", type=float, help="per part and round (2; random-only 0.1)")
    parser.add_argument("--rounds", type=int, help="rounds (3; random-only 40)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--random-only",
        action="store_true",
        help="only random moves, this process's engine and the C++ games interleaved round by "
        "round (the ratio to C++ with the least drift; no MCTS, clones or pure engine)",
    )
    args = parser.parse_args(argv)
    if args.seconds is not None and not args.seconds > 0:
        parser.error(f"--seconds must be above 0, got {args.seconds}")
    if args.rounds is not None and args.rounds < 1:
        parser.error(f"--rounds must be at least 1, got {args.rounds}")
    if args.random_only:
        result = random_vs_cpp(args.seconds or 0.1, args.rounds or 40)
        print(json.dumps(result) if args.json else format_random(result))
        return
    result = engines_vs_cpp(args.seconds or 2.0, args.rounds or 3)
    print(json.dumps(result) if args.json else format_engines(result))


if __name__ == "__main__":
    main()
