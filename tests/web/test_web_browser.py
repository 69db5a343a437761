"""Real-browser end-to-end tests: Playwright driving Debian's chromium against a live server.

Creates a Stak Bots table against the AI from the lobby and plays it to the end by clicking the
cards and buttons the page offers, then the same for Rumblebots; takes a screenshot of every
game's play page. The screenshots go to a temporary folder; set ROBOTABLE_SCREENSHOTS=docs/screenshots
to refresh the ones the documentation shows (a test run never writes into tracked files).
"""

from __future__ import annotations

import random

import httpx
import pytest

from robotable import replay_record
from robotable.core.registry import bundled_game_names

from .browser_setup import (
    READY,
    SCREENSHOTS,
    SETTLED,
    SIZES,
    launch_browser,
    new_context,
    skip_module_without_chromium,
    watch_errors,
)

pytestmark = pytest.mark.browser

skip_module_without_chromium()
MAX_CLICKS = 1500


def choose_game(page, game: str) -> None:
    """The lobby's 'New table' on a game's picture card: its form opens below the games."""
    page.click(f".game-card[data-game={game}] .choose-game")
    page.wait_for_selector("#new-table:not([hidden])")


def open_more_options(page) -> None:
    """The new-table form's 'More options' (collapsed at first): the game's options, clock, seed."""
    if not page.evaluate("document.getElementById('more-options').open"):
        page.click("#more-options > summary")


@pytest.fixture(scope="module")
def browser():
    yield from launch_browser()


@pytest.fixture
def page(browser):
    context = new_context(browser, {"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    yield page
    context.close()
    assert errors == [], f"javascript errors on the page: {errors}"


# What a player must never read on a bundled game's board: the generic key/value panels, data
# (a list of numbers, braces, null) or an identifier with an underscore.
RAW_ON_THE_BOARD = r"""() => {
  const board = document.getElementById("board");
  if (board.querySelector(".value-map")) return "a key/value panel";
  const raw = /\[\d+(, ?\d+)*\]|[{}]|\bnull\b|\bundefined\b|\bNaN\b|\b[a-z]+_[a-z_]+\b/;
  const line = board.innerText.split("\n").find((text) => raw.test(text));
  return line === undefined ? null : line;
}"""


def play_by_clicking(page, seed: int) -> int:
    """Click offered controls (on the board first) until the end screen; returns the clicks.
    At every decision the board shows words, not data (RAW_ON_THE_BOARD)."""
    rng = random.Random(seed)
    for clicks in range(MAX_CLICKS):
        page.wait_for_function(READY)
        raw = page.evaluate(RAW_ON_THE_BOARD)
        assert raw is None, f"raw data on the board: {raw!r}"
        if page.evaluate("document.body.dataset.terminal") == "true":
            return clicks
        step = page.evaluate("document.body.dataset.step")
        controls = page.query_selector_all("#board [data-action-index]")
        if not controls:
            controls = page.query_selector_all("#actions [data-action-index]")
        rng.choice(controls).click()
        page.wait_for_function(
            "(step) => document.body.dataset.step !== step || "
            "document.body.dataset.pending !== 'true'",
            arg=step,
        )
    raise AssertionError(f"no end after {MAX_CLICKS} clicks")


def check_end_screen(page, base: str) -> None:
    page.wait_for_selector("#end-card")
    href = page.get_attribute("#end-record", "href")
    record = httpx.get(base + href).json()
    _, state, _ = replay_record(record)
    assert state.is_terminal()


def test_stak_bots_against_the_ai_from_the_lobby_to_the_end(live_server, page):
    page.goto(live_server.url + "/")
    page.wait_for_selector("body[data-ready=true]")
    choose_game(page, "stakbots")
    page.select_option("#num-players", "2")
    page.select_option("select[name=seat-1-kind]", "ai")
    page.select_option("select[name=seat-1-ai]", "easy")
    open_more_options(page)
    page.fill("#seed", "7")
    page.click("#create-button")
    page.click("#open-table")
    page.wait_for_function(READY)
    assert page.text_content("#status").startswith("Your decision")
    # Cards are drawn as cards and the hand's cards are the controls to play them.
    assert page.query_selector(".sb-hand-card .card.actionable") is not None
    assert play_by_clicking(page, seed=1) > 0
    check_end_screen(page, live_server.url)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "stakbots-end.png"))


