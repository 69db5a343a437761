"""`robotable balance` (sim/studies/balance.py), the fairness pass, in pieces: each seed's games
kept in --out-dir, every row pooled; and each flagged card barred."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from robotable.sim.commands import register
from robotable.sim.replays import results_record
from robotable.sim.studies.balance import BalanceOptions


@pytest.fixture(scope="module")
def balance_pass():
    from robotable.sim.studies import balance

    return balance


def run_pass(argv: list[str]) -> int:
    """`robotable balance ARGV`: its exit code, its output passed on to this test's capsys."""
    app = typer.Typer()
    register(app)
    result = CliRunner().invoke(app, ["balance", *argv])
    sys.stdout.write(result.stdout)
    sys.stderr.write(result.stderr)
    return result.exit_code


def test_the_pass_covers_every_seat_count_of_every_bundled_game(balance_pass):
    """Every table a player can sit at is in the pass, taken from the registry (a solo Stak
    Bots game has no rival, so no first mover and no card race, and is left out)."""
    from robotable.core.registry import bundled_game_names

    tables = balance_pass.every_table()
    assert {name for name, _ in tables} == set(bundled_game_names())
    assert ("stakbots", 1) not in tables
    assert {n for name, n in tables if name == "betabotz"} == {3, 4, 5, 6}


def _row(output: str) -> list[str]:
    [row] = [line for line in output.splitlines() if line.startswith("| breadwinner |")]
    return [cell.strip() for cell in row.strip("|").split("|")]


def test_pieces_on_two_seeds_pool_into_one_row(balance_pass, tmp_path, capsys):
    base = ["--only", "breadwinner", "--out-dir", str(tmp_path)]
    assert run_pass([*base, "--games", "4"]) == 0
    assert _row(capsys.readouterr().out)[2] == "4"
    assert run_pass([*base, "--games", "3", "--seed", "1"]) == 0
    pooled = _row(capsys.readouterr().out)
    assert pooled[2] == "7"
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "breadwinner-2p-self-greedy-seed0.jsonl",
        "breadwinner-2p-self-greedy-seed1.jsonl",
    ]
    # Again on seed 1: its file is complete, so nothing is played and the row is the same.
    assert run_pass([*base, "--games", "3", "--seed", "1"]) == 0
    assert _row(capsys.readouterr().out) == pooled
    seed1 = tmp_path / "breadwinner-2p-self-greedy-seed1.jsonl"
    assert len(seed1.read_text().splitlines()) == 1 + 3  # the header and the same three games
    assert run_pass([*base, "--no-play"]) == 0
    assert _row(capsys.readouterr().out) == pooled


def test_no_play_needs_an_out_dir_and_files_in_it(balance_pass, tmp_path, capsys):
    assert run_pass(["--only", "breadwinner", "--no-play"]) == 2
    assert "--no-play reads the results files of --out-dir" in capsys.readouterr().err
    empty = ["--only", "breadwinner", "--out-dir", str(tmp_path), "--no-play"]
    assert run_pass(empty) == 2
    assert "no results file breadwinner-2p-self-greedy-seed*.jsonl" in capsys.readouterr().err


# -- barred runs: each flagged card's causal reading -------------------------------------------


def _bar_args(out_dir: Path, no_play: bool = False, games: int = 4) -> BalanceOptions:
    return BalanceOptions(
        agent="greedy",
        bar_games=games,
        seed=0,
        out_dir=out_dir,
        no_play=no_play,
        workers=1,
        decision_streams=False,
    )


def _games(path: Path) -> list[tuple]:
    lines = [json.loads(line) for line in path.read_text().splitlines()[1:]]
    return sorted((g["index"], g["seed"], g["arrangement"], g["returns"]) for g in lines)


