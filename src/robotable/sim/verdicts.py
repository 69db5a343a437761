"""The lab's answer in words: a few sentences a designer can act on, above the statistics.

`verdicts(summary)` reads the `simulate --json` object (sim/analysis.py) and returns plain
sentences, one line each: whether moving first matters, which cards are strong or weak, how long
a game lasts, how often games stall or draw, and a warning when the agents are too weak to judge
the cards. The terminal summary (sim/text.py) and the HTML report (sim/report.py) open with
them, and `--json` carries them as `verdicts`, so all three say the same thing.

Words, not tests (the tests stay in the tables below the verdict):
- **points** are percentage points of a seat's chance of winning;
- **how sure**: "likely real" when the lab's test says so (the same test as the tables: the
  exact binomial test, Holm-adjusted across turn-order positions, for the first mover; the
  Mantel-Haenszel test, Holm-adjusted across the cards, for a card); "not enough games to tell"
  when it does not and the 95% interval still holds both a 10-point edge and a 10-point loss;
  "could be chance" otherwise;
- a card's points come from its odds ratio within strata (`card_impact_stratified`: deck, agent
  and seat held fixed), read at a seat that would otherwise win its fair share: the odds ratio
  1.5 of the fairness pass's bar is about +10 points at an even 50%;
- agents that play at random or nearly (`random`, `greedy` with noise 0.5 or more, hence
  `easy`) are too weak to judge cards: a card's result then says how random play uses it. With
  only such agents the cards get no verdict, only the warning that says which agents to use.
"""

from __future__ import annotations

import math
from typing import Any

from ..core.narration import plural

# Below this many finished games every verdict is a guess (the run is flagged as too small).
FEW_GAMES = 20
# The fairness pass's bar (docs/balancing.md): an edge this size, in points, matters.
BAR_POINTS = 10.0
# Greedy agents that pick a random move at least this often play close to random.
NEAR_RANDOM_NOISE = 0.5
# Cards named by their verdict, strong and weak each; the rest are counted.
MAX_CARDS = 5
# At least this many cards judged all leaning one way is a sign about the games, not the cards.
ONE_SIDED_CARDS = 4

LIKELY_REAL = "likely real"
COULD_BE_CHANCE = "could be chance"
TOO_FEW = "not enough games to tell"
STRONGER = "use greedy or stronger: `-a greedy`, or `-a hard` for stronger play (slower)"


def verdicts(summary: dict[str, Any]) -> list[str]:
    """The verdict sentences of one run, most important first (see the module's doc)."""
    completed = summary.get("completed", summary.get("games", 0) - summary.get("errors", 0))
    if not completed:
        return ["No game finished: there is nothing to judge yet."]
    lines = []
    if summary.get("interrupted"):
        lines.append(
            f"Interrupted: this verdict rests on {plural(completed, 'finished game')} of "
            f"{summary.get('games_planned', '?')} planned."
        )
    if completed < FEW_GAMES:
        lines.append(
            f"Only {plural(completed, 'game')} finished: not enough games to tell much; run "
            "`--games 200` or more."
        )
    lines.extend(agent_warnings(summary))
    # The experiment (`--restrict`, `--depth`) is the question the run asked: its answer first.
    lines.extend(experiment_verdicts(summary))
    # Several variants each get their own first mover and length: pooled, a variant that
    # stalls or favours the first seat would hide in the others.
    variants = summary.get("variants") or []
    several = len(variants) > 1 and all("first_mover" in v for v in variants)
    groups = [(f"With {v['label']}: ", v) for v in variants] if several else [("", summary)]
    for prefix, group in groups:
        if "first_mover" in group:
            lines.extend(_with(prefix, first_mover_verdict(group["first_mover"])))
    if not all_weak(summary):
        lines.extend(card_verdicts(summary))
    for prefix, group in groups:
        done = group.get("completed", completed)
        if done:
            lines.extend(_with(prefix, length_verdicts(group, done)))
    return lines


def _with(prefix: str, lines: list[str]) -> list[str]:
    """'With rules=printed: moving first ...': a variant's label before its sentences."""
    return [f"{prefix}{line[0].lower()}{line[1:]}" if prefix else line for line in lines]