def test_sb_11_14_drone_mode_from_the_lobby_to_the_end(live_server, page):
    """One person alone plays Stak Bots' Drone Mode: one seat in the lobby, the Drone's staks
    on the table, the game played to its end screen by clicking."""
    page.goto(live_server.url + "/")
    page.wait_for_selector("body[data-ready=true]")
    choose_game(page, "stakbots")
    page.select_option("#num-players", "1")
    open_more_options(page)
    page.fill("#seed", "4")
    page.click("#create-button")
    page.click("#open-table")
    page.wait_for_function(READY)
    assert "Drone" in page.text_content(".sb-board")
    assert play_by_clicking(page, seed=2) > 0
    check_end_screen(page, live_server.url)


def test_a_seat_counts_own_default_is_shown_in_the_lobby(live_server, page):
    """An option whose default depends on the seat count (RB-2.5's round-4 scrap at two seats,
    SB-11.14's Drone alone) shows the default of the chosen count, and a value the person typed
    stays when the count changes."""
    page.goto(live_server.url + "/")
    page.wait_for_selector("body[data-ready=true]")
    choose_game(page, "rumblebots")
    open_more_options(page)
    scraps = "input[name=option-first_challengers_scraps]"
    page.select_option("#num-players", "2")
    assert page.get_attribute(scraps, "placeholder") == "0,0,0,1"
    page.select_option("#num-players", "3")
    assert page.get_attribute(scraps, "placeholder") == ""
    page.fill(scraps, "1")
    page.dispatch_event(scraps, "change")
    page.select_option("#num-players", "2")
    assert page.input_value(scraps) == "1"
    choose_game(page, "stakbots")
    page.select_option("#num-players", "1")
    assert page.get_attribute("input[name=option-drones]", "placeholder") == "1"
    page.select_option("#num-players", "2")
    assert page.get_attribute("input[name=option-drones]", "placeholder") == "0"


def _table_against_ai(base: str, game: str) -> str:
    info = next(g for g in httpx.get(base + "/api/games").json()["games"] if g["name"] == game)
    seats = [{"kind": "human"}] + [{"kind": "ai", "ai": "random"}] * (info["default_players"] - 1)
    created = httpx.post(
        base + "/api/tables",
        json={"game": game, "num_players": len(seats), "seats": seats, "seed": 5},
    ).json()
    return created["seats"][0]["join_url"]


GAMES = [g for g in bundled_game_names() if g != "countdown"]


OVERFLOW = "document.documentElement.scrollWidth - document.documentElement.clientWidth"


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", GAMES)
def test_each_play_page_fits_phone_and_desktop(live_server, page, game, size):
    """No horizontal scrolling at 390 px (a phone) nor 1280 px, a few moves into the game."""
    page.set_viewport_size(SIZES[size])
    page.goto(live_server.url + _table_against_ai(live_server.url, game))
    page.wait_for_function(READY)
    # A few moves in, so the board shows more than the opening.
    rng = random.Random(game)
    for _ in range(4):
        if page.evaluate("document.body.dataset.terminal") == "true":
            break
        step = page.evaluate("document.body.dataset.step")
        rng.choice(page.query_selector_all("[data-action-index]")).click()
        page.wait_for_function(
            "(step) => document.body.dataset.step !== step || "
            "document.body.dataset.pending !== 'true'",
            arg=step,
        )
        page.wait_for_function(READY)
    assert page.query_selector("#board").inner_text().strip()
    page.wait_for_function(SETTLED)  # measured and pictured with the pieces at rest
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{game}-{size}.png"), full_page=True)
    assert page.evaluate(OVERFLOW) <= 0, f"{game} scrolls sideways at {SIZES[size]['width']} px"


