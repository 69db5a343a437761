"""The HTML report: one self-contained file a designer can read in a minute.

Figures are drawn with matplotlib's Agg backend (no display needed) and embedded as base64 PNG,
styles are inline, nothing is fetched from the network. The report reads only the summary
object that `simulate --json` writes, so a report can be rebuilt from saved JSON.
"""

from __future__ import annotations

import base64
import html
import io
import math
import re
from pathlib import Path
from typing import Any

from ..core.narration import plural
from . import formatting as fmt
from .challenge import GROUP_CLEARED, GROUP_OPEN, GROUP_PAST, games_to_settle, group_bound
from .verdicts import verdict_lines

MAX_CARD_ROWS = 24


def _pyplot():
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    return plt


def _png(fig) -> str:
    plt = _pyplot()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=96, bbox_inches="tight")
    plt.close(fig)
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    return f'<img alt="figure" src="data:image/png;base64,{data}">'


def _esc(value: Any) -> str:
    return html.escape(str(value))


# -- figures ----------------------------------------------------------------------------------


def seat_figure(summary: dict[str, Any]) -> str:
    plt = _pyplot()
    rates = summary["win_rate"]
    cis = summary["win_rate_ci"]
    seats = range(len(rates))
    low = [r - c[0] for r, c in zip(rates, cis)]
    high = [c[1] - r for r, c in zip(rates, cis)]
    fig, ax = plt.subplots(figsize=(5.5, 3.2))
    ax.bar([f"seat {s + 1}" for s in seats], rates, yerr=[low, high], capsize=5, color="#4c78a8")
    fair = summary["first_seat"]["fair_share"]
    if fair is not None and not math.isnan(fair):
        ax.axhline(fair, color="#e45756", linestyle="--", label=f"fair share {fmt.pct(fair)}")
        ax.legend(loc="upper right", fontsize=8)
    ax.set_ylabel("win rate (95% Wilson interval)")
    ax.set_ylim(0, min(1.0, max(c[1] for c in cis) * 1.25 + 0.02))
    ax.set_title("Wins by seat")
    return _png(fig)


def agent_figure(summary: dict[str, Any]) -> str:
    plt = _pyplot()
    stats = summary["agent_stats"]
    names = list(stats)
    rates = [stats[a]["win_rate"] for a in names]
    low = [r - stats[a]["ci"][0] for r, a in zip(rates, names)]
    high = [stats[a]["ci"][1] - r for r, a in zip(rates, names)]
    fig, ax = plt.subplots(figsize=(5.5, 0.5 + 0.45 * len(names) + 1))
    ax.barh(names, rates, xerr=[low, high], capsize=4, color="#72b7b2")
    ax.set_xlabel("win rate per seat-game (95% Wilson interval)")
    ax.set_xlim(0, 1)
    ax.invert_yaxis()
    ax.set_title("Wins by agent")
    return _png(fig)


def length_figure(summary: dict[str, Any], raw: dict[str, list[float]] | None = None) -> str:
    plt = _pyplot()
    lengths = summary["lengths"]
    fig, axes = plt.subplots(1, 2, figsize=(9, 3))
    for ax, key in zip(axes, ("turns", "actions")):
        hist = lengths[key].get("hist") or {}
        edges, counts = hist.get("edges", []), hist.get("counts", [])
        if counts:
            widths = [b - a for a, b in zip(edges, edges[1:])]
            ax.bar(
                edges[:-1], counts, width=widths, align="edge", color="#9d755d", edgecolor="white"
            )
            ax.axvline(lengths[key]["median"], color="black", linestyle=":", label="median")
            ax.legend(fontsize=8)
        ax.set_xlabel(key)
        ax.set_ylabel("games")
        ax.set_title(f"Game length in {key}")
    return _png(fig)


