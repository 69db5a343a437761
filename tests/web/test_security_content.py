"""Security: no request names a server file, and undo never reveals chance (issue: the web table
is safe to open to strangers).

Content options over the web take a bundled name or inline content; the server never touches
the file system for an option value, so a planted file and a missing one get the same answer.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from robotable import load_game
from robotable.core.records import replay_record
from robotable.core.registry import bundled_game_names
from robotable.server.app import create_app

from .conftest import TEST_LIMITS, SeatClient, create_table

HUMAN = {"kind": "human", "name": "Ada"}
AI = {"kind": "ai", "ai": "random"}
SECRET = "ROBOTABLE_SECRET=hunter2"

# Every content option of every bundled game, with a seat count the game accepts.
CONTENT_OPTIONS = [
    (name, spec.name, load_game(name).min_players)
    for name in bundled_game_names()
    for spec in type(load_game(name)).option_specs
    if spec.content
]

_opened: list[str] = []
_watching: list[Path] = []


def _audit(event: str, args: tuple) -> None:
    # An audit hook sees every open() and os.open() in the process, whoever calls it.
    if _watching and event == "open" and isinstance(args[0], str | Path):
        path = str(args[0])
        if any(path.startswith(str(root)) for root in _watching):
            _opened.append(path)


sys.addaudithook(_audit)


@pytest.fixture
def server_dir(tmp_path, monkeypatch):
    """A server started in a folder that holds files a stranger would like to read."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".env").write_text(SECRET + "\n")
    (tmp_path / "notes").write_text(SECRET + "\n")
    (tmp_path / "deck.txt").write_text("20 Tri Bot\n")
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "cards.toml").write_text(f'# {SECRET}\n[[cards]]\nname = "x"\n')
    app = create_app(tmp_path / "t.sqlite3", ai_delay=0, synchronous="NORMAL", limits=TEST_LIMITS)
    with TestClient(app) as client:
        yield tmp_path, client


def _seats(num_players: int) -> list[dict]:
    return [HUMAN] + [AI] * (num_players - 1)


def _create(client, game, players, options):
    body = {"game": game, "num_players": players, "seats": _seats(players), "options": options}
    return client.post("/api/tables", json=body)


def _count(client) -> int:
    return len(client.get("/api/tables").json()["playing"])


@pytest.mark.parametrize(("game", "option", "players"), CONTENT_OPTIONS)
def test_no_option_value_opens_a_server_file(server_dir, game, option, players):
    folder, client = server_dir
    before = _count(client)
    planted = [".env", "notes", "deck.txt", "t.sqlite3", "t.sqlite3-wal", "data/cards.toml"]
    elsewhere = ["/etc/passwd", "../t.sqlite3", str(folder / ".env"), "C:\\boot.ini", "~/.ssh/id"]
    missing = ["nothing-here", "missing.toml", "no/such/file.txt"]
    answers = {}
    _watching.append(folder)
    try:
        for value in planted + elsewhere + missing:
            response = _create(client, game, players, {option: value})
            assert response.status_code == 400, (value, response.text)
            message = response.json()["error"]
            assert "hunter2" not in message and "SQLite" not in message
            assert "\n" not in message and str(folder) not in message
            answers[value] = message
    finally:
        _watching.remove(folder)
    assert _opened == []
    # A stranger learns nothing about the disk: a planted file and a missing one read the same.
    assert len(set(answers.values())) == 1, answers
    assert f"option '{option}'" in answers["notes"]
    assert _count(client) == before


def test_the_database_stays_whole_when_a_request_names_it(tmp_path, monkeypatch):
    """Opening the server's own SQLite file a second time released its locks and lost moves at
    the next restart; now a request naming it is refused before anything is opened."""
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "t.sqlite3"
    with TestClient(create_app(db, ai_delay=0, synchronous="NORMAL", limits=TEST_LIMITS)) as client:
        table = create_table(client, "stakbots", [HUMAN, AI], seed=3)
        for value in ("t.sqlite3", str(db), "./t.sqlite3"):
            assert _create(client, "stakbots", 2, {"cards": value}).status_code == 400
        steps = client.get(f"/api/tables/{table['id']}").json()["step"]
    with TestClient(create_app(db, ai_delay=0, synchronous="NORMAL", limits=TEST_LIMITS)) as client:
        assert client.get(f"/api/tables/{table['id']}").json()["step"] == steps


def test_games_list_the_bundled_content_for_the_lobby(client):
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    options = {o["name"]: o for o in games["iotabots"]["options"]}
    assert options["deck0"]["content"] == "deck"
    assert set(options["deck0"]["bundled"]) == {"assembly_line", "beacon", "heavy_metal", "hijack"}
    assert options["max_turns"]["content"] == ""
    for name, option, _ in CONTENT_OPTIONS:
        listed = {o["name"]: o for o in games[name]["options"]}[option]
        assert listed["content"], (name, option)


def test_a_bundled_name_is_accepted(client):
    response = _create(client, "iotabots", 2, {"deck0": "hijack", "deck1": "beacon"})
    assert response.status_code == 201, response.text


