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

A flag of the stratified test is an association: a card a seat already ahead can afford goes with
winning whatever it does. `--bar` asks the causal question of each flagged card (Bread Winner's
rows are bot types, not cards, and are left out): the agent barred from that card in one seat
against the agent itself in the others, every seat order, `--bar-games` games (the same games as
`robotable simulate GAME --restrict CARD --agents AGENT --players N --seed S`, whose results file
can be dropped into --out-dir under the script's name), and a second table with each card's
importance, the points its player loses without it, and what that reading says.

    .venv/bin/python scripts/balance_pass.py --agent mcts:1000 --out-dir runs --only rumblebots --bar

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
from robotable.sim.challenge import restrict_agents, restriction_summary
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
# The events that put a card into a seat's play, by game: a barred run counts the seat-games in
# which each side fielded the card by them (a card dealt or drawn is not fielded).
FIELDED = {
    "stakbots": ("played",),
    "iotabots": ("summon", "play_buzz"),
    "betabotz": ("auction_won", "code_played"),
    "rumblebots": ("built", "transformed"),
}


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


class Stopped(Exception):
    """Ctrl-C or SIGTERM during a table: its finished games are saved, the pass ends."""


def file_word(text: str) -> str:
    """`text` as part of a file name: each run of characters other than letters, digits and dots
    a hyphen."""
    return re.sub(r"[^A-Za-z0-9.]+", "-", text).strip("-")


def table_stem(spec: RunSpec, table: str) -> str:
    """A table's results file name without its seed: game, seats, table kind and agent."""
    return f"{spec.game}-{spec.num_players}p-{table}-{file_word(';'.join(spec.agents))}"


def play_table(spec: RunSpec, stem: str, args: argparse.Namespace) -> RunOutcome:
    """A table's games: this run's, or with --out-dir every seed's games of the table in that
    folder pooled (this seed's played or resumed first, unless --no-play), in files named
    `STEM-seedS.jsonl`."""
    if args.out_dir is None:
        outcome = run(spec, workers=args.workers)
        if outcome.interrupted:
            raise Stopped
        return outcome
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
    return pool_results(files).outcome


def self_play(game: str, seats: int, args: argparse.Namespace, errors: str) -> tuple[dict, int]:
    spec = RunSpec(game, seats, (args.agent,), games=args.games, seed=args.seed, error_dir=errors)
    outcome = play_table(spec, table_stem(spec, "self"), args)
    return summarize(outcome), len(outcome.results)


def flagged_cards(summary: dict) -> list[tuple[str, float]]:
    """The cards past the fairness pass's bar in the stratified test, with their odds ratios."""
    impact = summary.get("card_impact_stratified", {})
    ratios = {r["card"]: r["odds_ratio"] for r in impact.get("rows", [])}
    return [(card, ratios[card]) for card in impact.get("past_10_points", [])]


def bar_stem(game: str, seats: int, card: str, agent: str) -> str:
    """A barred run's results file name without its seed."""
    return f"{game}-{seats}p-bar-{file_word(f'{card};{agent}')}"


def bar_card(game: str, seats: int, card: str, args: argparse.Namespace, errors: str) -> dict:
    """The `restriction` object of `simulate --restrict CARD` for one flagged card: the agent
    barred from it in one seat, the agent itself in the others (the same games as that command
    with this seed)."""
    agents = tuple(restrict_agents(args.agent, [card], (), seats))
    spec = RunSpec(
        game, seats, agents, games=args.bar_games, seed=args.seed, error_dir=errors, paired=True
    )
    results = play_table(spec, bar_stem(game, seats, card, args.agent), args).results
    return restriction_summary(spec, results, args.agent, [card], events=FIELDED.get(game, ()))


# Each way a barred run reads: the fairness pass's bar (a point past 10 points with p below 0.05)
# read on the importance, its 95% interval against zero, and whether the bar kept the card out.
def bar_reading(r: dict) -> str:
    low, high = r["importance_ci"]
    used = r["card_use"]
    barred, free = used["restricted"], used["unrestricted"]
    if barred["used"] and free["rate"] and barred["rate"] >= free["rate"] / 2:
        # A card the rules bring into play (a Transformation, say) reaches the barred seat too.
        return "the bar did not keep the card out: read the card that brings it into play"
    if not free["used"]:
        return "never played by the free seats: nothing to read"
    if (low > 0 or high < 0) and abs(r["importance"]) > 0.10:
        worth = "is worth" if r["importance"] > 0 else "costs"
        return f"past the bar: the card itself {worth} its player more than 10 points"
    if low > 0 or high < 0:
        return "a real edge under the bar at its point" + (
            ", its interval across it" if max(abs(low), abs(high)) > 0.10 else ""
        )
    return "nothing measurable: the flag goes with the seats that field it, not with the card"


# The five figures of a barred run's row, when it has none.
NO_FIGURES = " | ".join("-" * 5)


def print_bars(
    flags: list[tuple[str, int, str, float]], args: argparse.Namespace, errors: str
) -> None:
    print(
        f"\nEach flagged card barred from one seat (`restricted:{args.agent},card=CARD` there, "
        f"`{args.agent}` in the others, every seat order, {args.bar_games} games a seed); the "
        "importance is the fair share minus the barred seat's share of the decided games; a "
        "seat fields a card when it plays it ("
        + "; ".join(f"{game}: {', '.join(events)}" for game, events in FIELDED.items())
        + " events naming the seat and the card):\n"
    )
    print(
        "| game | seats | card | odds ratio | games | barred seat won | importance | 95% interval "
        "| fielded: barred seat | free seats | reading |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for game, seats, card, ratio in flags:
        stem = bar_stem(game, seats, card, args.agent)
        if args.no_play and not any(args.out_dir.glob(f"{stem}-seed*.jsonl")):
            print(
                f"| {game} | {seats} | {card} | {ratio:.2f} | 0 | {NO_FIGURES} | not barred yet |"
            )
            continue
        r = bar_card(game, seats, card, args, errors)
        if not r["decided"]:
            print(
                f"| {game} | {seats} | {card} | {ratio:.2f} | {r['games']} | {NO_FIGURES} | no decided game |"
            )
            continue
        low, high = r["importance_ci"]
        used = r["card_use"]
        print(
            f"| {game} | {seats} | {card} | {ratio:.2f} | {r['games']} "
            f"| {r['restricted_wins']} of {r['decided']} | {100 * r['importance']:+.1f} points "
            f"| [{100 * low:+.1f}, {100 * high:+.1f}] "
            f"| {used['restricted']['used']} of {used['restricted']['seat_games']} "
            f"| {used['unrestricted']['used']} of {used['unrestricted']['seat_games']} "
            f"| {bar_reading(r)} |",
            flush=True,
        )


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
    parser.add_argument(
        "--bar", action="store_true", help="bar each flagged card from one seat (causal runs)"
    )
    parser.add_argument("--bar-games", type=int, default=200, help="games of each barred run")
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
    flags = []
    for game, seats in TABLES:
        if only and game not in only:
            continue
        s, played = self_play(game, seats, args, errors)
        first, ends = s["first_mover"], s["quality"]["end_reason"]["rates"]
        low, high = first["ci"]
        length = s["quality"]["length"]
        flagged = flagged_cards(s)
        if game != "breadwinner":  # its rows are bot types, not cards
            flags += [(game, seats, card, ratio) for card, ratio in flagged]
        cards = ", ".join(f"{card} (odds ratio {ratio:.2f})" for card, ratio in flagged) or "none"
        print(
            f"| {game} | {seats} | {played} | {pct(first['win_rate'])} | [{pct(low)}, {pct(high)}] "
            f"| {pct(first['fair_share'])} | {pct(ends['win'])} | {pct(ends['turn_cap'])} "
            f"| {length['median']:g} {length['unit']} | {cards} |",
            flush=True,
        )
    if args.bar:
        print_bars(flags, args, errors)

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
    s = summarize(play_table(spec, table_stem(spec, "decks"), args))
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
