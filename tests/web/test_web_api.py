"""HTTP and websocket behaviour of the web table, on the Countdown test game."""

from __future__ import annotations

import json

import pytest

from robotable import replay_record

HUMAN = {"kind": "human"}
AI = {"kind": "ai", "ai": "random"}


def test_pages_and_static_files_are_served_with_a_strict_policy(client):
    for path in ("/", "/table/anything"):
        response = client.get(path)
        assert response.status_code == 200
        assert "<!doctype html>" in response.text.lower()
        policy = response.headers["content-security-policy"]
        assert "default-src 'self'" in policy and "script-src 'self'" in policy
    for asset in ("play.js", "lobby.js", "ui.js", "style.css", "games/generic.js", "favicon.svg"):
        assert client.get(f"/static/{asset}").status_code == 200
    # Nothing the pages load comes from another host.
    for asset in ("/", "/table/x", "/static/play.js", "/static/lobby.js", "/static/style.css"):
        assert "http://" not in client.get(asset).text.replace("http://${", "")
        assert "https://" not in client.get(asset).text


def test_games_are_listed_with_seats_options_and_description(client):
    data = client.get("/api/games").json()
    countdown = next(g for g in data["games"] if g["name"] == "countdown")
    assert (countdown["min_players"], countdown["max_players"]) == (2, 3)
    assert countdown["description"]
    assert countdown["options"][0]["name"] == "pile"
    rumblebots = next(g for g in data["games"] if g["name"] == "rumblebots")
    by_seats = {o["name"]: o["default_by_players"] for o in rumblebots["options"]}
    assert by_seats["first_challengers_scraps"] == {"2": [0, 0, 0, 1]}
    assert by_seats["cards"] == {}
    assert [level["spec"] for level in data["ai_levels"]] == ["easy", "medium", "hard", "expert"]


@pytest.mark.parametrize(
    ("body", "status", "fragment"),
    [
        ({"game": "nope", "num_players": 2, "seats": [HUMAN, AI]}, 400, "unknown game"),
        ({"game": "countdown", "num_players": 5, "seats": [HUMAN] * 5}, 400, "seats"),
        ({"game": "countdown", "num_players": 2, "seats": [HUMAN]}, 400, "seat descriptions"),
        (
            {"game": "countdown", "num_players": 2, "seats": [HUMAN, {"kind": "ai", "ai": "x"}]},
            400,
            "unknown agent",
        ),
        (
            {"game": "countdown", "num_players": 2, "seats": [HUMAN, AI], "options": {"pile": 0}},
            400,
            "pile",
        ),
        (
            {"game": "countdown", "num_players": 2, "seats": [HUMAN, AI], "extra": 1},
            400,
            "extra",
        ),
        (
            {
                "game": "countdown",
                "num_players": 2,
                "seats": [HUMAN, AI],
                "options": {"pile": "/etc/passwd"},
            },
            400,
            "option 'pile'",
        ),
        ({"game": "countdown", "num_players": 2, "seats": "x" * 300_000}, 413, "too large"),
        # Stak Bots' modes the rules do not allow together (SB-11.11, SB-11.13, SB-11.14)
        (
            {"game": "stakbots", "num_players": 2, "seats": [HUMAN, AI], "options": {"drones": 2}},
            400,
            "Drone Mode is solo",
        ),
        (
            {"game": "stakbots", "num_players": 3, "seats": [HUMAN, AI, AI]}
            | {"options": {"preset": "club"}},
            400,
            "club format is a duel",
        ),
        (
            {
                "game": "stakbots",
                "num_players": 2,
                "seats": [HUMAN, AI],
                "options": {"teams": True},
            },
            400,
            "teams need 4 seats",
        ),
    ],
)
def test_bad_table_requests_are_refused_with_a_reason(client, body, status, fragment):
    response = client.post(
        "/api/tables", content=json.dumps(body), headers={"content-type": "application/json"}
    )
    assert response.status_code == status
    assert fragment in response.json()["error"]
    assert "Traceback" not in response.text


