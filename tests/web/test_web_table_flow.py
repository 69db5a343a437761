"""The game-night table (issue 79): who is who, whose turn it is, forced choices and the ending.

API tests without a browser first (every AI seat has its own robot name), then Playwright driving
Debian's chromium at a phone's size (390x844) and a desktop's (1280x800): the tab title on your
turn in a hidden tab, the fixed bar on a phone, a forced single choice taken for you and undone,
and an end screen that names the winner. Nothing waits by sleeping: every wait is for a selector
or a condition on the page.
"""

from __future__ import annotations

import re

import httpx
import pytest

from robotable import replay_record
from robotable.server.rooms import ROBOT_NAMES, robot_names

from .browser_setup import (
    DESKTOP,
    PHONE,
    READY,
    SIZES,
    have_chromium,
    launch_browser,
    new_context,
    watch_errors,
)

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


# -- in the browser ---------------------------------------------------------------------------------
browser_only = pytest.mark.skipif(not have_chromium(), reason="no chromium at /usr/bin/chromium")
# Hidden or shown on demand: the page reads document.visibilityState and document.hidden, which a
# test sets through window.__visibility (set before the page's own scripts run); a call to
# Notification.requestPermission is counted, since only a button may ask for it.
VISIBILITY = """
(() => {
  window.__visibility = window.__visibility || "visible";
  Object.defineProperty(Document.prototype, "visibilityState",
    { configurable: true, get() { return window.__visibility; } });
  Object.defineProperty(Document.prototype, "hidden",
    { configurable: true, get() { return window.__visibility === "hidden"; } });
  window.__permissionAsked = 0;
  if (window.Notification) {
    const ask = Notification.requestPermission.bind(Notification);
    Notification.requestPermission = (...args) => { window.__permissionAsked += 1; return ask(...args); };
  }
})();
"""
STEP_IS = "(step) => document.body.dataset.step === String(step)"
YOUR_TURN = "() => /your turn/i.test(document.title)"
NOT_YOUR_TURN = "() => !/your turn/i.test(document.title)"
ICON = "() => (document.querySelector('link[rel~=icon]') || {}).href || ''"


@pytest.fixture(scope="module")
def browser():
    yield from launch_browser()


@pytest.fixture
def open_page(browser):
    """`open_page(url, size)`: a page in its own context, checked for javascript errors."""
    contexts = []
    errors: list[str] = []

    def open_(url: str, size: dict, hidden: bool = False):
        context = new_context(browser, size)
        contexts.append(context)
        context.add_init_script(("window.__visibility = 'hidden';" if hidden else "") + VISIBILITY)
        page = context.new_page()
        watch_errors(page, errors)
        page.goto(url)
        return page

    yield open_
    for context in contexts:
        context.close()
    assert errors == [], f"javascript errors on the page: {errors}"


def set_visibility(page, state: str) -> None:
    page.evaluate(
        "(state) => { window.__visibility = state;"
        " document.dispatchEvent(new Event('visibilitychange')); }",
        state,
    )


