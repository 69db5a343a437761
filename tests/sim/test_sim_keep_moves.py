"""`simulate --keep-moves`: each game's moves in the results file, and `robotable replay FILE
--game INDEX` showing any game of a run again (a barred run's unbarred game too)."""

from __future__ import annotations

import json
import re
import tempfile
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from robotable.cli import _register_all, app
from robotable.core.errors import RecordError
from robotable.core.registry import bundled_game_names, game_class
from robotable.sim.replays import results_record
from robotable.sim.results_file import write_results
from robotable.sim.runner import RunSpec, run

_register_all()
cli = CliRunner()
BUNDLED = bundled_game_names()


def seat_counts(name: str) -> list[int]:
    cls = game_class(name)
    return list(range(cls.min_players, cls.max_players + 1))


def without_moves(result) -> dict:
    data = result.to_json()
    for key in ("moves", "unbarred_moves", "seconds"):
        data.pop(key, None)
    return data


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_kept_moves_replay_every_game_of_every_bundled_game(data):
    name = data.draw(st.sampled_from(BUNDLED), label="game")
    seats = data.draw(st.sampled_from(seat_counts(name)), label="seats")
    seed = data.draw(st.integers(0, 2**31), label="seed")
    with tempfile.TemporaryDirectory() as folder:
        spec = RunSpec(
            name, seats, ("random",), games=2, seed=seed, error_dir=folder, keep_moves=True
        )
        outcome = run(spec, workers=1)
        path = write_results(Path(folder) / "run.jsonl", spec, outcome.results)
        for result in outcome.results:
            assert result.returns is not None and len(result.moves) == result.actions
            record, names, notes = results_record(path, result.index)
            assert record["result"]["returns"] == list(result.returns)
            assert len(record["actions"]) == result.actions
            assert names == [f"Seat {s + 1}" for s in range(seats)] and notes == {}


def test_keeping_moves_changes_no_game(tmp_path):
    spec = RunSpec("stakbots", 2, ("greedy", "random"), games=6, seed=5, error_dir=str(tmp_path))
    plain = run(spec, workers=1).results
    kept = run(replace(spec, keep_moves=True), workers=1).results
    assert [without_moves(r) for r in plain] == [without_moves(r) for r in kept]
    assert all(r.moves for r in kept) and not any(r.moves for r in plain)


def barred_run(tmp_path) -> Path:
    """Stak Bots, greedy barred from Core Bot against greedy, moves kept."""
    out = tmp_path / "bar.jsonl"
    args = ["simulate", "stakbots", "--agents", "greedy", "--restrict", "Core Bot"]
    args += ["--games", "12", "--seed", "3", "--workers", "1", "--keep-moves"]
    result = cli.invoke(app, [*args, "--out-jsonl", str(out), "--json"])
    assert result.exit_code == 0, result.output
    check_watch_hint(result.stderr, out)
    return out


def check_watch_hint(said: str, path: Path) -> None:
    """The hint names a game the bar changed and the move where its two games part."""
    found = re.search(
        rf"watch one: robotable replay {re.escape(str(path))} --game (\d+) --from (\d+), ", said
    )
    assert found, said
    game = next(g for g in games_of(path) if g["index"] == int(found[1]))
    assert game["returns"] != game["placebo_returns"]
    step = int(found[2])
    assert game["moves"][: step - 1] == game["unbarred_moves"][: step - 1]
    assert game["moves"][step - 1] != game["unbarred_moves"][step - 1]


def games_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()[1:] if line]


def test_a_barred_run_keeps_both_games_and_each_replays_to_its_own_end(tmp_path):
    path = barred_run(tmp_path)
    games = games_of(path)
    changed = [g for g in games if g["bar_could_act"][0] and g.get("unbarred_moves")]
    untouched = [g for g in games if not g["bar_could_act"][0]]
    assert changed and untouched, "the seed gives games the bar touched and games it did not"
    for g in changed:
        barred, names, notes = results_record(path, g["index"])
        unbarred, plain, twin = results_record(path, g["index"], unbarred=True)
        assert barred["result"]["returns"] == g["returns"]
        assert unbarred["result"]["returns"] == g["placebo_returns"]
        seat = g["arrangement"].index(0)
        assert names[seat] == f"Seat {seat + 1} (barred)" and plain[seat] == f"Seat {seat + 1}"
        held = re.compile(rf"The bar kept Seat {seat + 1} from (this move|these moves): \w")
        assert any(held.match(n) for n in notes.values())
        assert any(
            n.startswith(f"Barred, Seat {seat + 1} could not have made ") for n in twin.values()
        )
        # Both games part at the same move, and agree on every move before it.
        [step] = [k for k, n in notes.items() if "parts from this one here" in n]
        assert [k for k, n in twin.items() if "parts from this one here" in n] == [step]
        assert barred["actions"][: step - 1] == unbarred["actions"][: step - 1]
        assert barred["actions"][step - 1] != unbarred["actions"][step - 1]
    for g in untouched:
        assert "unbarred_moves" not in g
        barred, _, notes = results_record(path, g["index"])
        unbarred, _, _ = results_record(path, g["index"], unbarred=True)
        assert barred == unbarred and not notes


