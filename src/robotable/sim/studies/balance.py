"""The fairness pass (`robotable balance`): every bundled table's first mover, how its games
end and the cards past the bar, then each flagged card barred in one seat, and the Iotabots decks.

For every bundled game and seat count it plays self-play games with one agent (greedy by
default) and prints a Markdown table: the first mover's wins with their 95% interval against the
fair share, how games end (the rules' own win, a draw or the turn cap), the median length, and
the bundled cards whose stratified impact passes +/-10 points (an odds ratio outside 2/3..3/2,
which is 40-60% at an even baseline) with a Holm-adjusted p below 0.05. Then it plays every pair
of bundled Iotabots decks, both ways round. docs/balancing.md says how to read it.

A pass in pieces: with `--out-dir DIR` every table's games go to a results file there (one per
table and seed, resumed when the same command runs again), and each row pools every seed's file
of its table in DIR (`robotable pool`); `--seed S` adds a piece on fresh deals and `--no-play`
prints the pooled tables without playing. `--bar` bars each flagged card in one seat, each
barred game read beside the same game unbarred (the games of `robotable simulate GAME --restrict
CARD`); `--screen`, `--bar-cards` and `--standing` are described in `robotable balance --help`.
The guard in tests/sim/test_balance_guard.py holds the greedy figures inside loose bounds.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import re
import tempfile
from contextlib import nullcontext
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from ...core.errors import RobotableError
from ...core.registry import bundled_game_names, game_class
from .. import formatting as fmt
from ..analysis import summarize
from ..challenge import (
    GROUP_CLEARED,
    GROUP_PAST,
    games_to_settle,
    group_bound,
    restrict_agents,
    restriction_summary,
)
from ..cli_common import SeedOpt, WorkersOpt, fail
from ..options import MAX_GAMES, POOL_HINT, UsageProblem, check_agents, check_count, worker_count
from ..pool import pool_results
from ..replays import kept_unbarred
from ..results_file import ResultsFileError, ResultsWriter, read_results
from ..runner import (
    GameResult,
    RunOutcome,
    RunSpec,
    Variant,
    plan_jobs,
    replay_job,
    run,
)
from .restricted_play import pair_with


@dataclass(slots=True)
class BalanceOptions:
    """What `robotable balance` was asked for (its options, by the same names)."""

    agent: str = "greedy"
    games: int = 200
    workers: int = 1
    only: str | None = None
    seed: int = 0
    out_dir: Path | None = None
    no_play: bool = False
    bar: bool = False
    bar_games: int = 200
    screen: bool = False
    bar_cards: str | None = None
    seats: str | None = None
    decision_streams: bool = False
    standing: bool = False


def every_table() -> list[tuple[str, int]]:
    """Every table a player can sit at, of every bundled game, from the registry (a solo game
    has no rival, so no first mover and no card race, and is left out)."""
    tables = []
    for name in bundled_game_names():
        cls = game_class(name)
        tables += [(name, n) for n in range(max(2, cls.min_players), cls.max_players + 1)]
    return tables


IOTABOTS_DECKS = ("assembly_line", "heavy_metal", "hijack", "beacon")
# The events that put a card into a seat's play, by game: a barred run counts the seat-games in
# which each side fielded the card by them (a card dealt or drawn is not fielded).
FIELDED = {
    "stakbots": ("played",),
    "iotabots": ("summon", "play_buzz"),
    "betabotz": ("auction_won", "code_played", "breach_taken"),
    "rumblebots": ("built", "transformed"),
}


class Stopped(Exception):
    """Ctrl-C or SIGTERM during a table: its finished games are saved, the pass ends."""


def file_word(text: str) -> str:
    """`text` as part of a file name: each run of characters other than letters, digits and dots
    a hyphen."""
    return re.sub(r"[^A-Za-z0-9.]+", "-", text).strip("-")


def table_stem(spec: RunSpec, table: str) -> str:
    """A table's results file name without its seed: game, seats, table kind and agent."""
    stem = f"{spec.game}-{spec.num_players}p-{table}-{file_word(';'.join(spec.agents))}"
    return stem + "-standing" if spec.standing else stem


