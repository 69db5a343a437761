"""Records are untrusted input: a record file anyone may have written, replayed or resumed.

Valid records of real games (and their unfinished halves, for `play --resume`) are mutated every
way Hypothesis finds: any field, action, option, result or reseed replaced by a value of another
type, a huge number, deep nesting, text with control characters, a path to a file; keys taken
out and added; the file's text cut or swollen. Whatever the record says, `robotable replay` and
`robotable play --resume` end in exit status 0 or 2 (replay's 1: a well-formed record whose
moves do not replay, named by step), say what is wrong on one line of stderr, never show a
traceback, and open no file the record names (an audit hook watches every open).
"""

from __future__ import annotations

import copy
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import robotable
from robotable.cli import _register_all, app

_register_all()
runner = CliRunner()

# -- valid records of real games --------------------------------------------------------------


def _played(name: str, players: int, seed: int, stop: int | None = None) -> dict:
    """A record of random play; `stop`: only that many actions, unfinished."""
    game = robotable.load_game(name, num_players=players)
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    actions = []
    while not state.is_terminal() and (stop is None or len(actions) < stop):
        action = rng.choice(state.legal_actions())
        actions.append(action)
        state.apply_action(action)
    record = robotable.make_record(game, seed, actions, state)
    record["seats"] = ["random"] * players
    record["names"] = [f"Player {seat + 1}" for seat in range(players)]
    return record


FINISHED = [_played("countdown", 2, 3), _played("stakbots", 2, 5), _played("breadwinner", 2, 2)]
UNFINISHED = [_played("countdown", 2, 4, stop=2), _played("stakbots", 2, 6, stop=6)]

# -- what a mutation puts in a record ---------------------------------------------------------

BAIT = "planted.toml"  # a file beside the record that no record may make robotable read
PATHS = st.sampled_from(
    [BAIT, "./" + BAIT, "/etc/passwd", "/proc/self/environ", "~/.ssh/id_rsa", "../" + BAIT]
)
HUGE = st.sampled_from([2**63, 2**64 + 1, -(2**64), 10**30, -(10**30), 10**300])
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    HUGE,
    st.floats(allow_nan=False),
    st.text(max_size=30),
    PATHS,
    st.just("inline:[[cards]]\nname = 5\n"),
    st.sampled_from(["play", "take", "end_turn", "returns", "type", "\x1b[2J", "\u202e"]),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def _deep(depth: int) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


def _places(record: dict) -> list[tuple]:
    """Every place a value sits in a record, as a path of keys and indices."""
    out: list[tuple] = []

    def walk(value: Any, path: tuple) -> None:
        out.append(path)
        if len(path) > 4:  # deep nesting a mutation made: its top is place enough
            return
        if isinstance(value, dict):
            for key, inner in value.items():
                walk(inner, (*path, key))
        elif isinstance(value, list):
            for index, inner in enumerate(value[:6]):  # the first actions are enough
                walk(inner, (*path, index))

    walk(record, ())
    return out[1:]


@st.composite
def mutated(draw, bases: list[dict]) -> dict | str:
    """A base record changed in one to three places, or its JSON text changed."""
    record = copy.deepcopy(draw(st.sampled_from(bases)))
    for _ in range(draw(st.integers(1, 3))):
        places = _places(record)
        path = draw(st.sampled_from(places))
        parent: Any = record
        for key in path[:-1]:
            parent = parent[key]
        last = path[-1]
        how = draw(st.sampled_from(["replace", "replace", "replace", "delete", "add", "deep"]))
        if how == "delete":
            del parent[last]
            if not _places(record):
                break
        elif how == "add" and isinstance(parent, dict):
            parent[draw(st.text(max_size=8))] = draw(VALUES)
        elif how == "deep":
            parent[last] = _deep(draw(st.sampled_from([50, 900])))
        else:
            parent[last] = draw(VALUES)
    try:
        text = json.dumps(record)
    except (ValueError, RecursionError):  # a number or nesting json itself will not write
        text = json.dumps(copy.deepcopy(bases[0]))
    swell = draw(st.sampled_from(["none", "none", "none", "cut", "digits", "nest", "list"]))
    if swell == "cut":
        return text[: draw(st.integers(0, max(0, len(text) - 1)))]
    if swell == "digits":  # a number of more digits than Python will turn into an int
        return text.replace('"seed": ', '"seed": ' + "9" * 5000, 1)
    if swell == "nest":
        return "[" * 100_000 + "]" * 100_000
    if swell == "list":
        return json.dumps([record])
    return text


# -- watching the file system -----------------------------------------------------------------

_opened: list[str] = []
_watching: list[str] = []