def verdict_lines(summary: dict[str, Any]) -> list[str]:
    """The summary's own `verdicts` when it carries them (as `--json` writes), else made now
    (a summary saved before verdicts were written)."""
    return list(summary.get("verdicts") or verdicts(summary))


# -- how sure ---------------------------------------------------------------------------------


def sureness(significant: bool, low: float | None, high: float | None) -> str:
    """'likely real', 'not enough games to tell' or 'could be chance' (the module's doc), from
    the test's answer and the interval in points."""
    if significant:
        return LIKELY_REAL
    if low is None or high is None or (low <= -BAR_POINTS and high >= BAR_POINTS):
        return TOO_FEW
    return COULD_BE_CHANCE


def points_text(points: float) -> str:
    """Whole points with their sign: '+12 points', '-6 points', '0 points' (under half a point),
    '+1 point'."""
    whole = round(points)
    if whole == 0:
        return "0 points"
    return f"{whole:+d} point" + ("" if abs(whole) == 1 else "s")


def _number(x: Any) -> float | None:
    """A finite number, or None (the JSON's null and a summary's NaN alike)."""
    if isinstance(x, bool) or not isinstance(x, int | float) or not math.isfinite(x):
        return None
    return float(x)


def _percent(x: float) -> str:
    """Whole percent; a share above 0 that would round to 0% is 'under 1%'."""
    return "under 1%" if 0 < x < 0.005 else f"{100 * x:.0f}%"


# -- the first mover --------------------------------------------------------------------------


def first_mover_verdict(first: dict[str, Any]) -> list[str]:
    """'Moving first is worth +17 points (seat 1 always moves first and wins 65%; a fair share
    is 48%): likely real.'"""
    advantage = _number(first.get("advantage"))
    rate, fair = _number(first.get("win_rate")), _number(first.get("fair_share"))
    if not first.get("games") or advantage is None or rate is None or fair is None:
        return []
    p = _number(first.get("p_adjusted"))
    if p is None:
        p = _number(first.get("p_value"))
    ci = first.get("advantage_ci") or (None, None)
    low, high = (None if c is None else 100 * c for c in (_number(ci[0]), _number(ci[1])))
    sure = sureness(p is not None and p < 0.05, low, high)
    movers = [int(s) for s, count in (first.get("by_seat") or {}).items() if count]
    who = (
        f"seat {movers[0] + 1} always moves first and wins {_percent(rate)}"
        if len(movers) == 1
        else f"the first mover wins {_percent(rate)}"
    )
    fair_within = sure == COULD_BE_CHANCE and low > -BAR_POINTS and high < BAR_POINTS
    return [
        f"Moving first is worth {points_text(100 * advantage)} "
        f"({who}; a fair share is {_percent(fair)}): {sure}"
        + ("; fair within 10 points." if fair_within else ".")
    ]


# -- experiments ------------------------------------------------------------------------------


def _effect(row: dict[str, Any], key: str) -> tuple[float, str] | None:
    """(points, how sure) of an experiment's `key` ('importance', 'advantage') and its test."""
    value = _number(row.get(key))
    if value is None:
        return None
    ci = row.get(f"{key}_ci") or (None, None)
    low, high = (None if _number(c) is None else 100 * c for c in ci)
    p = _number(row.get("p_value"))
    return 100 * value, sureness(p is not None and p < 0.05, low, high)


