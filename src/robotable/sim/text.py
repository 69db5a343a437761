"""The balance lab's answers as text: the terminal summary, the ladder table, JSON."""

from __future__ import annotations

import json
import math
import shlex
from typing import Any

from rich.console import Console
from rich.table import Table

from . import formatting as fmt


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


def _adv(row: dict[str, Any]) -> str:
    if row.get("advantage") is None:
        return "n/a"
    return f"{fmt.points(row['advantage'])} {fmt.ci(row['advantage_ci'])}"


def print_summary(summary: dict[str, Any], out: Console) -> None:
    """The text summary: the first mover and game quality first, then seats, agents, variants,
    cards and the headline sentences."""
    from .report import (
        QUALITY_EXPLAINED,
        foresight_sentence,
        headline,
        quality_cells,
        rules_phrase,
        timing_line,
        who_moved_first,
    )
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
            fmt.pct(summary["win_rate"][s]),
            fmt.ci(summary["win_rate_ci"][s]),
            _adv(tests[s]),
            fmt.p_value(tests[s].get("p_value")),
            fmt.p_value(tests[s].get("p_adjusted")),
        )
    seats.add_row("draws", str(summary["draws"]), fmt.pct(summary["draw_rate"]), "", "", "", "")
    out.print(seats)
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
    for line in headline(summary)[1:]:
        say(f"- {line}")
    say(timing_line(summary))


def print_challenge(summary: dict[str, Any], out: Console) -> None:
    """The answer of `--restrict` (a card's importance) or `--depth` (the value of search)."""
    from .report import challenge_sentences

    restriction, depth = summary.get("restriction"), summary.get("depth")
    if not restriction and not depth:
        return
    data = restriction or depth
    title = (
        f"card importance: {restriction['restricted']} against {restriction['base']}"
        if restriction
        else f"depth: {depth['search']} against {depth['baseline']}"
    )
    table = Table(title=title, title_justify="left")
    several = bool(data["by_variant"])
    columns = ["variant"] if several else []
    columns += ["decided", "draws", "restricted wins" if restriction else "search wins"]
    columns += ["95% interval", "importance" if restriction else "advantage", "95% interval ", "p"]
    for column in columns:
        table.add_column(column, justify="left" if column == "variant" else "right")
    for row in data["by_variant"] or [data]:
        if restriction:
            rate, ci = row["restricted_win_rate"], row["restricted_ci"]
            effect, effect_ci = row["importance"], row["importance_ci"]
        else:
            rate, ci = row["win_rate"], row["ci"]
            effect, effect_ci = row["advantage"], row["advantage_ci"]
        cells = [row["variant"]] if several else []
        cells += [str(row["decided"]), str(row["draws"]), fmt.pct(rate), fmt.ci(ci)]
        cells += [fmt.points(effect), fmt.signed_ci(effect_ci), fmt.p_value(row["p_value"])]
        table.add_row(*cells)
    out.print(table)
    if restriction and restriction.get("paired"):
        print_paired(restriction, several, out)
    for line in challenge_sentences(summary):
        out.print(f"- {line}", markup=False, highlight=False, soft_wrap=True)


def print_paired(restriction: dict[str, Any], several: bool, out: Console) -> None:
    """The barred games beside the same games unbarred (challenge.paired_comparison)."""
    table = Table(
        title="the same games unbarred, game by game (McNemar's exact p)", title_justify="left"
    )
    columns = ["variant"] if several else []
    columns += ["games", "bar acted", "wins unbarred, barred", "lost, gained"]
    columns += ["importance", "95% interval", "p"]
    for column in columns:
        table.add_column(column, justify="left" if column == "variant" else "right")
    for row in restriction["by_variant"] or [restriction]:
        p = row.get("paired")
        if not p:
            continue
        cells = [row["variant"]] if several else []
        cells += [str(p["games"]), str(p["bar_could_act"])]
        cells += [f"{p['unbarred_wins']}, {p['barred_wins']}"]
        cells += [f"{p['wins_lost']}, {p['wins_gained']}"]
        cells += [
            fmt.points(p["importance"]),
            fmt.signed_ci(p["importance_ci"]),
            fmt.p_value(p["p_value"]),
        ]
        table.add_row(*cells)
    out.print(table)


def print_stratified(impact: dict[str, Any] | None, out: Console, limit: int = 5) -> None:
    """The Mantel-Haenszel card table: the top and bottom ranked cards, then how many cards
    were too rare to rank."""
    if not impact or not impact.get("rows"):
        return
    ranked = [r for r in impact["rows"] if r["ranked"]]
    flagged = [r for r in impact["rows"] if not r["ranked"]]
    by = ", ".join(impact["strata_by"])
    table = Table(
        title=f"card impact within strata ({by}): Mantel-Haenszel odds ratio of winning",
        title_justify="left",
    )
    for column in ("card", "strata", "seat-games", "with card", "odds ratio", "95% interval"):
        table.add_column(column, justify="left" if column == "card" else "right")
    table.add_column("p Holm", justify="right")
    # The extremes, and every card past the fairness pass's bar wherever it ranks.
    past = set(impact.get("past_10_points", ()))
    ends = ranked[:limit] + ranked[-limit:]
    shown = [r for r in ranked if r in ends or r["card"] in past]
    for r in shown:
        table.add_row(
            r["card"],
            str(r["informative_strata"]),
            str(r["games"]),
            str(r["seat_games_with"]),
            fmt.ratio(r["odds_ratio"]),
            fmt.ratio_ci(r["ci"]),
            fmt.p_value(r["p_adjusted"]),
        )
    out.print(table)
    if past:
        out.print(
            f"  past +/-10 points (odds ratio outside 0.67-1.5, Holm p < 0.05): "
            f"{', '.join(impact['past_10_points'])}",
            markup=False,
            highlight=False,
            soft_wrap=True,
        )
    if flagged:
        names = ", ".join(r["card"] for r in flagged[:8]) + (", ..." if len(flagged) > 8 else "")
        out.print(
            f"  {len(flagged)} cards not ranked ({impact['min_strata']}+ informative strata and "
            f"{impact['min_games']}+ seat-games needed; too few strata): {names}",
            markup=False,
            highlight=False,
            soft_wrap=True,
        )


