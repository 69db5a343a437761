"""`robotable serve` killed with SIGKILL mid-game resumes every table from its database."""

from __future__ import annotations

import json
import signal
from pathlib import Path

import httpx
import pytest

import robotable
from robotable import replay_record

from .conftest import serve_process

websockets_sync = pytest.importorskip("websockets.sync.client")

GAME = "stakbots" if "stakbots" in robotable.game_names() else "countdown"
TESTS = Path(__file__).resolve().parent.parent


class Player:
    def __init__(self, base: str, table_id: str, token: str) -> None:
        url = base.replace("http://", "ws://") + f"/ws/tables/{table_id}"
        self.ws = websockets_sync.connect(url).__enter__()
        self.ws.send(json.dumps({"type": "hello", "token": token}))
        self.state = self.until(lambda f: f["type"] == "state")

    def until(self, predicate) -> dict:
        while True:
            frame = json.loads(self.ws.recv())
            if frame["type"] in ("state", "update"):
                self.state = frame
            if predicate(frame):
                return frame

    def my_turn_or_over(self) -> dict:
        def ready(f: dict) -> bool:
            return f["type"] in ("state", "update") and (
                f["view"]["terminal"] or f["view"]["current_player"] == 0
            )

        return self.state if ready(self.state) else self.until(ready)

    def play_first_legal(self) -> None:
        self.ws.send(json.dumps({"type": "act", "index": 0, "step": self.state["step"]}))
        reply = self.until(lambda f: f["type"] in ("ack", "error"))
        assert reply["type"] == "ack", reply


def test_a_killed_server_resumes_its_tables(tmp_path):
    db = tmp_path / "tables.sqlite3"
    proc, base = serve_process(db)
    try:
        created = httpx.post(
            base + "/api/tables",
            json={
                "game": GAME,
                "num_players": 2,
                "seats": [{"kind": "human"}, {"kind": "ai", "ai": "random"}],
                "seed": 99,
            },
        ).json()
        table_id, token = created["id"], created["seats"][0]["token"]
        me = Player(base, table_id, token)
        for _ in range(3):
            if me.my_turn_or_over()["view"]["terminal"]:
                break
            me.play_first_legal()
        acknowledged = me.state["step"]
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()

    proc, base = serve_process(db)
    try:
        me = Player(base, table_id, token)
        # Every acknowledged move survived the kill.
        assert me.state["step"] >= acknowledged
        while not me.my_turn_or_over()["view"]["terminal"]:
            me.play_first_legal()
        record = httpx.get(f"{base}/api/tables/{table_id}/record")
        assert record.status_code == 200
        _, state, _ = replay_record(record.json())
        assert state.is_terminal()
        assert state.returns() == me.state["view"]["returns"]
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
