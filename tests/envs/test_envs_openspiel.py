"""OpenSpiel's random simulation test and its MCTS / IS-MCTS bots on every game."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import robotable.envs.openspiel as rospiel
from robotable.core.registry import bundled_game_names, game_class
from robotable.envs.openspiel_bench import (
    compare,
    format_random,
    format_report,
    main,
    random_vs_cpp,
)
from robotable.frontend.bench import BENCH_TABLES


def _min_seats() -> list[tuple[str, int]]:
    # The fewest seats: a random six-seat Betabotz game through pybind takes ~25 s, and every
    # seat count is already played by the PettingZoo tests.
    configs = []
    for name in bundled_game_names():
        try:
            configs.append((name, game_class(name).min_players))
        except Exception:
            configs.append((name, 0))
    return configs


NAMES = bundled_game_names()


@pytest.mark.parametrize(("name", "players"), _min_seats())
def test_random_sim_test(name: str, players: int) -> None:
    game = rospiel.load(name, num_players=players or None, seed=1)
    # serialize=False: OpenSpiel serializes a SAMPLED_STOCHASTIC game's RNG through
    # Game::GetRNGState, which pybind does not let Python games override; state serialization
    # is tested on its own below.
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize("name", NAMES)
def test_metadata(name: str) -> None:
    game = rospiel.load(name, seed=0)
    kind = game.get_type()
    assert kind.short_name == f"python_robotable_{name}"
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert kind.provides_information_state_string and kind.provides_observation_tensor
    assert pyspiel.load_game(str(game)).num_distinct_actions() == game.num_distinct_actions()


def _advance(state, steps: int, rng: np.random.RandomState) -> None:
    for _ in range(steps):
        if state.is_terminal():
            return
        state.apply_action(int(rng.choice(state.legal_actions())))


@pytest.mark.parametrize("name", NAMES)
def test_serialize_clone_and_resample(name: str) -> None:
    game = rospiel.load(name, seed=3)
    state = game.new_initial_state()
    rng = np.random.RandomState(0)
    _advance(state, 25, rng)
    restored = game.deserialize_state(state.serialize())
    assert str(restored) == str(state)
    for player in range(game.num_players()):
        assert restored.information_state_string(player) == state.information_state_string(player)
    clone = state.clone()
    _advance(clone, 5, rng)
    assert str(game.deserialize_state(state.serialize())) == str(state)  # original untouched
    if not state.is_terminal():
        player = state.current_player()
        sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
        sample = state.resample_from_infostate(player, sampler)
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.observation_tensor(player) == state.observation_tensor(player)
        assert sample.legal_actions() == state.legal_actions()


@pytest.mark.parametrize("name", NAMES)
def test_openspiel_mcts_and_ismcts_play_a_whole_game(name: str) -> None:
    game = rospiel.load(name, seed=5)
    rs = np.random.RandomState(5)
    # Tiny budgets and the game's heuristic at the leaves keep this fast; the bench uses
    # OpenSpiel's standard random-rollout evaluator.
    evaluator = rospiel.HeuristicEvaluator()
    bots = [
        ismcts.ISMCTSBot(game, evaluator, 1.0, max_simulations=3, random_state=rs),
        mcts.MCTSBot(game, 1.0, 3, evaluator, random_state=rs),
    ]
    state = game.new_initial_state()
    while not state.is_terminal():
        player = state.current_player()
        state.apply_action(int(bots[player % 2].step(state)))
    returns = state.returns()
    assert len(returns) == game.num_players() and all(0.0 <= r <= 1.0 for r in returns)


def test_compare_reports_both_searchers() -> None:
    result = compare("countdown", 2, 0.005, 7)
    assert result["games"] == 2 and result["num_players"] == 2
    assert result["robotable"]["iterations_per_second"] > 0
    assert result["openspiel"]["iterations_per_second"] > 0
    assert 0.0 <= result["robotable_win_rate"] <= 1.0
    assert "iterations/s" in format_report(result)


def test_random_speed_beside_cpp_has_a_ratio_per_table_and_round() -> None:
    # The interleaved bench (`--random-only`): each table's rate over the C++ median of the same
    # round, one ratio per round, and a line per table in the report.
    result = random_vs_cpp(0.001, 2)
    assert len(result["openspiel_median_by_round"]) == 2
    assert set(result["games"]) == {f"{g}/{n}" for g, n in BENCH_TABLES}
    for row in result["games"].values():
        assert row["random_actions_per_s"] > 0 and len(row["vs_cpp_median_by_round"]) == 2
        assert row["vs_cpp_median"] > 0
    report = format_random(result)
    assert all(key in report for key in result["games"])


@pytest.mark.parametrize("argv", [["--rounds", "0"], ["--random-only", "--seconds", "-1"]])
def test_bench_refuses_a_count_that_measures_nothing(argv: list[str], capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert ("--rounds" in error or "--seconds" in error) and "Traceback" not in error
