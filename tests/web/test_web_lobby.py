"""The lobby for people (issue 79 point 6), in Debian's chromium against a live server.

Every game is a picture card with its players and length; a new table asks for the rules first
("balanced (recommended)" or "as printed"), then the players, with the rest under "More options"
(collapsed); no rule code, date or identifier in the lobby's words; a seat link once opened is
listed under "My games" and rejoined from another tab, marked when finished and removable; How to
play opens in the page. Screenshots go to a temporary folder; ROBOTABLE_SCREENSHOTS=docs/screenshots
refreshes docs/screenshots/lobby-phone.png and lobby-desktop.png.
"""

from __future__ import annotations

import random
import re

import httpx
import pytest

from robotable.core.registry import bundled_game_names

from .browser_setup import (
    READY,
    SCREENSHOTS,
    SIZES,
    launch_browser,
    new_context,
    skip_module_without_chromium,
    watch_errors,
)

pytestmark = pytest.mark.browser

skip_module_without_chromium()
RULE_CODE = re.compile(r"\b[A-Z]{2}-\d")
DATE = re.compile(
    r"\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}/\d{1,2}/\d{2,4}\b|"
    r"\b(January|February|March|April|May|June|July|August|September|October|November|December)"
    r" \d{1,2}\b"
)
IDENTIFIER = re.compile(r"\b[a-z]+_[a-z_]+\b")

# Visible elements whose own text is drawn under 12 px, and whether the page scrolls sideways.
SMALL_TEXT = """() => [...document.querySelectorAll('body *')]
  .filter((el) => el.offsetParent !== null || el.tagName === 'BODY')
  .filter((el) => [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()))
  .filter((el) => parseFloat(getComputedStyle(el).fontSize) < 11.95)
  .map((el) => `${el.tagName}.${el.className} ${getComputedStyle(el).fontSize}: ${el.textContent.trim().slice(0, 30)}`)"""
OVERFLOW = "document.documentElement.scrollWidth - document.documentElement.clientWidth"


@pytest.fixture(scope="module")
def browser():
    yield from launch_browser()


@pytest.fixture
def context(browser):
    context = new_context(browser, SIZES["desktop"])
    errors: list[str] = []
    watch_errors(context, errors)
    yield context
    context.close()
    assert errors == [], f"javascript errors on the page: {errors}"


@pytest.fixture
def page(context):
    return context.new_page()


def games(base: str) -> list[dict]:
    """The bundled games the lobby shows: the test process also registers games of its own
    (the lab's test games, by the modules that define them), which have no art or words."""
    bundled = set(bundled_game_names())
    return [g for g in httpx.get(base + "/api/games").json()["games"] if g["name"] in bundled]


def open_lobby(page, base: str) -> None:
    page.goto(base + "/")
    page.wait_for_selector("body[data-ready=true]")


def choose_game(page, game: str) -> None:
    page.click(f".game-card[data-game={game}] .choose-game")
    page.wait_for_selector("#new-table:not([hidden])")


def seat_link(base: str, game: str = "stakbots", options: dict | None = None) -> dict:
    """A table of one person against the random AI, made through the API."""
    created = httpx.post(
        base + "/api/tables",
        json={
            "game": game,
            "num_players": 2,
            "options": options or {},
            "seats": [{"kind": "human", "name": "Ada"}, {"kind": "ai", "ai": "random"}],
            "seed": 3,
        },
    ).json()
    return created


def play_to_the_end(page) -> None:
    rng = random.Random(1)
    for _ in range(300):
        page.wait_for_function(READY)
        if page.evaluate("document.body.dataset.terminal") == "true":
            return
        step = page.evaluate("document.body.dataset.step")
        controls = page.query_selector_all("#board [data-action-index]") or page.query_selector_all(
            "#actions [data-action-index]"
        )
        rng.choice(controls).click()
        page.wait_for_function(
            "(step) => document.body.dataset.step !== step || "
            "document.body.dataset.pending !== 'true'",
            arg=step,
        )
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("size", SIZES)
def test_every_game_is_a_picture_card_with_players_and_minutes(live_server, page, size):
    page.set_viewport_size(SIZES[size])
    open_lobby(page, live_server.url)
    for g in games(live_server.url):
        card = page.locator(f".game-card[data-game={g['name']}]")
        assert card.is_visible()
        # A picture drawn in code: an inline SVG with shapes in it, its robots among them.
        assert card.locator("svg.game-picture .robot").count() >= 1
        assert card.locator("h3").inner_text() == g["title"]
        players = card.locator(".seats-count").inner_text()
        assert str(g["min_players"]) in players and "players" in players
        if g["minutes"]:
            minutes = card.locator(".minutes").inner_text()
            assert minutes.endswith("min") and re.search(r"\d", minutes)
        assert card.locator(".game-line").inner_text() == g["description"]
        assert (
            card.locator(".choose-game").is_visible() and card.locator(".how-to-play").is_visible()
        )
    assert page.evaluate(SMALL_TEXT) == []
    assert page.evaluate(OVERFLOW) <= 0
    clipped = page.evaluate(
        "() => [...document.querySelectorAll('.game-card button')]"
        ".filter((b) => b.scrollWidth > b.clientWidth + 1 || "
        "b.getBoundingClientRect().right > b.closest('.game-card').getBoundingClientRect().right)"
        ".map((b) => `${b.closest('.game-card').dataset.game}: ${b.textContent}`)"
    )
    assert clipped == [], f"buttons cut off at {size}: {clipped}"


