"""The vector environment: each sub-env is the single environment, batched in Gymnasium's layout."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode
from hypothesis import given, settings
from hypothesis import strategies as st

import robotable.envs.gymnasium as rgym
from robotable.core.registry import bundled_game_names
from robotable.envs import vector_bench
from robotable.envs.gymnasium import RobotableEnv
from robotable.envs.vector import RobotableVectorEnv
from robotable.envs.vector_bench import random_actions

NAMES = bundled_game_names()


def _pick(mask: np.ndarray, choice: float, illegal: bool) -> int:
    """An action from a fraction in [0, 1): a legal one by the mask, or an illegal one."""
    legal = np.flatnonzero(mask)
    if illegal or not len(legal):
        banned = np.flatnonzero(mask == 0)
        return int(banned[int(choice * len(banned))]) if len(banned) else 0
    return int(legal[int(choice * len(legal))])


@settings(max_examples=12, deadline=None)
@given(
    name=st.sampled_from(NAMES),
    num_envs=st.integers(1, 3),
    seed=st.integers(0, 2**31),
    moves=st.lists(
        st.tuples(st.floats(0, 0.999), st.integers(0, 40).map(lambda x: x == 0)),
        min_size=1,
        max_size=60,
    ),
)
def test_each_sub_env_is_the_single_env(
    name: str, num_envs: int, seed: int, moves: list[tuple[float, bool]]
) -> None:
    """Driven with the same seed and actions, sub-env i gives what a single env seeded
    seed + i gives, with Gymnasium's next-step autoreset (its action ignored, reward 0)."""
    vector = RobotableVectorEnv(name, num_envs=num_envs, opponents="random")
    singles = [RobotableEnv(name, opponents="random") for _ in range(num_envs)]
    observations, infos = vector.reset(seed=seed)
    ended = [False] * num_envs
    for i, single in enumerate(singles):
        observation, info = single.reset(seed=seed + i)
        assert np.array_equal(observations[i], observation)
        assert np.array_equal(infos["action_mask"][i], info["action_mask"])
    for choice, illegal in moves:
        actions = np.array(
            [_pick(infos["action_mask"][i], choice, illegal) for i in range(num_envs)]
        )
        observations, rewards, terminations, truncations, infos = vector.step(actions)
        assert infos["_action_mask"].all()
        for i, single in enumerate(singles):
            if ended[i]:
                observation, info = single.reset()
                reward, terminated, truncated = 0.0, False, False
            else:
                observation, reward, terminated, truncated, info = single.step(actions[i])
            assert np.array_equal(observations[i], observation)
            assert np.array_equal(infos["action_mask"][i], info["action_mask"])
            assert (rewards[i], terminations[i], truncations[i]) == (reward, terminated, truncated)
            assert bool(info.get("illegal_action")) == bool(
                infos.get("illegal_action", np.zeros(num_envs))[i]
            )
            ended[i] = terminated or truncated


def _play_until_an_end(vector: RobotableVectorEnv, infos: dict, seed: int) -> tuple:
    rng = np.random.default_rng(seed)
    for _ in range(5000):
        actions = np.array([_pick(row, rng.random(), False) for row in infos["action_mask"]])
        result = vector.step(actions)
        infos = result[4]
        if result[2].any() or result[3].any():
            return result
    raise AssertionError("no episode ended in 5000 steps")


def test_same_step_autoreset_returns_the_new_episode_and_the_final_observation() -> None:
    vector = RobotableVectorEnv(
        "stakbots", num_envs=2, autoreset_mode=AutoresetMode.SAME_STEP, opponents="random"
    )
    assert vector.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    _, infos = vector.reset(seed=5)
    observations, _, terminations, truncations, infos = _play_until_an_end(vector, infos, 1)
    ended = np.flatnonzero(terminations | truncations)
    assert infos["_final_obs"][ended].all() and not infos["_final_obs"][~(terminations)].any()
    for i in ended:
        assert infos["final_obs"][i].shape == observations[i].shape
        assert infos["final_info"][i]["action_mask"].sum() == 0  # the game is over
        assert infos["action_mask"][i].sum() > 0  # the next game has begun


def test_disabled_autoreset_leaves_resets_to_the_caller() -> None:
    vector = RobotableVectorEnv(
        "rumblebots", num_envs=2, autoreset_mode="Disabled", opponents="random"
    )
    _, infos = vector.reset(seed=2)
    _, _, terminations, truncations, infos = _play_until_an_end(vector, infos, 2)
    ended = terminations | truncations
    with pytest.raises(RuntimeError, match="reset_mask"):
        vector.step(np.zeros(2, dtype=np.int64))
    observations, infos = vector.reset(options={"reset_mask": ended})
    assert (infos["_action_mask"] == ended).all()
    assert infos["action_mask"][ended].sum() > 0


def test_make_vec_builds_the_vector_env_and_batches_the_spaces() -> None:
    rgym.register_envs()
    vector = gymnasium.make_vec(rgym.env_id("betabotz"), num_envs=3, num_players=4)
    assert isinstance(vector.unwrapped, RobotableVectorEnv)
    single = RobotableEnv("betabotz", num_players=4)
    assert vector.single_observation_space == single.observation_space
    assert vector.single_action_space == single.action_space
    assert vector.action_space.shape == (3,)
    observations, infos = vector.reset(seed=0)
    assert observations.shape == (3, single.observation_space.shape[0])
    assert observations.dtype == np.float32 and infos["action_mask"].dtype == np.int8
    vector.close()


def test_bad_arguments_are_named() -> None:
    with pytest.raises(ValueError, match="num_envs"):
        RobotableVectorEnv("stakbots", num_envs=0)
    vector = RobotableVectorEnv("stakbots", num_envs=2)
    with pytest.raises(RuntimeError, match="before reset"):
        vector.step(np.zeros(2, dtype=np.int64))
    vector.reset(seed=1)
    with pytest.raises(ValueError, match="2 actions"):
        vector.step(np.zeros(3, dtype=np.int64))


@settings(max_examples=40, deadline=None)
@given(
    rows=st.lists(st.lists(st.booleans(), min_size=5, max_size=5), min_size=1, max_size=6),
    seed=st.integers(0, 2**31),
)
def test_the_bench_policy_picks_a_legal_action_in_every_row(rows: list, seed: int) -> None:
    masks = np.array(rows, dtype=np.int8)
    actions = random_actions(masks, np.random.default_rng(seed))
    for mask, action in zip(masks, actions):
        assert mask[action] == 1 if mask.any() else action == 0


@pytest.mark.parametrize(
    ("argument", "named"),
    [
        (["--kinds", "vector"], "unknown kind 'vector' in 'vector' (known: robotable, parallel"),
        (["--kinds", ","], "no kind in ','"),
        (["--game", "stakbots,chess"], "unknown game 'chess'"),
        (["--sizes", "64,0"], "'0' is not a positive int"),
        (["--seconds", "soon"], "'soon' is not a positive float"),
        (["--seconds", "inf"], "'inf' is not a positive float"),
        (["--rounds", "-2"], "'-2' is not a positive int"),
        (["--workers", "0"], "'0' is not a positive int"),
        (["--opponents", "nobody", "--sizes", "1"], "unknown agent 'nobody'"),
        (["--players", "9", "--sizes", "1"], "9 seats is not allowed"),
    ],
)
def test_the_bench_refuses_bad_arguments_in_one_line(
    argument: list[str], named: str, capsys: pytest.CaptureFixture
) -> None:
    with pytest.raises(SystemExit) as stop:
        vector_bench.main(argument)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert named in err.strip().splitlines()[-1] and "Traceback" not in err