def card_figure(rows: list[dict[str, Any]]) -> str:
    plt = _pyplot()
    shown = _card_rows_for_figure(rows)
    labels = [f"{r['card']} ({r['event']})" for r in shown]
    diffs = [r["difference"] for r in shown]
    low = [d - r["difference_ci"][0] for d, r in zip(diffs, shown)]
    high = [r["difference_ci"][1] - d for d, r in zip(diffs, shown)]
    colors = [
        "#54a24b" if r["significant"] and d > 0 else "#e45756" if r["significant"] else "#bab0ac"
        for d, r in zip(diffs, shown)
    ]
    fig, ax = plt.subplots(figsize=(7, 0.8 + 0.3 * len(shown)))
    ax.errorbar(diffs, range(len(shown)), xerr=[low, high], fmt="none", ecolor="#888888", capsize=3)
    ax.scatter(diffs, range(len(shown)), c=colors, zorder=3)
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_yticks(range(len(shown)))
    ax.set_yticklabels(labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("win rate with the card minus without (95% Newcombe interval)")
    ax.set_title("Card impact (largest differences)")
    return _png(fig)


def _card_rows_for_figure(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    ranked = sorted(rows, key=lambda r: -abs(r["difference"]))[:MAX_CARD_ROWS]
    return sorted(ranked, key=lambda r: -r["difference"])


def variant_figure(variants: list[dict[str, Any]]) -> str:
    plt = _pyplot()
    labels = [v["label"] for v in variants]
    seats = len(variants[0]["win_rate"])
    fig, axes = plt.subplots(1, 2, figsize=(10, 0.8 + 0.45 * len(labels) + 1.5))
    ax = axes[0]
    height = 0.8 / seats
    for seat in range(seats):
        rates = [v["win_rate"][seat] for v in variants]
        cis = [v["win_rate_ci"][seat] for v in variants]
        ys = [i + seat * height for i in range(len(labels))]
        ax.barh(
            ys,
            rates,
            height=height,
            xerr=[[r - c[0] for r, c in zip(rates, cis)], [c[1] - r for r, c in zip(rates, cis)]],
            capsize=2,
            label=f"seat {seat + 1}",
        )
    ax.set_yticks([i + 0.4 - height / 2 for i in range(len(labels))])
    ax.set_yticklabels(labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("win rate")
    ax.legend(fontsize=7)
    ax.set_title("Wins by seat, per variant")
    ax = axes[1]
    medians = [v["lengths"]["turns"]["median"] for v in variants]
    p10 = [v["lengths"]["turns"]["p10"] for v in variants]
    p90 = [v["lengths"]["turns"]["p90"] for v in variants]
    ax.errorbar(
        medians,
        range(len(labels)),
        xerr=[[m - a for m, a in zip(medians, p10)], [b - m for m, b in zip(medians, p90)]],
        fmt="o",
        capsize=4,
        color="#9d755d",
    )
    ax.set_yticks(range(len(labels)))
    ax.set_yticklabels(labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("turns (median, 10th-90th percentile)")
    ax.set_title("Game length per variant")
    fig.tight_layout()
    return _png(fig)


def quality_figure(quality: dict[str, Any]) -> str | None:
    """End reasons, and with --quality the lead changes and decision points."""
    plt = _pyplot()
    panels = ["end"]
    if quality.get("lead_changes") and quality["lead_changes"]["games"]:
        panels.append("leads")
    if quality.get("decision_point") and quality["decision_point"]["games"]:
        panels.append("point")
    fig, axes = plt.subplots(1, len(panels), figsize=(3.6 * len(panels), 2.8), squeeze=False)
    for ax, panel in zip(axes[0], panels):
        if panel == "end":
            counts = quality["end_reason"]["counts"]
            ax.bar(["win", "turn cap", "draw"], list(counts.values()), color="#4c78a8")
            ax.set_ylabel("games")
            ax.set_title("How games ended")
        elif panel == "leads":
            counts = quality["lead_changes"]["counts"]
            ax.bar([int(k) for k in counts], list(counts.values()), color="#f58518")
            ax.xaxis.get_major_locator().set_params(integer=True)
            ax.set_xlabel("lead changes")
            ax.set_ylabel("games")
            ax.set_title("Lead changes per game")
        else:
            hist = quality["decision_point"]["hist"]
            edges = hist["edges"]
            ax.bar(edges[:-1], hist["counts"], width=0.1, align="edge", color="#54a24b")
            ax.set_xlim(0, 1)
            ax.set_xlabel("share of the game")
            ax.set_ylabel("games")
            ax.set_title("Winner led for good from")
    fig.tight_layout()
    return _png(fig)


def extras_figure(extras: dict[str, Any]) -> str | None:
    plt = _pyplot()
    panels = [(k, v) for k, v in extras.items() if v["kind"] in ("rate", "counts")][:6]
    if not panels:
        return None
    cols = min(3, len(panels))
    rows = math.ceil(len(panels) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4 * cols, 2.8 * rows), squeeze=False)
    for ax in axes.flat[len(panels) :]:
        ax.axis("off")
    for ax, (key, value) in zip(axes.flat, panels):
        if value["kind"] == "rate":
            rate, ci = value["rate"], value["ci"]
            ax.bar(
                ["rate"], [rate], yerr=[[rate - ci[0]], [ci[1] - rate]], capsize=5, color="#b279a2"
            )
            ax.set_ylim(0, 1)
        else:
            items = sorted(value["counts"].items(), key=lambda kv: -kv[1])[:12]
            ax.barh([str(k) for k, _ in items], [c for _, c in items], color="#b279a2")
            ax.invert_yaxis()
            ax.tick_params(axis="y", labelsize=7)
        ax.set_title(key, fontsize=9)
    fig.tight_layout()
    return _png(fig)


# -- text -------------------------------------------------------------------------------------

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


def _diff(c: dict[str, Any]) -> str:
    """A variant comparison's difference and interval, in points or turns."""
    if c["difference"] is None:
        return "n/a"
    if c["metric"] == "mean_turns":
        low, high = c["ci"]
        return f"{c['difference']:+.2f} turns [{fmt.decimal(low)}, {fmt.decimal(high)}]"
    return f"{fmt.points(c['difference'])} {fmt.ci(c['ci'])}"


def rules_phrase(summary: dict[str, Any]) -> str:
    """Which rules the games were played under, for a title ('' for a summary saved before it
    was recorded)."""
    if "rules_version" not in summary:
        return ""
    version = summary["rules_version"]
    return "rules not recorded" if version is None else f"rules version {version}"


def headline(summary: dict[str, Any]) -> list[str]:
    """The minute-long read: a few sentences, each with its number and interval."""
    lines = []
    completed = summary.get("completed", summary["games"] - summary["errors"])
    agents = ", ".join(summary["agents"])
    variants = summary.get("variants", [])
    extra = f" over {len(variants)} variants" if len(variants) > 1 else ""
    rules = f"{rules_phrase(summary)}; " if rules_phrase(summary) else ""
    lines.append(
        f"{summary['games']} games of {summary['game']} with {summary['num_players']} seats{extra} "
        f"({rules}agents: {agents}; seed {summary.get('seed', 0)}): {completed} finished, "
        f"{summary['errors']} raised an error, {summary['draws']} were draws."
    )
    if summary.get("interrupted"):
        lines.append(
            f"Interrupted: only {summary['games']} of {summary.get('games_planned', '?')} planned "
            "games finished; these numbers are partial."
        )
    for warning in summary.get("warnings", []):
        lines.append(f"Warning: {warning}")
    first = summary["first_seat"]
    if completed:
        if "first_mover" in summary:
            lines.append(first_mover_sentence(summary))
        quality = summary.get("quality")
        if quality:
            cells = quality_cells(quality)
            lines.append(
                f"Game quality: ends {cells['end']}; margin {cells['margin']}; lead changes "
                f"{cells['lead changes']}; decision point {cells['decision point']}."
            )
        adjusted = first.get("p_adjusted")
        verdict = (
            "seat order matters"
            if (adjusted if adjusted is not None else first["p_value"]) < 0.05
            else "no evidence that seat order matters"
        )
        lines.append(
            f"Seat 1 (the first listed seat): wins {fmt.pct(first['win_rate'])} {fmt.ci(first['ci'])} "
            f"against a fair share of {fmt.pct(first['fair_share'])}, {fmt.points(first['advantage'])} "
            f"(exact binomial p = {fmt.p_value(first['p_value'])}, Holm-adjusted over the seats "
            f"{fmt.p_value(adjusted)}): {verdict}."
        )
        turns = summary["lengths"]["turns"]
        actions = summary["lengths"]["actions"]
        lines.append(
            f"Length: median {fmt.decimal(turns['median'], 1)} turns (10-90%: {turns['p10']:.0f}-{turns['p90']:.0f}), "
            f"{actions['median']:.0f} actions; longest {turns['max']:.0f} turns."
        )
    stats = summary.get("agent_stats", {})
    if len(stats) > 1:
        best = max(stats, key=lambda a: stats[a]["score_rate"])
        lines.append(
            f"Strongest agent: {best}, winning {fmt.pct(stats[best]['win_rate'])} "
            f"{fmt.ci(stats[best]['ci'])} of its seat-games."
        )
    cards = summary.get("cards", [])
    significant = [r for r in cards if r["significant"] and r["event"] != "any"]
    adjusted = [r for r in significant if r.get("significant_adjusted")]
    if cards:
        top = cards[0]
        bottom = cards[-1]
        lines.append(
            f"Card association (raw): {len(significant)} (card, event) pairs differ at the 95% "
            "level one by one, "
            f"{len(adjusted)} after Holm's adjustment for testing all {len(cards)} rows. Highest: "
            f"{top['card']} ({top['event']}) {fmt.points(top['difference'])} {fmt.ci(top['difference_ci'])}; "
            f"lowest: {bottom['card']} ({bottom['event']}) {fmt.points(bottom['difference'])} "
            f"{fmt.ci(bottom['difference_ci'])}. Association, not cause: see the note below the table."
        )
    for key in ("card_impact_stratified", "card_impact_by_standing"):
        stratified_line = stratified_sentence(summary.get(key))
        if stratified_line:
            lines.append(stratified_line)
    if len(variants) > 1:
        longest = max(variants, key=lambda v: v["mean_turns"])
        shortest = min(variants, key=lambda v: v["mean_turns"])
        key = "first_mover" if all("first_mover" in v for v in variants) else "first_seat"
        fair_gap = max(variants, key=lambda v: abs(v[key]["advantage"] or 0))
        lines.append(
            f"Variants: mean length from {shortest['mean_turns']:.2f} turns ({shortest['label']}) "
            f"to {longest['mean_turns']:.2f} ({longest['label']}); the largest "
            f"{key.replace('_', '-')} effect is with {fair_gap['label']} "
            f"({fmt.points(fair_gap[key]['advantage'])}, p = {fmt.p_value(fair_gap[key]['p_value'])})."
        )
        compared = [
            c
            for c in summary.get("variant_comparisons", [])
            if c["p_adjusted"] is not None and c["p_adjusted"] < 0.05
        ]
        if summary.get("variant_comparisons"):
            shown = "; ".join(
                f"{c['variant']}: {c['metric'].replace('_', ' ')} {_diff(c)} (adjusted p = "
                f"{fmt.p_value(c['p_adjusted'])})"
                for c in compared[:4]
            )
            lines.append(
                f"Against {variants[0]['label']}: {len(compared)} of "
                f"{len(summary['variant_comparisons'])} comparisons differ after Holm's "
                f"adjustment" + (f" ({shown})." if shown else ".")
            )
        shifts = summary.get("card_shifts", [])
        if shifts:
            top = shifts[0]
            moves = " vs ".join(
                f"{fmt.points(c['difference'])} {fmt.ci(c['difference_ci'])} ({c['variant']})"
                for c in top["by_variant"]
                if c is not None
            )
            lines.append(
                f"Card impact that moves most between variants: {top['card']} ({top['event']}): {moves}."
            )
    if summary["errors"]:
        records = summary.get("error_records", [])
        where = f" Records: {records[0]}" + (
            f" and {len(records) - 1} more" if len(records) > 1 else ""
        )
        lines.append(
            f"{summary['errors']} games raised an error and were left out of the numbers.{where} "
            "(check with `robotable replay FILE`)."
        )
    return lines


def _table(headers: list[str], rows: list[list[Any]]) -> str:
    head = "".join(f"<th>{_esc(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{_esc(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


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


def _value(c: dict[str, Any], key: str) -> str:
    value = c[key]
    if c["metric"] == "mean_turns":
        return fmt.decimal(value)
    return fmt.pct(value)


def _first_mover_section(summary: dict[str, Any], groups: list[dict[str, Any]]) -> list[str]:
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
        _table(
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
        title = f" ({_esc(g['label'])})" if "label" in g and len(groups) > 1 else ""
        parts.append(f"<h3>By turn-order position{title}</h3>")
        parts.append(
            _table(
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
        f"<code>first_mover</code> statistic when it reports one ({_esc(how)}). Unlike seat 1 it "
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


def _quality_section(summary: dict[str, Any], groups: list[dict[str, Any]]) -> list[str]:
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
    parts.append(_table(headers, rows))
    quality = summary["quality"]
    if quality["end_reason"]["game_reasons"]:
        parts.append(
            "<p class='note'>The games' own end reasons: "
            + _esc(", ".join(f"{k}: {c}" for k, c in quality["end_reason"]["game_reasons"].items()))
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


def _variant_rows(variants: list[dict[str, Any]]) -> list[list[Any]]:
    rows = []
    for v in variants:
        first = v.get("first_mover") or v["first_seat"]
        rows.append(
            [
                v["label"],
                v["completed"],
                v["errors"],
                " / ".join(fmt.pct(r) for r in v["win_rate"]),
                fmt.pct(v["draw_rate"]),
                f"{fmt.points(first['advantage'])} (p={fmt.p_value(first['p_value'])})",
                fmt.decimal(v["lengths"]["turns"]["median"], 1),
                f"{v['mean_actions']:.1f}",
            ]
        )
    return rows


STYLE = """
body{font-family:system-ui,-apple-system,Segoe UI,sans-serif;max-width:1000px;margin:2em auto;
padding:0 1em;color:#222;line-height:1.45}
h1{font-size:1.5em}h2{font-size:1.15em;margin-top:1.8em;border-bottom:1px solid #ddd}
.summary{background:#f5f7fa;border-left:4px solid #4c78a8;padding:.6em 1em}
table{border-collapse:collapse;font-size:.85em;margin:.6em 0}
td,th{border:1px solid #ddd;padding:.25em .5em;text-align:left}th{background:#f0f0f0}
img{max-width:100%}.note{color:#555;font-size:.85em}code{background:#f0f0f0;padding:0 .2em}
.verdict{font-size:1.1em;border-left:4px solid #54a24b;padding:.4em 1em .4em 2em}
.verdict .warning{color:#a23b2a;font-weight:600}
"""


def render_html(summary: dict[str, Any], command: str = "") -> str:
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>robotable balance report: {_esc(summary['game'])}</title>",
        f"<style>{STYLE}</style></head><body>",
        f"<h1>Balance report: {_esc(summary['game'])}, {summary['num_players']} seats</h1>",
    ]
    if command:
        parts.append(f"<p class='note'>Command: <code>{_esc(command)}</code></p>")
    # The answer in words first (sim/verdicts.py); the numbers behind it follow.
    parts.append("<h2>Verdict</h2><ul class='verdict'>")
    for line in verdict_lines(summary):
        warning = " class='warning'" if line.startswith("Warning:") else ""
        # A command in backticks ("`-a greedy`") is shown as code.
        text = re.sub(r"`([^`]+)`", r"<code>\1</code>", _esc(line))
        parts.append(f"<li{warning}>{text}</li>")
    parts.append("</ul><h2>The numbers behind it</h2>")
    parts.append("<div class='summary'><ul>")
    parts.extend(f"<li>{_esc(line)}</li>" for line in headline(summary))
    parts.append("</ul></div>")
    parts.extend(_challenge_section(summary))

    completed = summary.get("completed", 0)
    variants = summary.get("variants", [])
    several = len(variants) > 1
    parts.extend(_first_mover_section(summary, variants if several else [summary]))
    parts.extend(_quality_section(summary, variants if several else [summary]))

    parts.append("<h2>Seats</h2>")
    if completed:
        parts.append(seat_figure(summary))
    parts.append(
        _table(
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

    stats = summary.get("agent_stats", {})
    if stats:
        parts.append("<h2>Agents</h2>")
        if len(stats) > 1 and completed:
            parts.append(agent_figure(summary))
        parts.append(
            _table(
                ["agent", "seat-games", "wins", "draws", "win rate", "95% interval"],
                [
                    [
                        a,
                        s["seat_games"],
                        s["wins"],
                        s["draws"],
                        fmt.pct(s["win_rate"]),
                        fmt.ci(s["ci"]),
                    ]
                    for a, s in stats.items()
                ],
            )
        )

    if several:
        parts.append("<h2>Variants</h2>")
        if all(v["completed"] for v in variants):
            parts.append(variant_figure(variants))
        parts.append(
            _table(
                [
                    "variant",
                    "games",
                    "errors",
                    "win rate by seat",
                    "draws",
                    "first-mover advantage",
                    "median turns",
                    "mean actions",
                ],
                _variant_rows(variants),
            )
        )
        comparisons = summary.get("variant_comparisons", [])
        if comparisons:
            parts.append(f"<h3>Against {_esc(variants[0]['label'])}</h3>")
            parts.append(
                _table(
                    ["variant", "measure", "value", "baseline", "difference", "p", "p (Holm)"],
                    [
                        [
                            c["variant"],
                            c["metric"].replace("_", " "),
                            _value(c, "value"),
                            _value(c, "baseline_value"),
                            _diff(c),
                            fmt.p_value(c["p_value"]),
                            fmt.p_value(c["p_adjusted"]),
                        ]
                        for c in comparisons
                    ],
                )
            )
            parts.append(
                "<p class='note'>Each variant against the first: proportions with Newcombe's "
                "interval and a two-proportion z-test, mean length with a Welch normal interval. "
                "The Holm column adjusts the p-values for making all these comparisons at once. "
                "Variants are played on the same seeds, which these intervals do not exploit: "
                "they are, if anything, too wide.</p>"
            )
        shifts = summary.get("card_shifts", [])
        if shifts:
            parts.append("<h3>Card impact by variant (largest movements)</h3>")
            parts.append(
                _table(
                    ["card", "event"] + [v["label"] for v in variants],
                    [
                        [row["card"], row["event"]]
                        + [
                            "-"
                            if c is None
                            else f"{fmt.points(c['difference'])} {fmt.ci(c['difference_ci'])}"
                            for c in row["by_variant"]
                        ]
                        for row in shifts
                    ],
                )
            )
        parts.append(
            "<p class='note'>Game i of every variant uses the same seed, so variants are compared "
            "on the same shuffles where the rules allow.</p>"
        )

    if completed:
        parts.append("<h2>Game length</h2>")
        parts.append(length_figure(summary))
        lengths = summary["lengths"]
        parts.append(
            _table(
                ["measure", "mean", "sd", "min", "p10", "median", "p90", "max"],
                [
                    [
                        key,
                        f"{d['mean']:.2f}",
                        f"{d['sd']:.2f}",
                        f"{d['min']:.3g}",
                        f"{d['p10']:.3g}",
                        f"{d['median']:.3g}",
                        f"{d['p90']:.3g}",
                        f"{d['max']:.3g}",
                    ]
                    for key, d in lengths.items()
                ],
            )
        )

    cards = summary.get("cards", [])
    parts.append("<h2>Card impact</h2>")
    parts.extend(_stratified_section(summary.get("card_impact_stratified")))
    parts.extend(_stratified_section(summary.get("card_impact_by_standing")))
    if cards:
        parts.append("<h3>Card association (raw)</h3>")
        parts.append(card_figure(cards))
        parts.append(
            _table(
                [
                    "card",
                    "event",
                    "seat-games with",
                    "win rate with",
                    "without",
                    "win rate without",
                    "difference",
                    "95% interval",
                    "p (Holm)",
                ],
                [
                    [
                        r["card"],
                        r["event"],
                        r["seat_games_with"],
                        fmt.pct(r["win_rate_with"]),
                        r["seat_games_without"],
                        fmt.pct(r["win_rate_without"]),
                        fmt.points(r["difference"]),
                        fmt.ci(r["difference_ci"]),
                        fmt.p_value(r.get("p_adjusted")),
                    ]
                    for r in cards
                ],
            )
        )
        parts.append(
            "<p class='note'>This table is association: it pools every deck, agent and seat. A "
            "seat-game 'used' a card for an event type when any event of that type "
            "named the seat and the card ('any': any event at all). The difference compares win rates "
            "with and without; it shows association, not cause (a card seen in long games or by the "
            "stronger agent looks better for those reasons). Pairs with fewer than 10 seat-games on "
            "either side are left out. The Holm column is a two-proportion z-test's p-value adjusted "
            "for testing every row of the table.</p>"
        )
    else:
        parts.append("<p>No events named a seat and a card: this game reports no card impact.</p>")

    extras = summary.get("extras", {})
    if extras:
        parts.append("<h2>Game-specific statistics</h2>")
        figure = extras_figure(extras)
        if figure:
            parts.append(figure)
        parts.append(
            _table(["statistic", "summary"], [[k, _describe_extra(v)] for k, v in extras.items()])
        )

    if summary["errors"]:
        parts.append("<h2>Errors</h2>")
        parts.append(
            _table(
                ["variant", "game", "seed", "error", "record"],
                [
                    [e["variant"], e["index"], e["seed"], e["error"], e["record"] or "-"]
                    for e in summary.get("error_messages", [])
                ],
            )
        )
    parts.append(f"<p class='note'>{_esc(timing_line(summary))}</p>")
    parts.append("</body></html>")
    return "\n".join(parts)


def _named(cards: list[str], last: str = "and") -> str:
    """Card names in a sentence: "A", "A and B", "A, B and C" (or "A, B or C")."""
    return cards[0] if len(cards) == 1 else f"{', '.join(cards[:-1])} {last} {cards[-1]}"


def _paired_sentence(cards: list[str], p: dict[str, Any]) -> str:
    """The barred games beside the same games unbarred (challenge.paired_comparison)."""
    games = p["games"]
    lost, gained = p["wins_lost"], p["wins_gained"]
    group = len(cards) > 1
    if lost + gained == 0:
        verdict = "the bar changed no win"
    elif p["p_value"] < 0.05:
        matter = "the cards matter" if group else "the card matters"
        helps = "barring them helps" if group else "barring it helps"
        verdict = f"{matter} to this agent" if lost > gained else helps
    else:
        verdict = "no evidence that the bar changes the seat's wins"
    offered = _named(cards, "or")
    return (
        f"Paired with the same games unbarred: the barred seat was offered {offered} beside "
        f"another move in {p['bar_could_act']} of {games} games (the others are the unbarred "
        f"games, move for move) and {p['changed']} ended differently; it won "
        f"{p['unbarred_wins']} ({fmt.pct(p['unbarred_win_rate'])}) unbarred and "
        f"{p['barred_wins']} ({fmt.pct(p['barred_win_rate'])}) barred, {plural(lost, 'game')} only "
        f"unbarred and {gained} only barred: importance {fmt.points(p['importance'])} {fmt.signed_ci(p['importance_ci'])} "
        f"(exact McNemar p = {fmt.p_value(p['p_value'])}): {verdict}."
    )


def _more_games(figures: dict[str, Any]) -> str:
    """How many more games would settle a group bar's interval against the 10 points, in words
    (challenge.games_to_settle)."""
    more = games_to_settle(figures["importance"], figures["importance_ci"], figures["games"])
    if more is None:
        return "more games narrow the bound, though at this point they may never settle it"
    return (
        f"at its point ({fmt.points(figures['importance'])}) about {more:,} more games would take "
        "the whole interval to one side of them"
    )


def _group_bound_sentence(figures: dict[str, Any]) -> str:
    """What a bar on a group says of each of its cards (docs/balancing.md, "Several cards barred
    together"): with one more choice a player who chooses well never does worse, so barring one
    card costs its seat no more than barring the whole group does."""
    top = figures["importance_ci"][1] if figures.get("importance_ci") else None
    if top is None:
        return "Barred together: no decided game yet, so nothing is bounded."
    head = (
        "Barred together, the group bounds each of its cards, if one more choice never makes "
        "this agent worse (barring one card alone then costs its seat at most what barring the "
        "group does)"
    )
    top = round(top, 9)
    if top <= 0:
        return (
            f"{head}, and the seat did no worse without the group (the top of its 95% interval "
            f"is {fmt.points(top)}): none of these cards is worth anything measurable to this agent."
        )
    verdict = {
        GROUP_CLEARED: "inside the 10 points of the fairness pass",
        GROUP_PAST: "and the group is worth more than 10 points: bar them one at a time to find "
        "which",
        GROUP_OPEN: "not yet inside the 10 points of the fairness pass: "
        + _more_games(figures)
        + ", or bar them one at a time",
    }[group_bound(figures["importance_ci"])]
    return (
        f"{head}: none of these cards is worth more than {100 * top:.1f} points to this agent "
        f"(the top of the group's 95% interval), {verdict}."
    )


def challenge_sentences(summary: dict[str, Any]) -> list[str]:
    """What `--restrict` or `--depth` found, in words, with the interval and the test."""
    lines = []
    r = summary.get("restriction")
    if r:
        decided = r["decided"]
        cards = r.get("cards") or [r["card"]]
        group = len(cards) > 1
        named = f"{_named(cards)}, barred together" if group else cards[0]
        it = "any of them" if group else "it"
        if r["seats"] == 2:
            head = (
                f"Importance of {named}: {r['base']} wins {fmt.pct(r['unrestricted_win_rate'])} "
                f"{fmt.ci(r['unrestricted_ci'])} of {decided} decided games against itself barred "
                f"from playing {it}"
            )
        else:
            head = (
                f"Importance of {named}: barred from playing {it}, {r['base']} wins "
                f"{fmt.pct(r['restricted_win_rate'])} {fmt.ci(r['restricted_ci'])} of {decided} decided "
                f"games against a fair share of {fmt.pct(r['fair_share'])}"
            )
        matter = "the cards matter" if group else "the card matters"
        verdict = (
            f"{matter} to this agent"
            if r["p_value"] is not None and r["p_value"] < 0.05 and (r["importance"] or 0) > 0
            else f"barring {'them' if group else 'it'} helps this agent"
            if r["p_value"] is not None and r["p_value"] < 0.05
            else f"no evidence that {matter} to this agent"
        )
        lines.append(
            f"{head}: importance {fmt.points(r['importance'])} {fmt.signed_ci(r['importance_ci'])} "
            f"(exact binomial p = {fmt.p_value(r['p_value'])}; {_draws(r['draws'])} left out): {verdict}."
        )
        paired = r.get("paired")
        if paired:
            lines.append(_paired_sentence(cards, paired))
        if group:
            lines.append(_group_bound_sentence(paired or r))
        use = r["card_use"]
        free, barred = use["unrestricted"], use["restricted"]
        kinds = r.get("card_use_events", "any")
        event = "an event" if kinds == "any" else f"an event of type {', '.join(kinds)}"
        lines.append(
            f"Card use: {event} named {_named(cards, 'or')} for the unrestricted seats in "
            f"{fmt.pct(free['rate'])} of their seat-games, for the restricted seat in "
            f"{fmt.pct(barred['rate'])} (it may still appear when forced, or by events the seat "
            "did not choose)."
        )
        if use.get("by_card"):
            lines.append(
                "Card by card, the unrestricted seats' seat-games and the restricted seat's: "
                + "; ".join(
                    f"{name} {fmt.pct(u['unrestricted']['rate'])}, {fmt.pct(u['restricted']['rate'])}"
                    for name, u in use["by_card"].items()
                )
                + "."
            )
    d = summary.get("depth")
    if d:
        lines.append(
            f"Depth: {d['search']} wins {fmt.pct(d['win_rate'])} {fmt.ci(d['ci'])} of {d['decided']} "
            f"decided games against {d['baseline']} (fair share {fmt.pct(d['fair_share'])}), "
            f"{fmt.points(d['advantage'])} {fmt.signed_ci(d['advantage_ci'])} (exact binomial p = "
            f"{fmt.p_value(d['p_value'])}; {_draws(d['draws'])} left out)."
        )
    return lines


def _draws(n: int) -> str:
    return f"{n} draw" if n == 1 else f"{n} draws"


def _challenge_section(summary: dict[str, Any]) -> list[str]:
    r, d = summary.get("restriction"), summary.get("depth")
    if not r and not d:
        return []
    parts = ["<h2>Card importance (restricted play)</h2>" if r else "<h2>Depth</h2>"]
    parts.append("<ul>" + "".join(f"<li>{_esc(x)}</li>" for x in challenge_sentences(summary)))
    parts.append("</ul>")
    data = r or d
    if data["by_variant"]:
        rows = []
        for v in data["by_variant"]:
            effect = v["importance"] if r else v["advantage"]
            effect_ci = v["importance_ci"] if r else v["advantage_ci"]
            rate = v["restricted_win_rate"] if r else v["win_rate"]
            ci = v["restricted_ci"] if r else v["ci"]
            rows.append(
                [
                    v["variant"],
                    v["decided"],
                    fmt.pct(rate),
                    fmt.ci(ci),
                    f"{fmt.points(effect)} {fmt.signed_ci(effect_ci)}",
                    fmt.p_value(v["p_value"]),
                ]
            )
        parts.append(
            _table(
                [
                    "variant",
                    "decided games",
                    "restricted win rate" if r else "search win rate",
                    "95% interval",
                    "importance" if r else "advantage",
                    "p",
                ],
                rows,
            )
        )
    parts.append(f"<p class='note'>{_esc(data['method'])}.</p>")
    return parts


def stratified_sentence(impact: dict[str, Any] | None) -> str | None:
    """The Mantel-Haenszel card estimate in one sentence."""
    if not impact or not impact.get("rows"):
        return None
    ranked = [r for r in impact["rows"] if r["ranked"]]
    flagged = len(impact["rows"]) - len(ranked)
    text = (
        f"Cards within strata ({', '.join(impact['strata_by'])}; Mantel-Haenszel): "
        f"{plural(len(ranked), 'card')} ranked, "
        f"{sum(1 for r in ranked if r.get('significant_adjusted'))} with Holm-adjusted p < 0.05"
    )
    past = impact.get("past_10_points")
    if past is not None:
        text += f", {len(past)} of them past +/-10 points" + (
            f" ({', '.join(past)})" if past else ""
        )
    if ranked:
        top, bottom = ranked[0], ranked[-1]
        text += (
            f"; highest odds ratio of winning {top['card']} {fmt.ratio(top['odds_ratio'])} "
            f"{fmt.ratio_ci(top['ci'])}, lowest {bottom['card']} {fmt.ratio(bottom['odds_ratio'])} "
            f"{fmt.ratio_ci(bottom['ci'])}"
        )
    if flagged:
        text += f"; {plural(flagged, 'card')} too rare to rank (too few strata)"
    return text + "."


def _stratified_section(impact: dict[str, Any] | None) -> list[str]:
    if not impact or not impact.get("rows"):
        return []
    parts = [f"<h3>Card impact within strata ({_esc(', '.join(impact['strata_by']))})</h3>"]
    rows = [r for r in impact["rows"] if r["ranked"]][:MAX_CARD_ROWS]
    flagged = [r for r in impact["rows"] if not r["ranked"]]
    parts.append(
        _table(
            [
                "card",
                "informative strata",
                "seat-games in them",
                "seat-games with card",
                "odds ratio of winning",
                "95% interval",
                "p",
                "p (Holm)",
            ],
            [
                [
                    r["card"],
                    r["informative_strata"],
                    r["games"],
                    r["seat_games_with"],
                    fmt.ratio(r["odds_ratio"]),
                    fmt.ratio_ci(r["ci"]),
                    fmt.p_value(r["p_value"]),
                    fmt.p_value(r["p_adjusted"]),
                ]
                for r in rows
            ],
        )
    )
    if flagged:
        parts.append(
            "<p class='note'>Not ranked (too few strata: fewer than "
            f"{impact['min_strata']} informative strata or {impact['min_games']} seat-games in "
            f"them): {_esc(', '.join(r['card'] for r in flagged))}.</p>"
        )
    events = impact["events"]
    used = "any event" if events == "any" else "an event of type " + ", ".join(events)
    if "standing when taken" in impact["strata_by"]:
        parts.append(_standing_note(used))
        foresight = foresight_sentence(impact)
        if foresight:
            parts.append(f"<p class='note'>{_esc(foresight)}</p>")
        return parts
    parts.append(
        "<p class='note'>Seat-games are split into strata that hold the variant, the seat's deck "
        "(when the game records it), the seat's agent and the seat fixed. Within each stratum the "
        f"seat-games whose seat used the card ({_esc(used)} naming the seat and the card) are "
        "compared with those that did not, and the strata are combined with the Mantel-Haenszel "
        "odds ratio of winning (1: no difference; 2: twice the odds). The interval uses the "
        "Robins-Breslow-Greenland variance, p is the Mantel-Haenszel chi-square test, Holm "
        "adjusts it across the ranked cards. A stratum where every seat-game or none used the "
        "card, or all or none won, carries no information. This removes decks, agents and seats "
        "as explanations, not the course of the game: a card played only when already ahead "
        "still looks good. <code>simulate --restrict CARD</code> is the experiment for that.</p>"
    )
    return parts


def foresight_sentence(impact: dict[str, Any] | None) -> str | None:
    """What the standing foretells, in words (the terminal's and the report's): how often the
    seats standing first, and those standing last, went on to win, beside the fair share."""
    foresight = (impact or {}).get("foresight")
    if not foresight or not foresight["by_rank"]:
        return None
    first, last = foresight["by_rank"][0], foresight["by_rank"][-1]
    fair = foresight["fair_share"]
    text = (
        "What the standing foretells: of the seats standing first when a card was taken, "
        f"{fmt.pct(first['win_rate'])} {fmt.ci(first['ci'])} went on to win"
    )
    if last is not first:
        text += (
            f", of those standing last (rank {last['rank']}) {fmt.pct(last['win_rate'])} "
            f"{fmt.ci(last['ci'])}"
        )
    text += (
        f"; fair share {fmt.pct(fair)}, {foresight['games']} games, each counted as one cluster."
    )
    if not foresight["tells_the_winner"]:
        text += (
            " The game's evaluation barely tells who wins at these moments, so this table holds "
            "little more fixed than the seats do."
        )
    return text


def _standing_note(used: str) -> str:
    return (
        "<p class='note'>Each game is read at the moment a card was first taken (the first "
        f"{_esc(used)} naming a seat and the card), and every seat enters at its standing just "
        "before that move: its rank by the game's evaluation (1: no seat valued higher). The "
        "seat that took the card is compared with the seats that never used it in that game, "
        "within strata that hold the variant, the deck, the agent, the seat and that standing "
        "fixed, combined with the Mantel-Haenszel odds ratio of winning. A card that only goes "
        "to a seat already ahead therefore meets seats that were as far ahead without it. Games "
        "the card never entered are not counted. What remains is what the card, or the choice "
        "to take it, brought; <code>simulate --restrict CARD</code> separates those two.</p>"
    )


def timing_line(summary: dict[str, Any]) -> str:
    """How long the run took, playing speed apart from start-up."""
    rate = summary.get("games_per_second")
    startup = summary.get("startup_seconds") or 0.0
    session = summary.get("session") or {}
    played = session.get("played", summary["games"])
    loaded = session.get("loaded", 0)
    pooled = summary.get("pooled")
    if pooled:
        return (
            f"{loaded} games read from {len(pooled)} results files (nothing played); "
            f"{summary['seconds']:.1f} s of play when they were made."
        )
    text = f"{played} games played in {summary['seconds']:.1f} s"
    if rate:
        text += f" ({rate:.1f} games/s"
        text += f" after {startup:.1f} s start-up)" if startup else ")"
    text += f" on {summary.get('backend', '')} with {summary.get('workers', '')} workers"
    if loaded:
        text += f"; {loaded} more read from the results file"
    return text + "."


def _describe_extra(value: dict[str, Any]) -> str:
    kind = value["kind"]
    if kind == "number":
        return f"mean {value['mean']:.3g} (min {value['min']:.3g}, max {value['max']:.3g}; {value['count']} games)"
    if kind == "rate":
        return f"{fmt.pct(value['rate'])} {fmt.ci(value['ci'])} of {value['count']} games"
    if kind == "counts":
        total = value["count"] or 1
        return ", ".join(f"{k}: {c} ({100 * c / total:.1f}%)" for k, c in value["counts"].items())
    if kind == "breakdown":
        parts = []
        for name, group in value["groups"].items():
            text = f"{name}: mean {group['mean']:.3g} over {group['count']} games"
            if "counts" in group:
                text += " (" + ", ".join(f"{k}: {c}" for k, c in group["counts"].items()) + ")"
            parts.append(text)
        return "; ".join(parts)
    return "mean per position: " + ", ".join(f"{m:.3g}" for m in value["mean"])


def write_report(summary: dict[str, Any], path: str | Path, command: str = "") -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_html(summary, command), encoding="utf-8")
    return path
