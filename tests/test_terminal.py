"""Playing in the terminal as people do: watching AIs, numbers typed for amounts, undo that
rewrites the log, Ctrl-C that saves, resuming, and one-line errors from the real command."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from dataclasses import dataclass
from typing import ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from typer.testing import CliRunner

import robotable
from robotable.cli import _register_all, app
from robotable.core.protocol import Action
from robotable.core.records import replay_record
from robotable.core.registry import bundled_game_names
from robotable.frontend.play import Table, build_agents, menu, run_table

_register_all()
runner = CliRunner()


def _table(tmp_path, seats, seed=2, game="countdown", names=()):
    the_game = robotable.load_game(game, num_players=len(seats))
    console = Console(record=True, width=400, force_terminal=False)
    return Table(
        the_game, seed, seats, build_agents(seats, seed), tmp_path / "g.json", console, list(names)
    )


def _answers(*texts):
    queue = list(texts)

    def answer(prompt: str) -> str:
        if not queue:
            raise EOFError
        item = queue.pop(0)
        if isinstance(item, BaseException):
            raise item
        return item

    return answer


def test_an_ai_only_game_is_shown_move_by_move(tmp_path) -> None:
    args = ["play", "countdown", "--seats", "random,random", "--names", "Ada,Bo", "--seed", "4"]
    result = runner.invoke(app, [*args, "--record", str(tmp_path / "g.json"), "--delay", "0"])
    assert result.exit_code == 0, result.output
    record = json.loads((tmp_path / "g.json").read_text())
    moves = len(record["actions"])
    shown = [line for line in result.stdout.splitlines() if line[:1].isdigit()]
    assert len(shown) == moves and shown[0].startswith("1. ") and shown[-1].startswith(f"{moves}.")
    assert "Ada" in result.stdout and "Bo" in result.stdout and "seat 0" not in result.stdout
    assert record["names"] == ["Ada", "Bo"] and record["seats"] == ["random", "random"]


def test_undo_takes_the_moves_out_of_the_log(tmp_path) -> None:
    table = _table(tmp_path, ["human", "random"])
    run_table(table, _answers("2", "1", "log", "undo", "quit"))
    assert len(table.log) == len(table.actions) == 2  # 'take 2', the AI's answer; the rest undone
    assert [step.number for step in table.log] == [1, 2]
    assert table.log[0].label == "take 2"


def test_ctrl_c_saves_the_game_and_says_how_to_resume(tmp_path) -> None:
    table = _table(tmp_path, ["human", "random"])
    code = run_table(table, _answers("1", KeyboardInterrupt()))
    assert code == 130
    text = table.console.export_text()
    assert "saved to" in text and f"robotable play --resume {tmp_path / 'g.json'}" in text
    saved = json.loads((tmp_path / "g.json").read_text())
    assert saved["actions"][0] == {"type": "take", "count": 1} and saved["result"] is None


def test_a_saved_game_resumes_where_it_stopped(tmp_path) -> None:
    path = tmp_path / "g.json"
    first = runner.invoke(
        app,
        ["play", "countdown", "--seats", "human,random", "--seed", "2", "--record", str(path)],
        input="1\nquit\n",
    )
    assert first.exit_code == 0, first.output
    before = json.loads(path.read_text())["actions"]
    again = runner.invoke(app, ["play", "--resume", str(path)], input="2\nquit\n")
    assert again.exit_code == 0, again.output
    after = json.loads(path.read_text())["actions"]
    assert after[: len(before)] == before and after[len(before)] == {"type": "take", "count": 2}


def test_a_finished_game_cannot_be_resumed(tmp_path) -> None:
    path = tmp_path / "g.json"
    args = ["play", "countdown", "--seats", "random,random", "--record", str(path), "--delay", "0"]
    assert runner.invoke(app, args).exit_code == 0
    result = runner.invoke(app, ["play", "--resume", str(path)])
    assert result.exit_code == 2 and "over" in result.stderr


@dataclass(frozen=True, slots=True)
class Bid(Action):
    kind: ClassVar[str] = "bid"
    amount: int

    def label(self) -> str:
        return f"bid {self.amount}"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    kind: ClassVar[str] = "pass"

    def label(self) -> str:
        return "pass"


class _Words:
    def describe_action(self, action: Action) -> str:
        return action.label()


def test_an_amount_is_typed_as_a_number_within_its_range() -> None:
    legal = [Pass(), *[Bid(n) for n in range(3, 40)]]
    choices = menu(_Words(), legal)
    assert [c.text for c in choices][0] == "pass"
    assert len(choices) == 2 and "3 to 39" in choices[1].text
    assert choices[1].by_value[17] == Bid(17)


def _cli(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "COLUMNS": "200"}
    code = "from robotable.cli import main; main()"
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, timeout=60
    )


def test_version_says_which_engine_runs() -> None:
    result = _cli("--version")
    assert result.returncode == 0
    assert result.stdout.startswith("robotable ") and "engine" in result.stdout


def test_python_dash_m_robotable_runs_the_same_command_line() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "robotable", "--version"], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == _cli("--version").stdout


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["soak", "stakbots", "--games", "-5"], "--games"),
        (["soak", "stakbots", "--workers", "0"], "--workers"),
        (["play", "stakbots", "--delay", "-1"], "--delay"),
        (["bench", "stakbots", "--seconds", "0"], "--seconds"),
        (["play", "stakbots", "--frobnicate"], "--frobnicate"),
        (["simulate", "stakbots", "--games", "0"], "--games"),
        (["unknown-command"], "unknown-command"),
    ],
)
def test_out_of_range_values_get_one_line_and_exit_2(args: list[str], needle: str) -> None:
    result = _cli(*args)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.returncode == 2, result.stderr
    assert len(lines) == 1 and needle in lines[0] and lines[0].startswith("error: "), lines


@pytest.mark.parametrize("command", ["play", "simulate", "ladder", "replay", "bench", "soak"])
def test_every_command_shows_an_example(command: str) -> None:
    result = runner.invoke(app, [command, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert "Example" in result.stdout


@pytest.mark.parametrize("name", bundled_game_names())
def test_rules_prints_the_guide(name: str) -> None:
    result = runner.invoke(app, ["rules", name, "--plain"])
    assert result.exit_code == 0
    assert "## Goal" in result.stdout
    terms = runner.invoke(app, ["rules", name, "--terms"])
    assert terms.exit_code == 0 and len(terms.stdout.splitlines()) >= 5


def test_a_person_plays_in_a_real_terminal(tmp_path) -> None:
    """Driven through a pseudo-terminal, as a person types: a choice, the terms, Ctrl-C."""
    pexpect = pytest.importorskip("pexpect")
    path = tmp_path / "g.json"
    code = "from robotable.cli import main; main()"
    args = ["-c", code, "play", "stakbots", "--seats", "human,random", "--names", "Ada,Bo"]
    child = pexpect.spawn(
        sys.executable,
        [*args, "--seed", "3", "--record", str(path), "--delay", "0"],
        encoding="utf-8",
        timeout=60,
        dimensions=(50, 120),
        env={**os.environ, "TERM": "xterm"},
        # A person's shell starts a program with Ctrl-C at its default; a test run started in
        # the background of a script inherits it ignored, and the child would not hear it.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        child.expect("Ada> ")
        child.sendline("terms")
        child.expect("Ada> ")
        assert "Stak" in child.before  # the glossary: Stak, Scrapheap, ...
        child.sendline("1")
        child.expect(r"1\. You")
        child.expect("Ada> ")
        child.sendintr()
        child.expect("Resume it with: robotable play --resume")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 130
    saved = json.loads(path.read_text())
    assert saved["actions"] and saved["names"] == ["Ada", "Bo"]


def test_hint_shows_the_hard_ais_top_choices_with_their_chances(tmp_path) -> None:
    table = _table(tmp_path, ["human", "random"], game="stakbots", names=["Ada", "Bo"])
    run_table(table, _answers("hint", "quit"))
    text = table.console.export_text()
    shown = [line for line in text.splitlines() if "% to win" in line]
    assert 1 <= len(shown) <= 3
    # Each names the number to type for it, and that number is the choice it describes.
    choices = menu(table.state, table.state.legal_actions())
    for line in shown:
        number, _, label = line.removeprefix("Type ").partition(": ")
        assert label.startswith(choices[int(number) - 1].text), line
    assert "of its search on it" in shown[0]


def test_a_hint_for_an_amount_says_the_amount_to_type(tmp_path) -> None:
    seats = ["human", "random", "random"]
    table = _table(tmp_path, seats, seed=3, game="betabotz", names=["Ada", "Bo", "Cy"])
    run_table(table, _answers("3", "hint", "quit"))
    shown = [line for line in table.console.export_text().splitlines() if "% to win" in line]
    assert shown and all(line.startswith("Type ") for line in shown)
    amount = shown[0].removeprefix("Type ").partition(":")[0]
    assert amount.isdigit() and f"bid {amount} Bitz" in shown[0]


def test_a_card_on_the_table_is_looked_up_by_name(tmp_path) -> None:
    table = _table(tmp_path, ["human", "random"], game="stakbots", seed=3, names=["Ada", "Bo"])
    run_table(table, _answers("? shot bot", "terms stak", "quit"))
    text = table.console.export_text()
    assert "Shot Bot (" in text and "4 damage" in text  # its full text from Ada's view
    assert "Stak" in text  # the glossary's entry


def test_the_opening_roll_is_told_before_the_first_move(tmp_path) -> None:
    table = _table(tmp_path, ["random", "random"], game="breadwinner", seed=3, names=["Ada", "Bo"])
    table.delay = 0
    run_table(table, _answers())
    first_lines = table.console.export_text().splitlines()[:4]
    assert any("rolls" in line for line in first_lines), first_lines


@dataclass(frozen=True, slots=True)
class Target(Action):
    kind: ClassVar[str] = "target"
    seat: int

    def label(self) -> str:
        return f"aim at player {self.seat + 1}"


def test_a_choice_of_seats_stays_a_list_of_names() -> None:
    choices = menu(_Words(), [Target(s) for s in range(6)])
    assert len(choices) == 6 and all(c.action is not None for c in choices)


def test_a_long_list_of_choices_is_grouped_by_kind() -> None:
    legal = [Target(0), Pass(), Target(1), *[Target(s) for s in range(2, 8)], Pass()]
    choices = menu(_Words(), legal)
    groups = [c.group for c in choices]
    assert groups == sorted(groups, key=lambda g: g != "target")  # each kind kept together


def test_sb_11_14_one_person_plays_drone_mode_in_the_terminal(tmp_path) -> None:
    """Stak Bots with one seat is the solo Drone Mode: the board shows the Drone's staks to the
    person; a whole game (an AI in the seat) tells the Drone's turns and ends with a verdict."""
    args = ["play", "stakbots", "--seats", "human", "--names", "Ada", "--seed", "4"]
    result = runner.invoke(app, [*args, "--record", str(tmp_path / "h.json")], input="1\n1\n")
    assert "Drone (automated): staks 9 cards" in result.stdout
    args = ["play", "stakbots", "--seats", "greedy", "--names", "Ada", "--seed", "4"]
    result = runner.invoke(app, [*args, "--record", str(tmp_path / "g.json"), "--delay", "0"])
    assert result.exit_code == 0, result.output
    assert "Drone's turn" in result.stdout
    record = json.loads((tmp_path / "g.json").read_text())
    assert record["num_players"] == 1 and record["options"]["drones"] == 1
    _, state, _ = replay_record(record)
    assert state.is_terminal()
    said = {0.0: "The Drone wins", 0.5: "draw", 1.0: "Ada wins"}[state.returns()[0]]
    assert said in " ".join(result.stdout.split()).partition("moves. ")[2]


