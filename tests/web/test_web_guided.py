"""The guided first game (issue 79 point 7): a guided table's seats and deal, each game's coach
script checked against its game, and in real Chromium at a phone's and a desktop's size every
game's guided game played to its end screen by following the coach's marks; skipping the guide."""

from __future__ import annotations

import httpx
import pytest

from robotable.core.registry import bundled_game_names
from robotable.server.coach import GUIDED_AI, coached_games, load_coach, rehearse

from .browser_setup import READY, SIZES, launch_browser, new_context, watch_errors

# The games robotable ships, from the registry: a user's installed game need not have a coach.
GAMES = sorted(bundled_game_names())


def test_every_bundled_game_has_a_guided_first_game():
    assert set(GAMES) <= set(coached_games())


@pytest.mark.parametrize("game", GAMES)
def test_the_coach_script_holds_against_its_game(game):
    """Every choice step points at a legal choice when the opening is played as the guided
    table plays it (the same seed, the easy AI's seeds), so a step names an action type the
    game has, with words its label holds."""
    coach = load_coach(game)
    assert rehearse(coach) == []
    for step in coach.steps:
        assert 1 <= len(step.say) <= 400
        assert "Seat " not in step.say and "_" not in step.say  # player words, never ids


@pytest.mark.parametrize("game", GAMES)
def test_a_guided_table_has_the_fixed_deal_and_an_easy_ai(client, game):
    coach = load_coach(game)
    response = client.post("/api/tables", json={"game": game, "guided": True})
    assert response.status_code == 201, response.text
    created = response.json()
    assert created["seats"][0]["kind"] == "human" and "join_url" in created["seats"][0]
    assert [s["kind"] for s in created["seats"][1:]] == ["ai"] * (coach.seats - 1)
    meta = client.get(f"/api/tables/{created['id']}").json()
    assert meta["guided"] is True and meta["hints"] is True
    assert meta["num_players"] == coach.seats
    assert meta["seed"] == str(coach.seed)
    assert all(s["ai"] == GUIDED_AI for s in meta["seats"][1:])
    assert game in client.get("/api/games").json()["guided"]
    served = client.get(f"/api/games/{game}/coach").json()
    assert served["steps"] and served["after"] and served["lesson"]
    assert "seed" not in served  # the page needs no deal; the server keeps it


def test_a_guided_table_keeps_a_name_and_an_ordinary_table_is_not_guided(client, new_table):
    created = client.post(
        "/api/tables",
        json={"game": "stakbots", "guided": True, "seats": [{"kind": "human", "name": "Ada"}]},
    ).json()
    meta = client.get(f"/api/tables/{created['id']}").json()
    assert meta["seats"][0]["name"] == "Ada"
    plain = new_table(client, "stakbots", [{"kind": "human"}, {"kind": "ai", "ai": "random"}])
    assert client.get(f"/api/tables/{plain['id']}").json()["guided"] is False


def test_coach_and_guided_requests_for_a_game_without_a_coach_are_refused(client):
    assert client.get("/api/games/nosuchgame/coach").status_code == 404
    assert (
        client.post("/api/tables", json={"game": "nosuchgame", "guided": True}).status_code == 400
    )
    # Without guided, the seats are still required.
    assert client.post("/api/tables", json={"game": "stakbots"}).status_code == 400


# -- in the browser ------------------------------------------------------------------------------
MAX_CLICKS = 800
# The coach has drawn this decision's bubble (or is off: the game is over, or it was skipped).
COACHED = (
    "() => document.body.dataset.terminal === 'true' || "
    "['choice', 'explain', 'after', 'hint', 'waiting', 'skipped'].includes(document.body.dataset.coach)"
)


@pytest.fixture(scope="module")
def browser():
    yield from launch_browser()


def open_page(browser, size: str):
    context = new_context(browser, SIZES[size])
    # A forced single choice waits for the click here (it is taken for a person after a beat),
    # so that the test's click never races the page's own.
    context.add_init_script("localStorage.setItem('robotable-auto-forced', 'false')")
    page = context.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    return context, page, errors


def guided_link(base: str, game: str) -> str:
    created = httpx.post(base + "/api/tables", json={"game": game, "guided": True}).json()
    return base + created["seats"][0]["join_url"]


