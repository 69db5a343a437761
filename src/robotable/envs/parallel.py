"""N robotable games stepped by worker processes that write into shared memory.

    from robotable.envs.parallel import ParallelVectorEnv
    envs = ParallelVectorEnv("stakbots", num_envs=64, workers=2, opponents="random")
    obs, infos = envs.reset(seed=3)
    obs, rewards, terminations, truncations, infos = envs.step(actions)
    envs.close()

The same environment as `RobotableVectorEnv` (envs/vector.py), with the same arguments, the
same observations, masks, rewards and autoreset for the same seeds and actions (tested): the
sub-envs are split into `workers` contiguous slices, and each worker runs a `RobotableVectorEnv`
over its slice whose batch arrays are that slice's rows of one shared-memory block
(`multiprocessing.shared_memory`). A step writes the actions into the block, sends each worker
one byte over its pipe and waits for its answer, one byte too unless SAME_STEP autoreset ended
an episode there (then the ended episodes' last observations, pickled); observations, masks,
rewards, ends and illegal-action flags never cross a pipe, which is what makes Gymnasium's
`AsyncVectorEnv` slower than stepping in process on two cores (docs/performance.md). The
parent's own part of a step is what the in-process env does besides stepping its sub-envs (the
returned copies, the infos), with no per-sub-env Python loop, so nearly all of a step's work
is the workers', side by side.

Workers are forked (`context="fork"`, where the platform has it; `"spawn"` or `"forkserver"` on
request, which need the main module's `if __name__ == "__main__":` guard). Each closes every pipe
end but its own, so when this process dies, however it dies, the worker's wait on its pipe ends
and it exits; on Linux the kernel also sends it SIGTERM then (PR_SET_PDEATHSIG). A worker exits
on SIGTERM and on Ctrl-C (SIGINT) at once and quietly, skipping Python's shutdown (`_exit_on_signal`).
`close()` (or leaving a `with` block) stops them and frees the shared block.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import pickle
import signal
import sys
import traceback
from multiprocessing.connection import Connection
from multiprocessing.shared_memory import SharedMemory
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .vector import RobotableVectorEnv, step_infos

# The arrays of the shared block, in order.
_FIELDS = ("observations", "masks", "rewards", "terminations", "illegal", "actions")

# The pipe protocol, one message a command and one an answer. Parent to worker: _STEP (the
# actions are in the block), _RESET + pickled (seeds, reset mask, options), _CLOSE. Worker to
# parent: _OK, followed by the pickled SAME_STEP final data when there is some, or _ERROR + a
# traceback.
_STEP, _RESET, _CLOSE = b"s", b"r", b"c"
_OK, _ERROR = b"k", b"e"


def _layout(
    num_envs: int, observation_size: int, num_actions: int
) -> dict[str, tuple[int, str, tuple[int, ...]]]:
    """Offset, dtype and shape of every array in the shared block (8-byte aligned)."""
    shapes = {
        "observations": ("float32", (num_envs, observation_size)),
        "masks": ("int8", (num_envs, num_actions)),
        "rewards": ("float64", (num_envs,)),
        "terminations": ("bool", (num_envs,)),
        "illegal": ("bool", (num_envs,)),
        "actions": ("int64", (num_envs,)),
    }
    layout, offset = {}, 0
    for name in _FIELDS:
        dtype, shape = shapes[name]
        layout[name] = (offset, dtype, shape)
        size = int(np.prod(shape)) * np.dtype(dtype).itemsize
        offset += (size + 7) // 8 * 8
    return layout


def _arrays(buffer: Any, layout: dict[str, tuple[int, str, tuple[int, ...]]]) -> dict:
    return {
        name: np.ndarray(shape, dtype=dtype, buffer=buffer, offset=offset)
        for name, (offset, dtype, shape) in layout.items()
    }


def _block_size(layout: dict[str, tuple[int, str, tuple[int, ...]]]) -> int:
    offset, dtype, shape = layout[_FIELDS[-1]]
    return offset + int(np.prod(shape)) * np.dtype(dtype).itemsize


def _die_with_parent() -> None:
    """Linux: have the kernel send SIGTERM to this process when its parent exits."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass  # not Linux: the pipe's end is the watch


