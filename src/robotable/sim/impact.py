"""Card impact without the confounders: a Mantel-Haenszel estimate over strata.

The association table (`analysis.card_impact`) compares every seat-game that used a card with
every one that did not. That mixes decks, agents and seats: a card found only in a strong deck
looks strong, a card the better agent likes looks strong, a card the first seat plays more looks
strong. Here seat-games are first split into strata that hold those fixed:

    stratum = (variant, the seat's deck, the seat's agent, the seat)

- the **variant** is the run's option/content variant (its label): a changed card file is
  another stratum even when the deck keeps its name;
- the **deck** is what the game's `state.stats()` records per seat (a list of strings, one per
  seat, under `decks`, `deck_names` or `seat_decks`; Iotabots records its two decks there); a
  game that records none has one deck per variant, which the variant already fixes;
- the **agent** is the spec of the agent in that seat; the **seat** is the listed seat.

Within each stratum the seat-games that used the card (any event of the chosen types naming the
seat and the card, as in the association table) are compared with those that did not: one
2x2 table of (used or not) x (won or not). The tables are combined with the Mantel-Haenszel
common odds ratio (`stats.mantel_haenszel`): > 1 means that, deck, agent and seat held fixed,
seat-games with the card won more often. A stratum where every seat-game used the card, or none
did, or all won, or none won, says nothing and is not counted ("informative strata").

Cards with fewer than MIN_STRATA informative strata or MIN_GAMES seat-games in them are flagged
"too few strata" and not ranked (no odds ratio is shown for them: one stratum cannot separate
the card from what that stratum holds fixed, and a few games cannot separate it from chance).

`past_10_points` lists the ranked cards whose odds ratio lies outside PAST_10_POINTS (2/3 and
3/2: a card that moves an even 50% chance of winning to under 40% or over 60%) with a
Holm-adjusted p below 0.05: the bar of the fairness pass (docs/balancing.md).

What it still cannot remove: anything that varies *within* a stratum and goes with using the
card, above all how the game went (a card played only when ahead, or only in long games, still
looks good). `standing_card_impact` (`simulate --standing`) holds the standing fixed as well: it
compares the seats at the moment the card was taken, each at its rank then. `simulate
--restrict CARD` is the experiment that removes the rest.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterator, Sequence
from typing import Any

from .runner import GameResult, RunSpec
from .stats import clustered_proportion, holm, mantel_haenszel

MIN_STRATA = 2
MIN_GAMES = 20
DECK_KEYS = ("decks", "deck_names", "seat_decks")
TOO_FEW = "too few strata"
# Odds ratios of 40% and 60% against an even 50%: inside them a card moves a seat by at most ten
# points.
PAST_10_POINTS = (2 / 3, 3 / 2)


def seat_deck(extras: dict[str, Any], seat: int, num_players: int) -> str | None:
    """The deck `seat` played, when the game's `stats()` records one per seat."""
    for key in DECK_KEYS:
        value = extras.get(key)
        if (
            isinstance(value, list | tuple)
            and len(value) == num_players
            and all(isinstance(v, str) for v in value)
        ):
            return value[seat]
    return None


def stratum_of(spec: RunSpec, labels: dict[int, str], result: GameResult, seat: int) -> tuple:
    """(variant label, deck or None, agent spec, seat) of one seat-game."""
    agent = spec.agents[result.arrangement[seat]]
    deck = seat_deck(result.extras, seat, spec.num_players)
    return (labels.get(result.variant, str(result.variant)), deck, agent, seat)


