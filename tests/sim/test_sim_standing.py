"""Card impact by standing (`simulate --standing`): on a game where one card goes to the seat
already ahead and does nothing, and another truly helps whoever gets it, the stratified table
flags both and the table by standing only the one that helps; the moments a run records, and
how they travel through results files and the command line."""

from __future__ import annotations

import json
from typing import Any

import pytest

from robotable.core.registry import register_game
from robotable.core.rng import GameRng
from robotable.sim.analysis import summarize
from robotable.sim.impact import standing_card_impact, standing_cells
from robotable.sim.report import foresight_sentence, render_html
from robotable.sim.results_file import ResultsFileError, read_results, write_results
from robotable.sim.runner import GameResult, RunSpec, run, standing_ranks
from robotable.sim.text import json_safe

from .test_sim_impact import DeckGame, DeckState

LEADER_BASE = 3  # the seat ahead adds 3 to its die (0-9): it wins about seven games in ten


class StandingState(DeckState):
    """One seat is ahead from the start (public: it adds LEADER_BASE to its hidden die, 0-9). Half
    the games deal a Crown, which does nothing, to the seat ahead four times in five (else to
    the other); the other half deal a Boost, worth 2, to either seat alike. The other hand is a
    Pip. Each seat plays its one card, the higher total wins (a tie is a draw): the play, the
    turns and the result are the deck game's."""

    def __init__(self, game: StandingGame, seed: int) -> None:
        self.game = game
        self._legal = None
        rng = GameRng(seed)
        self.leader = rng.below(2)
        self.rolls = [rng.below(10) for _ in range(2)]
        self.hands = [["Pip"], ["Pip"]]
        if rng.below(2):
            holder = self.leader if rng.below(5) else 1 - self.leader
            self.hands[holder] = ["Crown"]
        else:
            self.hands[rng.below(2)] = ["Boost"]
        self.played: list[str] = []

    def totals(self) -> list[int]:
        return [
            (LEADER_BASE if seat == self.leader else 0)
            + self.rolls[seat]
            + (2 if self.hands[seat] == ["Boost"] else 0)
            for seat in range(2)
        ]

    def stats(self) -> dict[str, Any]:
        return {}

    def clone(self) -> StandingState:
        twin = StandingState.__new__(StandingState)
        twin.game, twin._legal, twin.leader = self.game, self._legal, self.leader
        twin.rolls, twin.played = list(self.rolls), list(self.played)
        twin.hands = [list(h) for h in self.hands]
        return twin

    def view(self, seat: int) -> dict[str, Any]:
        return {"leader": self.leader, "played": list(self.played)}


class StandingGame(DeckGame):
    name = "simstanding"

    def new_initial_state(self, seed: int = 0) -> StandingState:
        return StandingState(self, seed)

    def evaluate(self, state: StandingState, seat: int) -> float:
        # The public lead, before any card is seen: who is ahead, not by how much.
        if state.is_terminal():
            return state.returns()[seat]
        return 0.8 if seat == state.leader else 0.2


register_game(StandingGame)


class BlindStandingGame(StandingGame):
    """The same game with an evaluation that sees nothing: seat 1 always stands first."""

    name = "simstanding_blind"

    def evaluate(self, state: StandingState, seat: int) -> float:
        if state.is_terminal():
            return state.returns()[seat]
        return 0.8 if seat == 1 else 0.2


register_game(BlindStandingGame)


def _spec(tmp_path, **kw) -> RunSpec:
    base = dict(
        game="simstanding",
        num_players=2,
        agents=("random",),
        games=1000,
        seed=5,
        standing=True,
        error_dir=str(tmp_path / "errors"),
    )
    base.update(kw)
    return RunSpec(**base)


@pytest.fixture(scope="module")
def standing_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("standing")
    return run(_spec(tmp), workers=1)


def test_the_table_by_standing_clears_the_card_that_only_follows_the_lead(standing_run):
    summary = summarize(standing_run)
    stratified = summary["card_impact_stratified"]
    by_standing = summary["card_impact_by_standing"]
    assert by_standing["strata_by"][-1] == "standing when taken"
    assert by_standing["games_with_moments"] == 1000
    # Within seats alone the Crown looks strong: it goes with the lead.
    assert "Crown" in stratified["past_10_points"]
    # Among seats standing alike when it was dealt, its holders win as often as the others.
    crown = {r["card"]: r for r in by_standing["rows"]}["Crown"]
    assert crown["ranked"] and crown["ci"][0] < 1 < crown["ci"][1]
    assert "Crown" not in by_standing["past_10_points"]
    # The Boost truly helps, wherever its holder stands: both tables find it.
    assert "Boost" in stratified["past_10_points"]
    assert "Boost" in by_standing["past_10_points"]
    boost = {r["card"]: r for r in by_standing["rows"]}["Boost"]
    assert boost["odds_ratio"] > 2 and boost["ci"][0] > 1


def test_each_game_records_a_cards_first_moment_with_every_seats_rank(standing_run):
    for result in standing_run.results:
        kinds = [(kind, card) for kind, card, _, _ in result.moments]
        assert len(kinds) == len(set(kinds))  # the first of each (type, card) only
        for kind, card, taker, ranks in result.moments:
            assert (kind, card) in result.cards[taker]
            assert len(ranks) == 2 and min(ranks) == 1 and set(ranks) <= {1, 2}


