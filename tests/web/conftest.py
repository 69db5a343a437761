"""Fixtures for the web table tests: an app on a temporary database, a live server in a thread."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient  # noqa: E402

from robotable.server.app import create_app  # noqa: E402


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(tmp_path / "tables.sqlite3", ai_delay=0, synchronous="NORMAL")
    with TestClient(app) as test_client:
        yield test_client


class LiveServer:
    """uvicorn serving the app on a free port in a background thread."""

    def __init__(self, db: Path, ai_delay: float = 0.0) -> None:
        import uvicorn

        started = threading.Event()

        class Server(uvicorn.Server):
            async def startup(self, sockets=None) -> None:
                await super().startup(sockets)
                started.set()

        app = create_app(db, ai_delay=ai_delay, synchronous="NORMAL")
        self.server = Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
        self.thread = threading.Thread(target=lambda: asyncio.run(self.server.serve()), daemon=True)
        self.thread.start()
        if not started.wait(timeout=30):
            raise RuntimeError("the live server did not start")
        sock = self.server.servers[0].sockets[0]
        self.url = "http://127.0.0.1:%d" % sock.getsockname()[1]

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path / "tables.sqlite3")
    yield server
    server.stop()
