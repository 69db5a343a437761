"""AI seats think off the event loop: in worker processes (`robotable serve`) or a thread (tests).

A worker gets the game's configuration and the state as JSON, rebuilds them, asks the agent and
returns the action as JSON, so nothing but plain data crosses the process boundary. The games
are cached per worker so content files are parsed once per process.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
from functools import cache
from typing import Any

from ..core.protocol import Action, Game, State
from ..core.registry import load_game

_MASK = (1 << 63) - 1


def agent_seed(table_seed: int, seat: int, step: int) -> int:
    """A per-move agent seed: the same table replays the same AI choices (given equal thinking)."""
    return (table_seed * 1_000_003 + seat * 10_007 + step * 7_919) & _MASK


def check_agent_spec(spec: str) -> None:
    """Raise OptionError naming what is wrong with an AI strength such as 'mcts:200'."""
    from ..agents import make_agent

    make_agent(spec, seed=0)


@cache
def _game(name: str, num_players: int, options_items: tuple) -> Game:
    return load_game(name, num_players=num_players, **dict(options_items))


def _options_key(options: dict[str, Any]) -> tuple:
    return tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in options.items()))


def think_from_json(
    name: str, num_players: int, options_items: tuple, state_json: dict, spec: str, seed: int
) -> dict[str, Any]:
    """Runs in a worker process: the action the agent chooses, as JSON."""
    from ..agents import make_agent

    game = _game(name, num_players, options_items)
    state = game.state_from_json(state_json)
    return make_agent(spec, seed=seed).act(state).to_json()


def _think_here(state: State, spec: str, seed: int) -> Action:
    from ..agents import make_agent

    return make_agent(spec, seed=seed).act(state)


def _warm_up() -> int:
    import robotable.agents  # noqa: F401  (import once so the first move is not slow)

    return 0


class AiRunner:
    """Chooses AI moves without blocking the event loop.

    workers == 0: one thread in this process (cheap to start: tests, small hosts).
    workers > 0: that many worker processes (spawned, not forked: the server has threads).
    """

    def __init__(self, workers: int = 0) -> None:
        self.workers = workers
        self._pool: concurrent.futures.Executor
        if workers > 0:
            ctx = multiprocessing.get_context("spawn")
            self._pool = concurrent.futures.ProcessPoolExecutor(workers, mp_context=ctx)
            for _ in range(workers):
                self._pool.submit(_warm_up)
        else:
            self._pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="robotable-ai")

    async def choose(self, game: Game, state: State, spec: str, seed: int) -> Action:
        """The agent's action for `state` (a private copy the caller will not touch)."""
        loop = asyncio.get_running_loop()
        if self.workers == 0:
            return await loop.run_in_executor(self._pool, _think_here, state, spec, seed)
        data = await loop.run_in_executor(
            self._pool,
            think_from_json,
            game.name,
            game.num_players,
            _options_key(game.options),
            state.to_json(),
            spec,
            seed,
        )
        return game.action_from_json(data)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
