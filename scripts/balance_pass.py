"""Re-run the fairness pass of docs/balancing.md: first mover, finished games, cards, decks.

For every bundled game and seat count it plays self-play games with one agent (greedy by default)
and prints a Markdown table: the first mover's wins with their 95% interval against the fair
share, how games end (the rules' own win, a draw or the turn cap), the median length, and the
bundled cards whose stratified impact passes +/-10 points (an odds ratio outside 2/3..3/2, which
is 40-60% at an even baseline) with a Holm-adjusted p below 0.05. Then it plays every pair of
bundled Iotabots decks, both ways round.

    .venv/bin/python scripts/balance_pass.py                       # greedy, 200 games each
    .venv/bin/python scripts/balance_pass.py --agent hard --games 100 --workers 2

A pass at a strong agent's budget takes many core-hours, so it can be made in pieces: with
`--out-dir DIR` every table's games go to a results file there (one per table and seed, resumed
when the same command runs again, so a stopped pass loses nothing), and each row pools every
seed's file of its table in DIR (`robotable pool`). `--seed S` adds another piece on fresh
deals; `--no-play` prints the pooled tables of DIR without playing.

    .venv/bin/python scripts/balance_pass.py --agent mcts:1000 --games 100 --out-dir runs
    .venv/bin/python scripts/balance_pass.py --agent mcts:1000 --games 100 --out-dir runs --seed 1
    .venv/bin/python scripts/balance_pass.py --agent mcts:1000 --out-dir runs --no-play

The guard in tests/sim/test_balance_guard.py holds the greedy figures inside loose bounds.
"""

from __future__ import annotations

import argparse
import itertools
import re
import sys
import tempfile
from pathlib import Path

from robotable.sim.analysis import summarize
from robotable.sim.pool import pool_results
from robotable.sim.results_file import ResultsFileError, ResultsWriter, read_results
from robotable.sim.runner import RunOutcome, RunSpec, Variant, run

TABLES = [
    ("stakbots", 2),
    ("stakbots", 3),
    ("stakbots", 4),
    ("breadwinner", 2),
    ("iotabots", 2),
    ("betabotz", 3),
    ("betabotz", 4),
    ("rumblebots", 2),
    ("rumblebots", 3),
    ("rumblebots", 4),
]
IOTABOTS_DECKS = ("assembly_line", "heavy_metal", "hijack", "beacon")


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


class Stopped(Exception):
    """Ctrl-C or SIGTERM during a table: its finished games are saved, the pass ends."""


def table_stem(spec: RunSpec, table: str) -> str:
    """A table's results file name without its seed: game, seats, table kind and agent."""
    agent = re.sub(r"[^A-Za-z0-9.]+", "-", ";".join(spec.agents)).strip("-")
    return f"{spec.game}-{spec.num_players}p-{table}-{agent}"


def play_table(spec: RunSpec, table: str, args: argparse.Namespace) -> tuple[dict, int]:
    """The summary of a table and its number of games: this run's games, or with --out-dir
    every seed's games of the table in that folder pooled (this seed's played or resumed
    first, unless --no-play)."""
    if args.out_dir is None:
        outcome = run(spec, workers=args.workers)
        if outcome.interrupted:
            raise Stopped
        return summarize(outcome), len(outcome.results)
    stem = table_stem(spec, table)
    if not args.no_play:
        path = args.out_dir / f"{stem}-seed{spec.seed}.jsonl"
        previous = read_results(path, spec, where=str(path))[0] if path.exists() else []
        with ResultsWriter(path, spec, resume=path.exists()) as writer:
            outcome: RunOutcome = run(
                spec, workers=args.workers, on_result=writer.write, previous=previous
            )
        if outcome.interrupted:
            raise Stopped
    files = sorted(args.out_dir.glob(f"{stem}-seed*.jsonl"))
    if not files:
        raise ResultsFileError(f"{args.out_dir}: no results file {stem}-seed*.jsonl to pool")
    pooled = pool_results(files)
    return summarize(pooled.outcome), len(pooled.outcome.results)


