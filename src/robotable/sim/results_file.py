"""Results files: one JSON line per finished game, so a long run survives being stopped.

`simulate --out-jsonl FILE` writes a header line describing the run, then one line per game as
its result reaches the parent process, flushed at once. `simulate --resume FILE` reads the file
back, checks that it was written by the same run (same game, seats, agents, seed, variants,
games, quality settings) under the same rules (the game's rules version and its options'
defaults at that seat count: a card set or a default changed since would mix two games in one
summary; an option that every game of a variant was given is compared as given, not by its
default), plays only the games that are missing, appends them to the file, and summarises
everything. A game is identified by its variant and index; its seed and seat
arrangement come from the plan, so a resumed run gives exactly the summary of an uninterrupted
one (apart from timing).

File format (format 1):
    {"kind": "run", "format": 1, "game": ..., "num_players": ..., "agents": [...], ...}
    {"kind": "game", "variant": 0, "index": 0, "seed": ..., "returns": [...], ...}
    ...
A last line cut short (the process was killed while writing it) is ignored and overwritten.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from ..core.errors import OptionError, RobotableError
from ..core.registry import load_game, recorded_absent_options
from .options import MAX_GAMES, MAX_VARIANTS
from .runner import GameResult, RunSpec, Variant, plan_jobs

FORMAT = 1
# The header fields that must match for a file to be resumed by a run.
CHECKED = (
    "game",
    "num_players",
    "agents",
    "games",
    "seed",
    "variants",
    "fixed_seats",
    "max_actions",
    "track_cards",
    "quality",
    "quality_every",
    "standing",
    "paired",
    "watch",
    "decision_streams",
)


class ResultsFileError(ValueError):
    """A results file that cannot be resumed by this run (said in one line)."""


def _plain(value: Any) -> Any:
    """What a value becomes after a JSON round trip (tuples become lists)."""
    return json.loads(json.dumps(value, default=str))


def rules_of(game: str, num_players: int) -> dict[str, Any]:
    """What a game is at a seat count before any option is given: its rules version (which names
    its bundled content) and every option's default there. Two runs whose rules differ play two
    different games, whatever their commands say."""
    loaded = load_game(game, num_players=num_players)
    return _plain({"version": str(loaded.version), "defaults": loaded.options})


def describe_rules(rules: Any, game: str) -> str:
    if not isinstance(rules, dict):
        return "rules not recorded"
    return f"{game} rules version {rules.get('version')}"


def rules_difference(there: Any, here: Any, game: str) -> str:
    """What differs between two runs' rules (a file's, another file's or this robotable's), in
    words ('' when nothing does)."""
    if there == here:
        return ""
    if not isinstance(there, dict) or not isinstance(here, dict):
        return "a malformed record of the rules"
    if there.get("version") != here.get("version"):
        return f"{describe_rules(there, game)} there, version {here.get('version')} here"
    theirs, ours = there.get("defaults"), here.get("defaults")
    if isinstance(theirs, dict) and isinstance(ours, dict):
        absent = _recorded_absent(game)
        for name in sorted(set(theirs) | set(ours)):
            their, our = theirs.get(name, absent.get(name)), ours.get(name, absent.get(name))
            if their != our:
                return f"option {name}'s default is {_words(their)} there, {_words(our)} here"
        rest = [{k: v for k, v in rules.items() if k != "defaults"} for rules in (there, here)]
        if rest[0] == rest[1]:
            return ""  # the same game: one side was written before an option existed
    return "a malformed record of the rules"


def variant_rules(rules: Any, spec: RunSpec, variant: Variant) -> Any:
    """The rules a variant's games were played under: `rules` (a run's record of its rules
    version and option defaults) with each option the variant sets in place of its default,
    which none of those games used. A candidate run with `-o OPTION=VALUE` is thus the same game
    as a run without it after VALUE becomes the default."""
    defaults = rules.get("defaults") if isinstance(rules, dict) else None
    if not variant.options or not isinstance(defaults, dict):
        return rules
    given = variant.options_dict()
    resolved = resolved_options(spec, variant)
    if resolved is not None:  # else a variant that no longer loads: its options as written
        given = {name: resolved[name] for name in given}
    return {**rules, "defaults": {**defaults, **_plain(given)}}


def resolved_options(spec: RunSpec, variant: Variant) -> dict[str, Any] | None:
    """A variant's options as the game resolves them today (defaults filled in), or None when
    it no longer loads (a card file moved away)."""
    try:
        return load_game(spec.game, num_players=spec.num_players, **variant.options_dict()).options
    except (RobotableError, OSError):
        return None


def run_rules_difference(there: Any, here: Any, spec_there: RunSpec, spec_here: RunSpec) -> str:
    """What differs between the rules two runs of one study played their games under, variant
    by variant (their variants pair by index), in words ('' when nothing does)."""
    for theirs, ours in zip(spec_there.variants, spec_here.variants, strict=True):
        played = variant_rules(there, spec_there, theirs), variant_rules(here, spec_here, ours)
        if changed := rules_difference(*played, spec_there.game):
            return changed
    return ""


def _recorded_absent(game: str) -> dict[str, Any]:
    """What a record of the rules means by an option it does not name, where the option says:
    the run was made before the option existed, and its games played as with that value (the
    option's `recorded_absent`, as a record's replay reads it)."""
    try:
        absent = recorded_absent_options(game)
    except OptionError:  # an unknown game: nothing to read its options by
        return {}
    return {name: _plain(value) for name, value in absent.items()}


def _words(value: Any) -> str:
    if value is None:
        return "absent"
    if isinstance(value, list):
        return ",".join(str(v) for v in value) or "empty"
    return repr(value)


def run_header(spec: RunSpec) -> dict[str, Any]:
    """The file's first line: the run, and the rules this robotable plays it under."""
    return {**_run_fields(spec), "rules": rules_of(spec.game, spec.num_players)}