def play_seed(
    spec: RunSpec,
    stem: str,
    args: BalanceOptions,
    previous: list[GameResult] | None = None,
    unbarred: dict | None = None,
) -> list[GameResult]:
    """This seed's games of a table, played (or, with --out-dir, resumed from and written to
    `STEM-seedS.jsonl`). `previous` are games known without playing them, added to the file
    first; `unbarred`, for a barred table: by (variant, index), each deal's unbarred game as
    kept (moves, returns), replayed beside its barred game instead of played."""
    path = None if args.out_dir is None else args.out_dir / f"{stem}-seed{spec.seed}.jsonl"
    saved = read_results(path, spec, where=str(path))[0] if path and path.exists() else []
    known = {(r.variant, r.index) for r in saved}
    extra = [r for r in previous or () if (r.variant, r.index) not in known]
    with ResultsWriter(path, spec, resume=path.exists()) if path else nullcontext() as writer:
        for result in extra:
            if writer is not None:
                writer.write(result)
        outcome: RunOutcome = run(
            spec,
            workers=args.workers,
            on_result=writer.write if writer is not None else None,
            previous=[*saved, *extra],
            unbarred=unbarred,
        )
    if outcome.interrupted:
        raise Stopped
    return outcome.results


def play_table(spec: RunSpec, stem: str, args: BalanceOptions) -> RunOutcome:
    """A table's games: this run's, or with --out-dir every seed's games of the table in that
    folder pooled (this seed's played or resumed first, unless --no-play), in files named
    `STEM-seedS.jsonl`."""
    if args.out_dir is None:
        outcome = run(spec, workers=args.workers)
        if outcome.interrupted:
            raise Stopped
        return outcome
    if not args.no_play:
        play_seed(spec, stem, args)
    return pooled(stem, args)


def pooled(stem: str, args: BalanceOptions) -> RunOutcome:
    files = sorted(args.out_dir.glob(f"{stem}-seed*.jsonl"))
    if not files:
        raise ResultsFileError(f"{args.out_dir}: no results file {stem}-seed*.jsonl to pool")
    return pool_results(files).outcome


def self_play(game: str, seats: int, args: BalanceOptions, errors: str) -> tuple[dict, int]:
    spec = RunSpec(
        game,
        seats,
        (args.agent,),
        games=args.games,
        seed=args.seed,
        error_dir=errors,
        standing=args.standing,
        keep_moves=True,  # its games are the unbarred games of every bar on the same deals
        decision_streams=args.decision_streams,
    )
    outcome = play_table(spec, table_stem(spec, "self"), args)
    return summarize(outcome), len(outcome.results)


def flagged_cards(summary: dict, key: str = "card_impact_stratified") -> list[tuple[str, float]]:
    """The cards past the fairness pass's bar in the stratified test (or, with `key`
    "card_impact_by_standing", the test by standing), with their odds ratios."""
    impact = summary.get(key) or {}
    ratios = {r["card"]: r["odds_ratio"] for r in impact.get("rows", [])}
    return [(card, ratios[card]) for card in impact.get("past_10_points", [])]


def bar_group(card: str) -> tuple[str, ...]:
    """The cards one bar holds: a card's name, or several joined by '+' (barred together)."""
    return tuple(c.strip() for c in card.split("+"))


def bar_stem(game: str, seats: int, card: str, agent: str) -> str:
    """A barred run's results file name without its seed."""
    return f"{game}-{seats}p-bar-{file_word(f'{card};{agent}')}"


def unbarred_spec(
    game: str, seats: int, cards: list[str], args: BalanceOptions, errors: str
) -> RunSpec:
    return RunSpec(
        game,
        seats,
        tuple(args.agent for _ in range(seats)),
        games=args.bar_games,
        seed=args.seed,
        error_dir=errors,
        watch=tuple((bar_group(card), ()) for card in cards),
        keep_moves=True,
        decision_streams=args.decision_streams,
    )


def unbarred_games(
    game: str, seats: int, cards: list[str], args: BalanceOptions, errors: str
) -> list[GameResult]:
    """This seed's games of the agent against itself in the barred runs' seat orders, watching
    the seat each bar would sit in: which of `cards` it was ever offered beside another move.
    Every barred run of the table pairs with these games (restricted_play.play_paired does the
    same for one card), so a game no bar can touch is played once for all the cards."""
    spec = unbarred_spec(game, seats, cards, args, errors)
    digest = hashlib.sha256("\n".join(cards).encode()).hexdigest()[:8]
    stem = f"{game}-{seats}p-unbarred-{file_word(args.agent)}-{digest}"
    return play_seed(spec, stem, args, kept_unbarred_table(spec, stem, args))


