"""Playing many games: the job plan, one game in a worker, and the three ways to run them.

A run is planned entirely up front in the parent (`plan_jobs`): every game gets its variant,
its index, its seed (`derive_seed(master, index)`) and its seat arrangement before anything is
played. Workers only play what they are given and return plain results, which are put back in
job order, so the same seed gives the same games and the same numbers whether they were played
in this process, in N local worker processes or on a Ray cluster.

The functions that cross a process boundary (`play_batch`, `_ray_play_batch`) are top-level and
take only picklable dataclasses, which is what the `spawn` start method (and Ray) needs.
"""

from __future__ import annotations

import importlib
import itertools
import math
import multiprocessing
import os
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..core.errors import OptionError
from ..core.records import make_record, save_record
from ..core.registry import game_class, load_game
from ..core.rng import derive_seed

DEFAULT_MAX_ACTIONS = 50_000


@dataclass(frozen=True, slots=True)
class Variant:
    """One configuration of the game under study: the options it is played with."""

    index: int
    label: str
    options: tuple[tuple[str, Any], ...]

    def options_dict(self) -> dict[str, Any]:
        return dict(self.options)


@dataclass(frozen=True, slots=True)
class RunSpec:
    """Everything that decides which games are played (and so the results)."""

    game: str
    num_players: int
    agents: tuple[str, ...]
    games: int
    seed: int = 0
    variants: tuple[Variant, ...] = (Variant(0, "default", ()),)
    fixed_seats: bool = False
    max_actions: int = DEFAULT_MAX_ACTIONS
    error_dir: str = "robotable-errors"
    track_cards: bool = True

    def arrangements(self) -> list[tuple[int, ...]]:
        return seat_arrangements(len(self.agents), self.num_players, self.fixed_seats)

    def agent_labels(self) -> list[str]:
        return agent_labels(self.agents)


@dataclass(frozen=True, slots=True)
class GameJob:
    game: str
    num_players: int
    options: tuple[tuple[str, Any], ...]
    variant: int
    index: int
    seed: int
    seat_agents: tuple[str, ...]  # the agent spec playing each seat
    arrangement: tuple[int, ...]  # the agent (index into RunSpec.agents) playing each seat
    max_actions: int
    error_dir: str
    track_cards: bool


@dataclass(frozen=True, slots=True)
class WorkerSetup:
    """What a fresh worker needs before it can load the game: a game registered by a module
    outside robotable.games (a user's game, a test game) is imported by name, from the same
    sys.path as the parent."""

    modules: tuple[str, ...] = ()
    sys_path: tuple[str, ...] = ()


@dataclass(slots=True)
class GameResult:
    variant: int
    index: int
    seed: int
    arrangement: tuple[int, ...]
    returns: tuple[float, ...] | None  # None when the game raised
    actions: int
    turns: int
    seconds: float
    error: str | None = None
    record_path: str | None = None
    # Per seat: the sorted (event type, card) pairs of every event naming that seat and a card.
    cards: tuple[tuple[tuple[str, str], ...], ...] = ()
    extras: dict[str, Any] = field(default_factory=dict)

    def winners(self) -> list[int]:
        """The seats with the best return (one seat: a win; several: a draw; none on error)."""
        if self.returns is None:
            return []
        best = max(self.returns)
        return [s for s, r in enumerate(self.returns) if r == best]

    def sole_winner(self) -> int | None:
        won = self.winners()
        return won[0] if len(won) == 1 else None


# -- planning ---------------------------------------------------------------------------------


