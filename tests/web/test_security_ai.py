"""Security: AI seats are bounded, fair across tables, and never outlive the server.

A stranger could once ask for `mcts:time=inf` and hold a shared worker for ever; a server
stopped with SIGTERM or SIGKILL left its AI workers and multiprocessing's resource tracker
running.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys

import httpx
import pytest
from typer.testing import CliRunner

from process_helpers import session_processes, wait_until
from robotable import load_game
from robotable.cli import _register_all
from robotable.cli import app as cli_app
from robotable.server.ai import AiFailed, AiLimits, AiRunner, capped_spec, check_agent_spec
from robotable.server.errors import Refused

from .conftest import create_table

HUMAN = {"kind": "human", "name": "Ada"}


def _ai(spec: str) -> dict:
    return {"kind": "ai", "name": "Bo", "ai": spec}


@pytest.mark.parametrize(
    ("spec", "fragment"),
    [
        ("mcts:time=inf", "finite"),
        ("mcts:time=nan", "finite"),
        ("mcts:time=1e9", "'time' must be at most 3600"),  # refused by the spec parser
        ("mcts:time=100", "over this server's limit of 3 s"),
        ("mcts:1000000000", "'iterations' must be at most 10000000"),
        ("mcts:1000000", "over this server's limit of 20000"),
        ("mcts:200,trees=1000000000", "'trees' must be at most 64"),
        ("mcts:200,trees=20", "trees=20 is over this server's limit of 8"),
        ("mcts:iterations=500,time=4", "over this server's limit"),
        ("superhuman", "unknown agent"),
        ("hard:5", "takes no parameters"),
        ("greedy:noise=3", "at most 1"),
        ("x" * 5000, "at most 60 characters"),
    ],
)
def test_ai_spec_abuse_is_refused_and_nothing_is_stored(client, spec, fragment):
    body = {"game": "stakbots", "num_players": 2, "seats": [HUMAN, _ai(spec)]}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 400
    message = response.json()["error"]
    assert fragment in message and "\n" not in message
    assert client.get("/api/tables").json()["playing"] == []


@pytest.mark.parametrize("strength", ["easy", "medium", "hard", "expert"])
def test_named_strengths_are_accepted_by_the_web(client, strength):
    table = create_table(client, "stakbots", [HUMAN, _ai(strength)])
    assert client.get(f"/api/tables/{table['id']}").json()["seats"][1]["ai"] == strength


def test_the_lobby_offers_only_strengths_within_the_limits(tmp_path):
    from starlette.testclient import TestClient

    from robotable.server.app import create_app

    app = create_app(tmp_path / "t.sqlite3", ai_limits=AiLimits(max_seconds=1.5))
    with TestClient(app) as client:
        levels = [level["spec"] for level in client.get("/api/games").json()["ai_levels"]]
        assert levels == ["easy", "medium", "hard"]
        body = {"game": "stakbots", "num_players": 2, "seats": [HUMAN, _ai("expert")]}
        assert "limit of 1.5 s" in client.post("/api/tables", json=body).json()["error"]


def test_every_move_runs_under_the_time_cap():
    limits = AiLimits(max_seconds=2.0, max_iterations=5000)
    assert capped_spec("mcts:200", "stakbots", limits) == "mcts:iterations=200,time=2.0"
    assert "time=2.0" in capped_spec("expert", "stakbots", limits)  # 3 s capped to 2
    assert capped_spec("mcts:time=0.5", "stakbots", limits) == "mcts:iterations=5000,time=0.5"
    assert capped_spec("greedy", "stakbots", limits) == "greedy"
    with pytest.raises(Refused):
        check_agent_spec("mcts:time=2.5", "stakbots", limits)


def test_named_strengths_play_from_the_command_line(tmp_path):
    _register_all()
    record = tmp_path / "game.json"
    args = ["play", "stakbots", "--seats", "easy,medium", "--seed", "3", "--record", str(record)]
    result = CliRunner().invoke(cli_app, args)
    assert result.exit_code == 0, result.output
    assert record.exists()


# -- worker processes -----------------------------------------------------------------------------
def _state(game_name: str = "stakbots"):
    game = load_game(game_name)
    return game, game.new_initial_state(seed=2)


def test_one_worker_serves_tables_first_come_first_served():
    """A table asks again only after its move is applied, so a waiting table is never passed
    by a busy one more than once."""
    game, state = _state()
    order: list[str] = []

    async def table(name: str, moves: int, runner: AiRunner, started: asyncio.Event) -> None:
        for number in range(moves):
            if number == 1:
                started.set()
            await runner.choose(game, state.clone(), "mcts:50", number)
            order.append(f"{name}{number + 1}")

    async def scenario() -> None:
        runner = AiRunner(workers=1)
        await runner.start()
        try:
            busy_started = asyncio.Event()
            busy = asyncio.ensure_future(table("A", 3, runner, busy_started))
            await asyncio.sleep(0)  # A's first request is queued first
            await table("B", 1, runner, asyncio.Event())
            await busy
        finally:
            await runner.aclose()

    asyncio.run(scenario())
    assert order.index("B1") < order.index("A2")


def test_a_worker_that_overruns_is_killed_and_replaced():
    game, state = _state("breadwinner")

    async def scenario() -> tuple[int | None, int | None]:
        # A deadline far below what loading a game in a fresh worker takes: it must overrun.
        runner = AiRunner(workers=1, limits=AiLimits(max_seconds=0.001, grace=0.0))
        await runner.start()
        try:
            with pytest.raises(AiFailed, match="too long"):
                await runner.choose(game, state.clone(), "greedy", 1)
            assert not runner._procs  # killed and reaped
            runner.limits = AiLimits()
            action = await runner.choose(game, state.clone(), "greedy", 1)
            assert action in state.legal_actions()
        finally:
            await runner.aclose()
        return None, None

    asyncio.run(scenario())


class _WorkerAnsweringAsTheServerStops:
    """A stand-in worker process whose answer comes in the very turn of the event loop in which
    the server cancels the loop that asked it (what a stopping server does to a busy worker)."""

    returncode = None

    def __init__(self, runner: AiRunner, answer: bytes) -> None:
        self.runner, self.answer = runner, answer
        self.stdin, self.stdout = self, self

    def write(self, data: bytes) -> None:
        pass

    async def drain(self) -> None:
        pass

    def close(self) -> None:
        self.returncode = 0

    async def readline(self) -> bytes:
        for task in self.runner._tasks:  # what aclose does first
            task.cancel()
        return self.answer

    async def wait(self) -> int:
        return 0


def test_a_worker_answering_as_the_server_stops_does_not_keep_it_running():
    """Python 3.11's asyncio.wait_for, given a reply and a cancel in the same turn, returned the
    reply and dropped the cancel: the worker's loop went back to waiting for work, and the
    server, waiting for that loop to end, never exited (1 Ctrl-C or SIGTERM in about 80)."""
    game, state = _state()
    answer = json.dumps({"action": state.legal_actions()[0].to_json()}).encode() + b"\n"

    async def scenario() -> bool:
        runner = AiRunner(workers=1)

        async def spawn() -> _WorkerAnsweringAsTheServerStops:
            return _WorkerAnsweringAsTheServerStops(runner, answer)

        runner._spawn = spawn
        await runner.start()
        asking = asyncio.ensure_future(runner.choose(game, state.clone(), "greedy", 1))
        for _ in range(20):  # turns of the loop, not time: the worker loop ends within a few
            await asyncio.sleep(0)
        stopped = all(task.done() for task in runner._tasks)
        asking.cancel()
        for task in runner._tasks:
            task.cancel()  # a second cancel frees the old code's stuck loop, to end the test
        await runner.aclose()
        return stopped

    assert asyncio.run(scenario())


# -- the whole server as a process ------------------------------------------------------------------
@pytest.fixture
def serve(tmp_path):
    """`robotable serve` with two AI worker processes, in a session of its own."""
    if not sys.platform.startswith("linux"):
        pytest.skip("reads /proc to find the server's processes")
    args = ["serve", "--port", "0", "--db", str(tmp_path / "t.sqlite3"), "--ai-delay", "0"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "robotable.cli", *args, "--ai-workers", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    base = None
    for line in proc.stdout:
        if line.startswith("Open http://"):
            base = line.split()[1].rstrip("/")
            break
    assert base is not None, "robotable serve did not start"
    yield proc, base
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def _start_ai_game(base: str) -> None:
    seats = [_ai("hard"), _ai("hard")]
    body = {"game": "stakbots", "num_players": 2, "seats": seats, "seed": 1}
    table = httpx.post(base + "/api/tables", json=body, timeout=30).json()
    # Both workers are running once the AI has made a move and is thinking about the next.
    assert wait_until(
        lambda: httpx.get(f"{base}/api/tables/{table['id']}", timeout=30).json()["step"] >= 2, 60
    )


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGINT])
def test_a_stopped_server_leaves_no_process_behind(serve, how):
    proc, base = serve
    _start_ai_game(base)
    assert len(session_processes(proc.pid)) >= 2  # the server and its workers
    proc.send_signal(how)
    # uvicorn shuts down cleanly, then re-raises the signal so a supervisor sees why it ended.
    assert proc.wait(timeout=60) in (0, -how, 128 + how)
    assert wait_until(lambda: session_processes(proc.pid) == [], 10)


def test_workers_of_a_killed_server_exit_by_themselves(serve):
    proc, base = serve
    _start_ai_game(base)
    workers = [pid for pid in session_processes(proc.pid) if pid != proc.pid]
    assert workers
    proc.kill()
    proc.wait()
    # Nobody stops them: each notices its parent is gone (PR_SET_PDEATHSIG, or the pid watch).
    assert wait_until(lambda: session_processes(proc.pid) == [], 10)


def test_a_hint_is_worked_out_in_a_worker_under_the_caps():
    """Hints go through the same queue and workers as AI moves, with the same time cap; the
    answer is the same as in-process for the same seed."""
    from robotable.agents.hints import hint

    game, state = _state()

    async def scenario() -> list[dict]:
        runner = AiRunner(workers=1, limits=AiLimits(max_iterations=60))
        await runner.start()
        try:
            return await runner.hint(game, state.clone(), "mcts:60", 7, ["Ada", "Bo"])
        finally:
            await runner.aclose()

    options = asyncio.run(scenario())
    here = [o.to_json() for o in hint(state.clone(), "mcts:60", 7, names=["Ada", "Bo"])]
    assert options == here and options
