"""From game results to the numbers a designer reads: the `simulate --json` object.

Definitions (also in docs/balancing.md):
- a game **errors** when it raised; it is left out of every statistic below and counted apart;
- a seat **wins** a game when its return is the single best one; a tie at the top is a **draw**;
- **win rate** = wins / completed games, with a Wilson 95% interval;
- the **first-seat advantage** is seat 0's win rate minus the fair share, the win rate every seat
  would have if seats did not matter ((completed - draws) / (seats x completed)); its p-value is an
  exact binomial test of seat 0's share of the decided games against 1/seats; every seat gets the
  same test (`seat_tests`), with Holm-adjusted p-values across the seats;
- the **first mover** is the seat that took the first real turn (see quality.py); its win rate,
  advantage and test are those of seat 0 above, but following whoever moved first, which in many
  games is drawn or rotates; with 3+ seats every turn-order position is tested the same way;
- **card impact**: for every (event type, card) pair, a seat-game "used" the card that way when
  any event of that type named the seat and the card. The win rate of seat-games that did is
  compared with those that did not (difference with Newcombe's interval). This is association,
  not cause: a card played in long games or by a strong agent looks good for those reasons too.
  Its p-value is a pooled two-proportion z-test, Holm-adjusted across the rows shown;
- **stratified card impact** (`card_impact_stratified`, sim/impact.py): the same comparison
  within strata of (variant, deck, agent, seat), combined with the Mantel-Haenszel odds ratio;
- **card impact by standing** (`card_impact_by_standing`, with `simulate --standing`): each
  game read at the moment a card was first taken, the taker against the seats that never used
  it, within strata that add each seat's standing then (its rank by the game's evaluation);
- **variant comparisons** (several variants): first-mover win rate, draw rate and turn-cap rate
  (Newcombe intervals, two-proportion tests) and mean length in turns (Welch normal interval) of
  each variant against the first, Holm-adjusted across all the comparisons;
- **verdicts**: the above in a few plain sentences for a designer (sim/verdicts.py; added by
  the commands as they write the summary, after any experiment's numbers).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

from ..core.registry import game_class
from .impact import standing_card_impact, stratified_card_impact
from .quality import quality_summary
from .runner import GameResult, RunOutcome, RunSpec, Variant
from .stats import (
    binomial_test,
    describe,
    holm,
    integer_histogram,
    mean_difference,
    newcombe_difference,
    two_proportion_test,
    wilson,
)

MIN_CARD_SEAT_GAMES = 10  # rows with fewer seat-games on either side say nothing useful


def summarize(
    outcome: RunOutcome,
    card_events: Sequence[str] = (),
    warnings: Sequence[str] = (),
    rules_version: str | None = "",
) -> dict[str, Any]:
    """The whole JSON object: the issue-2 keys first, then the lab's detailed numbers.
    `rules_version`: the rules the games were played under, this robotable's unless given (a
    pool of older files gives theirs, None where the files did not record it)."""
    spec = outcome.spec
    results = outcome.results
    pooled = analyse(spec, results, card_events)
    out: dict[str, Any] = {
        "game": spec.game,
        "num_players": spec.num_players,
        "games": len(results),
        "agents": list(spec.agents),
        "wins": pooled["wins"],
        "draws": pooled["draws"],
        "win_rate": pooled["win_rate"],
        "mean_actions": pooled["mean_actions"],
        "mean_turns": pooled["mean_turns"],
        "errors": pooled["errors"],
        "seconds": round(outcome.seconds, 3),
    }
    for key, value in pooled.items():
        out.setdefault(key, value)
    # Pooled over every variant, each variant its own stratum (sim/impact.py).
    out["card_impact_stratified"] = stratified_card_impact(spec, results, card_events)
    # The same within each seat's standing when a card was taken (`simulate --standing`).
    by_standing = standing_card_impact(spec, results, card_events)
    if by_standing is not None:
        out["card_impact_by_standing"] = by_standing
    out["seed"] = spec.seed
    out["rules_version"] = (
        str(game_class(spec.game).version) if rules_version == "" else rules_version
    )
    out["games_planned"] = spec.games * len(spec.variants)
    out["interrupted"] = outcome.interrupted
    out["warnings"] = list(warnings)
    out["backend"] = outcome.backend
    out["workers"] = outcome.workers
    # Playing speed: start-up (worker processes, Ray) is reported apart and left out.
    out["games_per_second"] = outcome.games_per_second
    out["startup_seconds"] = round(outcome.startup_seconds, 3)
    # This process's share of the run (a resumed run read the rest from its results file).
    out["session"] = {"played": outcome.played, "loaded": outcome.loaded}
    if len(spec.variants) == 1:
        v = spec.variants[0]
        out["variants"] = [{"label": v.label, "options": _jsonable(v.options_dict())}]
    else:
        by_variant: dict[int, list[GameResult]] = defaultdict(list)
        for r in results:
            by_variant[r.variant].append(r)
        out["variants"] = [
            {
                "label": v.label,
                "options": _jsonable(v.options_dict()),
                **analyse(spec, by_variant[v.index], card_events),
            }
            for v in spec.variants
        ]
        out["card_shifts"] = card_shifts(out["variants"])
        out["variant_comparisons"] = variant_comparisons(out["variants"])
    return out


def analyse(
    spec: RunSpec, results: Sequence[GameResult], card_events: Sequence[str] = ()
) -> dict[str, Any]:
    n = spec.num_players
    done = [r for r in results if r.returns is not None]
    failed = [r for r in results if r.returns is None]
    completed = len(done)
    wins = [0] * n
    draws = 0
    score = [0.0] * n
    for r in done:
        if r.decisive():
            for winner in r.winners():  # a team's win counts for each of its seats
                wins[winner] += 1
        elif r.is_draw():
            draws += 1
        for seat, value in enumerate(r.returns):
            score[seat] += value
    decided = completed - draws
    # The fair share of one seat is one side's: 1/teams with fixed teams (Game.teams()).
    sides = done[0].sides() if done else n
    seat_tests = _seat_tests(wins, completed, decided, sides)
    first = seat_tests[0]
    return {
        "games": len(results),
        "completed": completed,
        "wins": wins,
        "draws": draws,
        "win_rate": [w / completed if completed else 0.0 for w in wins],
        "win_rate_ci": [list(wilson(w, completed)) for w in wins],
        "draw_rate": draws / completed if completed else 0.0,
        "score_rate": [s / completed if completed else 0.0 for s in score],
        "mean_actions": _mean([r.actions for r in done]),
        "mean_turns": _mean([r.turns for r in done]),
        "errors": len(failed),
        "first_mover": first_mover_stats(done, n),
        "first_seat": {
            "seat": 0,
            "label": "seat 1 (the first listed seat)",
            **{k: v for k, v in first.items() if k not in ("seat", "wins", "games")},
        },
        "seat_tests": seat_tests,
        "quality": quality_summary(done, n, spec.quality, spec.quality_every),
        "agent_stats": _agent_stats(spec, done),
        "lengths": {
            "turns": {
                **describe([r.turns for r in done]).to_json(),
                "hist": integer_histogram([r.turns for r in done]),
            },
            "actions": {
                **describe([r.actions for r in done]).to_json(),
                "hist": integer_histogram([r.actions for r in done]),
            },
            "seconds": describe([r.seconds for r in done]).to_json(),
        },
        "cards": card_impact(done, n, card_events),
        "extras": aggregate_extras([r.extras for r in done]),
        "error_records": [r.record_path for r in failed if r.record_path],
        "error_messages": _error_messages(failed),
    }


def _rate_test(wins: int, games: int, draws: int, n: int) -> dict[str, Any]:
    """Win rate, Wilson interval, advantage over the fair share and the exact binomial test of
    the share of decided games against 1/n: the numbers of one seat, or one turn position."""
    decided = games - draws
    fair = decided / (n * games) if games else math.nan
    rate = wins / games if games else math.nan
    ci = wilson(wins, games)
    return {
        "games": games,
        "wins": wins,
        "win_rate": rate,
        "ci": list(ci),
        "fair_share": fair,
        "advantage": rate - fair if games else math.nan,
        "advantage_ci": [ci[0] - fair, ci[1] - fair] if games else None,
        "p_value": binomial_test(wins, decided, 1 / n),
    }


def _seat_tests(wins: list[int], completed: int, decided: int, n: int) -> list[dict[str, Any]]:
    rows = [{"seat": s, **_rate_test(wins[s], completed, completed - decided, n)} for s in range(n)]
    for row, adjusted in zip(rows, holm([r["p_value"] for r in rows])):
        row["p_adjusted"] = adjusted
    return rows


def first_mover_stats(done: Sequence[GameResult], n: int) -> dict[str, Any]:
    """How the seat that moved first fared; with 3+ seats, every turn-order position too.

    Position k is the seat that moved k-th (GameResult.turn_order). The positions form one
    family for Holm's adjustment; with two seats the second mover's numbers mirror the first's,
    so the first mover is a single test and its p_adjusted is its p_value.
    """
    known = [r for r in done if r.first_mover is not None]
    sides = known[0].sides() if known else n  # fixed teams: the fair share is a team's
    positions = []
    for k in range(n if n >= 3 else 1):
        games = [r for r in known if len(r.turn_order) > k]
        wins = sum(1 for r in games if r.won(r.turn_order[k]))
        draws = sum(1 for r in games if r.is_draw())
        positions.append({"position": k, **_rate_test(wins, len(games), draws, sides)})
    for row, adjusted in zip(positions, holm([r["p_value"] for r in positions])):
        row["p_adjusted"] = adjusted
    first = {k: v for k, v in positions[0].items() if k != "position"}  # turn_order[0] moved first
    return {
        **first,
        "unknown": len(done) - len(known),
        "by_seat": {str(s): c for s, c in sorted(Counter(r.first_mover for r in known).items())},
        "source": dict(sorted(Counter(r.first_mover_source for r in known).items())),
        "positions": positions if n >= 3 else [],
    }


def variant_comparisons(variants: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each variant against the first on first-mover win rate, mean length (turns), draw rate
    and turn-cap rate: the difference with a 95% interval and a p-value, Holm-adjusted across
    every comparison in the list. Variants share seeds (game i of each is dealt alike), which
    these independent-sample intervals ignore: they err on the wide side."""
    if len(variants) < 2:
        return []
    base = variants[0]
    rows = []
    for v in variants[1:]:
        for metric, k1, n1, k2, n2 in (
            (
                "first_mover_win_rate",
                v["first_mover"]["wins"],
                v["first_mover"]["games"],
                base["first_mover"]["wins"],
                base["first_mover"]["games"],
            ),
            ("draw_rate", v["draws"], v["completed"], base["draws"], base["completed"]),
            (
                "turn_cap_rate",
                v["quality"]["end_reason"]["counts"]["turn_cap"],
                v["completed"],
                base["quality"]["end_reason"]["counts"]["turn_cap"],
                base["completed"],
            ),
        ):
            diff, low, high = newcombe_difference(k1, n1, k2, n2)
            rows.append(
                {
                    "variant": v["label"],
                    "baseline": base["label"],
                    "metric": metric,
                    "value": k1 / n1 if n1 else math.nan,
                    "baseline_value": k2 / n2 if n2 else math.nan,
                    "difference": diff,
                    "ci": [low, high],
                    "method": "Newcombe interval, two-proportion z-test",
                    "p_value": two_proportion_test(k1, n1, k2, n2),
                }
            )
        a, b = v["lengths"]["turns"], base["lengths"]["turns"]
        diff, low, high, p = mean_difference(
            a["mean"], a["sd"], a["count"], b["mean"], b["sd"], b["count"]
        )
        rows.append(
            {
                "variant": v["label"],
                "baseline": base["label"],
                "metric": "mean_turns",
                "value": a["mean"],
                "baseline_value": b["mean"],
                "difference": diff,
                "ci": [low, high],
                "method": "Welch normal interval and z-test",
                "p_value": p,
            }
        )
    for row, adjusted in zip(rows, holm([r["p_value"] for r in rows])):
        row["p_adjusted"] = adjusted
    return rows