def seat_arrangements(num_agents: int, num_players: int, fixed: bool = False) -> list[tuple]:
    """The seat orders a run cycles through, as tuples of agent indices (one per seat).

    - as many agents as seats or more: every ordered choice of distinct agents for the seats
      (two agents: both seat orders; three agents on three seats: all six orders; three agents
      on two seats: every pairing in both orders, a round robin);
    - fewer agents than seats: the agents repeat round the table (a,b,a,b) and the table is
      rotated so that every agent sits in every seat equally often.
    `fixed` plays the agents in the order given, seat 0 first, with no rotation.
    """
    if num_agents < 1:
        raise OptionError("simulate: give at least one agent")
    base = tuple(i % num_agents for i in range(num_players))
    if fixed:
        if num_agents > num_players:
            raise OptionError(
                f"simulate: {num_agents} agents for {num_players} seats with fixed seats; "
                "give at most one agent per seat"
            )
        return [base]
    if num_agents >= num_players:
        return list(itertools.permutations(range(num_agents), num_players))
    out: list[tuple[int, ...]] = []
    for shift in range(num_players):
        rotated = tuple(base[(seat + shift) % num_players] for seat in range(num_players))
        if rotated not in out:
            out.append(rotated)
    return out


def agent_labels(specs: Sequence[str]) -> list[str]:
    """Unique display names: a spec given twice becomes 'random' and 'random#2'."""
    seen: dict[str, int] = {}
    labels = []
    for spec in specs:
        seen[spec] = seen.get(spec, 0) + 1
        labels.append(spec if seen[spec] == 1 else f"{spec}#{seen[spec]}")
    return labels