def _exit_on_signal(signum: int, frame: Any) -> None:
    """SIGTERM or Ctrl-C ends a worker at once. Its normal exit runs Python's shutdown, which in
    a process forked from a threaded parent (pytest's, a notebook's) can wait forever on a lock
    another thread held at the fork; nothing a worker holds needs that shutdown (the parent owns
    the shared block and unlinks it)."""
    os._exit(128 + signum)


def _one_torch_thread() -> None:
    """A policy opponent's forward passes run on one PyTorch thread in a worker: the workers
    are the parallelism, and a pool of threads forked from a parent that had run PyTorch is
    not there (its first parallel operation would wait forever)."""
    os.environ["OMP_NUM_THREADS"] = "1"  # a PyTorch imported later, in this worker
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(1)


def _worker(
    conn: Connection,
    others: list[Connection],
    parent_pid: int,
    block: str,
    layout: dict[str, tuple[int, str, tuple[int, ...]]],
    start: int,
    stop: int,
    kwargs: dict[str, Any],
) -> None:
    """Run sub-envs start..stop-1 until told to close, the pipe ends (the parent died) or a
    signal stops the process."""
    for other in others:  # a forked worker's copies of the parent's pipe ends
        other.close()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, _exit_on_signal)
    _die_with_parent()
    _one_torch_thread()
    if os.getppid() != parent_pid:
        return  # the parent died before the watch was set
    shm = SharedMemory(name=block)
    arrays = _arrays(shm.buf, layout)
    try:
        envs = RobotableVectorEnv(num_envs=stop - start, **kwargs)
        envs._bind(*(arrays[name][start:stop] for name in _FIELDS[:-1]))
        actions = arrays["actions"][start:stop]
        conn.send_bytes(_OK)
        while True:
            message = conn.recv_bytes()
            command = message[:1]
            try:
                if command == _STEP:
                    _, final = envs._step_rows(actions)
                    conn.send_bytes(_OK + pickle.dumps(final) if final else _OK)
                    envs._deal_ahead()  # while the parent does its part of the step
                elif command == _RESET:
                    envs._reset_rows(*pickle.loads(message[1:]))
                    conn.send_bytes(_OK)
                elif command == _CLOSE:
                    return
            except Exception:  # reported to the parent, which raises it there
                conn.send_bytes(_ERROR + traceback.format_exc().encode())
    except (EOFError, OSError, KeyboardInterrupt):
        return  # the parent is gone (the pipe ended) or Ctrl-C: exit quietly
    finally:
        arrays.clear()
        envs = None  # noqa: F841 - its row views must go before the block closes
        with contextlib.suppress(BufferError):  # a view still held: the exit frees it
            shm.close()