def self_play(game: str, seats: int, args: argparse.Namespace, errors: str) -> tuple[dict, int]:
    spec = RunSpec(game, seats, (args.agent,), games=args.games, seed=args.seed, error_dir=errors)
    return play_table(spec, "self", args)


def flagged_cards(summary: dict) -> list[str]:
    impact = summary.get("card_impact_stratified", {})
    ratios = {r["card"]: r["odds_ratio"] for r in impact.get("rows", [])}
    return [f"{card} (odds ratio {ratios[card]:.2f})" for card in impact.get("past_10_points", [])]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", default="greedy")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--only", help="comma-separated games")
    parser.add_argument("--seed", type=int, default=0, help="master seed of this piece")
    parser.add_argument(
        "--out-dir", type=Path, help="keep each table's games here and pool every seed's"
    )
    parser.add_argument(
        "--no-play", action="store_true", help="with --out-dir: only pool what is there"
    )
    args = parser.parse_args(argv)
    if args.no_play and args.out_dir is None:
        parser.error("--no-play reads the results files of --out-dir: give --out-dir")
    try:
        return pass_tables(args)
    except Stopped:
        print(
            "\nstopped: the finished games are saved; the same command goes on from there"
            if args.out_dir
            else "\nstopped",
            file=sys.stderr,
        )
        return 130
    except ResultsFileError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


def pass_tables(args: argparse.Namespace) -> int:
    only = set(args.only.split(",")) if args.only else None
    errors = tempfile.mkdtemp(prefix="robotable-balance-")

    pieces = (
        f"every seed's games in {args.out_dir} pooled"
        if args.out_dir
        else f"{args.games} games per table, master seed {args.seed}"
    )
    print(f"Self-play with `{args.agent}`, {pieces}.\n")
    print(
        "| game | seats | games | first mover wins | 95% interval | fair share "
        "| ends by the rules | turn cap | median length | cards past +/-10 points |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for game, seats in TABLES:
        if only and game not in only:
            continue
        s, played = self_play(game, seats, args, errors)
        first, ends = s["first_mover"], s["quality"]["end_reason"]["rates"]
        low, high = first["ci"]
        length = s["quality"]["length"]
        cards = ", ".join(flagged_cards(s)) or "none"
        print(
            f"| {game} | {seats} | {played} | {pct(first['win_rate'])} | [{pct(low)}, {pct(high)}] "
            f"| {pct(first['fair_share'])} | {pct(ends['win'])} | {pct(ends['turn_cap'])} "
            f"| {length['median']:g} {length['unit']} | {cards} |",
            flush=True,
        )

    if only and "iotabots" not in only:
        return 0
    matches = "every seed's matches pooled" if args.out_dir else f"{args.games} matches"
    print(
        f"\nIotabots decks, `{args.agent}` on both sides, {matches} per pairing "
        "(half with each deck as deck0); the row deck's share of the points:\n"
    )
    variants = []
    for a, b in itertools.permutations(IOTABOTS_DECKS, 2):
        options = (("deck0", a), ("deck1", b))
        variants.append(Variant(len(variants), f"{a} vs {b}", options))
    spec = RunSpec(
        "iotabots",
        2,
        (args.agent,),
        games=args.games // 2,
        seed=args.seed,
        variants=tuple(variants),
        error_dir=errors,
        track_cards=False,
    )
    s, _ = play_table(spec, "decks", args)
    share = {}
    for v in s["variants"]:
        a, b = v["label"].split(" vs ")
        share[(a, b)] = v["score_rate"][0]
    print("| deck | " + " | ".join(IOTABOTS_DECKS) + " |")
    print("|---" * (len(IOTABOTS_DECKS) + 1) + "|")
    for a in IOTABOTS_DECKS:
        cells = []
        for b in IOTABOTS_DECKS:
            if a == b:
                cells.append("-")
            else:
                cells.append(pct((share[(a, b)] + 1 - share[(b, a)]) / 2))
        print(f"| {a} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