def plan_jobs(spec: RunSpec) -> list[GameJob]:
    """Every game of the run, in result order. Game i of every variant has the same seed (common
    random numbers: variants are compared on the same deals) and seat arrangement; arrangements
    are laid out in equal blocks (two agents: seats swapped halfway)."""
    arrangements = spec.arrangements()
    count = len(arrangements)
    # Absolute, because a Ray worker runs in a directory of its own.
    error_dir = os.path.abspath(spec.error_dir)
    jobs = []
    for variant in spec.variants:
        for index in range(spec.games):
            arrangement = arrangements[index * count // spec.games]
            jobs.append(
                GameJob(
                    game=spec.game,
                    num_players=spec.num_players,
                    options=variant.options,
                    variant=variant.index,
                    index=index,
                    seed=derive_seed(spec.seed, index),
                    seat_agents=tuple(spec.agents[a] for a in arrangement),
                    arrangement=arrangement,
                    max_actions=spec.max_actions,
                    error_dir=error_dir,
                    track_cards=spec.track_cards,
                )
            )
    return jobs


def worker_setup(game: str) -> WorkerSetup:
    """Which module a worker must import so that `game` is registered there too."""
    module = game_class(game).__module__
    if module.startswith("robotable.games."):
        return WorkerSetup()
    return WorkerSetup(modules=(module,), sys_path=tuple(p for p in sys.path if p))


# -- one game ---------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def _cached_game(name: str, num_players: int, options: tuple[tuple[str, Any], ...]):
    # Content files are parsed once per worker, not once per game.
    return load_game(name, num_players=num_players, **dict(options))


def _agent_seed(game_seed: int, seat: int) -> int:
    # Agents get their own streams, fixed by the game's seed and the seat, never by the worker.
    return derive_seed(game_seed, 1 + seat)


def play_game(job: GameJob) -> GameResult:
    """Play one game to the end. Any exception is caught: the game is saved as a record (the
    actions so far, plus the failing one when applying it raised) for `robotable replay`."""
    from ..agents import make_agent

    started = time.perf_counter()
    actions: list = []
    state = None
    game = None
    # What the game was doing, as a cheap code: the readable sentence (which formats the action)
    # is only built when something fails, not once per action.
    phase = "setup"
    seat = -1
    n = job.num_players
    used: list[set[tuple[str, str]]] = [set() for _ in range(n)]
    try:
        game = _cached_game(job.game, n, job.options)
        state = game.new_initial_state(seed=job.seed)
        agents = [
            make_agent(spec, seed=_agent_seed(job.seed, s))
            for s, spec in enumerate(job.seat_agents)
        ]
        track = job.track_cards
        limit = job.max_actions
        while not state.is_terminal():
            if len(actions) >= limit:
                phase = "length"
                raise RuntimeError(f"the game did not end within {limit} actions")
            seat = state.current_player()
            phase = "act"
            action = agents[seat].act(state)
            phase = "apply"
            actions.append(action)
            events = state.apply_action(action)
            if track:
                for event in events:
                    who = event.get("seat")
                    card = event.get("card")
                    if type(who) is int and 0 <= who < n and isinstance(card, str):
                        used[who].add((str(event.get("type", "")), card))
        phase = "result"
        returns = tuple(float(r) for r in state.returns())
        extras = state.stats() or {}
        turns = int(state.turn_number())
    except Exception as exc:  # noqa: BLE001 - a failing game must not stop the run
        where = _describe_phase(phase, seat, job, actions)
        message = f"{type(exc).__name__} while {where}: {exc}"
        path = _save_failure(job, game, actions, state, message, where)
        return GameResult(
            variant=job.variant,
            index=job.index,
            seed=job.seed,
            arrangement=job.arrangement,
            returns=None,
            actions=len(actions),
            turns=_safe_turns(state),
            seconds=time.perf_counter() - started,
            error=message.splitlines()[0] if message else type(exc).__name__,
            record_path=path,
        )
    return GameResult(
        variant=job.variant,
        index=job.index,
        seed=job.seed,
        arrangement=job.arrangement,
        returns=returns,
        actions=len(actions),
        turns=turns,
        seconds=time.perf_counter() - started,
        cards=tuple(tuple(sorted(u)) for u in used) if job.track_cards else (),
        extras=extras,
    )


def _describe_phase(phase: str, seat: int, job: GameJob, actions: list) -> str:
    if phase == "act":
        return f"seat {seat} ({job.seat_agents[seat]}) choosing action {len(actions) + 1}"
    if phase == "apply":
        try:
            shown = str(actions[-1])
        except Exception:  # noqa: BLE001 - the action's label may be what is broken
            shown = repr(actions[-1])
        return f"applying action {len(actions)} ({shown}) for seat {seat}"
    return {"setup": "setup", "length": "length", "result": "collecting the result"}[phase]


def _safe_turns(state) -> int:
    try:
        return int(state.turn_number()) if state is not None else 0
    except Exception:  # noqa: BLE001 - the state may be the broken thing
        return 0


def _save_failure(job: GameJob, game, actions, state, message: str, where: str) -> str | None:
    if game is None:
        try:
            game = _cached_game(job.game, job.num_players, job.options)
        except Exception:  # noqa: BLE001 - nothing to record without a game
            return None
    try:
        record = make_record(game, job.seed, actions, None)
        record["error"] = {
            "message": message,
            "where": where,
            "step": len(actions),
            "agents": list(job.seat_agents),
            "traceback": traceback.format_exc(),
        }
        name = f"{job.game}-v{job.variant}-g{job.index}-seed{job.seed}.json"
        path = Path(job.error_dir) / name
        save_record(record, path)
        return str(path)
    except Exception:  # noqa: BLE001 - failing to save must not hide the game's own error
        return None


def play_batch(jobs: Sequence[GameJob], setup: WorkerSetup = WorkerSetup()) -> list[GameResult]:
    """Worker entry point: make sure the game is registered here, then play the jobs in order."""
    _prepare(setup)
    return [play_game(job) for job in jobs]


def _prepare(setup: WorkerSetup) -> None:
    for entry in setup.sys_path:
        if entry not in sys.path and os.path.isdir(entry):
            sys.path.append(entry)
    for module in setup.modules:
        importlib.import_module(module)


# -- running ----------------------------------------------------------------------------------

Progress = Callable[[int], None]


@dataclass(slots=True)
class RunOutcome:
    spec: RunSpec
    results: list[GameResult]
    seconds: float
    backend: str
    workers: int
    startup_seconds: float = 0.0  # time spent starting or reaching Ray before the first game


def _batches(jobs: list[GameJob], workers: int, max_batch: int = 25) -> list[list[GameJob]]:
    # Several batches per worker keep them all busy to the end; small batches keep the progress
    # bar lively; batching at all keeps per-task overhead off games that take a millisecond.
    size = max(1, min(max_batch, math.ceil(len(jobs) / (workers * 8))))
    return [jobs[i : i + size] for i in range(0, len(jobs), size)]


def available_cores() -> int:
    """The cores this process may use (a container or taskset may allow fewer than exist)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # macOS and Windows have no affinity call
        return os.cpu_count() or 1


def run(
    spec: RunSpec,
    workers: int | None = None,
    ray_address: str | None = None,
    progress: Progress | None = None,
) -> RunOutcome:
    """Play every game of `spec`; results come back in plan order whatever the backend."""
    jobs = plan_jobs(spec)
    setup = worker_setup(spec.game)
    workers = max(1, workers or available_cores())
    started = time.perf_counter()
    startup = 0.0
    if ray_address is not None:
        results, workers, startup = _run_ray(jobs, setup, ray_address, workers, progress)
        backend = "ray-local" if ray_address == "local" else f"ray {ray_address}"
    elif workers == 1 or len(jobs) <= 1:
        results = []
        for job in jobs:
            results.extend(play_batch([job], setup))
            if progress:
                progress(1)
        backend, workers = "in-process", 1
    else:
        results = _run_pool(jobs, setup, workers, progress)
        backend = "processes"
    results.sort(key=lambda r: (r.variant, r.index))
    return RunOutcome(spec, results, time.perf_counter() - started, backend, workers, startup)


def _run_pool(jobs, setup, workers, progress) -> list[GameResult]:
    # spawn, not fork: the parent may hold threads (the progress bar, Ray) that fork would copy
    # in a broken state, and spawn behaves the same on Linux, macOS and Windows.
    context = multiprocessing.get_context("spawn")
    batches = _batches(jobs, workers)
    results: list[GameResult] = []
    with context.Pool(processes=min(workers, len(batches))) as pool:
        tasks = [(batch, setup) for batch in batches]
        for done in pool.imap_unordered(_play_batch_star, tasks):
            results.extend(done)
            if progress:
                progress(len(done))
    return results


def _play_batch_star(task: tuple[list[GameJob], WorkerSetup]) -> list[GameResult]:
    return play_batch(*task)


def check_reachable(address: str, timeout: float = 5.0) -> None:
    """Fail fast on an address nobody answers: Ray itself keeps retrying for minutes."""
    import socket

    host_port = address.split("://", 1)[-1]
    host, sep, port = host_port.rpartition(":")
    if not sep or not port.isdigit():
        return  # "auto" and other forms Ray resolves itself
    try:
        with socket.create_connection((host or "127.0.0.1", int(port)), timeout=timeout):
            pass
    except OSError as exc:
        raise OptionError(
            f"simulate --ray {address}: nothing answers there ({exc.strerror or exc})"
        ) from None


def _run_ray(jobs, setup, address, workers, progress) -> tuple[list[GameResult], int, float]:
    try:
        import ray
    except ImportError:
        raise OptionError(
            "simulate --ray: Ray is not installed (pip install 'robotable[sim]')"
        ) from None
    started_here = not ray.is_initialized()
    began = time.perf_counter()
    if started_here:
        kwargs: dict[str, Any] = {
            "include_dashboard": False,
            "log_to_driver": False,
            "logging_level": "ERROR",
            "configure_logging": True,
        }
        if address == "local":
            kwargs["num_cpus"] = workers
        else:
            check_reachable(address)
            kwargs["address"] = address
        try:
            ray.init(**kwargs)
        except Exception as exc:  # noqa: BLE001 - connection errors come in many types
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise OptionError(
                f"simulate --ray {address}: cannot start or reach Ray ({first})"
            ) from None
    startup = time.perf_counter() - began
    try:
        cpus = int(ray.cluster_resources().get("CPU", workers)) or 1
        remote = ray.remote(num_cpus=1)(play_batch)
        pending = [remote.remote(batch, setup) for batch in _batches(jobs, cpus)]
        results: list[GameResult] = []
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            batch_results = ray.get(done[0])
            results.extend(batch_results)
            if progress:
                progress(len(batch_results))
        return results, cpus, startup
    finally:
        if started_here:
            ray.shutdown()
