"""The designer's studio's API (issue 81): the key, the bounds, cancelling, lines of errors, and
the same numbers from the page's API as from `robotable simulate --json` (and on Ray)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
import re
import signal
import subprocess
import sys
import warnings
from dataclasses import replace
from pathlib import Path

import httpx
import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

from robotable.core.errors import RobotableError
from robotable.server import commands
from robotable.server import studio as studio_module
from robotable.server.app import create_app
from robotable.server.commands import studio_setup
from robotable.server.store import Store
from robotable.server.studio import KEY_COOKIE, KEY_HEADER, StudioSettings, read_key_file
from robotable.server.studio_content import bundled_text
from robotable.server.studio_runs import study_result
from robotable.server.studio_svg import Bar, interval_rows
from robotable.sim.runner import GameResult, RunOutcome, RunSpec, run

from .conftest import TEST_LIMITS, serve_process

KEY = "a-studio-key-for-tests"
CARDS = bundled_text("stakbots", 0)


def make_client(tmp_path: Path, **settings) -> TestClient:
    app = create_app(
        tmp_path / "studio.sqlite3",
        synchronous="NORMAL",
        limits=TEST_LIMITS,
        studio=StudioSettings(workers=2, **settings),
    )
    return TestClient(app)


@pytest.fixture
def client(tmp_path):
    with make_client(tmp_path) as test_client:
        yield test_client


def study(question="fair", games=20, seed=7, cards=CARDS, **extra) -> dict:
    return {
        "game": "stakbots",
        "seats": 2,
        "question": question,
        "level": "random",
        "games": games,
        "seed": seed,
        "a": {"cards": cards, "options": ""},
        **extra,
    }


def follow(client: TestClient, study_id: str, until=None) -> list[dict]:
    """The study's progress frames, to its end (or to the first frame `until` accepts)."""
    frames = []
    with client.websocket_connect(f"/studio/ws/studies/{study_id}") as ws:
        while True:
            frame = ws.receive_json()
            frames.append(frame)
            if until is not None and until(frame):
                return frames
            if frame["state"] in ("done", "cancelled", "failed"):
                return frames


def finished(client: TestClient, body: dict) -> dict:
    created = client.post("/studio/api/studies", json=body)
    assert created.status_code == 201, created.text
    frames = follow(client, created.json()["id"])
    assert frames[-1]["state"] == "done", frames[-1]
    shown = client.get(created.json()["url"].replace("/studio/s/", "/studio/api/studies/"))
    assert shown.status_code == 200
    return shown.json()


# -- on or off, and the key --------------------------------------------------------------------


def test_the_studio_is_off_unless_asked_for(tmp_path):
    app = create_app(tmp_path / "t.sqlite3", synchronous="NORMAL", limits=TEST_LIMITS)
    with TestClient(app) as plain:
        assert plain.get("/studio").status_code == 404
        assert plain.get("/studio/api/setup").status_code == 404
    assert studio_setup(False, "127.0.0.1", None, None) is None


def test_a_public_server_refuses_whoever_lacks_the_key(tmp_path):
    with make_client(tmp_path, key=KEY) as keyed:
        refused = keyed.get("/studio/api/setup")
        assert refused.status_code == 401
        assert refused.json()["error"].startswith("This studio needs its key")
        assert keyed.get("/studio/api/setup", headers={KEY_HEADER: "wrong"}).status_code == 401
        assert keyed.post("/studio/api/studies", json=study()).status_code == 401
        assert keyed.get("/studio/api/setup", headers={KEY_HEADER: KEY}).status_code == 200
        keyed.cookies.set(KEY_COOKIE, KEY)
        assert keyed.get("/studio/api/setup").status_code == 200
        keyed.cookies.clear()
        progress = "/studio/ws/studies/some-study"
        with pytest.raises(WebSocketDisconnect), keyed.websocket_connect(progress) as ws:
            ws.receive_json()


def test_the_key_is_compared_in_constant_time(tmp_path, monkeypatch):
    compared = []
    real = studio_module.hmac.compare_digest

    def spy(a, b):
        compared.append((a, b))
        return real(a, b)

    monkeypatch.setattr(studio_module.hmac, "compare_digest", spy)
    with make_client(tmp_path, key=KEY) as keyed:
        keyed.get("/studio/api/setup", headers={KEY_HEADER: "guess"})
    assert compared == [(b"guess", KEY.encode())]