def test_replay_shows_a_game_of_a_run_with_the_bar_s_notes(tmp_path):
    path = barred_run(tmp_path)
    g = next(g for g in games_of(path) if g.get("unbarred_moves"))
    seat = g["arrangement"].index(0) + 1
    shown = cli.invoke(app, ["replay", str(path), "--game", str(g["index"])])
    assert shown.exit_code == 0, shown.output
    assert (
        f"Seat {seat} (barred)" in shown.stdout
        and f"(The bar kept Seat {seat} from " in shown.stdout
    )
    assert shown.stdout.rstrip().endswith(f"actions replay exactly; returns {g['returns']}")
    late = cli.invoke(app, ["replay", str(path), "--game", str(g["index"]), "--from", "5"])
    assert late.exit_code == 0 and late.stdout.lstrip().startswith("5. ")
    assert late.stdout.splitlines()[-1] == shown.stdout.splitlines()[-1]
    pooled = cli.invoke(app, ["pool", str(path)])
    assert pooled.exit_code == 0, pooled.output
    check_watch_hint(pooled.stderr, path)
    twin = cli.invoke(app, ["replay", str(path), "--game", str(g["index"]), "--unbarred", "-q"])
    assert twin.exit_code == 0, twin.output
    assert twin.stdout.strip() == (
        f"{path}, game {g['index']}: {len(g['unbarred_moves'])} actions replay exactly; "
        f"returns {g['placebo_returns']}"
    )


def rewrite(path: Path, change) -> Path:
    """A copy of the results file with each game line changed by `change(data)`."""
    header, *lines = path.read_text().splitlines()
    out = path.with_name("changed.jsonl")
    changed = []
    for line in lines:
        data = json.loads(line)
        change(data)
        changed.append(json.dumps(data))
    out.write_text("\n".join([header, *changed]) + "\n")
    return out


def test_replay_of_a_results_file_says_what_is_wrong_in_one_line(tmp_path):
    path = barred_run(tmp_path)

    def fails(*args: str) -> str:
        result = cli.invoke(app, ["replay", *args])
        assert result.exit_code == 2, result.output
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), result.output
        assert "Traceback" not in result.output and str(Path.home()) not in lines[0]
        return lines[0]

    assert "a results file of many games; name one with --game INDEX" in fails(str(path))
    assert "--unbarred reads a results file" in fails(str(path), "--unbarred")
    assert "no game 99 of variant 0" in fails(str(path), "--game", "99")
    dropped = rewrite(path, lambda d: (d.pop("moves", None), d.pop("unbarred_moves", None)))
    assert "moves were not kept (run simulate with --keep-moves" in fails(
        str(dropped), "--game", "0"
    )

    def bad_move(data: dict) -> None:
        data["moves"][3] = 999

    assert "move 4 does not replay" in fails(str(rewrite(path, bad_move)), "--game", "0")

    def other_end(data: dict) -> None:
        data["returns"] = list(reversed(data["returns"]))

    assert "does not end as the file says" in fails(str(rewrite(path, other_end)), "--game", "0")


def test_only_a_barred_game_has_an_unbarred_game(tmp_path):
    spec = RunSpec("stakbots", 2, ("greedy",), games=2, seed=1, error_dir=str(tmp_path))
    spec = replace(spec, keep_moves=True)
    path = write_results(tmp_path / "self.jsonl", spec, run(spec, workers=1).results)
    with pytest.raises(RecordError, match="not a barred game"):
        results_record(path, 0, unbarred=True)


def test_keep_moves_needs_a_results_file():
    result = cli.invoke(app, ["simulate", "stakbots", "--games", "2", "--keep-moves"])
    assert result.exit_code == 2
    assert "--keep-moves writes the moves into a results file: give --out-jsonl" in result.output


def paired_games(path: Path) -> list[tuple]:
    return [
        (g["index"], g["returns"], g["placebo_returns"], g["bar_could_act"], g["cards"])
        for g in games_of(path)
    ]


