"""The protocol's contract, checked on random games of every bundled game and seat count."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import robotable
from robotable.core.conformance import check_random_game
from robotable.core.registry import bundled_game_names

# The bundled games and the framework's own test game; games other test modules register for
# their own purposes are not part of the contract checked here.
CONFIGS = [
    (name, n)
    for name in [*bundled_game_names(), "countdown"]
    for n in range(
        robotable.core.registry.game_class(name).min_players,
        robotable.core.registry.game_class(name).max_players + 1,
    )
]


@pytest.mark.parametrize(("name", "num_players"), CONFIGS, ids=[f"{g}-{n}" for g, n in CONFIGS])
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**31), choice_seed=st.integers(0, 2**31))
def test_protocol_conformance(name: str, num_players: int, seed: int, choice_seed: int) -> None:
    game = robotable.load_game(name, num_players=num_players)
    check_random_game(game, seed=seed, choice_seed=choice_seed, max_steps=250, every=3)


@pytest.mark.parametrize("name", [*bundled_game_names(), "countdown"])
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**31), choice_seed=st.integers(0, 2**31))
def test_an_equal_action_from_json_plays_as_the_listed_one(
    name: str, seed: int, choice_seed: int
) -> None:
    """`apply_action` finds the listed action by identity first; an equal one built from JSON (a
    record, the web table) must be accepted and play the same game."""
    game = robotable.load_game(name)
    listed, rebuilt = game.new_initial_state(seed=seed), game.new_initial_state(seed=seed)
    rng = random.Random(choice_seed)
    for _ in range(120):
        if listed.is_terminal():
            break
        legal = listed.legal_actions()
        pick = legal[rng.randrange(len(legal))]
        twin = game.action_from_json(pick.to_json())
        assert twin == pick and twin is not pick
        listed.apply_action(pick)
        rebuilt.apply_action(twin)
    assert rebuilt.to_json() == listed.to_json()