def api_table(base: str, game: str, seats: list[dict], seed: int | None = None) -> dict:
    body = {"game": game, "num_players": len(seats), "seats": seats}
    if seed is not None:
        body["seed"] = seed
    response = httpx.post(base + "/api/tables", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def seat_url(base: str, created: dict, seat: int = 0) -> str:
    return base + created["seats"][seat]["join_url"]


def click_index(page, index: int | None) -> None:
    """Choose legal action `index` (None: the last one offered) by its control and wait until
    the page has sent it."""
    step = page.evaluate("document.body.dataset.step")
    if index is None:
        index = page.evaluate(
            "Math.max(...[...document.querySelectorAll('[data-action-index]')]"
            ".map((e) => Number(e.dataset.actionIndex)))"
        )
    page.click(f'[data-action-index="{index}"]:visible >> nth=0')
    page.wait_for_function(
        "(step) => document.body.dataset.step !== step || document.body.dataset.pending !== 'true'",
        arg=step,
    )


def in_view(page, selector: str) -> bool:
    """Some element matching `selector` lies inside the viewport with nothing covering its
    middle: it can be read and clicked where the page is scrolled to."""
    return page.evaluate(
        """(selector) => [...document.querySelectorAll(selector)].some((el) => {
          const r = el.getBoundingClientRect();
          if (r.width === 0 || r.height === 0 || r.top < 0 || r.bottom > window.innerHeight
              || r.left < 0 || r.left + r.width / 2 > window.innerWidth) return false;
          const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return hit !== null && (el === hit || el.contains(hit));
        })""",
        selector,
    )


@browser_only
@pytest.mark.browser
@pytest.mark.parametrize("size", SIZES)
def test_the_tab_title_and_icon_say_your_turn_in_a_hidden_tab(live_server, open_page, size):
    """Ada waits in a hidden tab while Bo plays in front: her tab's title and icon say it is her
    turn when Bo's move makes it hers, and go back while it is not; no permission to notify is
    asked for on load."""
    base = live_server.url
    # Stak Bots, seed 1, each choosing the last action offered: Ada attacks and ends her turn,
    # Bo the same, and it is Ada's again; nobody meets a forced choice on the way.
    created = api_table(base, "stakbots", [HUMAN, {"kind": "human", "name": "Bo"}], seed=1)
    ada = open_page(seat_url(base, created, 0), SIZES[size], hidden=True)
    bo = open_page(seat_url(base, created, 1), SIZES[size])
    ada.wait_for_function(READY)
    ada.wait_for_function(YOUR_TURN)
    assert "Stak Bots" in ada.title()
    assert ada.evaluate(ICON).startswith("data:")
    assert ada.evaluate("window.__permissionAsked") == 0
    # Ada moves (from her tab), until it is Bo's decision: her title is the table's again.
    while ada.evaluate("document.body.dataset.deciding") == "true":
        click_index(ada, None)
        ada.wait_for_function(READY + " || document.body.dataset.deciding === 'false'")
    ada.wait_for_function(NOT_YOUR_TURN)
    assert not ada.evaluate(ICON).startswith("data:")
    assert "Stak Bots" in ada.title()
    # Bo moves in front until it is Ada's decision again: her hidden tab says so.
    bo.wait_for_function(READY)
    while bo.evaluate("document.body.dataset.deciding") == "true":
        click_index(bo, None)
        bo.wait_for_function(READY + " || document.body.dataset.deciding === 'false'")
    ada.wait_for_function(YOUR_TURN)
    assert ada.evaluate(ICON).startswith("data:")
    set_visibility(ada, "visible")
    assert ada.evaluate("window.__permissionAsked") == 0


@browser_only
@pytest.mark.browser
def test_on_a_phone_the_bar_holds_status_choices_hint_and_undo(live_server, open_page):
    """At 390x844 a Stak Bots page is taller than the screen; scrolled to its foot or its head,
    the status, a choice, Hint and Undo stay on screen, so acting needs no scrolling."""
    base = live_server.url
    # Stak Bots, seed 9: Ada's first play (Leader Bot) draws nothing, so Undo may take it back.
    created = api_table(base, "stakbots", [HUMAN, ai("random")], seed=9)
    page = open_page(seat_url(base, created), PHONE)
    page.wait_for_function(READY)
    click_index(page, 0)  # one move made: Undo has something to take back
    page.wait_for_function(READY)
    page.wait_for_selector("#undo:not([disabled])")
    assert page.evaluate("document.documentElement.scrollHeight") > PHONE["height"]
    for where in ("document.documentElement.scrollHeight", "0"):
        page.evaluate(f"window.scrollTo(0, {where})")
        page.wait_for_function(
            f"() => Math.abs(window.scrollY - Math.min({where}, "
            "document.documentElement.scrollHeight - window.innerHeight)) < 2"
        )
        for selector in ("#status", "#hint", "#undo", "[data-action-index]"):
            assert in_view(page, selector), f"{selector} is off screen (scrolled to {where})"
    # The bar's choice is a working control: choosing from it plays.
    step = int(page.evaluate("document.body.dataset.step"))
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    click_index(page, 0)
    page.wait_for_function("(step) => Number(document.body.dataset.step) > step", arg=step)


@browser_only
@pytest.mark.browser
def test_two_ai_seats_of_one_level_read_apart_at_the_table(live_server, open_page):
    base = live_server.url
    created = api_table(base, "betabotz", [HUMAN, ai(), ai()])
    page = open_page(seat_url(base, created), PHONE)
    page.wait_for_selector(".seat-chip[data-seat='2']")
    chips = [page.inner_text(f".seat-chip[data-seat='{i}']") for i in (1, 2)]
    assert chips[0] != chips[1], chips
    assert all("easy" in chip and "AI easy" not in chip for chip in chips), chips


# Stak Bots, seed 2, Ada against a random robot: she plays legal action 0 (Begone Bot), whose
# entry effect leaves her one choice (its target); that forced choice is taken for her.
FORCED_SEED = 2


@browser_only
@pytest.mark.browser
@pytest.mark.parametrize("size", SIZES)
def test_a_forced_single_choice_is_taken_for_you_and_can_be_undone(live_server, open_page, size):
    base = live_server.url
    created = api_table(base, "stakbots", [HUMAN, ai("random")], seed=FORCED_SEED)
    page = open_page(seat_url(base, created), SIZES[size])
    page.wait_for_function(READY)
    setting = page.get_by_label("Take forced moves for me")
    assert setting.is_checked()  # on by default
    click_index(page, 0)
    # Nobody clicks again: the forced choice (step 1) is sent by the page, and it is Ada's move.
    page.wait_for_function("() => document.querySelectorAll('#log > li.mine').length >= 2")
    assert page.evaluate("Number(document.body.dataset.step)") >= 2
    # Undo takes the automatic move back like any other.
    page.wait_for_function(READY)
    page.click("#undo:not([disabled])")
    page.wait_for_function(
        "() => document.querySelectorAll('#log > li.mine').length === 1 "
        "&& document.body.dataset.step === '1'"
    )


@browser_only
@pytest.mark.browser
def test_the_forced_move_setting_is_remembered(live_server, open_page):
    base = live_server.url
    created = api_table(base, "stakbots", [HUMAN, ai("random")], seed=FORCED_SEED)
    page = open_page(seat_url(base, created), DESKTOP)
    page.wait_for_function(READY)
    page.get_by_label("Take forced moves for me").uncheck()
    page.reload()
    page.wait_for_function(READY)
    assert not page.get_by_label("Take forced moves for me").is_checked()
    # Off: the forced choice waits for Ada's click.
    click_index(page, 0)
    page.wait_for_function(READY + " && document.body.dataset.step === '1'")
    assert page.evaluate("document.querySelectorAll('[data-action-index]').length") >= 1
    click_index(page, 0)
    page.wait_for_function("() => Number(document.body.dataset.step) >= 2")


def _names(base: str, table_id: str) -> list[str]:
    return [s["name"] for s in httpx.get(f"{base}/api/tables/{table_id}").json()["seats"]]


def _result_sentence(base: str, table_id: str, viewer: int | None) -> str:
    record = httpx.get(f"{base}/api/tables/{table_id}/record").json()
    game, state, _ = replay_record(record)
    assert state.is_terminal()
    return game.result_sentence(state, viewer, _names(base, table_id))


# Stak Bots, seed 94: Ada choosing legal action 0 every time ends the game in 12 moves, with no
# forced choice on the way; her robot opponent wins.
END_SEED = 94


@browser_only
@pytest.mark.browser
@pytest.mark.parametrize("size", SIZES)
def test_the_end_screen_says_who_won_in_words(live_server, open_page, size):
    base = live_server.url
    created = api_table(base, "stakbots", [HUMAN, ai("random")], seed=END_SEED)
    page = open_page(seat_url(base, created), SIZES[size])
    for _ in range(200):
        page.wait_for_function(READY)
        if page.evaluate("document.body.dataset.terminal") == "true":
            break
        click_index(page, 0)
    page.wait_for_selector("#end-card")
    card = page.inner_text("#end-card")
    names = _names(base, created["id"])
    said = _result_sentence(base, created["id"], viewer=0)
    assert said in card, f"{said!r} not on the end screen: {card!r}"
    assert names[1] in said  # the robot won: named, not "Seat 2" nor a number
    for name in names[1:]:
        assert name in card
    # In words, not the returns: no seat's result reads 0 or 1.
    assert not re.search(r"\t[01](\.0)?$", card, re.M), card
    # Rematch and Back to the lobby sit in one row.
    rematch = page.locator("#end-card #rematch").bounding_box()
    lobby = page.locator("#end-card a[href='/']").bounding_box()
    assert abs((rematch["y"] + rematch["height"] / 2) - (lobby["y"] + lobby["height"] / 2)) < 8


@browser_only
@pytest.mark.browser
def test_a_spectator_reads_the_match_score_of_an_iotabots_match(live_server, open_page):
    """Two robots play Iotabots' best of three to the end; the spectator's end screen names the
    winner with the game's own sentence (as the terminal says it) and the match score."""
    base = live_server.url
    created = api_table(base, "iotabots", [ai("random"), ai("random")], seed=1)
    page = open_page(f"{base}/table/{created['id']}", DESKTOP)
    page.wait_for_selector("#end-card", timeout=60_000)
    card = page.inner_text("#end-card")
    said = _result_sentence(base, created["id"], viewer=None)
    assert said in card, f"{said!r} not on the end screen: {card!r}"
    # The match score: the sentence's "2 duels to 0", or "2-0".
    assert re.search(r"\b2 duels to [01]\b|\b2\s*[-–]\s*[01]\b", card), card
