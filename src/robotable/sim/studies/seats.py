"""The seats-and-first-mover study (every `simulate` run): who moved first and how that seat
fared, how the games ended (game quality), and each seat's wins, in the terminal and in the HTML
report. Its numbers are sim/analysis.py's and sim/quality.py's; its command is
sim/studies/simulate.py.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

from .. import formatting as fmt
from ..figures import quality_figure, seat_figure

QUALITY_EXPLAINED = {
    "end": "How games ended: a win by the rules, stopped at the turn cap, or a draw (no single "
    "best return); many turn-cap ends mean games stall.",
    "length": "Turns per game (state.turn_number()): the middle half lies between the quartiles; "
    "a wide spread makes a game hard to schedule.",
    "margin": "The winner's value minus the runner-up's at the end (the final score when the game "
    "reports one, else the game's heuristic evaluation, 0 to 1, of the last position before the "
    "end); small margins mean close games.",
    "lead changes": "How often the seat ahead by the game's heuristic changed during a game; 0 "
    "means whoever got ahead first won without a contest.",
    "decision point": "The share of the game after which the eventual winner led for good: near "
    "0 the result was settled early, near 1 the game stayed open to the end.",
}


def quality_cells(quality: dict[str, Any]) -> dict[str, str]:
    """One short text per quality measure (the rows of the quality tables)."""
    cells: dict[str, str] = {}
    end = quality["end_reason"]
    rates = end["rates"]
    cells["end"] = (
        f"win {fmt.pct(rates['win'])}, turn cap {fmt.pct(rates['turn_cap'])}, draw {fmt.pct(rates['draw'])}"
    )
    length = quality["length"]
    if length["games"]:
        cells["length"] = (
            f"median {fmt.decimal(length['median'], 1)} turns (quartiles {fmt.decimal(length['q1'], 1)}-"
            f"{fmt.decimal(length['q3'], 1)}; range {fmt.decimal(length['min'], 0)}-{fmt.decimal(length['max'], 0)})"
        )
    else:
        cells["length"] = "n/a"
    later = "n/a (run with --quality)"
    margin = quality.get("margin")
    if margin and margin["games"]:
        cells["margin"] = (
            f"median {fmt.decimal(margin['median'])} (quartiles {fmt.decimal(margin['q1'])} to "
            f"{fmt.decimal(margin['q3'])}; {margin['source']})"
        )
    else:
        cells["margin"] = later if not quality.get("evaluated") else "n/a (no decided games)"
    leads = quality.get("lead_changes")
    if leads and leads["games"]:
        none = int(leads["counts"].get("0", 0))
        cells["lead changes"] = (
            f"mean {fmt.decimal(leads['mean'])}, median {fmt.decimal(leads['median'], 1)}, max "
            f"{fmt.decimal(leads['max'], 0)}; none in {fmt.pct(none / leads['games'])} of games"
        )
    else:
        cells["lead changes"] = later
    point = quality.get("decision_point")
    if point and point["games"]:
        cells["decision point"] = (
            f"median {fmt.pct(point['median'])} of the game (quartiles {fmt.pct(point['q1'])}-"
            f"{fmt.pct(point['q3'])})"
        )
    else:
        cells["decision point"] = later if not quality.get("evaluated") else "n/a"
    return cells


def first_mover_sentence(summary: dict[str, Any]) -> str:
    """The first mover's result in one sentence, with its interval and test."""
    first = summary["first_mover"]
    if not first["games"]:
        return "First mover: unknown (no finished games)."
    seats = who_moved_first(first)
    adjusted = first["p_adjusted"]
    verdict = (
        "moving first matters"
        if adjusted is not None and adjusted < 0.05
        else "no evidence that moving first matters"
    )
    # The verdict rests on the adjusted p where the turn-order positions are tested as a family
    # (three seats and more): a reader must see that p, not only the raw one, beside it.
    positions = len(first.get("positions") or [])
    test = f"exact binomial p = {fmt.p_value(first['p_value'])}"
    if positions > 1 and adjusted is not None:
        test += f", Holm-adjusted over the {positions} turn-order positions {fmt.p_value(adjusted)}"
    return (
        f"First mover: wins {fmt.pct(first['win_rate'])} {fmt.ci(first['ci'])} of "
        f"{first['games']} games against a fair share of {fmt.pct(first['fair_share'])}, "
        f"{fmt.points(first['advantage'])} {fmt.ci(first['advantage_ci'])} ({test}): {verdict}. "
        f"Who moved first: {seats}."
    )


def who_moved_first(first: dict[str, Any]) -> str:
    """'seat 1 in 31 games, seat 2 in 29' from the first mover's `by_seat` counts."""
    items = sorted(first["by_seat"].items(), key=lambda kv: int(kv[0]))
    parts = [f"seat {int(s) + 1} in {c}" for s, c in items]
    if parts:
        parts[0] += " game" if items[0][1] == 1 else " games"
    return ", ".join(parts) or "nobody"


