"""Statistics of the balance lab against published values and hand-worked cases."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from robotable.sim.analysis import aggregate_extras, card_impact
from robotable.sim.ladder import ladder, pairwise_matrix
from robotable.sim.runner import GameResult, agent_labels, seat_arrangements
from robotable.sim.stats import (
    binomial_test,
    bradley_terry,
    clustered_proportion,
    describe,
    elo_from_log_strengths,
    integer_histogram,
    newcombe_difference,
    paired_difference,
    wilson,
)


@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [
        # Newcombe (1998), Statistics in Medicine 17:857-872, Table I, method 3 (Wilson score).
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_wilson_interval_matches_newcombe_table(k, n, low, high):
    got = wilson(k, n)
    assert got[0] == pytest.approx(low, abs=1e-4)
    assert got[1] == pytest.approx(high, abs=1e-4)


def test_wilson_edges():
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(10, 10)[1] == 1.0
    with pytest.raises(ValueError):
        wilson(3, 2)


@pytest.mark.parametrize(
    ("k1", "n1", "k2", "n2", "low", "high"),
    [
        # Newcombe (1998), Statistics in Medicine 17:873-890, Table II, method 10.
        (56, 70, 48, 80, 0.0524, 0.3339),
        (9, 10, 3, 10, 0.1705, 0.8090),
    ],
)
def test_newcombe_difference_matches_published_values(k1, n1, k2, n2, low, high):
    diff, lo, hi = newcombe_difference(k1, n1, k2, n2)
    assert diff == pytest.approx(k1 / n1 - k2 / n2)
    assert lo == pytest.approx(low, abs=1e-4)
    assert hi == pytest.approx(high, abs=1e-4)


def test_clustered_proportion_of_single_trials_is_walds_interval():
    # Clusters of one trial each are independent trials: the cluster-robust interval is Wald's,
    # with the small-sample factor g / (g - 1).
    clusters = [(1, 1)] * 30 + [(0, 1)] * 70
    rate, low, high = clustered_proportion(clusters)
    half = 1.959963984540054 * math.sqrt(100 / 99 * 0.3 * 0.7 / 100)
    assert rate == pytest.approx(0.3)
    assert (low, high) == (pytest.approx(0.3 - half), pytest.approx(0.3 + half))
    # Every cluster at the same rate: the clusters do not vary, nor does the estimate.
    assert clustered_proportion([(2, 4), (5, 10), (1, 2)]) == (0.5, 0.5, 0.5)
    assert math.isnan(clustered_proportion([])[0])
    assert clustered_proportion([(3, 4)]) == (0.75, 0.0, 1.0)


@given(st.lists(st.tuples(st.integers(0, 20), st.integers(0, 20)), max_size=30))
def test_clustered_proportion_holds_its_rate_inside_zero_and_one(pairs):
    clusters = [(min(k, t), t) for k, t in pairs]
    rate, low, high = clustered_proportion(clusters)
    trials = sum(t for _, t in clusters)
    if trials == 0:
        assert math.isnan(rate) and (low, high) == (0.0, 1.0)
        return
    assert rate == sum(k for k, _ in clusters) / trials
    assert 0.0 <= low <= rate + 1e-12 and rate - 1e-12 <= high <= 1.0


def test_binomial_test_matches_exact_values():
    assert binomial_test(7, 10, 0.5) == pytest.approx(0.34375)  # 2 * 176/1024
    assert binomial_test(60, 100, 0.5) == pytest.approx(0.056887933641, rel=1e-9)  # R binom.test
    assert binomial_test(5, 10, 0.5) == pytest.approx(1.0)
    assert binomial_test(0, 0, 0.3) == 1.0


def test_describe_uses_linear_quantiles_and_sample_sd():
    d = describe([1, 2, 3, 4, 10])
    assert (d.count, d.mean, d.median, d.min, d.max) == (5, 4.0, 3.0, 1.0, 10.0)
    assert d.sd == pytest.approx(math.sqrt(12.5))
    assert d.p10 == pytest.approx(1.4)
    assert d.p90 == pytest.approx(7.6)


def test_integer_histogram_counts_every_value_once():
    hist = integer_histogram([3, 3, 4, 7])
    assert sum(hist["counts"]) == 4
    assert hist["edges"][0] == 2.5
    assert integer_histogram([]) == {"edges": [], "counts": []}


def test_bradley_terry_recovers_consistent_strengths():
    # Strengths 4:2:1 predict exactly these records (a-b 2:1, b-c 2:1, a-c 4:1).
    wins = [[0, 2, 4], [1, 0, 2], [1, 1, 0]]
    elo = elo_from_log_strengths(bradley_terry(wins, prior=0))
    assert elo[0] - elo[2] == pytest.approx(400 * math.log10(4), abs=1e-6)
    assert elo[0] - elo[1] == pytest.approx(400 * math.log10(2), abs=1e-6)
    assert sum(elo) / 3 == pytest.approx(1500)


def test_bradley_terry_two_players_is_the_log_odds():
    elo = elo_from_log_strengths(bradley_terry([[0, 3], [1, 0]], prior=0))
    assert elo[0] - elo[1] == pytest.approx(400 * math.log10(3), abs=1e-6)


def test_bradley_terry_prior_keeps_an_unbeaten_agent_finite():
    elo = elo_from_log_strengths(bradley_terry([[0, 5], [0, 0]]))
    assert math.isfinite(elo[0]) and elo[0] > elo[1]


def _result(index, arrangement, returns, cards=()):
    return GameResult(0, index, index, arrangement, returns, 10, 3, 0.01, cards=cards)


def test_ladder_pairs_and_bootstrap_interval_contain_the_estimate():
    results = [_result(i, (0, 1), (1.0, 0.0)) for i in range(6)]
    results += [_result(6 + i, (1, 0), (1.0, 0.0)) for i in range(2)]  # agent 1 wins twice
    results.append(_result(8, (0, 1), (0.5, 0.5)))
    matrix = pairwise_matrix(results, 2)
    assert matrix[0][1] == 6.5 and matrix[1][0] == 2.5
    out = ladder(results, ["a", "b"], bootstrap=200, seed=1)
    top = out["ratings"][0]
    assert top["agent"] == "a" and top["ci"][0] <= top["elo"] <= top["ci"][1]
    assert out["pairwise_score"][0][1] == pytest.approx(6.5 / 9)


def test_seat_arrangements_rotate_every_agent_through_every_seat():
    assert seat_arrangements(2, 2) == [(0, 1), (1, 0)]
    assert len(seat_arrangements(3, 3)) == 6
    assert len(seat_arrangements(3, 2)) == 6  # a round robin in both seat orders
    rotated = seat_arrangements(2, 4)
    for seat in range(4):
        assert sorted(a[seat] for a in rotated) == [0, 1]
    assert seat_arrangements(1, 3) == [(0, 0, 0)]
    assert seat_arrangements(2, 2, fixed=True) == [(0, 1)]


def test_agent_labels_are_unique():
    assert agent_labels(["random", "mcts:20", "random"]) == ["random", "mcts:20", "random#2"]


def test_card_impact_compares_seat_games_with_and_without_a_card():
    results = []
    for i in range(40):
        # Seat 0 played "Ace" in the first 30 games and won 24 of them; it won 2 of the last 10.
        has_ace = i < 30
        won = (i < 24) or (30 <= i < 32)
        cards = ((("play", "Ace"),) if has_ace else (), ())
        results.append(_result(i, (0, 1), (1.0, 0.0) if won else (0.0, 1.0), cards))
    rows = {(r["card"], r["event"]): r for r in card_impact(results, 2)}
    ace = rows[("Ace", "play")]
    # 80 seat-games: 30 with Ace (24 wins), 50 without (2 + 14 = 16 wins).
    assert (ace["seat_games_with"], ace["wins_with"]) == (30, 24)
    assert (ace["seat_games_without"], ace["wins_without"]) == (50, 16)
    assert ace["difference"] == pytest.approx(24 / 30 - 16 / 50)
    assert ace["significant"]
    assert ("Ace", "any") in rows


def test_aggregate_extras_kinds():
    extras = [
        {"end_reason": "dominance", "rounds": 3, "ok": True, "scores": [1, 2], "why": {"x": 1}},
        {"end_reason": "showdown", "rounds": 6, "ok": False, "scores": [3, 4], "why": {"x": 3}},
        {"end_reason": "dominance", "rounds": 4, "ok": True, "scores": [2, 0], "why": {"x": 2}},
    ]
    out = aggregate_extras(extras)
    assert out["rounds"]["mean"] == pytest.approx(13 / 3)
    assert out["ok"]["rate"] == pytest.approx(2 / 3)
    assert out["end_reason"]["counts"] == {"dominance": 2, "showdown": 1}
    assert out["scores"]["mean"] == [2.0, 2.0]
    assert out["why.x"]["mean"] == 2.0
    by = out["rounds by end_reason"]["groups"]
    assert by["dominance"]["counts"] == {"3": 1, "4": 1}
    assert by["showdown"]["mean"] == 6.0


def test_card_impact_can_keep_chosen_event_types():
    results = [
        _result(i, (0, 1), (1.0, 0.0), ((("play", "Ace"), ("scrapped", "Cog")), ()))
        for i in range(12)
    ]
    results += [_result(12 + i, (0, 1), (0.0, 1.0), ((), ())) for i in range(12)]
    rows = card_impact(results, 2, events=["play"])
    assert {(r["card"], r["event"]) for r in rows} == {("Ace", "play")}


@given(st.integers(0, 60), st.integers(0, 60), st.integers(0, 60), st.integers(0, 60))
def test_the_paired_difference_holds_its_estimate_and_turns_with_the_pairs(a, b, c, d):
    if a + b + c + d == 0:
        assert math.isnan(paired_difference(a, b, c, d)[0])
        return
    diff, low, high = paired_difference(a, b, c, d)
    assert diff == pytest.approx((b - c) / (a + b + c + d))
    assert -1 <= low <= diff + 1e-12 and diff - 1e-12 <= high <= 1
    swapped = paired_difference(a, c, b, d)
    assert swapped == pytest.approx((-diff, -high, -low))


def test_pairs_that_agree_give_a_narrower_interval_than_independent_groups():
    # 200 games, the same seat won 40 of them in both runs, the bar moved 6 wins and 1 back:
    # the paired interval is far narrower than treating the runs as independent.
    diff, low, high = paired_difference(40, 6, 1, 153)
    _, ind_low, ind_high = newcombe_difference(46, 200, 41, 200)
    assert diff == pytest.approx(5 / 200)
    assert high - low < (ind_high - ind_low) / 2
    assert low < 0 < high  # 6 against 1 is not yet evidence (McNemar p = 0.125)