def experiment_verdicts(summary: dict[str, Any]) -> list[str]:
    """'Core Bot is worth +17 points to greedy (barred from it, greedy wins 33%; a fair share is
    50%): could be chance.' for `--restrict`; the value of search for `--depth`."""
    lines = []
    r = summary.get("restriction")
    effect = _effect(r, "importance") if r else None
    rate, fair = (_number((r or {}).get(k)) for k in ("restricted_win_rate", "fair_share"))
    if effect and rate is not None and fair is not None:
        cards = r.get("cards") or [r["card"]]
        named = cards[0] if len(cards) == 1 else ", ".join(cards[:-1]) + f" and {cards[-1]}"
        verb = "is" if len(cards) == 1 else "together are"
        lines.append(
            f"{named} {verb} worth {points_text(effect[0])} to {r['base']} (barred from "
            f"{'it' if len(cards) == 1 else 'them'}, {r['base']} wins {_percent(rate)}; a fair "
            f"share is {_percent(fair)}): {effect[1]}."
        )
    d = summary.get("depth")
    effect = _effect(d, "advantage") if d else None
    rate, fair = (_number((d or {}).get(k)) for k in ("win_rate", "fair_share"))
    if effect and rate is not None and fair is not None:
        lines.append(
            f"Playing {d['search']} instead of {d['baseline']} is worth {points_text(effect[0])} "
            f"(it wins {_percent(rate)}; a fair share is {_percent(fair)}): {effect[1]}."
        )
    return lines


# -- cards ------------------------------------------------------------------------------------


def card_points(odds_ratio: float, base: float) -> float:
    """A card's odds ratio of winning as points at a seat whose chance is otherwise `base`."""
    with_card = base * odds_ratio / (1 - base + base * odds_ratio)
    return 100 * (with_card - base)


def _base(summary: dict[str, Any]) -> float:
    fair = _number((summary.get("first_seat") or {}).get("fair_share"))
    if fair is not None and 0 < fair < 1:
        return fair
    return 1 / max(2, int(summary.get("num_players") or 2))


def judged_cards(summary: dict[str, Any]) -> list[dict[str, Any]]:
    """Every ranked card of `card_impact_stratified`: its name, points, interval in points and
    how sure, strongest first."""
    impact = summary.get("card_impact_stratified") or {}
    base = _base(summary)
    cards = []
    for row in impact.get("rows") or []:
        # An infinite ratio (no seat with the card ever lost) is null in the JSON: like there,
        # no estimate, so that the terminal, the report and the JSON judge alike.
        ratio = _number(row.get("odds_ratio"))
        if not row.get("ranked") or ratio is None:
            continue
        ci = [_number(c) for c in row.get("ci") or (None, None)]
        low, high = (None if c is None else card_points(c, base) for c in ci)
        cards.append(
            {
                "card": row["card"],
                "points": card_points(ratio, base),
                "low": low,
                "high": high,
                "sure": sureness(bool(row.get("significant_adjusted")), low, high),
            }
        )
    return sorted(cards, key=lambda c: (-c["points"], c["card"]))


def _strength(points: float) -> str:
    whole = round(points)
    if whole == 0:
        return "about even"
    word = "strong" if whole > 0 else "weak"
    return f"slightly {word}" if abs(whole) < 5 else word


def card_verdicts(summary: dict[str, Any]) -> list[str]:
    """'Trip Bot is weak: -30 points to its seat's chance of winning (likely real).' for each
    card the test is sure of; otherwise the highest and lowest with how sure they are; and how
    many cards came up too rarely to judge."""
    impact = summary.get("card_impact_stratified") or {}
    rows = impact.get("rows") or []
    if not rows:
        return []
    cards = judged_cards(summary)
    lines = []
    clear = [c for c in cards if c["sure"] == LIKELY_REAL and round(c["points"]) != 0]
    for side in (
        [c for c in clear if c["points"] > 0],
        [c for c in clear if c["points"] < 0][::-1],
    ):
        for c in side[:MAX_CARDS]:
            lines.append(
                f"{c['card']} is {_strength(c['points'])}: {points_text(c['points'])} to its "
                f"seat's chance of winning ({c['sure']})."
            )
        if len(side) > MAX_CARDS:
            lines.append(
                f"{len(side) - MAX_CARDS} more cards are "
                f"{'strong' if side[0]['points'] > 0 else 'weak'} (likely real): see the numbers "
                "below."
            )
    if cards and not clear:
        top, bottom = cards[0], cards[-1]
        text = (
            f"No card is clearly strong or weak yet: the highest is {top['card']}, "
            f"{points_text(top['points'])} ({top['sure']})"
        )
        if bottom is not top:
            text += (
                f", the lowest {bottom['card']}, {points_text(bottom['points'])} ({bottom['sure']})"
            )
        if max(abs(top["points"]), abs(bottom["points"])) >= BAR_POINTS:
            # An interval's width goes with one over the square root of the games.
            text += f"; four times the games halve the doubt: `--games {4 * _per_variant(summary)}`"
        lines.append(text + ".")
    rare = sum(1 for r in rows if not r.get("ranked"))
    if rare:
        lines.append(f"{plural(rare, 'card')} came up too rarely to judge: {TOO_FEW}.")
    return lines