def _agent_stats(spec: RunSpec, done: Sequence[GameResult]) -> dict[str, Any]:
    labels = spec.agent_labels()
    games = [0] * len(labels)
    wins = [0] * len(labels)
    draws = [0] * len(labels)
    score = [0.0] * len(labels)
    seats: list[Counter] = [Counter() for _ in labels]
    for r in done:
        winners = r.winners()
        for seat, agent in enumerate(r.arrangement):
            games[agent] += 1
            seats[agent][seat] += 1
            score[agent] += r.returns[seat]
            if seat in winners and len(winners) == 1:
                wins[agent] += 1
            elif r.is_draw() and (seat in winners or len(r.returns) == 1):
                draws[agent] += 1
    return {
        label: {
            "spec": spec.agents[i],
            "seat_games": games[i],
            "wins": wins[i],
            "draws": draws[i],
            "win_rate": wins[i] / games[i] if games[i] else 0.0,
            "ci": list(wilson(wins[i], games[i])),
            "score_rate": score[i] / games[i] if games[i] else 0.0,
            "seats": {str(s): c for s, c in sorted(seats[i].items())},
        }
        for i, label in enumerate(labels)
    }


def card_impact(
    done: Sequence[GameResult], num_players: int, events: Sequence[str] = ()
) -> list[dict[str, Any]]:
    """Win rate of seat-games that used a card (per event type, and 'any' type) against the rest.

    Rows are sorted by the difference, most winning first; pairs seen too rarely on either side
    (fewer than MIN_CARD_SEAT_GAMES seat-games) are left out. `events` keeps only those event
    types (and 'any' then means any of them): choices such as 'played' say more about a card
    than outcomes such as 'scrapped'.
    """
    wanted = set(events)
    if not done or not any(r.cards for r in done):
        return []
    with_games: Counter = Counter()
    with_wins: Counter = Counter()
    total = 0
    total_wins = 0
    for r in done:
        for seat in range(num_players):
            won = r.won(seat)
            total += 1
            total_wins += won
            pairs = r.cards[seat] if seat < len(r.cards) else ()
            if wanted:
                pairs = [p for p in pairs if p[0] in wanted]
            keys = set(pairs)
            if len(wanted) != 1:  # with one chosen type, 'any' would repeat it
                keys |= {("any", card) for _, card in pairs}
            for key in keys:
                with_games[key] += 1
                with_wins[key] += won
    rows = []
    for (event, card), n_with in with_games.items():
        k_with = with_wins[(event, card)]
        n_without = total - n_with
        k_without = total_wins - k_with
        if n_with < MIN_CARD_SEAT_GAMES or n_without < MIN_CARD_SEAT_GAMES:
            continue
        diff, low, high = newcombe_difference(k_with, n_with, k_without, n_without)
        rows.append(
            {
                "card": card,
                "event": event,
                "seat_games_with": n_with,
                "wins_with": k_with,
                "win_rate_with": k_with / n_with,
                "ci_with": list(wilson(k_with, n_with)),
                "seat_games_without": n_without,
                "wins_without": k_without,
                "win_rate_without": k_without / n_without,
                "ci_without": list(wilson(k_without, n_without)),
                "difference": diff,
                "difference_ci": [low, high],
                "significant": low > 0 or high < 0,
                "p_value": two_proportion_test(k_with, n_with, k_without, n_without),
            }
        )
    rows.sort(key=lambda row: (-row["difference"], row["card"], row["event"]))
    for row, adjusted in zip(rows, holm([row["p_value"] for row in rows])):
        row["p_adjusted"] = adjusted
        row["significant_adjusted"] = adjusted is not None and adjusted < 0.05
    return rows


