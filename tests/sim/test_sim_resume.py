"""Runs that survive: results files, resuming, Ctrl-C, and the time-budget warning."""

from __future__ import annotations

import json

import pytest

import robotable.sim.cli_common as cli_common
import robotable.sim.commands as commands
from robotable.sim.analysis import make_variants, summarize
from robotable.sim.results_file import (
    ResultsFileError,
    ResultsWriter,
    read_results,
    rules_difference,
    rules_of,
    write_results,
)
from robotable.sim.runner import GameResult, RunSpec, run

from .test_sim_game import TinyGame  # noqa: F401 - registers the "simtiny" game
from .test_sim_runner import comparable

# Differ between an uninterrupted run and a resumed one by nature: wall-clock numbers, and
# how many games this process played itself.
SESSION_KEYS = {"session"}


def same_apart_from_timing(a: dict, b: dict) -> bool:
    strip = lambda d: {k: v for k, v in comparable(d).items() if k not in SESSION_KEYS}  # noqa: E731
    return json.dumps(strip(a), sort_keys=True) == json.dumps(strip(b), sort_keys=True)


def _spec(tmp_path, **kw) -> RunSpec:
    base = dict(
        game="simtiny",
        num_players=2,
        agents=("random", "greedy"),
        games=24,
        seed=7,
        variants=make_variants({"target": [8, 12]}),
        quality=True,
        error_dir=str(tmp_path / "errors"),
    )
    base.update(kw)
    return RunSpec(**base)


def test_game_result_round_trips_through_json():
    result = GameResult(
        1,
        4,
        99,
        (1, 0),
        (0.0, 1.0),
        12,
        6,
        0.01,
        cards=((("play", "Ace"),), ()),
        extras={"scores": (3, 4), "why": {"x": 1}},
        first_mover=1,
        first_mover_source="first_turn",
        turn_order=(1, 0),
        quality={"lead_changes": 2, "decision_point": 0.5, "margin": 0.25, "samples": 12},
    )
    back = GameResult.from_json(json.loads(json.dumps(result.to_json())))
    assert back.to_json() == json.loads(json.dumps(result.to_json()))
    assert back.cards == result.cards and back.arrangement == (1, 0)


def test_interrupted_then_resumed_run_equals_an_uninterrupted_one(tmp_path):
    spec = _spec(tmp_path)
    whole = summarize(run(spec, workers=1))

    path = tmp_path / "run.jsonl"
    seen = []

    def stop_after_ten(k: int) -> None:
        seen.append(k)
        if len(seen) == 10:
            raise KeyboardInterrupt

    with ResultsWriter(path, spec) as writer:
        first = run(spec, workers=1, progress=stop_after_ten, on_result=writer.write)
    assert first.interrupted and len(first.results) == 10
    assert len(path.read_text().splitlines()) == 1 + 10  # the header and one line per game
    assert summarize(first)["interrupted"] is True

    previous, notes = read_results(path, spec)
    assert len(previous) == 10 and notes == []
    with ResultsWriter(path, spec, resume=True) as writer:
        second = run(spec, workers=1, on_result=writer.write, previous=previous)
    assert not second.interrupted and (second.played, second.loaded) == (38, 10)
    resumed = summarize(second)
    assert same_apart_from_timing(resumed, whole)
    assert resumed["session"] == {"played": 38, "loaded": 10}
    # The file now holds the whole run: reading it back plays nothing.
    again, _ = read_results(path, spec)
    assert len(again) == 48
    third = run(spec, workers=1, previous=again)
    assert third.played == 0 and same_apart_from_timing(summarize(third), whole)


def test_a_cut_short_last_line_is_ignored_and_overwritten(tmp_path):
    spec = _spec(tmp_path, games=6, variants=make_variants({}), quality=False)
    outcome = run(spec, workers=1)
    path = write_results(tmp_path / "r.jsonl", spec, outcome.results[:3])
    with path.open("a") as fh:
        fh.write('{"kind": "game", "variant": 0, "ind')
    previous, notes = read_results(path, spec)
    assert len(previous) == 3 and "cut short" in notes[0]
    with ResultsWriter(path, spec, resume=True) as writer:
        for result in outcome.results[3:]:
            writer.write(result)
    assert len(read_results(path, spec)[0]) == 6


def test_a_file_from_another_run_is_refused(tmp_path):
    spec = _spec(tmp_path, games=4, variants=make_variants({}), quality=False)
    path = write_results(tmp_path / "r.jsonl", spec, run(spec, workers=1).results)
    other = _spec(tmp_path, games=4, variants=make_variants({}), quality=False, seed=8)
    with pytest.raises(ResultsFileError, match="seed: 7 there, 8 here"):
        read_results(path, other)
    with pytest.raises(ResultsFileError, match="no such file"):
        read_results(tmp_path / "missing.jsonl", spec)