def test_sb_11_10_a_team_win_is_not_called_a_draw(tmp_path) -> None:
    game = robotable.load_game("stakbots", num_players=4, teams=True)
    console = Console(record=True, width=200, force_terminal=False)
    seats = ["random"] * 4
    table = Table(game, 1, seats, build_agents(seats, 1), None, console, ["Ada", "Bo", "Cy", "Di"])
    run_table(table, _answers())
    returns = table.state.returns()
    end = console.export_text().partition("moves. ")[2]
    won = [name for name, r in zip(table.names, returns) if r == max(returns)]
    assert won == ["Bo", "Di"]  # seed 1: one team wins, half a point each
    assert "Bo and Di win together" in end and "draw" not in end and "cards left" in end, end


def test_a_bid_is_typed_as_its_amount_at_the_choice_prompt(tmp_path) -> None:
    """Betabotz asks "how many Bitz on Rivet?" with one line, "bid: type the amount, 6 to 40":
    typing 10 bids 10 (it used to answer "Type a number from 1 to 1")."""
    seats = ["human", "random", "random"]
    table = _table(tmp_path, seats, seed=3, game="betabotz", names=["Ada", "Bo", "Cy"])
    run_table(table, _answers("3", "4", "10", "quit"))
    text = table.console.export_text()
    assert "from 1 to 1" not in text and "a number from 6 to 40" in text  # 4 is too low: told so
    assert "You bid 10 Bitz on Rivet" in text
    mine = [a.to_json() for a, step in zip(table.actions, table.log) if step.seat == 0]
    assert mine[-1] == {"type": "bid", "amount": 10}


