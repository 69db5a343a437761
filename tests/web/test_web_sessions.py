"""Game nights: chat at a table, a rematch for everyone in one click, who is watching."""

from __future__ import annotations

from starlette.testclient import TestClient

from robotable.server.app import create_app
from robotable.server.limits import ServerLimits

from .conftest import SeatClient

HUMANS = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}]
BODY = {"game": "countdown", "num_players": 2, "seats": HUMANS, "seed": 1}


def _two_players(client):
    table = client.post("/api/tables", json=BODY).json()
    ada = SeatClient(client, table["id"], table["seats"][0]["token"])
    bo = SeatClient(client, table["id"], table["seats"][1]["token"])
    return table, ada, bo


def _play_to_the_end(ada, bo):
    while not (ada.state.get("table") or {}).get("finished"):
        mover = ada if ada.state["view"]["legal_actions"] else bo
        step = mover.state["step"]
        mover.send({"type": "act", "index": 0, "step": step})
        ada.until_step(step + 1)
        bo.until_step(step + 1)


def test_chat_reaches_everyone_at_the_table_and_is_kept(client):
    table, ada, bo = _two_players(client)
    ada.send({"type": "chat", "id": 1, "text": "  good   luck <b>Bo</b>  "})
    line = bo.until(lambda f: f["type"] == "chat")
    assert (line["seat"], line["text"]) == (0, "good luck <b>Bo</b>")  # the page shows it as text
    assert ada.until(lambda f: f["type"] == "chat")["text"] == line["text"]
    watcher = SeatClient(client, table["id"], None)
    assert [c["text"] for c in watcher.state["chat"]] == ["good luck <b>Bo</b>"]
    # Spectators read; they do not write. Nothing of it goes into the game record.
    watcher.send({"type": "chat", "id": 2, "text": "hello"})
    assert "spectators read" in watcher.until(lambda f: f["type"] == "error")["message"]
    _play_to_the_end(ada, bo)
    record = client.get(f"/api/tables/{table['id']}/record").json()
    assert "chat" not in record and "good luck" not in str(record)
    for seat in (ada, bo, watcher):
        seat.close()


def test_chat_is_short_and_not_a_flood(client):
    _, ada, bo = _two_players(client)
    ada.send({"type": "chat", "id": 1, "text": "x" * 201})
    assert "200 characters" in ada.until(lambda f: f["type"] == "error")["message"]
    for n in range(5):
        ada.send({"type": "chat", "id": 10 + n, "text": f"line {n}"})
    ada.send({"type": "chat", "id": 20, "text": "one too many"})
    assert "at most 5 lines" in ada.until(lambda f: f["type"] == "error")["message"]
    ada.close()
    bo.close()


def test_chat_survives_a_restart(tmp_path):
    limits = ServerLimits(creates_per_minute=1000)
    db = tmp_path / "t.sqlite3"
    with TestClient(create_app(db, ai_delay=0, limits=limits)) as client:
        table, ada, bo = _two_players(client)
        ada.send({"type": "chat", "id": 1, "text": "back in five"})
        bo.until(lambda f: f["type"] == "chat")
        ada.close()
        bo.close()
    with TestClient(create_app(db, ai_delay=0, limits=limits)) as client:
        again = SeatClient(client, table["id"], table["seats"][1]["token"])
        assert [c["text"] for c in again.state["chat"]] == ["back in five"]
        again.close()


def test_rematch_moves_everyone_to_one_new_table_with_the_next_first_player(client):
    table, ada, bo = _two_players(client)
    ada.send({"type": "rematch", "id": 1})
    assert "when the game is over" in ada.until(lambda f: f["type"] == "error")["message"]
    _play_to_the_end(ada, bo)
    ada.send({"type": "rematch", "id": 2})
    new_id = ada.until(lambda f: f["type"] == "rematch")["table"]
    assert bo.until(lambda f: f["type"] == "rematch")["table"] == new_id
    bo.send({"type": "rematch", "id": 3})  # a second click finds the same table
    assert bo.until(lambda f: f["type"] == "ack" and f["id"] == 3)["table"] == new_id
    meta = client.get(f"/api/tables/{new_id}").json()
    assert [s["name"] for s in meta["seats"]] == ["Bo", "Ada"]  # Bo now goes first
    assert client.get(f"/api/tables/{table['id']}").json()["rematch"] == new_id
    # Everyone's link works at the new table, in their new seat.
    ada_again = SeatClient(client, new_id, table["seats"][0]["token"])
    assert ada_again.state["you"] == 1
    for seat in (ada, bo, ada_again):
        seat.close()