def stratified_card_impact(
    spec: RunSpec, results: Sequence[GameResult], events: Sequence[str] = ()
) -> dict[str, Any]:
    """The `card_impact_stratified` object of `simulate --json` (see the module's doc)."""
    wanted = set(events)
    labels = {v.index: v.label for v in spec.variants}
    done = [r for r in results if r.returns is not None]
    # stratum -> [seat-games, wins]; (card, stratum) -> [seat-games with, wins with]
    cells: dict[tuple, list[int]] = defaultdict(lambda: [0, 0])
    with_card: dict[str, dict[tuple, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    decks_known = False
    for r in done:
        for seat in range(spec.num_players):
            stratum = stratum_of(spec, labels, r, seat)
            decks_known = decks_known or stratum[1] is not None
            won = int(r.won(seat))
            cell = cells[stratum]
            cell[0] += 1
            cell[1] += won
            pairs = r.cards[seat] if seat < len(r.cards) else ()
            for card in {card for event, card in pairs if not wanted or event in wanted}:
                entry = with_card[card][stratum]
                entry[0] += 1
                entry[1] += won
    counts = {
        card: {
            stratum: (n_with, k_with, cells[stratum][0] - n_with, cells[stratum][1] - k_with)
            for stratum, (n_with, k_with) in by_stratum.items()
        }
        for card, by_stratum in with_card.items()
    }
    return {
        "method": "Mantel-Haenszel odds ratio over strata (variant, deck, agent, seat); "
        "Robins-Breslow-Greenland 95% interval; MH chi-square test; Holm across ranked cards",
        "strata_by": ["variant", "deck" if decks_known else "deck (not recorded)", "agent", "seat"],
        "events": sorted(wanted) if wanted else "any",
        "strata": len(cells),
        **_ranked(counts),
    }


def standing_card_impact(
    spec: RunSpec, results: Sequence[GameResult], events: Sequence[str] = ()
) -> dict[str, Any] | None:
    """The `card_impact_by_standing` object of `simulate --standing --json`, or None when no
    game recorded its moments.

    The stratified table cannot tell a card from the lead of the seat that takes it: a card that
    goes to whoever is ahead (a Betabotz breach goes to the first seat to reach 13) wins with
    its taker whatever it does. Here each game that saw the card is compared at the moment the
    card was first taken (the first event of the chosen types naming a seat and the card;
    `GameResult.moments`), and every seat enters at its standing just before that action, its
    rank by the game's evaluation: the taker is the seat-game "with" the card, the seats that
    never used it in that game are "without" (a seat that used it later is neither). Within
    strata of (variant, deck, agent, seat, standing when taken) the Mantel-Haenszel odds ratio
    then asks: of seats standing alike when the card came, did the one that took it win more
    often? Games the card never entered say nothing about it and are not counted.
    """
    done = [r for r in results if r.returns is not None and r.moments]
    if not done:
        return None
    wanted = set(events)
    counts = standing_cells(spec, done, wanted)
    strata = {stratum for by_stratum in counts.values() for stratum in by_stratum}
    decks_known = any(stratum[1] is not None for stratum in strata)
    return {
        "method": "Mantel-Haenszel odds ratio over strata (variant, deck, agent, seat, standing "
        "when the card was first taken); seats compared at that moment, the taker against "
        "those that never used the card; Robins-Breslow-Greenland 95% interval; MH chi-square "
        "test; Holm across ranked cards",
        "strata_by": [
            "variant",
            "deck" if decks_known else "deck (not recorded)",
            "agent",
            "seat",
            "standing when taken",
        ],
        "events": sorted(wanted) if wanted else "any",
        "strata": len(strata),
        "games_with_moments": len(done),
        **_ranked(counts),
        "foresight": standing_foresight(spec, done, wanted),
    }


def card_moments(
    result: GameResult, wanted: set[str]
) -> Iterator[tuple[str, int, tuple[int, ...]]]:
    """(card, the seat that took it, every seat's standing then) for each card's first event of
    the `wanted` types (any, when empty) in `result`, in the order they happened."""
    taken: set[str] = set()
    for kind, card, taker, ranks in result.moments:
        if (wanted and kind not in wanted) or card in taken:
            continue
        taken.add(card)
        yield card, taker, ranks


def standing_foresight(
    spec: RunSpec, results: Sequence[GameResult], wanted: set[str]
) -> dict[str, Any]:
    """How well the standing foretells who wins, at the moments the table reads: per rank, the
    seat-moments at that rank and the share of them whose seat went on to win, its interval
    counting each game as one cluster (a game's moments share its winner). Where the seats that
    stand first win hardly more often than those that stand last, the game's evaluation does not
    see who is ahead, and strata by standing hold little more fixed than the seats do."""
    # rank -> per game, [seat-moments at that rank that won, seat-moments at that rank]
    by_rank: dict[int, dict[tuple[int, int], list[int]]] = defaultdict(
        lambda: defaultdict(lambda: [0, 0])
    )
    games = 0
    for r in results:
        if r.returns is None or not r.moments:
            continue
        games += 1
        won = [r.won(seat) for seat in range(spec.num_players)]
        for _, _, ranks in card_moments(r, wanted):
            for seat, rank in enumerate(ranks):
                cell = by_rank[rank][(r.variant, r.index)]
                cell[0] += won[seat]
                cell[1] += 1
    rows = []
    for rank in sorted(by_rank):
        clusters = list(by_rank[rank].values())
        rate, low, high = clustered_proportion(clusters)
        rows.append(
            {
                "rank": rank,
                "seat_moments": sum(n for _, n in clusters),
                "wins": sum(k for k, _ in clusters),
                "win_rate": rate,
                "ci": [low, high],
            }
        )
    fair = 1 / spec.num_players
    # Draws lower every rank's wins, so the first rank is compared with the last rather than
    # with 1/seats (with it only when every seat always stood alike).
    tells = bool(rows) and rows[0]["ci"][0] > (rows[-1]["ci"][1] if len(rows) > 1 else fair)
    return {
        "method": "per standing (rank by the game's evaluation when a card was first taken), "
        "the share of seat-moments whose seat won the game; 95% interval with each game one "
        "cluster (cluster-robust standard error of a ratio); the standing tells the winner when "
        "the first rank's interval lies above the last rank's",
        "games": games,
        "fair_share": fair,
        "by_rank": rows,
        "tells_the_winner": tells,
    }


def standing_cells(
    spec: RunSpec, results: Sequence[GameResult], wanted: set[str]
) -> dict[str, dict[tuple, list[int]]]:
    """Per card and stratum (variant, deck, agent, seat, standing when taken): [seat-games
    with, wins with, seat-games without, wins without], read at each game's moment of the card
    (`standing_card_impact`)."""
    labels = {v.index: v.label for v in spec.variants}
    counts: dict[str, dict[tuple, list[int]]] = defaultdict(
        lambda: defaultdict(lambda: [0, 0, 0, 0])
    )
    for r in results:
        if r.returns is None:
            continue
        used = [
            {card for event, card in pairs if not wanted or event in wanted} for pairs in r.cards
        ]
        for card, taker, ranks in card_moments(r, wanted):
            for seat in range(spec.num_players):
                if seat != taker and seat < len(used) and card in used[seat]:
                    continue  # took it later: neither the taker nor a seat without it
                cell = counts[card][(*stratum_of(spec, labels, r, seat), ranks[seat])]
                side = 0 if seat == taker else 2
                cell[side] += 1
                cell[side + 1] += int(r.won(seat))
    return counts


def _ranked(counts: dict[str, dict[tuple, Sequence[int]]]) -> dict[str, Any]:
    """Per card, its strata's (seat-games with, wins with, seat-games without, wins without)
    combined into one odds ratio; the cards ranked, Holm-adjusted, and the ones past the bar."""
    rows = []
    for card, by_stratum in counts.items():
        tables = [
            (k_with, n_with - k_with, k_without, n_without - k_without)
            for n_with, k_with, n_without, k_without in by_stratum.values()
        ]
        games_with = sum(cell[0] for cell in by_stratum.values())
        mh = mantel_haenszel(tables)
        ranked = mh.strata >= MIN_STRATA and mh.total >= MIN_GAMES
        rows.append(
            {
                "card": card,
                "seat_games_with": games_with,
                "strata_with_card": sum(1 for cell in by_stratum.values() if cell[0]),
                "informative_strata": mh.strata,
                "games": mh.total,
                "odds_ratio": mh.odds_ratio if ranked else None,
                "ci": list(mh.ci) if ranked else None,
                "p_value": mh.p_value if ranked else None,
                "p_adjusted": None,
                "ranked": ranked,
                "flag": None if ranked else TOO_FEW,
            }
        )
    ranked_rows = [r for r in rows if r["ranked"]]
    for row, adjusted in zip(ranked_rows, holm([r["p_value"] for r in ranked_rows])):
        row["p_adjusted"] = adjusted
        row["significant_adjusted"] = (
            adjusted is not None and not math.isnan(adjusted) and (adjusted < 0.05)
        )
    ranked_rows.sort(key=lambda r: (-_sort_key(r["odds_ratio"]), r["card"]))
    flagged = sorted((r for r in rows if not r["ranked"]), key=lambda r: r["card"])
    low, high = PAST_10_POINTS
    past = [
        r["card"]
        for r in ranked_rows
        if r["significant_adjusted"]
        and not math.isnan(r["odds_ratio"])
        and not low <= r["odds_ratio"] <= high
    ]
    return {
        "min_strata": MIN_STRATA,
        "min_games": MIN_GAMES,
        "rows": ranked_rows + flagged,
        # The fairness pass's bar (docs/balancing.md): cards whose odds ratio says more than 10
        # points from an even 50% (outside 40-60%), with a Holm-adjusted p below 0.05.
        "past_10_points": past,
    }


def _sort_key(value: float | None) -> float:
    if value is None or math.isnan(value):  # no estimate: last
        return -math.inf
    return value