def test_the_rank_counts_the_seats_valued_higher():
    assert standing_ranks([0.2, 0.8, 0.5]) == (3, 1, 2)
    assert standing_ranks([0.5, 0.5]) == (1, 1)  # alike: the same rank
    assert standing_ranks([0.1, 0.7, 0.7, 0.2]) == (4, 1, 1, 3)


def test_without_standing_no_moment_is_recorded_and_no_table_shown(tmp_path):
    outcome = run(_spec(tmp_path, games=20, standing=False), workers=1)
    assert all(r.moments == () for r in outcome.results)
    assert "card_impact_by_standing" not in summarize(outcome)
    assert standing_card_impact(outcome.spec, outcome.results) is None


def test_the_chosen_events_decide_which_moment_counts():
    spec = RunSpec("simstanding", 2, ("random",), games=1)
    # Seat 0 drew the card while behind; seat 1 played it first while ahead.
    result = GameResult(
        0,
        0,
        0,
        (0, 0),
        (0.0, 1.0),
        3,
        2,
        0.0,
        cards=((("drawn", "Gem"),), (("played", "Gem"),)),
        moments=(("drawn", "Gem", 0, (2, 1)), ("played", "Gem", 1, (2, 1))),
    )
    # Counted at its first drawing: seat 0 took it behind, seat 1 (ahead) never drew it.
    assert _cells(standing_cells(spec, [result], {"drawn"})) == {
        (0, 2): [1, 0, 0, 0],
        (1, 1): [0, 0, 1, 1],
    }
    # At its first play: seat 1 took it ahead, seat 0 (behind) never played it.
    assert _cells(standing_cells(spec, [result], {"played"})) == {
        (0, 2): [0, 0, 1, 0],
        (1, 1): [1, 1, 0, 0],
    }
    # Any event: the drawing came first, and seat 1, who played it later, is neither side.
    assert _cells(standing_cells(spec, [result], set())) == {(0, 2): [1, 0, 0, 0]}


def _cells(counts: dict) -> dict:
    """One card's cells keyed by (seat, standing)."""
    (by_stratum,) = counts.values()
    return {(stratum[3], stratum[4]): cell for stratum, cell in by_stratum.items()}


def test_moments_travel_through_a_results_file_and_its_run_is_checked(tmp_path, standing_run):
    spec = _spec(tmp_path, games=30)
    path = write_results(tmp_path / "r.jsonl", spec, run(spec, workers=1).results)
    back, _ = read_results(path, spec)
    assert [r.moments for r in back] == [r.moments for r in run(spec, workers=1).results]
    assert any(r.moments for r in back)
    line = json.loads(path.read_text().splitlines()[1])
    assert line["moments"][0][:2] in (["played", "Crown"], ["played", "Boost"], ["played", "Pip"])
    # A run without --standing cannot resume a file made with it: its games would lack moments.
    with pytest.raises(ResultsFileError, match="standing"):
        read_results(path, _spec(tmp_path, games=30, standing=False))


def test_the_summary_text_and_report_show_the_table_by_standing(standing_run):
    from io import StringIO

    from rich.console import Console

    from robotable.sim.text import print_summary

    summary = json_safe(summarize(standing_run))
    buffer = StringIO()
    print_summary(summary, Console(file=buffer, width=200))
    text = buffer.getvalue()
    assert "card impact within strata (variant, deck (not recorded), agent, seat, standing" in text
    assert "standing when taken; Mantel-Haenszel)" in text
    html = render_html(summary)
    assert "standing when taken)</h3>" in html
    assert "at the moment a card was first taken" in html
    assert "What the standing foretells" in text and "What the standing foretells" in html


def test_simulate_standing_adds_the_table_to_the_json(invoke):
    args = ["simulate", "simstanding", "--games", "40", "--agents", "random", "--workers", "1"]
    plain = invoke(*args, "--json")
    assert plain.exit_code == 0, plain.output
    assert "card_impact_by_standing" not in json.loads(plain.stdout)
    result = invoke(*args, "--standing", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["card_impact_by_standing"]["games_with_moments"] == 40


def test_the_standing_is_checked_against_who_went_on_to_win(standing_run, tmp_path):
    # The seat standing first (the leader, +3 on its die) wins about seven games in ten, and the
    # table by standing says its evaluation sees that.
    foresight = summarize(standing_run)["card_impact_by_standing"]["foresight"]
    assert foresight["games"] == 1000 and foresight["fair_share"] == 0.5
    first, second = foresight["by_rank"]
    assert (first["rank"], second["rank"]) == (1, 2)
    assert first["seat_moments"] == second["seat_moments"] == 2000  # two cards a game
    assert first["ci"][0] > 0.6 and second["ci"][1] < 0.4
    sentence = foresight_sentence(summarize(standing_run)["card_impact_by_standing"])
    assert sentence.startswith("What the standing foretells: of the seats standing first when")
    assert "barely" not in sentence and foresight["tells_the_winner"]
    # An evaluation blind to the lead: the seat it puts first wins no more often than the other
    # (both a little under one half: some games are drawn), and the sentence says the table
    # holds little fixed.
    blind = run(_spec(tmp_path, game="simstanding_blind", games=400), workers=1)
    impact = summarize(blind)["card_impact_by_standing"]
    first, second = impact["foresight"]["by_rank"]
    assert first["ci"][0] < second["ci"][1] and second["ci"][0] < first["ci"][1]
    assert "barely tells who wins" in foresight_sentence(impact)
    assert not impact["foresight"]["tells_the_winner"]