def kept_unbarred_table(spec: RunSpec, stem: str, args: BalanceOptions) -> list[GameResult]:
    """This table's unbarred games that another results file of --out-dir kept with their moves
    (another list's unbarred table, or a barred run's unbarred partners: the same game, seats,
    agent, seed and rules), each replayed by its moves while watching this list's bars instead
    of played again: a bar thought of later costs only its own barred games."""
    if args.out_dir is None:
        return []
    own = args.out_dir / f"{stem}-seed{spec.seed}.jsonl"
    saved = read_results(own, spec, str(own))[0] if own.exists() else []
    done = {(r.variant, r.index) for r in saved}
    others = sorted(args.out_dir.glob(f"{spec.game}-{spec.num_players}p-*-seed{spec.seed}.jsonl"))
    kept = kept_unbarred([p for p in others if p != own], spec, args.agent)
    replayed = []
    for job in plan_jobs(spec):
        key = (job.variant, job.index)
        if key in kept and key not in done:
            result = replay_job(job, *kept[key])
            if result is not None:
                replayed.append(result)
    return replayed


def bar_card(
    game: str,
    seats: int,
    card: str,
    args: BalanceOptions,
    errors: str,
    unbarred: tuple[int, list[GameResult]] | None = None,
) -> dict:
    """The `restriction` object of `simulate --restrict CARD` for one flagged card: the agent
    barred from it in one seat, the agent itself in the others (the same games, paired, as that
    command with this seed). With `unbarred` (the card's place among the watched bars and the
    unbarred games) only the games its bar could touch are played."""
    cards = bar_group(card)
    agents = tuple(restrict_agents(args.agent, cards, (), seats))
    # Moves kept: `robotable replay FILE --game INDEX [--unbarred]` shows any game a bar changed.
    spec = RunSpec(
        game,
        seats,
        agents,
        games=args.bar_games,
        seed=args.seed,
        error_dir=errors,
        paired=True,
        keep_moves=True,
        decision_streams=args.decision_streams,
    )
    stem = bar_stem(game, seats, card, args.agent)
    if unbarred is None:
        results = play_table(spec, stem, args).results
    else:
        results = play_seed(spec, stem, args, *paired_with(*unbarred))
        if args.out_dir is not None:
            results = pooled(stem, args).results
    return restriction_summary(spec, results, args.agent, cards, events=FIELDED.get(game, ()))


def paired_with(place: int, unbarred: list[GameResult]):
    """The barred games known from the unbarred ones (those the bar could not touch: the same
    game, move for move), and the others' unbarred games as kept (restricted_play.play_paired
    replays each beside its barred game: with decision streams, the barred game starts from its
    moves where the bar can first act)."""
    partner = [r for r in unbarred if r.returns is not None]
    known = [
        pair_with(replace(r), r, could_act=False) for r in partner if not r.bar_could_act[place]
    ]
    kept = {
        (r.variant, r.index): r.unbarred_game()
        for r in partner
        if r.bar_could_act[place] and r.moves
    }
    return known, kept


