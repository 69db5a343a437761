"""Simulated games as training data: the decisions of `simulate --keep-moves` runs, as arrays.

A results file written with `--keep-moves` holds every game its agents played, move by move.
Replayed from their seeds, those games become one row per decision, in the encoding every
adapter uses (`Encoding`): the deciding seat's observation, its legal mask, the index of the
action the agent chose, and what the game gave that seat in the end. A few thousand games of
`hard` against itself make a data set for imitation (a policy that predicts `actions` from
`observations` under `masks`) and for value targets (`returns`), the usual first step before
self-play from scratch.

In a barred run (`simulate --restrict`) each deal's unbarred game is used: every seat then
played the run's base agent. Files of one game and seat count go together (one observation
size); each file's rules are checked, and a game that does not replay as its file says is an
error, not a silent row.

    python -m robotable.envs.dataset run-seed0.jsonl run-seed1.jsonl --out hard.npz
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..core.errors import RecordError
from ..core.registry import load_game
from ..sim.results_file import ResultsFileError, read_header, read_results, spec_from_header
from ..sim.runner import MovesDoNotReplay, ends_as, walk_moves
from .encoding import Encoding


@dataclass(slots=True)
class Positions:
    """One row per decision; `games` numbers the games in the order they were read."""

    observations: np.ndarray  # float32 [rows, observation size]
    masks: np.ndarray  # int8 [rows, actions]: the legal actions
    actions: np.ndarray  # int64 [rows]: the index of the action chosen
    seats: np.ndarray  # int16 [rows]: the seat deciding (from 0)
    returns: np.ndarray  # float32 [rows]: that seat's return when the game ended
    games: np.ndarray  # int32 [rows]

    def save(self, path: str | Path) -> None:
        np.savez_compressed(
            path,
            observations=self.observations,
            masks=self.masks,
            actions=self.actions,
            seats=self.seats,
            returns=self.returns,
            games=self.games,
        )


def positions(paths: Sequence[str | Path]) -> Positions:
    """Every decision of every game kept in the results files `paths`. Raises RecordError (one
    line, naming the file) for a file that is not a results file, kept no moves, mixes games
    or seat counts with the others, or holds a game that does not replay."""
    rows: dict[str, list] = {k: [] for k in ("obs", "mask", "action", "seat", "return", "game")}
    shape: tuple[str, int] | None = None
    number = 0
    configured: dict[tuple, tuple] = {}  # content files are parsed once per variant
    for path in paths:
        where = str(path)
        try:
            spec = spec_from_header(read_header(path, where)[0], where)
            results = read_results(path, spec, where, playing=False)[0]
        except ResultsFileError as exc:
            raise RecordError(str(exc)) from None
        if shape is not None and (spec.game, spec.num_players) != shape:
            raise RecordError(
                f"{where}: {spec.game} with {spec.num_players} seats, where the files before it "
                f"hold {shape[0]} with {shape[1]}: one game and seat count per data set"
            )
        shape = (spec.game, spec.num_players)
        kept = 0
        for result in results:
            moves, returns = result.unbarred_game()
            if not moves or returns is None:
                continue
            options = next(v.options for v in spec.variants if v.index == result.variant)
            key = (spec.game, spec.num_players, options)
            if key not in configured:
                game = load_game(spec.game, num_players=spec.num_players, **dict(options))
                configured[key] = (game, Encoding(game))
            game_number = f"{where}, game {result.index}"
            _decisions(*configured[key], result.seed, moves, returns, number, rows, game_number)
            number += 1
            kept += 1
        if not kept:
            raise RecordError(f"{where}: no game with its moves kept (simulate --keep-moves)")
    if shape is None:
        raise RecordError("give at least one results file written with simulate --keep-moves")
    return Positions(
        observations=np.stack(rows["obs"]),
        masks=np.stack(rows["mask"]),
        actions=np.asarray(rows["action"], dtype=np.int64),
        seats=np.asarray(rows["seat"], dtype=np.int16),
        returns=np.asarray(rows["return"], dtype=np.float32),
        games=np.asarray(rows["game"], dtype=np.int32),
    )


def _decisions(
    game, encoding: Encoding, seed: int, moves, returns, number: int, rows: dict, where: str
) -> None:
    """Append one game's decisions to `rows`, checking that the moves replay to `returns`."""
    state = game.new_initial_state(seed=seed).silence()
    try:
        for _, _, chosen in walk_moves(state, moves):
            seat = state.current_player()
            by_index = encoding.legal_by_index(state)
            rows["obs"].append(encoding.observe_state(state, seat))
            rows["mask"].append(encoding.mask(by_index))
            rows["action"].append(next(k for k, a in by_index.items() if a == chosen))
            rows["seat"].append(seat)
            rows["return"].append(returns[seat])
            rows["game"].append(number)
    except MovesDoNotReplay as exc:
        raise RecordError(
            f"{where}: move {exc.step} does not replay under this robotable's rules"
        ) from None
    if not ends_as(state, returns):
        raise RecordError(f"{where}: the replay does not end as the file says")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path, help="results files (--keep-moves)")
    parser.add_argument("--out", type=Path, required=True, help="the .npz file to write")
    args = parser.parse_args(argv)
    try:
        data = positions(args.files)
    except RecordError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        data.save(args.out)
    except OSError as exc:
        print(f"error: --out {args.out}: cannot write it ({exc.strerror})", file=sys.stderr)
        return 2
    print(
        f"{len(data.actions)} decisions of {int(data.games.max()) + 1} games, observations of "
        f"{data.observations.shape[1]} numbers, {data.masks.shape[1]} actions: {args.out}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
