"""The protocol's contract, checked on random games of every bundled game and seat count."""

from __future__ import annotations

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