def _per_variant(summary: dict[str, Any]) -> int:
    variants = max(1, len(summary.get("variants") or []))
    return max(1, int(summary.get("games_planned") or summary.get("games") or 1) // variants)


# -- agents -----------------------------------------------------------------------------------


def near_random(spec: str, game: str) -> bool:
    """Whether an agent spec plays at random or nearly: `random`, `greedy` with noise of 0.5 or
    more, a strength that is one of those in `game` (`easy`), or a restricted one of them. An
    agent this lab does not know is given the benefit of the doubt."""
    from ..agents import concrete_spec, parse_agent_spec
    from ..core.errors import RobotableError

    try:
        kind, params = parse_agent_spec(concrete_spec(spec, game))
    except RobotableError:
        return False
    if kind == "random":
        return True
    return kind == "greedy" and (params.get("noise") or 0) >= NEAR_RANDOM_NOISE


def weak_agents(summary: dict[str, Any]) -> list[str]:
    """The run's agents that play at random or nearly, each once, in the run's order."""
    game = summary.get("game", "")
    agents = dict.fromkeys(summary.get("agents") or [])
    return [a for a in agents if near_random(a, game)]


def all_weak(summary: dict[str, Any]) -> bool:
    agents = summary.get("agents") or []
    return bool(agents) and len(weak_agents(summary)) == len(set(agents))


def agent_warnings(summary: dict[str, Any]) -> list[str]:
    """Why the cards cannot be judged with these agents, and which agents to use instead."""
    weak = weak_agents(summary)
    if weak and all_weak(summary):
        return [
            f"Warning: the agents ({', '.join(weak)}) play at random or nearly, too weak to judge "
            "cards: a card's result here shows how random play uses it, not how strong it is; "
            f"{STRONGER}."
        ]
    if weak:
        return [
            f"Warning: {', '.join(weak)} plays at random or nearly, so its seats say little about "
            f"the cards; for every seat, {STRONGER}."
        ]
    cards = judged_cards(summary)
    if len(cards) >= ONE_SIDED_CARDS and (
        all(c["points"] < 0 for c in cards) or all(c["points"] > 0 for c in cards)
    ):
        way = "weak" if cards[0]["points"] < 0 else "strong"
        return [
            f"Warning: all {len(cards)} cards judged come out {way}, which says more about how "
            "these games go than about the cards (the agents may be too weak to judge cards); "
            f"{STRONGER}."
        ]
    return []


# -- length, draws and stalls -----------------------------------------------------------------


def length_verdicts(summary: dict[str, Any], completed: int) -> list[str]:
    """How long a game lasts, and how many games stalled at the turn cap or were drawn."""
    lines = []
    turns = (summary.get("lengths") or {}).get("turns") or {}
    median, low, high = (_number(turns.get(k)) for k in ("median", "p25", "p75"))
    if median is not None:
        text = f"A game lasts about {median:.0f} turns"
        if low is not None and high is not None and low < high:
            text += f" (half of them between {low:.0f} and {high:.0f} turns)"
        lines.append(text + ".")
    end = ((summary.get("quality") or {}).get("end_reason") or {}).get("counts") or {}
    capped = int(end.get("turn_cap") or 0)
    draws = int(end.get("draw", summary.get("draws") or 0) or 0)
    if capped:
        lines.append(
            f"{capped} of {plural(completed, 'game')} ({_percent(capped / completed)}) stopped at "
            "the turn cap without a winner: games can stall."
        )
    # A draw now and then is no finding: from one game in a hundred on.
    if draws and draws / completed >= 0.01:
        lines.append(
            f"{draws} of {plural(completed, 'game')} ({_percent(draws / completed)}) ended in a "
            "draw."
        )
    return lines
