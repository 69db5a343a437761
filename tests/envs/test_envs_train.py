"""`robotable train` and `policy:PATH` players (issue 82): a tiny run learns, resumes, and its
policy plays wherever an agent spec is taken; a bad path fails in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import robotable
from robotable.agents import check_for_game, make_agent, parse_agent_spec
from robotable.core.errors import OptionError

TINY_PPO = {"n_steps": 64, "batch_size": 128, "n_epochs": 4}


def test_a_policy_spec_parses_to_its_path_commas_and_colons_included() -> None:
    assert parse_agent_spec("policy:runs/a,b:c") == ("policy", {"path": "runs/a,b:c"})
    with pytest.raises(OptionError, match="policy needs a path"):
        parse_agent_spec("policy:")


def test_a_bad_policy_path_fails_in_one_line(tmp_path: Path) -> None:
    with pytest.raises(OptionError) as error:
        make_agent(f"policy:{tmp_path / 'nowhere'}")
    assert "no trained policy at" in str(error.value) and "\n" not in str(error.value)
    (tmp_path / "policy.zip").write_bytes(b"not a model")
    with pytest.raises(OptionError, match="policy.json is missing"):
        check_for_game(f"policy:{tmp_path}", "stakbots")


def test_a_server_refuses_a_policy_path_sent_by_a_client(tmp_path: Path) -> None:
    pytest.importorskip("starlette", reason="the web extra is not installed")
    from robotable.server.ai import AiLimits, Refused, check_agent_spec

    with pytest.raises(Refused, match="plays no trained policies"):
        check_agent_spec(f"policy:{tmp_path}", "stakbots", AiLimits())


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("torch", reason="PyTorch is not installed (the train extra)")
    pytest.importorskip("sb3_contrib", reason="sb3-contrib is not installed (the train extra)")
    from robotable.envs.train import train

    out = tmp_path_factory.mktemp("run")
    train(
        "stakbots",
        out,
        steps=1024,
        opponents="random",
        num_envs=8,
        seed=0,
        eval_every=2048,
        eval_games=40,
        eval_levels=("random",),
        checkpoint_every=512,
        ppo=TINY_PPO,
    )
    # Resumed: the same command with more steps continues from the checkpoint.
    train(
        "stakbots",
        out,
        steps=2048,
        opponents="random",
        num_envs=8,
        seed=0,
        eval_every=2048,
        eval_games=40,
        eval_levels=("random",),
        checkpoint_every=512,
        ppo=TINY_PPO,
    )
    return out


def test_a_tiny_training_run_improves_on_its_untrained_policy(tiny_run: Path) -> None:
    rows = [json.loads(line) for line in (tiny_run / "progress.jsonl").read_text().splitlines()]
    assert [row["steps"] for row in rows] == [0, 2048]  # resumed, not restarted
    assert json.loads((tiny_run / "run.json").read_text())["steps"] == 2048
    assert rows[-1]["random"]["mean"] > rows[0]["random"]["mean"]


def test_a_trained_policy_plays_as_an_agent(tiny_run: Path) -> None:
    spec = f"policy:{tiny_run}"
    assert check_for_game(spec, "stakbots")[0] == "policy"
    with pytest.raises(OptionError, match="trained on stakbots, not rumblebots"):
        check_for_game(spec, "rumblebots")
    game = robotable.load_game("stakbots", num_players=2)
    state = game.new_initial_state(seed=3)
    agents = [make_agent(spec, seed=1), make_agent("random", seed=2)]
    while not state.is_terminal():
        action = agents[state.current_player()].act(state)
        assert action in state.legal_actions()
        state.apply_action(action)


def test_a_server_seats_only_named_policies_from_its_policies_folder(tmp_path: Path) -> None:
    pytest.importorskip("starlette", reason="the web extra is not installed")
    from robotable.server.ai import AiLimits, Refused, capped_spec, check_agent_spec

    run = tmp_path / "sb-0"
    run.mkdir()
    (run / "policy.zip").write_bytes(b"")
    (run / "policy.json").write_text(json.dumps({"game": "stakbots", "num_players": 2}))
    limits = AiLimits(policies=str(tmp_path))
    check_agent_spec("policy:sb-0", "stakbots", limits)
    assert capped_spec("policy:sb-0", "stakbots", limits) == f"policy:{run}"
    for spec, refusal in [
        (f"policy:{run}", "plain name, not a path"),
        ("policy:../sb-0", "plain name, not a path"),
        ("policy:sb-1", "no trained policy named 'sb-1'"),
    ]:
        with pytest.raises(Refused, match=refusal):
            check_agent_spec(spec, "stakbots", limits)
    with pytest.raises(Refused, match="plays stakbots, not rumblebots"):
        check_agent_spec("policy:sb-0", "rumblebots", limits)


# -- the benchmark's report (robotable train-report) ------------------------------------------------
def _fake_run(folder: Path, game: str, seed: int, curve: list[tuple[int, float]]) -> Path:
    folder.mkdir(parents=True)
    config = {"game": game, "seed": seed, "opponents": "medium", "num_players": 2, "options": {}}
    run = {"config": config, "steps": curve[-1][0], "seconds": 600.0, "cpu_seconds": 540.0}
    (folder / "run.json").write_text(json.dumps(run), encoding="utf-8")
    rows = [
        {"steps": s, "seconds": 1.0, "cpu_seconds": 1.0, "random": {"mean": m, "low": 0, "high": 1}}
        for s, m in curve
    ]
    (folder / "progress.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), "utf-8")
    return folder


def test_the_report_pools_the_seeds_of_each_curve_point(tmp_path: Path) -> None:
    from robotable.envs.benchmark import curve_table, read_run, runs_table

    runs = [
        read_run(_fake_run(tmp_path / "a", "stakbots", 0, [(0, 0.4), (100, 0.8)])),
        read_run(_fake_run(tmp_path / "b", "stakbots", 1, [(0, 0.2), (100, 0.9)])),
    ]
    curve = "\n".join(curve_table(runs, eval_games=100))
    # seeds 0.4 and 0.2 pool to 0.30 over 200 games: 1.96 * sqrt(0.3 * 0.7 / 200) = 0.064
    assert "| 0 | 0.30 (0.24-0.36) [0.20-0.40] |" in curve
    assert "| 100 | 0.85 (0.80-0.90) [0.80-0.90] |" in curve
    rows = runs_table(runs)
    assert rows[2].startswith(
        "| stakbots | 0 | 0.80 (0.00-1.00)"
    )  # the last point and "| 100 | 10 min | 9 min |" in rows[2]


def test_the_report_refuses_a_folder_that_is_not_a_run_in_one_line(tmp_path: Path) -> None:
    from robotable.envs.benchmark import read_run

    with pytest.raises(OptionError, match="not a training run") as error:
        read_run(tmp_path)
    (tmp_path / "run.json").write_text("{}", encoding="utf-8")
    (tmp_path / "progress.jsonl").write_text("", encoding="utf-8")
    with pytest.raises(OptionError, match="a damaged training run") as damaged:
        read_run(tmp_path)
    assert "\n" not in str(error.value) + str(damaged.value)


def test_the_report_scores_a_policy_once_and_keeps_it(tiny_run: Path, monkeypatch) -> None:
    from robotable.envs import benchmark, train

    run = benchmark.read_run(tiny_run)
    played = []
    evaluate = train.evaluate
    monkeypatch.setattr(train, "evaluate", lambda *a, **k: played.append(a[2]) or evaluate(*a, **k))
    first = benchmark.score_run(run, "easy", games=6)
    again = benchmark.score_run(benchmark.read_run(tiny_run), "easy", games=6)
    assert played == ["easy"] and first == again and 0 <= first["mean"] <= 1
    assert "| vs easy |" in benchmark.runs_table([benchmark.read_run(tiny_run)])[0]


def test_a_score_may_name_its_spec_by_a_plain_word() -> None:
    from robotable.envs.benchmark import labelled

    assert labelled("hard=mcts:iterations=1000,rollout=0") == (
        "hard",
        "mcts:iterations=1000,rollout=0",
    )
    assert labelled("mcts:iterations=1000") == ("mcts:iterations=1000",) * 2
    assert labelled("greedy:noise=0.5") == ("greedy:noise=0.5",) * 2
    assert labelled("medium") == ("medium", "medium")
