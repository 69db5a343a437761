"""The terminal front end, driven in-process with typer's runner on the test game."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from robotable.cli import _register_all, app

_register_all()
runner = CliRunner()


def test_games_lists_every_game_with_seats_and_options() -> None:
    result = runner.invoke(app, ["games", "--json"])
    assert result.exit_code == 0, result.output
    infos = {g["name"]: g for g in json.loads(result.stdout)}
    assert infos["countdown"]["min_players"] == 2
    assert infos["countdown"]["options"][0]["name"] == "pile"


def test_play_without_humans_runs_to_the_end_and_writes_a_record(tmp_path) -> None:
    path = tmp_path / "game.json"
    args = ["play", "countdown", "--seats", "mcts:50,random", "--seed", "4", "--record", str(path)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    record = json.loads(path.read_text())
    assert record["game"] == "countdown" and record["seed"] == 4
    assert record["result"]["returns"] in ([1.0, 0.0], [0.0, 1.0])
    again = runner.invoke(app, ["replay", str(path)])
    assert again.exit_code == 0, again.output
    assert "replay exactly" in again.stdout


def test_play_human_quit_saves_the_record(tmp_path) -> None:
    path = tmp_path / "game.json"
    args = ["play", "countdown", "--seats", "human,random", "--seed", "2", "--record", str(path)]
    result = runner.invoke(app, args, input="help\n1\nquit\n")
    assert result.exit_code == 0, result.output
    record = json.loads(path.read_text())
    assert record["result"] is None
    assert record["actions"][0] == {"type": "take", "count": 1}


def test_play_human_undo_goes_back_to_the_previous_decision(tmp_path) -> None:
    path = tmp_path / "game.json"
    args = ["play", "countdown", "--seats", "human,random", "--seed", "2", "--record", str(path)]
    result = runner.invoke(app, args, input="2\nundo\n1\nquit\n")
    assert result.exit_code == 0, result.output
    record = json.loads(path.read_text())
    # The first decision was 'take 2', undone and replaced by 'take 1'.
    assert record["actions"][0] == {"type": "take", "count": 1}


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["play", "nogame", "--seats", "random,random"], "unknown game 'nogame'"),
        (["play", "countdown", "--players", "7", "--seats", "random"], "7 seats is not allowed"),
        (["play", "countdown", "-o", "pile=lots", "--seats", "random,random"], "option 'pile'"),
        (["play", "countdown", "-o", "colour=red", "--seats", "random,random"], "unknown option"),
        (["play", "countdown", "--seats", "random,wizard"], "unknown agent 'wizard'"),
        (["bench", "countdown", "-o", "pile"], "expected NAME=VALUE"),
    ],
)
def test_bad_input_is_one_line_and_exit_code_2(args: list[str], needle: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and needle in lines[0], result.stderr


def test_replay_names_the_step_that_fails(tmp_path) -> None:
    path = tmp_path / "bad.json"
    record = {
        "game": "countdown",
        "version": "1",
        "options": {"pile": 21},
        "num_players": 2,
        "seed": 3,
        "actions": [{"type": "take", "count": 1}, {"type": "take", "count": 9}],
        "result": None,
    }
    path.write_text(json.dumps(record))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1
    assert "step 2" in result.stderr and "take 9" in result.stderr


def test_replay_of_a_malformed_record_is_exit_2(tmp_path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{not json")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2 and "not JSON" in result.stderr


def test_bench_json_has_the_promised_keys() -> None:
    result = runner.invoke(app, ["bench", "countdown", "--seconds", "0.2", "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    for key in (
        "random_games_per_s",
        "random_actions_per_s",
        "mcts_iterations_per_s",
        "clone_us",
        "apply_us",
        "determinize_us",
        "evaluate_all_us",
        "state_bytes",
    ):
        assert figures[key] > 0, key
    assert figures["events_per_action"] >= 0


def test_soak_reports_zero_errors_on_a_sound_game(tmp_path) -> None:
    args = [
        "soak",
        "countdown",
        "--games",
        "30",
        "--workers",
        "1",
        "--json",
        "--failures",
        str(tmp_path),
    ]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["errors"] == 0


def test_command_help_is_reflowed_paragraphs_for_the_terminal_to_wrap() -> None:
    # A docstring's own line breaks would break sentences in the middle at 80 columns.
    for info in app.registered_commands:
        paragraphs = info.help.split("\n\n")
        assert paragraphs[0] and all("\n" not in p and "  " not in p for p in paragraphs), info
    simulate = next(i for i in app.registered_commands if i.callback.__name__ == "simulate")
    assert "make variants that are compared side by side." in simulate.help
    assert len(simulate.help.split("\n\n")) == 3


@pytest.mark.parametrize(
    "args",
    [
        ["soak", "countdown", "--games", "99999999999999999999999"],
        ["soak", "countdown", "--max-steps", str(10**12)],
        ["bench", "countdown", "--vs-games", str(10**9)],
    ],
)
def test_a_count_out_of_bounds_is_one_line_before_anything_runs(args, monkeypatch, capsys):
    """Every count is bounded: a huge one is refused at once in one line (exit 2), where it would
    otherwise be planned, or allocated, with nothing played."""
    from robotable.cli import main

    monkeypatch.setattr("sys.argv", ["robotable", *args])
    with pytest.raises(SystemExit) as stopped:
        main()
    assert stopped.value.code == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and f"Invalid value for '{args[2]}'" in lines[0], lines