def _audit(event: str, args: tuple) -> None:
    # Every open() and os.open() in this process, whoever calls it.
    if _watching and event == "open" and isinstance(args[0], str | Path):
        _opened.append(str(args[0]))


sys.addaudithook(_audit)


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A working folder holding a file a record would like read; the record is written here."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / BAIT).write_text('[[cards]]\nname = "planted"\n')
    return tmp_path


def _check(result, record_path: Path, replay: bool) -> None:
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    allowed = (0, 1, 2) if replay else (0, 2)
    assert result.exit_code in allowed, (result.exit_code, result.stderr)
    assert "Traceback" not in result.stderr and "Traceback" not in result.stdout
    if result.exit_code != 0:
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
        assert str(record_path.name) in lines[0], lines[0]
        if result.exit_code == 1:  # replay's verdict on a well-formed record
            assert "does not replay" in lines[0], lines[0]
    # The record itself, robotable's own package files and Python's are all it may open (and a
    # resumed game writes the record back beside itself).
    own = (str(record_path), str(record_path.parent / record_path.name))
    opened = [p for p in _opened if not p.startswith(own) and Path(p).name != BAIT]
    bait = [p for p in _opened if Path(p).name == BAIT or p in ("/etc/passwd",)]
    assert not bait, bait
    assert all(
        p.startswith((sys.prefix, sys.base_prefix, str(Path(robotable.__file__).parent)))
        for p in opened
        if not p.startswith(str(record_path.parent))
    ), opened


def _run(args: list[str]):
    _opened.clear()
    _watching.append("on")
    try:
        return runner.invoke(app, args, input="")
    finally:
        _watching.clear()


FUZZ = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@FUZZ
@given(text=mutated(FINISHED + UNFINISHED))
def test_replay_of_any_record_is_one_line_or_a_replay(folder, text) -> None:
    path = folder / "game.json"
    path.write_text(text)
    _check(_run(["replay", "-q", str(path)]), path, replay=True)


@FUZZ
@given(text=mutated(UNFINISHED))
def test_resume_of_any_record_is_one_line_or_a_game(folder, text) -> None:
    path = folder / "game.json"
    path.write_text(text)
    _check(_run(["play", "--resume", str(path), "--delay", "0"]), path, replay=False)


@pytest.mark.parametrize("base", FINISHED + UNFINISHED, ids=lambda r: r["game"])
def test_the_unmutated_records_replay(folder, base) -> None:
    """The fuzz starts from records that replay: what it finds is the mutation's doing."""
    path = folder / "game.json"
    path.write_text(json.dumps(base))
    result = _run(["replay", "-q", str(path)])
    assert result.exit_code == 0, result.stderr


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        ({"result": "won"}, "field 'result'"),
        ({"result": [1, 0]}, "field 'result'"),
        ({"result": {"returns": 5}}, "field 'result'"),
        ({"num_players": True}, "field 'num_players'"),
        ({"options": {"cards": BAIT}}, "option 'cards'"),
        ({"options": {"cards": "/etc/passwd"}}, "option 'cards'"),
    ],
)
def test_a_malformed_record_names_its_field(folder, change, needle) -> None:
    record = {**copy.deepcopy(UNFINISHED[1]), **change}
    path = folder / "game.json"
    path.write_text(json.dumps(record))
    for args in (["replay", str(path)], ["play", "--resume", str(path)]):
        result = _run(args)
        _check(result, path, replay=args[0] == "replay")
        assert result.exit_code == 2 and needle in result.stderr, result.stderr


def test_an_action_of_another_shape_names_its_step(folder) -> None:
    record = copy.deepcopy(UNFINISHED[1])
    record["actions"][1] = {**record["actions"][1], "type": ["play"]}
    path = folder / "game.json"
    path.write_text(json.dumps(record))
    for args in (["replay", str(path)], ["play", "--resume", str(path)]):
        result = _run(args)
        _check(result, path, replay=args[0] == "replay")
        assert result.exit_code == 2 and "step 2" in result.stderr, result.stderr


def test_a_game_played_with_a_users_card_file_carries_it_and_replays_without_it(folder) -> None:
    own = Path(robotable.__file__).parent / "games" / "stakbots" / "data" / "base_proposed.toml"
    (folder / "mine.toml").write_text(own.read_text(encoding="utf-8"))
    path = folder / "game.json"
    args = ["play", "stakbots", "--seats", "random,random", "--seed", "2", "--delay", "0"]
    result = runner.invoke(app, [*args, "--cards", "mine.toml", "--record", str(path)])
    assert result.exit_code == 0, result.stderr
    assert json.loads(path.read_text())["options"]["cards"].startswith("inline:")
    (folder / "mine.toml").unlink()
    again = _run(["replay", "-q", str(path)])
    assert again.exit_code == 0, again.stderr
