"""Fixtures for the web table tests: an app on a temporary database, a live server in a thread."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest

try:
    with warnings.catch_warnings():
        # Starlette suggests httpx2 for its test client; httpx is what the [web] extra installs.
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from robotable.server.app import create_app
    from robotable.server.limits import ServerLimits

    # The tests open many tables from one address and play whole games at machine speed on one
    # websocket; the creation rate and the websocket rate have tests of their own.
    TEST_LIMITS = ServerLimits(
        creates_per_minute=1_000_000, ws_messages_per_minute=1_000_000, ws_message_burst=1_000_000
    )
except ImportError:  # the [web] extra is not installed: there is no web table to test
    collect_ignore_glob = ["test_web_*.py"]


@pytest.fixture(autouse=True)
def _serve_the_test_client_host(monkeypatch) -> None:
    """Every app a test builds serves the Host the Starlette TestClient sends, `testserver`,
    besides the local names (tests of the Host check pass `allowed_hosts` themselves)."""
    try:
        from robotable.server import app
    except ImportError:
        return
    monkeypatch.setattr(app, "DEFAULT_HOSTS", (*app.DEFAULT_HOSTS, "testserver"))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(
        tmp_path / "tables.sqlite3", ai_delay=0, synchronous="NORMAL", limits=TEST_LIMITS
    )
    with TestClient(app) as test_client:
        try:
            yield test_client
        finally:
            # A test that fails midway leaves its websockets open, and the client would wait for
            # them for ever on exit: close them so the failure is reported.
            for seat in list(SeatClient.open):
                seat.close()


class LiveServer:
    """uvicorn serving the app on a free port in a background thread."""

    def __init__(self, db: Path, ai_delay: float = 0.0) -> None:
        import uvicorn

        started = threading.Event()

        class Server(uvicorn.Server):
            async def startup(self, sockets=None) -> None:
                await super().startup(sockets)
                started.set()

        app = create_app(db, ai_delay=ai_delay, synchronous="NORMAL", limits=TEST_LIMITS)
        self.server = Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
        self.thread = threading.Thread(target=lambda: asyncio.run(self.server.serve()), daemon=True)
        self.thread.start()
        if not started.wait(timeout=30):
            raise RuntimeError("the live server did not start")
        sock = self.server.servers[0].sockets[0]
        self.url = f"http://127.0.0.1:{sock.getsockname()[1]}"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path / "tables.sqlite3")
    yield server
    server.stop()


class SeatClient:
    """One websocket watcher of a table (a seat or a spectator) that remembers what it received."""

    open: ClassVar[set[SeatClient]] = set()

    def __init__(self, client: TestClient, table_id: str, token: str | None) -> None:
        self._cm = client.websocket_connect(f"/ws/tables/{table_id}")
        self.ws = self._cm.__enter__()
        SeatClient.open.add(self)
        self.frames: list[dict] = []
        self._unread: list[dict] = []
        self.ws.send_json({"type": "hello", "token": token})
        self.state = self.until(lambda f: f["type"] == "state")

    def next(self) -> dict:
        frame = self.ws.receive_json()
        self.frames.append(frame)
        if frame["type"] in ("state", "update"):
            self.state = frame
        return frame

    def until(self, predicate) -> dict:
        """The first frame not yet taken that satisfies `predicate`, reading more as needed.

        Frames passed over stay available to later calls, so the order in which a test asks for
        an update and an acknowledgement does not matter.
        """
        for i, frame in enumerate(self._unread):
            if predicate(frame):
                del self._unread[i]
                return frame
        while True:
            frame = self.next()
            if predicate(frame):
                return frame
            self._unread.append(frame)

    def until_step(self, step: int) -> dict:
        return self.until(lambda f: f["type"] in ("state", "update") and f["step"] >= step)

    def send(self, message: dict) -> None:
        self.ws.send_json(message)

    def close(self) -> None:
        if self in SeatClient.open:
            SeatClient.open.discard(self)
            self._cm.__exit__(None, None, None)


@pytest.fixture
def seat_client():
    opened: list[SeatClient] = []

    def connect(client: TestClient, table_id: str, token: str | None = None) -> SeatClient:
        seat = SeatClient(client, table_id, token)
        opened.append(seat)
        return seat

    yield connect
    for seat in opened:
        seat.close()


def create_table(client: TestClient, game: str, seats: list[dict], **extra) -> dict:
    body = {"game": game, "num_players": len(seats), "seats": seats, **extra}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    return response.json()


@pytest.fixture
def new_table():
    return create_table


TESTS = Path(__file__).resolve().parent.parent


def serve_process(db: Path, *extra: str) -> tuple[subprocess.Popen, str]:
    """`robotable serve` as a process on a free port; returns it and its address once it
    listens. Through the real CLI entry point, with the tests folder on the path so the
    Countdown test game is registered."""
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); import toygame; "
        "from robotable.cli import main; sys.argv = ['robotable'] + sys.argv[2:]; main()"
    )
    args = ["serve", "--port", "0", "--db", str(db), "--ai-delay", "0", "--ai-workers", "0"]
    proc = subprocess.Popen(
        [sys.executable, "-c", code, str(TESTS), *args, *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    for line in proc.stdout:
        if line.startswith("Open http://"):
            return proc, line.split()[1].rstrip("/")
    proc.kill()
    raise AssertionError("robotable serve exited before listening")


@pytest.fixture(scope="session")
def postgres_cluster():
    """A throw-away PostgreSQL cluster for the whole session (skipped, saying why, when
    PostgreSQL or psycopg is not installed)."""
    pytest.importorskip("psycopg", reason="psycopg is not installed (the [postgres] extra)")
    from .postgres_cluster import Cluster, find_binaries

    binaries = find_binaries()
    if binaries is None:
        pytest.skip("PostgreSQL is not installed (Debian's postgresql package)")
    cluster = Cluster(binaries)
    yield cluster
    cluster.stop()


@pytest.fixture
def postgres_url(postgres_cluster) -> str:
    """A fresh database in the session's cluster."""
    return postgres_cluster.new_database()
