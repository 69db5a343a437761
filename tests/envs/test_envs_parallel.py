"""The process-parallel vector env: the in-process vector env's very arrays, workers that share
memory with it, and workers that never outlive their parent (issue 82)."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

from robotable.envs.parallel import ParallelVectorEnv
from robotable.envs.vector import RobotableVectorEnv

needs_pidfd = pytest.mark.skipif(
    not hasattr(os, "pidfd_open"), reason="waiting on another process's exit needs Linux pidfds"
)


def _wait_for_exit(pid: int) -> None:
    """Block until process `pid` has exited (a pidfd turns readable then); the bound only keeps
    a broken worker from hanging the suite, it times nothing."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return  # gone already
    try:
        readable, _, _ = select.select([fd], [], [], 120)
        assert readable, f"worker {pid} is still running"
    finally:
        os.close(fd)


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
@pytest.mark.parametrize(("name", "workers"), [("rumblebots", 2), ("stakbots", 3)])
def test_workers_give_the_in_process_arrays(name: str, workers: int, mode: AutoresetMode) -> None:
    """Same seeds and actions, illegal ones among them: the same observations, masks, rewards,
    ends and infos, byte for byte."""
    inline = RobotableVectorEnv(name, num_envs=5, autoreset_mode=mode)
    with ParallelVectorEnv(name, num_envs=5, workers=workers, autoreset_mode=mode) as parallel:
        a, infos = inline.reset(seed=4)
        b, infos_b = parallel.reset(seed=4)
        assert a.tobytes() == b.tobytes()
        assert infos["action_mask"].tobytes() == infos_b["action_mask"].tobytes()
        rng = np.random.default_rng(0)
        for t in range(150):
            actions = (rng.random(infos["action_mask"].shape) * infos["action_mask"]).argmax(1)
            if t % 37 == 0:  # an illegal action now and then
                actions[t % 5] = np.flatnonzero(infos["action_mask"][t % 5] == 0)[0]
            ours, theirs = inline.step(actions), parallel.step(actions)
            for x, y in zip(ours[:4], theirs[:4]):
                assert x.tobytes() == y.tobytes()
            assert ours[4].keys() == theirs[4].keys()
            for key in ("action_mask", "illegal_action"):
                if key in ours[4]:
                    assert ours[4][key].tobytes() == theirs[4][key].tobytes()
            if "final_obs" in ours[4]:
                for i in np.flatnonzero(ours[4]["_final_obs"]):
                    assert ours[4]["final_obs"][i].tobytes() == theirs[4]["final_obs"][i].tobytes()
            infos = ours[4]
    inline.close()


def test_a_bad_spec_fails_before_any_worker_starts() -> None:
    with pytest.raises(Exception, match="unknown agent"):
        ParallelVectorEnv("stakbots", num_envs=2, workers=2, opponents="nobody")


@needs_pidfd
def test_workers_exit_when_their_parent_is_killed() -> None:
    script = (
        "import os, signal, sys\n"
        "from robotable.envs.parallel import ParallelVectorEnv\n"
        "envs = ParallelVectorEnv('stakbots', num_envs=4, workers=2)\n"
        "envs.reset(seed=1)\n"
        "print(*envs.worker_pids(), flush=True)\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == -signal.SIGKILL, done.stderr
    pids = [int(p) for p in done.stdout.split()]
    assert len(pids) == 2
    for pid in pids:
        _wait_for_exit(pid)


@needs_pidfd
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_worker_exits_on_sigterm_and_ctrl_c_and_the_parent_says_so(signum: int) -> None:
    with ParallelVectorEnv("stakbots", num_envs=4, workers=2) as envs:
        _, infos = envs.reset(seed=1)
        victim = envs.worker_pids()[1]
        os.kill(victim, signum)
        _wait_for_exit(victim)
        actions = infos["action_mask"].argmax(1)
        with pytest.raises(RuntimeError, match=rf"sub-envs 2\.\.3 \(pid {victim}\) died"):
            envs.step(actions)


@pytest.mark.parametrize("partial", [False, True])
def test_games_dealt_ahead_are_the_in_process_games_after_a_reset(partial: bool) -> None:
    """A worker deals an ended sub-env's next game while the parent picks actions; a reset
    without a seed (of every sub-env, or of some) then deals the game the in-process env
    deals, and the steps after it match byte for byte."""
    inline = RobotableVectorEnv("stakbots", num_envs=4)
    with ParallelVectorEnv("stakbots", num_envs=4, workers=2) as parallel:
        _, infos = inline.reset(seed=9)
        parallel.reset(seed=9)
        rng = np.random.default_rng(3)
        resets = 0
        for _ in range(400):
            actions = (rng.random(infos["action_mask"].shape) * infos["action_mask"]).argmax(1)
            ours, theirs = inline.step(actions), parallel.step(actions)
            for x, y in zip(ours[:4], theirs[:4]):
                assert x.tobytes() == y.tobytes()
            infos = ours[4]
            if ours[2].any():  # an episode ended: its next game is being dealt ahead
                options = {"reset_mask": ours[2]} if partial else None
                a, infos = inline.reset(options=options)
                b, infos_b = parallel.reset(options=options)
                assert a.tobytes() == b.tobytes()
                assert infos["action_mask"].tobytes() == infos_b["action_mask"].tobytes()
                resets += 1
        assert resets >= 3
    inline.close()
