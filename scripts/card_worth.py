"""What a card is worth to the seats that took it: the same deals played twice, once with the
card set as it is and once with a copy of it in which the card does nothing.

A card that goes to a seat already ahead (a Betabotz breach to the first seat whose attribute
reaches 13, a costly component to the seat that can outbid the others) goes with winning in
every association, even read by standing, when the lead is what wins. Here each seat-game that
took CARD in the first file is set beside the same seat of the same deal in the second: the
card's worth to its takers is their win rate with the card minus the same seats' win rate on
the same deals without it, with Newcombe's interval for paired proportions and McNemar's exact
test on the seat-games whose result changed. A seat that wins as often without the card won by
what brought it the card, not by the card.

The second game is the first only until the card, or a search's thought of it, changes a move;
after that the two part, and a seat that took the card because it was doing well is set beside
a seat whose later fortune is its own. Over all takers the reading then holds what brought them
the card as well as the card. So the script says how many deals had the same winner in both
runs, and when both runs recorded their moments (`simulate --standing`) it reads apart the
takers whose second game was still the first when the card was taken (the same cards first
taken by the same seats in the same order until then): for them the comparison is a bar's.

Both files are `robotable simulate --out-jsonl` runs of one game, seats and seed (so their
deals, seatings and turn orders are the same game for game), the second with `-o
content=FILE` or `--cards FILE` for the changed card set:

    robotable simulate betabotz -a mcts:1000 --players 4 --games 100 --seed 0 --standing \\
        --out-jsonl A
    robotable simulate betabotz -a mcts:1000 --players 4 --games 100 --seed 0 --standing \\
        -o content=NULLED.toml --out-jsonl B
    .venv/bin/python scripts/card_worth.py A B --card Compiler --events breach_taken

`--events` names the event types that count as taking the card (default: every event that names
a seat and the card; a Betabotz component is named by bids and chosen lots too, so give
`auction_won` there). Runs stopped early are read as far as they went: only deals finished in
both files count.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from robotable.sim.pool import pool_results
from robotable.sim.results_file import ResultsFileError
from robotable.sim.runner import GameResult
from robotable.sim.stats import binomial_test, paired_cells, paired_difference, wilson


def takers(result: GameResult, card: str, events: Sequence[str]) -> list[int]:
    """The seats with an event of `events` (any, when empty) naming `card` (any case)."""
    name = card.lower()
    return [
        seat
        for seat, pairs in enumerate(result.cards)
        if any(c.lower() == name and (not events or e in events) for e, c in pairs)
    ]


def same_deals(
    first: Sequence[GameResult], second: Sequence[GameResult], names: tuple[str, str]
) -> list[tuple[GameResult, GameResult]]:
    """The games finished in both files, paired by index; ResultsFileError when a pair is not
    the same deal (another seed, seating or turn order)."""
    by_index = {r.index: r for r in second if r.returns is not None}
    pairs = []
    for a in first:
        b = by_index.get(a.index)
        if a.returns is None or b is None:
            continue
        if a.seed != b.seed or a.arrangement != b.arrangement or a.turn_order != b.turn_order:
            raise ResultsFileError(
                f"game {a.index} is not the same deal in {names[0]} and {names[1]} (seed, "
                "seating or turn order differ): compare runs of one game, seats and --seed"
            )
        pairs.append((a, b))
    return pairs


def alike_until(first: GameResult, second: GameResult) -> int:
    """How many of the two games' first moments agree (each card's first event of each type,
    by the same seat, in the same order): how long the second game followed the first. Both
    games need their moments (`simulate --standing`)."""
    count = 0
    for a, b in zip(first.moments, second.moments):
        if a[:3] != b[:3]:
            break
        count += 1
    return count


def taken_at(result: GameResult, card: str, seat: int, events: Sequence[str]) -> int | None:
    """The index among `result.moments` of `seat` taking `card` (None: not recorded)."""
    name = card.lower()
    for index, (kind, named, taker, _) in enumerate(result.moments):
        if taker == seat and named.lower() == name and (not events or kind in events):
            return index
    return None


def _reading(outcomes: list[tuple[bool, bool]]) -> dict[str, Any]:
    """Seat-games, their wins with and without the card, and the paired worth of the card."""
    seat_games = len(outcomes)
    both, lost, gained, neither = paired_cells(outcomes)
    worth, low, high = paired_difference(both, lost, gained, neither)
    return {
        "seat_games": seat_games,
        "wins_with": both + lost,
        "wins_without": both + gained,
        "changed": {"lost": lost, "gained": gained},
        "worth": None if not seat_games else worth,
        "worth_ci": None if not seat_games else [low, high],
        "p_value": binomial_test(lost, lost + gained, 0.5),
    }


def card_worth(
    pairs: Sequence[tuple[GameResult, GameResult]], card: str, events: Sequence[str]
) -> dict[str, Any]:
    """The card's takers in the first game of each pair, their wins there and in the second:
    over all of them, and over those whose second game was still the first one when the card
    was taken (`alike`: None when the files hold no moments)."""
    # (won with the card, won without it) per taker; the takers still alike when they took it
    outcomes: list[tuple[bool, bool]] = []
    alike: list[tuple[bool, bool]] = []
    moments = all(a.moments and b.moments for a, b in pairs)
    taken_second = won_second = same_winner = 0
    first_mover_wins = [0, 0]
    for a, b in pairs:
        followed = alike_until(a, b) if moments else 0
        for seat in takers(a, card, events):
            outcome = (a.won(seat), b.won(seat))
            outcomes.append(outcome)
            at = taken_at(a, card, seat, events) if moments else None
            if at is not None and followed >= at:
                alike.append(outcome)
        second_takers = takers(b, card, events)
        taken_second += len(second_takers)
        won_second += sum(b.won(seat) for seat in second_takers)
        same_winner += a.decisive() and b.decisive() and a.winners() == b.winners()
        for side, r in enumerate((a, b)):
            first_mover_wins[side] += r.first_mover is not None and r.won(r.first_mover)
    # The name as the games spell it, when any event names the card.
    spelt = {c for a, b in pairs for r in (a, b) for seat in r.cards for _, c in seat}
    card = next((c for c in sorted(spelt) if c.lower() == card.lower()), card)
    return {
        "card": card,
        "events": list(events) or "any",
        "deals": len(pairs),
        "seats": len(pairs[0][0].returns) if pairs else 0,
        "same_winner": same_winner,
        **_reading(outcomes),
        "alike": _reading(alike) if moments else None,
        "taken_in_second": {"seat_games": taken_second, "wins": won_second},
        "first_mover_wins": first_mover_wins,
    }


def _rate(wins: int, games: int) -> str:
    if not games:
        return f"{wins} of 0"
    low, high = wilson(wins, games)
    return f"{wins} of {games}, {100 * wins / games:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"


def _worth_words(card: str, reading: dict[str, Any], whose: str) -> str:
    low, high = reading["worth_ci"]
    changed = reading["changed"]
    return (
        f"{card} is worth {100 * reading['worth']:+.1f} points [{100 * low:+.1f}, "
        f"{100 * high:+.1f}] to {whose} (McNemar p = {reading['p_value']:.2g}: "
        f"{changed['lost']} of those seat-games won only with it, {changed['gained']} only "
        "without it)."
    )


def describe(worth: dict[str, Any], names: tuple[str, str]) -> list[str]:
    """The reading in words, a line each."""
    n, card = worth["seat_games"], worth["card"]
    events = worth["events"] if worth["events"] == "any" else ", ".join(worth["events"])
    lines = [
        f"{card} taken in {n} seat-games of {worth['deals']} deals in {names[0]} (events: "
        f"{events}).",
        f"The two runs' games had the same winner in {worth['same_winner']} of "
        f"{worth['deals']} deals (about 1 in {worth['seats']} if they were unrelated games).",
    ]
    if n:
        lines += [
            f"Those seats won {_rate(worth['wins_with'], n)} with the card and "
            f"{_rate(worth['wins_without'], n)} on the same deals in {names[1]}.",
            _worth_words(card, worth, "the seats that took it"),
        ]
    alike = worth["alike"]
    if alike is None:
        lines.append(
            "The files hold no moments (simulate --standing), so it cannot be said which games "
            "were still alike when the card was taken."
        )
    elif n:
        m = alike["seat_games"]
        lines.append(
            f"In {m} of those {n} seat-games the second game was still the first when the card "
            "was taken (the same cards first taken by the same seats in the same order); in the "
            "others it had parted before, and its seat's result lacks whatever brought the first "
            "game's seat the card, so the reading over all takers holds that as well."
        )
        if m:
            lines.append(_worth_words(card, alike, "those seats alone"))
    second = worth["taken_in_second"]
    lines.append(
        f"In {names[1]} it was taken in {second['seat_games']} seat-games, "
        f"{second['wins']} of them won."
    )
    first, again = worth["first_mover_wins"]
    lines.append(
        f"The first mover won {_rate(first, worth['deals'])} of the deals in {names[0]} and "
        f"{_rate(again, worth['deals'])} in {names[1]}."
    )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("with_card", help="results file of the card set as it is")
    parser.add_argument("without_card", help="results file of the same deals, the card nulled")
    parser.add_argument("--card", required=True, help="the card's name")
    parser.add_argument(
        "--events", default="", help="event types that take the card, comma separated"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    events = [e.strip() for e in args.events.split(",") if e.strip()]
    names = (args.with_card, args.without_card)
    try:
        first, second = (pool_results([path]).outcome for path in names)
        if (first.spec.game, first.spec.num_players) != (second.spec.game, second.spec.num_players):
            raise ResultsFileError(
                f"{names[1]} holds {second.spec.game} at {second.spec.num_players} seats, "
                f"{names[0]} {first.spec.game} at {first.spec.num_players}: compare one game"
            )
        pairs = same_deals(first.results, second.results, names)
        if not pairs:
            raise ResultsFileError(f"no deal is finished in both {names[0]} and {names[1]}")
    except ResultsFileError as exc:
        print(f"card_worth: {exc}", file=sys.stderr)
        return 2
    worth = card_worth(pairs, args.card, events)
    if args.json:
        print(json.dumps(worth, indent=1))
    else:
        print("\n".join(describe(worth, names)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
