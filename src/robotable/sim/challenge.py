"""One agent against copies of another: a card's importance and a game's depth.

Both experiments put a **challenger** in one seat and a **field** agent in every other seat,
rotating the challenger through every seat (every seat order of the agents is played, in equal
blocks), and ask how the challenger's share of the decided games compares with the fair share
1/seats (draws are counted apart and left out of the share; an exact binomial test gives p).

- `simulate GAME --restrict CARD --agents BASE`: the challenger is BASE restricted from playing
  CARD (`restricted:BASE,card=CARD`, agents/restricted.py), the field is BASE itself. The card's
  **importance** is how much the restricted agent falls short of its fair share: with two seats,
  the unrestricted agent's win rate minus 0.5. It answers "how much worse does this agent do
  without the card", the designer's question, which no statistic over unrestricted games can
  (they only show what went with playing it).
- `simulate GAME --depth [--depth-iterations N]`: the challenger is `mcts:N`, the field `greedy`
  (or the one agent given with --agents). The searching agent's advantage over the fair share is
  a measure of the game's **depth**: how much looking ahead pays compared with the best move by
  the heuristic alone. Near zero: the game rewards search little (shallow, or decided by luck,
  or the heuristic already sees what matters).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from ..agents.restricted import restricted_spec, split_restricted
from ..core.errors import OptionError
from .runner import GameResult, RunSpec
from .stats import binomial_test, paired_cells, paired_difference, wilson

DEFAULT_DEPTH_ITERATIONS = 200


def restrict_agents(base: str, cards: Sequence[str], kinds: Sequence[str], seats: int) -> list[str]:
    """The restricted BASE first, then BASE in every other seat."""
    return [restricted_spec(base, cards, kinds), *([base] * (seats - 1))]


def depth_agents(iterations: int, baseline: str, seats: int) -> list[str]:
    return [f"mcts:{iterations}", *([baseline] * (seats - 1))]


def challenger_share(spec: RunSpec, results: Sequence[GameResult]) -> dict[str, Any]:
    """How agent 0 of `spec` (the challenger) fared: its share of the decided games, Wilson
    interval, the fair share 1/seats and the exact binomial test against it."""
    done = [r for r in results if r.returns is not None]
    wins = draws = 0
    for r in done:
        if not r.decisive():
            draws += 1
        elif any(r.arrangement[w] == 0 for w in r.winners()):
            wins += 1
    decided = len(done) - draws
    fair = 1 / spec.num_players
    low, high = wilson(wins, decided)
    rate = wins / decided if decided else None
    return {
        "games": len(done),
        "errors": len(results) - len(done),
        "draws": draws,
        "decided": decided,
        "wins": wins,
        "win_rate": rate,
        "ci": [low, high],
        "fair_share": fair,
        "p_value": binomial_test(wins, decided, fair),
    }


def paired_comparison(results: Sequence[GameResult]) -> dict[str, Any] | None:
    """The barred seat's wins beside the same games unbarred (restricted_play.play_paired), or
    None for a run without pairs.

    Only the games in which the bar could act can differ; the others are the unbarred games
    themselves. A win is the seat's alone (or its team's); a draw counts as no win in both.
    The importance is the unbarred win rate minus the barred one over the same games, with
    Newcombe's interval for paired proportions; the exact test is McNemar's (the games the bar
    lost against those it won, a binomial test at one half).
    """
    pairs = [r for r in results if r.paired and r.placebo_returns is not None]
    if not pairs:
        return None
    outcomes = []
    could_act = changed = 0
    for r in pairs:
        seat = r.arrangement.index(0)
        outcomes.append((r.unbarred_won(seat), r.won(seat)))
        could_act += bool(r.bar_could_act and r.bar_could_act[0])
        changed += r.returns != r.placebo_returns
    both, lost, gained, neither = paired_cells(outcomes)
    games = len(pairs)
    diff, low, high = paired_difference(both, lost, gained, neither)
    return {
        "games": games,
        "bar_could_act": could_act,
        "changed": changed,
        "wins_lost": lost,
        "wins_gained": gained,
        "unbarred_wins": both + lost,
        "barred_wins": both + gained,
        "unbarred_win_rate": (both + lost) / games,
        "barred_win_rate": (both + gained) / games,
        "importance": diff,
        "importance_ci": [low, high],
        "p_value": binomial_test(lost, lost + gained, 0.5),
        "method": "each barred game beside the same game unbarred (same seed and seats, the "
        "barred seat played by the base agent); a game in which the barred seat was never "
        "offered the card beside another move is the unbarred game itself; importance = the "
        "seat's unbarred win rate minus its barred win rate over the same games, Newcombe's "
        "interval for paired proportions; exact McNemar test on the games whose winner changed",
    }


# What a group bar's paired interval says of each of its cards, against the fairness pass's 10
# points (docs/balancing.md, "Several cards barred together"): one more choice never makes a player
# who chooses well worse, so the group's importance bounds each card's.
GROUP_CLEARED, GROUP_OPEN, GROUP_PAST = "cleared", "open", "past"


def group_bound(importance_ci: Sequence[float]) -> str:
    """GROUP_CLEARED when the interval's top is at most 10 points, GROUP_PAST when the whole
    interval lies past them, else GROUP_OPEN (more games narrow it). Rounded first: a difference
    of win rates lands a hair either side of exactly 10 points."""
    low, high = (round(x, 9) for x in importance_ci)
    if high <= 0.10:
        return GROUP_CLEARED
    return GROUP_PAST if low > 0.10 else GROUP_OPEN


def games_to_settle(importance: float, importance_ci: Sequence[float], games: int) -> int | None:
    """About how many more paired games would take an interval that straddles the 10 points
    wholly to one side of them, if the point stayed where it is and the interval narrowed as
    1/sqrt(games) (as Newcombe's does, near enough); None when the point sits on the 10 points
    (no number of games settles it) or nothing was decided yet. Rounded to two figures: a
    projection, not a count."""
    low, high = importance_ci
    margin = abs(round(importance, 9) - 0.10)
    if games <= 0 or margin == 0 or high <= low:
        return None
    more = games * ((high - low) / 2 / margin) ** 2 - games
    if more <= 0:
        return 0
    digits = max(0, len(str(math.ceil(more))) - 2)
    return math.ceil(more / 10**digits) * 10**digits


def _card_use(
    spec: RunSpec, results: Sequence[GameResult], cards: Sequence[str], events: Sequence[str]
) -> dict[str, Any]:
    """Seat-games in which an event named the seat and one of `cards`, for the restricted seat
    and for the others: the check that the restriction bit (and that BASE plays the card). With
    several cards barred together, `by_card` also counts each card's own seat-games."""
    names = [c.strip() for c in cards]
    wanted = set(events)
    sides = ("restricted", "unrestricted")
    counts = {side: [0, 0] for side in sides}
    each = {name: {side: 0 for side in sides} for name in names}
    for r in results:
        if r.returns is None:
            continue
        for seat, agent in enumerate(r.arrangement):
            side = "restricted" if agent == 0 else "unrestricted"
            counts[side][0] += 1
            pairs = r.cards[seat] if seat < len(r.cards) else ()
            fielded = {c.lower() for e, c in pairs if not wanted or e in wanted}
            hits = [name for name in names if name.lower() in fielded]
            counts[side][1] += bool(hits)
            for name in hits:
                each[name][side] += 1
    use: dict[str, Any] = {
        side: {"seat_games": n, "used": k, "rate": k / n if n else None}
        for side, (n, k) in counts.items()
    }
    if len(names) > 1:
        use["by_card"] = {
            name: {
                side: {"used": k, "rate": k / counts[side][0] if counts[side][0] else None}
                for side, k in used.items()
            }
            for name, used in each.items()
        }
    return use


def _by_variant(spec: RunSpec, results: Sequence[GameResult], build) -> list[dict[str, Any]]:
    if len(spec.variants) < 2:
        return []
    return [
        {"variant": v.label, **build([r for r in results if r.variant == v.index])}
        for v in spec.variants
    ]


def restriction_summary(
    spec: RunSpec,
    results: Sequence[GameResult],
    base: str,
    cards: Sequence[str],
    kinds: Sequence[str] = (),
    events: Sequence[str] = (),
) -> dict[str, Any]:
    """The `restriction` object of `simulate --restrict --json`."""

    def build(subset: Sequence[GameResult]) -> dict[str, Any]:
        share = challenger_share(spec, subset)
        fair, (low, high) = share["fair_share"], share["ci"]
        rate = share["win_rate"]
        out = {
            **{
                f"restricted_{k}" if k in ("wins", "win_rate", "ci") else k: v
                for k, v in share.items()
            },
            "importance": None if rate is None else fair - rate,
            "importance_ci": None if rate is None else [fair - high, fair - low],
        }
        if spec.num_players == 2:
            out["unrestricted_win_rate"] = None if rate is None else 1 - rate
            out["unrestricted_ci"] = [1 - high, 1 - low]
        out["paired"] = paired_comparison(subset)
        return out

    return {
        "card": ", ".join(cards),
        "cards": list(cards),
        "kinds": list(kinds),
        "base": base,
        "restricted": spec.agents[0],
        "seats": spec.num_players,
        **build(results),
        "card_use": _card_use(spec, results, cards, events),
        "card_use_events": sorted(events) if events else "any",
        "by_variant": _by_variant(spec, results, build),
        "method": "the restricted agent in one seat, the base agent in the others, every seat "
        "order in equal blocks; importance = fair share (1/seats) minus the restricted agent's "
        "share of the decided games (two seats: the unrestricted agent's win rate minus 0.5); "
        "Wilson interval; exact binomial test against the fair share; draws left out",
    }


def restriction_of_run(
    spec: RunSpec, results: Sequence[GameResult], events: Sequence[str] = ()
) -> dict[str, Any] | None:
    """The `restriction` object of a `--restrict` run read back from its results files (`pool`,
    a run stopped early): its agents name the base and the barred card. None for other runs."""
    try:
        parts = split_restricted(spec.agents[0]) if spec.agents else None
    except OptionError:
        return None
    if parts is None or any(agent != parts[0] for agent in spec.agents[1:]):
        return None
    base, cards, kinds = parts
    return restriction_summary(spec, results, base, cards, kinds, events)


def depth_summary(
    spec: RunSpec, results: Sequence[GameResult], iterations: int, baseline: str
) -> dict[str, Any]:
    """The `depth` object of `simulate --depth --json`."""

    def build(subset: Sequence[GameResult]) -> dict[str, Any]:
        share = challenger_share(spec, subset)
        fair, (low, high) = share["fair_share"], share["ci"]
        rate = share["win_rate"]
        return {
            **share,
            "advantage": None if rate is None else rate - fair,
            "advantage_ci": None if rate is None else [low - fair, high - fair],
        }

    return {
        "search": spec.agents[0],
        "iterations": iterations,
        "baseline": baseline,
        "seats": spec.num_players,
        **build(results),
        "by_variant": _by_variant(spec, results, build),
        "method": f"mcts:{iterations} in one seat, {baseline} in the others, every seat order in "
        "equal blocks; the searching agent's share of the decided games with a Wilson interval, "
        "its advantage over the fair share (1/seats) and an exact binomial test; draws left out",
    }


def restriction_warnings(restriction: dict[str, Any]) -> list[str]:
    """A warning when no event ever named the card for the unrestricted agent."""
    if restriction["card_use"]["unrestricted"]["used"]:
        return []
    return [
        f"no event named {restriction['card']} for {restriction['base']} in any game: it never "
        "played the card, or the name is misspelt (names are matched whole, case-insensitively); "
        "the importance is then 0 by construction"
    ]