def causal_next_step(summary: dict[str, Any]) -> str | None:
    """The command that tells a flagged card from the seats that take it: the same agent barred
    from it in one seat (`--restrict`). None when nothing is flagged, or when the games mixed
    agents (which one to bar would be a guess)."""
    impact = summary.get("card_impact_stratified") or {}
    past = impact.get("past_10_points") or []
    agents = set(summary.get("agents") or [])
    if not past or len(agents) != 1:
        return None
    # Several cards flagged above the bar are barred together, one run for all of them: the
    # group's importance bounds each card's (docs/balancing.md, "Several cards barred together").
    ratios = {r["card"]: r.get("odds_ratio") for r in impact.get("rows", [])}
    above = [c for c in past if isinstance(ratios.get(c), int | float) and ratios[c] > 1]
    cards = ";".join(above) if len(above) > 1 else past[0]
    return (
        f"robotable simulate {summary['game']} --restrict {shlex.quote(cards)} "
        f"--agents {shlex.quote(agents.pop())} --players {summary['num_players']} --games 200"
    )


def print_causal_next_step(summary: dict[str, Any], out: Console) -> None:
    command = causal_next_step(summary)
    if command is None:
        return
    out.print(
        "  A flag is an association: a card that a seat already ahead takes is flagged with "
        "its buyer's lead. To see whether the card itself matters where a seat chooses it, bar it in one seat and read "
        "the importance (the cards flagged above barred together, one run whose importance "
        f"bounds each card's; a card flagged below, alone): {command}",
        markup=False,
        highlight=False,
        soft_wrap=True,
    )


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
            fmt.pct(r["score"]),
            str(r["pair_games"]),
        )
    out.print(table)
    matrix = Table(title="pairwise score (row against column)", title_justify="left")
    matrix.add_column("")
    for name in labels:
        matrix.add_column(name, justify="right")
    for a, name in enumerate(labels):
        row = result["pairwise_score"][a]
        matrix.add_row(name, *(fmt.pct(v) if v is not None else "-" for v in row))
    out.print(matrix)


def print_tune(result: dict[str, Any], out: Console) -> None:
    """Every trial, then the best settings with their measured intervals."""

    def say(text: str) -> None:
        out.print(text, markup=False, highlight=False, soft_wrap=True)

    say(
        f"tune {result['game']}: {len(result['trials'])} trials of {result['games_per_trial']} "
        f"games, {result['num_players']} seats, agents {', '.join(result['agents'])}, seed "
        f"{result['seed']} ({result['sampler']})"
    )
    names = [p["name"] for p in result["params"]]
    table = Table(title="trials (objective: 0 meets every target)", title_justify="left")
    table.add_column("trial", justify="right")
    for name in names:
        table.add_column(name, justify="right")
    for target in result["targets"]:
        table.add_column(target["metric"], justify="right")
    table.add_column("objective", justify="right")
    for t in result["trials"]:
        table.add_row(
            str(t["number"]) + (" (again)" if t["repeat"] else ""),
            *(_value(t["params"][n]) for n in names),
            *(_measured(row) for row in t["targets"]),
            f"{t['objective']:.3g}",
        )
    out.print(table)
    best = result["best"]
    settings = ", ".join(f"{n}={_value(best['params'][n])}" for n in names)
    say(f"best: trial {best['number']}: {settings} (objective {best['objective']:.3g})")
    for label, data in (("measured", best), ("confirmed", result.get("confirm"))):
        if not data:
            continue
        if label == "confirmed":
            say(
                f"confirmed on {data['games']} fresh games (seed {data['seed']}): objective "
                f"{data['objective']:.3g}"
            )
        fm, cap, turns = data["first_mover"], data["turn_cap_rate"], data["turns"]
        say(
            f"  first mover wins {fmt.pct(fm['win_rate'])} {fmt.ci(fm['ci'])} of {fm['games']} games; "
            f"turn cap {fmt.pct(cap['rate'])} {fmt.ci(cap['ci'])}; draws {fmt.pct(data['draw_rate'])}; "
            f"length median {fmt.number(turns['median'])} turns (quartiles {fmt.number(turns['q1'])}-"
            f"{fmt.number(turns['q3'])}, range {fmt.number(turns['min'])}-{fmt.number(turns['max'])}); "
            f"{data['errors']} errors"
        )
        for row in data["targets"]:
            state = "met" if row["met"] else f"off by {fmt.number(row['distance'])}"
            say(f"  target {row['target']}: {_measured(row)} ({state})")
    say(f"{result['seconds']:.1f} s")


def _value(x: Any) -> str:
    return f"{x:.4g}" if isinstance(x, float) else str(x)


def _measured(row: dict[str, Any]) -> str:
    value = row["measured"]
    if value is None:
        return "n/a"
    if row.get("ci"):
        return f"{fmt.pct(value)} {fmt.ci(row['ci'])}"
    return fmt.number(value)
