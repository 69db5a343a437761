"""The web table on PostgreSQL: the same store, API and guarantees as on SQLite, against a real
server the tests start themselves (see postgres_cluster.py)."""

from __future__ import annotations

import contextlib
import json

import httpx
import pytest
from websockets.sync.client import connect

from .conftest import TEST_LIMITS, SeatClient, serve_process
from .test_web_leaks import check_every_frame

pytest.importorskip("psycopg", reason="psycopg is not installed (the [postgres] extra)")

from starlette.testclient import TestClient  # noqa: E402

from robotable import replay_record  # noqa: E402
from robotable.server.app import create_app  # noqa: E402
from robotable.server.store import Store  # noqa: E402

HUMAN = {"kind": "human", "name": "Ada"}
AI = {"kind": "ai", "ai": "random"}


def _app(url: str):
    return create_app(url, ai_delay=0, limits=TEST_LIMITS)


def _play_to_the_end(client: TestClient, table: dict) -> dict:
    me = SeatClient(client, table["id"], table["seats"][0]["token"])
    try:
        while not me.state["view"]["terminal"]:
            view = me.state["view"]
            if view["current_player"] != 0:
                me.until(lambda f: f["type"] in ("update", "state"))
                continue
            me.send({"type": "act", "id": 1, "index": 0, "step": me.state["step"]})
            assert me.until(lambda f: f["type"] in ("ack", "error"))["type"] == "ack"
        return me.state
    finally:
        me.close()


def test_a_whole_game_is_stored_in_postgresql_and_replays(postgres_url):
    body = {"game": "countdown", "num_players": 2, "seats": [HUMAN, AI], "seed": 3}
    with TestClient(_app(postgres_url)) as client:
        table = client.post("/api/tables", json=body).json()
        final = _play_to_the_end(client, table)
        record = client.get(f"/api/tables/{table['id']}/record").json()
    _, state, _ = replay_record(record)
    assert state.is_terminal() and state.returns() == final["view"]["returns"]


def test_a_restart_resumes_every_open_table_from_postgresql(postgres_url):
    body = {"game": "countdown", "num_players": 2, "seats": [HUMAN, HUMAN], "seed": 2}
    with TestClient(_app(postgres_url)) as client:
        table = client.post("/api/tables", json=body).json()
        ada = SeatClient(client, table["id"], table["seats"][0]["token"])
        ada.send({"type": "act", "id": 1, "action": {"type": "take", "count": 2}})
        assert ada.until(lambda f: f["type"] == "ack")["step"] == 1
        ada.send({"type": "chat", "id": 2, "text": "good luck"})
        ada.until(lambda f: f["type"] == "ack")
        ada.close()
    with TestClient(_app(postgres_url)) as client:
        again = SeatClient(client, table["id"], table["seats"][1]["token"])
        assert again.state["step"] == 1 and again.state["view"]["pile"] == 19
        assert [line["text"] for line in again.state["chat"]] == ["good luck"]
        again.close()


def test_undo_and_its_reseed_survive_in_postgresql(postgres_url):
    body = {"game": "countdown", "num_players": 2, "seats": [HUMAN, AI], "seed": 11}
    with TestClient(_app(postgres_url)) as client:
        table = client.post("/api/tables", json=body).json()
        me = SeatClient(client, table["id"], table["seats"][0]["token"])
        for _ in range(3):
            me.send({"type": "act", "id": 1, "index": 0, "step": me.state["step"]})
            me.until(lambda f: f["type"] in ("ack", "error"))
            me.until(
                lambda f: f["type"] in ("update", "state") and f["view"]["current_player"] == 0
            )
        assert me.state["can_undo"]
        before = me.state["step"]
        me.send({"type": "undo", "id": 2})
        assert me.until(lambda f: f["type"] in ("ack", "error"))["type"] == "ack"
        after = me.until(lambda f: f["type"] == "state")["step"]
        me.close()
    assert after < before
    store = Store(postgres_url)
    try:
        row = store.load_table(table["id"])
    finally:
        store.close()
    assert len(row.actions) == after and row.reseeds and row.reseeds[-1]["after"] == after
    assert row.reseeds[-1]["secret"] >= 2**31  # a 64-bit secret survives the round trip


