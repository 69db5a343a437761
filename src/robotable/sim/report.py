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
from pathlib import Path
from typing import Any

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


def _pct(x: float | None) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    return f"{100 * x:.1f}%"


def _ci(ci) -> str:
    if not ci:
        return ""
    return f"[{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]"


def _points(x: float) -> str:
    return f"{100 * x:+.1f} points"


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
    ax.bar([f"seat {s}" for s in seats], rates, yerr=[low, high], capsize=5, color="#4c78a8")
    fair = summary["first_seat"]["fair_share"]
    if fair is not None and not math.isnan(fair):
        ax.axhline(fair, color="#e45756", linestyle="--", label=f"fair share {_pct(fair)}")
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
            label=f"seat {seat}",
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


def headline(summary: dict[str, Any]) -> list[str]:
    """The minute-long read: a few sentences, each with its number and interval."""
    lines = []
    completed = summary.get("completed", summary["games"] - summary["errors"])
    agents = ", ".join(summary["agents"])
    variants = summary.get("variants", [])
    extra = f" over {len(variants)} variants" if len(variants) > 1 else ""
    lines.append(
        f"{summary['games']} games of {summary['game']} with {summary['num_players']} seats{extra} "
        f"(agents: {agents}; seed {summary.get('seed', 0)}): {completed} finished, "
        f"{summary['errors']} raised an error, {summary['draws']} were draws."
    )
    first = summary["first_seat"]
    if completed:
        verdict = (
            "seat order matters"
            if first["p_value"] < 0.05
            else "no evidence that seat order matters"
        )
        lines.append(
            f"First seat: wins {_pct(first['win_rate'])} {_ci(first['ci'])} against a fair share of "
            f"{_pct(first['fair_share'])}, {_points(first['advantage'])} "
            f"(exact binomial p = {first['p_value']:.3g}): {verdict}."
        )
        turns = summary["lengths"]["turns"]
        actions = summary["lengths"]["actions"]
        lines.append(
            f"Length: median {turns['median']:.0f} turns (10-90%: {turns['p10']:.0f}-{turns['p90']:.0f}), "
            f"{actions['median']:.0f} actions; longest {turns['max']:.0f} turns."
        )
    stats = summary.get("agent_stats", {})
    if len(stats) > 1:
        best = max(stats, key=lambda a: stats[a]["score_rate"])
        lines.append(
            f"Strongest agent: {best}, winning {_pct(stats[best]['win_rate'])} "
            f"{_ci(stats[best]['ci'])} of its seat-games."
        )
    cards = summary.get("cards", [])
    significant = [r for r in cards if r["significant"] and r["event"] != "any"]
    if cards:
        top = cards[0]
        bottom = cards[-1]
        lines.append(
            f"Cards: {len(significant)} (card, event) pairs differ significantly. Highest: "
            f"{top['card']} ({top['event']}) {_points(top['difference'])} {_ci(top['difference_ci'])}; "
            f"lowest: {bottom['card']} ({bottom['event']}) {_points(bottom['difference'])} "
            f"{_ci(bottom['difference_ci'])}. Association, not cause: see the note below the table."
        )
    if len(variants) > 1:
        longest = max(variants, key=lambda v: v["mean_turns"])
        shortest = min(variants, key=lambda v: v["mean_turns"])
        fair_gap = max(variants, key=lambda v: abs(v["first_seat"]["advantage"] or 0))
        lines.append(
            f"Variants: mean length from {shortest['mean_turns']:.2f} turns ({shortest['label']}) "
            f"to {longest['mean_turns']:.2f} ({longest['label']}); the largest first-seat effect "
            f"is with {fair_gap['label']} ({_points(fair_gap['first_seat']['advantage'])}, "
            f"p = {fair_gap['first_seat']['p_value']:.3g})."
        )
        shifts = summary.get("card_shifts", [])
        if shifts:
            top = shifts[0]
            moves = " vs ".join(
                f"{_points(c['difference'])} {_ci(c['difference_ci'])} ({c['variant']})"
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
    return [
        [
            f"seat {s}",
            summary["wins"][s],
            _pct(summary["win_rate"][s]),
            _ci(summary["win_rate_ci"][s]),
            f"{summary['score_rate'][s]:.3f}",
        ]
        for s in range(len(summary["wins"]))
    ]


def _variant_rows(variants: list[dict[str, Any]]) -> list[list[Any]]:
    rows = []
    for v in variants:
        first = v["first_seat"]
        rows.append(
            [
                v["label"],
                v["completed"],
                v["errors"],
                " / ".join(_pct(r) for r in v["win_rate"]),
                _pct(v["draw_rate"]),
                f"{_points(first['advantage'])} (p={first['p_value']:.3g})",
                f"{v['lengths']['turns']['median']:.0f}",
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
    parts.append("<div class='summary'><ul>")
    parts.extend(f"<li>{_esc(line)}</li>" for line in headline(summary))
    parts.append("</ul></div>")

    completed = summary.get("completed", 0)
    parts.append("<h2>Seats</h2>")
    if completed:
        parts.append(seat_figure(summary))
    parts.append(
        _table(["seat", "wins", "win rate", "95% interval", "mean return"], _seat_rows(summary))
    )
    parts.append(
        "<p class='note'>A seat wins when its return is the single best; ties at the top are draws. "
        "Seat assignments rotate so every agent sits in every seat equally often.</p>"
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
                    [a, s["seat_games"], s["wins"], s["draws"], _pct(s["win_rate"]), _ci(s["ci"])]
                    for a, s in stats.items()
                ],
            )
        )

    variants = summary.get("variants", [])
    if len(variants) > 1:
        parts.append("<h2>Variants</h2>")
        parts.append(variant_figure(variants))
        parts.append(
            _table(
                [
                    "variant",
                    "games",
                    "errors",
                    "win rate by seat",
                    "draws",
                    "first-seat advantage",
                    "median turns",
                    "mean actions",
                ],
                _variant_rows(variants),
            )
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
                            else f"{_points(c['difference'])} {_ci(c['difference_ci'])}"
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
    if cards:
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
                ],
                [
                    [
                        r["card"],
                        r["event"],
                        r["seat_games_with"],
                        _pct(r["win_rate_with"]),
                        r["seat_games_without"],
                        _pct(r["win_rate_without"]),
                        _points(r["difference"]),
                        _ci(r["difference_ci"]),
                    ]
                    for r in cards
                ],
            )
        )
        parts.append(
            "<p class='note'>A seat-game 'used' a card for an event type when any event of that type "
            "named the seat and the card ('any': any event at all). The difference compares win rates "
            "with and without; it shows association, not cause (a card seen in long games or by the "
            "stronger agent looks better for those reasons). Pairs with fewer than 10 seat-games on "
            "either side are left out.</p>"
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
    parts.append(
        f"<p class='note'>{summary['games']} games in {summary['seconds']:.1f} s on "
        f"{_esc(summary.get('backend', ''))} ({summary.get('workers', '')} workers).</p>"
    )
    parts.append("</body></html>")
    return "\n".join(parts)


def _describe_extra(value: dict[str, Any]) -> str:
    kind = value["kind"]
    if kind == "number":
        return f"mean {value['mean']:.3g} (min {value['min']:.3g}, max {value['max']:.3g}; {value['count']} games)"
    if kind == "rate":
        return f"{_pct(value['rate'])} {_ci(value['ci'])} of {value['count']} games"
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