def test_the_rules_come_first_and_as_printed_reaches_the_table(live_server, page):
    """Bread Winner's printed rules let the first player build 4 bots on the first turn: the
    table's options say so, since options the person left alone are not sent to override them."""
    open_lobby(page, live_server.url)
    choose_game(page, "breadwinner")
    first = page.evaluate(
        "() => [...document.querySelectorAll('#create input, #create select')]"
        ".find((el) => el.offsetParent !== null).name"
    )
    assert first == "rules"
    labels = page.locator("#rules-options .rules-card").all_inner_texts()
    assert [" ".join(text.split()) for text in labels] == ["Balanced recommended", "As printed"]
    assert page.is_checked("#rules-options input[value=balanced]")
    # More options is collapsed: none of the game's own options is on screen.
    assert not page.evaluate("document.getElementById('more-options').open")
    assert page.locator(".option-input").count() > 0
    assert all(not el.is_visible() for el in page.locator(".option-input").all())
    page.check("#rules-options input[value=printed]")
    page.click("#create-button")
    page.wait_for_selector("#open-table")
    table_id = page.get_attribute("#open-table", "href").split("/")[-1].split("#")[0]
    options = httpx.get(f"{live_server.url}/api/tables/{table_id}").json()["options"]
    assert options["rules"] == "printed"
    assert options["first_turn_bots"] == 4


def test_more_options_holds_the_rest_in_plain_words(live_server, page):
    page.set_viewport_size(SIZES["phone"])
    open_lobby(page, live_server.url)
    for g in games(live_server.url):
        choose_game(page, g["name"])
        assert not page.evaluate("document.getElementById('more-options').open")
        page.click("#more-options > summary")
        assert page.is_visible("#seed") and page.is_visible("#clock")
        # Every option is there, each with words from its help line, not its name.
        rows = page.locator("#options .option").all_inner_texts()
        rules = any(o["name"] == "rules" for o in g["options"])
        assert len(rows) == len(g["options"]) - rules  # the rules are chosen above
        text = page.inner_text("#create")  # the form (the game cards list test games too)
        assert not RULE_CODE.search(text), RULE_CODE.search(text)
        assert not DATE.search(text), DATE.search(text)
        assert not IDENTIFIER.search(text), f"{g['name']}: {IDENTIFIER.search(text)}"
        assert page.evaluate(SMALL_TEXT) == []
        assert page.evaluate(OVERFLOW) <= 0


def test_my_games_lists_an_opened_seat_and_rejoins_from_another_tab(live_server, context):
    created = seat_link(live_server.url)
    table_id = created["id"]
    play = context.new_page()
    play.goto(live_server.url + created["seats"][0]["join_url"])
    play.wait_for_function(READY)
    play.close()  # the tab is closed: the lobby still knows the seat

    lobby = context.new_page()
    open_lobby(lobby, live_server.url)
    entry = lobby.locator(f".my-game[data-table='{table_id}']")
    entry.wait_for()
    words = entry.inner_text()
    assert "Stak Bots" in words and "Ada" in words and "in play" in words
    assert not DATE.search(lobby.inner_text("body"))
    href = entry.locator(".rejoin").get_attribute("href")
    assert href == created["seats"][0]["join_url"]
    entry.locator(".rejoin").click()
    lobby.wait_for_function(READY)
    assert lobby.evaluate("document.body.dataset.deciding") == "true"  # the seat, not a spectator


def test_a_finished_game_is_marked_and_removable(live_server, context):
    created = seat_link(live_server.url, options={"stak_size": 1, "hand_size": 1})
    play = context.new_page()
    play.goto(live_server.url + created["seats"][0]["join_url"])
    play_to_the_end(play)

    lobby = context.new_page()
    open_lobby(lobby, live_server.url)
    entry = lobby.locator(f".my-game[data-table='{created['id']}']")
    entry.wait_for()
    lobby.wait_for_function(
        "(id) => document.querySelector(`.my-game[data-table='${id}']`).classList.contains('over')",
        arg=created["id"],
    )
    assert "finished" in entry.inner_text()
    entry.locator(".forget").click()
    lobby.wait_for_selector("#my-games-panel", state="hidden")
    assert lobby.evaluate("JSON.parse(localStorage.getItem('robotable-my-games'))") == []


def test_how_to_play_opens_in_the_page(live_server, page):
    open_lobby(page, live_server.url)
    guide = httpx.get(live_server.url + "/api/games/stakbots/guide").json()
    heading = re.search(r"<h1>(.*?)</h1>", guide["html"]).group(1)
    page.click(".game-card[data-game=stakbots] .how-to-play")
    page.wait_for_selector("#guide[open] #guide-body h1")
    assert page.inner_text("#guide-body h1") == heading
    assert page.url == live_server.url + "/"  # no new page: the guide is in this one
    page.keyboard.press("Escape")
    page.wait_for_selector("#guide", state="hidden")


def test_no_guide_sends_a_player_to_a_docs_path(live_server):
    for g in games(live_server.url):
        html = httpx.get(f"{live_server.url}/api/games/{g['name']}/guide").json()["html"]
        assert "docs/" not in html, g["name"]
        assert not RULE_CODE.search(html), f"{g['name']}: {RULE_CODE.search(html)}"


@pytest.mark.parametrize("size", SIZES)
def test_lobby_screenshots(live_server, context, size):
    """The lobby as a returning player sees it: one game of theirs under My games."""
    created = seat_link(live_server.url)
    page = context.new_page()
    page.set_viewport_size(SIZES[size])
    page.goto(live_server.url + created["seats"][0]["join_url"])
    page.wait_for_function(READY)
    open_lobby(page, live_server.url)
    page.wait_for_selector(".my-game")
    assert page.evaluate(SMALL_TEXT) == []
    assert page.evaluate(OVERFLOW) <= 0
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"lobby-{size}.png"), full_page=size == "desktop")
