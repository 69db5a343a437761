"""The balance lab's answers as text: the terminal summary, the ladder table, JSON."""

from __future__ import annotations

import json
import math
from typing import Any

from rich.console import Console
from rich.table import Table


def json_safe(value: Any) -> Any:
    """NaN and infinities are not JSON: they become null."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {str(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(v) for v in value]
    return value


def dump_json(data: dict[str, Any]) -> str:
    return json.dumps(json_safe(data), indent=1, allow_nan=False)


# -- running with a progress bar -------------------------------------------------------------


def _pct(x: float | None) -> str:
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.1f}%"


def _ci(ci) -> str:
    return f"[{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]" if ci else ""


def _p(p: float | None) -> str:
    return "n/a" if p is None or (isinstance(p, float) and math.isnan(p)) else f"{p:.3g}"


def _points(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:+.1f} pts"


def _adv(row: dict[str, Any]) -> str:
    if row.get("advantage") is None:
        return "n/a"
    return f"{100 * row['advantage']:+.1f} pts {_ci(row['advantage_ci'])}"


def print_summary(summary: dict[str, Any], out: Console) -> None:
    """The text summary: the first mover and game quality first, then seats, agents, variants,
    cards and the headline sentences."""
    from .report import QUALITY_EXPLAINED, headline, quality_cells, timing_line, who_moved_first

    def say(text: str) -> None:
        out.print(text, markup=False, highlight=False, soft_wrap=True)

    title = (
        f"{summary['game']}: {summary['games']} games, {summary['num_players']} seats, "
        f"agents {', '.join(summary['agents'])}"
    )
    if summary.get("interrupted"):
        title += f" (INTERRUPTED: {summary['games']} of {summary['games_planned']} games)"
    say(title)
    variants = summary["variants"]
    groups = variants if len(variants) > 1 else [{**summary, "label": "all games"}]

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
            _pct(f["win_rate"]),
            _ci(f["ci"]),
            _points(f.get("advantage")),
            _p(f["p_value"]),
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
                _pct(p["win_rate"]),
                _ci(p["ci"]),
                _adv(p),
                _p(p["p_value"]),
                _p(p["p_adjusted"]),
            )
        out.print(table)

    quality = Table(title="game quality", title_justify="left")
    quality.add_column("measure")
    for g in groups:
        quality.add_column(g["label"])
    cells = [quality_cells(g["quality"]) for g in groups]
    for name in QUALITY_EXPLAINED:
        quality.add_row(name, *(c[name] for c in cells))
    out.print(quality)

    seats = Table(title="seats (seat 1 is the first listed seat)", title_justify="left")
    for column in ("seat", "wins", "win rate", "95% interval", "advantage", "p", "p Holm"):
        seats.add_column(column, justify="right" if column != "seat" else "left")
    tests = summary.get("seat_tests") or [{} for _ in summary["wins"]]
    for s, wins in enumerate(summary["wins"]):
        seats.add_row(
            f"seat {s + 1}",
            str(wins),
            _pct(summary["win_rate"][s]),
            _ci(summary["win_rate_ci"][s]),
            _adv(tests[s]),
            _p(tests[s].get("p_value")),
            _p(tests[s].get("p_adjusted")),
        )
    seats.add_row("draws", str(summary["draws"]), _pct(summary["draw_rate"]), "", "", "", "")
    out.print(seats)
    stats = summary["agent_stats"]
    if len(stats) > 1:
        table = Table(title="agents (per seat-game)", title_justify="left")
        for column in ("agent", "seat-games", "wins", "win rate", "95% interval"):
            table.add_column(column, justify="left" if column == "agent" else "right")
        for name, a in stats.items():
            table.add_row(
                name, str(a["seat_games"]), str(a["wins"]), _pct(a["win_rate"]), _ci(a["ci"])
            )
        out.print(table)
    if len(variants) > 1:
        table = Table(title="variants", title_justify="left")
        for column in (
            "variant",
            "games",
            "errors",
            "win rate by seat",
            "first mover",
            "p",
            "median turns",
        ):
            table.add_column(column, justify="left" if column == "variant" else "right")
        for v in variants:
            fm = v["first_mover"]
            table.add_row(
                v["label"],
                str(v["completed"]),
                str(v["errors"]),
                " / ".join(_pct(r) for r in v["win_rate"]),
                f"{100 * (fm['advantage'] or 0):+.1f} pts",
                _p(fm["p_value"]),
                f"{v['lengths']['turns']['median'] or 0:.0f}",
            )
        out.print(table)
        comparisons = summary.get("variant_comparisons", [])
        if comparisons:
            from .report import _diff

            table = Table(
                title=f"variants against {variants[0]['label']} (Holm-adjusted p)",
                title_justify="left",
            )
            for column in ("variant", "measure", "difference", "p", "p Holm"):
                table.add_column(
                    column, justify="left" if column in ("variant", "measure") else "right"
                )
            for c in comparisons:
                table.add_row(
                    c["variant"],
                    c["metric"].replace("_", " "),
                    _diff(c),
                    _p(c["p_value"]),
                    _p(c["p_adjusted"]),
                )
            out.print(table)
    shifts = summary.get("card_shifts", [])
    if shifts:
        table = Table(title="card impact by variant (largest movements)", title_justify="left")
        table.add_column("card")
        table.add_column("event")
        for v in variants:
            table.add_column(v["label"], justify="right")
        for row in shifts[:6]:
            cells_ = [
                "-" if c is None else f"{100 * c['difference']:+.1f} {_ci(c['difference_ci'])}"
                for c in row["by_variant"]
            ]
            table.add_row(row["card"], row["event"], *cells_)
        out.print(table)
    cards = summary["cards"]
    if cards:
        table = Table(
            title="card impact (largest differences; association, not cause)", title_justify="left"
        )
        for column in (
            "card",
            "event",
            "with",
            "win rate with",
            "win rate without",
            "difference",
            "95% interval",
            "p Holm",
        ):
            table.add_column(column, justify="left" if column in ("card", "event") else "right")
        shown = cards[:5] + [r for r in cards[-5:] if r not in cards[:5]]
        for r in shown:
            table.add_row(
                r["card"],
                r["event"],
                str(r["seat_games_with"]),
                _pct(r["win_rate_with"]),
                _pct(r["win_rate_without"]),
                f"{100 * r['difference']:+.1f} pts",
                _ci(r["difference_ci"]),
                _p(r.get("p_adjusted")),
            )
        out.print(table)
    for line in headline(summary)[1:]:
        say(f"- {line}")
    say(timing_line(summary))


# -- commands ---------------------------------------------------------------------------------


def print_ladder(result: dict[str, Any], labels: list[str], out: Console) -> None:
    level = int(round(result["level"] * 100))
    table = Table(
        title=f"{result['game']} ladder: {result['games']} games, {result['num_players']} seats, "
        f"Bradley-Terry on the Elo scale, {level}% bootstrap intervals",
        title_justify="left",
    )
    for column in ("rank", "agent", "elo", "interval", "pairwise score", "pair games"):
        table.add_column(column, justify="left" if column == "agent" else "right")
    for r in result["ratings"]:
        low, high = r["ci"]
        interval = "" if low is None else f"[{low:.0f}, {high:.0f}]"
        table.add_row(
            str(r["rank"]),
            r["agent"],
            f"{r['elo']:.0f}",
            interval,
            _pct(r["score"]),
            str(r["pair_games"]),
        )
    out.print(table)
    matrix = Table(title="pairwise score (row against column)", title_justify="left")
    matrix.add_column("")
    for name in labels:
        matrix.add_column(name, justify="right")
    for a, name in enumerate(labels):
        row = result["pairwise_score"][a]
        matrix.add_row(name, *(_pct(v) if v is not None else "-" for v in row))
    out.print(matrix)
