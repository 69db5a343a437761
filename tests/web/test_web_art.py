"""The table's art (issue 79 point 1), in real Chromium at a phone's and a desktop's width.

Every bundled game a few moves in: each card, bot, die, tile and crop chip on the board has its
picture (inline SVG drawn by art.js; nothing is fetched), no visible text is smaller than 12 px,
nothing sticks out of its card sideways, and every card's name can be seen (a card deep in a
stak is not hidden under another). A card's long text opens in a detail view that Escape
closes. Screenshots of each game go where test_web_browser.py puts its own (ROBOTABLE_SCREENSHOTS
to refresh docs/screenshots/).
"""

from __future__ import annotations

import random

import pytest

from .browser_setup import SETTLED
from .test_web_browser import (  # noqa: F401  (browser and page are fixtures)
    GAMES,
    READY,
    SCREENSHOTS,
    SIZES,
    _table_against_ai,
    browser,
    page,
)

pytestmark = pytest.mark.browser

# The pieces of a board that are drawn, not written.
PIECES = "#board .card, #board .bw-die, #board .bw-tile, #board .bw-crop, #board .bw-factory"

WITHOUT_PICTURE = f"""() => [...document.querySelectorAll({PIECES!r})]
  .filter((el) => !el.querySelector('svg'))
  .map((el) => `${{el.className}}: ${{el.textContent.slice(0, 40)}}`)"""

PICTURED = f"() => document.querySelectorAll({PIECES!r}).length"

# Visible elements holding text of their own, computed smaller than 12 px.
SMALL_TEXT = """() => {
  const out = [];
  for (const el of document.querySelectorAll('body *')) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || el.closest('[hidden], .visually-hidden, script, style')) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < 11.95) out.push(`${el.tagName}.${el.className} ${size}px: ${el.textContent.trim().slice(0, 30)}`);
  }
  return out;
}"""

# Descendants of a card (or die, tile, mission space) that stick out of it sideways, or whose
# own content is wider than they are.
OVERFLOW = """() => {
  const out = [];
  for (const card of document.querySelectorAll('#board .card, #board .bw-die, #board .bw-tile, #board .bz-space')) {
    const box = card.getBoundingClientRect();
    if (box.width === 0) continue;
    for (const el of card.querySelectorAll('*')) {
      if (el.closest('svg') && el.tagName.toLowerCase() !== 'svg') continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      const wide = el.scrollWidth > el.clientWidth + 1 && el.tagName.toLowerCase() !== 'svg';
      if (r.left < box.left - 1 || r.right > box.right + 1 || wide) {
        out.push(`${el.className.baseVal ?? el.className} in ${card.className}: ${card.textContent.slice(0, 30)}`);
      }
    }
  }
  return out;
}"""

# Cards whose name cannot be seen: something else is drawn over the middle of it.
COVERED = """() => {
  const out = [];
  for (const name of document.querySelectorAll('#board .card .card-name')) {
    const card = name.closest('.card');
    if (card.closest('details:not([open])')) continue;
    name.scrollIntoView({ block: 'center', inline: 'center' });
    const r = name.getBoundingClientRect();
    if (r.width === 0) continue;
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!hit || !card.contains(hit)) out.push(`${name.textContent} under ${hit && hit.className}`);
  }
  window.scrollTo(0, 0);
  return out;
}"""