def test_a_game_against_the_ai_is_played_stored_and_replayable(client, seat_client, new_table):
    table = new_table(client, "countdown", [HUMAN, AI], seed=11)
    assert client.get(f"/api/tables/{table['id']}/record").status_code == 409
    me = seat_client(client, table["id"], table["seats"][0]["token"])
    assert me.state["you"] == 0 and me.state["table"]["seats"][1]["kind"] == "ai"
    while not me.state["view"]["terminal"]:
        view = me.state["view"]
        if view["current_player"] == 0:
            me.send(
                {"type": "act", "index": len(view["legal_actions"]) - 1, "step": me.state["step"]}
            )
            me.until(lambda f: f["type"] in ("ack", "error"))
            assert me.frames[-1]["type"] == "ack"
        else:
            me.until_step(me.state["step"] + 1)
    final = me.until(lambda f: f["type"] == "state")  # the full log once over
    # Labels stay with the seat that chose (worded for it); everyone reads the narration.
    assert all(bool(entry["label"]) == (entry["seat"] == 0) for entry in final["log"])
    assert all(entry["lines"] for entry in final["log"])
    record = client.get(f"/api/tables/{table['id']}/record")
    assert record.status_code == 200
    assert "attachment" in record.headers["content-disposition"]
    game, state, _ = replay_record(record.json())
    assert state.is_terminal() and state.returns() == final["view"]["returns"]
    listing = client.get("/api/tables").json()
    assert [t["id"] for t in listing["finished"]] == [table["id"]]
    assert listing["finished"][0]["result"]["returns"] == state.returns()


def test_only_the_deciding_seat_may_act(client, seat_client, new_table):
    table = new_table(client, "countdown", [HUMAN, HUMAN], seed=2)
    first = seat_client(client, table["id"], table["seats"][0]["token"])
    second = seat_client(client, table["id"], table["seats"][1]["token"])
    watcher = seat_client(client, table["id"])
    assert watcher.state["you"] is None and watcher.state["view"]["legal_actions"] == []
    assert second.state["view"]["legal_actions"] == []
    second.send({"type": "act", "id": 5, "index": 0})
    refused = second.until(lambda f: f["type"] == "error")
    assert refused["id"] == 5 and "not your decision" in refused["message"]
    watcher.send({"type": "act", "id": 6, "action": {"type": "take", "count": 1}})
    assert "spectators" in watcher.until(lambda f: f["type"] == "error")["message"]
    first.send({"type": "act", "id": 7, "action": {"type": "take", "count": 2}})
    assert first.until(lambda f: f["type"] == "ack")["step"] == 1
    assert second.until_step(1)["view"]["pile"] == 19
    assert watcher.until_step(1)["entry"]["label"] is None  # labels stay with their seat


def test_a_wrong_token_is_refused(client, new_table):
    table = new_table(client, "countdown", [HUMAN, AI])
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        ws.send_json({"type": "hello", "token": "not-a-token"})
        frame = ws.receive_json()
        assert frame["type"] == "error" and "not valid" in frame["message"]
    with client.websocket_connect("/ws/tables/missing") as ws:
        assert ws.receive_json()["message"] == "no such table"


