"""The shared encoding: masks match legal actions, observations come from the view only."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import robotable
from robotable.core.protocol import StateBase
from robotable.core.registry import bundled_game_names, game_class
from robotable.envs import describe
from robotable.envs.encoding import FALLBACK_NUM_ACTIONS, Encoding, canonical_action_key


def _configs() -> list[tuple[str, int]]:
    configs = []
    for name in bundled_game_names():
        try:
            cls = game_class(name)
        except Exception:  # an unimportable game: let the test show its error
            configs.append((name, 0))
            continue
        configs.extend((name, n) for n in range(cls.min_players, cls.max_players + 1))
    return configs


CONFIGS = _configs()


@pytest.mark.parametrize(("name", "players"), CONFIGS)
def test_masks_and_observations_follow_a_random_game(name: str, players: int) -> None:
    game = robotable.load_game(name, num_players=players or None)
    encoding = Encoding(game)
    state = game.new_initial_state(seed=11)
    rng = random.Random(5)
    steps = 0
    while not state.is_terminal() and steps < 400:
        legal = encoding.legal_by_index(state)
        assert list(legal) == sorted(legal)
        assert len(legal) == len(state.legal_actions()) > 0
        mask = encoding.mask(legal)
        assert mask.shape == (encoding.num_actions,) and mask.dtype == np.int8
        assert int(mask.sum()) == len(legal)
        seat = state.current_player()
        obs = encoding.observe(state.view(seat))
        assert obs.shape == (encoding.observation_size,) and obs.dtype == np.float32
        assert np.isfinite(obs).all()
        # The observation is a function of the view: a determinized world looks the same.
        twin = state.determinize(seat, random.Random(steps))
        assert np.array_equal(encoding.observe(twin.view(seat)), obs)
        state.apply_action(legal[rng.choice(list(legal))])
        steps += 1


@pytest.mark.parametrize(("name", "players"), CONFIGS)
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**31), steps=st.integers(0, 150))
def test_observation_view_is_the_view_without_the_worded_choices(
    name: str, players: int, seed: int, steps: int
) -> None:
    """What the RL adapters encode (`observation_view`, which skips wording every legal action
    and a game's other worded keys) is the seat's full view in every other key, so it encodes
    to the same observation."""
    game = robotable.load_game(name, num_players=players or None)
    encoding = Encoding(game)
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    # A game that keeps the protocol's default (a new game without a views module, at first)
    # encodes its full view.
    own = game.views is not None or type(state).observation_view is not StateBase.observation_view
    for seat in [None, *range(game.num_players)]:
        full = state.view(seat)
        bare = state.observation_view(seat)
        assert "legal_actions" in game.worded_view_keys
        assert bare == ({**full, **{key: [] for key in game.worded_view_keys}} if own else full)
        assert np.array_equal(encoding.observe(bare), encoding.observe(full))


def test_observation_view_of_a_game_that_does_not_override_it_is_its_view() -> None:
    state = robotable.load_game("countdown").new_initial_state(seed=1)
    assert state.observation_view(0) == state.view(0)
    assert state.observation_view(0)["legal_actions"]


@pytest.mark.parametrize(("name", "players"), CONFIGS)
def test_describe_reports_sizes(name: str, players: int) -> None:
    info = describe(name, players or None)
    assert info.num_actions > 0 and info.observation_size > 0
    if not info.actions_from_game:
        assert info.num_actions == FALLBACK_NUM_ACTIONS


def test_fallback_index_is_the_position_in_the_sorted_legal_list() -> None:
    game = robotable.load_game("countdown", num_players=2)  # the test game has no RL hooks
    encoding = Encoding(game)
    assert not encoding.actions_from_game and not encoding.obs_from_game
    state = game.new_initial_state(seed=3)
    legal = encoding.legal_by_index(state)
    assert list(legal) == list(range(len(state.legal_actions())))
    keys = [canonical_action_key(action) for action in legal.values()]
    assert keys == sorted(keys)
