"""Motion at the table (issue 79 point 2), in real Chromium against a live server.

A card travels from where it was to where it is, a rolled die tumbles and settles on its face,
a number that changed floats over what it counts, a Rumblebots battle is told step by step (at
the speed the player chose, kept by the browser; Skip ends it at once), a choice is taken while
anything moves, and under prefers-reduced-motion nothing moves at all. Also: a card that is a
choice is read on a phone without choosing it, and the end screen's table of scores.

The page records, at every animation frame, what moved, and every step the story adds
(RECORDER): a travel, a tumble or a floating number lasts a fraction of a second, and a test
looks afterwards rather than racing it.
Two people sit at the motion tables, the test moving for the second over a websocket, so every
step is known in advance from the game itself.
"""

from __future__ import annotations

import json
import random
import re

import httpx
import pytest

from robotable import load_game
from robotable.core.events import visible_events

from .browser_setup import (
    DESKTOP,
    PHONE,
    READY,
    launch_browser,
    new_context,
    skip_module_without_chromium,
    watch_errors,
)

pytestmark = pytest.mark.browser

skip_module_without_chromium()

ADA_BO = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}]
NAMES = ["Ada", "Bo"]

# What moved, seen at every animation frame: the keys of travelling pieces, the floating numbers,
# whether a die was tumbling, and each line the story showed, in order.
RECORDER = """
window.__seen = { travel: [], numbers: [], rolling: 0, story: [], scripted: 0, storyShown: false };
(function look() {
  const seen = window.__seen;
  if (document.body) {
    for (const a of document.getAnimations()) {
      if (a instanceof CSSAnimation || a instanceof CSSTransition) continue;
      seen.scripted += 1;
      const key = a.effect && a.effect.target && a.effect.target.dataset && a.effect.target.dataset.key;
      if (a.id === 'travel' && key && !seen.travel.includes(key)) seen.travel.push(key);
    }
    for (const n of document.querySelectorAll('.motion-number')) {
      const said = `${n.dataset.for} ${n.textContent}`;
      if (!seen.numbers.includes(said)) seen.numbers.push(said);
    }
    if (document.querySelector('[data-rolling]')) seen.rolling += 1;
    const story = document.getElementById('story');
    if (story && !story.hidden) seen.storyShown = true;
  }
  requestAnimationFrame(look);
})();
// Every step the story shows, as it is added (not sampled: a fast step is never missed).
document.addEventListener('DOMContentLoaded', () => {
  new MutationObserver((changes) => {
    for (const change of changes) {
      for (const li of change.addedNodes) window.__seen.story.push(li.textContent);
    }
  }).observe(document.getElementById('story-lines'), { childList: true });
});
"""
SEEN = "() => window.__seen"
STEP_IS = "(step) => document.body.dataset.step === String(step)"


@pytest.fixture(scope="module")
def browser():
    yield from launch_browser()


@pytest.fixture
def open_page(browser):
    """`open_page(url, size, speed=None, reduced=False)`: a page recording what moves, checked
    for javascript errors; `speed` presets the story's speed as the player would."""
    contexts = []
    errors: list[str] = []

    def open_(url: str, size: dict = DESKTOP, speed: str | None = None, reduced: bool = False,
              **options):  # fmt: skip
        if reduced:
            options["reduced_motion"] = "reduce"
        context = new_context(browser, size, **options)
        contexts.append(context)
        if speed:
            context.add_init_script(f"localStorage.setItem('robotable-motion-speed', '{speed}')")
        context.add_init_script(RECORDER)
        page = context.new_page()
        watch_errors(page, errors)
        page.goto(url)
        page.wait_for_function(READY)
        return page

    yield open_
    for context in contexts:
        context.close()
    assert errors == [], f"javascript errors on the page: {errors}"