def test_an_amount_beside_other_choices_is_typed_with_its_kind() -> None:
    from robotable.frontend.play import typed_amount

    choices = menu(_Words(), [Pass(), *[Bid(n) for n in range(3, 40)]])
    assert typed_amount(choices, "17", "") == Bid(17)  # not a choice's number: the amount
    assert typed_amount(choices, "2", "") is None  # choice 2 (which then asks the amount)
    assert typed_amount(choices, "bid", "3") == Bid(3)
    assert typed_amount(choices, "bid", "2") is None  # out of range


def _counting(*texts):
    """Answers in turn, and the prompts they answered."""
    asked: list[str] = []
    answer = _answers(*texts)

    def ask(prompt: str) -> str:
        asked.append(prompt)
        return answer(prompt)

    return ask, asked


@pytest.mark.parametrize("auto", [True, False])
def test_an_only_choice_is_taken_and_told_unless_no_auto(tmp_path, auto: bool) -> None:
    table = _table(tmp_path, ["human", "random"], seed=1, game="iotabots", names=["Ada", "Bo"])
    table.auto = auto
    ask, asked = _counting(*["1"] * 12)
    run_table(table, ask)
    forced = [s for s in table.log if s.seat == 0 and s.forced]
    chosen = [s for s in table.log if s.seat == 0 and not s.forced]
    assert forced, "seed 1 gives Ada an only choice (end the turn) early"
    text = table.console.export_text()
    told = [line for line in text.splitlines() if "only choice, taken automatically" in line]
    if auto:
        assert len(told) == len(forced) and all(
            line.startswith(f"{s.number}. You: ") for s, line in zip(forced, told)
        )
        assert (
            len(asked) == len(chosen) + 1
        )  # one prompt per real decision, and the last unanswered
    else:
        assert not told and len(asked) == len(chosen) + len(forced) + 1