@pytest.mark.parametrize("source", ["barred run", "self-play"])
def test_unbarred_from_replays_the_kept_unbarred_games_and_plays_only_the_barred(
    tmp_path, monkeypatch, source
):
    """`simulate --restrict B --unbarred-from F`, F a barred run of another card or the agent
    against itself with moves kept on the same deals, gives the run `--restrict B` gives alone,
    pair for pair, and plays no unbarred game: only the barred games the bar could touch."""
    import robotable.sim.games as games

    common = ["--agents", "greedy", "--games", "10", "--seed", "3", "--workers", "1"]
    kept = tmp_path / "kept.jsonl"
    first = ["--restrict", "Spike Bot"] if source == "barred run" else ["--players", "2"]
    made = cli.invoke(
        app, ["simulate", "stakbots", *common, *first, "--keep-moves", "--out-jsonl", str(kept)]
    )
    assert made.exit_code == 0, made.output
    alone = tmp_path / "alone.jsonl"
    bar = ["simulate", "stakbots", *common, "--restrict", "Core Bot"]
    assert cli.invoke(app, [*bar, "--out-jsonl", str(alone)]).exit_code == 0
    played = []
    real = games.play_game

    def counting(job, script=None):
        if script is None:  # a game its agents play, not one replayed by its moves
            played.append(job.index)
        return real(job, script)

    monkeypatch.setattr(games, "play_game", counting)
    reused = tmp_path / "reused.jsonl"
    result = cli.invoke(app, [*bar, "--unbarred-from", str(kept), "--out-jsonl", str(reused)])
    assert result.exit_code == 0, result.output
    assert "10 of 10 deals' unbarred games kept there are replayed, not played" in result.stderr
    assert paired_games(reused) == paired_games(alone)
    acted = [g[0] for g in paired_games(alone) if g[3] == [True]]
    assert sorted(played) == acted and len(acted) < 10


def test_unbarred_from_says_in_one_line_what_it_cannot_use(tmp_path):
    common = ["--agents", "greedy", "--games", "4", "--workers", "1"]
    kept = tmp_path / "kept.jsonl"
    made = cli.invoke(
        app,
        ["simulate", "stakbots", *common, "--seed", "1", "--keep-moves", "--out-jsonl", str(kept)],
    )
    assert made.exit_code == 0, made.output
    bar = ["simulate", "stakbots", *common, "--restrict", "Core Bot"]
    header, *games = kept.read_text().splitlines()
    other_rules = json.loads(header)
    other_rules["rules"]["version"] = "0"  # games played under other rules: not these games
    older = tmp_path / "older.jsonl"
    older.write_text("\n".join([json.dumps(other_rules), *games]) + "\n")
    same = cli.invoke(app, [*bar, "--seed", "1", "--unbarred-from", str(kept)])
    assert same.exit_code == 0 and "4 of 4 deals' unbarred games kept there" in same.stderr
    for args, words in [
        ([*bar, "--seed", "2", "--unbarred-from", str(kept)], "no unbarred game of these deals"),
        ([*bar, "--seed", "1", "--unbarred-from", str(older)], "no unbarred game of these deals"),
        (
            [*bar, "--seed", "1", "--decision-streams", "--unbarred-from", str(kept)],
            "with --decision-streams if this run has them",
        ),
        ([*bar, "--unbarred-from", str(tmp_path / "none.jsonl")], "no such file"),
        (["simulate", "stakbots", *common, "--unbarred-from", str(kept)], "give --restrict too"),
    ]:
        result = cli.invoke(app, args)
        assert result.exit_code == 2, result.output
        [line] = result.output.strip().splitlines()
        assert line.startswith("error: ") and words in line


def test_a_match_s_replay_names_each_seat_s_agent(tmp_path):
    spec = RunSpec("stakbots", 2, ("greedy", "random"), games=2, seed=1, error_dir=str(tmp_path))
    spec = replace(spec, keep_moves=True)
    path = write_results(tmp_path / "match.jsonl", spec, run(spec, workers=1).results)
    # Seats swapped halfway: game 0 has greedy first, game 1 random first.
    assert results_record(path, 0)[1] == ["Seat 1 (greedy)", "Seat 2 (random)"]
    assert results_record(path, 1)[1] == ["Seat 1 (random)", "Seat 2 (greedy)"]


def test_the_watch_hint_names_the_wins_the_bar_cost_and_gave_first():
    from robotable.sim.commands import watch_hint
    from robotable.sim.runner import GameResult

    def pair(index, barred, unbarred):
        return GameResult(
            0, index, 1, (0, 1), barred, 9, 9, 0.1, paired=True, placebo_returns=unbarred
        )

    won, lost, drawn = (1.0, 0.0), (0.0, 1.0), (0.5, 0.5)
    path = Path("bar run.jsonl")
    results = [pair(0, won, won), pair(1, lost, won), pair(2, won, lost), pair(3, drawn, lost)]
    assert watch_hint(results, path) == (
        "the bar cost the barred seat the win in game 1 and gave it the win in game 2; watch "
        "one: robotable replay 'bar run.jsonl' --game 1, and the same deal unbarred with --unbarred"
    )
    assert watch_hint(results + [pair(4, lost, won)], path).startswith(
        "the bar cost the barred seat the win in games 1, 4 and gave it the win in game 2; "
    )
    assert watch_hint([pair(3, drawn, lost)], path).startswith(
        "the bar changed the outcome of game 3; watch one: robotable replay 'bar run.jsonl' --game 3"
    )
    assert watch_hint([pair(0, won, won)], path) == (
        "watch any game again: robotable replay 'bar run.jsonl' --game INDEX"
    )