def _seat_rows(summary: dict[str, Any]) -> list[list[Any]]:
    tests = summary.get("seat_tests") or [{} for _ in summary["wins"]]
    return [
        [
            f"seat {s + 1}" + (" (first listed)" if s == 0 else ""),
            summary["wins"][s],
            fmt.pct(summary["win_rate"][s]),
            fmt.ci(summary["win_rate_ci"][s]),
            fmt.points(tests[s]["advantage"]) if tests[s].get("advantage") is not None else "n/a",
            fmt.p_value(tests[s].get("p_value")),
            fmt.p_value(tests[s].get("p_adjusted")),
            f"{summary['score_rate'][s]:.3f}",
        ]
        for s in range(len(summary["wins"]))
    ]


def first_mover_section(summary: dict[str, Any], groups: list[dict[str, Any]]) -> list[str]:
    """The report's lead: how the seat that moved first fared, per variant."""
    if any("first_mover" not in g for g in groups):
        return []  # a summary saved before the lab measured the first mover
    parts = ["<h2>First mover</h2>"]
    if not summary.get("completed"):
        return parts + ["<p>No finished games.</p>"]
    rows = []
    for g in groups:
        f = g["first_mover"]
        rows.append(
            [
                g.get("label", "all games"),
                f["games"],
                f["wins"],
                fmt.pct(f["win_rate"]),
                fmt.ci(f["ci"]),
                fmt.pct(f["fair_share"]),
                f"{fmt.points(f['advantage'])} {fmt.ci(f['advantage_ci'])}",
                fmt.p_value(f["p_value"]),
                who_moved_first(f),
            ]
        )
    parts.append(
        fmt.html_table(
            [
                "variant",
                "games",
                "first mover won",
                "win rate",
                "95% interval",
                "fair share",
                "advantage",
                "p",
                "who moved first",
            ],
            rows,
        )
    )
    for g in groups:
        positions = g["first_mover"].get("positions") or []
        if not positions:
            continue
        title = f" ({fmt.escape(g['label'])})" if "label" in g and len(groups) > 1 else ""
        parts.append(f"<h3>By turn-order position{title}</h3>")
        parts.append(
            fmt.html_table(
                [
                    "moves",
                    "games",
                    "wins",
                    "win rate",
                    "95% interval",
                    "advantage",
                    "p",
                    "p (Holm)",
                ],
                [
                    [
                        _ordinal(p["position"] + 1),
                        p["games"],
                        p["wins"],
                        fmt.pct(p["win_rate"]),
                        fmt.ci(p["ci"]),
                        f"{fmt.points(p['advantage'])} {fmt.ci(p['advantage_ci'])}"
                        if p["advantage"] is not None
                        else "n/a",
                        fmt.p_value(p["p_value"]),
                        fmt.p_value(p["p_adjusted"]),
                    ]
                    for p in positions
                ],
            )
        )
    sources = summary["first_mover"].get("source", {})
    how = ", ".join(f"{_SOURCES.get(k, k)}: {c}" for k, c in sources.items())
    parts.append(
        "<p class='note'>The first mover is the seat that took the first real turn (the first "
        "decision at turn 1 or later, after setup choices such as mulligans), or the game's own "
        f"<code>first_mover</code> statistic when it reports one ({fmt.escape(how)}). Unlike seat 1 it "
        "follows whoever actually moved first, drawn or rotating. The fair share is the win rate "
        "every seat would have if order did not matter (1/seats of the decided games); p is an "
        "exact two-sided binomial test against it. With three or more seats every position in "
        "the turn order is tested, and the Holm column adjusts for that.</p>"
    )
    return parts


_SOURCES = {
    "stats": "from the game's statistics",
    "first_turn": "from the first real turn",
    "first_decision": "from the first decision",
}