def test_undo_skips_an_only_choice_back_to_the_last_real_decision(tmp_path) -> None:
    table = _table(tmp_path, ["human", "random"], seed=1, game="iotabots", names=["Ada", "Bo"])
    run_table(table, _answers("1", "1", "undo", "quit"))  # keep; summon, then end (taken)
    mine = [(s.label, s.forced) for s in table.log if s.seat == 0]
    assert mine == [("keep this hand", False)]  # the summon undone, and the turn's end with it


def test_play_takes_only_choices_unless_told_not_to() -> None:
    result = runner.invoke(app, ["play", "--help"], env={"COLUMNS": "200"})
    assert "--no-auto" in result.stdout


def test_board_shows_the_numbered_choices_again(tmp_path) -> None:
    table = _table(tmp_path, ["human", "random"], game="stakbots", seed=3, names=["Ada", "Bo"])
    run_table(table, _answers("board", "quit"))
    text = table.console.export_text()
    first = table.state.describe_action(table.state.legal_actions()[0])
    assert text.count(f"  1  {first}") == 2, text  # once when asked, once for board


def test_log_shows_every_move_or_the_last_n(tmp_path) -> None:
    table = _table(tmp_path, ["human", "random"], game="breadwinner", seed=3, names=["Ada", "Bo"])
    for _ in range(50):  # a long game so far: more than the old 40-step cut
        table.apply(table.state.legal_actions()[0])
        if table.state.is_terminal():
            break
    moves = len(table.log)
    assert moves > 40
    table.console = Console(record=True, width=400, force_terminal=False)
    from robotable.frontend.play import show_log

    show_log(table, "")
    whole = [line for line in table.console.export_text().splitlines() if line[:1].isdigit()]
    assert len(whole) == moves and whole[0].startswith("1. ")
    show_log(table, "5")
    text = table.console.export_text()
    assert f"The last 5 of {moves} moves:" in text
    assert text.splitlines()[-1] != "" and f"{moves}. " in text
    show_log(table, "many")
    assert "log takes a number of moves" in table.console.export_text()


