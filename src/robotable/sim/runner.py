"""Playing many games: the job plan, the jobs in a worker, and the three ways to run them.

A run is planned entirely up front in the parent (`plan_jobs`): every game gets its variant,
its index, its seed (`derive_seed(master, index)`) and its seat arrangement before anything is
played. Workers only play what they are given and return plain results, which are put back in
job order, so the same seed gives the same games and the same numbers whether they were played
in this process, in N local worker processes or on a Ray cluster.

The functions that cross a process boundary (`play_batch`, `_ray_play_batch`) are top-level and
take only picklable dataclasses, which is what the `spawn` start method (and Ray) needs.
"""

from __future__ import annotations

import contextlib
import importlib
import itertools
import math
import multiprocessing
import os
import statistics
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.errors import OptionError
from ..core.processes import die_with_parent, sigterm_as_interrupt
from ..core.registry import game_class
from ..core.rng import derive_seed

# The one-game level (sim/games.py), importable from here as before: the runner sits above it.
from .games import (  # noqa: F401
    Bars,
    GameJob,
    GameResult,
    MovesDoNotReplay,
    Recording,
    _cached_game,
    ends_as,
    play_game,
    replay_job,
    standing_ranks,
    walk_moves,
)
from .studies.restricted_play import play_paired

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
    # Per-step evaluation for the quality measures (lead changes, decision point, margin): off
    # by default because it calls game.evaluate_all every `quality_every` decisions.
    quality: bool = False
    quality_every: int = 1
    # Each card's standing moment (GameResult.moments): off by default because it calls
    # game.evaluate_all before every action.
    standing: bool = False
    # A restricted agent 0 (`simulate --restrict`) also plays each game unbarred: see
    # `play_paired`.
    paired: bool = False
    # Bars (cards, kinds) to watch at agent 0's seat in every game: GameResult.bar_could_act.
    watch: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = ()
    # Each game's moves (GameResult.moves), so that any game of the run can be replayed.
    keep_moves: bool = False
    # Each decision's randomness drawn afresh from the seat's seed and the move's number
    # (GameJob.decision_streams): a barred game then starts where its bar can first act.
    decision_streams: bool = False

    def arrangements(self) -> list[tuple[int, ...]]:
        return seat_arrangements(len(self.agents), self.num_players, self.fixed_seats)

    def agent_labels(self) -> list[str]:
        return agent_labels(self.agents)


@dataclass(frozen=True, slots=True)
class WorkerSetup:
    """What a fresh worker needs before it can load the game: a game registered by a module
    outside robotable.games (a user's game, a test game) is imported by name, from the same
    sys.path as the parent."""

    modules: tuple[str, ...] = ()
    sys_path: tuple[str, ...] = ()


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
    record = Recording(
        track_cards=spec.track_cards,
        quality_every=max(1, spec.quality_every) if spec.quality else 0,
        standing=spec.standing,
        keep_moves=spec.keep_moves,
    )
    bars = Bars(paired=spec.paired, watch=spec.watch)
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
                    decision_streams=spec.decision_streams,
                    record=record,
                    bars=bars,
                )
            )
    return jobs


def worker_setup(game: str) -> WorkerSetup:
    """Which module a worker must import so that `game` is registered there too."""
    module = game_class(game).__module__
    if module.startswith("robotable.games."):
        return WorkerSetup()
    return WorkerSetup(modules=(module,), sys_path=tuple(p for p in sys.path if p))


def play_batch(jobs: Sequence[GameJob], setup: WorkerSetup = WorkerSetup()) -> list[GameResult]:
    """Worker entry point: make sure the game is registered here, then play the jobs in order."""
    _prepare(setup)
    return [play_job(job) for job in jobs]


def play_job(job: GameJob) -> GameResult:
    """One job to its result: a paired job (restricted play) as its barred game beside the same
    game unbarred (studies/restricted_play.py), any other as one game (games.play_game)."""
    if job.bars.paired:
        return play_paired(job)
    return play_game(job)


def _prepare(setup: WorkerSetup) -> None:
    for entry in setup.sys_path:
        if entry not in sys.path and os.path.isdir(entry):
            sys.path.append(entry)
    for module in setup.modules:
        importlib.import_module(module)


# -- running ----------------------------------------------------------------------------------

Progress = Callable[[int], None]
OnResult = Callable[[GameResult], None]


@dataclass(slots=True)
class RunOutcome:
    spec: RunSpec
    results: list[GameResult]
    seconds: float
    backend: str
    workers: int
    startup_seconds: float = 0.0  # starting worker processes or reaching Ray, before any game
    played: int = 0  # games played by this call (the rest came from a results file)
    loaded: int = 0  # games taken from a results file (`simulate --resume`)
    interrupted: bool = False  # stopped by Ctrl-C: `results` holds the games finished by then

    @property
    def games_per_second(self) -> float | None:
        """Games played per second of playing, start-up left out."""
        playing = self.seconds - self.startup_seconds
        return self.played / playing if self.played and playing > 0 else None


# A batch's games reach the main process (the results file, the summary of a stopped run) only
# when the whole batch is done, so a batch should take at most about this long.
BATCH_SECONDS = 2.0


