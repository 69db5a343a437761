"""Fit a game's heuristic weights to the results of games between searching players.

A heuristic's numbers are tuned for a one-move player (scripts/tune_*.py play greedy games), but
the search values every leaf with the same numbers, mostly in positions no greedy game reaches.
Here the weights are fitted the way chess programs fit theirs: so that the evaluation of
positions from real games predicts who went on to win. Each game the script knows (SUBJECTS)
names its heuristic's `Weights`, `hard`'s search and what a position's value predicts: in Bread
Winner the game's winner, in Iotabots the winner of the duel the position is in (a match is
best of three; the duel estimate is what the weights set). Three steps:

    # 1. games between two searches; one JSON line each: seed, move indices, returns, duels
    .venv/bin/python scripts/fit_heuristic.py GAME play --games 200 --out GAMES.jsonl
    # 2. replay them, and fit the weights to the results (log loss), scored on held-out games
    .venv/bin/python scripts/fit_heuristic.py GAME fit GAMES.jsonl --out WEIGHTS.json
    # 3. the search with the fitted weights against the search with the shipped ones, seats
    #    swapped on the same seeds, and each against greedy (the shipped `medium`)
    .venv/bin/python scripts/fit_heuristic.py GAME match WEIGHTS.json --games 100
    .venv/bin/python scripts/fit_heuristic.py GAME match WEIGHTS.json --games 100 --against greedy
    # a second round: games of the search the fitted weights make, fitted again
    .venv/bin/python scripts/fit_heuristic.py GAME play --weights WEIGHTS.json --out GAMES2.jsonl

`fit` prints the log loss of the shipped and the fitted weights on the games it fitted and on
the games it held out (the last fifth): only a held-out gain means the fit found something.
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import json
import math
import os
import statistics
import sys
from collections.abc import Callable
from multiprocessing import get_context

from robotable.agents.greedy import GreedyAgent
from robotable.agents.mcts import MCTSAgent
from robotable.core.registry import load_game
from robotable.sim.stats import wilson


@dataclasses.dataclass(frozen=True)
class Subject:
    """What the fit needs from one game."""

    game: str
    heuristic: object  # the game's heuristic module: Weights, DEFAULT, evaluate_all(state, w)
    rollout: int  # the searches' rollout depth in this game (`hard`'s unless said)
    bounds: dict[str, tuple[float, float]]  # a weight's range where not (0, 3)
    # seat 1's chance of what the label is about, and the labelled positions of one game
    predict: Callable[[object, object], float]
    labelled: Callable[[object, dict, int, bool], list[tuple[object, float]]]
    ended: Callable[[object], str]  # how a finished game ended, for the match summary
    fixed: tuple[str, ...] = ()  # weights never fitted (a unit the others are counted in)
    c: float = 0.7  # the searches' exploration term


def replay(state, record: dict, every: int) -> list:
    """Plays a recorded game out on `state`; returns a copy of every `every`-th position."""
    seen = []
    for i, index in enumerate(record["moves"]):
        if i % every == 0:
            seen.append(state.clone())
        state.apply_action(state.legal_actions()[index])
    return seen


def winner_labels(state, record: dict, every: int, cap_as_draw: bool) -> list:
    """Every `every`-th position of a recorded game, labelled with the game's result for seat 1
    (the label of a game whose evaluation predicts its winner)."""
    return [(position, record["returns"][0]) for position in replay(state, record, every)]


def _breadwinner() -> Subject:
    from robotable.games.breadwinner import heuristic

    def labelled(state, record: dict, every: int, cap_as_draw: bool) -> list:
        seen = replay(state, record, every)
        result = record["returns"][0]
        if cap_as_draw and state.stats()["end_reason"] != "all_loaves":
            result = 0.5
        return [(position, result) for position in seen]

    return Subject(
        game="breadwinner",
        heuristic=heuristic,
        rollout=0,
        # A weight is a worth in loaves (0 to 3, the default bound) or a share of one (0 to 1);
        # the logistic curve's scale stays within reason so that no lead means a certain win.
        bounds={
            name: (0.0, 1.0)
            for name in ("carry_home", "steal_risk", "meltdown_risk", "pulse_risk")
            + ("claim_on", "claim_next", "claim_factory", "claim_home_row", "claim_far")
        }
        | {"scale": (0.5, 8.0)},
        predict=lambda state, w: heuristic.evaluate(state, 0, w),
        labelled=labelled,
        ended=lambda state: str(state.stats()["end_reason"]),
    )


def _iotabots() -> Subject:
    from robotable.games.iotabots import heuristic
    from robotable.games.iotabots.state import DRAW, MULLIGAN, ORDER

    def labelled(state, record: dict, every: int, cap_as_draw: bool) -> list:
        # A position inside a duel, labelled with that duel's result for seat 1: the weights
        # set the duel estimate, and the match value around it is arithmetic, not a weight.
        seen = []
        for i, index in enumerate(record["moves"]):
            if i % every == 0 and state.phase not in (ORDER, MULLIGAN):
                seen.append((state.clone(), len(state.results)))
            state.apply_action(state.legal_actions()[index])
        results = state.results
        return [
            (position, 0.5 if results[duel] == DRAW else float(results[duel] == 0))
            for position, duel in seen
        ]

    return Subject(
        game="iotabots",
        heuristic=heuristic,
        rollout=4,
        bounds={},
        predict=lambda state, w: heuristic.duel_estimate(state, 0, w),
        labelled=labelled,
        ended=lambda state: f"{len(state.results)} duels",
    )


def _stakbots() -> Subject:
    from robotable.games.stakbots import heuristic

    return Subject(
        game="stakbots",
        heuristic=heuristic,
        rollout=4,
        # the share's power within reason, so that no lead is a certain win
        bounds={"sharpness": (0.5, 8.0)},
        predict=lambda state, w: heuristic.evaluate(state, 0, w),
        labelled=winner_labels,
        ended=lambda state: "rules",
        # A strength is counted in stak cards: the share does not change with the scale.
        fixed=("stak_card",),
    )


def _rumblebots() -> Subject:
    from robotable.games.rumblebots import heuristic

    return Subject(
        game="rumblebots",
        heuristic=heuristic,
        # The search that follows its values (leaves valued at once, a narrow exploration
        # term; docs/ai.md): its games to fit to, and it against itself with other numbers.
        rollout=0,
        c=0.2,
        bounds={"temperature": (0.5, 10.0)},
        predict=lambda state, w: heuristic.evaluate(state, 0, w),
        labelled=winner_labels,
        ended=lambda state: f"round {state.round}",
        # A score is counted in points of collection power: the share depends on the
        # temperature and the others only through their ratios.
        fixed=("power_unit",),
    )


SUBJECTS = {
    "breadwinner": _breadwinner,
    "iotabots": _iotabots,
    "rumblebots": _rumblebots,
    "stakbots": _stakbots,
}


def searcher(subject: Subject, seed: int, iterations: int, w) -> MCTSAgent:
    """The game's search (`mcts:iterations=N` with its rollout and exploration term), its
    leaves valued by `w`. No time cap: the games replay move for move from their seeds."""
    return MCTSAgent(
        seed=seed,
        iterations=iterations,
        rollout=subject.rollout,
        c=subject.c,
        evaluate_all=lambda state: subject.heuristic.evaluate_all(state, w),
    )


def play_one(job: tuple[str, int, int, dict]) -> dict:
    """One self-play game of the search, its leaves valued by the shipped weights with `changed`
    put in; the moves as indices into the legal moves, to replay."""
    name, seed, iterations, changed = job
    subject = SUBJECTS[name]()
    game = load_game(name, num_players=2)
    weights = dataclasses.replace(subject.heuristic.DEFAULT, **changed)
    agents = [searcher(subject, 2 * seed + s, iterations, weights) for s in range(2)]
    state = game.new_initial_state(seed)
    moves = []
    while not state.is_terminal():
        action = agents[state.current_player()].act(state)
        moves.append(state.legal_actions().index(action))
        state.apply_action(action)
    return {"seed": seed, "moves": moves, "returns": state.returns()}


def positions(
    subject: Subject, games: list[dict], every: int, cap_as_draw: bool
) -> list[tuple[object, float]]:
    """Every `every`-th position of each game that the game's label covers, with seat 1's
    result (0, 0.5, 1); with `cap_as_draw` (Bread Winner), a game that reached the turn cap
    counts as drawn whoever led."""
    game = load_game(subject.game, num_players=2)
    found = []
    for record in games:
        found.extend(
            subject.labelled(game.new_initial_state(record["seed"]), record, every, cap_as_draw)
        )
    return found


def log_loss(subject: Subject, w, data: list[tuple[object, float]]) -> float:
    total = 0.0
    for state, result in data:
        p = min(max(subject.predict(state, w), 1e-6), 1.0 - 1e-6)
        total -= result * math.log(p) + (1.0 - result) * math.log(1.0 - p)
    return total / len(data)


def weight_names(subject: Subject) -> list[str]:
    # (fields a Weights derives from the others, such as Stak Bots' ability tables, are not init)
    return [f.name for f in dataclasses.fields(subject.heuristic.Weights) if f.init]


def fit(subject: Subject, args: argparse.Namespace) -> int:
    default = subject.heuristic.DEFAULT
    fields = weight_names(subject)
    with open(args.games) as f:
        games = [json.loads(line) for line in f if line.strip()]
    games.sort(key=lambda record: record["seed"])  # `play` writes them as they finish
    if len(games) < 10:
        raise SystemExit(f"{args.games}: {len(games)} games; fitting needs at least 10")
    held = max(2, len(games) // 5)
    train = positions(subject, games[:-held], args.every, args.cap_as_draw)
    test = positions(subject, games[-held:], args.every, args.cap_as_draw)
    names = args.only.split(",") if args.only else fields
    names = [name for name in names if name not in subject.fixed]
    if args.keep:
        names = [name for name in names if name not in args.keep.split(",")]
    unknown = sorted(
        set(names) - set(fields) | set(args.keep.split(",") if args.keep else ()) - set(fields)
    )
    if unknown:
        raise SystemExit(f"--only/--keep: not a weight of the heuristic: {', '.join(unknown)}")
    start = [getattr(default, name) for name in names]

    def weights(x):
        return dataclasses.replace(
            default, **{name: float(v) for name, v in zip(names, x, strict=True)}
        )

    def penalized(x) -> float:
        # A few hundred games are a few hundred results: without a pull towards the shipped
        # weights, a few dozen numbers fit the noise (the held-out loss shows it).
        drift = sum(((v - v0) / max(abs(v0), 0.1)) ** 2 for v, v0 in zip(x, start, strict=True))
        return log_loss(subject, weights(x), train) + args.ridge * drift / len(start)

    from scipy.optimize import minimize  # the lab's extra; checked input first

    result = minimize(
        penalized,
        start,
        method="Powell",
        bounds=[subject.bounds.get(name, (0.0, 3.0)) for name in names],
        options={"maxfev": args.evaluations, "xtol": 1e-3, "ftol": 1e-5},
    )
    fitted = weights(result.x)
    report = {
        "game": subject.game,
        "games": len(games),
        "positions": {"fitted": len(train), "held_out": len(test)},
        "log_loss_shipped": {
            "fitted": log_loss(subject, default, train),
            "held_out": log_loss(subject, default, test),
        },
        "log_loss_fitted": {
            "fitted": log_loss(subject, fitted, train),
            "held_out": log_loss(subject, fitted, test),
        },
        "ridge": args.ridge,
        "cap_as_draw": args.cap_as_draw,
        "evaluations": int(result.nfev),
    }
    print(json.dumps(report))
    changed = {
        name: round(getattr(fitted, name), 4)
        for name in fields
        if abs(getattr(fitted, name) - getattr(default, name)) > 1e-4
    }
    print(json.dumps({"weights": changed}))
    if args.out:
        with open(args.out, "w") as f:
            json.dump(changed, f, indent=1)
    return 0


def match_one(job: tuple[str, int, int, dict, str]) -> tuple[int, float, str, int]:
    """One game of the fitted search against the shipped search (or greedy); the fitted seat
    alternates. Returns the game's seed, the fitted seat's points, how the game ended and its
    length in turns."""
    name, index, iterations, changed, against = job
    subject = SUBJECTS[name]()
    game = load_game(name, num_players=2)
    default = subject.heuristic.DEFAULT
    fitted = dataclasses.replace(default, **changed)
    seat = index % 2
    mine = searcher(subject, 2 * index + seat, iterations, fitted)
    if against == "greedy":
        theirs = GreedyAgent(seed=2 * index + 1 - seat)
    elif against == "self":  # the fitted weights on both seats: do its games end?
        theirs = searcher(subject, 2 * index + 1 - seat, iterations, fitted)
    else:
        theirs = searcher(subject, 2 * index + 1 - seat, iterations, default)
    agents = [mine, theirs] if seat == 0 else [theirs, mine]
    state = game.new_initial_state(index)
    while not state.is_terminal():
        state.apply_action(agents[state.current_player()].act(state))
    returns = state.returns()
    points = 1.0 if returns[seat] > returns[1 - seat] else 0.5 * (returns[0] == returns[1])
    return index, points, subject.ended(state), state.turn_number()


def read_weights(subject: Subject, path: str) -> dict:
    """The weights a `fit --out` file changes; SystemExit naming the file for a name that is not
    one of the heuristic's weights."""
    with open(path) as f:
        changed = json.load(f)
    unknown = sorted(set(changed) - set(weight_names(subject)))
    if unknown:
        raise SystemExit(f"{path}: not a weight of the heuristic: {', '.join(unknown)}")
    return changed


