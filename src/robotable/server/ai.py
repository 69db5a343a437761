"""AI seats think off the event loop, within limits the host sets, fairly across tables.

`robotable serve` runs AI moves in worker processes (`ai_worker.py`: plain subprocesses speaking
JSON lines, which exit with the server however it ends); tests use one thread in-process.

Limits: every AI spec a table is created with is checked against `AiLimits` (seconds, MCTS
iterations, trees and rollout moves per move; the spec parser bounds every parameter already)
and refused above them; every move is then run with the caps applied to its spec, so even an
allowed spec cannot overrun in a slow game, and a worker that still has not answered well after
the cap is killed and replaced.

Fairness: requests wait in one first-in-first-out queue and each table has at most one request
in it (a table asks for its next AI move only when the last one is applied), so while any table
waits, every other table gets at most one move ahead of it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import logging
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.protocol import Action, Game, State
from .errors import Refused

log = logging.getLogger("robotable.server")

_MASK = (1 << 63) - 1


@dataclass(frozen=True, slots=True)
class AiLimits:
    """What one AI move may cost on this server."""

    max_seconds: float = 3.0
    max_iterations: int = 20_000
    # Each tree runs at least one iteration whatever the clock says, and each iteration plays
    # `rollout` moves before it looks at the clock again: both bounded on a shared server (the
    # named strengths use at most 5 trees and 4 rollout moves).
    max_trees: int = 8
    max_rollout: int = 50
    grace: float = 5.0  # seconds past twice the cap before a silent worker is killed
    # The folder whose trained policies a table may seat as `policy:NAME` (`serve --policies`);
    # None: no policy plays here. A client names a policy in it, never a path (issue 82).
    policies: str | None = None

    @property
    def deadline(self) -> float:
        """Seconds after which a worker that has not answered is killed (the time cap plus a
        margin for loading the game and the last MCTS batch)."""
        return 2 * self.max_seconds + self.grace


def agent_seed(table_seed: int, seat: int, step: int) -> int:
    """A per-move agent seed: the same table replays the same AI choices (given equal thinking)."""
    return (table_seed * 1_000_003 + seat * 10_007 + step * 7_919) & _MASK


def check_agent_spec(spec: str, game: str, limits: AiLimits, seat: int = 0) -> None:
    """Refuse (OptionError or Refused, one line) a spec that is malformed or over the limits."""
    from ..agents import check_for_game, parse_agent_spec

    kind, params = parse_agent_spec(spec)
    if kind == "policy":
        policy_path(params["path"], game, limits, f"AI seat {seat + 1} ('{spec}')")
        return
    kind, params = check_for_game(spec, game)  # parses the concrete spec once
    if kind != "mcts":
        return
    seconds, iterations = params.get("time"), params.get("iterations")
    who = f"AI seat {seat + 1} ('{spec}')"
    if seconds is not None and seconds > limits.max_seconds:
        raise Refused(
            f"{who}: {seconds:g} s a move is over this server's limit of {limits.max_seconds:g} s"
        )
    if iterations is not None and iterations > limits.max_iterations:
        raise Refused(
            f"{who}: {iterations} iterations a move is over this server's limit of "
            f"{limits.max_iterations}"
        )
    for key, cap in _caps(limits).items():
        if params.get(key, 0) > cap:
            raise Refused(f"{who}: {key}={params[key]} is over this server's limit of {cap}")


def _caps(limits: AiLimits) -> dict[str, int]:
    """The search parameters this server caps besides time and iterations."""
    return {"trees": limits.max_trees, "rollout": limits.max_rollout}


def policy_path(name: str, game: str, limits: AiLimits, who: str) -> str:
    """The trained policy `name` in this server's policies folder, checked to be one for `game`;
    Refused when the server has no such folder, or `name` is a path rather than a plain name,
    or no policy of that name and game is there."""
    from ..agents.policy import read_meta
    from ..core.errors import OptionError

    if limits.policies is None:
        raise Refused(f"{who}: this server plays no trained policies")
    if not name.replace("-", "").replace("_", "").replace(".", "").isalnum() or name[0] == ".":
        raise Refused(f"{who}: a policy is named by its folder's plain name, not a path")
    path = os.path.join(limits.policies, name)
    try:
        trained = read_meta(path)["game"]
    except OptionError:
        raise Refused(f"{who}: this server has no trained policy named '{name}'") from None
    if trained != game:
        raise Refused(f"{who}: the policy '{name}' plays {trained}, not {game}")
    return path


def capped_spec(spec: str, game: str, limits: AiLimits) -> str:
    """The concrete spec with this server's time cap added (searches stop at whichever of their
    iteration count and the cap comes first)."""
    from ..agents import concrete_spec, parse_agent_spec

    concrete = concrete_spec(spec, game)
    kind, params = parse_agent_spec(concrete)
    if kind == "policy":  # the name a table holds, resolved in this server's policies folder
        return "policy:" + policy_path(params["path"], game, limits, f"AI '{spec}'")
    if kind != "mcts":
        return concrete
    iterations = params.pop("iterations", None)
    seconds = params.pop("time", None)
    capped = {
        # A time-only spec searches until its time is up: the iteration cap bounds it too.
        "iterations": limits.max_iterations
        if iterations is None
        else min(iterations, limits.max_iterations),
        "time": limits.max_seconds if seconds is None else min(seconds, limits.max_seconds),
        **params,
    }
    # A table stored before these caps keeps playing, within them.
    for key, cap in _caps(limits).items():
        if key in capped:
            capped[key] = min(capped[key], cap)
    return "mcts:" + ",".join(f"{k}={v}" for k, v in capped.items())


class AiFailed(RuntimeError):
    """The AI could not choose a move (the worker overran, died, or the agent raised)."""


def _think_here(state: State, spec: str, seed: int) -> Action:
    from ..agents import make_agent

    return make_agent(spec, seed=seed).act(state)


def _hint_here(state: State, spec: str, seed: int, names: list[str]) -> list[dict[str, Any]]:
    from ..agents.hints import hint

    return [option.to_json() for option in hint(state, spec, seed, names=names)]


@dataclass(slots=True)
class _Job:
    line: bytes
    future: asyncio.Future = field(repr=False)


class AiRunner:
    """Chooses AI moves without blocking the event loop.

    workers == 0: one thread in this process (cheap to start: tests, small hosts).
    workers > 0: that many worker processes.
    """

    def __init__(self, workers: int = 0, limits: AiLimits | None = None) -> None:
        self.workers = workers
        self.limits = limits or AiLimits()
        self._thread: concurrent.futures.ThreadPoolExecutor | None = None
        self._queue: asyncio.Queue[_Job] | None = None
        self._tasks: list[asyncio.Task] = []
        self._procs: set[asyncio.subprocess.Process] = set()
        if workers == 0:
            self._thread = concurrent.futures.ThreadPoolExecutor(
                1, thread_name_prefix="robotable-ai"
            )

    # -- life ---------------------------------------------------------------------------------
    async def start(self) -> None:
        if self.workers > 0:
            self._queue = asyncio.Queue()
            self._tasks = [asyncio.ensure_future(self._serve(slot)) for slot in range(self.workers)]

    async def aclose(self) -> None:
        """Stop every worker and reap it: nothing thinks on after the server."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        self._tasks = []
        await asyncio.gather(*(self._stop(proc) for proc in list(self._procs)))
        if self._thread is not None:
            self._thread.shutdown(wait=False, cancel_futures=True)

    # -- thinking -----------------------------------------------------------------------------
    async def choose(self, game: Game, state: State, spec: str, seed: int) -> Action:
        """The agent's action for `state` (a private copy the caller will not touch), with this
        server's time cap applied to `spec`."""
        capped = capped_spec(spec, game.name, self.limits)
        if self._queue is None:
            assert self._thread is not None
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._thread, _think_here, state, capped, seed)
        answer = await self._submit({"spec": capped, "seed": seed}, game, state)
        return game.action_from_json(answer["action"])

    async def hint(
        self, game: Game, state: State, spec: str, seed: int, names: list[str]
    ) -> list[dict[str, Any]]:
        """The hint for the deciding seat of `state` (agents/hints.py), under the same caps."""
        capped = capped_spec(spec, game.name, self.limits)
        if self._queue is None:
            assert self._thread is not None
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._thread, _hint_here, state, capped, seed, names)
        request = {"kind": "hint", "spec": capped, "seed": seed, "names": names}
        answer = await self._submit(request, game, state)
        return answer["hint"]

    async def _submit(self, request: dict[str, Any], game: Game, state: State) -> dict[str, Any]:
        request = {
            **request,
            "game": game.name,
            "num_players": game.num_players,
            "options": json.dumps(_jsonable(game.options), sort_keys=True),
            "state": state.to_json(),
        }
        assert self._queue is not None
        job = _Job(
            (json.dumps(request, separators=(",", ":")) + "\n").encode(),
            asyncio.get_running_loop().create_future(),
        )
        self._queue.put_nowait(job)
        return await job.future

    async def _serve(self, slot: int) -> None:
        """One worker process's loop: take the oldest request, answer it, replace the process
        if it overruns the deadline or dies."""
        assert self._queue is not None
        proc: asyncio.subprocess.Process | None = None
        try:
            while True:
                job = await self._queue.get()
                if job.future.done():  # its table was undone or closed meanwhile
                    continue
                if proc is None or proc.returncode is not None:
                    proc = await self._spawn()
                try:
                    answer = await self._ask(proc, job.line)
                except AiFailed as exc:
                    await self._stop(proc)
                    proc = None
                    if not job.future.done():
                        job.future.set_exception(exc)
                    continue
                if job.future.done():
                    continue
                if "error" in answer:
                    job.future.set_exception(AiFailed(answer["error"]))
                else:
                    job.future.set_result(answer)
        finally:
            if proc is not None:
                await self._stop(proc)

    async def _ask(self, proc: asyncio.subprocess.Process, line: bytes) -> dict[str, Any]:
        assert proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.write(line)
            await proc.stdin.drain()
            # asyncio.timeout, not wait_for: on Python 3.11 wait_for hands back a reply that
            # arrives in the same turn as a cancel and drops the cancel, and aclose, awaiting
            # this loop, then waited for ever (a server that never exited on SIGTERM).
            async with asyncio.timeout(self.limits.deadline):
                reply = await proc.stdout.readline()
        except TimeoutError:
            log.error("an AI worker overran %.0f s and is replaced", self.limits.deadline)
            raise AiFailed("the AI took too long and was stopped") from None
        except (ConnectionError, BrokenPipeError):
            raise AiFailed("the AI worker stopped") from None
        if not reply:
            raise AiFailed("the AI worker stopped")
        return json.loads(reply)

    async def _spawn(self) -> asyncio.subprocess.Process:
        import robotable

        env = dict(os.environ)
        # The worker imports the same robotable as this server, wherever that comes from.
        package_root = str(Path(robotable.__file__).resolve().parents[1])
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [package_root, env.get("PYTHONPATH")]))
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "robotable.server.ai_worker",
            str(os.getpid()),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            env=env,
            limit=1 << 20,
        )
        self._procs.add(proc)
        return proc

    async def _stop(self, proc: asyncio.subprocess.Process) -> None:
        """Close the worker's input (it exits), then make sure: terminate, kill, reap."""
        self._procs.discard(proc)
        if proc.returncode is None:
            with contextlib.suppress(Exception):
                assert proc.stdin is not None
                proc.stdin.close()
            for stop in (None, proc.terminate, proc.kill):
                if stop is not None:
                    with contextlib.suppress(ProcessLookupError):
                        stop()
                try:
                    async with asyncio.timeout(2.0):  # not wait_for: see _ask
                        await proc.wait()
                    break
                except TimeoutError:
                    continue


def _jsonable(options: dict[str, Any]) -> dict[str, Any]:
    return {k: list(v) if isinstance(v, tuple) else v for k, v in options.items()}