def _run_fields(spec: RunSpec) -> dict[str, Any]:
    return _plain(
        {
            "kind": "run",
            "format": FORMAT,
            "game": spec.game,
            "num_players": spec.num_players,
            "agents": list(spec.agents),
            "games": spec.games,
            "seed": spec.seed,
            "variants": [
                {"index": v.index, "label": v.label, "options": [list(o) for o in v.options]}
                for v in spec.variants
            ],
            "fixed_seats": spec.fixed_seats,
            "max_actions": spec.max_actions,
            "track_cards": spec.track_cards,
            "quality": spec.quality,
            "quality_every": spec.quality_every if spec.quality else None,
            # Only when set, so that files written before these existed still resume.
            **({"standing": True} if spec.standing else {}),
            **({"paired": True} if spec.paired else {}),
            **({"watch": [[list(c), list(k)] for c, k in spec.watch]} if spec.watch else {}),
            **({"keep_moves": True} if spec.keep_moves else {}),
            **({"decision_streams": True} if spec.decision_streams else {}),
        }
    )


# Run settings a header holds only when they are on (so that older files still resume): absent,
# they are off, and an error says so rather than "None".
_ONLY_WHEN_ON = ("standing", "paired", "keep_moves", "decision_streams")


def _setting(header: dict[str, Any], key: str) -> Any:
    return header.get(key, False if key in _ONLY_WHEN_ON else None)


def _line(data: dict[str, Any]) -> str:
    return json.dumps(data, default=str, separators=(",", ":")) + "\n"


class ResultsWriter:
    """Appends one flushed line per finished game."""

    def __init__(self, path: str | Path, spec: RunSpec, resume: bool = False) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if resume and self.path.exists():
            _cut_partial_last_line(self.path)
            self._file: IO[str] = self.path.open("a", encoding="utf-8")
        else:
            self._file = self.path.open("w", encoding="utf-8")
            self._file.write(_line(run_header(spec)))
            self._file.flush()

    def write(self, result: GameResult) -> None:
        self._file.write(_line({"kind": "game", **result.to_json()}))
        self._file.flush()

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> ResultsWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _cut_partial_last_line(path: Path) -> None:
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        with path.open("r+b") as fh:
            fh.truncate(data.rfind(b"\n") + 1)


def write_results(path: str | Path, spec: RunSpec, results: Sequence[GameResult]) -> Path:
    """A whole results file at once (used to save the games of an interrupted run)."""
    with ResultsWriter(path, spec) as writer:
        for result in results:
            writer.write(result)
    return Path(path)


def read_header(path: str | Path, where: str) -> tuple[dict[str, Any], list[str], list[str]]:
    """The run header of a results file, its complete game lines and notes (a cut-short last
    line); `where` starts every message. Raises ResultsFileError for a file that is not one."""
    path = Path(path)
    if path.is_dir():
        raise ResultsFileError(f"{where}: a folder, not a results file (name the files in it)")
    if not path.is_file():
        raise ResultsFileError(f"{where}: no such file (write one with --out-jsonl)")
    try:
        lines = path.read_text(encoding="utf-8").split("\n")
    except UnicodeDecodeError:
        raise ResultsFileError(f"{where}: not a results file (not UTF-8 text)") from None
    complete, last = lines[:-1], lines[-1]
    notes: list[str] = []
    if last.strip():
        notes.append(f"{where}: the last line was cut short and is ignored")
    if not complete:
        if last.strip():  # a run stopped while its header was being written, or a copy cut short
            raise ResultsFileError(f"{where}: the run header was cut short (no complete line)")
        raise ResultsFileError(f"{where}: the file is empty (no run header)")
    try:
        header = json.loads(complete[0])
    except json.JSONDecodeError:
        raise ResultsFileError(f"{where}: the first line is not a run header") from None
    if not isinstance(header, dict) or header.get("kind") != "run":
        raise ResultsFileError(f"{where}: the first line is not a run header")
    if header.get("format") != FORMAT:
        raise ResultsFileError(f"{where}: unknown format {header.get('format')!r}")
    rules = header.get("rules", {"version": "", "defaults": {}})  # absent: an older file
    if not (
        isinstance(rules, dict)
        and isinstance(rules.get("version"), str)
        and isinstance(rules.get("defaults"), dict)
    ):
        raise ResultsFileError(f"{where}: a malformed run header (its rules)")
    return header, complete[1:], notes


