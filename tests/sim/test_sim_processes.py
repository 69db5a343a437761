"""A simulation's worker processes end with it: stopped by SIGTERM, it keeps what it finished and
stops its pool; killed outright, its workers notice and exit by themselves (they once played out
their batches for nobody)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pytest

from process_helpers import cmdline, cpu_seconds, session_processes, wait_until


@pytest.fixture
def long_run(tmp_path):
    """A four-seat search run in a session of its own, its two workers in their first batch of
    games (each a few minutes long, so a worker left behind would still be playing)."""
    if not sys.platform.startswith("linux"):
        pytest.skip("reads /proc to find the run's processes")
    out = tmp_path / "run.jsonl"
    args = ["simulate", "rumblebots", "-a", "mcts:3000", "--players", "4", "--games", "40"]
    args += ["--workers", "2", "--seed", "0", "--out-jsonl", str(out)]
    err = (tmp_path / "err.txt").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "robotable.cli", *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=err,
        start_new_session=True,
    )
    try:
        # The parent, two workers and multiprocessing's resource tracker.
        assert wait_until(lambda: len(session_processes(proc.pid)) >= 4, 120)
        # Past start-up (importing, parsing the cards): both workers are playing.
        workers = [pid for pid in session_processes(proc.pid) if "spawn_main" in cmdline(pid)]
        assert len(workers) == 2
        assert wait_until(lambda: min(cpu_seconds(pid) for pid in workers) > 3, 120)
        yield proc, out, tmp_path / "err.txt"
    finally:
        err.close()
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def test_sigterm_stops_a_simulation_and_its_workers(long_run):
    proc, out, err = long_run
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=60) is not None
    assert wait_until(lambda: session_processes(proc.pid) == [], 10)
    assert "interrupted" in err.read_text()
    header = json.loads(out.read_text().splitlines()[0])
    assert header["kind"] == "run" and header["games"] == 40  # resumable with --resume


def test_workers_of_a_killed_simulation_exit_by_themselves(long_run):
    proc, _, _ = long_run
    proc.kill()
    proc.wait()
    assert wait_until(lambda: session_processes(proc.pid) == [], 10)
