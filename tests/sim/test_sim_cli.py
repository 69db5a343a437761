"""The simulate and ladder commands: JSON keys, bad input, the report file."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import robotable
from robotable.sim.options import split_agents

from .test_sim_game import TinyGame  # noqa: F401 - registers the "simtiny" game

ISSUE_2_KEYS = {
    "game",
    "num_players",
    "games",
    "agents",
    "wins",
    "draws",
    "win_rate",
    "mean_actions",
    "mean_turns",
    "errors",
    "seconds",
}


def test_json_on_stdout_has_the_issue_2_keys(invoke, tmp_path):
    result = invoke(
        "simulate",
        "simtiny",
        "--games",
        "20",
        "--agents",
        "random,greedy",
        "--workers",
        "1",
        "--json",
        "--errors-dir",
        str(tmp_path),
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) >= ISSUE_2_KEYS
    assert data["games"] == 20 and data["agents"] == ["random", "greedy"]
    assert sum(data["wins"]) + data["draws"] + data["errors"] == 20
    assert len(data["win_rate"]) == data["num_players"] == 2
    assert set(data["agent_stats"]) == {"random", "greedy"}


def test_same_seed_same_numbers(invoke, tmp_path):
    args = ("simulate", "simtiny", "--games", "15", "--seed", "9", "--workers", "1", "--json")
    first = json.loads(invoke(*args).stdout)
    second = json.loads(invoke(*args).stdout)
    for key in ("wins", "draws", "mean_actions", "mean_turns", "cards", "extras"):
        assert first[key] == second[key]


def test_report_has_figures_and_json_out_is_written(invoke, tmp_path):
    cards = tmp_path / "cards.toml"
    cards.write_text('[[card]]\nname = "Ace"\nvalue = 1\n[[card]]\nname = "Cog"\nvalue = 4\n')
    report = tmp_path / "out.html"
    out = tmp_path / "out.json"
    result = invoke(
        "simulate",
        "simtiny",
        "--games",
        "40",
        "--agents",
        "random",
        "--workers",
        "1",
        "--option",
        "target=8,12",
        "--cards",
        str(cards),
        "--report",
        str(report),
        "--json-out",
        str(out),
    )
    assert result.exit_code == 0, result.output
    text = report.read_text()
    assert text.count("data:image/png;base64,") >= 5
    assert "http://" not in text and "https://" not in text  # self-contained
    data = json.loads(out.read_text())
    labels = [v["label"] for v in data["variants"]]
    assert labels == [
        "target=8, cards=bundled",
        "target=8, cards=cards.toml",
        "target=12, cards=bundled",
        "target=12, cards=cards.toml",
    ]
    assert "Seats" in text and "Card impact" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("simulate", "nosuchgame"), "unknown game 'nosuchgame'"),
        (("simulate", "simtiny", "--agents", "wizard"), "unknown agent 'wizard'"),
        (("simulate", "simtiny", "--option", "colour=red"), "unknown option 'colour'"),
        (("simulate", "simtiny", "--option", "target=ten"), "option 'target'"),
        (("simulate", "simtiny", "--players", "7"), "7 seats is not allowed"),
        (("simulate", "simtiny", "--cards", "/no/such/cards.toml"), "no such file"),
        (("simulate", "simtiny", "--workers", "0"), "--workers"),
        (("ladder", "simtiny", "--agents", "random"), "at least 2 agents"),
        (("simulate", "simtiny", "--ray", "127.0.0.1:1"), "nothing answers there"),
        # Counts are bounded before anything is planned: 10**23 games planned up front would
        # fill the memory with 0 games played (the test would hang, not fail, without it).
        (
            ("simulate", "simtiny", "--games", "99999999999999999999999"),
            "--games must be from 1 to 1,000,000",
        ),
        (("simulate", "simtiny", "--workers", "100000"), "--workers must be from 1 to 1,024"),
        (("simulate", "simtiny", "--max-actions", str(10**20)), "--max-actions must be from"),
        (("simulate", "simtiny", "--games", "600000", "-o", "target=8,12"), "times the variants"),
        (("simulate", "simtiny", "--depth", "--depth-iterations", str(10**9)), "--depth-iter"),
        (("ladder", "simtiny", "-a", "random,greedy", "--games", str(10**7)), "--games must be"),
        (("ladder", "simtiny", "-a", "random,greedy", "--bootstrap", str(10**9)), "--bootstrap"),
    ],
)
def test_bad_input_is_one_line_and_exit_code_2(invoke, args, message):
    result = invoke(*args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert result.stdout == ""


def test_ladder_json(invoke, tmp_path):
    result = invoke(
        "ladder",
        "simtiny",
        "--agents",
        "random,greedy",
        "--games",
        "40",
        "--workers",
        "1",
        "--bootstrap",
        "100",
        "--json",
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [r["rank"] for r in data["ratings"]] == [1, 2]
    for r in data["ratings"]:
        assert r["ci"][0] <= r["elo"] <= r["ci"][1]


def test_split_agents_keeps_keyword_parameters_together():
    assert split_agents("mcts:iterations=200,time=0.5,greedy,random") == [
        "mcts:iterations=200,time=0.5",
        "greedy",
        "random",
    ]
    assert split_agents("mcts:200;random") == ["mcts:200", "random"]


def test_real_cli_prints_one_json_object(tmp_path):
    if "stakbots" not in robotable.game_names():
        pytest.skip("stakbots is not registered")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "robotable.cli",
            "simulate",
            "stakbots",
            "--games",
            "4",
            "--agents",
            "random",
            "--workers",
            "1",
            "--json",
            "--errors-dir",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert set(data) >= ISSUE_2_KEYS and data["game"] == "stakbots"


def test_cards_on_a_game_without_a_content_option(invoke, tmp_path):
    cards = tmp_path / "c.toml"
    cards.write_text("")
    result = invoke("simulate", "simtiny_nocards", "--cards", str(cards))
    assert result.exit_code == 2
    assert "game simtiny_nocards takes no content file" in result.stderr


def test_every_bundled_game_names_its_content_option():
    from robotable.core.registry import bundled_game_names
    from robotable.sim.options import content_option

    for name in bundled_game_names():
        assert content_option(name) is not None, name


def test_an_empty_value_gives_a_list_option_the_empty_list():
    """`-o first_champion_scraps=` plays without the head start (docs/rules/rumblebots.md);
    an empty value for a single-valued option is still refused."""
    from robotable.sim.options import UsageProblem, parse_sweeps

    assert parse_sweeps("rumblebots", 4, ["first_champion_scraps="]) == {
        "first_champion_scraps": [()]
    }
    assert parse_sweeps("rumblebots", 4, ["first_champion_scraps=0,1;"]) == {
        "first_champion_scraps": [(0, 1)]
    }
    with pytest.raises(UsageProblem, match="no value given for 'dominance_margin'"):
        parse_sweeps("rumblebots", 4, ["dominance_margin="])
    game = robotable.load_game("rumblebots", 4, first_champion_scraps=())
    assert game.options["first_champion_scraps"] == ()


@pytest.mark.parametrize("command", ["simulate", "pool"])
def test_report_without_matplotlib_stops_before_the_run(invoke, tmp_path, monkeypatch, command):
    """--report's dependency is checked before any game is played (or file read), and the line
    says which install gives it: the run's results are never lost to a missing package."""
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # `import matplotlib` fails
    out = tmp_path / "run.jsonl"
    args = ["simtiny", "--games", "5", "--workers", "1", "--out-jsonl", str(out)]
    if command == "pool":
        args = [str(tmp_path / "none.jsonl")]
    result = invoke(command, *args, "--report", str(tmp_path / "r.html"))
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "pip install 'robotable[report]'" in lines[0], result.stderr
    assert not out.exists() and not (tmp_path / "r.html").exists()


def test_a_results_file_claiming_countless_games_is_one_line(invoke, tmp_path):
    """A results file is untrusted too: its header's game count is bounded before the games
    it promises are planned (10**23 of them would fill the memory with nothing read)."""
    out = tmp_path / "run.jsonl"
    ran = invoke("simulate", "simtiny", "--games", "2", "--workers", "1", "--out-jsonl", str(out))
    assert ran.exit_code == 0, ran.output
    header, *games = out.read_text().splitlines()
    data = json.loads(header)
    data["games"] = 10**23
    out.write_text("\n".join([json.dumps(data), *games]) + "\n")
    result = invoke("pool", str(out))
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "out of range" in lines[0], result.stderr
