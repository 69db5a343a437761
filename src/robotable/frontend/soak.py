"""`robotable soak`: thousands of random games, every exception caught and kept as a record."""

from __future__ import annotations

import random
import traceback
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from ..core.records import make_record, save_record
from ..core.registry import load_game
from ..core.rng import derive_seed


def soak_one(job: tuple[str, int, dict[str, Any], int, int, str | None]) -> dict[str, Any]:
    """One random game; never raises: a failure comes back with its record saved."""
    name, players, options, seed, max_steps, out_dir = job
    game = load_game(name, num_players=players, **options)
    rng = random.Random(seed ^ 0x5EED)
    state = game.new_initial_state(seed=seed)
    actions = []
    try:
        for _ in range(max_steps):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            if not legal:
                raise AssertionError("no legal actions before the end")
            action = legal[rng.randrange(len(legal))]
            state.apply_action(action)
            actions.append(action)
        else:
            raise AssertionError(f"no end after {max_steps} actions")
        returns = state.returns()
        if len(returns) != players:
            raise AssertionError(f"returns() has {len(returns)} values")
        return {"seed": seed, "actions": len(actions), "error": None}
    except Exception as exc:  # noqa: BLE001 - a soak reports every failure, whatever it is
        path = None
        if out_dir:
            path = str(Path(out_dir) / f"{name}-{seed}.json")
            save_record(make_record(game, seed, actions), path)
        return {
            "seed": seed,
            "actions": len(actions),
            "error": f"{type(exc).__name__}: {exc}",
            "trace": traceback.format_exc(limit=4),
            "record": path,
        }


def soak(
    name: str,
    players: int,
    options: dict[str, Any],
    games: int,
    seed: int,
    workers: int,
    max_steps: int,
    out_dir: str | None,
    progress=None,
):
    jobs = [
        (name, players, options, derive_seed(seed, i), max_steps, out_dir) for i in range(games)
    ]
    results = []
    if workers <= 1:
        for job in jobs:
            results.append(soak_one(job))
            if progress:
                progress()
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for result in pool.map(soak_one, jobs, chunksize=max(1, games // (workers * 20))):
                results.append(result)
                if progress:
                    progress()
    return results
