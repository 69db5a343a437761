"""Opponents stepped in batch (issue 82): in a vector env, the sub-envs waiting on one trained
policy get their moves from one forward pass, and the games are those of each sub-env played
one move at a time."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode
from hypothesis import given, settings
from hypothesis import strategies as st

from robotable.envs.gymnasium import RobotableEnv
from robotable.envs.parallel import ParallelVectorEnv
from robotable.envs.vector import RobotableVectorEnv

GAME = "stakbots"
SEATS = 3


@pytest.fixture(scope="module")
def policy(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The spec of an untrained MaskablePPO policy for 3-seat Stak Bots: random weights play
    observation-dependent moves, which is all that is compared here."""
    pytest.importorskip("torch", reason="PyTorch is not installed (the train extra)")
    pytest.importorskip("sb3_contrib", reason="sb3-contrib is not installed (the train extra)")
    from sb3_contrib import MaskablePPO

    env = RobotableEnv(GAME, num_players=SEATS)
    folder = tmp_path_factory.mktemp("policy")
    MaskablePPO("MlpPolicy", env, seed=0, device="cpu").save(str(folder / "policy.zip"))
    meta = {
        "game": GAME,
        "num_players": SEATS,
        "observation_size": env.encoding.observation_size,
        "num_actions": env.encoding.num_actions,
    }
    (folder / "policy.json").write_text(json.dumps(meta), encoding="utf-8")
    return f"policy:{folder}"


def _actions(masks: np.ndarray, choices: list[float], illegal: bool) -> np.ndarray:
    """A legal action per row picked by a fraction, or in row 0 an illegal one."""
    actions = []
    for row, (mask, choice) in enumerate(zip(masks, choices)):
        pool = np.flatnonzero(mask == 0) if illegal and row == 0 else np.flatnonzero(mask)
        actions.append(int(pool[int(choice * len(pool))]) if len(pool) else 0)
    return np.array(actions)


@settings(max_examples=6, deadline=None)
@given(
    seed=st.integers(0, 2**31),
    seat=st.sampled_from([0, 2, "random"]),
    moves=st.lists(
        st.tuples(st.lists(st.floats(0, 0.999), min_size=3, max_size=3), st.integers(0, 30)),
        min_size=1,
        max_size=40,
    ),
)
def test_each_sub_env_is_the_single_env_with_policy_opponents(
    policy: str, seed: int, seat: int | str, moves: list
) -> None:
    """A policy opponent beside a random one: sub-env i gives what a single env seeded seed + i
    gives (its opponents one move at a time), observations, masks, rewards and ends."""
    opponents = [policy, "random"]
    vector = RobotableVectorEnv(GAME, num_envs=3, num_players=SEATS, opponents=opponents, seat=seat)
    singles = [RobotableEnv(GAME, num_players=SEATS, opponents=opponents, seat=seat) for _ in "abc"]
    observations, infos = vector.reset(seed=seed)
    ended = [False] * 3
    for i, single in enumerate(singles):
        observation, info = single.reset(seed=seed + i)
        assert observations[i].tobytes() == observation.tobytes()
        assert infos["action_mask"][i].tobytes() == info["action_mask"].tobytes()
    for choices, dice in moves:
        actions = _actions(infos["action_mask"], choices, illegal=dice == 0)
        observations, rewards, terminations, _, infos = vector.step(actions)
        for i, single in enumerate(singles):
            if ended[i]:
                observation, info = single.reset()
                reward, terminated = 0.0, False
            else:
                observation, reward, terminated, _, info = single.step(actions[i])
            assert observations[i].tobytes() == observation.tobytes()
            assert infos["action_mask"][i].tobytes() == info["action_mask"].tobytes()
            assert (rewards[i], terminations[i]) == (reward, terminated)
            ended[i] = terminated


def _play(envs: object, steps: int) -> list[bytes]:
    """Every array a run of `steps` seeded steps returns, as bytes."""
    rng = np.random.default_rng(7)
    observations, infos = envs.reset(seed=11)
    seen = [observations.tobytes(), infos["action_mask"].tobytes()]
    for _ in range(steps):
        choices = rng.random(envs.num_envs).tolist()
        result = envs.step(_actions(infos["action_mask"], choices, illegal=False))
        infos = result[4]
        seen += [array.tobytes() for array in result[:4]]
        seen.append(infos["action_mask"].tobytes())
        if "final_obs" in infos:
            seen += [infos["final_obs"][i].tobytes() for i in np.flatnonzero(infos["_final_obs"])]
    return seen


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_batched_opponents_play_the_one_by_one_games(
    policy: str, mode: AutoresetMode, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through episode ends and new deals, the batched path returns the arrays of the path
    where every opponent acts on its own; and it did batch (one call, many sub-envs)."""
    from robotable.agents.policy import PolicyAgent

    sizes: list[int] = []
    act_batch = PolicyAgent.act_batch

    def counted(agents: list, states: list) -> list:
        sizes.append(len(states))
        return act_batch(agents, states)

    monkeypatch.setattr(PolicyAgent, "act_batch", staticmethod(counted))
    kwargs = {"num_envs": 8, "num_players": SEATS, "opponents": policy, "autoreset_mode": mode}
    batched = RobotableVectorEnv(GAME, **kwargs)
    one_by_one = RobotableVectorEnv(GAME, batch_opponents=False, **kwargs)
    assert _play(batched, 60) == _play(one_by_one, 60)
    assert max(sizes) > 1


def test_parallel_workers_batch_the_same_games(policy: str) -> None:
    kwargs = {"num_envs": 6, "num_players": SEATS, "opponents": [policy, "random"]}
    inline = RobotableVectorEnv(GAME, batch_opponents=False, **kwargs)
    with ParallelVectorEnv(GAME, workers=2, **kwargs) as parallel:
        assert _play(parallel, 30) == _play(inline, 30)


def test_a_policy_file_is_loaded_once_while_unchanged(policy: str) -> None:
    from robotable.agents import make_agent

    first, second = make_agent(policy, seed=1), make_agent(policy, seed=2)
    assert first.model is second.model and first.batch_key == second.batch_key
    zip_file = Path(policy.removeprefix("policy:")) / "policy.zip"
    stat = zip_file.stat()
    os.utime(zip_file, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))  # as if rewritten
    assert make_agent(policy, seed=3).model is not first.model
