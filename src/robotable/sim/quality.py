"""How a game played out, beyond who won: who moved first, why it ended, how close it was.

Two halves. The per-game half runs inside a worker while a game is played (`TurnOrder` watches
who decides when; `lead_changes`, `decision_point` and `margin` read the evaluations sampled by
the runner). The per-run half (`end_reasons`, `quality_summary`) turns many games into the
`quality` object of `simulate --json`.

Definitions (also in docs/balancing.md):
- the **first mover** is `state.stats()["first_mover"]` when a game gives it, else the seat
  deciding at the first step where `turn_number() >= 1` (the first real turn, after any setup
  decisions such as mulligans or a draw for first player), else the seat of the first decision;
- the **turn order** is `stats()["turn_order"]` when given, else the seats in the order in which
  they first own a turn (make the first decision of a turn) from turn 1 on, completed by the
  order of their first decisions from turn 1 on (for games whose turns are rounds);
- the **end** of a game is `turn_cap` when the game's own reason (`end_reason`, `reason`,
  `ended_by`, ... in `stats()`) names a turn cap or limit, else `draw` when no single seat has
  the best return, else `win` (a win by the rules);
- the **leader** at a sample is the seat with the strictly highest `game.evaluate_all` value
  (nobody leads on a tie at the top); at the end the returns decide;
- **lead changes** count how often the leader differs from the previous leader (samples where
  nobody leads are skipped);
- the **decision point** is the fraction of the game's decisions after which the eventual
  winner led at every sample to the end (0: it led from the first decision; 1: only the last
  decision put it ahead);
- the **margin** is the winner's value minus the best other seat's, from the game's score in
  `stats()` when it gives one, else from `game.evaluate_all` on the last state before the end.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

from .stats import describe, integer_histogram, wilson

END_KINDS = ("win", "turn_cap", "draw")

# Words in a game's end reason that mean it stopped at a limit rather than by its rules.
TURN_CAP = re.compile(
    r"turn[\s_-]*(cap|limit)|max[\s_-]*(turns|rounds)|round[\s_-]*(cap|limit)|\blimit\b|"
    r"\bcap\b|time[\s_-]*out",
    re.IGNORECASE,
)
# Where games say why they ended, most specific first; then any other key holding "reason".
REASON_KEYS = ("end_reason", "reason", "ended_by", "end", "duel_end_reasons")
# Where games give a final score per seat (a list of numbers, one per seat).
SCORE_KEYS = ("final_scores", "final_score", "scores", "score", "points", "victory_points")

DECISION_BINS = 10


# -- per game: who moved first ---------------------------------------------------------------


class TurnOrder:
    """Watches (seat, turn number) at every decision until the turn order is known."""

    __slots__ = ("n", "first_decision", "last_turn", "owners", "seen_from_turn1", "seen", "open")

    def __init__(self, num_players: int) -> None:
        self.n = num_players
        self.first_decision: int | None = None
        self.last_turn: int | None = None
        self.owners: list[int] = []  # seats in the order they made the first decision of a turn
        self.seen_from_turn1: list[int] = []  # seats in the order of their first decision, turn>=1
        self.seen: list[int] = []  # seats in the order of their first decision at all
        self.open = True

    def see(self, seat: int, turn: int) -> None:
        if self.first_decision is None:
            self.first_decision = seat
        if seat not in self.seen:
            self.seen.append(seat)
        if turn >= 1:
            if turn != self.last_turn:
                self.last_turn = turn
                if seat not in self.owners:
                    self.owners.append(seat)
            if seat not in self.seen_from_turn1:
                self.seen_from_turn1.append(seat)
        self.open = len(self.owners) < self.n

    def result(self, stats: dict[str, Any]) -> tuple[int | None, str, tuple[int, ...]]:
        """(first mover, where it came from, turn order) at the end of the game."""
        given = stats.get("first_mover")
        if _is_seat(given, self.n):
            first, source = given, "stats"
        elif self.owners:
            first, source = self.owners[0], "first_turn"
        elif self.first_decision is not None:
            first, source = self.first_decision, "first_decision"
        else:
            first, source = None, ""
        order_given = stats.get("turn_order")
        if (
            isinstance(order_given, list | tuple)
            and order_given
            and all(_is_seat(s, self.n) for s in order_given)
            and len(set(order_given)) == len(order_given)
        ):
            order = list(order_given)
        else:
            order = self.owners + [s for s in self.seen_from_turn1 if s not in self.owners]
            if not order:
                order = list(self.seen)
        if first is not None and (not order or order[0] != first):
            order = [first] + [s for s in order if s != first]
        if len(order) == self.n - 1:  # the one seat that never decided comes last
            order += [s for s in range(self.n) if s not in order]
        return first, source, tuple(order)


def _is_seat(value: Any, n: int) -> bool:
    return type(value) is int and 0 <= value < n


# -- per game: leads and margins ---------------------------------------------------------------


def leader(values: Sequence[float]) -> int | None:
    """The seat with the strictly highest value; None on a tie at the top (or no values)."""
    if not values:
        return None
    best = max(values)
    top = [s for s, v in enumerate(values) if v == best]
    return top[0] if len(top) == 1 else None


def lead_changes(leaders: Sequence[int | None]) -> int:
    """How often the leader differs from the previous leader; samples with no leader skipped."""
    changes = 0
    previous: int | None = None
    for who in leaders:
        if who is None:
            continue
        if previous is not None and who != previous:
            changes += 1
        previous = who
    return changes


def decision_point(
    steps: Sequence[int], leaders: Sequence[int | None], winner: int | None, total: int
) -> float | None:
    """The fraction of the game's `total` decisions after which `winner` led at every sample
    to the end. `steps[i]` is the decision before which sample i was taken (`total` for the
    final position). None for a draw or a game without decisions."""
    if winner is None or total <= 0 or not leaders:
        return None
    start = len(leaders)
    while start > 0 and leaders[start - 1] == winner:
        start -= 1
    if start == len(leaders):
        return None  # the winner does not lead at the end: not a sampled lead
    return min(1.0, steps[start] / total)


def margin(values: Sequence[float], winner: int | None) -> float | None:
    """The winner's value minus the best other seat's (None for a draw)."""
    if winner is None or not values or len(values) < 2:
        return None
    others = [v for s, v in enumerate(values) if s != winner]
    return float(values[winner]) - float(max(others))


def game_quality(
    steps: Sequence[int],
    leaders: Sequence[int | None],
    returns: Sequence[float],
    total: int,
    last_values: Sequence[float] | None,
) -> dict[str, Any]:
    """The per-game quality record the runner keeps: lead changes, decision point, margin."""
    winner = leader(returns)
    all_steps = [*steps, total]
    all_leaders = [*leaders, winner]
    return {
        "samples": len(steps),
        "lead_changes": lead_changes(all_leaders),
        "decision_point": decision_point(all_steps, all_leaders, winner, total),
        "margin": margin(last_values, winner) if last_values is not None else None,
    }


# -- per run ----------------------------------------------------------------------------------


def game_reason(stats: dict[str, Any]) -> str | None:
    """The game's own words for why it ended, if its `stats()` says (the last of a list: the
    duel or round that ended the match)."""
    keys = list(REASON_KEYS) + sorted(k for k in stats if "reason" in k and k not in REASON_KEYS)
    for key in keys:
        value = stats.get(key)
        if isinstance(value, list | tuple) and value and all(isinstance(v, str) for v in value):
            value = value[-1]
        if isinstance(value, str) and value:
            return value
    return None


def classify_end(stats: dict[str, Any], returns: Sequence[float]) -> str:
    """'turn_cap', 'draw' or 'win' (see the module's definitions)."""
    reason = game_reason(stats)
    if reason is not None:
        lowered = reason.strip().lower()
        if lowered in END_KINDS:
            return lowered
        if TURN_CAP.search(reason):
            return "turn_cap"
    return "win" if leader(returns) is not None else "draw"


def stats_score(stats: dict[str, Any], num_players: int) -> tuple[str, list[float]] | None:
    """(key, per-seat score) when the game's `stats()` gives a final score per seat."""
    for key in SCORE_KEYS:
        value = stats.get(key)
        if (
            isinstance(value, list | tuple)
            and len(value) == num_players
            and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
        ):
            return key, [float(v) for v in value]
    return None


def end_reasons(records: Sequence[tuple[Any, ...]]) -> dict[str, Any]:
    """Counts and rates of win / turn_cap / draw, and the games' own reasons as they gave them.
    Each record is (stats, returns) or (stats, returns, decisive): a game a team won together
    (GameResult.decisive) is a win, though several seats share its best return."""
    kinds: Counter = Counter()
    given: Counter = Counter()
    for stats, returns, *decisive in records:
        kind = classify_end(stats, returns)
        if kind == "draw" and decisive and decisive[0]:
            kind = "win"
        kinds[kind] += 1
        reason = game_reason(stats)
        if reason is not None:
            given[reason] += 1
    total = len(records)
    return {
        "counts": {k: kinds[k] for k in END_KINDS},
        "rates": {k: kinds[k] / total if total else 0.0 for k in END_KINDS},
        "ci": {k: list(wilson(kinds[k], total)) for k in END_KINDS},
        "game_reasons": dict(sorted(given.items())),
    }


def _shape(values: Sequence[float]) -> dict[str, Any]:
    d = describe(values)
    return {
        "games": d.count,
        "mean": d.mean,
        "sd": d.sd,
        "min": d.min,
        "q1": d.p25,
        "median": d.median,
        "q3": d.p75,
        "max": d.max,
    }


def quality_summary(
    done: Sequence[Any], num_players: int, evaluated: bool, every: int
) -> dict[str, Any]:
    """The `quality` object of one variant (or the pooled run) from its finished GameResults."""
    turns = [r.turns for r in done]
    out: dict[str, Any] = {
        "games": len(done),
        "end_reason": end_reasons([(r.extras, r.returns, r.decisive()) for r in done]),
        "length": {
            "unit": "turns",
            **_shape(turns),
            "hist": integer_histogram(turns),
        },
        "evaluated": evaluated,
        "sample_every": every if evaluated else None,
    }
    scores = [stats_score(r.extras, num_players) for r in done]
    if done and all(s is not None for s in scores):
        keys = sorted({s[0] for s in scores if s is not None})
        margins = [
            m
            for r, s in zip(done, scores)
            if s is not None and (m := margin(s[1], r.sole_winner())) is not None
        ]
        out["margin"] = {"source": f"stats: {', '.join(keys)}", **_shape(margins)}
    elif evaluated:
        margins = [r.quality["margin"] for r in done if r.quality.get("margin") is not None]
        out["margin"] = {"source": "evaluation", **_shape(margins)}
    else:
        out["margin"] = None
    if evaluated:
        changes = [r.quality["lead_changes"] for r in done if "lead_changes" in r.quality]
        counts = Counter(changes)
        out["lead_changes"] = {
            **_shape(changes),
            "counts": {str(k): counts[k] for k in sorted(counts)},
        }
        points = [
            r.quality["decision_point"] for r in done if r.quality.get("decision_point") is not None
        ]
        bins = [0] * DECISION_BINS
        for p in points:
            bins[min(DECISION_BINS - 1, int(math.floor(p * DECISION_BINS)))] += 1
        out["decision_point"] = {
            **_shape(points),
            "hist": {
                "edges": [i / DECISION_BINS for i in range(DECISION_BINS + 1)],
                "counts": bins,
            },
        }
    else:
        out["lead_changes"] = None
        out["decision_point"] = None
    return out
