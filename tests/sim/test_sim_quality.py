"""Balance lab v2 on synthetic games whose true answers are known: the first mover, Holm's
adjustment, end reasons, lead changes, the decision point, margins, variant comparisons."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from robotable.core.options import OptionSpec
from robotable.core.protocol import TERMINAL, Action, Game, State
from robotable.core.registry import register_game
from robotable.core.rng import derive_seed
from robotable.sim.analysis import make_variants, summarize
from robotable.sim.quality import (
    TurnOrder,
    classify_end,
    decision_point,
    game_reason,
    lead_changes,
    leader,
)
from robotable.sim.report import first_mover_sentence, render_html
from robotable.sim.runner import RunSpec, run
from robotable.sim.stats import binomial_test, holm

from .test_sim_game import TinyGame  # noqa: F401 - registers the "simtiny" game


@dataclass(frozen=True, slots=True)
class Step(Action):
    kind: ClassVar[str] = "step"


class _Plain(State):
    """What the synthetic games share: one legal action, no hidden information."""

    def _legal_actions(self) -> list[Action]:
        return [Step()]

    def view(self, seat: int | None) -> dict[str, Any]:
        return {"step": self.step}

    def to_json(self) -> dict[str, Any]:
        return {"step": self.step}

    def determinize(self, seat, rng):
        return self.clone()


# -- a game the first mover always wins --------------------------------------------------------


class FirstMoverState(_Plain):
    """Turn 0: seat 0 makes a setup decision (so the first decision is not the first move).
    Then two rounds of turns starting with the seat drawn by the seed; the first mover wins."""

    def __init__(self, game: FirstMoverGame, seed: int) -> None:
        self.game = game
        self._legal = None
        self.n = game.num_players
        self.first = seed % self.n
        self.step = 0

    def turn_number(self) -> int:
        return self.step  # 0 during setup, then one turn per decision

    def current_player(self) -> int:
        if self.is_terminal():
            return TERMINAL
        if self.step == 0:
            return 0
        return (self.first + self.step - 1) % self.n

    def is_terminal(self) -> bool:
        return self.step > 2 * self.n

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.n
        return [1.0 if s == self.first else 0.0 for s in range(self.n)]

    def _apply(self, action: Action) -> list[dict]:
        self.step += 1
        return []

    def stats(self) -> dict[str, Any]:
        claim = self.game.options["claim"]
        return {"first_mover": claim} if claim >= 0 else {}

    def clone(self) -> FirstMoverState:
        twin = FirstMoverState.__new__(FirstMoverState)
        twin.game, twin._legal, twin.n = self.game, self._legal, self.n
        twin.first, twin.step = self.first, self.step
        return twin


class FirstMoverGame(Game):
    name = "simfirstmover"
    min_players = 2
    max_players = 3
    option_specs = (
        OptionSpec("claim", int, -1, "first_mover that stats() reports (-1: none)", minimum=-1),
    )
    action_classes = (Step,)

    def new_initial_state(self, seed: int = 0) -> FirstMoverState:
        return FirstMoverState(self, seed)

    def state_from_json(self, data):
        raise NotImplementedError

    def evaluate(self, state: State, seat: int) -> float:
        if state.is_terminal():
            return state.returns()[seat]
        return 0.9 if seat == state.first else 0.1  # type: ignore[attr-defined]


register_game(FirstMoverGame)


# -- a game with a scripted evaluation -------------------------------------------------------

# The evaluation before each of the six decisions; seat 1 wins. Leaders: 0, 1, 0, tie, 1, 1
# and seat 1 at the end: three lead changes; seat 1 leads for good from decision 4 of 6; the
# last position before the end is [0.3, 0.7], a margin of 0.4.
SCRIPT = [[0.6, 0.4], [0.4, 0.6], [0.7, 0.3], [0.5, 0.5], [0.2, 0.8], [0.3, 0.7]]


class ScriptState(_Plain):
    def __init__(self, game: ScriptGame) -> None:
        self.game = game
        self._legal = None
        self.step = 0

    def turn_number(self) -> int:
        return self.step + 1

    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else self.step % 2

    def is_terminal(self) -> bool:
        return self.step >= len(SCRIPT)

    def returns(self) -> list[float]:
        return [0.0, 1.0] if self.is_terminal() else [0.0, 0.0]

    def _apply(self, action: Action) -> list[dict]:
        self.step += 1
        return []

    def clone(self) -> ScriptState:
        twin = ScriptState(self.game)
        twin._legal, twin.step = self._legal, self.step
        return twin


class ScriptGame(Game):
    name = "simscript"
    action_classes = (Step,)

    def new_initial_state(self, seed: int = 0) -> ScriptState:
        return ScriptState(self)

    def state_from_json(self, data):
        raise NotImplementedError

    def evaluate(self, state: State, seat: int) -> float:
        if state.is_terminal():
            return state.returns()[seat]
        return SCRIPT[state.step][seat]  # type: ignore[attr-defined]


register_game(ScriptGame)


def _balanced_seed(games: int, seats: int = 2) -> int:
    """A master seed whose game seeds split evenly by `seed % seats` (the first mover)."""
    for master in range(1000):
        firsts = [derive_seed(master, i) % seats for i in range(games)]
        if all(firsts.count(s) == games // seats for s in range(seats)):
            return master
    raise AssertionError("no balanced master seed")


# -- the first mover -------------------------------------------------------------------------


def test_first_mover_who_always_wins_is_found_while_seat_1_wins_half(tmp_path):
    seed = _balanced_seed(20)
    spec = RunSpec("simfirstmover", 2, ("random",), games=20, seed=seed, error_dir=str(tmp_path))
    outcome = run(spec, workers=1)
    assert all(r.first_mover_source == "first_turn" for r in outcome.results)
    assert all(r.first_mover == r.seed % 2 for r in outcome.results)
    summary = summarize(outcome)
    first = summary["first_mover"]
    assert (first["games"], first["wins"], first["win_rate"]) == (20, 20, 1.0)
    assert first["fair_share"] == 0.5 and first["advantage"] == 0.5
    assert first["p_value"] == pytest.approx(binomial_test(20, 20, 0.5))
    assert first["p_value"] == pytest.approx(2 / 2**20)
    assert first["p_adjusted"] == first["p_value"]  # two seats: a single test
    assert first["by_seat"] == {"0": 10, "1": 10}
    assert first["positions"] == []
    seat = summary["first_seat"]
    assert seat["win_rate"] == 0.5 and seat["p_value"] == pytest.approx(1.0)
    assert seat["label"] == "seat 1 (the first listed seat)"
    assert [t["p_adjusted"] for t in summary["seat_tests"]] == pytest.approx([1.0, 1.0])


def test_three_seats_every_turn_position_is_tested_and_holm_adjusted(tmp_path):
    seed = _balanced_seed(15, seats=3)
    spec = RunSpec("simfirstmover", 3, ("random",), games=15, seed=seed, error_dir=str(tmp_path))
    outcome = run(spec, workers=1)
    for r in outcome.results:
        first = r.seed % 3
        assert r.turn_order == (first, (first + 1) % 3, (first + 2) % 3)
    first = summarize(outcome)["first_mover"]
    positions = first["positions"]
    assert [p["win_rate"] for p in positions] == [1.0, 0.0, 0.0]
    expected = [binomial_test(15, 15, 1 / 3), binomial_test(0, 15, 1 / 3)]
    assert [p["p_value"] for p in positions] == pytest.approx([expected[0], *[expected[1]] * 2])
    adjusted = holm([p["p_value"] for p in positions])
    assert [p["p_adjusted"] for p in positions] == pytest.approx(adjusted)
    assert first["p_adjusted"] == pytest.approx(adjusted[0])
    assert first["win_rate"] == 1.0 and first["fair_share"] == pytest.approx(1 / 3)


def _first_mover(p_value: float, p_adjusted: float, positions: int) -> dict[str, Any]:
    row = {
        "games": 100,
        "wins": 26,
        "win_rate": 0.26,
        "ci": [0.184, 0.354],
        "fair_share": 1 / 6,
        "advantage": 0.26 - 1 / 6,
        "advantage_ci": [0.017, 0.187],
        "p_value": p_value,
        "p_adjusted": p_adjusted,
    }
    return {**row, "positions": [row] * positions, "by_seat": {"0": 50, "1": 50}}


def test_the_first_mover_sentence_names_the_adjusted_p_its_verdict_rests_on():
    # Six seats: raw p under 0.05, Holm over the six positions above it, so no evidence; the
    # sentence printed only the raw p, which read as a contradiction.
    six = first_mover_sentence({"first_mover": _first_mover(0.0157, 0.0939, 6)})
    assert (
        "(exact binomial p = 0.0157, Holm-adjusted over the 6 turn-order positions 0.0939)" in six
    )
    assert "no evidence that moving first matters" in six
    # Two seats: a single test, nothing adjusted to show.
    two = first_mover_sentence({"first_mover": _first_mover(0.0157, 0.0157, 0)})
    assert "(exact binomial p = 0.0157): moving first matters." in two


def test_a_first_mover_given_by_the_game_wins_over_the_derived_one(tmp_path):
    spec = RunSpec(
        "simfirstmover",
        2,
        ("random",),
        games=6,
        variants=make_variants({"claim": [1]}),
        error_dir=str(tmp_path),
    )
    results = run(spec, workers=1).results
    assert {(r.first_mover, r.first_mover_source) for r in results} == {(1, "stats")}
    assert all(r.turn_order[0] == 1 for r in results)


def test_turn_order_tracker_for_turns_rounds_and_no_turns():
    per_seat = TurnOrder(3)  # a setup decision, then one turn per seat, with a reaction
    for seat, turn in [(1, 0), (2, 1), (0, 1), (0, 2), (1, 3)]:
        per_seat.see(seat, turn)
    assert per_seat.result({}) == (2, "first_turn", (2, 0, 1))
    assert not per_seat.open
    rounds = TurnOrder(3)  # turn 1 is a round in which every seat decides
    for seat in (1, 2, 0):
        rounds.see(seat, 1)
    assert rounds.result({}) == (1, "first_turn", (1, 2, 0))
    untimed = TurnOrder(2)  # a game that never counts turns
    untimed.see(1, 0)
    assert untimed.result({}) == (1, "first_decision", (1, 0))
    assert untimed.result({"first_mover": 0, "turn_order": [0, 1]}) == (0, "stats", (0, 1))


# -- statistics ------------------------------------------------------------------------------


def test_holm_matches_hand_computed_values():
    # Sorted: 0.005 x4 = 0.02; 0.01 x3 = 0.03; 0.03 x2 = 0.06; 0.04 x1 = 0.04 -> kept at 0.06.
    # (R: p.adjust(c(0.01, 0.04, 0.03, 0.005), "holm") gives 0.03 0.06 0.06 0.02.)
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])  # capped at 1
    assert holm([0.2]) == [0.2]
    mixed = holm([None, 0.01, math.nan, 0.02])  # None and nan are not tests: m = 2
    assert mixed[0] is None and math.isnan(mixed[2])
    assert mixed[1] == pytest.approx(0.02) and mixed[3] == pytest.approx(0.02)
    assert holm([]) == []


def test_binomial_test_against_known_values():
    # R: binom.test(682, 925, p = 0.75) (its documentation's example): p-value = 0.3825.
    assert binomial_test(682, 925, 0.75) == pytest.approx(0.3825, abs=5e-5)
    # By hand, n = 5, p = 1/3: P(k) = 32, 80, 80, 40, 10, 1 (/243); as or less likely than
    # k = 0 are k = 0, 4, 5: (32 + 10 + 1) / 243.
    assert binomial_test(0, 5, 1 / 3) == pytest.approx(43 / 243)
    assert binomial_test(5, 5, 1 / 3) == pytest.approx(1 / 243)


def test_two_proportion_test_and_mean_difference():
    from robotable.sim.stats import mean_difference, two_proportion_test

    # The pooled z-test is the chi-square test of the 2x2 table (R's prop.test, correct=FALSE).
    k1, n1, k2, n2 = 56, 70, 48, 80
    table = [[k1, n1 - k1], [k2, n2 - k2]]
    total = n1 + n2
    cols = [k1 + k2, total - k1 - k2]
    chi2 = sum(
        (table[i][j] - (n1, n2)[i] * cols[j] / total) ** 2 / ((n1, n2)[i] * cols[j] / total)
        for i in range(2)
        for j in range(2)
    )
    assert two_proportion_test(k1, n1, k2, n2) == pytest.approx(math.erfc(math.sqrt(chi2 / 2)))
    assert two_proportion_test(0, 10, 0, 12) == 1.0
    # 10 +- 2 over 50 against 9 +- 3 over 40: se = sqrt(4/50 + 9/40) = sqrt(0.305).
    diff, low, high, p = mean_difference(10, 2, 50, 9, 3, 40)
    se = math.sqrt(0.305)
    assert diff == 1 and low == pytest.approx(1 - 1.959964 * se, abs=1e-5)
    assert high == pytest.approx(1 + 1.959964 * se, abs=1e-5)
    assert p == pytest.approx(math.erfc(1 / se / math.sqrt(2)))


def test_card_rows_carry_holm_adjusted_p_values(tmp_path):
    spec = RunSpec("simtiny", 2, ("random",), games=40, seed=2, error_dir=str(tmp_path))
    cards = summarize(run(spec, workers=1))["cards"]
    assert cards
    assert [r["p_adjusted"] for r in cards] == pytest.approx(holm([r["p_value"] for r in cards]))
    assert all(r["p_adjusted"] >= r["p_value"] for r in cards)


# -- game quality ----------------------------------------------------------------------------


def test_end_reasons_on_a_game_that_always_hits_its_cap(tmp_path):
    spec = RunSpec(
        "simtiny",
        2,
        ("random",),
        games=12,
        variants=make_variants({"target": [999]}),
        error_dir=str(tmp_path),
    )
    quality = summarize(run(spec, workers=1))["quality"]
    assert quality["end_reason"]["counts"] == {"win": 0, "turn_cap": 12, "draw": 0}
    assert quality["end_reason"]["game_reasons"] == {"limit": 12}
    assert quality["length"]["min"] == quality["length"]["max"] == 12  # 6 turns per seat
    assert quality["margin"]["source"] == "stats: scores"  # simtiny reports its scores
    assert quality["lead_changes"] is None and quality["evaluated"] is False


@pytest.mark.parametrize(
    ("stats", "returns", "kind"),
    [
        ({"end_reason": "turn_cap"}, [0.5, 0.5], "turn_cap"),
        ({"end_reason": "turn_cap_most_loaves"}, [1.0, 0.0], "turn_cap"),
        ({"duel_end_reasons": ["life points", "turn cap"]}, [0.5, 0.5], "turn_cap"),
        ({"ended_by": "ten missions"}, [0.0, 1.0, 0.0], "win"),
        ({"end_reason": "wipe_out_draw"}, [0.5, 0.5], "draw"),
        ({"reason": "draw"}, [1.0, 0.0], "draw"),
        ({}, [0.0, 0.0], "draw"),
        ({}, [0.0, 1.0], "win"),
    ],
)
def test_classify_end(stats, returns, kind):
    assert classify_end(stats, returns) == kind


def test_game_reason_reads_the_last_of_a_list():
    assert game_reason({"duel_end_reasons": ["deck out", "life points"]}) == "life points"
    assert game_reason({"why": 3}) is None


def test_lead_changes_and_decision_point_by_hand():
    assert leader([0.2, 0.7, 0.1]) == 1 and leader([0.5, 0.5]) is None
    assert lead_changes([0, 1, 0, None, 1, 1]) == 3
    assert lead_changes([None, 2, None, 2]) == 0
    steps = [0, 1, 2, 3, 4, 5, 6]
    assert decision_point(steps, [0, 1, 0, None, 1, 1, 1], 1, 6) == pytest.approx(4 / 6)
    assert decision_point(steps, [1] * 7, 1, 6) == 0.0
    assert decision_point(steps, [0] * 6 + [1], 1, 6) == 1.0
    assert decision_point(steps, [0] * 7, None, 6) is None  # a draw


@pytest.mark.parametrize(
    ("every", "changes", "point"),
    [(1, 3, 4 / 6), (2, 1, 4 / 6), (3, 1, 1.0)],
)
def test_lead_changes_on_a_scripted_evaluation(tmp_path, every, changes, point):
    spec = RunSpec(
        "simscript",
        2,
        ("random",),
        games=2,
        quality=True,
        quality_every=every,
        error_dir=str(tmp_path),
    )
    outcome = run(spec, workers=1)
    for r in outcome.results:
        assert r.quality["lead_changes"] == changes
        assert r.quality["decision_point"] == pytest.approx(point)
        # Sampled or not, the margin is read on the last position before the end.
        assert r.quality["margin"] == pytest.approx(0.4)
    quality = summarize(outcome)["quality"]
    assert quality["lead_changes"]["counts"] == {str(changes): 2}
    assert quality["margin"]["source"] == "evaluation"
    assert quality["margin"]["median"] == pytest.approx(0.4)
    assert quality["decision_point"]["median"] == pytest.approx(point)
    assert sum(quality["decision_point"]["hist"]["counts"]) == 2


def test_quality_measures_do_not_change_the_games(tmp_path):
    base = RunSpec("simtiny", 3, ("random", "greedy"), games=12, seed=4, error_dir=str(tmp_path))
    plain = run(base, workers=1).results
    spec = RunSpec(
        "simtiny",
        3,
        ("random", "greedy"),
        games=12,
        seed=4,
        quality=True,
        quality_every=2,
        error_dir=str(tmp_path),
    )
    measured = run(spec, workers=1).results
    assert [(r.returns, r.actions, r.extras) for r in plain] == [
        (r.returns, r.actions, r.extras) for r in measured
    ]
    assert all(r.quality == {} for r in plain)
    assert all("lead_changes" in r.quality for r in measured)


# -- variants and the report ---------------------------------------------------------------


def test_variant_comparisons_are_against_the_first_variant_and_holm_adjusted(tmp_path):
    spec = RunSpec(
        "simtiny",
        2,
        ("random",),
        games=30,
        seed=3,
        variants=make_variants({"target": [8, 999]}),
        error_dir=str(tmp_path),
    )
    summary = summarize(run(spec, workers=1))
    rows = summary["variant_comparisons"]
    assert [r["metric"] for r in rows] == [
        "first_mover_win_rate",
        "draw_rate",
        "turn_cap_rate",
        "mean_turns",
    ]
    assert {r["baseline"] for r in rows} == {"target=8"}
    cap = rows[2]
    base, other = (v["quality"]["end_reason"]["counts"]["turn_cap"] for v in summary["variants"])
    assert other == 30 and cap["difference"] == pytest.approx((other - base) / 30)
    assert cap["ci"][0] <= cap["difference"] <= cap["ci"][1]
    assert [r["p_adjusted"] for r in rows] == pytest.approx(holm([r["p_value"] for r in rows]))
    turns = rows[3]
    means = [v["lengths"]["turns"]["mean"] for v in summary["variants"]]
    assert turns["difference"] == pytest.approx(means[1] - means[0])
    assert "first_mover" in summary["variants"][1]


def test_report_leads_with_the_verdict_then_first_mover_and_game_quality(tmp_path):
    spec = RunSpec("simscript", 2, ("random",), games=4, quality=True, error_dir=str(tmp_path))
    from robotable.sim.text import json_safe

    text = render_html(json_safe(summarize(run(spec, workers=1))))
    headings = [part.split("</h2>")[0] for part in text.split("<h2>")[1:]]
    # The verdict in words first (sim/verdicts.py), then the numbers behind it.
    assert headings[:5] == [
        "Verdict",
        "The numbers behind it",
        "First mover",
        "Game quality",
        "Seats",
    ]
    assert "seat 1 (first listed)" in text and "Seat 1 (the first listed seat)" in text
    assert "The share of the game after which the eventual winner led for good" in text
