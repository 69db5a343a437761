"""scripts/fit_heuristic.py: recorded games replay, and each game labels its positions with the
result the fitted numbers are meant to predict."""

from __future__ import annotations

import dataclasses
import json

import pytest

from robotable.core.registry import load_game
from robotable.games.iotabots.state import MULLIGAN, ORDER
from script_modules import load_script


@pytest.fixture(scope="module")
def fit_heuristic():
    return load_script("fit_heuristic")


@pytest.mark.parametrize("game", ["breadwinner", "iotabots", "rumblebots", "stakbots"])
def test_every_weight_is_a_field_of_the_games_weights(fit_heuristic, game):
    subject = fit_heuristic.SUBJECTS[game]()
    names = fit_heuristic.weight_names(subject)
    default = subject.heuristic.DEFAULT
    assert names and all(isinstance(getattr(default, name), float) for name in names)
    assert set(subject.bounds) | set(subject.fixed) <= set(names)
    # the numbers the search uses, changed through the same dataclass the fit changes
    changed = dataclasses.replace(default, **{names[-1]: getattr(default, names[-1]) + 0.5})
    state = load_game(game).new_initial_state(3)
    assert len(subject.heuristic.evaluate_all(state, changed)) == 2


def test_iotabots_positions_carry_the_result_of_their_own_duel(fit_heuristic):
    subject = fit_heuristic.SUBJECTS["iotabots"]()
    record = fit_heuristic.play_one(("iotabots", 7, 5, {}))  # a few iterations: a quick game
    game = load_game("iotabots")
    final = game.new_initial_state(record["seed"])
    for index in record["moves"]:
        final.apply_action(final.legal_actions()[index])
    assert final.is_terminal() and final.returns() == record["returns"]
    labelled = subject.labelled(game.new_initial_state(record["seed"]), record, 1, False)
    assert labelled
    duels = {len(state.results) for state, _ in labelled}
    assert len(duels) == len(final.results)  # positions from every duel, none after the match
    for state, label in labelled:
        winner = final.results[len(state.results)]
        assert label == (0.5 if winner == 2 else float(winner == 0))
        assert state.phase not in (ORDER, MULLIGAN)  # inside a duel: past the order and mulligans


def test_fit_refuses_too_few_games_and_unknown_weights(fit_heuristic, tmp_path):
    games = tmp_path / "games.jsonl"
    games.write_text(json.dumps(fit_heuristic.play_one(("stakbots", 1, 5, {}))) + "\n")
    with pytest.raises(SystemExit, match="1 games; fitting needs at least 10"):
        fit_heuristic.main(["stakbots", "fit", str(games)])
    weights = tmp_path / "weights.json"
    weights.write_text(json.dumps({"nonsense": 1.0}))
    with pytest.raises(SystemExit, match="not a weight of the heuristic: nonsense"):
        fit_heuristic.main(["stakbots", "match", str(weights), "--games", "1"])
    out = tmp_path / "played.jsonl"
    with pytest.raises(SystemExit, match="not a weight of the heuristic: nonsense"):
        fit_heuristic.main(
            ["stakbots", "play", "--games", "1", "--weights", str(weights), "--out", str(out)]
        )
    assert not out.exists()  # refused before a game was played or the file opened


def test_play_values_leaves_with_the_weights_file(fit_heuristic, monkeypatch):
    """A second round's games are the fitted search's: the weights reach both searches."""
    subject = fit_heuristic.SUBJECTS["rumblebots"]()
    seen = []
    real = subject.heuristic.evaluate_all

    def spy(state, w):
        seen.append(w)
        return real(state, w)

    monkeypatch.setattr(subject.heuristic, "evaluate_all", spy)
    fit_heuristic.play_one(("rumblebots", 3, 5, {"temperature": 4.0}))
    assert seen and {w.temperature for w in seen} == {4.0}
    assert {w.crystal for w in seen} == {subject.heuristic.DEFAULT.crystal}