def _with_rules(path, change) -> None:
    """Rewrite a results file's header as another robotable would have written it."""
    lines = path.read_text().splitlines(keepends=True)
    header = json.loads(lines[0])
    change(header)
    path.write_text(json.dumps(header) + "\n" + "".join(lines[1:]))


def test_a_file_of_other_rules_is_refused_and_one_without_them_resumes_with_a_note(tmp_path):
    spec = _spec(tmp_path, games=4, variants=make_variants({}), quality=False)
    path = write_results(tmp_path / "r.jsonl", spec, run(spec, workers=1).results[:2])
    header = json.loads(path.read_text().splitlines()[0])
    assert header["rules"]["version"] == "1" and header["rules"]["defaults"]["target"] == 10
    assert len(read_results(path, spec)[0]) == 2

    _with_rules(path, lambda h: h["rules"].update(version="0"))
    with pytest.raises(ResultsFileError, match="simtiny rules version 0 there, version 1 here"):
        read_results(path, spec)
    _with_rules(path, lambda h: h["rules"].update(version="1"))
    _with_rules(path, lambda h: h["rules"]["defaults"].update(target=12))
    with pytest.raises(ResultsFileError, match="option target's default is 12 there, 10 here"):
        read_results(path, spec)
    # a file written before robotable recorded its rules: read, and the user is told
    _with_rules(path, lambda h: h.pop("rules"))
    previous, notes = read_results(path, spec)
    assert len(previous) == 2
    assert any("does not record the rules" in n and "simtiny rules version 1" in n for n in notes)
    _with_rules(path, lambda h: h.update(rules=["1"]))
    with pytest.raises(ResultsFileError, match="a malformed run header"):
        read_results(path, spec)


def test_an_option_every_game_was_given_is_compared_as_given_not_by_its_default(tmp_path):
    """A candidate run with `-o target=12`, written when the default was another, resumes today:
    that default never reached its games. A run without the option played the old default and
    is refused."""
    spec = _spec(tmp_path, games=4, variants=make_variants({"target": [12]}), quality=False)
    path = write_results(tmp_path / "r.jsonl", spec, run(spec, workers=1).results[:2])
    _with_rules(path, lambda h: h["rules"]["defaults"].update(target=8))
    assert len(read_results(path, spec)[0]) == 2
    plain = _spec(tmp_path, games=4, variants=make_variants({}), quality=False)
    path = write_results(tmp_path / "p.jsonl", plain, run(plain, workers=1).results[:2])
    _with_rules(path, lambda h: h["rules"]["defaults"].update(target=8))
    with pytest.raises(ResultsFileError, match="option target's default is 8 there, 10 here"):
        read_results(path, plain)


def test_a_file_written_before_an_option_existed_reads_it_as_the_option_says():
    """An option with a `recorded_absent` value (added after runs were made, which played as
    with that value) does not make an older file's rules differ where today's default is that
    value, and does where it is not: Rumblebots' head starts, at two, three and four seats."""
    default_where = {"first_challengers_scraps": 2, "first_neighbours_scraps": 4}
    for seats in (2, 3, 4):
        here = rules_of("rumblebots", seats)
        for name, where in default_where.items():
            older = {**here, "defaults": dict(here["defaults"])}
            del older["defaults"][name]
            expected = f"option {name}'s default is empty there, 0,0,0,1 here"
            assert rules_difference(older, here, "rumblebots") == (
                expected if seats == where else ""
            ), (seats, name)
    # an option without a recorded_absent value still differs when one side does not name it
    older = {**here, "defaults": dict(here["defaults"])}
    del older["defaults"]["round_crystals"]
    assert rules_difference(older, here, "rumblebots") == (
        "option round_crystals's default is absent there, 2,2,3,3,4 here"
    )
    assert rules_difference({**here, "extra": 1}, here, "rumblebots") == (
        "a malformed record of the rules"
    )


# -- the command -------------------------------------------------------------------------------


ARGS = ("simulate", "simtiny", "--games", "16", "--agents", "random,greedy", "--seed", "5")
ARGS += ("--option", "target=8,12", "--workers", "1", "--json", "--quality")