def test_a_barred_run_is_simulate_restrict_game_for_game(balance_pass, invoke, tmp_path):
    """The script's barred run of a card is `simulate --restrict CARD` with the same seed: the
    same games, and that command's results file read in its place gives the same reading."""
    cli_file = tmp_path / "cli.jsonl"
    result = invoke(
        "simulate", "stakbots", "--restrict", "Core Bot", "--agents", "greedy", "--games", "4",
        "--workers", "1", "--errors-dir", str(tmp_path), "--out-jsonl", str(cli_file), "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    cli = json.loads(result.stdout)["restriction"]
    runs = tmp_path / "runs"
    runs.mkdir()
    mine = balance_pass.bar_card("stakbots", 2, "Core Bot", _bar_args(runs), str(tmp_path))
    [played] = runs.iterdir()
    assert played.name == "stakbots-2p-bar-Core-Bot-greedy-seed0.jsonl"
    assert _games(played) == _games(cli_file)
    keys = ("restricted_wins", "decided", "importance", "importance_ci", "p_value")
    assert [mine[k] for k in keys] == [cli[k] for k in keys]
    played.write_text(cli_file.read_text())
    again = balance_pass.bar_card("stakbots", 2, "Core Bot", _bar_args(runs, True), str(tmp_path))
    assert [again[k] for k in keys] == [cli[k] for k in keys]


def _paired_games(path: Path) -> list[tuple]:
    lines = [json.loads(line) for line in path.read_text().splitlines()[1:]]
    return sorted(
        (
            g["index"],
            g["returns"],
            g["placebo_returns"],
            g["bar_could_act"],
            g["cards"],
            g.get("moves"),
            g.get("unbarred_moves"),
        )
        for g in lines
    )


@pytest.mark.parametrize("streams", [False, True], ids=["one stream a seat", "decision streams"])
def test_barred_runs_sharing_one_unbarred_table_are_simulate_restrict_pair_for_pair(
    balance_pass, invoke, tmp_path, streams
):
    """Two bars, one of a card and one of two cards together, through one shared table of
    unbarred games (each played once, watching both bars) hold the same pairs as `simulate
    --restrict` run for each bar on its own, with the same moves kept for each game; with
    decision streams too (each barred game then started where its bar could first act)."""
    cards = ["Spike Bot", "Core Bot+Trip Bot"]  # the second barred together (two cards)
    runs = tmp_path / "runs"
    runs.mkdir()
    args = _bar_args(runs, games=6)
    args.agent = "mcts:20"
    args.decision_streams = streams
    shared = balance_pass.unbarred_games("stakbots", 2, cards, args, str(tmp_path))
    assert len(shared) == 6
    could = [[g.bar_could_act[k] for g in shared] for k in range(2)]
    for place, card in enumerate(cards):
        mine = balance_pass.bar_card("stakbots", 2, card, args, str(tmp_path), (place, shared))
        cli_file = tmp_path / f"cli-{place}.jsonl"
        result = invoke(
            "simulate", "stakbots", "--restrict", card.replace("+", ";"), "--agents", "mcts:20",
            "--games", "6", "--keep-moves",
            "--workers", "1", "--errors-dir", str(tmp_path), "--out-jsonl", str(cli_file),
            "--json", *(["--decision-streams"] if streams else []),
        )  # fmt: skip
        assert result.exit_code == 0, result.output
        cli = json.loads(result.stdout)["restriction"]
        stem = balance_pass.bar_stem("stakbots", 2, card, "mcts:20")
        assert _paired_games(runs / f"{stem}-seed0.jsonl") == _paired_games(cli_file)
        assert mine["paired"] == cli["paired"]
        assert [p[3] for p in _paired_games(cli_file)] == [[c] for c in could[place]]
        assert all(p[5] for p in _paired_games(cli_file))
    assert any(not c for row in could for c in row)  # some games were not played again


def _table(results) -> list[dict]:
    return [{k: v for k, v in r.to_json().items() if k != "seconds"} for r in results]


@pytest.mark.parametrize("source", ["unbarred table", "barred run"])
def test_a_later_bar_list_replays_the_kept_unbarred_games_instead_of_playing_them(
    balance_pass, invoke, tmp_path, monkeypatch, source
):
    """Unbarred games kept with their moves, in another list's unbarred table or as a barred
    run's partners (`simulate --restrict --keep-moves` with the same seed), are replayed for a
    new list of bars, not played: the new table is the one playing it would give, game for game
    (bars watched, cards tracked), and its run plays no game."""
    runs, fresh = tmp_path / "runs", tmp_path / "fresh"
    runs.mkdir()
    fresh.mkdir()
    args = _bar_args(runs, games=6)
    args.agent = "mcts:20"
    if source == "unbarred table":
        balance_pass.unbarred_games("stakbots", 2, ["Spike Bot"], args, str(tmp_path))
    else:
        result = invoke(
            "simulate", "stakbots", "--restrict", "Spike Bot", "--agents", "mcts:20",
            "--games", "6", "--keep-moves", "--workers", "1", "--errors-dir", str(tmp_path),
            "--out-jsonl", str(runs / "stakbots-2p-bar-Spike-Bot-mcts-20-seed0.jsonl"),
        )  # fmt: skip
        assert result.exit_code == 0, result.output
    later = ["Core Bot+Trip Bot", "Spike Bot", "Pit Bot"]
    played = []
    real_run = balance_pass.run

    def counting_run(spec, workers=None, on_result=None, previous=(), **kw):
        played.append(spec.games - len(previous))
        return real_run(spec, workers=workers, on_result=on_result, previous=previous, **kw)

    monkeypatch.setattr(balance_pass, "run", counting_run)
    replayed = balance_pass.unbarred_games("stakbots", 2, later, args, str(tmp_path))
    assert played == [0]
    monkeypatch.setattr(balance_pass, "run", real_run)
    args.out_dir = fresh
    expected = balance_pass.unbarred_games("stakbots", 2, later, args, str(tmp_path))
    assert _table(replayed) == _table(expected)
    assert any(any(r.bar_could_act) for r in expected), "some bar could act"


def test_kept_games_of_other_deals_or_agents_are_not_replayed(balance_pass, tmp_path, monkeypatch):
    """Another seed's table, or another agent's, holds other games: they are played."""
    runs = tmp_path / "runs"
    runs.mkdir()
    args = _bar_args(runs, games=4)
    args.seed = 1
    balance_pass.unbarred_games("stakbots", 2, ["Spike Bot"], args, str(tmp_path))
    args.seed, args.agent = 0, "greedy"
    balance_pass.unbarred_games("stakbots", 2, ["Spike Bot"], args, str(tmp_path))
    args.agent = "random"
    assert (
        balance_pass.kept_unbarred_table(
            balance_pass.unbarred_spec("stakbots", 2, ["Pit Bot"], args, str(tmp_path)), "x", args
        )
        == []
    )


def test_barred_runs_print_their_unbarred_games_as_the_tables_row(
    balance_pass, invoke, tmp_path, capsys
):
    """The unbarred games of a barred pass are self-play on the bars' deals: the pass prints
    their row (first mover, endings, flagged cards), the row `simulate` gives for those games."""
    runs = tmp_path / "runs"
    runs.mkdir()
    args = _bar_args(runs, games=6)
    balance_pass.print_bars([("stakbots", 2, "Core Bot", None)], args, str(tmp_path))
    out = capsys.readouterr().out
    assert "The unbarred games, `greedy` against itself on the same deals" in out
    [row] = [line for line in out.splitlines() if line.startswith("| stakbots | 2 | 6 |")]
    [unbarred] = runs.glob("stakbots-2p-unbarred-*-seed0.jsonl")
    pooled = invoke("pool", str(unbarred), "--json")
    first = json.loads(pooled.stdout)["first_mover"]
    assert f"| {100 * first['win_rate']:.1f}% |" in row


def _reading(importance: float, ci: tuple[float, float], barred: int, free: int) -> dict:
    return {
        "importance": importance,
        "importance_ci": list(ci),
        "games": 200,
        "card_use": {
            "restricted": {"seat_games": 200, "used": barred, "rate": barred / 200},
            "unrestricted": {"seat_games": 400, "used": free, "rate": free / 400},
        },
    }


@pytest.mark.parametrize(
    ("ci", "reading"),
    [
        ((-0.04, 0.071), "cleared together: none of them is worth more than 7.1 points"),
        ((-0.02, 0.10), "cleared together: none of them is worth more than 10.0 points"),
        (
            (-0.01, 0.13),
            "not cleared within 10 points: about 420 more games at its point, or bar "
            "its cards one at a time",
        ),
        ((0.12, 0.25), "the group is worth more than 10 points: bar its cards one at a time"),
    ],
)
def test_a_group_bar_reads_as_a_bound_on_each_of_its_cards(balance_pass, ci, reading):
    group = {**_reading(sum(ci) / 2, ci, 0, 300), "cards": ["Golden Mainframe", "Neural Mesh"]}
    assert balance_pass.bar_reading(group) == reading
    assert balance_pass.bar_group("Golden Mainframe + Neural Mesh") == tuple(group["cards"])


@pytest.mark.parametrize(
    ("importance", "ci", "barred", "free", "reading"),
    [
        (0.165, (0.097, 0.227), 0, 378, "past the bar: the card itself is worth"),
        (-0.12, (-0.19, -0.05), 0, 300, "past the bar: the card itself costs"),
        (0.093, (0.030, 0.147), 0, 307, "a real edge under the bar at its point, its interval"),
        # 10 points exactly, whichever way the float falls, is at the bar, not past it
        (92 / 200 - 72 / 200, (0.022, 0.176), 0, 360, "a real edge under the bar at its point"),
        (95 / 200 - 75 / 200, (0.023, 0.175), 0, 352, "a real edge under the bar at its point"),
        (0.048, (-0.018, 0.106), 0, 284, "nothing measurable"),
        (0.13, (-0.01, 0.25), 0, 40, "nothing measurable"),
        (-0.012, (-0.080, 0.051), 92, 198, "the bar did not keep the card out"),
        (0.0, (-0.07, 0.07), 0, 0, "never played by the free seats"),
    ],
)
def test_each_barred_run_reads_against_zero_and_the_bar(
    balance_pass, importance, ci, barred, free, reading
):
    assert balance_pass.bar_reading(_reading(importance, ci, barred, free)).startswith(reading)


def test_screen_groups_each_tables_cards_flagged_above_and_bars_those_below_alone(balance_pass):
    flags = [
        ("betabotz", 6, "Evasion", 2.0),
        ("betabotz", 6, "Overclock", 0.4),
        ("betabotz", 6, "Titan Hull", 1.8),
        ("stakbots", 2, "Core Bot", 2.5),  # one card above: no group
    ]
    bars, follow = balance_pass.screened(flags)
    assert bars == [
        ("betabotz", 6, "Evasion+Titan Hull", None),
        ("betabotz", 6, "Overclock", 0.4),
        ("stakbots", 2, "Core Bot", 2.5),
    ]
    assert follow == {
        ("betabotz", 6, "Evasion+Titan Hull"): [
            ("betabotz", 6, "Evasion", 2.0),
            ("betabotz", 6, "Titan Hull", 1.8),
        ]
    }


@pytest.mark.parametrize(("top", "singles"), [(0.08, []), (0.14, ["Evasion", "Titan Hull"])])
def test_a_screened_group_is_barred_card_by_card_only_when_not_cleared(
    balance_pass, tmp_path, capsys, monkeypatch, top, singles
):
    """A group cleared within 10 points ends its cards' story; one that is not is followed by
    each card barred alone, every bar watched in the one unbarred table."""
    watched, barred = [], []

    def unbarred(game, seats, cards, args, errors):
        watched.append(cards)
        return []

    def bar(game, seats, card, args, errors, shared=None):
        barred.append(card)
        cards = list(balance_pass.bar_group(card))
        r = {**_reading(0.02, (-0.04, top), 0, 300), "cards": cards, "games": 200}
        r["paired"] = {
            "games": 200, "bar_could_act": 150, "unbarred_wins": 40, "barred_wins": 36,
            "importance": 0.02, "importance_ci": [-0.04, top], "p_value": 0.5,
        }  # fmt: skip
        return r

    monkeypatch.setattr(balance_pass, "unbarred_games", unbarred)
    monkeypatch.setattr(balance_pass, "bar_card", bar)
    monkeypatch.setattr(balance_pass, "print_table_row", lambda *a: [])
    flags = [("betabotz", 6, "Evasion", 2.0), ("betabotz", 6, "Titan Hull", 1.8)]
    args = _bar_args(tmp_path)
    bars, follow = balance_pass.screened(flags)
    balance_pass.print_bars(bars, args, "", follow)
    assert barred == ["Evasion+Titan Hull", *singles]
    assert watched == [["Evasion+Titan Hull", "Evasion", "Titan Hull"]]
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| betabotz")]
    assert len(rows) == 1 + len(singles)
    assert ("cleared together" in rows[0]) == (not singles)


def test_the_pass_bars_each_flagged_card_and_no_play_reads_them_back(
    balance_pass, tmp_path, capsys, monkeypatch
):
    # Stak Bots' greedy games flag no card in two games, so the test names one for every table.
    monkeypatch.setattr(balance_pass, "flagged_cards", lambda summary: [("Core Bot", 2.5)])
    base = ["--only", "stakbots", "--out-dir", str(tmp_path), "--bar", "--bar-games", "2"]
    assert run_pass([*base, "--games", "2"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if "| Core Bot |" in line]
    assert [row.split("|")[2].strip() for row in rows] == ["2", "3", "4"]
    assert all("| 2.50 | 2 |" in row for row in rows)
    assert run_pass([*base, "--no-play"]) == 0
    again = [line for line in capsys.readouterr().out.splitlines() if "| Core Bot |" in line]
    assert again == rows
    for bar in tmp_path.glob("*-bar-*"):
        bar.unlink()
    assert run_pass([*base, "--no-play"]) == 0
    missing = [line for line in capsys.readouterr().out.splitlines() if "| Core Bot |" in line]
    assert all(row.endswith("| not barred yet |") for row in missing)
    assert all(row.count("|") == rows[0].count("|") == 14 for row in missing)


def test_bar_cards_bars_the_named_cards_in_the_chosen_tables_only(balance_pass, tmp_path, capsys):
    args = ["--only", "stakbots", "--seats", "2,3", "--bar-cards", "Core Bot; Spike Bot"]
    assert run_pass([*args, "--bar-games", "3", "--out-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    rows = [line.split("|")[1:4] for line in out.splitlines() if line.startswith("| stakbots")]
    assert [[cell.strip() for cell in row] for row in rows] == [
        ["stakbots", "2", "Core Bot"],
        ["stakbots", "2", "Spike Bot"],
        ["stakbots", "3", "Core Bot"],
        ["stakbots", "3", "Spike Bot"],
        # then each table's unbarred games, 3 of them
        ["stakbots", "2", "3"],
        ["stakbots", "3", "3"],
    ]
    assert "Self-play" not in out and "Iotabots decks" not in out
    # One table of unbarred games per seat count, one barred file per card and seat count.
    names = sorted(p.name.split("-seed")[0] for p in tmp_path.iterdir())
    unbarred = [n for n in names if "-unbarred-" in n]
    assert [n.rsplit("-", 1)[0] for n in unbarred] == [
        "stakbots-2p-unbarred-greedy",
        "stakbots-3p-unbarred-greedy",
    ]
    assert len(names) == 2 + 4
    # Every game of every file keeps its moves, and the printout says how to watch one.
    assert f"Each barred run's file in {tmp_path} keeps its games' moves" in out
    for path in tmp_path.iterdir():
        record, _, _ = results_record(path, 2)
        assert record["result"] is not None


def test_standing_adds_the_cards_by_standing_and_keeps_its_games_apart(
    balance_pass, tmp_path, capsys
):
    base = ["--only", "rumblebots", "--seats", "2", "--games", "6", "--out-dir", str(tmp_path)]
    assert run_pass([*base, "--standing"]) == 0
    [row] = [line for line in capsys.readouterr().out.splitlines() if "| rumblebots |" in line]
    # Six games are too few for the standing to show who wins, and the row says so.
    assert "; by standing (the standing barely tells the winner): " in row.split("|")[-2]
    [path] = tmp_path.iterdir()
    assert path.name == "rumblebots-2p-self-greedy-standing-seed0.jsonl"
    assert all("moments" in json.loads(line) for line in path.read_text().splitlines()[1:])
    # Without it, the same table's games go to a file of their own, with no moments.
    assert run_pass(base) == 0
    [row] = [line for line in capsys.readouterr().out.splitlines() if "| rumblebots |" in line]
    assert "by standing" not in row
    assert len(list(tmp_path.iterdir())) == 2


def test_every_way_a_betabotz_seat_takes_a_card_counts_as_fielding_it(balance_pass, tmp_path):
    """A component bought, a Code card played and a breach taken: a breach's bar (Armored) is
    read against the free seats that took it, not as a card nobody plays."""
    from robotable.sim.runner import RunSpec, run

    spec = RunSpec("betabotz", 4, ("random",), games=2, seed=0, error_dir=str(tmp_path))
    taken = {kind for r in run(spec, workers=1).results for seat in r.cards for kind, _ in seat}
    ways = {"auction_won", "code_played", "breach_taken"}
    assert ways <= taken  # the games had each
    assert ways <= set(balance_pass.FIELDED["betabotz"])


@pytest.mark.parametrize(
    ("tops", "verdict"),
    [
        ((0.054, 0.09), "each alone tops out within 10 points"),
        ((0.054, 0.12), "alone, Neural Mesh not cleared within 10 points"),
    ],
)
def test_a_group_not_cleared_is_read_beside_its_cards_barred_alone(
    balance_pass, tmp_path, capsys, monkeypatch, tops, verdict
):
    """The four-seat Betabotz story: a group not cleared together, each card barred alone in the
    same pass; the pass says whether every card alone clears (the group's edge is then several
    small ones)."""
    top = {
        "Golden Mainframe+Neural Mesh": 0.136,
        "Golden Mainframe": tops[0],
        "Neural Mesh": tops[1],
    }

    def bar(game, seats, card, args, errors, shared=None):
        r = {
            **_reading(0.02, (-0.01, top[card]), 0, 300),
            "cards": list(balance_pass.bar_group(card)),
        }
        r["paired"] = {
            "games": 100, "bar_could_act": 50, "unbarred_wins": 22, "barred_wins": 20,
            "importance": 0.02, "importance_ci": [-0.01, top[card]], "p_value": 0.5,
        }  # fmt: skip
        return r

    monkeypatch.setattr(balance_pass, "unbarred_games", lambda *a: [])
    monkeypatch.setattr(balance_pass, "bar_card", bar)
    monkeypatch.setattr(balance_pass, "print_table_row", lambda *a: [])
    bars = [("betabotz", 4, card, None) for card in top]  # the group first, its cards after
    balance_pass.print_bars(bars, _bar_args(tmp_path), "")
    [line] = [x for x in capsys.readouterr().out.splitlines() if x.startswith("betabotz, 4 seats")]
    assert "Golden Mainframe, Neural Mesh barred together cost the seat +2.0 points" in line
    assert f"Golden Mainframe +2.0 [-1.0, +{100 * tops[0]:.1f}]" in line and verdict in line
