"""The game-night table (issue 79): who is who, whose turn it is, forced choices and the ending.

API tests without a browser first (every AI seat has its own robot name), then Playwright driving
Debian's chromium at a phone's size (390x844) and a desktop's (1280x800): the tab title on your
turn in a hidden tab, the fixed bar on a phone, a forced single choice taken for you and undone,
and an end screen that names the winner. Nothing waits by sleeping: every wait is for a selector
or a condition on the page.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from robotable.server.rooms import ROBOT_NAMES, robot_names

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
HUMAN = {"kind": "human", "name": "Ada"}


def ai(level: str = "easy", **extra) -> dict:
    return {"kind": "ai", "ai": level, **extra}


# -- who is who: robot names (no browser) -----------------------------------------------------------
def test_two_ai_seats_of_one_level_have_their_own_robot_names(client, new_table):
    table = new_table(client, "betabotz", [HUMAN, ai(), ai(), ai("medium")])
    names = [s["name"] for s in table["seats"]]
    assert names[0] == "Ada"
    robots = names[1:]
    assert len(set(robots)) == 3, names
    # A robot's name, not its strength; "Ada" is taken by the person, so no robot is called so.
    assert all(n in ROBOT_NAMES and n != "Ada" for n in robots), names
    seats = client.get(f"/api/tables/{table['id']}").json()["seats"]
    assert [(s["name"], s["ai"]) for s in seats[1:]] == list(
        zip(robots, ["easy", "easy", "medium"])
    )


def test_robot_names_are_kept_when_given_and_follow_a_chosen_seed(client, new_table):
    seats = [HUMAN, ai(name="Marvin"), ai(), ai()]
    first = new_table(client, "betabotz", seats, seed=12345)
    again = new_table(client, "betabotz", seats, seed=12345)
    names = [s["name"] for s in first["seats"]]
    assert names[1] == "Marvin"
    assert names == [s["name"] for s in again["seats"]]
    assert len(set(names)) == 4


def test_the_log_and_the_choices_tell_two_robots_of_one_level_apart(client, seat_client, new_table):
    """The seats' names reach the narration: the log of an AI-only table names each robot."""
    table = new_table(client, "betabotz", [ai("random"), ai("random"), ai("random")])
    names = [s["name"] for s in table["seats"]]
    assert len(set(names)) == 3
    watcher = seat_client(client, table["id"])
    frame = watcher.until(lambda f: f["type"] == "update" and f["step"] >= 6)
    said = " ".join(
        line
        for f in [watcher.state, *watcher.frames]
        for e in f.get("log") or [f.get("entry") or {}]
        for line in (e.get("lines") or [])
    )
    assert frame["step"] >= 6
    assert "AI random" not in said
    assert any(name in said for name in names), said


def test_robot_names_never_repeat_and_avoid_every_given_name():
    seats = [{"kind": "ai"}] * 30
    given = ["", "Bo", "", "echo", *[""] * 26]
    names = robot_names(seats, given, seed=7)
    assert len(names) == 28
    assert len({n.casefold() for n in names} | {"bo", "echo"}) == 30
    assert robot_names(seats, given, seed=7) == names


def test_a_seat_claimed_under_a_name_already_at_the_table_is_refused(client, new_table):
    table = new_table(client, "stakbots", [HUMAN, {"kind": "human", "open": True}])
    refused = client.post(f"/api/tables/{table['id']}/seats/2/claim", json={"name": "ada"})
    assert refused.status_code in (400, 409), refused.text
    assert "already sits at this table" in refused.text