def check_bubble_fits(page, size: str) -> None:
    """The bubble is inside the screen, its text at least 12 px, and on a phone above the bar."""
    box = page.evaluate(
        """() => {
          const b = document.getElementById('coach');
          if (!b || b.hidden) return null;
          const r = b.getBoundingClientRect();
          const bar = document.getElementById('turn-bar').getBoundingClientRect();
          const small = [...b.querySelectorAll('*')].filter((el) => el.textContent.trim()
            && parseFloat(getComputedStyle(el).fontSize) < 12).length;
          return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, small,
                  barTop: bar.top, width: innerWidth, height: innerHeight};
        }"""
    )
    if box is None:
        return
    assert box["small"] == 0
    assert box["left"] >= 0 and box["right"] <= box["width"]
    assert box["top"] >= 0 and box["bottom"] <= box["height"]
    if size == "phone":
        assert box["bottom"] <= box["barTop"] + 1


def follow_the_coach(page, size: str) -> dict[str, int]:
    """Click what the coach points at (pressing Next where it only explains); where it points
    at nothing, the first choice. Returns how often each kind of bubble was followed."""
    seen: dict[str, int] = {}
    for _ in range(MAX_CLICKS):
        page.wait_for_function(READY)
        if page.evaluate("document.body.dataset.terminal") == "true":
            return seen
        page.wait_for_function(COACHED)
        kind = page.evaluate("document.body.dataset.coach")
        seen[kind] = seen.get(kind, 0) + 1
        if seen[kind] == 1:
            check_bubble_fits(page, size)
        step = page.evaluate("document.body.dataset.step")
        if kind in ("explain", "after"):
            text = page.text_content("#coach-say")
            page.click("#coach-next")
            page.wait_for_function(
                "(text) => document.getElementById('coach-say').textContent !== text", arg=text
            )
            continue
        if kind in ("choice", "hint"):
            assert page.query_selector(".coach-target"), f"the {kind} bubble points at nothing"
            # A locator: the board may be drawn again (a seat's frame) between finding and click.
            page.locator(".coach-target").first.click()
        elif page.query_selector("#board [data-action-index]"):
            page.locator("#board [data-action-index]").first.click()
        else:
            page.locator("[data-action-index]").first.click()
        page.wait_for_function(
            "(step) => document.body.dataset.step !== step || "
            "document.body.dataset.pending !== 'true'",
            arg=step,
        )
    raise AssertionError(f"no end after {MAX_CLICKS} clicks")


# Bread Winner's guided game runs 60-90 decisions to its end (a minute and a half a size): it is
# finished on the phone, where the coach's bubble docks above the bar; the desktop layout of its
# coach is the same bubble beside its target, which the other four games finish at both sizes.
GUIDED_GAMES = [(g, s) for g in GAMES for s in SIZES if (g, s) != ("breadwinner", "desktop")]


@pytest.mark.browser
@pytest.mark.parametrize(("game", "size"), GUIDED_GAMES)
def test_a_guided_game_is_played_to_the_end_by_following_the_coach(
    live_server, browser, game, size
):
    context, page, errors = open_page(browser, size)
    try:
        page.goto(guided_link(live_server.url, game))
        seen = follow_the_coach(page, size)
        page.wait_for_selector("#end-card")
        assert page.is_hidden("#coach")
        # Every choice step of the script was shown and followed.
        assert seen.get("choice", 0) == len(load_coach(game).choices())
        assert seen.get("after", 0) >= 1
    finally:
        context.close()
    assert errors == [], f"javascript errors on the page: {errors}"


@pytest.mark.browser
def test_the_guide_can_be_skipped_and_stays_skipped(live_server, browser):
    context, page, errors = open_page(browser, "phone")
    try:
        # The lobby's Learn to play on the game's card opens the guided table's seat.
        page.goto(live_server.url + "/")
        page.wait_for_selector("body[data-ready=true]")
        page.click(".game-card[data-game=stakbots] .learn-to-play")
        page.wait_for_selector("#coach:not([hidden])")
        assert page.evaluate("document.body.dataset.coach") == "explain"
        assert page.text_content("#coach-say")
        page.click("#coach-skip")
        page.wait_for_selector("#coach", state="hidden")
        assert page.evaluate("document.body.dataset.coach") == "skipped"
        # A move later (and after a reload) the coach says nothing more.
        page.click("#bar-choices [data-action-index]")
        page.wait_for_function(READY)
        page.reload()
        page.wait_for_function("document.body.dataset.coach === 'skipped'")
        assert page.is_hidden("#coach")
        assert page.query_selector(".coach-target") is None
    finally:
        context.close()
    assert errors == [], f"javascript errors on the page: {errors}"
