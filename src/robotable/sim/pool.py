"""Pooling results files: several runs of one study, on different seeds, read as one run.

A hundred games measure a first mover's edge of ten points, but not a card's: its stratified
impact needs several hundred seat-games with and without it. Runs at a strong agent's budget
take hours, so they are made in pieces (`simulate --seed S --out-jsonl FILE`, one seed per
piece) and pooled here, without playing a game again. Files pool when they describe the same
study: the same game, seats, agents, options (as the game resolves them: an option given at its
default value is no option), rules (an option every game of a variant was given counts as given,
whatever its default was then) and run settings; their seeds must differ, since
two files on one seed hold the same games. Each file's games keep their own seeds and seatings;
their indices are shifted so that no two games share one (variant comparisons pair games by
index, and a shifted pair is still the same deal).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.errors import RobotableError
from ..core.registry import game_class
from .results_file import (
    CHECKED,
    ResultsFileError,
    read_header,
    read_results,
    resolved_options,
    rules_of,
    run_rules_difference,
    spec_from_header,
)
from .runner import GameResult, RunOutcome, RunSpec

# The run settings that make two files one study: a resumed run's, but the seed and the number of
# games may differ, and the agents' streams (one a seat, or one a decision: other games, the same
# agents).
SAME_STUDY = tuple(name for name in CHECKED if name not in ("games", "seed", "decision_streams"))


@dataclass(frozen=True, slots=True)
class PooledFile:
    path: str
    seed: int
    games: int  # finished games read from the file
    planned: int  # games its run planned (more when it was stopped early)


@dataclass(slots=True)
class Pool:
    outcome: RunOutcome
    files: list[PooledFile]
    notes: list[str]
    rules: dict[str, Any] | None  # what the files' games were played under (None: not recorded)

    def describe(self) -> list[dict[str, Any]]:
        return [dataclasses.asdict(f) for f in self.files]


def pool_results(paths: Sequence[str | Path]) -> Pool:
    """Read every file and return their games as one run. Raises ResultsFileError, naming the
    file and what differs, for a file that is not of the first file's study."""
    if not paths:
        raise ResultsFileError("give at least one results file (written by --out-jsonl)")
    first: RunSpec | None = None
    rules: dict[str, Any] | None = None
    rules_from, rules_spec = "", None
    first_rules: Any = None
    seeds: dict[int, str] = {}
    results: list[GameResult] = []
    files: list[PooledFile] = []
    notes: list[str] = []
    offset = 0
    for path in paths:
        where = str(path)
        header, _, _ = read_header(path, where)
        spec = spec_from_header(header, where)
        try:
            game_class(spec.game)
        except RobotableError as exc:
            raise ResultsFileError(f"{where}: {exc}") from None
        if first is None:
            first, first_rules = spec, header.get("rules")
        else:
            _check_same_study(first, spec, where, str(paths[0]), (first_rules, header.get("rules")))
        # Files that record their rules must agree; one that does not (written before robotable
        # recorded them) is taken as the others'.
        if "rules" in header:
            if rules_spec is None:
                rules, rules_from, rules_spec = header["rules"], where, spec
            elif changed := run_rules_difference(header["rules"], rules, spec, rules_spec):
                raise ResultsFileError(
                    f"{where}: its games were played under other rules than {rules_from}'s "
                    f"({changed}); only runs of one study pool"
                )
        if spec.seed in seeds:
            raise ResultsFileError(
                f"{where}: seed {spec.seed} again (also in {seeds[spec.seed]}): the same games "
                "would count twice; pool runs made with different --seed"
            )
        seeds[spec.seed] = where
        games, file_notes = read_results(path, spec, where=where, playing=False)
        notes.extend(file_notes)
        results.extend(dataclasses.replace(r, index=r.index + offset) for r in games)
        planned = spec.games * len(spec.variants)
        files.append(PooledFile(where, spec.seed, len(games), planned))
        if len(games) < planned:
            notes.append(f"{where}: {len(games)} of {planned} planned games (a stopped run)")
        offset += spec.games
    assert first is not None
    if rules_spec is not None and (
        changed := run_rules_difference(
            rules, rules_of(first.game, first.num_players), rules_spec, rules_spec
        )
    ):
        notes.append(
            f"the files' games were played under other rules than this robotable's ({changed}); "
            "the summary is of their games, nothing was played"
        )
    pooled = dataclasses.replace(first, games=offset)
    outcome = RunOutcome(
        spec=pooled,
        results=sorted(results, key=lambda r: (r.variant, r.index)),
        seconds=sum(r.seconds for r in results),
        backend="pooled",
        workers=0,
        loaded=len(results),
    )
    return Pool(outcome, files, notes, rules)


def _check_same_study(
    first: RunSpec, spec: RunSpec, where: str, first_path: str, rules: tuple[Any, Any]
) -> None:
    """`rules`: the first file's record of its rules and this one's (None where not recorded)."""
    for name in SAME_STUDY:
        mine, theirs = getattr(spec, name), getattr(first, name)
        if mine == theirs:
            continue
        if name == "variants" and _same_games(first, spec, rules):
            continue
        raise ResultsFileError(
            f"{where}: {name} is {_shown(mine)} there but {_shown(theirs)} in {first_path}; "
            "only runs of one study pool"
        )


def _same_games(first: RunSpec, spec: RunSpec, rules: tuple[Any, Any]) -> bool:
    """Whether two runs' variants, written differently, play the same games. An option given at
    its default value is the same game as no option: at the default of the day each file was
    written, where both record their rules (a candidate's `-o OPTION=VALUE` and a later run
    without it, once VALUE is the default), else at this robotable's."""
    if len(first.variants) != len(spec.variants):
        return False
    first_rules, spec_rules = rules
    recorded = isinstance(first_rules, dict) and isinstance(spec_rules, dict)
    if recorded and not run_rules_difference(spec_rules, first_rules, spec, first):
        return True
    return _resolved(spec) == _resolved(first)


def _resolved(spec: RunSpec) -> list[dict[str, Any]] | None:
    """Each variant's options as the game resolves them, or None when a variant no longer
    loads: then only the headers' words compare."""
    resolved = [resolved_options(spec, v) for v in spec.variants]
    return [r for r in resolved if r is not None] if None not in resolved else None


def _shown(value: Any) -> str:
    if isinstance(value, tuple) and value and hasattr(value[0], "options"):
        return "; ".join(f"{v.label} {dict(v.options)}" for v in value)
    if isinstance(value, tuple):
        return ",".join(str(v) for v in value)
    return repr(value)