def test_spectators_are_counted(client):
    table, ada, bo = _two_players(client)
    watchers = [SeatClient(client, table["id"], None) for _ in range(2)]
    frame = ada.until(lambda f: f["type"] == "seats" and f["table"]["spectators"] == 2)
    assert frame["table"]["spectators"] == 2
    for seat in (ada, bo, *watchers):
        seat.close()


def test_a_clock_moves_for_a_person_whose_time_runs_out(client):
    body = {**BODY, "clock": {"mode": "move", "seconds": 1}}
    table = client.post("/api/tables", json=body).json()
    ada = SeatClient(client, table["id"], table["seats"][0]["token"])
    bo = SeatClient(client, table["id"], table["seats"][1]["token"])
    assert ada.state["clock"]["seat"] == 0 and ada.state["clock"]["remaining"] <= 1
    # Ada does nothing: after her second the table plays for her, and everyone sees why.
    frame = bo.until(lambda f: f["type"] == "update")
    assert frame["entry"]["seat"] == 0 and frame["entry"]["timeout"] is True
    assert frame["clock"]["seat"] == 1 and frame["clock"]["remaining"] == 1
    # Bo's own clock runs now; he moves in time.
    bo.send({"type": "act", "index": 0, "step": 1})
    mine = bo.until(lambda f: f["type"] == "update" and f["step"] == 2)
    assert mine["entry"]["timeout"] is False
    ada.close()
    bo.close()


def test_a_game_clock_spends_each_players_bank(client):
    body = {**BODY, "clock": {"mode": "game", "seconds": 600}}
    table = client.post("/api/tables", json=body).json()
    ada = SeatClient(client, table["id"], table["seats"][0]["token"])
    ada.send({"type": "act", "index": 0, "step": 0})
    banks = ada.until(lambda f: f["type"] == "update")["clock"]["banks"]
    assert banks[0] <= 600 and banks[1] == 600
    stored = client.app.state.tables.store.load_table(table["id"]).clock
    assert stored["mode"] == "game" and stored["banks"][1] == 600
    ada.close()


def test_a_clock_is_checked_at_creation(client):
    for clock in ({"mode": "hour", "seconds": 5}, {"mode": "move", "seconds": 0.1}):
        response = client.post("/api/tables", json={**BODY, "clock": clock})
        assert response.status_code == 400 and "clock" in response.json()["error"]


def test_an_open_seat_is_taken_once_from_the_lobby(client):
    seats = [HUMANS[0], {"kind": "human", "open": True}]
    # No seed: a chosen seed is only for a table whose every seat its creator holds.
    body = {key: value for key, value in BODY.items() if key != "seed"}
    table = client.post("/api/tables", json={**body, "seats": seats}).json()
    assert table["seats"][1]["open"] is True and "token" not in table["seats"][1]
    listed = next(t for t in client.get("/api/tables").json()["playing"] if t["id"] == table["id"])
    assert [s["open"] for s in listed["seats"]] == [False, True]
    ada = SeatClient(client, table["id"], table["seats"][0]["token"])
    claim = f"/api/tables/{table['id']}/seats/2/claim"
    taken = client.post(claim, json={"name": "Cy"})
    assert taken.status_code == 201
    ada.until(lambda f: f["type"] == "seats" and f["table"]["seats"][1]["name"] == "Cy")
    again = client.post(claim, json={"name": "Dee"})
    assert again.status_code == 409 and "not open" in again.json()["error"]
    assert client.post(f"/api/tables/{table['id']}/seats/1/claim", json={}).status_code == 409
    cy = SeatClient(client, table["id"], taken.json()["token"])
    assert cy.state["you"] == 1
    listed = next(t for t in client.get("/api/tables").json()["playing"] if t["id"] == table["id"])
    assert not any(s["open"] for s in listed["seats"])
    ada.close()
    cy.close()


