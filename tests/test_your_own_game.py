"""Your own game, for real (docs/your-own-game.md): the example game kept outside robotable,
examples/dicerace, found through an entry point and played by every front end without further
code; `robotable new-game` writes a package that plays and passes the checker; `robotable
check` names each broken property and where.

Nothing is installed: the example's folder goes on sys.path and its entry point is simulated by
wrapping importlib.metadata.entry_points, which is where the registry looks.
"""

from __future__ import annotations

import importlib
import json
import random
import sys
import tomllib
import warnings
from importlib import metadata
from pathlib import Path

import pytest
from typer.testing import CliRunner

import robotable
from robotable.cli import _register_all, app
from robotable.core import registry
from robotable.core.conformance import MIN_TERMS, check_game, check_random_game
from robotable.core.errors import OptionError

_register_all()
cli = CliRunner()
EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "dicerace"


def _entry_points_of(pyproject: Path) -> list[metadata.EntryPoint]:
    """The robotable.games entry points a package's pyproject.toml declares, as pip would
    install them."""
    declared = tomllib.loads(pyproject.read_text())["project"]["entry-points"]
    group = registry.ENTRY_POINT_GROUP
    return [metadata.EntryPoint(n, v, group) for n, v in declared[group].items()]


@pytest.fixture
def installed(monkeypatch):
    """`installed(folder)`: the package in `folder` as if `pip install -e folder` had run: on
    sys.path, its entry points in importlib.metadata. Undone after the test."""
    real = metadata.entry_points
    extra: list[metadata.EntryPoint] = []
    packages: list[str] = []

    def entry_points(**select):
        found = real(**select)
        if select.get("group") == registry.ENTRY_POINT_GROUP:
            return metadata.EntryPoints([*found, *extra])
        return found

    def install(folder: Path) -> None:
        monkeypatch.syspath_prepend(str(folder))
        points = _entry_points_of(folder / "pyproject.toml")
        extra.extend(points)
        packages.extend(p.value.partition(":")[0] for p in points)
        registry.rescan_games()

    monkeypatch.setattr(metadata, "entry_points", entry_points)
    yield install
    monkeypatch.undo()
    registry.rescan_games()
    for name in list(sys.modules):
        if name.partition(".")[0] in packages:
            del sys.modules[name]


@pytest.fixture
def dicerace(installed):
    installed(EXAMPLE)
    return registry.game_class("dicerace")


# -- the registry finds it -------------------------------------------------------------------
def test_an_entry_point_game_is_listed_and_loads(dicerace) -> None:
    assert "dicerace" in robotable.game_names()
    assert "dicerace" not in registry.bundled_game_names()
    assert dicerace.__module__ == "dicerace"
    assert robotable.load_game("dicerace", num_players=3).num_players == 3


def test_without_its_entry_point_the_game_is_unknown() -> None:
    with pytest.raises(OptionError, match="unknown game 'dicerace'"):
        registry.game_class("dicerace")


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ("no_such_module_xyz:GAME", "does not import: ModuleNotFoundError"),
        ("json", "the module has no GAME"),
        ("json:dumps", "not a subclass of robotable.Game"),
        ("toygame:CountdownGame", "the class's name is 'countdown'"),
    ],
)
def test_a_broken_entry_point_is_one_line_naming_it(monkeypatch, value, says) -> None:
    point = metadata.EntryPoint("brokengame", value, registry.ENTRY_POINT_GROUP)
    monkeypatch.setattr(metadata, "entry_points", lambda **select: metadata.EntryPoints([point]))
    registry.rescan_games()
    try:
        with pytest.raises(OptionError) as caught:
            registry.game_class("brokengame")
        message = str(caught.value)
        assert says in message and "\n" not in message
        assert f"entry point 'brokengame = {value}'" in message
    finally:
        monkeypatch.undo()
        registry.rescan_games()


def test_a_bundled_name_is_not_taken_by_an_entry_point(monkeypatch) -> None:
    point = metadata.EntryPoint("stakbots", "json", registry.ENTRY_POINT_GROUP)
    monkeypatch.setattr(metadata, "entry_points", lambda **select: metadata.EntryPoints([point]))
    registry.rescan_games()
    try:
        assert registry.game_class("stakbots").__module__.startswith("robotable.games.")
    finally:
        monkeypatch.undo()
        registry.rescan_games()


# -- the example meets every requirement -------------------------------------------------------
def test_the_example_passes_the_checker_at_every_seat_count(dicerace) -> None:
    report = check_game(dicerace, games=4)
    assert report.ok, "\n".join(map(str, report.failures))
    assert report.seat_counts == [2, 3, 4] and report.games == 12


def test_the_example_has_a_guide_with_enough_terms(dicerace) -> None:
    game = robotable.load_game("dicerace")
    assert len(game.glossary()) >= MIN_TERMS
    assert "Boost card" in game.glossary()