# Each way a barred run reads: the fairness pass's bar (a point past 10 points with p below 0.05)
# read on the importance, its 95% interval against zero, and whether the bar kept the card out.
def bar_reading(r: dict) -> str:
    figures = r.get("paired") or r  # the paired comparison where the run has one
    # Rounded: a difference of win rates is a float, and 92/200 - 72/200 lands a hair above 0.10
    # where 95/200 - 75/200 lands a hair below it; both are 10 points, at the bar, not past it.
    importance = round(figures["importance"], 9)
    low, high = (round(x, 9) for x in figures["importance_ci"])
    used = r["card_use"]
    barred, free = used["restricted"], used["unrestricted"]
    if barred["used"] and free["rate"] and barred["rate"] >= free["rate"] / 2:
        # A card the rules bring into play (a Transformation, say) reaches the barred seat too.
        return "the bar did not keep the card out: read the card that brings it into play"
    if not free["used"]:
        return "never played by the free seats: nothing to read"
    if len(r.get("cards", ())) > 1:
        # A group bounds each of its cards (docs/balancing.md, "Several cards barred together").
        bound = group_bound((low, high))
        if bound == GROUP_CLEARED:
            return f"cleared together: none of them is worth more than {100 * high:.1f} points"
        if bound == GROUP_PAST:
            return "the group is worth more than 10 points: bar its cards one at a time"
        more = games_to_settle(figures["importance"], (low, high), figures.get("games", 0))
        at_point = "more games" if more is None else f"about {more:,} more games at its point"
        return f"not cleared within 10 points: {at_point}, or bar its cards one at a time"
    if (low > 0 or high < 0) and abs(importance) > 0.10:
        worth = "is worth" if importance > 0 else "costs"
        return f"past the bar: the card itself {worth} its player more than 10 points"
    if low > 0 or high < 0:
        return "a real edge under the bar at its point" + (
            ", its interval across it" if max(abs(low), abs(high)) > 0.10 else ""
        )
    return "nothing measurable: the flag goes with the seats that field it, not with the card"


# The seven figures of a barred run's row, when it has none.
NO_FIGURES = " | ".join("-" * 7)


def screened(
    flags: list[tuple[str, int, str, float | None]],
) -> tuple[list[tuple[str, int, str, float | None]], dict[tuple[str, int, str], list]]:
    """`--screen`: per table, the cards flagged above the bar as one group barred together, and
    each card flagged below it alone (a group bounds only cards that help their player). Returns
    the bars and, per group, its cards to bar one at a time if the group is not cleared."""
    bars: list[tuple[str, int, str, float | None]] = []
    follow: dict[tuple[str, int, str], list] = {}
    tables = list(dict.fromkeys((game, seats) for game, seats, _, _ in flags))
    for game, seats in tables:
        mine = [(card, ratio) for g, n, card, ratio in flags if (g, n) == (game, seats)]
        above = [(card, ratio) for card, ratio in mine if ratio is not None and ratio > 1]
        below = [(card, ratio) for card, ratio in mine if (card, ratio) not in above]
        if len(above) > 1:
            group = "+".join(card for card, _ in above)
            bars.append((game, seats, group, None))
            follow[game, seats, group] = [(game, seats, card, ratio) for card, ratio in above]
        else:
            below = mine
        bars += [(game, seats, card, ratio) for card, ratio in below]
    return bars, follow