def test_a_deck_is_chosen_by_name_or_uploaded_from_the_lobby(live_server, page, tmp_path):
    """Content options offer the bundled sets and an upload: the browser sends the file's text
    inline; nothing names a file on the server."""
    from importlib import resources

    deck = resources.files("robotable.games.iotabots").joinpath("data", "hijack.txt").read_text()
    mine = tmp_path / "my-deck.txt"
    mine.write_text(deck)
    page.goto(live_server.url + "/")
    page.wait_for_selector("body[data-ready=true]")
    choose_game(page, "iotabots")
    open_more_options(page)
    offered = page.eval_on_selector_all(
        "select[name=option-deck1] option", "els => els.map(e => e.value)"
    )
    assert {"beacon", "hijack", "__upload__"} <= set(offered)
    page.select_option("select[name=option-deck1]", "beacon")
    page.select_option("select[name=option-deck0]", "__upload__")
    page.set_input_files("select[name=option-deck0] + input[type=file]", str(mine))
    page.wait_for_function(
        "() => document.querySelector('select[name=option-deck0]').dataset.inline"
    )
    page.select_option("select[name=seat-1-kind]", "ai")
    page.click("#create-button")
    page.wait_for_selector("#open-table")
    table_id = page.get_attribute("#open-table", "href").rsplit("/", 1)[-1].split("#")[0]
    options = httpx.get(f"{live_server.url}/api/tables/{table_id}").json()["options"]
    assert options["deck0"] == "inline:" + deck and options["deck1"] == "beacon"


def test_rumblebots_draws_an_empty_laboratory_slot(live_server, page):
    """A Laboratory slot empties when its row runs out; the drawing shows the gap (it used to
    throw, and the generic drawing took over for the rest of the game)."""
    import json

    from websockets.sync.client import connect

    from robotable import load_game

    # This seed's random game empties a slot with rules version 5's cards and RB-2.5's head
    # starts of 29 Nov 2026 (seed 42 did with versions 3 and 4's, seed 7 with version 2's).
    options, seed = {"first_champion_cryo": 0}, 5
    game = load_game("rumblebots", num_players=2, **options)
    state, chooser, actions = game.new_initial_state(seed=seed), random.Random(seed), []
    while not any(c is None for row in state.view(0)["laboratory"]["rows"] for c in row["slots"]):
        assert not state.is_terminal(), f"seed {seed}'s random game ends with no slot empty"
        action = chooser.choice(state.legal_actions())
        actions.append((state.current_player(), action.to_json()))
        state.apply_action(action)
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}]
    body = {
        "game": "rumblebots",
        "num_players": 2,
        "seats": seats,
        "seed": seed,
        "options": options,
    }
    table = httpx.post(live_server.url + "/api/tables", json=body).json()
    url = live_server.url.replace("http://", "ws://") + f"/ws/tables/{table['id']}"
    with connect(url) as ada, connect(url) as bo:
        for ws, seat in ((ada, table["seats"][0]), (bo, table["seats"][1])):
            ws.send(json.dumps({"type": "hello", "token": seat["token"]}))
        for step, (seat, action) in enumerate(actions):
            ws = (ada, bo)[seat]
            ws.send(json.dumps({"type": "act", "action": action, "step": step, "id": step}))
            while json.loads(ws.recv(timeout=30)).get("type") not in ("ack", "error"):
                pass
    page.goto(live_server.url + table["seats"][0]["join_url"])
    page.wait_for_selector(".rb-empty")
    assert page.evaluate("document.body.dataset.drawingFailed") is None


def _play_through_websockets(base: str, table: dict) -> None:
    """Both seats play their first legal action until the game ends."""
    import json

    from websockets.sync.client import connect

    url = base.replace("http://", "ws://") + f"/ws/tables/{table['id']}"
    with connect(url) as ada, connect(url) as bo:
        views = {}
        for ws, seat in ((ada, table["seats"][0]), (bo, table["seats"][1])):
            ws.send(json.dumps({"type": "hello", "token": seat["token"]}))
            views[ws] = json.loads(ws.recv(timeout=30))
        step = 0
        while not views[ada]["view"]["terminal"]:
            mover = ada if views[ada]["view"]["legal_actions"] else bo
            mover.send(json.dumps({"type": "act", "index": 0, "step": step}))
            step += 1
            for ws in (ada, bo):
                while True:
                    frame = json.loads(ws.recv(timeout=30))
                    if frame["type"] in ("update", "state") and frame["step"] >= step:
                        views[ws] = frame
                        break