def match(subject: Subject, args: argparse.Namespace) -> int:
    changed = read_weights(subject, args.weights)
    jobs = [
        (subject.game, args.seed + i, args.iterations, changed, args.against)
        for i in range(args.games)
    ]
    # Spawned workers: each imports the engine afresh, as `robotable simulate` does.
    results = []
    with get_context("spawn").Pool(args.workers) as pool:
        # One line a game as it ends, so that a long match can be read before its end.
        # (the seed lets two matches on the same deals be compared game by game)
        for seed, points, reason, turns in pool.imap_unordered(match_one, jobs):
            results.append((points, reason, turns))
            line = {"seed": seed, "points": points, "end": reason, "turns": turns}
            print(json.dumps(line), flush=True)
    points = sum(p for p, _, _ in results)
    low, high = wilson(points, len(results))  # a draw is half a success
    print(
        json.dumps(
            {
                "game": subject.game,
                "against": args.against,
                "games": len(results),
                "wins": sum(p == 1.0 for p, _, _ in results),
                "draws": sum(p == 0.5 for p, _, _ in results),
                "score": points / len(results),
                "ci95": [low, high],
                "ended": dict(collections.Counter(r for _, r, _ in results)),
                "median_turns": statistics.median(t for _, _, t in results),
            }
        )
    )
    return 0


