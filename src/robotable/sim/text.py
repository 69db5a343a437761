"""The balance lab's answers as text: the terminal summary, the ladder table, JSON."""

from __future__ import annotations

import json
import math
from typing import Any

from rich.console import Console
from rich.table import Table

from . import formatting as fmt
from .studies.cards import (  # causal_next_step: moved there, importable from here as before
    causal_next_step,  # noqa: F401
    print_causal_next_step,
    print_challenge,
    print_stratified,
)
from .studies.seats import print_first_mover, print_quality, print_seats


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


def print_summary(summary: dict[str, Any], out: Console) -> None:
    """The text summary: the first mover and game quality first, then seats, agents, variants,
    cards and the headline sentences."""
    from .report import headline, rules_phrase, timing_line
    from .verdicts import verdict_lines

    def say(text: str) -> None:
        out.print(text, markup=False, highlight=False, soft_wrap=True)

    rules = f"{rules_phrase(summary)}, " if rules_phrase(summary) else ""
    title = (
        f"{summary['game']}: {summary['games']} games, {summary['num_players']} seats, "
        f"{rules}agents {', '.join(summary['agents'])}"
    )
    if summary.get("interrupted"):
        title += f" (INTERRUPTED: {summary['games']} of {summary['games_planned']} games)"
    say(title)
    # The answer in words first (sim/verdicts.py); the numbers behind it follow.
    say("Verdict:")
    for line in verdict_lines(summary):
        say(f"- {line}")
    say("The numbers behind it:")
    print_challenge(summary, out)
    variants = summary["variants"]
    groups = variants if len(variants) > 1 else [{**summary, "label": "all games"}]
    print_first_mover(groups, out)
    print_quality(groups, out)
    print_seats(summary, out)
    _print_agents(summary, out)
    _print_variants(summary, out)
    _print_cards(summary, out)
    for line in headline(summary)[1:]:
        say(f"- {line}")
    say(timing_line(summary))


def _print_agents(summary: dict[str, Any], out: Console) -> None:
    """Each agent's wins per seat-game, when there are several."""
    stats = summary["agent_stats"]
    if len(stats) > 1:
        table = Table(title="agents (per seat-game)", title_justify="left")
        # An agent's name is its spec, often wider than the terminal's share for it, and the
        # same spec listed twice differs only by its "#2" at the end: fold it, never cut it.
        table.add_column("agent", overflow="fold")
        for column in ("seat-games", "wins", "win rate", "95% interval"):
            table.add_column(column, justify="right")
        for name, a in stats.items():
            table.add_row(
                name, str(a["seat_games"]), str(a["wins"]), fmt.pct(a["win_rate"]), fmt.ci(a["ci"])
            )
        out.print(table)


def _print_variants(summary: dict[str, Any], out: Console) -> None:
    """The variants side by side, against the first, and the cards that move most."""
    variants = summary["variants"]
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
                " / ".join(fmt.pct(r) for r in v["win_rate"]),
                fmt.points(fm["advantage"]),
                fmt.p_value(fm["p_value"]),
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
                    fmt.p_value(c["p_value"]),
                    fmt.p_value(c["p_adjusted"]),
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
                "-" if c is None else f"{100 * c['difference']:+.1f} {fmt.ci(c['difference_ci'])}"
                for c in row["by_variant"]
            ]
            table.add_row(row["card"], row["event"], *cells_)
        out.print(table)


def _print_cards(summary: dict[str, Any], out: Console) -> None:
    """Card impact: within strata, by standing, the next step, and the raw association."""
    from .studies.cards import foresight_sentence

    def say(text: str) -> None:
        out.print(text, markup=False, highlight=False, soft_wrap=True)

    print_stratified(summary.get("card_impact_stratified"), out)
    print_stratified(summary.get("card_impact_by_standing"), out)
    foresight = foresight_sentence(summary.get("card_impact_by_standing"))
    if foresight:
        say(f"  {foresight}")
    print_causal_next_step(summary, out)
    cards = summary["cards"]
    if cards:
        table = Table(
            title="card association (raw: mixes decks, agents and seats; not cause)",
            title_justify="left",
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
                fmt.pct(r["win_rate_with"]),
                fmt.pct(r["win_rate_without"]),
                fmt.points(r["difference"]),
                fmt.ci(r["difference_ci"]),
                fmt.p_value(r.get("p_adjusted")),
            )
        out.print(table)
