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

from .errors import IllegalAction, RecordError, RobotableError
from .options import no_content_files
from .protocol import Action, Game, State
from .registry import load_recorded_game
from .rng import GameRng

RECORD_KEYS = ("game", "version", "options", "num_players", "seed", "actions", "result")
# A record file is read whole: a game of the lab's longest (50,000 actions) is a few megabytes.
MAX_RECORD_BYTES = 32 * 1024 * 1024


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
    """A record file, read and checked (`check_record`); anything wrong is one RecordError line
    naming the file and the field or step."""
    try:
        with Path(path).open("rb") as handle:
            raw = handle.read(MAX_RECORD_BYTES + 1)
    except OSError as exc:
        raise RecordError(f"record {path}: cannot read it ({exc.strerror})") from None
    if len(raw) > MAX_RECORD_BYTES:
        raise RecordError(f"record {path}: over {MAX_RECORD_BYTES // 2**20} MB, not a record")
    try:
        record = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise RecordError(f"record {path}: not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise RecordError(f"record {path}: not JSON (line {exc.lineno}: {exc.msg})") from None
    except ValueError:  # int()'s refusal of a number of thousands of digits
        raise RecordError(f"record {path}: not JSON (a number too long)") from None
    except RecursionError:
        raise RecordError(f"record {path}: not JSON (nested too deeply)") from None
    check_record(record, f"record {path}")
    return record


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def check_record(record: Any, where: str = "record") -> None:
    """Every field of a record has its type and a sane size, or one RecordError line says which
    (a record is untrusted input: a file anyone may have written)."""
    if not isinstance(record, dict):
        raise RecordError(f"{where}: a record must be a JSON object")
    missing = [k for k in RECORD_KEYS if k not in record]
    if missing:
        raise RecordError(f"{where}: missing field '{missing[0]}'")
    if not isinstance(record["game"], str) or not 0 < len(record["game"]) <= 40:
        raise RecordError(f"{where}: field 'game' must be a game's name")
    version = record["version"]
    if not (isinstance(version, str) and len(version) <= 40 or _is_int(version)):
        raise RecordError(f"{where}: field 'version' must be a rules version")
    if not isinstance(record["actions"], list):
        raise RecordError(f"{where}: field 'actions' must be a list")
    if not _is_int(record["seed"]):
        raise RecordError(f"{where}: field 'seed' must be an integer")
    if not isinstance(record["options"], dict):
        raise RecordError(f"{where}: field 'options' must be an object")
    if not _is_int(record["num_players"]) or not 1 <= record["num_players"] <= 64:
        raise RecordError(f"{where}: field 'num_players' must be a seat count")
    for step, action in enumerate(record["actions"], start=1):
        if not isinstance(action, dict):
            raise RecordError(f"{where}: step {step}: an action must be a JSON object")
    result = record["result"]
    if result is not None:
        returns = result.get("returns") if isinstance(result, dict) else None
        if (
            not isinstance(returns, list)
            or len(returns) != record["num_players"]
            or not all(_is_number(r) for r in returns)
        ):
            raise RecordError(
                f"{where}: field 'result' must be null or {{'returns': [a number per seat]}}"
            )
    for field in ("seats", "names"):
        listed = record.get(field)
        if listed is not None and (
            not isinstance(listed, list)
            or len(listed) > record["num_players"]
            or not all(isinstance(x, str) and len(x) <= 100 for x in listed)
        ):
            raise RecordError(f"{where}: field '{field}' must be a list of a text per seat")
    _check_reseeds(record, where)


def replay_record(record: dict, where: str = "record") -> tuple[Game, State, list[list[dict]]]:
    """Replay a record; returns the game, the final state and each step's events.

    A step that does not apply raises RecordError naming the step (1-based) and why. A record
    whose stored result disagrees with the replay is an error too.
    """
    check_record(record, where)
    try:
        # A record names no file: content it was played with is inline in its options, and a
        # path there is refused unread (whoever wrote the record chose it).
        with no_content_files():
            game = load_recorded_game(
                record["game"], record["version"], record["num_players"], **record["options"]
            )
    except RobotableError as exc:
        raise RecordError(f"{where}: {exc}") from None
    state = game.new_initial_state(seed=record["seed"])
    reseeds = reseeds_by_step(record.get("reseeds"))
    log: list[list[dict]] = []
    for step, data in enumerate(record["actions"], start=1):
        if step - 1 in reseeds:
            state = reseed_chance(state, *reseeds[step - 1])
        try:
            action = game.action_from_json(data)
        except IllegalAction as exc:
            raise RecordError(f"{where}: step {step}: {exc}") from None
        try:
            log.append(state.apply_action(action))
        except IllegalAction as exc:
            raise RecordError(f"{where}: step {step} does not replay: {exc}", step) from None
    if len(record["actions"]) in reseeds:
        state = reseed_chance(state, *reseeds[len(record["actions"])])
    result = record["result"]
    if result is not None:
        if not state.is_terminal():
            raise RecordError(f"{where}: the record claims a result but the game is not over")
        if list(result["returns"]) != state.returns():
            raise RecordError(
                f"{where}: recorded returns {result['returns']} but the replay gives "
                f"{state.returns()}"
            )
    return game, state, log