def test_chat_and_rematch_between_two_browsers(live_server, browser):
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}]
    body = {
        "game": "stakbots",
        "num_players": 2,
        "seats": seats,
        "seed": 3,
        "options": {"stak_size": 2, "hand_size": 1},
    }
    table = httpx.post(live_server.url + "/api/tables", json=body).json()
    _play_through_websockets(live_server.url, table)
    pages = []
    for seat in table["seats"]:
        context = browser.new_context(bypass_csp=True, viewport={"width": 390, "height": 844})
        page = context.new_page()
        page.goto(live_server.url + seat["join_url"])
        page.wait_for_selector("#end-card")
        pages.append(page)
    ada, bo = pages
    ada.click("#end-close")
    ada.fill("#chat-text", "well played <b>Bo</b>")
    ada.press("#chat-text", "Enter")
    bo.wait_for_function("document.getElementById('chat').textContent.includes('well played')")
    assert bo.query_selector("#chat b + b") is None  # the text stayed text
    assert "Ada: well played <b>Bo</b>" in bo.inner_text("#chat")
    bo.click("#rematch")
    for page in pages:
        page.wait_for_url(lambda url: table["id"] not in url)
        page.wait_for_function("document.body.dataset.connected === 'true'")
    assert ada.url.split("/table/")[1].split("#")[0] == bo.url.split("/table/")[1].split("#")[0]
    assert "#seat=" in ada.url and "#seat=" in bo.url
    for page in pages:
        page.context.close()


def test_a_clock_runs_out_in_the_browser(live_server, page):
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}]
    body = {"game": "stakbots", "num_players": 2, "seats": seats, "seed": 3}
    body["clock"] = {"mode": "move", "seconds": 2}
    table = httpx.post(live_server.url + "/api/tables", json=body).json()
    page.goto(live_server.url + table["seats"][0]["join_url"])
    page.wait_for_selector("#clock:not([hidden])")
    assert "Your time" in page.inner_text("#clock")
    page.wait_for_function("document.getElementById('log').textContent.includes('time ran out')")
    # A new decision (Ada's again, or Bo's: a Stak Bots turn has several) has a fresh clock.
    assert "0:0" in page.inner_text("#clock")


# Controls a keyboard can reach: the legal actions, and pieces that select (a Bread Winner die,
# an Iotabots attacker) before the action itself is offered.
KEY_TARGETS = "[data-action-index], [role=button][aria-pressed]"
FOCUSED_TARGET = (
    f"() => !!document.activeElement && document.activeElement.matches('{KEY_TARGETS}')"
)


def play_by_keyboard(page, seed: int, max_moves: int | None = None) -> int:
    """Tab to an offered control and press Enter, until the end (or `max_moves` moves); the
    mouse is never used. Returns the moves made."""
    rng = random.Random(seed)
    moves = 0
    for _ in range(MAX_CLICKS):
        page.wait_for_function(READY)
        if page.evaluate("document.body.dataset.terminal") == "true":
            return moves
        if max_moves is not None and moves >= max_moves:
            return moves
        step = page.evaluate("document.body.dataset.step")
        wanted = rng.randrange(1, 4)
        met = 0
        for _ in range(400):
            page.keyboard.press("Tab")
            if page.evaluate(FOCUSED_TARGET):
                met += 1
                if met == wanted:
                    break
        assert page.evaluate(FOCUSED_TARGET), "no control could be reached with Tab"
        assert page.evaluate(
            "() => getComputedStyle(document.activeElement).outlineStyle !== 'none'"
        ), "the focused control shows no focus"
        page.keyboard.press("Enter")
        page.wait_for_function(
            "(step) => document.body.dataset.step !== step || "
            "document.body.dataset.pending !== 'true'",
            arg=step,
        )
        if page.evaluate("document.body.dataset.step") != step:
            moves += 1
    raise AssertionError(f"no end after {MAX_CLICKS} key presses")