def print_bars(
    flags: list[tuple[str, int, str, float | None]],
    args: BalanceOptions,
    errors: str,
    follow: dict[tuple[str, int, str], list] | None = None,
) -> None:
    """A row per bar of `flags`; with `follow` (`screened`), a group not cleared is followed by
    a row for each of its cards barred alone."""
    follow = follow or {}
    print(
        f"\nEach card barred from one seat (`restricted:{args.agent},card=CARD` there, "
        f"`{args.agent}` in the others, every seat order, {args.bar_games} games a seed), each "
        "game beside the same game unbarred; the bar can act only where the seat is offered the "
        "card beside another move, and elsewhere the barred game is the unbarred one. The "
        "importance is the seat's unbarred win rate minus its barred one over the same games "
        "(Newcombe's paired interval, McNemar's exact test); a seat fields a card when it plays "
        "it ("
        + "; ".join(f"{game}: {', '.join(events)}" for game, events in FIELDED.items())
        + " events naming the seat and the card). Cards joined by '+' are barred together: "
        "one more choice never makes a player who chooses well worse, so the group's importance "
        "bounds each of its cards', and a group whose interval tops out within 10 points clears "
        "them all:\n"
    )
    print(
        "| game | seats | card | odds ratio | games | bar could act | seat won: unbarred, barred "
        "| importance | 95% interval | McNemar p | fielded: barred seat | free seats | reading |"
    )
    print("|---" * 13 + "|")
    unbarred: dict[tuple[str, int], tuple[list[str], list[GameResult]]] = {}
    # Each bar's paired interval, by (game, seats, card), for the groups' lines below the table.
    read: dict[tuple[str, int, str], tuple[float, float, float]] = {}
    queue = list(flags)
    # Every bar the table may run, the followers too, is watched in its one unbarred table.
    watched = [*flags, *(bar for bars in follow.values() for bar in bars)]
    while queue:
        game, seats, card, ratio = queue.pop(0)
        head = f"| {game} | {seats} | {card} | {'-' if ratio is None else f'{ratio:.2f}'}"
        stem = bar_stem(game, seats, card, args.agent)
        members = follow.get((game, seats, card), [])
        if args.no_play and not any(args.out_dir.glob(f"{stem}-seed*.jsonl")):
            print(f"{head} | 0 | {NO_FIGURES} | not barred yet |")
            queue[:0] = members  # nothing cleared them
            continue
        shared = None
        if not args.no_play:
            if (game, seats) not in unbarred:
                cards = list(dict.fromkeys(c for g, n, c, _ in watched if (g, n) == (game, seats)))
                unbarred[game, seats] = (cards, unbarred_games(game, seats, cards, args, errors))
            cards, games = unbarred[game, seats]
            shared = (cards.index(card), games)
        r = bar_card(game, seats, card, args, errors, shared)
        p = r.get("paired")
        if not p or not p["games"]:
            print(f"{head} | {r['games']} | {NO_FIGURES} | no paired game |")
            queue[:0] = members
            continue
        low, high = p["importance_ci"]
        used = r["card_use"]
        reading = bar_reading(r)
        if not reading.startswith("cleared together"):  # a group not cleared, or not readable
            queue[:0] = members
        print(
            f"{head} | {p['games']} | {p['bar_could_act']} "
            f"| {p['unbarred_wins']}, {p['barred_wins']} | {100 * p['importance']:+.1f} points "
            f"| [{100 * low:+.1f}, {100 * high:+.1f}] | {p['p_value']:.2g} "
            f"| {used['restricted']['used']} of {used['restricted']['seat_games']} "
            f"| {used['unrestricted']['used']} of {used['unrestricted']['seat_games']} "
            f"| {reading} |",
            flush=True,
        )
        read[game, seats, card] = (p["importance"], low, high)
    for line in groups_beside_their_cards(read):
        print(f"\n{line}")
    if args.out_dir is not None:
        print(
            f"\nEach barred run's file in {args.out_dir} keeps its games' moves: `robotable replay "
            "FILE --game INDEX` shows one (a game whose winner the bar changed, say), and with "
            "`--unbarred` the same deal unbarred."
        )
    if unbarred:
        # The unbarred games are self-play on the bars' deals: their table row comes for free.
        print(f"\nThe unbarred games, `{args.agent}` against itself on the same deals:\n")
        print_table_head()
        for (game, seats), (cards, games) in unbarred.items():
            spec = unbarred_spec(game, seats, cards, args, errors)
            outcome = RunOutcome(spec, games, sum(g.seconds for g in games), "pooled", 0)
            print_table_row(game, seats, summarize(outcome), len(games))


def groups_beside_their_cards(read: dict[tuple[str, int, str], tuple[float, float, float]]):
    """A line for each group not cleared together whose cards were each barred alone too: the
    group's edge beside each card's, and whether every card alone tops out within 10 points (the
    group's edge is then several small ones, and no card is past the bar)."""
    for (game, seats, card), (point, low, high) in read.items():
        cards = bar_group(card)
        alone = [read.get((game, seats, c)) for c in cards]
        if len(cards) < 2 or group_bound((low, high)) == GROUP_CLEARED or None in alone:
            continue
        each = ", ".join(
            f"{c} {100 * a[0]:+.1f} [{100 * a[1]:+.1f}, {100 * a[2]:+.1f}]"
            for c, a in zip(cards, alone)
        )
        over = [c for c, a in zip(cards, alone) if group_bound(a[1:]) != GROUP_CLEARED]
        verdict = (
            "each alone tops out within 10 points: the group's edge is several small ones, none "
            "past the bar"
            if not over
            else f"alone, {' and '.join(over)} not cleared within 10 points"
        )
        yield (
            f"{game}, {seats} seats: {', '.join(cards)} barred together cost the seat "
            f"{100 * point:+.1f} points [{100 * low:+.1f}, {100 * high:+.1f}], not cleared "
            f"together; barred one at a time, {each}: {verdict}."
        )


