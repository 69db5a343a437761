"""Compare Stak Bots' toggles, variations and modes (docs/rules/stakbots.md, SB-11) in the lab.

For each mode it plays self-play games with one agent (greedy by default) and prints a Markdown
row: the first mover's wins with their 95% interval against the fair share, how games end (by
the rules' own win, a draw or the turn cap: decisiveness) and the median length in turns. Drone
Mode (one seat) reports the player's wins against the Drone instead.

    .venv/bin/python scripts/stakbots_modes.py                    # greedy, 200 games each
    .venv/bin/python scripts/stakbots_modes.py --agent mcts:100 --games 100 --workers 2

docs/balancing.md ("Stak Bots modes") holds a run of it.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from typing import Any

from robotable.sim.analysis import summarize
from robotable.sim.runner import RunSpec, Variant, run

# (label, seats, options): the base game, each toggle alone, the variations and the modes.
MODES: list[tuple[str, int, dict[str, Any]]] = [
    ("base game", 2, {}),
    ("base game", 3, {}),
    ("base game", 4, {}),
    ("short staks (stak_size=5)", 2, {"stak_size": 5}),
    ("setup entry effects", 2, {"setup_effects": True}),
    ("first player skips the first draw", 2, {"skip_first_draw": True}),
    ("recycling", 2, {"recycling": True}),
    ("reactive play", 2, {"reactive": True}),
    ("borderless play", 3, {"borderless": "on"}),
    ("attack tally 2", 2, {"attack_tally": 2}),
    ("traitor", 2, {"traitor": True}),
    ("traitor", 3, {"traitor": True}),
    ("Quickfire", 2, {"quickfire": True}),
    ("two staks each", 2, {"staks": 2}),
    ("two staks each", 3, {"staks": 2}),
    ("teams of two", 4, {"teams": True}),
    ("club preset", 2, {"preset": "club"}),
    ("Drone Mode, 1 drone", 1, {"drones": 1}),
    ("Drone Mode, 2 drones", 1, {"drones": 2}),
]


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def measure(seats: int, options: dict, agent: str, games: int, workers: int, errors: str) -> dict:
    variant = Variant(0, "mode", tuple(sorted(options.items())))
    spec = RunSpec(
        "stakbots",
        seats,
        (agent,),
        games=games,
        seed=0,
        variants=(variant,),
        error_dir=errors,
        track_cards=False,
    )
    return summarize(run(spec, workers=workers))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", default="greedy")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--only", help="comma-separated words: only the modes whose label has one")
    args = parser.parse_args(argv)
    only = args.only.split(",") if args.only else None
    errors = tempfile.mkdtemp(prefix="robotable-modes-")

    print(f"Stak Bots modes, self-play with `{args.agent}`, {args.games} games each, seed 0.\n")
    print(
        "| mode | seats | first mover wins (Drone: player wins) | 95% interval | fair share "
        "| ends by a win | draws | turn cap | median length |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for label, seats, options in MODES:
        if only and not any(word in label for word in only):
            continue
        s = measure(seats, options, args.agent, args.games, args.workers, errors)
        ends = s["quality"]["end_reason"]["rates"]
        length = s["quality"]["length"]
        if seats == 1:
            seat = s["seat_tests"][0]
            rate, (low, high), fair = seat["win_rate"], seat["ci"], "-"
        else:
            first = s["first_mover"]
            rate, (low, high), fair = first["win_rate"], first["ci"], pct(first["fair_share"])
        print(
            f"| {label} | {seats} | {pct(rate)} | [{pct(low)}, {pct(high)}] | {fair} "
            f"| {pct(ends.get('win', 0.0))} | {pct(ends.get('draw', 0.0))} "
            f"| {pct(ends.get('turn_cap', 0.0))} | {length['median']:g} {length['unit']} |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