def test_malformed_frames_fail_only_that_request(client, seat_client, new_table):
    table = new_table(client, "countdown", [HUMAN, HUMAN], seed=4)
    me = seat_client(client, table["id"], table["seats"][0]["token"])
    bad = [
        "not json",
        "[1, 2]",
        json.dumps({"type": "fly"}),
        json.dumps({"type": "act", "id": 1}),
        json.dumps({"type": "act", "id": 2, "index": 0, "action": {"type": "take", "count": 1}}),
        json.dumps({"type": "act", "id": 3, "index": 99}),
        json.dumps({"type": "act", "id": 4, "action": {"type": "take", "count": 9}}),
        json.dumps({"type": "act", "id": 5, "action": {"type": "take", "count": "1"}}),
        json.dumps({"type": "act", "id": 6, "action": {"type": "warp"}}),
        json.dumps({"type": "act", "id": 7, "index": 0, "step": 3}),
        json.dumps({"type": "act", "id": 8, "index": 0, "surprise": True}),
        json.dumps({"type": "hello", "token": None}),
        json.dumps(
            {"type": "act", "id": 9, "action": {"type": "take", "count": 1}, "pad": "x" * 20000}
        ),
    ]
    for text in bad:
        me.ws.send_text(text)
        frame = me.until(lambda f: f["type"] == "error")
        assert frame["message"] and "Traceback" not in frame["message"]
    me.send({"type": "act", "id": 10, "index": 0, "step": 0})
    assert me.until(lambda f: f["type"] == "ack") == {"type": "ack", "id": 10, "step": 1}
    me.send({"type": "sync", "id": 11})
    assert me.until(lambda f: f["type"] == "state")["step"] == 1


def test_undo_takes_back_my_move_and_the_ai_reply(client, seat_client, new_table):
    table = new_table(client, "countdown", [HUMAN, AI], seed=5)
    me = seat_client(client, table["id"], table["seats"][0]["token"])
    assert me.state["can_undo"] is False
    me.send({"type": "act", "index": 0, "step": 0})
    me.until_step(2)  # my move, then the AI's reply
    assert me.state["can_undo"] is True
    me.send({"type": "undo", "id": 1})
    assert me.until(lambda f: f["type"] == "state")["step"] == 0
    assert me.state["view"]["pile"] == 21 and me.state["log"] == []
    assert me.until(lambda f: f["type"] == "ack" and f["id"] == 1)["step"] == 0
    # Stored too: the table reloads with no actions.
    assert client.get(f"/api/tables/{table['id']}").json()["step"] == 0


def test_undo_is_refused_when_another_person_plays(client, seat_client, new_table):
    table = new_table(client, "countdown", [HUMAN, HUMAN], seed=5)
    me = seat_client(client, table["id"], table["seats"][0]["token"])
    me.send({"type": "act", "index": 0, "step": 0})
    me.until_step(1)
    assert me.state["can_undo"] is False
    me.send({"type": "undo", "id": 3})
    assert "undo is only" in me.until(lambda f: f["type"] == "error")["message"]


def test_ai_versus_ai_tables_play_themselves(client, seat_client, new_table):
    table = new_table(client, "countdown", [AI, {"kind": "ai", "ai": "mcts:20"}], seed=8)
    assert all("token" not in s for s in table["seats"])
    watcher = seat_client(client, table["id"])
    watcher.until(lambda f: f["type"] in ("state", "update") and f["view"]["terminal"])
    assert client.get(f"/api/tables/{table['id']}/record").status_code == 200


def test_option_values_keep_their_json_types(client):
    from robotable.server.schemas import CreateTable

    spec = CreateTable.model_validate(
        {
            "game": "g",
            "num_players": 2,
            "seats": [HUMAN, AI],
            "options": {"a": True, "b": 1, "c": 0.5, "d": "x", "e": [1, "y"]},
        }
    )
    assert spec.options == {"a": True, "b": 1, "c": 0.5, "d": "x", "e": [1, "y"]}
    assert type(spec.options["a"]) is bool and type(spec.options["b"]) is int


def test_a_watcher_that_does_not_read_is_dropped_not_waited_for():
    import asyncio

    from robotable.server.connections import OUTBOX_LIMIT, Watcher

    async def scenario() -> list[str]:
        sent: list[str] = []

        async def send(frame: str) -> None:
            sent.append(frame)

        watcher = Watcher(0, send)
        for i in range(OUTBOX_LIMIT + 5):
            watcher.push(f"frame {i}")
        await watcher.pump()  # returns: the overflow told it to stop
        return sent

    assert asyncio.run(scenario()) == []


