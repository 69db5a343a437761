"""Re-run the fairness pass of docs/balancing.md: first mover, finished games, cards, decks.

For every bundled game and seat count it plays self-play games with one agent (greedy by default)
and prints a Markdown table: the first mover's wins with their 95% interval against the fair
share, how games end (the rules' own win, a draw or the turn cap), the median length, and the
bundled cards whose stratified impact passes +/-10 points (an odds ratio outside 2/3..3/2, which
is 40-60% at an even baseline) with a Holm-adjusted p below 0.05. Then it plays every pair of
bundled Iotabots decks, both ways round.

    .venv/bin/python scripts/balance_pass.py                       # greedy, 200 games each
    .venv/bin/python scripts/balance_pass.py --agent hard --games 100 --workers 2

The guard in tests/sim/test_balance_guard.py holds the greedy figures inside loose bounds.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import tempfile

from robotable.sim.analysis import summarize
from robotable.sim.runner import RunSpec, Variant, run

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
POINTS_10 = (2 / 3, 3 / 2)  # odds ratios of 40% and 60% against an even 50%


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def self_play(game: str, seats: int, agent: str, games: int, workers: int, errors: str) -> dict:
    spec = RunSpec(game, seats, (agent,), games=games, seed=0, error_dir=errors)
    return summarize(run(spec, workers=workers))


def flagged_cards(summary: dict) -> list[str]:
    out = []
    for row in summary.get("card_impact_stratified", {}).get("rows", []):
        ratio, p = row.get("odds_ratio"), row.get("p_adjusted")
        if ratio is None or p is None or p >= 0.05:
            continue
        if ratio < POINTS_10[0] or ratio > POINTS_10[1]:
            out.append(f"{row['card']} (odds ratio {ratio:.2f})")
    return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", default="greedy")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--only", help="comma-separated games")
    args = parser.parse_args(argv)
    only = set(args.only.split(",")) if args.only else None
    errors = tempfile.mkdtemp(prefix="robotable-balance-")

    print(f"Self-play with `{args.agent}`, {args.games} games per table, master seed 0.\n")
    print(
        "| game | seats | first mover wins | 95% interval | fair share | ends by the rules "
        "| turn cap | median length | cards past +/-10 points |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for game, seats in TABLES:
        if only and game not in only:
            continue
        s = self_play(game, seats, args.agent, args.games, args.workers, errors)
        first, ends = s["first_mover"], s["quality"]["end_reason"]["rates"]
        low, high = first["ci"]
        length = s["quality"]["length"]
        cards = ", ".join(flagged_cards(s)) or "none"
        print(
            f"| {game} | {seats} | {pct(first['win_rate'])} | [{pct(low)}, {pct(high)}] "
            f"| {pct(first['fair_share'])} | {pct(ends['win'])} | {pct(ends['turn_cap'])} "
            f"| {length['median']:g} {length['unit']} | {cards} |",
            flush=True,
        )

    if only and "iotabots" not in only:
        return 0
    print(
        f"\nIotabots decks, `{args.agent}` on both sides, {args.games} matches per pairing "
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
        seed=0,
        variants=tuple(variants),
        error_dir=errors,
        track_cards=False,
    )
    s = summarize(run(spec, workers=args.workers))
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
