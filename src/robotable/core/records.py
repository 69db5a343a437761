"""Game records: what was played, enough to reproduce it exactly.

`{"game", "version", "options", "num_players", "seed", "actions": [...], "result"}`; `result` is
`null` for an unfinished game, else `{"returns": [...]}`.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from .errors import IllegalAction, OptionError, RecordError
from .protocol import Action, Game, State
from .registry import load_game

RECORD_KEYS = ("game", "version", "options", "num_players", "seed", "actions", "result")


def make_record(game: Game, seed: int, actions: list[Action], state: State | None = None) -> dict:
    result = None
    if state is not None and state.is_terminal():
        result = {"returns": state.returns()}
    return {
        "game": game.name,
        "version": game.version,
        "options": _jsonable(game.options),
        "num_players": game.num_players,
        "seed": seed,
        "actions": [a.to_json() for a in actions],
        "result": result,
    }


def _jsonable(options: dict[str, Any]) -> dict[str, Any]:
    return {k: list(v) if isinstance(v, tuple) else v for k, v in options.items()}


def save_record(record: dict, path: str | os.PathLike) -> None:
    """Write atomically: a crash mid-write never leaves a half record over a good one."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    with os.fdopen(fd, "w") as out:
        json.dump(record, out, indent=1)
        out.write("\n")
    os.replace(tmp, path)


def load_record(path: str | os.PathLike) -> dict:
    try:
        text = Path(path).read_text()
    except OSError as exc:
        raise RecordError(f"record {path}: cannot read it ({exc.strerror})") from None
    try:
        record = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"record {path}: not JSON (line {exc.lineno}: {exc.msg})") from None
    check_record(record, str(path))
    return record


def check_record(record: Any, where: str = "record") -> None:
    if not isinstance(record, dict):
        raise RecordError(f"{where}: a record must be a JSON object")
    missing = [k for k in RECORD_KEYS if k not in record]
    if missing:
        raise RecordError(f"{where}: missing field '{missing[0]}'")
    if not isinstance(record["actions"], list):
        raise RecordError(f"{where}: field 'actions' must be a list")
    if not isinstance(record["seed"], int) or isinstance(record["seed"], bool):
        raise RecordError(f"{where}: field 'seed' must be an integer, got {record['seed']!r}")
    if not isinstance(record["options"], dict):
        raise RecordError(f"{where}: field 'options' must be an object")


def replay_record(record: dict, where: str = "record") -> tuple[Game, State, list[list[dict]]]:
    """Replay a record; returns the game, the final state and each step's events.

    A step that does not apply raises RecordError naming the step (1-based) and why. A record
    whose stored result disagrees with the replay is an error too.
    """
    check_record(record, where)
    try:
        game = load_game(record["game"], num_players=record["num_players"], **record["options"])
    except OptionError as exc:
        raise RecordError(f"{where}: {exc}") from None
    if str(record["version"]) != str(game.version):
        raise RecordError(
            f"{where}: recorded with {record['game']} rules version {record['version']}, "
            f"this robotable has version {game.version}"
        )
    state = game.new_initial_state(seed=record["seed"])
    log: list[list[dict]] = []
    for step, data in enumerate(record["actions"], start=1):
        try:
            action = game.action_from_json(data)
            log.append(state.apply_action(action))
        except IllegalAction as exc:
            raise RecordError(f"{where}: step {step} does not replay: {exc}", step) from None
    result = record["result"]
    if result is not None:
        if not state.is_terminal():
            raise RecordError(f"{where}: the record claims a result but the game is not over")
        if list(result.get("returns", [])) != state.returns():
            raise RecordError(
                f"{where}: recorded returns {result.get('returns')} but the replay gives "
                f"{state.returns()}"
            )
    return game, state, log
