"""`robotable.envs.dataset`: kept games as rows of (observation, mask, action, seat, return),
the very rows a learner sees in the PettingZoo environment when it plays the same game."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from robotable.core.errors import RecordError
from robotable.core.registry import bundled_game_names, game_class
from robotable.envs import dataset
from robotable.envs import pettingzoo as rpz
from robotable.sim.results_file import write_results
from robotable.sim.runner import RunSpec, run

CONFIGS = [
    (name, n)
    for name in bundled_game_names()
    for n in range(game_class(name).min_players, game_class(name).max_players + 1)
]


def kept_run(folder: str, name: str, seats: int, seed: int, games: int, **extra) -> Path:
    agents = extra.pop("agents", ("random",))
    spec = RunSpec(
        name, seats, agents, games=games, seed=seed, error_dir=folder, keep_moves=True, **extra
    )
    path = Path(folder) / f"{name}-{seats}-{seed}.jsonl"
    return write_results(path, spec, run(spec, workers=1).results)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 2**31))
def test_each_row_is_what_the_pettingzoo_learner_sees_in_the_same_game(config, seed):
    name, seats = config
    with tempfile.TemporaryDirectory() as folder:
        path = kept_run(folder, name, seats, seed, games=1)
        data = dataset.positions([path])
        result = json.loads(path.read_text().splitlines()[1])
    assert len(data.actions) == result["actions"]
    # Game 0 of a run with master seed S is the PettingZoo environment's first episode after
    # reset(seed=S): both seed it with derive_seed(S, 0).
    env = rpz.env(name, num_players=seats)
    env.reset(seed=seed)
    for row in range(len(data.actions)):
        agent = env.agent_selection
        seen = env.observe(agent)
        assert data.seats[row] == env.possible_agents.index(agent)
        assert np.array_equal(data.observations[row], seen["observation"])
        assert np.array_equal(data.masks[row], seen["action_mask"])
        assert data.masks[row][data.actions[row]] == 1
        env.step(int(data.actions[row]))
        while env.agents and env.terminations[env.agent_selection]:
            env.step(None)  # the finished seats leave one by one
    assert env.unwrapped.state.is_terminal()
    assert [data.returns[r] for r in range(len(data.actions))] == [
        result["returns"][s] for s in data.seats
    ]


def test_a_barred_run_gives_its_unbarred_games_and_files_pool(tmp_path):
    barred = kept_run(
        str(tmp_path), "stakbots", 2, 3, 12, agents=("restricted:greedy,card=Core Bot", "greedy")
    )
    barred_games = [json.loads(line) for line in barred.read_text().splitlines()[1:]]
    plain = kept_run(str(tmp_path), "stakbots", 2, 4, 5, agents=("greedy",))
    data = dataset.positions([barred, plain])
    lengths = [len(g.get("unbarred_moves") or g["moves"]) for g in barred_games]
    assert len(data.actions) == sum(lengths) + sum(
        json.loads(line)["actions"] for line in plain.read_text().splitlines()[1:]
    )
    assert int(data.games.max()) == 12 + 5 - 1
    out = tmp_path / "data.npz"
    assert dataset.main([str(barred), str(plain), "--out", str(out)]) == 0
    with np.load(out) as saved:
        assert np.array_equal(saved["actions"], data.actions)
        assert saved["observations"].dtype == np.float32


def test_a_data_set_says_in_one_line_what_it_cannot_use(tmp_path, capsys):
    plain = kept_run(str(tmp_path), "stakbots", 2, 1, 2, agents=("greedy",))
    other = kept_run(str(tmp_path), "stakbots", 3, 1, 2, agents=("greedy",))
    spec = RunSpec("stakbots", 2, ("greedy",), games=2, seed=5, error_dir=str(tmp_path))
    unkept = write_results(tmp_path / "unkept.jsonl", spec, run(spec, workers=1).results)
    for files, words in [
        ([plain, other], "one game and seat count per data set"),
        ([unkept], "no game with its moves kept (simulate --keep-moves)"),
        ([tmp_path / "none.jsonl"], "no such file"),
    ]:
        with pytest.raises(RecordError) as caught:
            dataset.positions(files)
        assert words in str(caught.value) and "\n" not in str(caught.value)
    assert dataset.main([str(plain), "--out", str(tmp_path / "no" / "data.npz")]) == 2
    [line] = capsys.readouterr().err.strip().splitlines()
    assert line.startswith("error: --out ") and "cannot write it" in line
