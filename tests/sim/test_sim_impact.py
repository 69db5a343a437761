"""Card impact without confounders: the Mantel-Haenszel estimate against a textbook example, and
on a synthetic game where one card truly helps (in one deck only) and another only rides along
in a strong deck."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from robotable.core.protocol import TERMINAL, Action, Game, State
from robotable.core.registry import register_game
from robotable.core.rng import GameRng
from robotable.sim.analysis import summarize
from robotable.sim.impact import TOO_FEW, seat_deck, stratified_card_impact
from robotable.sim.report import render_html, stratified_sentence
from robotable.sim.runner import GameResult, RunSpec, run
from robotable.sim.stats import mantel_haenszel
from robotable.sim.text import json_safe

# -- the statistic -----------------------------------------------------------------------------

# Agresti (1990), pp. 231-237, the example of R's `mantelhaen.test`: penicillin given at once or
# 1.5 hours late, rabbits cured or dead, five penicillin levels. Rows (a, b, c, d): immediate
# cured, immediate died, delayed cured, delayed died.
RABBITS = [(0, 6, 0, 5), (3, 3, 0, 6), (6, 0, 2, 4), (5, 1, 6, 0), (2, 0, 5, 0)]


def test_mantel_haenszel_matches_r_on_the_rabbits_example():
    # R: mantelhaen.test(Rabbits): "Mantel-Haenszel X-squared = 3.9286, df = 1, p-value =
    # 0.04747; 95 percent confidence interval: 1.026713 47.725133; common odds ratio 7".
    corrected = mantel_haenszel(RABBITS, correct=True)
    assert corrected.odds_ratio == pytest.approx(7.0)
    assert corrected.ci[0] == pytest.approx(1.026713, abs=1e-6)
    assert corrected.ci[1] == pytest.approx(47.725133, abs=1e-6)
    assert corrected.chi2 == pytest.approx(3.9286, abs=1e-4)
    assert corrected.p_value == pytest.approx(0.04747, abs=1e-5)
    # Two strata carry no information (nobody cured at 1/8, nobody died at 4).
    assert (corrected.strata, corrected.total) == (3, 36)
    # Without the continuity correction, by hand: sum(a) = 16, sum(E a) = 13, sum(Var a) =
    # 35/22, so chi2 = 9 * 22 / 35 (R: mantelhaen.test(Rabbits, correct = FALSE)).
    plain = mantel_haenszel(RABBITS)
    assert plain.chi2 == pytest.approx(198 / 35)
    assert plain.p_value == pytest.approx(math.erfc(math.sqrt(198 / 35 / 2)))
    assert plain.ci == corrected.ci  # the interval does not depend on the correction


def test_mantel_haenszel_of_one_table_is_its_odds_ratio_and_edges():
    one = mantel_haenszel([(20, 10, 10, 20)])
    assert one.odds_ratio == pytest.approx(4.0)
    # One stratum: the RBG variance reduces to Woolf's 1/a + 1/b + 1/c + 1/d.
    assert one.log_se == pytest.approx(math.sqrt(1 / 20 + 1 / 10 + 1 / 10 + 1 / 20))
    nothing = mantel_haenszel([(3, 0, 4, 0), (0, 0, 2, 2)])
    assert nothing.strata == 0 and math.isnan(nothing.odds_ratio) and math.isnan(nothing.p_value)
    always = mantel_haenszel([(5, 0, 2, 3), (4, 0, 1, 4)])
    assert always.odds_ratio == math.inf and math.isnan(always.ci[0])
    with pytest.raises(ValueError):
        mantel_haenszel([(1, -1, 0, 0)])


# -- a game with decks -------------------------------------------------------------------------

DECKS = ("gold", "blue", "red")
BASE = {"gold": 3, "blue": 0, "red": 0}  # gold is the strong deck
SPECIAL = {"gold": "Crown", "blue": "Boost", "red": "Boost"}


def card_bonus(deck: str, card: str) -> int:
    """Boost truly helps, but only in the blue deck; Crown (only in gold) does nothing."""
    return 4 if (deck, card) == ("blue", "Boost") else 0


@dataclass(frozen=True, slots=True)
class PlayCard(Action):
    kind: ClassVar[str] = "play_card"
    card: str

    def label(self) -> str:
        return f"play {self.card}"


class DeckState(State):
    """Each seat is dealt a deck (gold, blue or red) and a hand of two cards: its deck's special
    card and a Pip half the time, else two Pips. Each seat plays one card; the higher total of
    the deck's base, a hidden die and the card's bonus wins (a tie is a draw)."""

    def __init__(self, game: DeckGame, seed: int) -> None:
        self.game = game
        self._legal = None
        rng = GameRng(seed)
        self.decks = [DECKS[rng.below(3)] for _ in range(2)]
        self.hands = [[SPECIAL[d], "Pip"] if rng.below(2) else ["Pip", "Pip"] for d in self.decks]
        self.rolls = [rng.below(6) for _ in range(2)]
        self.played: list[str] = []

    def _legal_actions(self) -> list[Action]:
        return [PlayCard(c) for c in sorted(set(self.hands[len(self.played)]))]

    def _apply(self, action: PlayCard) -> list[dict]:
        seat = len(self.played)
        self.played.append(action.card)
        return [{"type": "played", "seat": seat, "card": action.card}]

    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else len(self.played)

    def is_terminal(self) -> bool:
        return len(self.played) == 2

    def totals(self) -> list[int]:
        return [
            BASE[d] + roll + card_bonus(d, card)
            for d, roll, card in zip(self.decks, self.rolls, self.played)
        ]

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        a, b = self.totals()
        return [0.5, 0.5] if a == b else [float(a > b), float(b > a)]

    def turn_number(self) -> int:
        return len(self.played) + 1

    def stats(self) -> dict[str, Any]:
        return {"decks": list(self.decks)}

    def clone(self) -> DeckState:
        twin = DeckState.__new__(DeckState)
        twin.game, twin._legal = self.game, self._legal
        twin.decks, twin.rolls = list(self.decks), list(self.rolls)
        twin.hands = [list(h) for h in self.hands]
        twin.played = list(self.played)
        return twin

    def view(self, seat):
        return {"played": list(self.played)}

    def to_json(self):
        return {"played": list(self.played)}

    def determinize(self, seat, rng):
        return self.clone()


class DeckGame(Game):
    name = "simdecks"
    action_classes = (PlayCard,)

    def new_initial_state(self, seed: int = 0) -> DeckState:
        return DeckState(self, seed)

    def state_from_json(self, data):
        raise NotImplementedError


register_game(DeckGame)


@pytest.fixture(scope="module")
def deck_summary(tmp_path_factory):
    spec = RunSpec(
        "simdecks",
        2,
        ("random",),
        games=600,
        seed=5,
        error_dir=str(tmp_path_factory.mktemp("errors")),
    )
    return summarize(run(spec, workers=1))


def test_stratified_impact_finds_the_true_card_and_not_the_confounded_one(deck_summary):
    raw = {(r["card"], r["event"]): r for r in deck_summary["cards"]}
    # The raw association is fooled: Crown only comes in the strong deck, so seats that
    # played it won far more often, although the card itself does nothing.
    crown_raw = raw[("Crown", "played")]
    assert crown_raw["difference"] > 0.2 and crown_raw["significant_adjusted"]
    stratified = deck_summary["card_impact_stratified"]
    assert stratified["strata_by"] == ["variant", "deck", "agent", "seat"]
    rows = {r["card"]: r for r in stratified["rows"]}
    crown = rows["Crown"]
    assert crown["ranked"] and crown["informative_strata"] == 2  # gold in seat 1 and seat 2
    assert crown["ci"][0] < 1 < crown["ci"][1]
    assert crown["p_adjusted"] > 0.05
    # Boost helps in the blue deck only; within the decks it is found all the same.
    boost = rows["Boost"]
    assert boost["informative_strata"] == 4  # blue and red, each in both seats
    assert boost["odds_ratio"] > 2 and boost["ci"][0] > 1
    assert boost["p_adjusted"] < 0.05 and boost["significant_adjusted"]
    ranked = [r["card"] for r in stratified["rows"] if r["ranked"]]
    assert ranked[0] == "Boost"
    # The fairness pass's bar: Boost is past +/-10 points, and so is Pip below (a seat that
    # plays a Pip holds no Boost to play); the confounded Crown is not.
    assert stratified["past_10_points"] == ["Boost", "Pip"]
    assert rows["Pip"]["odds_ratio"] < 2 / 3


def test_the_text_summary_and_report_show_both_tables(deck_summary):
    from io import StringIO

    from rich.console import Console

    from robotable.sim.text import print_summary

    buffer = StringIO()
    print_summary(json_safe(deck_summary), Console(file=buffer, width=160))
    text = buffer.getvalue()
    assert "card association" in text and "Mantel-Haenszel" in text
    assert "past +/-10 points (odds ratio outside 0.67-1.5, Holm p < 0.05): Boost, Pip" in text
    html = render_html(json_safe(deck_summary))
    assert "Card impact within strata" in html and "Card association" in html
    assert html.index("<h3>Card impact within strata") < html.index("<h3>Card association")


def _result(index, arrangement, returns, cards, extras=None):
    return GameResult(
        0, index, index, arrangement, returns, 2, 2, 0.0, cards=cards, extras=extras or {}
    )


def test_a_card_seen_in_one_stratum_only_is_flagged_and_not_ranked():
    results = []
    for i in range(60):
        won = i % 3 == 0
        cards = ((("played", "Solo"),) if i % 2 else (), ())
        results.append(_result(i, (0, 1), (1.0, 0.0) if won else (0.0, 1.0), cards))
    spec = RunSpec("simdecks", 2, ("random", "greedy"), games=60, fixed_seats=True)
    out = stratified_card_impact(spec, results)
    (row,) = out["rows"]
    assert row["card"] == "Solo" and row["informative_strata"] == 1
    assert not row["ranked"] and row["flag"] == TOO_FEW
    assert row["odds_ratio"] is None and row["p_adjusted"] is None
    assert out["strata_by"][1] == "deck (not recorded)"
    # In words, one card is one card: "0 cards ranked ... 1 card too rare to rank".
    sentence = stratified_sentence(out)
    assert "0 cards ranked" in sentence and "; 1 card too rare to rank" in sentence


def test_the_deck_comes_from_the_game_stats_when_it_records_one():
    assert seat_deck({"decks": ["assembly_line", "heavy_metal"]}, 1, 2) == "heavy_metal"
    assert seat_deck({"decks": {"code": 3}}, 0, 2) is None
    assert seat_deck({}, 0, 2) is None
