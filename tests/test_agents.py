"""Agents play through the protocol only; checked on the small test game."""

from __future__ import annotations

import pytest

import robotable
from robotable.agents import make_agent, parse_agent_spec


def play(game, agents, seed):
    state = game.new_initial_state(seed=seed)
    while not state.is_terminal():
        state.apply_action(agents[state.current_player()].act(state))
    return state.returns()


def test_agent_specs_parse_positional_and_keyword_parameters() -> None:
    assert parse_agent_spec("mcts:200") == ("mcts", {"iterations": 200})
    assert parse_agent_spec("mcts:time=0.5,c=1") == (
        "mcts",
        {"time": 0.5, "c": 1.0, "iterations": None},
    )
    assert parse_agent_spec("random") == ("random", {})


@pytest.mark.parametrize(
    ("spec", "needle"),
    [
        ("wizard", "unknown agent"),
        ("mcts:x=1", "unknown parameter 'x'"),
        ("mcts:iterations=lots", "must be int"),
        ("random:3", "takes no parameters"),
        ("mcts:0", "must be positive"),
        ("", "expected a name"),
    ],
)
def test_bad_agent_specs_are_refused_with_a_clear_message(spec: str, needle: str) -> None:
    with pytest.raises(robotable.OptionError, match=needle):
        make_agent(spec)


def test_same_seed_same_choices() -> None:
    game = robotable.load_game("countdown")
    state = game.new_initial_state(seed=5)
    first = [make_agent("mcts:100", seed=9).act(state) for _ in range(2)]
    assert first[0] == first[1]


def test_greedy_takes_a_win_in_one() -> None:
    game = robotable.load_game("countdown", pile=3)
    state = game.new_initial_state(seed=1)
    assert make_agent("greedy").act(state).label() in ("take 3", "play boost 3")


def test_mcts_beats_random_on_the_test_game() -> None:
    game = robotable.load_game("countdown")
    score = 0.0
    for i in range(20):
        agents = [make_agent("mcts:200", seed=i), make_agent("random", seed=i)]
        if i % 2:
            agents.reverse()
        score += play(game, agents, seed=i)[i % 2]
    assert score >= 16


def test_mcts_search_never_touches_the_real_state() -> None:
    game = robotable.load_game("countdown", num_players=3)
    state = game.new_initial_state(seed=2)
    before = state.to_json()
    make_agent("mcts:300", seed=1).act(state)
    assert state.to_json() == before


def test_mcts_time_budget_stops_the_search() -> None:
    game = robotable.load_game("countdown")
    agent = make_agent("mcts:time=0.05", seed=1)
    agent.act(game.new_initial_state(seed=3))
    assert agent.last_iterations > 0