def _options(pairs: Any) -> tuple[tuple[str, Any], ...]:
    """A header's option pairs as a variant holds them (lists, from JSON, back to tuples)."""

    def frozen(value: Any) -> Any:
        return tuple(frozen(v) for v in value) if isinstance(value, list) else value

    return tuple((str(name), frozen(value)) for name, value in pairs)


def spec_from_header(header: dict[str, Any], where: str) -> RunSpec:
    """The run a header describes (what `run_header` wrote), to check its games against."""
    try:
        spec = RunSpec(
            game=str(header["game"]),
            num_players=int(header["num_players"]),
            agents=tuple(str(a) for a in header["agents"]),
            games=int(header["games"]),
            seed=int(header["seed"]),
            variants=tuple(
                Variant(int(v["index"]), str(v["label"]), _options(v["options"]))
                for v in header["variants"]
            ),
            fixed_seats=bool(header["fixed_seats"]),
            max_actions=int(header["max_actions"]),
            track_cards=bool(header["track_cards"]),
            quality=bool(header["quality"]),
            quality_every=int(header["quality_every"] or 1),
            standing=bool(header.get("standing", False)),
            paired=bool(header.get("paired", False)),
            watch=tuple(
                (tuple(str(c) for c in cards), tuple(str(k) for k in kinds))
                for cards, kinds in header.get("watch") or ()
            ),
            keep_moves=bool(header.get("keep_moves", False)),
            decision_streams=bool(header.get("decision_streams", False)),
        )
    except KeyError as exc:
        raise ResultsFileError(f"{where}: the run header has no {exc}") from None
    except (TypeError, ValueError, AttributeError) as exc:
        raise ResultsFileError(f"{where}: a malformed run header ({exc})") from None
    # Sizes before anything is planned from them: a header may say any number of games.
    planned = spec.games * len(spec.variants)
    if not (
        1 <= spec.games <= MAX_GAMES
        and 1 <= len(spec.variants) <= MAX_VARIANTS
        and planned <= MAX_GAMES
        and 1 <= spec.num_players <= 64
    ):
        raise ResultsFileError(
            f"{where}: the run header's games, variants or seats are out of range "
            f"(at most {MAX_GAMES:,} games in a run)"
        )
    described = _run_fields(spec)  # the rules are the file's own, checked by read_results
    if described != {k: v for k, v in header.items() if k in described}:
        raise ResultsFileError(f"{where}: the run header does not describe a run")
    return spec


def read_results(
    path: str | Path, spec: RunSpec, where: str | None = None, *, playing: bool = True
) -> tuple[list[GameResult], list[str]]:
    """The finished games in `path`, checked against `spec`; and notes worth telling the user
    (a cut-short last line, repeated games). Raises ResultsFileError for another run's file.
    `playing`: more games will join these (a resumed run), so the file's rules must be this
    robotable's; reading alone (pooling) takes a file of any rules."""
    where = where or f"--resume {path}"
    header, lines, notes = read_header(path, where)
    expected = run_header(spec)
    differ = [k for k in CHECKED if header.get(k) != expected.get(k)]
    if differ:
        shown = "; ".join(
            f"{k}: {_setting(header, k)!r} there, {_setting(expected, k)!r} here" for k in differ
        )
        raise ResultsFileError(
            f"{where}: the file was written by a different run ({shown}); repeat the "
            "original command with --resume"
        )
    if playing and "rules" not in header:
        notes.append(
            f"{where}: the file does not record the rules its games were played under (written "
            "before robotable recorded them); they are counted as games of "
            f"{describe_rules(expected['rules'], spec.game)}"
        )
    elif playing and (
        changed := run_rules_difference(header["rules"], expected["rules"], spec, spec)
    ):
        raise ResultsFileError(
            f"{where}: the file's games were played under other rules ({changed}); its games "
            "and new ones would be two games in one summary: start a new file with --out-jsonl"
        )
    plan = {(j.variant, j.index): j for j in plan_jobs(spec)}
    results: dict[tuple[int, int], GameResult] = {}
    repeated = 0
    for number, text in enumerate(lines, start=2):
        if not text.strip():
            continue
        try:
            data = json.loads(text)
            result = GameResult.from_json(data)
        except (json.JSONDecodeError, KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ResultsFileError(f"{where}, line {number}: not a game result ({exc})") from None
        key = (result.variant, result.index)
        job = plan.get(key)
        if job is None or job.seed != result.seed or job.arrangement != result.arrangement:
            raise ResultsFileError(
                f"{where}, line {number}: game {result.index} of variant {result.variant} is "
                "not a game of this run"
            )
        if key in results:
            repeated += 1
            continue
        results[key] = result
    if repeated:
        notes.append(f"{where}: {repeated} games appear twice; the first copy of each is used")
    return sorted(results.values(), key=lambda r: (r.variant, r.index)), notes