class ParallelVectorEnv(VectorEnv):
    """`RobotableVectorEnv(game, num_envs, ...)` split over `workers` processes sharing memory."""

    metadata = {"render_modes": [], "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(
        self,
        game: str = "stakbots",
        num_envs: int = 8,
        workers: int | None = None,
        context: str | None = None,
        **kwargs: Any,
    ) -> None:
        workers = workers or min(os.cpu_count() or 1, num_envs)
        if not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(
                f"ParallelVectorEnv: num_envs must be a positive int, got {num_envs!r}"
            )
        if not 1 <= workers <= num_envs:
            raise ValueError(f"ParallelVectorEnv: workers must be 1..{num_envs}, got {workers}")
        # One in-process sub-env describes the spaces and checks the arguments before any worker
        # starts (a bad opponent spec fails here, in one line).
        probe = RobotableVectorEnv(game, num_envs=1, **kwargs)
        self.autoreset_mode = probe.autoreset_mode
        self.metadata = {**type(self).metadata, "autoreset_mode": self.autoreset_mode}
        self.num_envs = num_envs
        self.single_observation_space = probe.single_observation_space
        self.single_action_space = probe.single_action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        probe.close()
        layout = _layout(
            num_envs, self.single_observation_space.shape[0], int(self.single_action_space.n)
        )
        self._shm: SharedMemory | None = SharedMemory(create=True, size=_block_size(layout))
        self._arrays = _arrays(self._shm.buf, layout)
        self._truncations = np.zeros(num_envs, dtype=np.bool_)
        bounds = np.linspace(0, num_envs, workers + 1).round().astype(int).tolist()
        self._slices = list(zip(bounds[:-1], bounds[1:]))
        if context is None:
            context = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        forked = context == "fork"
        mp = multiprocessing.get_context(context)
        self._conns: list[Connection] = []
        self._processes: list[Any] = []
        worker_kwargs = {"game": game, **kwargs}
        try:
            for start, stop in self._slices:
                parent_end, child_end = mp.Pipe()
                others = [*self._conns, parent_end] if forked else []
                process = mp.Process(
                    target=_worker,
                    args=(
                        child_end,
                        others,
                        os.getpid(),
                        self._shm.name,
                        layout,
                        start,
                        stop,
                        worker_kwargs,
                    ),
                    daemon=True,
                    name=f"robotable-vector-{start}-{stop}",
                )
                process.start()
                child_end.close()
                self._conns.append(parent_end)
                self._processes.append(process)
            self._gather()  # every worker ready
        except BaseException:
            self.close()
            raise
        self._started = False

    # -- Gymnasium's VectorEnv API ----------------------------------------------------------------
    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        seeds, reset_mask, options = RobotableVectorEnv._reset_arguments(self, seed, options)
        for k, (start, stop) in enumerate(self._slices):
            if reset_mask[start:stop].any():
                arguments = (seeds[start:stop], reset_mask[start:stop], options)
                self._send(k, _RESET + pickle.dumps(arguments))
        self._gather([reset_mask[a:b].any() for a, b in self._slices])
        self._started = True
        masks = self._arrays["masks"]
        return self._arrays["observations"].copy(), {
            "action_mask": masks.copy(),
            "_action_mask": reset_mask.copy(),
        }

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        if not self._started:
            raise RuntimeError("ParallelVectorEnv: step() before reset()")
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise ValueError(f"step: expected {self.num_envs} actions, got shape {actions.shape}")
        self._arrays["actions"][:] = actions
        for k in range(len(self._conns)):
            self._send(k, _STEP)
        final: dict[int, tuple[np.ndarray, dict[str, Any]]] = {}
        for (start, _), answer in zip(self._slices, self._gather()):
            if answer:  # SAME_STEP ended episodes there
                final.update((start + i, item) for i, item in pickle.loads(answer).items())
        arrays = self._arrays
        infos = step_infos(arrays["masks"], arrays["illegal"], final)
        return (
            arrays["observations"].copy(),
            arrays["rewards"].copy(),
            arrays["terminations"].copy(),
            self._truncations.copy(),
            infos,
        )

    def action_masks(self) -> np.ndarray:
        """The current masks, one row per sub-env (the name sb3-contrib looks for)."""
        return self._arrays["masks"].copy()

    def __enter__(self) -> ParallelVectorEnv:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def worker_pids(self) -> list[int]:
        return [p.pid for p in self._processes]

    def close_extras(self, **kwargs: Any) -> None:
        for conn in self._conns:
            with contextlib.suppress(OSError):  # that worker is gone already
                conn.send_bytes(_CLOSE)
            conn.close()
        for process in self._processes:
            process.join(timeout=5)
            if process.is_alive():
                process.terminate()
                process.join()
        self._conns, self._processes = [], []
        if self._shm is not None:
            self._arrays = {}
            self._shm.close()
            self._shm.unlink()
            self._shm = None

    # -- helpers ----------------------------------------------------------------------------------
    def _send(self, k: int, message: bytes) -> None:
        try:
            self._conns[k].send_bytes(message)
        except OSError:
            raise self._died(k) from None

    def _died(self, k: int) -> RuntimeError:
        start, stop = self._slices[k]
        return RuntimeError(
            f"ParallelVectorEnv: the worker for sub-envs {start}..{stop - 1} "
            f"(pid {self._processes[k].pid}) died"
        )

    def _gather(self, which: list[bool] | None = None) -> list[bytes | None]:
        """Every (or each chosen) worker's answer past its status byte; a worker's error or
        death raises here."""
        answers: list[bytes | None] = []
        for k, conn in enumerate(self._conns):
            if which is not None and not which[k]:
                answers.append(None)
                continue
            try:
                answer = conn.recv_bytes()
            except (EOFError, OSError):
                raise self._died(k) from None
            if answer[:1] == _ERROR:
                raise RuntimeError(f"ParallelVectorEnv: a worker failed:\n{answer[1:].decode()}")
            answers.append(answer[1:])
        return answers
