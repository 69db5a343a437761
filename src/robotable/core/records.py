"""Game records: what was played, enough to reproduce it exactly.

`{"game", "version", "options", "num_players", "seed", "actions": [...], "result"}`; `result` is
`null` for an unfinished game, else `{"returns": [...]}`. A record may also carry `"reseeds"`:
`[{"after": k, "seat": s, "secret": x}]`, each meaning "after the first k actions, chance was
drawn afresh for seat s from secret x" (`reseed_chance`). The web table writes one at every undo,
so that taking a move back never shows the dice or cards that the move had revealed.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from .errors import IllegalAction, OptionError, RecordError
from .protocol import Action, Game, State
from .registry import load_recorded_game
from .rng import GameRng

RECORD_KEYS = ("game", "version", "options", "num_players", "seed", "actions", "result")


def make_record(
    game: Game,
    seed: int,
    actions: list[Action],
    state: State | None = None,
    reseeds: list[dict[str, int]] | None = None,
) -> dict:
    result = None
    if state is not None and state.is_terminal():
        result = {"returns": state.returns()}
    record = {
        "game": game.name,
        "version": game.version,
        "options": _jsonable(game.options),
        "num_players": game.num_players,
        "seed": seed,
        "actions": [a.to_json() for a in actions],
        "result": result,
    }
    if reseeds:
        record["reseeds"] = [dict(r) for r in reseeds]
    return record


def reseed_chance(state: State, seat: int, secret: int) -> State:
    """The state with chance drawn afresh for `seat`: everything that seat cannot see (hidden
    cards, the order of decks, future dice) is sampled again from `secret`, and everything it has
    seen stays as it was (`determinize` keeps `view(seat)`)."""
    return state.determinize(seat, GameRng(secret))


def reseeds_by_step(reseeds: list[dict[str, int]] | None) -> dict[int, tuple[int, int]]:
    """{after: (seat, secret)}; a later entry for the same point replaces an earlier one."""
    return {r["after"]: (r["seat"], r["secret"]) for r in reseeds or ()}


def _check_reseeds(record: dict, where: str) -> None:
    reseeds = record.get("reseeds", [])
    if not isinstance(reseeds, list):
        raise RecordError(f"{where}: field 'reseeds' must be a list")
    for number, entry in enumerate(reseeds, start=1):
        ok = (
            isinstance(entry, dict)
            and set(entry) == {"after", "seat", "secret"}
            and all(isinstance(v, int) and not isinstance(v, bool) for v in entry.values())
        )
        if not ok:
            raise RecordError(
                f"{where}: reseed {number} must be {{'after': int, 'seat': int, 'secret': int}}"
            )
        if not 0 <= entry["after"] <= len(record["actions"]):
            raise RecordError(f"{where}: reseed {number}: 'after' is outside the actions")
        if not 0 <= entry["seat"] < record["num_players"]:
            raise RecordError(f"{where}: reseed {number}: no seat {entry['seat'] + 1}")


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
    if not isinstance(record["num_players"], int):
        raise RecordError(f"{where}: field 'num_players' must be an integer")
    _check_reseeds(record, where)


def replay_record(record: dict, where: str = "record") -> tuple[Game, State, list[list[dict]]]:
    """Replay a record; returns the game, the final state and each step's events.

    A step that does not apply raises RecordError naming the step (1-based) and why. A record
    whose stored result disagrees with the replay is an error too.
    """
    check_record(record, where)
    try:
        game = load_recorded_game(
            record["game"], record["version"], record["num_players"], **record["options"]
        )
    except (OptionError, RecordError) as exc:
        raise RecordError(f"{where}: {exc}") from None
    state = game.new_initial_state(seed=record["seed"])
    reseeds = reseeds_by_step(record.get("reseeds"))
    log: list[list[dict]] = []
    for step, data in enumerate(record["actions"], start=1):
        if step - 1 in reseeds:
            state = reseed_chance(state, *reseeds[step - 1])
        try:
            action = game.action_from_json(data)
            log.append(state.apply_action(action))
        except IllegalAction as exc:
            raise RecordError(f"{where}: step {step} does not replay: {exc}", step) from None
    if len(record["actions"]) in reseeds:
        state = reseed_chance(state, *reseeds[len(record["actions"])])
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
