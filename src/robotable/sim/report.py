"""The HTML report: one self-contained file a designer can read in a minute.

Figures are drawn with matplotlib's Agg backend (no display needed) and embedded as base64 PNG,
styles are inline, nothing is fetched from the network. The report reads only the summary
object that `simulate --json` writes, so a report can be rebuilt from saved JSON.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from . import formatting as fmt
from .figures import (
    agent_figure,
    card_figure,
    extras_figure,
    length_figure,
    variant_figure,
)

# The cards study's HTML; challenge_sentences and foresight_sentence moved there and are
# importable from here as before.
from .studies.cards import (  # noqa: F401
    challenge_section,
    challenge_sentences,
    foresight_sentence,
    stratified_section,
    stratified_sentence,
)
from .studies.seats import (  # noqa: F401 - first_mover_sentence, quality_cells, who_moved_first:
    QUALITY_EXPLAINED,  # importable from here as before
    first_mover_section,
    first_mover_sentence,
    quality_cells,
    quality_section,
    seats_section,
    who_moved_first,
)
from .verdicts import verdict_lines

# -- text -------------------------------------------------------------------------------------


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
        lines.extend(_variant_headlines(summary, variants))
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


def _variant_headlines(summary: dict[str, Any], variants: list[dict[str, Any]]) -> list[str]:
    """The headline's sentences on the variants: lengths, first mover, comparisons, cards."""
    lines = []
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
    return lines


def _value(c: dict[str, Any], key: str) -> str:
    value = c[key]
    if c["metric"] == "mean_turns":
        return fmt.decimal(value)
    return fmt.pct(value)


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
    """The whole report: the verdict, the numbers behind it, then a section per study."""
    variants = summary.get("variants", [])
    groups = variants if len(variants) > 1 else [summary]
    parts = _head(summary, command)
    parts.extend(challenge_section(summary))
    parts.extend(first_mover_section(summary, groups))
    parts.extend(quality_section(summary, groups))
    for section in (
        seats_section,
        _agents_section,
        _variants_section,
        _length_section,
        _card_section,
        _extras_section,
        _errors_section,
    ):
        parts.extend(section(summary))
    parts.append(f"<p class='note'>{fmt.escape(timing_line(summary))}</p>")
    parts.append("</body></html>")
    return "\n".join(parts)


def _head(summary: dict[str, Any], command: str) -> list[str]:
    """The title, the command, the verdict in words and the headline numbers."""
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>robotable balance report: {fmt.escape(summary['game'])}</title>",
        f"<style>{STYLE}</style></head><body>",
        f"<h1>Balance report: {fmt.escape(summary['game'])}, {summary['num_players']} seats</h1>",
    ]
    if command:
        parts.append(f"<p class='note'>Command: <code>{fmt.escape(command)}</code></p>")
    # The answer in words first (sim/verdicts.py); the numbers behind it follow.
    parts.append("<h2>Verdict</h2><ul class='verdict'>")
    for line in verdict_lines(summary):
        warning = " class='warning'" if line.startswith("Warning:") else ""
        # A command in backticks ("`-a greedy`") is shown as code.
        text = re.sub(r"`([^`]+)`", r"<code>\1</code>", fmt.escape(line))
        parts.append(f"<li{warning}>{text}</li>")
    parts.append("</ul><h2>The numbers behind it</h2>")
    parts.append("<div class='summary'><ul>")
    parts.extend(f"<li>{fmt.escape(line)}</li>" for line in headline(summary))
    parts.append("</ul></div>")
    return parts


def _agents_section(summary: dict[str, Any]) -> list[str]:
    """Each agent's wins."""
    parts: list[str] = []
    completed = summary.get("completed", 0)
    stats = summary.get("agent_stats", {})
    if stats:
        parts.append("<h2>Agents</h2>")
        if len(stats) > 1 and completed:
            parts.append(agent_figure(summary))
        parts.append(
            fmt.html_table(
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
    return parts


def _variants_section(summary: dict[str, Any]) -> list[str]:
    """The variants side by side, against the first, and the cards that move."""
    parts: list[str] = []
    variants = summary.get("variants", [])
    several = len(variants) > 1
    if several:
        parts.append("<h2>Variants</h2>")
        if all(v["completed"] for v in variants):
            parts.append(variant_figure(variants))
        parts.append(
            fmt.html_table(
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
            parts.append(f"<h3>Against {fmt.escape(variants[0]['label'])}</h3>")
            parts.append(
                fmt.html_table(
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
                fmt.html_table(
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
    return parts


def _length_section(summary: dict[str, Any]) -> list[str]:
    """How long the games were."""
    parts: list[str] = []
    completed = summary.get("completed", 0)
    if completed:
        parts.append("<h2>Game length</h2>")
        parts.append(length_figure(summary))
        lengths = summary["lengths"]
        parts.append(
            fmt.html_table(
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
    return parts


def _card_section(summary: dict[str, Any]) -> list[str]:
    """Card impact: within strata, by standing, and the raw association."""
    parts: list[str] = []
    cards = summary.get("cards", [])
    parts.append("<h2>Card impact</h2>")
    parts.extend(stratified_section(summary.get("card_impact_stratified")))
    parts.extend(stratified_section(summary.get("card_impact_by_standing")))
    if cards:
        parts.append("<h3>Card association (raw)</h3>")
        parts.append(card_figure(cards))
        parts.append(
            fmt.html_table(
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
    return parts


def _extras_section(summary: dict[str, Any]) -> list[str]:
    """The game's own statistics."""
    parts: list[str] = []
    extras = summary.get("extras", {})
    if extras:
        parts.append("<h2>Game-specific statistics</h2>")
        figure = extras_figure(extras)
        if figure:
            parts.append(figure)
        parts.append(
            fmt.html_table(
                ["statistic", "summary"], [[k, _describe_extra(v)] for k, v in extras.items()]
            )
        )
    return parts


def _errors_section(summary: dict[str, Any]) -> list[str]:
    """The games that raised, with their records."""
    parts: list[str] = []
    if summary["errors"]:
        parts.append("<h2>Errors</h2>")
        parts.append(
            fmt.html_table(
                ["variant", "game", "seed", "error", "record"],
                [
                    [e["variant"], e["index"], e["seed"], e["error"], e["record"] or "-"]
                    for e in summary.get("error_messages", [])
                ],
            )
        )
    return parts


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