def _a_few_moves_in(page, game: str, moves: int = 4) -> None:  # noqa: F811  (the page fixture)
    rng = random.Random(game)
    for _ in range(moves):
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


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", GAMES)
def test_every_piece_is_drawn_readable_and_inside_its_card(live_server, page, game, size):  # noqa: F811  (the page fixture)
    page.set_viewport_size(SIZES[size])
    page.goto(live_server.url + _table_against_ai(live_server.url, game))
    page.wait_for_function(READY)
    _a_few_moves_in(page, game)
    # Measured where the pieces rest: one caught mid-travel is drawn between two places.
    page.wait_for_function(SETTLED)
    assert page.evaluate("document.body.dataset.drawingFailed") is None
    assert page.evaluate(PICTURED) > 0, f"{game}: nothing on the board is drawn"
    assert page.evaluate(WITHOUT_PICTURE) == []
    assert page.evaluate(SMALL_TEXT) == [], f"{game} at {size}: text under 12 px"
    assert page.evaluate(OVERFLOW) == [], f"{game} at {size}: something sticks out of its card"
    assert page.evaluate(COVERED) == [], f"{game} at {size}: a card's name is covered"
    # Nothing is fetched for the pictures: every image on the page is inline SVG.
    assert page.evaluate("document.querySelectorAll('img, image, use[href]').length") == 0
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{game}-{size}.png"), full_page=True)


def test_a_cards_text_opens_in_a_detail_view_that_escape_closes(live_server, page):  # noqa: F811  (the page fixture)
    page.set_viewport_size(SIZES["phone"])
    page.goto(live_server.url + _table_against_ai(live_server.url, "rumblebots"))
    page.wait_for_function(READY)
    plain = page.query_selector("#board .card[role=group]:not(.actionable):not(.face-down)")
    assert plain is not None, "no card to read on the Rumblebots board"
    plain.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#detail:not([hidden])")
    assert page.query_selector("#detail svg") is not None
    assert page.evaluate("document.getElementById('detail').contains(document.activeElement)")
    page.keyboard.press("Escape")
    page.wait_for_selector("#detail", state="hidden")
    assert page.evaluate("() => document.activeElement.classList.contains('card')")


def test_a_stak_shows_every_face_up_card_however_deep(live_server, page):  # noqa: F811  (the page fixture)
    """A face-up card deep in a stak (pitted to the bottom, say) is a strip with its name and
    numbers, not a card hidden under the next one."""
    from robotable import load_game

    game = load_game("stakbots", num_players=2)
    # Find a seed whose random game puts a face-up card under the top of a stak.
    for seed in range(40):
        state, rng, actions = game.new_initial_state(seed=seed), random.Random(seed), 0
        while not state.is_terminal() and actions < 60:
            stak = state.view(0)["seats"][0]["stak"]
            if any(c.get("face_up") for c in stak[:-1]):
                break
            state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
        else:
            continue
        break
    else:
        pytest.skip("no seed put a face-up card under the top within 60 moves")
    del state
    import httpx

    seats = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}]
    table = httpx.post(
        live_server.url + "/api/tables",
        json={"game": "stakbots", "num_players": 2, "seats": seats, "seed": seed},
    ).json()
    _replay(live_server.url, table, seed, actions)
    page.set_viewport_size(SIZES["phone"])
    page.goto(live_server.url + table["seats"][0]["join_url"])
    page.wait_for_selector(".sb-strip")
    assert page.evaluate(COVERED) == []
    strip = page.query_selector(".sb-strip")
    assert strip.query_selector("svg") is not None
    assert strip.query_selector(".stat-power") is not None


def _replay(base: str, table: dict, seed: int, count: int) -> None:
    """The same random moves as the search above, sent by the two seats over websockets."""
    import json

    from websockets.sync.client import connect

    from robotable import load_game

    state = load_game("stakbots", num_players=2).new_initial_state(seed=seed)
    rng = random.Random(seed)
    url = base.replace("http://", "ws://") + f"/ws/tables/{table['id']}"
    with connect(url) as ada, connect(url) as bo:
        for ws, seat in ((ada, table["seats"][0]), (bo, table["seats"][1])):
            ws.send(json.dumps({"type": "hello", "token": seat["token"]}))
        for step in range(count):
            seat = state.current_player()
            action = rng.choice(state.legal_actions())
            ws = (ada, bo)[seat]
            message = {"type": "act", "action": action.to_json(), "step": step, "id": step}
            ws.send(json.dumps(message))
            while json.loads(ws.recv(timeout=30)).get("type") not in ("ack", "error"):
                pass
            state.apply_action(action)