def new_table(base: str, game: str, seats: list[dict], seed: int, **extra) -> dict:
    body = {"game": game, "num_players": len(seats), "seats": seats, "seed": seed, **extra}
    response = httpx.post(base + "/api/tables", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def seat_url(base: str, table: dict, seat: int = 0) -> str:
    return base + table["seats"][seat]["join_url"]


def act_for(base: str, table: dict, seat: int, moves: list[tuple[dict, int]]) -> None:
    """Seat `seat` (not the page's) makes `moves` (action JSON, step) over a websocket."""
    from websockets.sync.client import connect

    url = base.replace("http://", "ws://") + f"/ws/tables/{table['id']}"
    with connect(url) as ws:
        ws.send(json.dumps({"type": "hello", "token": table["seats"][seat]["token"]}))
        for action, step in moves:
            ws.send(json.dumps({"type": "act", "action": action, "step": step, "id": step}))
            while True:
                frame = json.loads(ws.recv(timeout=30))
                assert frame.get("type") != "error", frame
                if frame.get("type") == "ack":
                    break


def click_index(page, index: int) -> None:
    step = page.evaluate("document.body.dataset.step")
    page.click(f'[data-action-index="{index}"]:visible >> nth=0')
    page.wait_for_function("(step) => document.body.dataset.step !== step", arg=step)


def index_of(state, **fields) -> int:
    """The index of the first legal action whose JSON has `fields`."""
    for i, action in enumerate(state.legal_actions()):
        data = action.to_json()
        if all(data.get(k) == v for k, v in fields.items()):
            return i
    raise AssertionError(f"no legal action with {fields}")


# -- a card travels, a number floats ------------------------------------------------------------
# Stak Bots, seed 6: Ada's first legal action plays Clumsy Bot from her hand onto her stak (it
# travels there), and the card under it goes from power 1 to 2 (a "+1" floats over it); her turn
# goes on, so nothing else moves meanwhile.
TRAVEL_SEED = 6


def _stak_bots_first_move(base: str, open_page, **page_options):
    table = new_table(base, "stakbots", ADA_BO, TRAVEL_SEED)
    page = open_page(seat_url(base, table), **page_options)
    key = page.get_attribute('#board [data-action-index="0"]', "data-key")
    assert key and key.startswith("stakbots:"), "the hand card has no identity to travel by"
    click_index(page, 0)
    page.wait_for_function(READY)
    return page, key


def test_a_played_card_travels_and_a_changed_number_floats(live_server, open_page):
    # Slow: the longest travel and float, so a busy machine's late frame still sees them.
    page, key = _stak_bots_first_move(live_server.url, open_page, speed="slow")
    # Right after the move the card is on Ada's stak, drawn there, and moving there.
    assert page.query_selector(f'.sb-stak [data-key="{key}"]') is not None
    page.wait_for_function("(key) => window.__seen.travel.includes(key)", arg=key, timeout=5000)
    page.wait_for_function("() => window.__seen.numbers.length > 0", timeout=5000)
    seen = page.evaluate(SEEN)
    power = [n for n in seen["numbers"] if n.startswith("power:")]
    assert power and re.fullmatch(r"power:\d+ \+1", power[0]), seen["numbers"]
    # The floating number lets every click through, and is gone after its moment.
    page.wait_for_selector(".motion-number", state="detached", timeout=5000)
    assert int(page.evaluate("document.body.dataset.motions")) >= 2


def test_under_reduced_motion_nothing_moves_and_the_end_is_shown_at_once(live_server, open_page):
    page, key = _stak_bots_first_move(live_server.url, open_page, reduced=True)
    # The card is where it ends at once, and no animation was ever started for it.
    assert page.query_selector(f'.sb-stak [data-key="{key}"]') is not None
    page.wait_for_timeout(300)  # time enough for a travel or a number to have begun
    seen = page.evaluate(SEEN)
    assert seen["scripted"] == 0 and seen["travel"] == [] and seen["numbers"] == [], seen
    assert page.evaluate("document.body.dataset.motions") is None
    assert (
        page.evaluate("document.getAnimations().filter((a) => !(a instanceof CSSAnimation)).length")
        == 0
    )


# -- a die tumbles --------------------------------------------------------------------------------
# Bread Winner, seed 2: Ada goes first; her two builds end her turn and Bo rolls eight dice.
ROLL_SEED = 2


def test_a_rolled_die_tumbles_then_shows_its_face(live_server, open_page):
    base = live_server.url
    game = load_game("breadwinner", num_players=2)
    state = game.new_initial_state(seed=ROLL_SEED)
    table = new_table(base, "breadwinner", ADA_BO, ROLL_SEED)
    page = open_page(seat_url(base, table), speed="slow")
    for bot, factory in (("Drone", 1), ("Harvester", 2)):
        index = index_of(state, type="build", bot=bot, factory=factory)
        state.apply_action(state.legal_actions()[index])
        click_index(page, index)
    rolled = {name: n for name, n in state.view(0)["roll"].items() if n}
    page.wait_for_function("() => window.__seen.rolling > 0", timeout=5000)
    page.wait_for_function("() => !document.querySelector('[data-rolling]')", timeout=5000)
    # Settled: each die shows its rolled face in pips, and the dice are Bo's roll.
    faces = page.evaluate(
        """() => [...document.querySelectorAll('[data-roll]')].map((d) =>
             [d.dataset.roll, Number(d.dataset.face), d.querySelectorAll('.pip').length])"""
    )
    assert all(face == pips for _, face, pips in faces), faces
    kinds = {}
    for roll, _, _ in faces:
        kind = roll.split(":")[1]  # turn:kind:n
        kinds[kind] = kinds.get(kind, 0) + 1
    assert kinds == rolled


# -- a battle told step by step ---------------------------------------------------------------------
# Rumblebots, seed 7: Bo ends his Build Phase, then Ada ends hers and the round's battle is fought
# in that one move (nine lines); Ada chooses next (a faction for her gang).
BATTLE_SEED = 7


def _battle(base: str, open_page, speed: str):
    """Ada's page with Bo's Build Phase over; returns it, the index of her ending hers and the
    nine lines that move says."""
    game = load_game("rumblebots", num_players=2)
    state = game.new_initial_state(seed=BATTLE_SEED)
    table = new_table(base, "rumblebots", ADA_BO, BATTLE_SEED)
    assert state.current_player() == 1
    end = state.legal_actions()[index_of(state, type="end_turn")]
    state.apply_action(end)
    act_for(base, table, 1, [(end.to_json(), 0)])
    page = open_page(seat_url(base, table), speed=speed)
    page.wait_for_function(STEP_IS, arg=1)
    page.wait_for_function(READY)
    index = index_of(state, type="end_turn")
    events = state.apply_action(state.legal_actions()[index])
    lines = game.narrate(visible_events(events, 0), 0, NAMES)
    assert len(lines) >= 5
    return page, index, lines


def test_a_battle_is_told_step_by_step_then_the_board_is_as_it_ended(live_server, open_page):
    page, index, lines = _battle(live_server.url, open_page, speed="fast")
    click_index(page, index)
    # The board is drawn as the battle ended at once, and the choice after it can be taken.
    page.wait_for_function(READY)
    assert page.evaluate("document.body.dataset.step") == "2"
    page.wait_for_selector("#story:not([hidden])")
    assert "Your move" in page.inner_text("#story-title")
    page.wait_for_function("() => document.body.dataset.story === 'done'", timeout=15_000)
    seen = page.evaluate(SEEN)
    assert seen["story"] == lines
    assert page.is_hidden("#story")
    assert page.evaluate("document.body.dataset.step") == "2"


def test_skip_ends_the_story_at_once(live_server, open_page):
    page, index, lines = _battle(live_server.url, open_page, speed="slow")
    click_index(page, index)
    page.wait_for_selector("#story:not([hidden])")
    page.click("#story-skip")
    # At once: no step is waited for, and the board is the battle's end.
    assert page.evaluate("document.getElementById('story').hidden")
    assert page.evaluate("document.body.dataset.story") == "done"
    assert len(page.evaluate(SEEN)["story"]) < len(lines)
    assert page.evaluate("document.body.dataset.step") == "2"


def test_a_choice_taken_mid_story_is_sent_and_ends_it(live_server, open_page):
    page, index, lines = _battle(live_server.url, open_page, speed="slow")
    click_index(page, index)
    page.wait_for_selector("#story:not([hidden])")
    page.wait_for_function(READY)
    page.click("[data-action-index]:visible >> nth=0", timeout=2000)
    page.wait_for_function(STEP_IS, arg=3)
    # The battle's telling stopped where it was (a story now, if any, tells Ada's new move).
    assert len(page.evaluate(SEEN)["story"]) < len(lines)
    assert lines[-1] not in page.text_content("#story")


def test_a_choice_is_clicked_while_pieces_move(live_server, open_page):
    """Slow motion: right after the move, while its animations run, the next choice is taken
    (the page never waits for an animation to let a click through)."""
    page, key = _stak_bots_first_move(live_server.url, open_page, speed="slow")
    running = page.evaluate(
        "() => document.getAnimations().filter((a) => !(a instanceof CSSAnimation)"
        " && a.playState === 'running').length"
    )
    assert running > 0
    step = int(page.evaluate("document.body.dataset.step"))
    page.click("#board [data-action-index] >> nth=0", timeout=2000)
    page.wait_for_function("(step) => Number(document.body.dataset.step) > step", arg=step)


def test_the_speed_setting_is_kept_across_a_reload(live_server, open_page):
    table = new_table(live_server.url, "stakbots", ADA_BO, TRAVEL_SEED)
    page = open_page(seat_url(live_server.url, table))
    assert page.input_value("#motion-speed") == "normal"
    page.select_option("#motion-speed", "fast")
    assert page.input_value("#story-speed") == "fast"  # the story's own control follows
    page.reload()
    page.wait_for_function(READY)
    assert page.input_value("#motion-speed") == "fast"
    assert page.input_value("#story-speed") == "fast"
    page.select_option("#motion-speed", "slow")
    page.reload()
    page.wait_for_function(READY)
    assert page.input_value("#motion-speed") == "slow"


# -- reading a card that is a choice, on a phone -------------------------------------------------
def test_on_a_phone_a_card_that_is_a_choice_is_read_without_choosing_it(live_server, open_page):
    table = new_table(live_server.url, "stakbots", ADA_BO, TRAVEL_SEED)
    page = open_page(seat_url(live_server.url, table), size=PHONE)
    card = page.query_selector("#board .card.actionable")
    read = card.query_selector(".card-read")
    assert read is not None and read.is_visible()
    size = read.bounding_box()
    assert size["width"] >= 39.5 and size["height"] >= 39.5  # a finger's width
    name = card.query_selector(".card-name").inner_text()
    read.click()
    page.wait_for_selector("#detail:not([hidden])")
    assert name in page.inner_text("#detail")
    # Nothing was chosen: the same step, nothing sent.
    assert page.evaluate("document.body.dataset.step") == "0"
    assert page.evaluate("document.body.dataset.pending") != "true"
    page.click("#detail button")
    page.wait_for_selector("#detail", state="hidden")


def test_on_a_touch_screen_a_long_press_reads_a_card_that_is_a_choice(live_server, open_page):
    table = new_table(live_server.url, "stakbots", ADA_BO, TRAVEL_SEED)
    page = open_page(seat_url(live_server.url, table), size=PHONE, has_touch=True)
    card = page.query_selector("#board .card.actionable")
    card.scroll_into_view_if_needed()
    box = card.bounding_box()
    # Below the "i": a press on the card itself, held, as a finger does.
    point = [{"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] * 0.75}]
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": point})
    page.wait_for_selector("#detail:not([hidden])", timeout=3000)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    assert card.query_selector(".card-name").inner_text() in page.inner_text("#detail")
    page.wait_for_timeout(200)  # the lifted finger's click, if the browser sends one, chose nothing
    assert page.evaluate("document.body.dataset.step") == "0"
    assert page.evaluate("document.body.dataset.pending") != "true"


# -- the end screen ------------------------------------------------------------------------------
@pytest.mark.parametrize("game", ["betabotz", "breadwinner", "iotabots", "rumblebots", "stakbots"])
def test_every_game_says_each_seats_score_at_the_end(game):
    """The end scores (Table.meta's result) hold for every game: one per seat, the unit named,
    and the numbers the result sentence says."""
    from robotable.server.table import Table

    seats = 3 if game == "betabotz" else 2
    loaded = load_game(game, num_players=seats)
    state = loaded.new_initial_state(seed=1)
    rng = random.Random(1)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    table = Table.__new__(Table)
    table.game, table.state = loaded, state
    result = Table.result(table)
    assert result["returns"] == state.returns()
    assert len(result["scores"]) == seats and result["unit"]
    said = loaded.result_sentence(state, None, ["Ada", "Bo", "Cy"][:seats])
    best = max(result["scores"]) if game != "stakbots" else sum(result["scores"])
    assert str(best) in said or game == "breadwinner" and "draw" in said, (result, said)


def test_the_end_screen_has_each_players_score_by_name(live_server, open_page):
    """A short Stak Bots game (two-card staks) played to its end: beside who won and why, a table
    of the players by name (no positions) with the cards left and who won."""
    base = live_server.url
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "ai", "ai": "random", "name": "Zed"}]
    table = new_table(base, "stakbots", seats, 3, options={"stak_size": 2, "hand_size": 1})
    page = open_page(seat_url(base, table), speed="fast")
    for _ in range(60):
        page.wait_for_function(READY)
        if page.evaluate("document.body.dataset.terminal") == "true":
            break
        click_index(page, int(page.get_attribute("[data-action-index]", "data-action-index")))
    page.wait_for_selector("#end-card")
    result = httpx.get(f"{base}/api/tables/{table['id']}").json()["result"]
    rows = page.eval_on_selector_all(
        "#end-card .results tr", "rows => rows.map((r) => [...r.cells].map((c) => c.innerText))"
    )
    assert rows[0] == ["Player", "Cards left", "Result"]
    assert [row[0] for row in rows[1:]] == ["Ada (you)", "Zed"]
    assert [int(row[1]) for row in rows[1:]] == result["scores"]
    assert {row[2] for row in rows[1:]} == {"won", "lost"}
    assert page.inner_text("#end-words").strip()  # who won, in the game's sentence
    assert page.inner_text("#end-card .end-why").strip()  # and why it ended