@pytest.mark.parametrize(
    ("game", "seats", "margin"),
    [
        ("breadwinner", 2, r"loa(f|ves)"),
        ("iotabots", 2, r"\d+ duels? to \d+"),
        ("betabotz", 3, r"\d+ Bitz"),
        ("rumblebots", 2, r"\d+ crystals?"),
    ],
)
def test_the_end_screen_says_who_won_by_how_much(tmp_path, game, seats, margin) -> None:
    import re

    names = ["Ada", "Bo", "Cy"][:seats]
    table = _table(tmp_path, ["greedy"] * seats, seed=2, game=game, names=names)
    run_table(table, _answers())
    text = table.console.export_text()
    end = text.partition("moves. ")[2].splitlines()[0]
    assert end == table.game.result_sentence(table.state, None, names)
    assert re.search(margin, end) and any(name in end for name in names), end
    assert "returns" not in text and "seat A" not in text and "(opponent)" not in text


def test_a_card_looked_up_reads_in_player_words(tmp_path) -> None:
    """'? Range Bot' said 'controller 0, ..., origin known': only the fields a player reads."""
    table = _table(tmp_path, ["human", "random"], game="iotabots", seed=1, names=["Ada", "Bo"])
    run_table(table, _answers("1", "1", "? drone bot", "quit"))
    text = table.console.export_text()
    assert "Drone Bot (1 mana, ATK 1, DEF 1" in text
    for internal in ("controller", "origin", "base atk", "attacks made", "can attack now"):
        assert internal not in text


@pytest.mark.parametrize("name", bundled_game_names())
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**31), steps=st.integers(0, 200))
def test_anything_looked_up_shows_no_internal_field(name: str, seed: int, steps: int) -> None:
    import random
    import re

    from robotable.frontend.play import find_in_view

    game = robotable.load_game(name)
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    internal = re.compile(
        r"_|[{}\[\]]|\b(controller|owner|origin|id|slot|seat \d|kind \d|face \d)\b"
    )
    for letter in "aeiou":
        for line in find_in_view(state.view(0), letter, limit=50):
            head = line.partition(":")[0]  # the card's own text may say anything
            assert not internal.search(head), f"{name}: {line!r}"


def test_a_hints_why_does_not_just_repeat_the_choice() -> None:
    from robotable.agents.hints import hint

    game = robotable.load_game("breadwinner")
    state = game.new_initial_state(seed=3)
    state.apply_action(state.legal_actions()[0])  # Bo builds; then Bo or Ada builds again
    for option in hint(state, "greedy", seed=1, top=5, names=["Ada", "Bo"]):
        assert not option.why.lower().startswith(("you " + option.label).lower()), option
