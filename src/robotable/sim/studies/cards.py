"""The cards study: which cards go with winning, and which a seat misses when barred from them.

- Within strata (`simulate`, always): each card's Mantel-Haenszel odds ratio of winning, the
  seats that used it against those that did not, within strata that hold the variant, deck,
  agent and seat fixed (sim/impact.py); with `--standing`, read at the moment a card was taken.
- Restricted play (`simulate --restrict CARD`): the agent barred from the card in one seat
  against itself in the others, each barred game beside the same game unbarred
  (sim/challenge.py, restricted_play.play_paired).

This module owns the restricted-play study's options (`Restriction`), and both parts' text
(terminal) and HTML sections. The depth study (sim/studies/depth.py) shares the challenge table.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from ...core.narration import plural
from .. import formatting as fmt
from ..challenge import (
    GROUP_CLEARED,
    GROUP_OPEN,
    GROUP_PAST,
    games_to_settle,
    group_bound,
    restrict_agents,
    restriction_summary,
    restriction_warnings,
)
from ..options import UsageProblem
from ..replays import kept_unbarred
from ..results_file import read_header
from ..runner import GameResult, RunSpec
from .depth import depth_sentence, draws

MAX_CARD_ROWS = 24


@dataclass(frozen=True, slots=True)
class Restriction:
    """`simulate --restrict`: BASE barred from `cards` (actions of `kinds` only, when given) in
    one seat, BASE itself in the others."""

    base: str
    cards: tuple[str, ...]
    kinds: tuple[str, ...] = ()
    key = "restriction"  # the summary's key

    def agents(self, seats: int) -> list[str]:
        return restrict_agents(self.base, self.cards, self.kinds, seats)

    def summarize(
        self, spec: RunSpec, results: Sequence[GameResult], events: Sequence[str]
    ) -> dict[str, Any]:
        return restriction_summary(
            spec, results, self.base, list(self.cards), list(self.kinds), events
        )

    def warnings(self, summary: dict[str, Any]) -> list[str]:
        return restriction_warnings(summary)


def restricted_cards(text: str) -> list[str]:
    """The cards of `--restrict`: one name, or several with ';' between them, barred together."""
    cards = [c.strip() for c in text.split(";")]
    if not all(cards) or any("," in c for c in cards):
        raise UsageProblem(
            f"--restrict {text!r}: give a card name, or several with ';' between them "
            "(no empty names, no ',')"
        )
    if len(set(c.lower() for c in cards)) < len(cards):
        raise UsageProblem(f"--restrict {text!r}: a card is named twice")
    return cards


def unbarred_games_kept(paths: list[Path], spec: RunSpec, base: str) -> dict:
    """`--unbarred-from`'s games for this run's deals (sim.replays.kept_unbarred); a file that
    is not a results file, or holds none of them, is one line of error."""
    for path in paths:
        read_header(path, f"--unbarred-from {path}")  # a missing or foreign file: its own line
    kept = kept_unbarred(paths, spec, base)
    if not kept:
        shown = ", ".join(str(p) for p in paths)
        raise UsageProblem(
            f"--unbarred-from {shown}: no unbarred game of these deals with moves kept there "
            f"(a run of {base} on the same game, seats, --seed, --games and rules, written "
            "with --keep-moves, and with --decision-streams if this run has them)"
        )
    return kept


# -- text ---------------------------------------------------------------------------------------


def print_challenge(summary: dict[str, Any], out: Console) -> None:
    """The answer of `--restrict` (a card's importance) or `--depth` (the value of search)."""
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


# -- HTML ---------------------------------------------------------------------------------------


def _named(cards: list[str], last: str = "and") -> str:
    """Card names in a sentence: "A", "A and B", "A, B and C" (or "A, B or C")."""
    return cards[0] if len(cards) == 1 else f"{', '.join(cards[:-1])} {last} {cards[-1]}"


def paired_sentence(cards: list[str], p: dict[str, Any]) -> str:
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
            f"(exact binomial p = {fmt.p_value(r['p_value'])}; {draws(r['draws'])} left out): {verdict}."
        )
        paired = r.get("paired")
        if paired:
            lines.append(paired_sentence(cards, paired))
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
    if summary.get("depth"):
        lines.append(depth_sentence(summary["depth"]))
    return lines


def challenge_section(summary: dict[str, Any]) -> list[str]:
    r, d = summary.get("restriction"), summary.get("depth")
    if not r and not d:
        return []
    parts = ["<h2>Card importance (restricted play)</h2>" if r else "<h2>Depth</h2>"]
    parts.append(
        "<ul>" + "".join(f"<li>{fmt.escape(x)}</li>" for x in challenge_sentences(summary))
    )
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
            fmt.html_table(
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
    parts.append(f"<p class='note'>{fmt.escape(data['method'])}.</p>")
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


def stratified_section(impact: dict[str, Any] | None) -> list[str]:
    if not impact or not impact.get("rows"):
        return []
    parts = [f"<h3>Card impact within strata ({fmt.escape(', '.join(impact['strata_by']))})</h3>"]
    rows = [r for r in impact["rows"] if r["ranked"]][:MAX_CARD_ROWS]
    flagged = [r for r in impact["rows"] if not r["ranked"]]
    parts.append(
        fmt.html_table(
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
            f"them): {fmt.escape(', '.join(r['card'] for r in flagged))}.</p>"
        )
    events = impact["events"]
    used = "any event" if events == "any" else "an event of type " + ", ".join(events)
    if "standing when taken" in impact["strata_by"]:
        parts.append(_standing_note(used))
        foresight = foresight_sentence(impact)
        if foresight:
            parts.append(f"<p class='note'>{fmt.escape(foresight)}</p>")
        return parts
    parts.append(
        "<p class='note'>Seat-games are split into strata that hold the variant, the seat's deck "
        "(when the game records it), the seat's agent and the seat fixed. Within each stratum the "
        f"seat-games whose seat used the card ({fmt.escape(used)} naming the seat and the card) are "
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
        f"{fmt.escape(used)} naming a seat and the card), and every seat enters at its standing just "
        "before that move: its rank by the game's evaluation (1: no seat valued higher). The "
        "seat that took the card is compared with the seats that never used it in that game, "
        "within strata that hold the variant, the deck, the agent, the seat and that standing "
        "fixed, combined with the Mantel-Haenszel odds ratio of winning. A card that only goes "
        "to a seat already ahead therefore meets seats that were as far ahead without it. Games "
        "the card never entered are not counted. What remains is what the card, or the choice "
        "to take it, brought; <code>simulate --restrict CARD</code> separates those two.</p>"
    )