def card_shifts(variants: Sequence[dict[str, Any]], limit: int = 20) -> list[dict[str, Any]]:
    """How each (card, event) impact moves between variants, largest movement first: the table
    that shows whether a changed card file did what it was meant to."""
    keyed = [{(r["card"], r["event"]): r for r in v.get("cards", [])} for v in variants]
    keys = {k for rows in keyed for k in rows}
    shifts = []
    for key in keys:
        cells = [rows.get(key) for rows in keyed]
        present = [c["difference"] for c in cells if c is not None]
        if len(present) < 2:
            continue
        shifts.append(
            {
                "card": key[0],
                "event": key[1],
                "spread": max(present) - min(present),
                "by_variant": [
                    None
                    if c is None
                    else {
                        "variant": v["label"],
                        "difference": c["difference"],
                        "difference_ci": c["difference_ci"],
                        "seat_games_with": c["seat_games_with"],
                    }
                    for v, c in zip(variants, cells)
                ],
            }
        )
    shifts.sort(key=lambda row: (-row["spread"], row["card"], row["event"]))
    return shifts[:limit]


def aggregate_extras(extras: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Summarise each game's `state.stats()`: nested keys are joined with dots; numbers get a
    mean (and min/max), booleans a rate, strings (and lists of strings) a count per value, lists
    of numbers (one per seat, say) a mean per position."""
    numbers: dict[str, list[float]] = defaultdict(list)
    flags: dict[str, list[bool]] = defaultdict(list)
    labels: dict[str, Counter] = defaultdict(Counter)
    vectors: dict[str, list[list[float]]] = defaultdict(list)
    for item in extras:
        for key, value in _flatten(item):
            if isinstance(value, bool):
                flags[key].append(value)
            elif isinstance(value, int | float):
                numbers[key].append(float(value))
            elif isinstance(value, str):
                labels[key][value] += 1
            elif isinstance(value, list | tuple):
                if all(isinstance(v, str) for v in value):
                    labels[key].update(value)
                elif all(isinstance(v, int | float) and not isinstance(v, bool) for v in value):
                    vectors[key].append([float(v) for v in value])
    out: dict[str, Any] = {}
    for key, values in numbers.items():
        out[key] = {
            "kind": "number",
            "count": len(values),
            "mean": _mean(values),
            "min": min(values),
            "max": max(values),
        }
    for key, values in flags.items():
        k = sum(values)
        out[key] = {
            "kind": "rate",
            "count": len(values),
            "true": k,
            "rate": k / len(values),
            "ci": list(wilson(k, len(values))),
        }
    for key, counter in labels.items():
        out[key] = {
            "kind": "counts",
            "count": sum(counter.values()),
            "counts": dict(sorted(counter.items())),
        }
    out.update(_breakdowns(extras, labels, numbers))
    for key, rows in vectors.items():
        width = max(len(r) for r in rows)
        means = []
        for i in range(width):
            column = [r[i] for r in rows if i < len(r)]
            means.append(_mean(column))
        out[key] = {"kind": "vector", "count": len(rows), "mean": means}
    return dict(sorted(out.items()))


def _breakdowns(
    extras: Sequence[dict[str, Any]], labels: dict[str, Counter], numbers: dict[str, list[float]]
) -> dict[str, Any]:
    """Each number broken down by each small categorical extra (one string per game, 2 to 8
    values), e.g. Rumblebots' `rounds by end_reason` gives the round of dominance victories."""
    flat = [dict(_flatten(item)) for item in extras]
    categories = [
        key
        for key, counter in labels.items()
        if 2 <= len(counter) <= 8 and all(isinstance(f.get(key), str | None) for f in flat)
    ]
    out: dict[str, Any] = {}
    for category in categories:
        for number in numbers:
            groups: dict[str, list[float]] = defaultdict(list)
            for f in flat:
                value = f.get(number)
                if isinstance(f.get(category), str) and isinstance(value, int | float):
                    groups[f[category]].append(float(value))
            distinct = {v for values in groups.values() for v in values}
            small = len(distinct) <= 12 and all(v.is_integer() for v in distinct)
            out[f"{number} by {category}"] = {
                "kind": "breakdown",
                "by": category,
                "of": number,
                "groups": {
                    name: {
                        "count": len(values),
                        "mean": _mean(values),
                        **({"counts": _int_counts(values)} if small else {}),
                    }
                    for name, values in sorted(groups.items())
                },
            }
    return out


def _int_counts(values: Sequence[float]) -> dict[str, int]:
    counter = Counter(int(v) for v in values)
    return {str(k): counter[k] for k in sorted(counter)}


def _flatten(item: Any, prefix: str = ""):
    if isinstance(item, dict):
        for key, value in item.items():
            name = f"{prefix}.{key}" if prefix else str(key)
            if isinstance(value, dict):
                yield from _flatten(value, name)
            else:
                yield name, value


def _error_messages(failed: Sequence[GameResult], limit: int = 10) -> list[dict[str, Any]]:
    return [
        {
            "variant": r.variant,
            "index": r.index,
            "seed": r.seed,
            "error": r.error,
            "record": r.record_path,
        }
        for r in failed[:limit]
    ]


def _mean(values: Sequence[float]) -> float:
    return math.fsum(values) / len(values) if values else 0.0


def _jsonable(options: dict[str, Any]) -> dict[str, Any]:
    return {k: list(v) if isinstance(v, tuple) else v for k, v in options.items()}


def variant_label(options: dict[str, Any]) -> str:
    if not options:
        return "default"
    return ", ".join(f"{k}={_show(v)}" for k, v in options.items())


def _show(value: Any) -> str:
    if isinstance(value, tuple | list):
        return "[" + ",".join(map(str, value)) + "]"
    return str(value)


def make_variants(sweeps: dict[str, list[Any]]) -> tuple[Variant, ...]:
    """The cartesian product of option sweeps, in the order given (first option slowest)."""
    import itertools

    names = list(sweeps)
    combos = list(itertools.product(*(sweeps[n] for n in names))) if names else [()]
    variants = []
    for index, combo in enumerate(combos):
        options = dict(zip(names, combo))
        variants.append(Variant(index, variant_label(options), tuple(options.items())))
    return tuple(variants)