def test_determinize_deals_the_hidden_boost_cards_again(dicerace) -> None:
    """The hidden information is real: a determinization keeps the seat's own hand and view,
    and deals the other hands again from the cards that seat has not seen."""
    state = robotable.load_game("dicerace", num_players=3).new_initial_state(seed=4)
    others = {
        tuple(map(tuple, state.determinize(0, random.Random(k)).hands[1:])) for k in range(20)
    }
    assert len(others) > 1
    sample = state.determinize(0, random.Random(1))
    assert sample.hands[0] == state.hands[0] and sample.view(0) == state.view(0)


# -- every front end plays it without further code ------------------------------------------------
def test_the_terminal_plays_it_with_a_person(dicerace, tmp_path) -> None:
    from rich.console import Console

    from robotable.frontend.play import Table, build_agents, run_table

    game = robotable.load_game("dicerace", num_players=2)
    console = Console(record=True, width=200, force_terminal=False)
    seats = ["human", "random"]
    table = Table(game, 3, seats, build_agents(seats, 3), tmp_path / "g.json", console, ["Ada"])
    run_table(table, lambda prompt: "1")  # Ada always rolls the die
    text = console.export_text()
    assert table.state.is_terminal()
    assert "You roll a" in text and "Boost card" not in text.split("Ada")[0]
    record = json.loads((tmp_path / "g.json").read_text())
    assert record["game"] == "dicerace" and record["result"] is not None
    assert robotable.replay_record(record)[1].is_terminal()


def test_the_play_command_runs_ai_seats(dicerace, tmp_path) -> None:
    args = ["play", "dicerace", "--seats", "random,medium", "--names", "Ada,Bo", "--seed", "2"]
    result = cli.invoke(app, [*args, "--record", str(tmp_path / "g.json"), "--delay", "0"])
    assert result.exit_code == 0, result.output
    assert "Ada" in result.stdout and "seat 0" not in result.stdout


def test_the_web_table_plays_it_over_the_websocket(dicerace, tmp_path, monkeypatch) -> None:
    pytest.importorskip("starlette")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from robotable.server import app as server
    from robotable.server.limits import ServerLimits

    monkeypatch.setattr(server, "DEFAULT_HOSTS", (*server.DEFAULT_HOSTS, "testserver"))
    limits = ServerLimits(creates_per_minute=1000, ws_messages_per_minute=100_000)
    web = server.create_app(tmp_path / "t.sqlite3", ai_delay=0, synchronous="NORMAL", limits=limits)
    with TestClient(web) as client:
        assert "dicerace" in [g["name"] for g in client.get("/api/games").json()["games"]]
        assert client.get("/api/games/dicerace/guide").json()["terms"]["Draw pile"]
        body = {
            "game": "dicerace",
            "num_players": 2,
            "seats": [{"kind": "human"}, {"kind": "ai", "ai": "random"}],
            "seed": 5,
        }
        created = client.post("/api/tables", json=body)
        assert created.status_code == 201, created.text
        table = created.json()
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            ws.send_json({"type": "hello", "token": table["seats"][0]["token"]})
            frame = ws.receive_json()
            while frame["type"] not in ("state", "update") or not frame["view"]["terminal"]:
                if frame["type"] in ("state", "update") and frame["view"]["current_player"] == 0:
                    ws.send_json({"type": "act", "index": 0, "step": frame["step"]})
                assert frame["type"] != "error", frame
                frame = ws.receive_json()
        record = client.get(f"/api/tables/{table['id']}/record").json()
    assert record["game"] == "dicerace"
    assert robotable.replay_record(record)[1].returns() == frame["view"]["returns"]


def test_the_lab_simulates_it(dicerace, tmp_path) -> None:
    from robotable.sim.runner import RunSpec, run

    spec = RunSpec("dicerace", 3, ("random", "greedy"), games=6, seed=1, error_dir=str(tmp_path))
    outcome = run(spec, workers=1)
    assert len(outcome.results) == 6
    assert all(r.error is None and r.returns is not None for r in outcome.results)


def test_the_rl_adapters_pass_their_own_checkers(dicerace) -> None:
    gymnasium = pytest.importorskip("gymnasium")
    pytest.importorskip("pettingzoo")
    from gymnasium.utils.env_checker import check_env
    from pettingzoo.test import api_test

    import robotable.envs.gymnasium as rgym
    from robotable.envs import pettingzoo as rpz
    from robotable.envs.encoding import Encoding

    encoding = Encoding(robotable.load_game("dicerace", num_players=2))
    assert encoding.actions_from_game and encoding.obs_from_game  # its own hooks, not the fallback
    rgym.register_envs()
    env = gymnasium.make(rgym.env_id("dicerace"), opponents="random")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        check_env(env.unwrapped, skip_render_check=True)
        api_test(rpz.env("dicerace", num_players=3), num_cycles=100)


