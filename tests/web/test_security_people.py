"""Security: what people send each other. Chat is held per seat and per client address (not per
connection), kept short in the database and deleted with a given-up table; names and chat lines
arrive without control characters or bidi overrides (issue 77)."""

from __future__ import annotations

import sqlite3

from starlette.testclient import TestClient

from robotable.server.app import create_app
from robotable.server.limits import ServerLimits
from robotable.server.rooms import (
    CHAT_LINES,
    CHAT_LINES_PER_ADDRESS,
    CHAT_WINDOW,
    ROBOT_NAMES,
    ChatRate,
)
from robotable.server.store import CHAT_KEPT

from .conftest import SeatClient

HUMANS = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}]
BODY = {"game": "countdown", "num_players": 2, "seats": HUMANS}
LIE = "\u202e\x00\x1b[2J"  # an override that mirrors the text after it, NUL, an escape sequence


class Clock:
    """A clock the test moves by hand (no sleeping)."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def _app(tmp_path, clock, **limits):
    limits.setdefault("creates_per_minute", 1_000_000)
    return create_app(
        tmp_path / "t.sqlite3",
        ai_delay=0,
        synchronous="NORMAL",
        limits=ServerLimits(**limits),
        clock=clock,
    )


def _say(seat: SeatClient, text: str, request_id: int) -> dict:
    """Send a chat line; the server's answer to it (an ack, or an error saying why not)."""
    seat.send({"type": "chat", "id": request_id, "text": text})
    return seat.until(lambda f: f["type"] in ("ack", "error") and f.get("id") == request_id)


def _chat_rows(tmp_path, table_id: str) -> list[str]:
    with sqlite3.connect(tmp_path / "t.sqlite3") as db:
        rows = db.execute("SELECT text FROM chat WHERE table_id = ? ORDER BY at", (table_id,))
        return [text for (text,) in rows]


def test_thirty_connections_of_one_seat_are_held_to_the_seats_rate(tmp_path):
    clock = Clock()
    with TestClient(_app(tmp_path, clock, max_watchers=40)) as client:
        table = client.post("/api/tables", json=BODY).json()
        token = table["seats"][0]["token"]
        ada = [SeatClient(client, table["id"], token) for _ in range(30)]
        answers = [_say(conn, f"line {n}", n) for n, conn in enumerate(ada)]
        said = [a for a in answers if a["type"] == "ack"]
        refused = [a["message"] for a in answers if a["type"] == "error"]
        assert len(said) == CHAT_LINES and len(refused) == 30 - CHAT_LINES
        assert (
            refused[0] == f"at most {CHAT_LINES} lines every {CHAT_WINDOW:g} seconds from one seat"
        )
        # Reconnecting does not reset it; time does.
        again = SeatClient(client, table["id"], token)
        assert _say(again, "still here?", 99)["type"] == "error"
        clock.now += CHAT_WINDOW
        assert _say(again, "now", 100)["type"] == "ack"
        assert _chat_rows(tmp_path, table["id"]) == [f"line {n}" for n in range(CHAT_LINES)] + [
            "now"
        ]
        for conn in [*ada, again]:
            conn.close()


def test_one_address_is_held_to_its_rate_across_seats_and_tables(tmp_path):
    clock = Clock()
    with TestClient(_app(tmp_path, clock)) as client:
        seats = []
        for _ in range(3):
            table = client.post("/api/tables", json=BODY).json()
            seats += [SeatClient(client, table["id"], s["token"]) for s in table["seats"]]
        # Six seats, two lines each: no seat reaches its own limit, the address does.
        answers = [_say(seat, "hi", 10 * n + k) for k in range(2) for n, seat in enumerate(seats)]
        assert [a["type"] for a in answers].count("ack") == CHAT_LINES_PER_ADDRESS
        assert answers[-1]["message"].endswith("from one address")
        for seat in seats:
            seat.close()