def play(subject: Subject, args: argparse.Namespace) -> int:
    # A second round fits to the games of the search that a first round's weights make.
    changed = read_weights(subject, args.weights) if args.weights else {}
    jobs = [(subject.game, args.seed + i, args.iterations, changed) for i in range(args.games)]
    with get_context("spawn").Pool(args.workers) as pool, open(args.out, "a") as out:
        for record in pool.imap_unordered(play_one, jobs):
            out.write(json.dumps(record) + "\n")
            out.flush()
    return 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(SUBJECTS))
    steps = parser.add_subparsers(dest="step", required=True)
    workers = min(2, os.cpu_count() or 1)

    p = steps.add_parser("play", help="self-play games of the search, to fit to")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--iterations", type=int, default=1000)
    p.add_argument("--seed", type=int, default=50_000)
    p.add_argument("--workers", type=int, default=workers)
    p.add_argument("--out", required=True, help="JSON lines file (appended to)")
    p.add_argument(
        "--weights", help="a file written by `fit`: both searches value their leaves with it"
    )

    p = steps.add_parser("fit", help="fit the weights to the games' results")
    p.add_argument("games", help="a file written by `play`")
    p.add_argument("--every", type=int, default=5, help="keep every K-th position of a game")
    p.add_argument("--evaluations", type=int, default=3000, help="most loss evaluations")
    p.add_argument(
        "--ridge", type=float, default=0.0, help="pull towards the shipped weights (0: none)"
    )
    p.add_argument("--only", help="fit these weights (comma-separated), keep the rest")
    p.add_argument("--keep", help="keep these weights (comma-separated) as shipped")
    p.add_argument(
        "--cap-as-draw",
        action="store_true",
        help="Bread Winner: label games that reached the turn cap as draws (a lead held to the "
        "cap is no win)",
    )
    p.add_argument("--out", help="write the changed weights here, as JSON")

    p = steps.add_parser("match", help="the fitted search against the shipped one, or greedy")
    p.add_argument("weights", help="a file written by `fit`")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--iterations", type=int, default=1000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=int, default=workers)
    p.add_argument("--against", choices=("shipped", "greedy", "self"), default="shipped")

    args = parser.parse_args(argv)
    subject = SUBJECTS[args.game]()
    return {"play": play, "fit": fit, "match": match}[args.step](subject, args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