# -- robotable new-game ------------------------------------------------------------------------
def test_new_game_writes_a_package_that_plays_and_passes(installed, tmp_path) -> None:
    folder = tmp_path / "boltpile"
    result = cli.invoke(app, ["new-game", "boltpile", "--dir", str(folder), "--title", "Bolt Pile"])
    assert result.exit_code == 0, result.output
    assert (folder / "boltpile" / "data" / "guide.md").exists()
    assert (folder / "tests" / "test_boltpile.py").exists()
    installed(folder)
    game = robotable.load_game("boltpile", num_players=2)
    assert game.title == "Bolt Pile" and len(game.glossary()) >= MIN_TERMS
    checked = cli.invoke(app, ["check", "boltpile", "--games", "3"])
    assert checked.exit_code == 0, checked.output
    assert "boltpile: every property holds" in checked.stdout
    played = cli.invoke(
        app,
        [
            "play",
            "boltpile",
            "--seats",
            "random,random",
            "--delay",
            "0",
            "--record",
            str(tmp_path / "g.json"),
        ],
    )
    assert played.exit_code == 0, played.output
    # the package's own test passes as written
    namespace: dict = {}
    exec((folder / "tests" / "test_boltpile.py").read_text(), namespace)
    namespace["test_boltpile_passes_the_conformance_checker"]()


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("Bad-Name", "a name is 2-31 lower-case letters"),
        ("json", "a module of that name exists already"),
        ("stakbots", "a game of that name exists already"),
        ("class", "a name is 2-31 lower-case letters"),
    ],
)
def test_new_game_refuses_a_name_in_one_line(tmp_path, name, says) -> None:
    result = cli.invoke(app, ["new-game", name, "--dir", str(tmp_path / "x")])
    assert result.exit_code == 2
    assert says in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "x").exists()


def test_new_game_does_not_write_into_a_folder_in_use(tmp_path) -> None:
    (tmp_path / "kept.txt").write_text("mine")
    result = cli.invoke(app, ["new-game", "freshgame", "--dir", str(tmp_path)])
    assert result.exit_code == 2 and "not an empty directory" in result.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["kept.txt"]


# -- robotable check ---------------------------------------------------------------------------
def test_check_takes_a_game_a_module_or_a_folder(dicerace) -> None:
    for spec in ("dicerace", "dicerace.rules", str(EXAMPLE / "dicerace")):
        result = cli.invoke(app, ["check", spec, "-n", "2", "--games", "2"])
        assert result.exit_code == 0, (spec, result.output)
        assert result.stdout.strip().endswith(")") and "FAIL" not in result.stdout


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("no_such_game_xyz", "neither a game"),
        ("json", "the module json has no Game class"),
        ("stakbots -n 9", "takes 1 to 4 seats"),
    ],
)
def test_check_of_bad_input_exits_2_in_one_line(spec, says) -> None:
    result = cli.invoke(app, ["check", *spec.split()])
    assert result.exit_code == 2, result.output
    assert says in result.stderr and len(result.stderr.strip().splitlines()) == 1


def _leaky_clone(dicerace):
    """Dice Race with the commonest bug: a clone that shares the racers' squares with its original."""

    class Leaky(dicerace):
        name = "leakyrace"

        def new_initial_state(self, seed: int = 0):
            state = super().new_initial_state(seed)
            original = type(state).clone

            def clone(self):
                twin = original(self)
                twin.squares = self.squares  # the bug
                return twin

            state.__class__ = type("LeakyState", (type(state),), {"clone": clone})
            return state

        def state_from_json(self, data):
            state = super().state_from_json(data)
            state.__class__ = type(self.new_initial_state(0))
            return state

    Leaky.__module__ = dicerace.__module__  # its guide is the example's data/guide.md
    return Leaky


def test_check_names_the_broken_property_and_where(dicerace, monkeypatch) -> None:
    leaky = _leaky_clone(dicerace)
    module = type(sys)("leakyrace")
    module.GAME = leaky
    monkeypatch.setitem(sys.modules, "leakyrace", module)
    result = cli.invoke(app, ["check", "leakyrace", "-n", "2", "--games", "3"])
    assert result.exit_code == 1, result.output
    lines = result.stdout.strip().splitlines()
    fails = [line for line in lines if line.startswith("FAIL ")]
    assert fails and all(
        line.startswith("FAIL clone independence: game leakyrace (2 seats, seed ") for line in fails
    ), lines
    assert "after action" in fails[0] or "at the start" in fails[0]
    assert "changed the original" in fails[0]
    assert lines[-1].startswith("leakyrace: 1 property fails (clone independence)")


def test_an_error_in_a_game_is_reported_where_it_happened(dicerace, monkeypatch) -> None:
    game = robotable.load_game("dicerace", num_players=2)
    rules = importlib.import_module("dicerace.rules")
    apply = rules.apply
    calls = []

    def failing(state, action):
        calls.append(action)
        if len(calls) == 5:
            raise KeyError("squares")
        return apply(state, action)

    monkeypatch.setattr(rules, "apply", failing)
    from robotable.core.conformance import ConformanceError

    with pytest.raises(ConformanceError) as caught:
        check_random_game(game, seed=1, choice_seed=1, max_steps=50)
    assert caught.value.prop == "no errors"
    assert "KeyError: 'squares' (at " in caught.value.detail