def _batches(
    jobs: list[GameJob],
    workers: int,
    max_batch: int = 25,
    seconds_per_game: float | None = None,
) -> list[list[GameJob]]:
    # Several batches per worker keep them all busy to the end; small batches keep the progress
    # bar lively; batching at all keeps per-task overhead off games that take a millisecond.
    # Games that take seconds or minutes go one to a batch, so a Ctrl-C loses at most the games
    # in play, not minutes of finished ones.
    size = max(1, min(max_batch, math.ceil(len(jobs) / (workers * 8))))
    if seconds_per_game is not None and seconds_per_game > 0:
        size = max(1, min(size, int(BATCH_SECONDS / seconds_per_game)))
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
    on_result: OnResult | None = None,
    previous: Sequence[GameResult] = (),
    unbarred: Mapping[tuple[int, int], tuple[tuple[int, ...], tuple[float, ...]]] | None = None,
) -> RunOutcome:
    """Play every game of `spec`; results come back in plan order whatever the backend.

    `previous` are games already finished (read back from a results file): they are not played
    again, and the outcome holds them with the new ones. `unbarred`, for a paired run: by
    (variant, index), a deal's unbarred game as a results file kept it (`sim.replays.
    kept_unbarred`), replayed instead of played. `on_result` sees every new game as its
    result reaches this process (a worker returns a batch of up to 25 at once). Ctrl-C stops the
    run: the outcome then holds the games finished so far and `interrupted` is set.
    """
    done = {(r.variant, r.index) for r in previous}
    jobs = [j for j in plan_jobs(spec) if (j.variant, j.index) not in done]
    if unbarred and spec.paired:
        jobs = [j.with_bars(unbarred=unbarred.get((j.variant, j.index))) for j in jobs]
    setup = worker_setup(spec.game)
    workers = max(1, workers or available_cores())
    started = time.perf_counter()
    results: list[GameResult] = []
    clock = {"startup": 0.0}

    def finished(batch: list[GameResult]) -> None:
        results.extend(batch)
        if on_result:
            for result in batch:
                on_result(result)
        if progress:
            progress(len(batch))

    if not jobs:
        backend, workers = "in-process", 1
    elif ray_address is not None:
        backend = "ray-local" if ray_address == "local" else f"ray {ray_address}"
    elif workers == 1 or len(jobs) <= 1:
        backend, workers = "in-process", 1
    else:
        backend = "processes"
    interrupted = False
    try:
        # SIGTERM stops a run as Ctrl-C does: the finished games are kept and the pool's workers
        # are terminated, where the default action would end this process and leave them running.
        with sigterm_as_interrupt():
            if not jobs:
                pass
            elif ray_address is not None:
                workers = _run_ray(jobs, setup, ray_address, workers, finished, clock)
            elif backend == "in-process":
                for job in jobs:
                    finished(play_batch([job], setup))
            else:
                _run_pool(jobs, setup, workers, finished, clock)
    except KeyboardInterrupt:
        interrupted = True
    everything = [*previous, *results]
    everything.sort(key=lambda r: (r.variant, r.index))
    return RunOutcome(
        spec,
        everything,
        time.perf_counter() - started,
        backend,
        workers,
        clock["startup"],
        played=len(results),
        loaded=len(previous),
        interrupted=interrupted,
    )


def _run_pool(jobs, setup, workers, finished, clock) -> None:
    # spawn, not fork: the parent may hold threads (the progress bar, Ray) that fork would copy
    # in a broken state, and spawn behaves the same on Linux, macOS and Windows.
    context = multiprocessing.get_context("spawn")
    processes = min(workers, len(jobs))
    began = time.perf_counter()
    initargs = (setup, os.getpid())
    with context.Pool(processes=processes, initializer=_init_worker, initargs=initargs) as pool:
        # Start-up: every worker imports robotable and the game and parses its content once;
        # timed apart so that games per second measure playing only.
        pool.map(_warm_up, [jobs[0]] * processes, chunksize=1)
        clock["startup"] = time.perf_counter() - began
        # One game per worker first: how long they take sizes the batches of the rest.
        first = [([job], setup) for job in jobs[:processes]]
        seconds: list[float] = []
        for done in pool.imap_unordered(_play_batch_star, first):
            seconds.extend(result.seconds for result in done)
            finished(done)
        rest = jobs[processes:]
        per_game = statistics.median(seconds) if seconds else None
        tasks = [(batch, setup) for batch in _batches(rest, workers, seconds_per_game=per_game)]
        for done in pool.imap_unordered(_play_batch_star, tasks):
            finished(done)


def _init_worker(setup: WorkerSetup, parent: int) -> None:
    # Ctrl-C is the parent's to handle: it keeps the finished games and stops the pool. Workers
    # that also caught it would print a traceback each.
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A parent killed outright (SIGKILL, a crash) cannot stop its pool: each worker would play
    # out its batch of games for nobody.
    die_with_parent(parent)
    _prepare(setup)


def _warm_up(job: GameJob) -> None:
    from .. import agents  # noqa: F401 - imported here so the first game does not pay for it

    _cached_game(job.game, job.num_players, job.options)


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


def _run_ray(jobs, setup, address, workers, finished, clock) -> int:
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
    clock["startup"] = time.perf_counter() - began
    pending: list = []
    try:
        cpus = int(ray.cluster_resources().get("CPU", workers)) or 1
        remote = ray.remote(num_cpus=1)(play_batch)
        pending = [remote.remote(batch, setup) for batch in _batches(jobs, cpus)]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            finished(ray.get(done[0]))
        return cpus
    except KeyboardInterrupt:
        for ref in pending:
            # A task that already finished cannot be cancelled; that is fine.
            with contextlib.suppress(Exception):
                ray.cancel(ref, force=True)
        raise
    finally:
        if started_here:
            ray.shutdown()