def test_the_log_is_narrated_for_each_reader(client, seat_client, new_table):
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}]
    table = new_table(client, "countdown", seats, seed=2)
    ada = seat_client(client, table["id"], table["seats"][0]["token"])
    watcher = seat_client(client, table["id"])
    ada.send({"type": "act", "id": 1, "action": {"type": "take", "count": 2}})
    mine = ada.until_step(1)["entry"]
    theirs = watcher.until_step(1)["entry"]
    assert mine["label"] == "take 2" and theirs["label"] is None
    assert any(line.startswith("You") for line in mine["lines"])
    assert theirs["lines"] and all("Ada" in line for line in theirs["lines"])
    assert not any("you" in line.lower().split() for line in theirs["lines"])


def test_each_game_has_its_guide_for_the_play_page(client):
    guide = client.get("/api/games/stakbots/guide").json()
    assert guide["title"] == "Stak Bots" and "<h2>" in guide["html"]
    assert "<script" not in guide["html"]
    assert client.get("/api/games/nope/guide").status_code == 404


def test_what_happened_before_the_first_move_is_told(client, seat_client, new_table):
    """Bread Winner's first player rolls while the table is set: the roll is in the frame."""
    table = new_table(client, "breadwinner", [HUMAN, AI], seed=3)
    me = seat_client(client, table["id"], table["seats"][0]["token"])
    assert any("roll" in line for line in me.state["opening"])


def test_sb_11_14_drone_mode_is_played_by_one_person_at_a_web_table(client, seat_client, new_table):
    """Stak Bots' solo Drone Mode: a one-seat table, the Drone's turns played by the server."""
    table = new_table(client, "stakbots", [HUMAN], seed=4, options={"drones": 1})
    me = seat_client(client, table["id"], table["seats"][0]["token"])
    view = me.state["view"]
    assert view["drone"]["staks"][0]["size"] == 9 and view["num_players"] == 1
    turns = set()
    while not me.state["view"]["terminal"]:
        view = me.state["view"]
        assert view["current_player"] == 0  # the Drone never waits for anyone
        end = [a for a in view["legal_actions"] if a["action"]["type"] == "end_turn"]
        pick = end[0] if end else view["legal_actions"][0]
        me.send({"type": "act", "index": pick["index"], "step": me.state["step"]})
        me.until(lambda f: f["type"] in ("ack", "error"))
        assert me.frames[-1]["type"] == "ack"
        turns.add(me.state["view"]["turn"])
    final = me.until(lambda f: f["type"] == "state")
    lines = " ".join(line for entry in final["log"] for line in entry["lines"])
    assert "Drone's turn" in lines and len(turns) > 2


def test_a_server_that_stops_closes_every_database_connection(tmp_path, new_table):
    """SQLite keeps its -wal and -shm files while any connection is open: after the lifespan
    ends (SIGTERM, Ctrl-C) none is left, the readers of the request threads included."""
    from starlette.testclient import TestClient

    from robotable.server.app import create_app

    db = tmp_path / "tables.sqlite3"
    with TestClient(create_app(db, ai_delay=0, synchronous="NORMAL")) as client:
        table = new_table(client, "countdown", [HUMAN, AI], seed=3)
        assert client.get(f"/api/tables/{table['id']}").status_code == 200
        assert (tmp_path / "tables.sqlite3-wal").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tables.sqlite3"]


def test_a_refused_request_says_why_without_the_validator_s_prefix(client):
    """pydantic words a validator's sentence as "Value error, ..."; the answer is the sentence."""
    response = client.post("/api/tables", json={"game": "stakbots"})
    assert response.status_code == 400
    why = response.json()["error"]
    assert why.startswith("give num_players and seats") and "Value error" not in why