def _ordinal(k: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(k, f"{k}th")


def quality_section(summary: dict[str, Any], groups: list[dict[str, Any]]) -> list[str]:
    if any("quality" not in g for g in groups):
        return []  # a summary saved before the lab measured game quality
    parts = ["<h2>Game quality</h2>"]
    if not summary.get("completed"):
        return parts + ["<p>No finished games.</p>"]
    cells = [quality_cells(g["quality"]) for g in groups]
    headers = ["measure"] + [g.get("label", "all games") for g in groups] + ["what it says"]
    rows = [
        [name] + [c[name] for c in cells] + [QUALITY_EXPLAINED[name]] for name in QUALITY_EXPLAINED
    ]
    parts.append(fmt.html_table(headers, rows))
    quality = summary["quality"]
    if quality["end_reason"]["game_reasons"]:
        parts.append(
            "<p class='note'>The games' own end reasons: "
            + fmt.escape(
                ", ".join(f"{k}: {c}" for k, c in quality["end_reason"]["game_reasons"].items())
            )
            + ".</p>"
        )
    figure = quality_figure(quality)
    if figure:
        parts.append(figure)
    if quality.get("evaluated"):
        parts.append(
            f"<p class='note'>Leads were sampled every {quality['sample_every']} decisions with "
            "the game's heuristic (<code>game.evaluate_all</code>), and at the end from the "
            "returns; the leader is the seat with the strictly highest value. The heuristic is "
            "a guess: lead changes and the decision point are only as good as it is.</p>"
        )
    else:
        parts.append(
            "<p class='note'>Lead changes, the decision point and an evaluated margin need the "
            "game's heuristic at every decision: run with <code>--quality</code>.</p>"
        )
    return parts


def seats_section(summary: dict[str, Any]) -> list[str]:
    """Each seat's wins with its test."""
    parts: list[str] = []
    completed = summary.get("completed", 0)
    parts.append("<h2>Seats</h2>")
    if completed:
        parts.append(seat_figure(summary))
    parts.append(
        fmt.html_table(
            [
                "seat",
                "wins",
                "win rate",
                "95% interval",
                "advantage",
                "p",
                "p (Holm)",
                "mean return",
            ],
            _seat_rows(summary),
        )
    )
    parts.append(
        "<p class='note'>Seats are counted from 1 here (the JSON counts from 0): seat 1 is the "
        "first listed seat, which is not necessarily the seat that moves first (see First mover). "
        "A seat wins when its return is the single best; ties at the top are draws. Seat "
        "assignments rotate so every agent sits in every seat equally often. Each seat's p-value "
        "is an exact binomial test of its share of the decided games against 1/seats; the Holm "
        "column adjusts them for testing every seat.</p>"
    )
    return parts


# -- text ---------------------------------------------------------------------------------------


def _adv(row: dict[str, Any]) -> str:
    if row.get("advantage") is None:
        return "n/a"
    return f"{fmt.points(row['advantage'])} {fmt.ci(row['advantage_ci'])}"


def print_first_mover(groups: list[dict[str, Any]], out: Console) -> None:
    """Who moved first and how they fared, and each turn-order position's wins."""

    def say(text: str) -> None:
        out.print(text, markup=False, highlight=False, soft_wrap=True)

    first = Table(
        title="first mover (the seat that took the first real turn)", title_justify="left"
    )
    for column in ("variant", "games", "won", "win rate", "95% interval", "advantage", "p"):
        if column == "variant":
            first.add_column(column, overflow="fold")
        else:
            first.add_column(column, justify="right")
    for g in groups:
        f = g["first_mover"]
        first.add_row(
            g["label"],
            str(f["games"]),
            str(f["wins"]),
            fmt.pct(f["win_rate"]),
            fmt.ci(f["ci"]),
            fmt.points(f.get("advantage")),
            fmt.p_value(f["p_value"]),
        )
    out.print(first)
    for g in groups:
        prefix = f"{g['label']}: " if len(groups) > 1 else ""
        say(f"  {prefix}who moved first: {who_moved_first(g['first_mover'])}")
    for g in groups:
        positions = g["first_mover"].get("positions") or []
        if not positions:
            continue
        table = Table(title=f"turn-order positions ({g['label']})", title_justify="left")
        for column in ("moves", "games", "win rate", "95% interval", "advantage", "p", "p Holm"):
            table.add_column(column, justify="left" if column == "moves" else "right")
        for p in positions:
            table.add_row(
                f"#{p['position'] + 1}",
                str(p["games"]),
                fmt.pct(p["win_rate"]),
                fmt.ci(p["ci"]),
                _adv(p),
                fmt.p_value(p["p_value"]),
                fmt.p_value(p["p_adjusted"]),
            )
        out.print(table)


def print_quality(groups: list[dict[str, Any]], out: Console) -> None:
    """How the games ended, their margins, lead changes and decision point."""
    quality = Table(title="game quality", title_justify="left")
    quality.add_column("measure")
    for g in groups:
        quality.add_column(g["label"])
    cells = [quality_cells(g["quality"]) for g in groups]
    for name in QUALITY_EXPLAINED:
        quality.add_row(name, *(c[name] for c in cells))
    out.print(quality)


def print_seats(summary: dict[str, Any], out: Console) -> None:
    """Each seat's wins with its test, and the draws."""
    seats = Table(title="seats (seat 1 is the first listed seat)", title_justify="left")
    for column in ("seat", "wins", "win rate", "95% interval", "advantage", "p", "p Holm"):
        seats.add_column(column, justify="right" if column != "seat" else "left")
    tests = summary.get("seat_tests") or [{} for _ in summary["wins"]]
    for s, wins in enumerate(summary["wins"]):
        seats.add_row(
            f"seat {s + 1}",
            str(wins),
            fmt.pct(summary["win_rate"][s]),
            fmt.ci(summary["win_rate_ci"][s]),
            _adv(tests[s]),
            fmt.p_value(tests[s].get("p_value")),
            fmt.p_value(tests[s].get("p_adjusted")),
        )
    seats.add_row("draws", str(summary["draws"]), fmt.pct(summary["draw_rate"]), "", "", "", "")
    out.print(seats)