def test_the_chat_rate_counts_addresses_apart_and_forgets_the_quiet():
    rate = ChatRate()
    for n in range(3):
        assert rate.take(0.0, (("address", "10.0.0.1"), 3, "from one address")) is None
        assert rate.take(0.0, (("address", f"10.0.1.{n}"), 3, "from one address")) is None
    assert rate.take(0.0, (("address", "10.0.0.1"), 3, "from one address")) is not None
    assert rate.take(0.0, (("address", "10.0.0.2"), 3, "from one address")) is None
    # A refused line counts for no key: the seat of a refused address keeps its lines.
    seat = (("seat", "t", "0"), 5, "from one seat")
    assert rate.take(0.0, seat, (("address", "10.0.0.1"), 3, "from one address")) is not None
    assert rate.take(CHAT_WINDOW, (("address", "10.0.0.9"), 1, "from one address")) is None
    assert len(rate._said) == 1  # everyone who was quiet for a whole window is forgotten


def test_a_table_keeps_its_last_lines_and_a_given_up_table_none(tmp_path):
    clock = Clock()
    with TestClient(_app(tmp_path, clock, idle_hours=72)) as client:
        table = client.post("/api/tables", json=BODY).json()
        ada = SeatClient(client, table["id"], table["seats"][0]["token"])
        for n in range(CHAT_KEPT + 7):
            clock.now += CHAT_WINDOW / CHAT_LINES
            assert _say(ada, f"line {n}", n)["type"] == "ack"
        kept = [f"line {n}" for n in range(7, CHAT_KEPT + 7)]
        assert _chat_rows(tmp_path, table["id"]) == kept
        ada.close()
        bo = SeatClient(client, table["id"], table["seats"][1]["token"])
        assert [line["text"] for line in bo.state["chat"]] == kept
        bo.close()
        clock.now += 73 * 3600
        tables = client.app.state.tables
        assert client.portal.call(tables.expire_idle) == [table["id"]]
        assert _chat_rows(tmp_path, table["id"]) == []
        watcher = SeatClient(client, table["id"], None)
        assert watcher.state["chat"] == []
        watcher.close()


def test_names_and_chat_arrive_without_controls_or_overrides(tmp_path):
    clock = Clock()
    with TestClient(_app(tmp_path, clock)) as client:
        seats = [
            {"kind": "human", "name": f"Ada{LIE}"},
            {"kind": "human", "open": True},
        ]
        table = client.post("/api/tables", json={**BODY, "seats": seats}).json()
        assert table["seats"][0]["name"] == "Ada[2J"
        claim = client.post(f"/api/tables/{table['id']}/seats/2/claim", json={"name": f"{LIE}Bo"})
        assert claim.status_code == 201
        ada = SeatClient(client, table["id"], table["seats"][0]["token"])
        bo = SeatClient(client, table["id"], claim.json()["token"])
        names = [s["name"] for s in bo.state["table"]["seats"]]
        assert names == ["Ada[2J", "[2JBo"]
        _say(ada, f"good{LIE} game\u2066\x07", 1)
        assert bo.until(lambda f: f["type"] == "chat")["text"] == "good[2J game"
        assert _chat_rows(tmp_path, table["id"]) == ["good[2J game"]
        # A line of nothing but controls says nothing.
        assert _say(ada, LIE[:2], 2)["message"] == "say something"
        listed = client.get("/api/tables").json()["playing"][0]["seats"]
        assert [s["name"] for s in listed] == names
        ada.close()
        bo.close()


def test_a_name_of_nothing_but_controls_is_the_seats_own_name(tmp_path):
    with TestClient(_app(tmp_path, Clock())) as client:
        seats = [{"kind": "human", "name": "\u202e\x00"}, {"kind": "ai", "name": "\x1b\t"}]
        table = client.post("/api/tables", json={**BODY, "seats": seats}).json()
        player, robot = (s["name"] for s in table["seats"])
        assert player == "Player 1" and robot in ROBOT_NAMES  # a control-only name is no name