def test_a_hint_names_the_hard_ais_choices_for_the_deciding_seat(client):
    table = client.post("/api/tables", json=BODY).json()
    ada = SeatClient(client, table["id"], table["seats"][0]["token"])
    bo = SeatClient(client, table["id"], table["seats"][1]["token"])
    watcher = SeatClient(client, table["id"], None)
    assert ada.state["table"]["hints"] is True
    ada.send({"type": "hint", "id": 3})
    hint = ada.until(lambda f: f["type"] in ("hint", "error"))
    assert hint["type"] == "hint" and hint["id"] == 3 and hint["step"] == 0
    legal = ada.state["view"]["legal_actions"]
    assert 1 <= len(hint["options"]) <= 3
    for option in hint["options"]:
        assert option["label"] == legal[option["index"]]["label"]
        assert 0.0 <= option["chance"] <= 1.0
    bo.send({"type": "hint", "id": 4})
    assert "your own decision" in bo.until(lambda f: f["type"] == "error")["message"]
    watcher.send({"type": "hint", "id": 5})
    assert "only a player" in watcher.until(lambda f: f["type"] == "error")["message"]
    for seat in (ada, bo, watcher):
        seat.close()


def test_a_timed_table_or_one_opened_without_hints_gives_none(client):
    for extra in ({"clock": {"mode": "move", "seconds": 60}}, {"hints": False}):
        table = client.post("/api/tables", json={**BODY, **extra}).json()
        ada = SeatClient(client, table["id"], table["seats"][0]["token"])
        assert ada.state["table"]["hints"] is False
        ada.send({"type": "hint", "id": 1})
        assert "without hints" in ada.until(lambda f: f["type"] == "error")["message"]
        ada.close()


def _store_rumblebots_table_as_version(tmp_path, version: str) -> tuple[dict, object]:
    """A Rumblebots table stored as if made by a robotable of rules `version`."""
    import sqlite3

    limits = ServerLimits(creates_per_minute=1000)
    db = tmp_path / "t.sqlite3"
    body = {"game": "rumblebots", "num_players": 2, "seats": HUMANS, "seed": 3}
    with TestClient(create_app(db, ai_delay=0, limits=limits)) as client:
        table = client.post("/api/tables", json=body).json()
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE tables SET version = ? WHERE id = ?", (version, table["id"]))
    conn.close()
    return table, create_app(db, ai_delay=0, limits=limits)


def test_rb_1_1_a_table_stored_with_version_1_resumes_with_version_1s_cards(tmp_path):
    table, app = _store_rumblebots_table_as_version(tmp_path, "1")
    with TestClient(app) as client:
        live = client.app.state.tables.live[table["id"]]
        assert live.game.version == "1"
        costs = {card.name: card.cost for card in live.game.content.cards}
        assert costs["Rust Rooster"] == 2
        # And it plays on.
        ada = SeatClient(client, table["id"], table["seats"][0]["token"])
        bo = SeatClient(client, table["id"], table["seats"][1]["token"])
        mover = ada if ada.state["view"]["legal_actions"] else bo
        mover.send({"type": "act", "index": 0, "step": 0})
        assert mover.until_step(1)["step"] == 1
        ada.close()
        bo.close()


def test_a_table_of_an_unknown_rules_version_is_kept_not_resumed(tmp_path):
    table, app = _store_rumblebots_table_as_version(tmp_path, "0")
    with TestClient(app) as client:
        assert table["id"] not in client.app.state.tables.live
        assert client.app.state.tables.store.load_table(table["id"]).version == "0"
