"""PettingZoo's own conformance tests on every game and seat count."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import robotable
from robotable.core.registry import bundled_game_names, game_class
from robotable.envs import pettingzoo as rpz


def _configs() -> list[tuple[str, int]]:
    configs = []
    for name in bundled_game_names():
        try:
            cls = game_class(name)
        except Exception:
            configs.append((name, 0))
            continue
        configs.extend((name, n) for n in range(cls.min_players, cls.max_players + 1))
    return configs


def _min_seats() -> list[tuple[str, int]]:
    seen: dict[str, int] = {}
    for name, n in _configs():
        seen.setdefault(name, n)
    return list(seen.items())


@pytest.mark.parametrize(("name", "players"), _configs())
def test_api_test(name: str, players: int) -> None:
    with warnings.catch_warnings():
        # api_test warns that Dict observations are not Box/Discrete: PettingZoo's own classic
        # games use the same {"observation", "action_mask"} layout.
        warnings.simplefilter("ignore", UserWarning)
        api_test(rpz.env(name, num_players=players or None), num_cycles=150)


@pytest.mark.parametrize(("name", "players"), _min_seats())
def test_seed_test(name: str, players: int) -> None:
    seed_test(lambda: getattr(rpz, f"{name}_v0").env(num_players=players or None), num_cycles=60)


@pytest.mark.parametrize(("name", "players"), _min_seats())
def test_whole_game_rewards_are_the_returns(name: str, players: int) -> None:
    env = rpz.raw_env(name, num_players=players or None, render_mode="ansi")
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, _ = env.last()
        totals[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        assert env.agent_selection == f"player_{env.state.current_player()}"
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(rng.choice(legal)))
    assert isinstance(env.render(), str)
    assert env.metadata["name"] == f"{name}_v0"


def test_raw_env_rejects_an_illegal_action_and_the_wrapper_ends_the_game() -> None:
    raw = rpz.raw_env("countdown", num_players=2)
    raw.reset(seed=1)
    mask = raw.observe(raw.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(robotable.IllegalAction, match="not legal"):
        raw.step(illegal)
    env = rpz.env("countdown", num_players=2)
    env.reset(seed=1)
    env.last()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(illegal)
    assert all(env.terminations.values())