def test_a_killed_server_on_postgresql_loses_no_acknowledged_move(postgres_url):
    """`robotable serve --db postgresql://...`: every acknowledged move is committed before it is
    shown, so kill -9 of the server loses none of them; the next server resumes the table."""
    proc, base = serve_process(postgres_url)
    try:
        body = {"game": "countdown", "num_players": 2, "seats": [HUMAN, HUMAN], "seed": 5}
        table = httpx.post(base + "/api/tables", json=body).json()
        with httpx.Client(base_url=base) as http:
            assert http.get(f"/api/tables/{table['id']}").status_code == 200
        ws_url = base.replace("http://", "ws://") + f"/ws/tables/{table['id']}"
        with connect(ws_url) as ws:
            ws.send(json.dumps({"type": "hello", "token": table["seats"][0]["token"]}))
            ws.send(json.dumps({"type": "act", "id": 1, "action": {"type": "take", "count": 3}}))
            while True:
                frame = json.loads(ws.recv(timeout=30))
                if frame["type"] == "ack":
                    assert frame["step"] == 1
                    break
    finally:
        proc.kill()
        proc.wait(timeout=30)
    proc, base = serve_process(postgres_url)
    try:
        again = httpx.get(base + f"/api/tables/{table['id']}").json()
        assert again["step"] == 1
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _seat_socket(stack: contextlib.ExitStack, base: str, table_id: str, token: str | None):
    ws = stack.enter_context(connect(base.replace("http://", "ws://") + f"/ws/tables/{table_id}"))
    ws.send(json.dumps({"type": "hello", "token": token}))
    return ws


def _next_state(ws, step: int) -> dict:
    """Frames until the table is at `step` or later; returns the last update or state."""
    while True:
        frame = json.loads(ws.recv(timeout=30))
        if frame["type"] in ("state", "update") and frame["step"] >= step:
            return frame


def test_two_server_processes_play_one_table_and_one_may_die(postgres_url):
    """Ada plays through one server process, Bo through another, on one PostgreSQL database:
    each sees the other's moves; then Ada's process is killed and she finishes through Bo's."""
    one, base_one = serve_process(postgres_url)
    two, base_two = serve_process(postgres_url)
    stack = contextlib.ExitStack()
    try:
        body = {
            "game": "countdown",
            "num_players": 2,
            "seed": 4,
            "seats": [HUMAN, {"kind": "human", "name": "Bo"}],
        }
        table = httpx.post(base_one + "/api/tables", json=body).json()
        tokens = [s["token"] for s in table["seats"]]
        ada = _seat_socket(stack, base_one, table["id"], tokens[0])
        bo = _seat_socket(stack, base_two, table["id"], tokens[1])
        frames = [_next_state(ada, 0), _next_state(bo, 0)]
        sockets = [ada, bo]
        step = 0
        for _ in range(4):  # two moves each, alternating between the processes
            view = frames[0]["view"]
            mover = view["current_player"]
            sockets[mover].send(json.dumps({"type": "act", "id": step, "index": 0, "step": step}))
            step += 1
            frames = [_next_state(ada, step), _next_state(bo, step)]
            # Both processes show the same table after every move, whoever made it where.
            assert frames[0]["step"] == frames[1]["step"] == step
            assert frames[0]["view"]["pile"] == frames[1]["view"]["pile"]
        one.kill()
        one.wait(timeout=30)
        ada = _seat_socket(stack, base_two, table["id"], tokens[0])
        state = _next_state(ada, step)
        while not state["view"]["terminal"]:
            mover = state["view"]["current_player"]
            sock = ada if mover == 0 else bo
            sock.send(json.dumps({"type": "act", "id": step, "index": 0, "step": state["step"]}))
            step = state["step"] + 1
            state = _next_state(ada, step)
        record = httpx.get(base_two + f"/api/tables/{table['id']}/record").json()
        _, final, _ = replay_record(record)
        assert final.is_terminal() and len(record["actions"]) == step
    finally:
        stack.close()
        for proc in (one, two):
            if proc.poll() is None:
                proc.terminate()
                proc.wait(timeout=30)


@pytest.mark.parametrize("name", ["stakbots", "iotabots", "betabotz"])
def test_every_frame_holds_only_what_its_seat_may_know_on_postgresql(
    postgres_url, seat_client, new_table, name
):
    """The leak test, on a table stored in PostgreSQL."""
    with TestClient(_app(postgres_url)) as client:
        try:
            check_every_frame(client, seat_client, new_table, name, None)
        finally:
            for seat in list(SeatClient.open):  # before the client stops, or it waits for them
                seat.close()
