"""Rows written in place (envs/rows.py, compiled in the compiled engine) hold the very bytes of
the encoding's arrays: observations bit-identical to `Encoding.observe`, masks to `mask`."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import robotable
from robotable.envs.encoding import Encoding
from robotable.envs.rows import write_mask, write_observation

from .test_envs_encoding import CONFIGS


@pytest.mark.parametrize(("name", "players"), CONFIGS)
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**31), steps=st.integers(0, 200))
def test_rows_written_in_place_are_the_encodings_bytes(
    name: str, players: int, seed: int, steps: int
) -> None:
    game = robotable.load_game(name, num_players=players or None)
    encoding = Encoding(game)
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    observations = np.full((3, encoding.observation_size), np.nan, dtype=np.float32)
    masks = np.full((3, encoding.num_actions), 7, dtype=np.int8)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    legal = {} if state.is_terminal() else encoding.legal_by_index(state, ordered=False)
    for seat in range(game.num_players):
        view = state.observation_view(seat)
        encoding.observe_into(view, observations, 1)
        assert observations[1].tobytes() == encoding.observe(view).tobytes()
    encoding.mask_into(legal, masks, 1)
    assert masks[1].tobytes() == encoding.mask(legal).tobytes()
    # The other rows are untouched.
    assert np.isnan(observations[[0, 2]]).all() and (masks[[0, 2]] == 7).all()


def test_a_row_of_the_wrong_width_or_place_is_refused() -> None:
    observations = np.zeros((2, 3), dtype=np.float32)
    masks = np.zeros((2, 4), dtype=np.int8)
    with pytest.raises(ValueError, match="observation of 2 numbers for a row of 3"):
        write_observation(observations, 0, [1.0, 2.0])
    with pytest.raises(IndexError):
        write_observation(observations, 2, [1.0, 2.0, 3.0])
    with pytest.raises(IndexError):
        write_mask(masks, 0, [4])
    with pytest.raises(IndexError):
        write_mask(masks, 0, [-1])
    write_mask(masks, 1, [0, 3])
    assert masks.tolist() == [[0, 0, 0, 0], [1, 0, 0, 1]]
