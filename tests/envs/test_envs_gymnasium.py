"""Gymnasium's env checker on every game, and the single-agent contract."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import robotable.envs.gymnasium as rgym
from robotable.core.registry import bundled_game_names

NAMES = bundled_game_names()


@pytest.mark.parametrize("name", NAMES)
def test_check_env(name: str) -> None:
    rgym.register_envs()
    env = gymnasium.make(rgym.env_id(name), opponents="random")
    with warnings.catch_warnings():
        # Observations are unbounded floats: the checker warns about infinite Box limits.
        warnings.simplefilter("ignore", UserWarning)
        check_env(env.unwrapped, skip_render_check=True)


def test_ids_are_registered_on_import() -> None:
    assert rgym.env_id("stakbots") == "robotable/StakBots-v0"
    for name in NAMES:
        assert rgym.env_id(name) in gymnasium.registry


@pytest.mark.parametrize("name", NAMES)
def test_seeded_episode_against_mcts_replays_exactly(name: str) -> None:
    def play() -> tuple[list[int], float]:
        env = gymnasium.make(rgym.env_id(name), opponents="mcts:5", seat="random")
        obs, info = env.reset(seed=9)
        rng = np.random.default_rng(0)
        actions, reward, done, steps = [], 0.0, False, 0
        while not done and steps < 40:
            assert env.observation_space.contains(obs)
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            actions.append(action)
            obs, reward, terminated, truncated, info = env.step(action)
            done = terminated or truncated
            steps += 1
        return actions, reward

    assert play() == play()


def test_illegal_action_ends_the_episode_with_the_penalty() -> None:
    env = gymnasium.make("robotable/Countdown-v0", opponents="random", illegal_reward=-2.0)
    _, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == -2.0 and info["illegal_action"]


def test_rewards_are_the_learners_returns() -> None:
    env = gymnasium.make("robotable/Countdown-v0", opponents=["greedy", "random"], num_players=3)
    _, info = env.reset(seed=2)
    terminated, reward = False, 0.0
    while not terminated:
        action = int(np.flatnonzero(info["action_mask"])[0])
        _, reward, terminated, _, info = env.step(action)
    inner = env.unwrapped
    assert reward == inner.state.returns()[inner.seat]


def test_render_is_the_games_text_for_the_learner() -> None:
    env = gymnasium.make("robotable/StakBots-v0", opponents="random", render_mode="ansi")
    env.reset(seed=1)
    inner = env.unwrapped
    assert env.render() == inner.game.render(inner.state, inner.seat)
