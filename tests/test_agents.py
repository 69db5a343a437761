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


BUNDLED = robotable.core.registry.bundled_game_names()


@pytest.mark.parametrize("level", ["easy", "medium", "hard", "expert"])
def test_every_named_strength_is_an_agent_in_every_game(level: str) -> None:
    from robotable.agents import concrete_spec

    for name in BUNDLED:
        spec = concrete_spec(level, name)
        make_agent(spec)  # the concrete agent parses
        game = robotable.load_game(name)
        state = game.new_initial_state(seed=1)
        if level in ("easy", "medium"):  # the searching levels are timed by the next test
            assert make_agent(level, seed=1).act(state) in state.legal_actions()


@pytest.mark.parametrize("level", ["easy", "medium"])
@pytest.mark.parametrize("name", BUNDLED)
def test_fixed_budget_levels_play_the_same_under_a_seed(level: str, name: str) -> None:
    game = robotable.load_game(name)

    def opening(seed: int) -> list:
        state = game.new_initial_state(seed=3)
        agents = [make_agent(level, seed=seed + s) for s in range(game.num_players)]
        moves = []
        while not state.is_terminal() and len(moves) < 40:
            action = agents[state.current_player()].act(state)
            moves.append(action)
            state.apply_action(action)
        return moves

    assert opening(11) == opening(11)


@pytest.mark.parametrize("name", BUNDLED)
def test_medium_beats_random_in_every_game(name: str) -> None:
    """A small strength check, seats rotated: Medium wins most of 20 games against Random."""
    game = robotable.load_game(name)
    score = 0.0
    for i in range(20):
        medium_seat = i % game.num_players
        agents = [make_agent("random", seed=i * 7 + s) for s in range(game.num_players)]
        agents[medium_seat] = make_agent("medium", seed=i)
        score += play(game, agents, seed=100 + i)[medium_seat]
    assert score >= 14, f"{name}: medium scored {score} of 20 against random"


def test_mcts_reuse_keeps_the_subtree_when_the_same_seat_decides_again() -> None:
    """With reuse=1 the agent remembers the subtree under its move for its own next decision,
    and only for the very position that move leads to; under a seed it plays the same moves."""
    game = robotable.load_game("stakbots")

    def moves(seed: int) -> tuple[list, int]:
        state = game.new_initial_state(seed=5)
        agents = [make_agent("mcts:iterations=40,reuse=1", seed=seed + s) for s in range(2)]
        played, kept = [], 0
        while not state.is_terminal() and len(played) < 30:
            seat = state.current_player()
            action = agents[seat].act(state)
            state.apply_action(action)
            played.append(action)
            remembered = agents[seat]._kept
            if remembered is not None:
                kept += 1
                assert state.current_player() == seat
                assert remembered[0] == state.to_json()
        return played, kept

    first, kept = moves(3)
    assert kept > 0
    assert moves(3)[0] == first