def test_a_whole_stak_bots_game_by_keyboard_alone(live_server, page):
    page.set_viewport_size(SIZES["phone"])
    page.goto(live_server.url + _table_against_ai(live_server.url, "stakbots"))
    assert play_by_keyboard(page, seed=3) > 0
    check_end_screen(page, live_server.url)


@pytest.mark.parametrize("game", ["breadwinner", "iotabots"])
def test_dice_and_attackers_are_reached_by_keyboard(live_server, page, game):
    """The pieces that select before acting (Bread Winner dice, Iotabots attackers) work from
    the keyboard: several moves are made without the mouse."""
    page.goto(live_server.url + _table_against_ai(live_server.url, game))
    assert play_by_keyboard(page, seed=4, max_moves=8) >= 1


# A long game by clicks takes a minute or two a size, so Bread Winner and Betabotz play to the end
# on the phone, where their layouts are tightest, and Iotabots on the desktop; the shorter games
# play at both sizes (and every game's page is checked at both in the fits-the-screen test).
ONE_SIZE = {"breadwinner": "phone", "betabotz": "phone", "iotabots": "desktop"}
WHOLE_GAMES = [(g, s) for g in GAMES for s in SIZES if ONE_SIZE.get(g, s) == s]


@pytest.mark.parametrize(("game", "size"), WHOLE_GAMES)
def test_a_whole_game_by_clicks(live_server, page, game, size):
    """Every game, at phone and desktop size, to its end screen by clicking what the page
    offers; every control met on the way is a touch target of at least 40 px."""
    page.set_viewport_size(SIZES[size])
    page.goto(live_server.url + _table_against_ai(live_server.url, game))
    page.wait_for_function(READY)
    small = page.evaluate(SMALL_TARGETS)
    assert small == [], f"{game} at {size}: controls under 40 px: {small[:5]}"
    assert play_by_clicking(page, seed=5) > 0
    check_end_screen(page, live_server.url)


# Visible controls smaller than 40 px in either direction (a finger's width).
SMALL_TARGETS = """() => [...document.querySelectorAll(
    'button, [role=button], select, summary, [data-action-index]')]
  .filter((el) => el.offsetParent !== null)
  .map((el) => [el, el.getBoundingClientRect()])
  .filter(([, r]) => r.width < 39.5 || r.height < 39.5)
  .map(([el, r]) => `${el.tagName}.${el.className} ${Math.round(r.width)}x${Math.round(r.height)}`)"""


@pytest.mark.parametrize("players", [3, 4])
def test_rumblebots_with_more_seats_to_the_showdown(live_server, page, players):
    """3 and 4 seats drawn to the end (the Laboratory empties, the Showdown is fought)."""
    seats = [{"kind": "human"}] + [{"kind": "ai", "ai": "random"}] * (players - 1)
    created = httpx.post(
        live_server.url + "/api/tables",
        json={"game": "rumblebots", "num_players": players, "seats": seats, "seed": 8},
    ).json()
    page.goto(live_server.url + created["seats"][0]["join_url"])
    assert play_by_clicking(page, seed=6) > 0
    check_end_screen(page, live_server.url)


def test_the_last_move_is_shown_and_explained(live_server, page):
    """After the AI moves, what changed glows, the log names it in words and links it back to
    the board; cards explain themselves when tapped; How to play opens the game's guide."""
    page.goto(live_server.url + _table_against_ai(live_server.url, "stakbots"))
    page.wait_for_function(READY)
    page.query_selector_all("#board [data-action-index]")[0].click()
    page.wait_for_selector("#board .changed")
    # Settled: every update is drawn and the table waits for us, so the latest log entry (whose
    # button only the latest entry shows) stays the latest while we click it.
    page.wait_for_function(READY)
    latest = page.inner_text("#log li.latest")
    assert "{" not in latest and "seat 0" not in latest.lower()
    page.click("#log li.latest .show-move")
    page.wait_for_selector("#board .changed")
    assert page.inner_text("#announce").strip()
    plain = page.query_selector("#board .card[aria-label]:not(.actionable):not(.face-down)")
    if plain is not None:
        plain.click()
        page.wait_for_selector("#detail:not([hidden])")
    page.click("#howto summary")
    page.wait_for_selector("#howto-body h2")
    assert "Goal" in page.inner_text("#howto-body")