def test_serve_prints_a_key_on_a_public_bind_and_reads_one_from_a_file(tmp_path, capsys):
    public = studio_setup(True, "0.0.0.0", None, None)
    printed = capsys.readouterr().out.strip().splitlines()
    assert len(printed) == 1 and printed[0].endswith(public.key)
    assert studio_setup(True, "127.0.0.1", None, None).key is None
    key_file = tmp_path / "key.txt"
    key_file.write_text("the-key-from-a-file\n", encoding="utf-8")
    assert studio_setup(True, "0.0.0.0", key_file, "auto").key == "the-key-from-a-file"
    assert capsys.readouterr().out == ""
    key_file.write_text("short", encoding="utf-8")
    with pytest.raises(Exception, match="12 characters or more"):
        read_key_file(key_file)
    with pytest.raises(Exception, match="cannot read it") as missing:
        read_key_file(tmp_path / "none.txt")
    assert "\n" not in str(missing.value)
    with pytest.raises(Exception, match="go with --studio"):
        studio_setup(False, "127.0.0.1", None, "auto")


def test_serve_studio_ray_without_ray_installed_is_one_line_at_start(monkeypatch):
    monkeypatch.setattr(commands.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(RobotableError) as refused:
        studio_setup(True, "127.0.0.1", None, "auto")
    assert str(refused.value) == "--ray: Ray is not installed (pip install 'robotable[sim]')"


# -- the draft's errors at their lines -------------------------------------------------------------


def check(client, cards=CARDS, options=""):
    body = {"game": "stakbots", "seats": 2, "cards": cards, "options": options}
    response = client.post("/studio/api/check", json=body)
    assert response.status_code == 200, response.text
    return response.json()


def test_a_content_error_is_shown_at_its_line_and_field(client):
    good = check(client)
    assert good["error"] is None and len(good["rows"]) > 10
    first = good["rows"][0]
    line = first["fields"]["power"]["line"]
    lines = CARDS.splitlines()
    lines[line - 1] = 'power = "four"'
    error = check(client, "\n".join(lines))["error"]
    assert error["line"] == line and error["field"] == "power" and error["part"] == "cards"
    assert error["message"] == "card 'Core Bot #1': power must be an integer >= 0, got 'four'"
    broken = check(client, CARDS.replace("[[cards]]", "[[cards]", 1))["error"]
    assert broken["line"] == CARDS.splitlines().index("[[cards]]") + 1
    assert broken["message"].startswith("not valid TOML")
    rules = check(client, options="hand_size = 2\nstak_size = 99")["error"]
    assert (rules["part"], rules["line"], rules["field"]) == ("options", 2, "stak_size")


@pytest.mark.parametrize(
    ("game", "seats", "old", "new", "field"),
    [
        ("stakbots", 2, "copies = 2", "copies = 200", "copies"),
        ("breadwinner", 2, "[[chip]]", "[[chips]]", None),
        ("iotabots", 2, 'kind = "trigger"', 'kind = "trigered"', "effects 1, kind"),
        ("betabotz", 3, "min_bid = ", "min_bid = -", "min_bid"),
        ("rumblebots", 2, "tier = 0", "tier = 9", "tier"),
    ],
)
def test_every_game_s_errors_point_at_their_line(client, game, seats, old, new, field):
    cards = bundled_text(game, 0)
    at = cards[: cards.index(old)].count("\n") + 1
    body = {"game": game, "seats": seats, "cards": cards.replace(old, new), "options": ""}
    error = client.post("/studio/api/check", json=body).json()["error"]
    assert (error["line"], error["field"]) == (at, field), error
    assert "inline content" not in error["message"] and "\n" not in error["message"]


def test_a_card_file_is_never_read_from_the_server_disk(client):
    error = check(client, options='cards = "/etc/passwd"')["error"]
    assert error["part"] == "options" and "edit it above" in error["message"]
    refused = client.post("/studio/api/studies", json=study(cards='name = "x"\n'))
    assert refused.status_code == 400
    assert "\n" not in refused.json()["error"] and "Traceback" not in refused.text


# -- the bounds ----------------------------------------------------------------------------------


def test_the_games_of_a_study_are_capped(client):
    over = client.post("/studio/api/studies", json=study(games=2001))
    assert over.status_code == 400
    assert over.json()["error"] == "2001 games is more than a study may play here (at most 2000)"
    pair = client.post(
        "/studio/api/studies",
        json=study("compare", games=1001, b={"cards": CARDS, "options": ""}),
    )
    assert pair.status_code == 400 and "2002 games" in pair.json()["error"]


def test_a_card_set_over_the_size_limit_is_refused(client):
    big = CARDS + "#" * 70_000
    response = client.post("/studio/api/studies", json=study(cards=big))
    assert response.status_code == 400
    assert "\n" not in response.json()["error"]
    json_body = {"content-type": "application/json"}
    hostile = client.post("/studio/api/check", content=b"{not json", headers=json_body)
    assert hostile.status_code == 400 and "\n" not in hostile.json()["error"]
    huge = client.post("/studio/api/studies", content=b"{" + b" " * 500_000, headers=json_body)
    assert huge.status_code == 413 and huge.json()["error"].startswith("the request is too large")


def test_a_key_has_one_study_playing_and_a_bounded_queue(tmp_path):
    with make_client(tmp_path, max_queued=1) as small:
        ids = []
        for _ in range(2):
            created = small.post("/studio/api/studies", json=study(games=2000))
            assert created.status_code == 201, created.text
            ids.append(created.json()["id"])
        third = small.post("/studio/api/studies", json=study(games=20))
        assert third.status_code == 429
        assert third.json()["error"] == (
            "2 studies are already playing or waiting (at most 2); wait for one to finish or "
            "cancel one"
        )
        for study_id in ids:
            small.post(f"/studio/api/studies/{study_id}/cancel", json={})
        for study_id in ids:
            assert follow(small, study_id)[-1]["state"] == "cancelled"


# -- cancelling ------------------------------------------------------------------------------------


def test_cancel_stops_the_run_and_its_workers_exit(client):
    created = client.post("/studio/api/studies", json=study(games=2000)).json()
    frames = follow(client, created["id"], until=lambda f: f["done"] > 0)
    assert frames[-1]["state"] == "running"
    assert multiprocessing.active_children(), "the study plays in worker processes"
    cancelled = client.post(f"/studio/api/studies/{created['id']}/cancel", json={})
    assert cancelled.status_code == 200
    last = follow(client, created["id"])[-1]
    assert last["state"] == "cancelled" and 0 < last["done"] < 2000
    assert multiprocessing.active_children() == []
    stored = client.get(f"/studio/api/studies/{created['id']}").json()
    assert stored["state"] == "cancelled"
    assert stored["verdicts"][0].startswith("Interrupted: this verdict rests on")


# -- the answer, shared, and the same numbers as the command line ----------------------------------


def test_a_study_answers_in_words_then_plots_and_its_link_is_read_only(tmp_path):
    with make_client(tmp_path, key=KEY) as keyed:
        keyed.headers[KEY_HEADER] = KEY
        shown = finished(keyed, study())
        del keyed.headers[KEY_HEADER]
        again = keyed.get(f"/studio/api/studies/{shown['id']}")
        assert again.status_code == 200  # a share link needs no key
        assert keyed.get(shown["url"]).status_code == 200
        assert keyed.post(f"/studio/api/studies/{shown['id']}/cancel", json={}).status_code == 401
    assert any(line.startswith("Moving first is worth") for line in shown["verdicts"])
    assert all("`" not in line and "--" not in line for line in shown["verdicts"])
    assert shown["charts"][0].startswith("<svg") and "Wins by seat" in shown["charts"][0]
    assert shown["inputs"]["sides"][0]["cards"] == CARDS and shown["inputs"]["seed"] == 7


def test_a_against_b_is_paired_and_said_in_words(client):
    lines = CARDS.splitlines()
    changed = "\n".join(
        "power = 9" if i == 15 and line.startswith("power") else line
        for i, line in enumerate(lines)
    )
    shown = finished(client, study("compare", b={"cards": changed, "options": ""}))
    compared = shown["compare"]
    assert compared["first_mover"]["pairs"] == 20
    low, high = compared["first_mover"]["low"], compared["first_mover"]["high"]
    assert low <= compared["first_mover"]["difference"] <= high
    assert shown["verdicts"][0].startswith("The change moved the first mover from")
    assert "A against B" in shown["charts"][0]


def cli_numbers(tmp_path: Path, extra: tuple[str, ...] = ()) -> dict:
    cards = tmp_path / "cards.toml"
    cards.write_text(CARDS, encoding="utf-8")
    command = [sys.executable, "-m", "robotable", "simulate", "stakbots", "-a", "random"]
    command += ["--players", "2", "--games", "20", "--seed", "7", "--quality", "--json"]
    command += ["-o", f"cards={cards}", "--workers", "2", "--errors-dir", str(tmp_path), *extra]
    done = subprocess.run(command, capture_output=True, text=True, check=True, cwd=tmp_path)
    return json.loads(done.stdout)


def test_the_page_and_the_command_line_give_the_same_numbers(client, tmp_path):
    shown = finished(client, study())
    summary = cli_numbers(tmp_path)
    for key, value in shown["numbers"].items():
        assert summary[key] == value, key


def test_on_ray_the_same_study_gives_the_same_numbers(tmp_path):
    pytest.importorskip("ray", reason="Ray is not installed (pip install 'robotable[sim]')")
    with make_client(tmp_path / "local") as local:
        here = finished(local, study())
    with make_client(tmp_path / "ray", ray_address="local") as on_ray:
        there = finished(on_ray, study())
    assert here["numbers"] == there["numbers"]


# -- the estimate, the database, and a server stopped mid-study -----------------------------------


def test_the_page_is_told_how_long_a_study_takes_before_it_runs(client):
    first = client.post("/studio/api/estimate", json=study(games=200))
    assert first.status_code == 200
    assert re.fullmatch(r"about (1 second|\d+ seconds|\d+ minutes)", first.json()["words"])
    more = client.post("/studio/api/estimate", json=study(games=2000)).json()
    assert more["seconds"] > first.json()["seconds"]
    broken = client.post("/studio/api/estimate", json=study(games=2001)).json()
    assert broken == {
        "seconds": None,
        "words": None,
        "error": "2001 games is more than a study may play here (at most 2000)",
    }


def test_studies_are_stored_in_postgresql_too(postgres_url):
    async def round_trip() -> dict | None:
        store = Store(postgres_url)
        try:
            await store.save_study("s1", "stakbots", 2**70, "done", {"games": 20}, {"v": [1]})
            return store.load_study("s1")
        finally:
            store.close()

    stored = asyncio.run(round_trip())
    assert stored is not None
    assert (stored["seed"], stored["state"], stored["inputs"], stored["result"]) == (
        2**70,
        "done",
        {"games": 20},
        {"v": [1]},
    )


def pool_workers_of(pid: int) -> set[int]:
    """The multiprocessing pool workers among a process's children (not its resource tracker)."""
    found = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            with contextlib.suppress(OSError):
                if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes():
                    found.add(int(child))
    return found


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux's /proc")
def test_a_server_stopped_with_sigterm_mid_study_leaves_no_worker(tmp_path):
    websockets_sync = pytest.importorskip("websockets.sync.client")
    proc, base = serve_process(tmp_path / "tables.sqlite3", "--studio")
    try:
        created = httpx.post(base + "/studio/api/studies", json=study(games=2000)).json()
        url = base.replace("http://", "ws://") + f"/studio/ws/studies/{created['id']}"
        with websockets_sync.connect(url) as ws:
            while json.loads(ws.recv())["done"] == 0:
                pass
        workers = pool_workers_of(proc.pid)
        assert workers, "the study plays in worker processes of the server"
        proc.send_signal(signal.SIGTERM)
        # uvicorn shuts down cleanly, then re-raises the signal so a supervisor sees why it ended.
        assert proc.wait(timeout=120) in (0, -signal.SIGTERM, 128 + signal.SIGTERM)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    # The study's pool was terminated and joined before the server exited: no worker is left.
    assert [pid for pid in workers if Path(f"/proc/{pid}").exists()] == []


def test_games_that_stopped_on_an_error_are_said_first_and_left_out():
    spec = RunSpec("stakbots", 2, ("random",), games=3, seed=1)
    failed = [GameResult(0, i, 1, (0, 0), None, 3, 1, 0.1, error="ValueError") for i in range(2)]
    played = run(replace(spec, games=1))
    outcome = RunOutcome(spec, [*played.results, *failed], 1.0, "in-process", 1)
    words = study_result(spec, outcome, "fair")["verdicts"]
    assert words[0] == (
        "2 of 3 games stopped on an error in the rules and are left out of the answer: a card of "
        "this set may do something the game cannot play."
    )
    assert all("ValueError" not in line for line in words)


def test_a_card_name_is_text_in_a_chart_never_markup():
    svg = interval_rows("Cards & <b>", [Bar("<script>x</script>", 0.5, 0.4, 0.6, "+1")], 0, 1)
    assert "<script>" not in svg and "&lt;script&gt;" in svg and "Cards &amp; &lt;b&gt;" in svg
    assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 360 ')