def print_table_head() -> None:
    print(
        "| game | seats | games | first mover wins | 95% interval | fair share "
        "| ends by the rules | turn cap | median length | cards past +/-10 points |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")


def print_table_row(game: str, seats: int, s: dict, played: int) -> list[tuple[str, float]]:
    """A table's row of the fairness pass; returns the cards past the bar (by standing, when the
    games recorded it)."""
    first, ends = s["first_mover"], s["quality"]["end_reason"]["rates"]
    low, high = first["ci"]
    length = s["quality"]["length"]
    flagged = flagged_cards(s)
    cards = _card_list(flagged)
    if "card_impact_by_standing" in s:
        flagged = flagged_cards(s, "card_impact_by_standing")
        foresight = s["card_impact_by_standing"].get("foresight") or {}
        blind = (
            "" if foresight.get("tells_the_winner") else " (the standing barely tells the winner)"
        )
        cards += f"; by standing{blind}: {_card_list(flagged)}"
    print(
        f"| {game} | {seats} | {played} | {fmt.pct(first['win_rate'])} | [{fmt.pct(low)}, {fmt.pct(high)}] "
        f"| {fmt.pct(first['fair_share'])} | {fmt.pct(ends['win'])} | {fmt.pct(ends['turn_cap'])} "
        f"| {length['median']:g} {length['unit']} | {cards} |",
        flush=True,
    )
    return flagged


def _card_list(flagged: list[tuple[str, float]]) -> str:
    return ", ".join(f"{card} (odds ratio {ratio:.2f})" for card, ratio in flagged) or "none"


def chosen_tables(args: BalanceOptions) -> list[tuple[str, int]]:
    only = set(args.only.split(",")) if args.only else None
    seats = {int(n) for n in args.seats.split(",")} if args.seats else None
    return [
        (game, n)
        for game, n in every_table()
        if (only is None or game in only) and (seats is None or n in seats)
    ]


def pass_tables(args: BalanceOptions) -> int:
    only = set(args.only.split(",")) if args.only else None
    # made only if a game raises (its record is saved there), so a clean run leaves nothing
    errors = os.path.join(tempfile.gettempdir(), f"robotable-balance-errors-{os.getpid()}")
    if args.bar_cards:
        cards = [c.strip() for c in args.bar_cards.split(";") if c.strip()]
        tables = [(g, n) for g, n in chosen_tables(args) if g != "breadwinner"]
        print_bars([(g, n, card, None) for g, n in tables for card in cards], args, errors)
        return 0

    pieces = (
        f"every seed's games in {args.out_dir} pooled"
        if args.out_dir
        else f"{args.games} games per table, master seed {args.seed}"
    )
    print(f"Self-play with `{args.agent}`, {pieces}.\n")
    print_table_head()
    flags = []
    for game, seats in chosen_tables(args):
        s, played = self_play(game, seats, args, errors)
        flagged = print_table_row(game, seats, s, played)
        if game != "breadwinner":  # its rows are bot types, not cards
            flags += [(game, seats, card, ratio) for card, ratio in flagged]
    if args.bar:
        bars, follow = screened(flags) if args.screen else (flags, {})
        print_bars(bars, args, errors, follow)

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
                cells.append(fmt.pct((share[(a, b)] + 1 - share[(b, a)]) / 2))
        print(f"| {a} | " + " | ".join(cells) + " |")
    return 0


# -- the command --------------------------------------------------------------------------------

