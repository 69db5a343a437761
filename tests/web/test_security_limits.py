"""Security: the limits a host sets (open tables, creation rate, idle tables, watchers, message
shape), forged and reused seat links, and a clean stop that loses no acknowledged move."""

from __future__ import annotations

import contextlib
import json
import signal
import subprocess

import httpx
import pytest
from starlette.testclient import TestClient

from robotable.server.app import create_app
from robotable.server.limits import RateLimiter, ServerLimits
from robotable.server.wire import depth_of, loads_limited

from .conftest import SeatClient, serve_process

HUMANS = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}]
BODY = {"game": "countdown", "num_players": 2, "seats": HUMANS, "seed": 1}


class Clock:
    """A clock the test moves by hand (no sleeping)."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def _app(tmp_path, clock=None, **limits):
    limits.setdefault("creates_per_minute", 1_000_000)
    return create_app(
        tmp_path / "t.sqlite3",
        ai_delay=0,
        synchronous="NORMAL",
        limits=ServerLimits(**limits),
        clock=clock or Clock(),
    )


def _open(client) -> list[str]:
    return [t["id"] for t in client.get("/api/tables").json()["playing"]]


def test_table_flood_is_refused_past_max_tables(tmp_path):
    with TestClient(_app(tmp_path, max_tables=3)) as client:
        for _ in range(3):
            assert client.post("/api/tables", json=BODY).status_code == 201
        for _ in range(5):
            response = client.post("/api/tables", json=BODY)
            assert response.status_code == 429
            assert "most open tables (3)" in response.json()["error"]
        assert len(_open(client)) == 3


def test_one_address_may_open_only_so_many_tables_a_minute(tmp_path):
    clock = Clock()
    with TestClient(_app(tmp_path, clock, creates_per_minute=2)) as client:
        assert [client.post("/api/tables", json=BODY).status_code for _ in range(2)] == [201, 201]
        refused = client.post("/api/tables", json=BODY)
        assert refused.status_code == 429
        assert refused.headers["retry-after"] == "30"
        assert "too many new tables" in refused.json()["error"]
        assert len(_open(client)) == 2
        clock.now += 30
        assert client.post("/api/tables", json=BODY).status_code == 201


def test_the_rate_limiter_forgets_clients_that_have_refilled():
    clock = Clock()
    limiter = RateLimiter(6, clock=clock, max_keys=10)
    for n in range(10):
        assert limiter.take(f"10.0.0.{n}") is None
    clock.now += 3600
    assert limiter.take("10.0.0.99") is None  # the 11th key: the refilled ones are dropped
    assert len(limiter._buckets) == 1


def test_idle_tables_are_given_up_and_not_resumed(tmp_path):
    clock = Clock()
    with TestClient(_app(tmp_path, clock, idle_hours=72, max_tables=2)) as client:
        idle = client.post("/api/tables", json=BODY).json()
        busy = client.post("/api/tables", json=BODY).json()
        clock.now += 50 * 3600
        ada = SeatClient(client, busy["id"], busy["seats"][0]["token"])
        ada.ws.send_json({"type": "act", "index": 0, "step": 0})
        ada.until(lambda f: f["type"] == "ack")
        ada.close()
        clock.now += 23 * 3600  # the idle table has waited 73 hours, the busy one 23
        tables = client.app.state.tables
        assert client.portal.call(tables.expire_idle) == [idle["id"]]
        assert _open(client) == [busy["id"]]
        meta = client.get(f"/api/tables/{idle['id']}").json()
        assert meta["abandoned"] is True
        # Its players can still look, not play.
        bo = SeatClient(client, idle["id"], idle["seats"][0]["token"])
        bo.ws.send_json({"type": "act", "index": 0, "id": 5})
        assert "given up" in bo.until(lambda f: f["type"] == "error")["message"]
        bo.close()
        # It no longer counts as open: a new table fits under max_tables=2.
        assert client.post("/api/tables", json=BODY).status_code == 201
    # A restart does not replay it.
    with TestClient(_app(tmp_path, clock)) as client:
        assert idle["id"] not in client.app.state.tables.live
        assert busy["id"] in client.app.state.tables.live


def test_a_database_of_the_previous_schema_is_migrated(tmp_path):
    import sqlite3

    db = tmp_path / "t.sqlite3"
    conn = sqlite3.connect(db)
    conn.execute(
        "CREATE TABLE tables (id TEXT PRIMARY KEY, game TEXT NOT NULL, version TEXT NOT NULL,"
        " num_players INTEGER NOT NULL, options TEXT NOT NULL, seed INTEGER NOT NULL,"
        " seats TEXT NOT NULL, created REAL NOT NULL, updated REAL NOT NULL, result TEXT)"
    )
    seats = json.dumps([{"kind": "human", "name": n, "ai": None, "token_hash": None} for n in "AB"])
    conn.execute(
        "INSERT INTO tables VALUES ('old', 'countdown', '1', 2, '{\"pile\": 21}', 1, ?, 1, 999999, NULL)",
        (seats,),
    )
    conn.commit()
    conn.close()
    with TestClient(_app(tmp_path)) as client:
        assert _open(client) == ["old"]


def test_watchers_per_table_are_bounded(tmp_path):
    with TestClient(_app(tmp_path, max_watchers=2)) as client:
        table = client.post("/api/tables", json=BODY).json()
        first = SeatClient(client, table["id"], None)
        second = SeatClient(client, table["id"], table["seats"][0]["token"])
        with client.websocket_connect(f"/ws/tables/{table['id']}") as third:
            third.send_json({"type": "hello", "token": None})
            assert "as many watchers" in third.receive_json()["message"]
            assert third.receive()["code"] == 4429
        second.close()
        again = SeatClient(client, table["id"], None)  # a place came free
        again.close()
        first.close()


@pytest.mark.parametrize(
    ("message", "fragment"),
    [
        ("x" * 20_000, "too large"),
        ("[" * 100_000, "too large"),
        ('{"type": "sync", "id": ' + "[" * 40 + "]" * 40 + "}", "nested deeper than 16"),
        ("not json", "JSON object"),
        ('{"type": "act", "index": 0, "extra": 1}', "extra"),
    ],
)
def test_huge_deep_and_malformed_messages_are_refused_and_the_table_plays_on(
    client, message, fragment
):
    table = client.post("/api/tables", json=BODY).json()
    ada = SeatClient(client, table["id"], table["seats"][0]["token"])
    ada.ws.send_text(message)
    error = ada.until(lambda f: f["type"] == "error")["message"]
    assert fragment in error and "\n" not in error
    ada.ws.send_json({"type": "act", "index": 0, "step": 0, "id": 9})
    assert ada.until(lambda f: f["type"] == "ack")["step"] == 1
    ada.close()


def test_deep_and_huge_http_bodies_are_refused(client):
    deep = '{"game": "countdown", "options": {"x": ' + "[" * 50 + "]" * 50 + "}}"
    as_json = {"content-type": "application/json"}
    response = client.post("/api/tables", content=deep, headers=as_json)
    assert response.status_code == 400 and "nested deeper" in response.json()["error"]
    response = client.post("/api/tables", content="{" + " " * 300_000 + "}", headers=as_json)
    assert response.status_code == 413
    assert _open(client) == []


def test_nesting_depth_skips_strings():
    assert depth_of(loads_limited(b'{"a": [1, {"b": "[[[[{{{{"}]}', 16)) == 3
    assert depth_of(loads_limited(b'{"x": "a\\"[[["}', 16)) == 1
    assert depth_of(loads_limited(b"[" * 1000 + b"]" * 1000, 1000)) == 1000


def test_forged_and_reused_seat_links(client):
    one = client.post("/api/tables", json=BODY).json()
    two = client.post("/api/tables", json=BODY).json()
    real = one["seats"][0]["token"]
    altered = real[:-1] + ("x" if real[-1] != "x" else "y")  # one character off, never the same
    for token in (two["seats"][0]["token"], "made-up-token", altered):
        with client.websocket_connect(f"/ws/tables/{one['id']}") as ws:
            ws.send_json({"type": "hello", "token": token})
            assert "not valid" in ws.receive_json()["message"]
            assert ws.receive()["code"] == 4403
    # Play table one to the end; its links then show the end and act no more.
    ada = SeatClient(client, one["id"], one["seats"][0]["token"])
    bo = SeatClient(client, one["id"], one["seats"][1]["token"])
    while not (ada.state.get("table") or {}).get("finished"):
        mover = ada if ada.state["view"]["legal_actions"] else bo
        step = mover.state["step"]
        mover.ws.send_json({"type": "act", "index": 0, "step": step})
        ada.until_step(step + 1)
        bo.until_step(step + 1)
    ada.close()
    again = SeatClient(client, one["id"], one["seats"][0]["token"])
    assert again.state["table"]["finished"]
    again.ws.send_json({"type": "act", "index": 0, "id": 3})
    assert "over" in again.until(lambda f: f["type"] == "error")["message"]
    again.close()
    bo.close()


# -- a clean stop ---------------------------------------------------------------------------------
websockets_sync = pytest.importorskip("websockets.sync.client")
ConnectionClosed = pytest.importorskip("websockets.exceptions").ConnectionClosed


def test_sigterm_closes_clients_with_1012_and_loses_no_acknowledged_move(tmp_path):
    db = tmp_path / "t.sqlite3"
    proc, base = serve_process(db)
    stack = contextlib.ExitStack()
    try:
        table = httpx.post(base + "/api/tables", json=BODY, timeout=30).json()
        url = base.replace("http://", "ws://") + f"/ws/tables/{table['id']}"
        sockets = []
        for seat in table["seats"]:
            ws = stack.enter_context(websockets_sync.connect(url))
            ws.send(json.dumps({"type": "hello", "token": seat["token"]}))
            sockets.append(ws)
        acknowledged = 0
        for move in range(6):
            ws = sockets[move % 2]
            ws.send(json.dumps({"type": "act", "index": 0, "step": move, "id": move}))
            while True:
                frame = json.loads(ws.recv(timeout=30))
                if frame["type"] == "ack":
                    acknowledged = frame["step"]
                    break
        proc.send_signal(signal.SIGTERM)
        codes = []
        for ws in sockets:
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    ws.recv(timeout=30)
            codes.append(closed.value.rcvd.code if closed.value.rcvd else None)
        assert codes == [1012, 1012]
        proc.wait(timeout=60)
    finally:
        stack.close()
        _stop(proc)
    proc, base = serve_process(db)
    try:
        assert httpx.get(f"{base}/api/tables/{table['id']}").json()["step"] == acknowledged == 6
    finally:
        proc.send_signal(signal.SIGTERM)
        _stop(proc)


def _stop(proc: subprocess.Popen) -> None:
    try:
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()