def test_cli_ctrl_c_saves_partial_results_and_resume_finishes_the_run(
    invoke, tmp_path, monkeypatch
):
    errors = ("--errors-dir", str(tmp_path / "errors"))
    whole = invoke(*ARGS, *errors)
    assert whole.exit_code == 0, whole.output
    full = json.loads(whole.stdout)

    real_run = cli_common.run

    def interrupted_run(*args, on_result=None, **kw):
        count = []

        def stop(result):
            on_result(result)
            count.append(result)
            if len(count) == 7:
                raise KeyboardInterrupt

        return real_run(*args, on_result=stop, **kw)

    path = tmp_path / "games.jsonl"
    monkeypatch.setattr(cli_common, "run", interrupted_run)
    stopped = invoke(*ARGS, *errors, "--out-jsonl", str(path))
    assert stopped.exit_code == 130
    partial = json.loads(stopped.stdout)
    assert partial["interrupted"] is True and partial["games"] == 7
    assert partial["games_planned"] == 32
    assert "--resume" in stopped.stderr and str(path) in stopped.stderr
    monkeypatch.setattr(cli_common, "run", real_run)

    resumed = invoke(*ARGS, *errors, "--resume", str(path))
    assert resumed.exit_code == 0, resumed.output
    assert "resuming: 7 of 32 games" in resumed.stderr
    assert same_apart_from_timing(json.loads(resumed.stdout), full)


def test_cli_resume_of_another_run_is_one_line_and_exit_code_2(invoke, tmp_path):
    path = tmp_path / "games.jsonl"
    args = ("simulate", "simtiny", "--games", "4", "--workers", "1", "--json")
    done = invoke(*args, "--out-jsonl", str(path), "--errors-dir", str(tmp_path))
    assert done.exit_code == 0, done.output
    assert len(path.read_text().splitlines()) == 5
    refused = invoke(*args, "--seed", "3", "--resume", str(path))
    assert refused.exit_code == 2 and refused.stdout == ""
    assert "written by a different run" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1
    _with_rules(path, lambda h: h["rules"].update(version="0"))
    refused = invoke(*args, "--resume", str(path))
    assert refused.exit_code == 2 and refused.stdout == ""
    assert "played under other rules (simtiny rules version 0 there" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1
    assert len(path.read_text().splitlines()) == 5  # nothing lost


def test_time_budgets_are_warned_about():
    assert commands.time_budget_warnings("simtiny", ["random", "greedy", "mcts:200"]) == []
    [warning] = commands.time_budget_warnings("simtiny", ["mcts:time=0.5", "hard", "greedy"])
    assert "mcts:time=0.5" in warning and "hard (mcts:iterations=1000,time=1)" in warning
    assert "not reproducible" in warning


def test_cli_json_carries_the_warning(invoke, tmp_path):
    result = invoke(
        "simulate",
        "simtiny",
        "--games",
        "2",
        "--agents",
        "mcts:iterations=2,time=5",
        "--workers",
        "1",
        "--json",
        "--errors-dir",
        str(tmp_path),
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert len(data["warnings"]) == 1 and "time budget" in data["warnings"][0]
    assert "warning: " in result.stderr


def test_resume_command_replaces_the_results_file_arguments():
    argv = ["simulate", "stakbots", "--games", "9", "--out-jsonl", "a.jsonl", "--json"]
    assert commands.resume_command(argv, "a.jsonl") == (
        "robotable simulate stakbots --games 9 --json --resume a.jsonl"
    )


def test_a_run_stopped_before_any_game_still_summarises(tmp_path):
    from rich.console import Console

    from robotable.sim.report import render_html
    from robotable.sim.runner import RunOutcome
    from robotable.sim.text import json_safe, print_summary

    spec = _spec(tmp_path, games=5)
    summary = json_safe(summarize(RunOutcome(spec, [], 0.1, "in-process", 1, interrupted=True)))
    assert summary["interrupted"] and summary["games"] == 0 and summary["games_planned"] == 10
    console = Console(record=True, width=120)
    print_summary(summary, console)
    text = console.export_text()
    assert "INTERRUPTED" in text and "simtiny: 0 games, 2 seats, rules version 1, agents" in text
    assert "Interrupted: only 0 of 10" in render_html(summary)
    assert "(rules version 1; agents: random, greedy; seed 7)" in render_html(summary)


def test_a_run_with_decision_streams_resumes_only_with_them(invoke, tmp_path):
    """Its games are other games: a file of one kind is refused by a run of the other."""
    path = tmp_path / "games.jsonl"
    args = ("simulate", "simtiny", "--games", "4", "--workers", "1", "--json")
    done = invoke(
        *args, "--decision-streams", "--out-jsonl", str(path), "--errors-dir", str(tmp_path)
    )
    assert done.exit_code == 0, done.output
    refused = invoke(*args, "--resume", str(path))
    assert refused.exit_code == 2 and refused.stdout == ""
    assert "decision_streams: True there, False here" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1
    again = invoke(*args, "--decision-streams", "--resume", str(path))
    assert again.exit_code == 0 and "resuming: 4 of 4 games" in again.stderr