AgentOpt = Annotated[
    str, typer.Option("--agent", "-a", help="The one agent every seat plays (self-play).")
]
GamesOpt = Annotated[int, typer.Option("--games", help="Games per table and seed.")]
OnlyOpt = Annotated[str | None, typer.Option("--only", help="These games only, comma separated.")]
OutDirOpt = Annotated[
    Path | None,
    typer.Option(
        "--out-dir",
        help="Keep each table's games in a results file here (one per table and seed, resumed "
        "when the same command runs again) and pool every seed's file of a table in its row.",
    ),
]
NoPlayOpt = Annotated[
    bool, typer.Option("--no-play", help="With --out-dir: only pool what is there.")
]
BarOpt = Annotated[
    bool,
    typer.Option(
        "--bar",
        help="Bar each flagged card from one seat (simulate --restrict), each barred game "
        "beside the same game unbarred, and add a table of each card's importance.",
    ),
]
BarGamesOpt = Annotated[int, typer.Option("--bar-games", help="Games of each barred run.")]
ScreenOpt = Annotated[
    bool,
    typer.Option(
        "--screen",
        help="With --bar: bar each table's cards flagged above the bar together first, and "
        "each of them alone only if the group is not cleared (cards flagged below: alone).",
    ),
]
BarCardsOpt = Annotated[
    str | None,
    typer.Option(
        "--bar-cards",
        help="Bar these cards (';' between bars, '+' between the cards of one bar) in each "
        "table chosen by --only and --seats, in place of the flagged ones, without the "
        "self-play and deck tables.",
    ),
]
SeatsOpt = Annotated[
    str | None,
    typer.Option("--seats", help="These seat counts only, comma separated (default: every)."),
]
StreamsOpt = Annotated[
    bool,
    typer.Option(
        "--decision-streams",
        help="Draw each decision's randomness afresh (simulate --decision-streams): each barred "
        "game starts where its bar can first act; other games than without it, so for tables "
        "begun with it (its files are refused without it, and the reverse).",
    ),
]
StandingOpt = Annotated[
    bool,
    typer.Option(
        "--standing",
        help="Also rank the cards by standing when taken; --bar then bars those flags.",
    ),
]


def balance(
    agent: AgentOpt = "greedy",
    games: GamesOpt = 200,
    workers: WorkersOpt = None,
    only: OnlyOpt = None,
    seed: SeedOpt = 0,
    out_dir: OutDirOpt = None,
    no_play: NoPlayOpt = False,
    bar: BarOpt = False,
    bar_games: BarGamesOpt = 200,
    screen: ScreenOpt = False,
    bar_cards: BarCardsOpt = None,
    seats: SeatsOpt = None,
    decision_streams: StreamsOpt = False,
    standing: StandingOpt = False,
) -> None:
    """The fairness pass: every bundled table's first mover, endings and flagged cards.

    Self-play with one agent at every seat count of every bundled game, one Markdown row per
    table (the first mover's wins against the fair share, how games end, the median length,
    the cards past +/-10 points), then every pair of Iotabots decks. With --bar each flagged
    card is barred from one seat and read beside the same games unbarred. A long pass runs in
    pieces with --out-dir (resumable) and --seed, and --no-play prints what is there.

    Example: `robotable balance --agent greedy --games 200 --only stakbots,rumblebots`.
    """
    err = Console(stderr=True)
    options = BalanceOptions(
        agent,
        games,
        1,
        only,
        seed,
        out_dir,
        no_play,
        bar,
        bar_games,
        screen,
        bar_cards,
        seats,
        decision_streams,
        standing,
    )
    try:
        options.workers = worker_count(workers)
        _check(options)
        code = pass_tables(options)
    except Stopped:
        stopped = "the finished games are saved; the same command goes on from there"
        err.print(f"\nstopped: {stopped}" if out_dir else "\nstopped", markup=False)
        raise typer.Exit(130) from None
    except (ResultsFileError, RobotableError, UsageProblem) as exc:
        raise fail(err, str(exc)) from None
    if code:
        raise typer.Exit(code)


def _check(options: BalanceOptions) -> None:
    """The pass's options, before anything is played."""
    if options.no_play and options.out_dir is None:
        raise UsageProblem("--no-play reads the results files of --out-dir: give --out-dir")
    if options.screen and not options.bar:
        raise UsageProblem("--screen orders the bars of --bar: give --bar")
    check_count("--games", options.games, 1, MAX_GAMES, POOL_HINT)
    check_count("--bar-games", options.bar_games, 1, MAX_GAMES, POOL_HINT)
    known = bundled_game_names()
    for name in (options.only or "").split(","):
        if name and name not in known:
            raise UsageProblem(
                f"--only {options.only}: no bundled game '{name}' ({', '.join(known)})"
            )
    for number in (options.seats or "").split(","):
        if number and not number.strip().isdigit():
            raise UsageProblem(f"--seats {options.seats}: '{number}' is not a seat count")
    check_agents([options.agent], (options.only or "stakbots").split(",")[0])
    if not chosen_tables(options):
        raise UsageProblem("--only and --seats leave no table to play")