STAK_CARDS = """
[[cards]]
bot = "Core"
power = 1
rank = 1
copies = 30
"""


def test_inline_content_makes_a_table_whose_record_replays(client, seat_client):
    response = _create(client, "stakbots", 2, {"cards": "inline:" + STAK_CARDS})
    assert response.status_code == 201, response.text
    table = response.json()
    me = seat_client(client, table["id"], table["seats"][0]["token"])
    while not _finished(me.state):
        if me.state["view"]["legal_actions"]:
            me.send({"type": "act", "index": 0, "step": me.state["step"]})
        me.until_step(me.state["step"] + 1)
    record = client.get(f"/api/tables/{table['id']}/record").json()
    assert record["options"]["cards"] == "inline:" + STAK_CARDS
    _, state, _ = replay_record(record)
    assert state.is_terminal()


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("[[cards]\nbot=", "not valid TOML"),
        ('[[cards]]\nbot = "Core"\npower = "four"\nrank = 1\n', "power"),
        ('name = "x"\n', "inline content"),
    ],
)
def test_inline_content_that_fails_validation_is_refused(client, text, fragment):
    before = _count(client)
    response = _create(client, "stakbots", 2, {"cards": "inline:" + text})
    assert response.status_code == 400
    message = response.json()["error"]
    assert fragment in message and "\n" not in message
    assert _count(client) == before


def test_oversized_inline_content_is_refused(client):
    response = _create(client, "stakbots", 2, {"cards": "inline:" + "#" * 70_000})
    assert response.status_code == 400
    assert "cards" in response.json()["error"]


def test_other_text_options_stay_short(client):
    response = _create(client, "betabotz", 3, {"bid_amounts": "x" * 500})
    assert response.status_code == 400


def test_command_line_and_library_keep_file_paths(tmp_path):
    path = tmp_path / "deck.toml"
    path.write_text(STAK_CARDS)
    game = load_game("stakbots", cards=str(path))
    assert game.new_initial_state(seed=1).legal_actions()


def _finished(frame: dict) -> bool:
    return bool(frame.get("table") and frame["table"]["finished"])


# -- undo -----------------------------------------------------------------------------------------
def _faces(frame: dict) -> dict | None:
    for event in frame["entry"]["events"]:
        if event.get("type") == "dice_rolled":
            return event["faces"]
    return None


def _play_to_my_roll(me) -> tuple[int, dict, dict]:
    """Play Ada's decisions (ending phases where she can) until one of them rolls the dice."""
    while True:
        if _finished(me.state):
            pytest.fail("the game ended before Ada rolled")
        legal = me.state["view"]["legal_actions"]
        if not legal:
            me.until_step(me.state["step"] + 1)
            continue
        choice = next((a for a in legal if a["action"]["type"] == "end"), legal[0])
        step = me.state["step"] + 1
        me.send({"type": "act", "action": choice["action"], "step": step - 1})
        frame = me.until(lambda f, s=step: f["type"] == "update" and f["step"] == s)
        faces = _faces(frame)
        if faces is not None:
            return step, choice["action"], faces


def test_undo_never_reveals_chance_bread_winner(tmp_path, monkeypatch):
    """After an undo the dice the undone move rolled are drawn afresh (from a stored secret),
    so undo followed by the same move is not a way to see the roll in advance."""
    from robotable.server import rooms

    secrets_given = iter(range(101, 200))
    monkeypatch.setattr(rooms.secrets, "randbits", lambda bits: next(secrets_given))
    db = tmp_path / "t.sqlite3"
    with TestClient(create_app(db, ai_delay=0, synchronous="NORMAL", limits=TEST_LIMITS)) as client:
        table = create_table(
            client, "breadwinner", [HUMAN, AI], seed=11, options={"first_player": "seat0"}
        )
        me = SeatClient(client, table["id"], table["seats"][0]["token"])
        step, action, first = _play_to_my_roll(me)
        rolls = []
        for _ in range(4):
            assert me.state["can_undo"]
            me.send({"type": "undo", "id": 1})
            me.until(lambda f, s=step: f["type"] == "state" and f["step"] == s - 1)
            me.send({"type": "act", "action": action, "step": step - 1})
            frame = me.until(lambda f, s=step: f["type"] == "update" and f["step"] == s)
            rolls.append(_faces(frame))
        assert any(roll != first for roll in rolls), (first, rolls)
        # The table as it is now, not a frame passed over earlier (the AI moves on its own
        # between undos, and those updates wait unread): forget them and ask afresh.
        me._unread.clear()
        me.send({"type": "sync", "id": 9})
        seen = me.until(lambda f: f["type"] == "state")
        me.close()
    # The reseeds are stored: a restart rebuilds exactly the same table.
    with TestClient(create_app(db, ai_delay=0, synchronous="NORMAL", limits=TEST_LIMITS)) as client:
        again = SeatClient(client, table["id"], table["seats"][0]["token"])
        resumed = again.state
        again.close()
    assert resumed["step"] >= step
    if resumed["step"] == seen["step"]:
        assert resumed["view"] == seen["view"]
