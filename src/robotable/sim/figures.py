"""The HTML report's figures: matplotlib's Agg backend (no display needed), each figure embedded
as a base64 PNG so that the report stays one self-contained file."""

from __future__ import annotations

import base64
import io
import math
from typing import Any

from . import formatting as fmt
from .studies.cards import MAX_CARD_ROWS


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