def test_reduced_motion_keeps_the_highlight_still(browser, live_server):
    context = browser.new_context(bypass_csp=True, reduced_motion="reduce")
    page = context.new_page()
    try:
        page.goto(live_server.url + _table_against_ai(live_server.url, "stakbots"))
        page.wait_for_function(READY)
        page.query_selector_all("#board [data-action-index]")[0].click()
        page.wait_for_selector("#board .changed")
        assert (
            page.evaluate(
                "() => getComputedStyle(document.querySelector('#board .changed')).animationName"
            )
            == "none"
        )
    finally:
        context.close()


def test_a_betabotz_bid_is_typed_as_a_number(live_server, page):
    """Dozens of possible bids are one number field with its range, not dozens of buttons."""
    seats = [{"kind": "human"}, {"kind": "ai", "ai": "random"}, {"kind": "ai", "ai": "random"}]
    created = httpx.post(
        live_server.url + "/api/tables",
        json={"game": "betabotz", "num_players": 3, "seats": seats, "seed": 2},
    ).json()
    page.goto(live_server.url + created["seats"][0]["join_url"])
    rng = random.Random(1)
    for _ in range(40):
        page.wait_for_function(READY)
        if page.query_selector(".bz-amount"):
            break
        step = page.evaluate("document.body.dataset.step")
        rng.choice(page.query_selector_all("[data-action-index]")).click()
        page.wait_for_function("(s) => document.body.dataset.step !== s", arg=step)
    field = page.query_selector(".bz-amount")
    assert field is not None, "no bid was asked of the player"
    low, high = int(field.get_attribute("min")), int(field.get_attribute("max"))
    assert len(page.query_selector_all(".bz-bid-entry [data-action-index]")) == 2
    step = page.evaluate("document.body.dataset.step")
    field.fill(str(high + 1))
    field.press("Enter")
    assert "whole number" in page.inner_text(".bz-bid-entry")
    field.fill(str(min(low + 1, high)))
    field.press("Enter")
    page.wait_for_function("(s) => document.body.dataset.step !== s", arg=step)
    assert "bid" in page.inner_text("#log").lower()


# Elements of the lobby's form that stick out of its panel, and option rows whose control and
# help text are drawn over each other.
LOBBY_LAYOUT = """() => {
  const panel = document.querySelector('#create').closest('.panel').getBoundingClientRect();
  const out = [...document.querySelectorAll('#create *')]
    .filter((el) => el.offsetParent !== null)
    .filter((el) => el.getBoundingClientRect().right > panel.right + 1)
    .map((el) => `${el.tagName}.${el.className} sticks out`);
  for (const row of document.querySelectorAll('.option')) {
    const help = row.querySelector('.option-text');
    const input = [...row.children].find((el) => el !== help);
    const a = input.getBoundingClientRect();
    const b = help.getBoundingClientRect();
    const apart = a.right <= b.left + 1 || b.right <= a.left + 1 || b.bottom <= a.top + 1 || a.bottom <= b.top + 1;
    if (!apart && help.textContent) out.push(`${row.textContent.slice(0, 30)}: help over its control`);
  }
  if (document.documentElement.scrollWidth > window.innerWidth + 1) out.push('the page scrolls sideways');
  return out;
}"""


@pytest.mark.parametrize("size", SIZES)
def test_the_lobby_form_fits_phone_and_desktop(live_server, page, size):
    """Every game's new-table form, at every seat count, fits its panel: no seat row or option
    sticks out, and no option's help text is drawn over its control."""
    page.set_viewport_size(SIZES[size])
    page.goto(live_server.url + "/")
    page.wait_for_selector("body[data-ready=true]")
    for game in bundled_game_names():
        choose_game(page, game)
        open_more_options(page)
        for count in page.eval_on_selector_all("#num-players option", "os => os.map(o => o.value)"):
            page.select_option("#num-players", count)
            problems = page.evaluate(LOBBY_LAYOUT)
            assert problems == [], f"{game}, {count} seats, {size}: {problems[:4]}"
