"""The designer's studio in Debian's chromium (issue 81 point 6): edit a card and see its line
error, run a small study to its verdict, compare A and B, open a table with the draft, and a
share link; the page at phone width keeps its words and charts readable."""

from __future__ import annotations

import asyncio
import tempfile
import threading
from pathlib import Path

import httpx
import pytest

from robotable.server.app import create_app
from robotable.server.studio import KEY_HEADER, StudioSettings

from .conftest import TEST_LIMITS
from .test_studio_api import cli_numbers

pytestmark = pytest.mark.browser

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]  # fmt: skip
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
KEY = "the-studio-key-of-this-test"
SCREENSHOTS = Path(tempfile.gettempdir()) / "robotable-screenshots"

if not CHROMIUM.exists():
    pytest.skip("Debian's chromium is not installed at /usr/bin/chromium", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")


class StudioServer:
    """uvicorn serving the app with the studio on, on a free port, in a background thread."""

    def __init__(self, db: Path, key: str | None) -> None:
        import uvicorn

        started = threading.Event()

        class Server(uvicorn.Server):
            async def startup(self, sockets=None) -> None:
                await super().startup(sockets)
                started.set()

        app = create_app(
            db,
            ai_delay=0,
            synchronous="NORMAL",
            limits=TEST_LIMITS,
            studio=StudioSettings(key=key, workers=2),
        )
        self.server = Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
        self.thread = threading.Thread(target=lambda: asyncio.run(self.server.serve()), daemon=True)
        self.thread.start()
        if not started.wait(timeout=30):
            raise RuntimeError("the studio server did not start")
        self.url = f"http://127.0.0.1:{self.server.servers[0].sockets[0].getsockname()[1]}"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)


@pytest.fixture
def studio(tmp_path):
    server = StudioServer(tmp_path / "studio.sqlite3", key=None)
    yield server
    server.stop()


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        instance = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield instance
        instance.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(bypass_csp=True, viewport=DESKTOP)
    errors: list[str] = []
    context.on("weberror", lambda err: errors.append(str(err.error)))
    context.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    yield context.new_page()
    context.close()
    assert errors == [], f"javascript errors on the page: {errors}"


def open_studio(page, url: str) -> None:
    page.goto(url + "/studio")
    page.wait_for_selector("#cards-table tbody tr")


def checked(page):
    return int(page.evaluate("document.body.dataset.checked || 0"))


def edit_cell(page, row: int, field: str, value: str) -> None:
    """Type `value` into a cell of the table and wait for the server's check of the draft."""
    before = checked(page)
    cell = page.locator(f"#cards-table tbody tr >> nth={row}").locator(f"input[data-field={field}]")
    cell.fill(value)
    cell.press("Enter")
    cell.evaluate("el => el.blur()")
    page.wait_for_function("(n) => Number(document.body.dataset.checked) > n", arg=before)


def run_study(page, question: str, games: int = 20) -> list[str]:
    page.select_option("#question", question)
    page.select_option("#level", "random")
    page.fill("#games", str(games))
    page.click("#run")
    page.wait_for_selector("body[data-answer]", timeout=120_000)
    return page.locator("#verdicts li").all_inner_texts()


OVERFLOW = "document.documentElement.scrollWidth - document.documentElement.clientWidth"


def test_a_card_edited_in_the_table_shows_its_line_error_and_the_text_follows(studio, page):
    page.set_viewport_size(PHONE)
    open_studio(page, studio.url)
    page.select_option("#question", "compare")
    assert page.evaluate(OVERFLOW) <= 0, "the editor scrolls sideways on a phone"
    page.set_viewport_size(DESKTOP)
    first = page.locator("#cards-table tbody tr >> nth=0")
    line = int(first.locator("input[data-field=power]").get_attribute("data-line"))
    edit_cell(page, 0, "power", "four")
    error = page.locator("#draft-error")
    assert error.is_visible()
    assert error.inner_text() == (
        f"Line {line}, power: card 'Core Bot #1': power must be an integer >= 0, got 'four'"
    )
    assert "has-error" in (first.get_attribute("class") or "")
    assert page.locator("#run").is_disabled()
    page.click("#view-text")
    text = page.input_value("#draft-text").splitlines()
    assert text[line - 1] == 'power = "four"'
    # The text view is the same draft: mending it there mends the table.
    before = checked(page)
    page.fill("#draft-text", "\n".join(text).replace('power = "four"', "power = 5"))
    page.wait_for_function("(n) => Number(document.body.dataset.checked) > n", arg=before)
    assert not page.locator("#draft-error").is_visible()
    page.click("#view-table")
    assert first.locator("input[data-field=power]").input_value() == "5"


def test_a_small_study_runs_to_its_verdict_and_its_link_shows_it(studio, page):
    open_studio(page, studio.url)
    page.wait_for_function("document.getElementById('estimate').textContent.includes('about')")
    assert "seconds" in page.inner_text("#estimate")
    verdicts = run_study(page, "fair")
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "studio-desktop.png"), full_page=True)
    assert any(v.startswith("Moving first is worth") for v in verdicts)
    assert page.inner_text("#progress-text") == "Done: 20 of 20 games"
    assert page.locator("#charts svg").count() >= 2
    link = page.locator("#share").get_attribute("href")
    # This browser keeps its studies: the studio lists the one just run, by its title.
    title = page.inner_text("#answer-title")
    open_studio(page, studio.url)
    assert page.locator("#past a").all_inner_texts() == [title]
    assert page.locator("#past a").get_attribute("href") == link
    page.set_viewport_size(PHONE)
    page.goto(studio.url + link)
    page.wait_for_selector("body[data-answer]")
    assert page.locator("#verdicts li").all_inner_texts() == verdicts
    assert page.locator("#editor").is_hidden()
    assert page.evaluate(OVERFLOW) <= 0
    # Chart labels stay readable at phone width: 15 units of a 360-wide drawing, drawn wider.
    width = page.locator("#charts svg >> nth=0").bounding_box()["width"]
    assert width >= 340
    page.screenshot(path=str(SCREENSHOTS / "studio-phone.png"), full_page=True)


def test_a_against_b_compares_the_draft_with_the_set_as_loaded(studio, page):
    open_studio(page, studio.url)
    edit_cell(page, 1, "power", "9")
    page.select_option("#question", "compare")
    assert page.locator("#compare-panel").is_visible()
    verdicts = run_study(page, "compare")
    assert verdicts[0].startswith("The change moved the first mover from")
    assert "A against B" in page.locator("#charts svg >> nth=0").inner_html()


def test_play_the_draft_opens_a_table_with_the_edited_set(studio, page):
    open_studio(page, studio.url)
    edit_cell(page, 0, "power", "7")
    page.click("#play-ai")
    page.wait_for_url("**/table/**")
    table_id = page.url.split("/table/")[1].split("#")[0]
    table = httpx.get(f"{studio.url}/api/tables/{table_id}").json()
    assert table["game"] == "stakbots"
    cards = table["options"]["cards"]
    assert cards.startswith("inline:") and "power = 7" in cards


def test_a_public_studio_asks_for_its_key(tmp_path, browser):
    server = StudioServer(tmp_path / "keyed.sqlite3", key=KEY)
    context = browser.new_context(bypass_csp=True, viewport=DESKTOP)
    errors: list[str] = []  # the browser's own line for the refused request is no page error
    context.on("weberror", lambda err: errors.append(str(err.error)))
    page = context.new_page()
    try:
        page.goto(server.url + "/studio")
        page.wait_for_selector("#key-panel:not([hidden])")
        assert page.locator("#editor").is_hidden()
        page.fill("#studio-key", "not-the-key")
        page.click("#key-save")
        page.wait_for_selector("#studio-error:not([hidden])")
        assert page.inner_text("#studio-error") == "That is not this studio's key."
        page.fill("#studio-key", KEY)
        page.click("#key-save")
        page.wait_for_selector("#cards-table tbody tr")
        assert httpx.get(server.url + "/studio/api/setup").status_code == 401
        assert httpx.get(server.url + "/studio/api/setup", headers={KEY_HEADER: KEY}).is_success
    finally:
        context.close()
        server.stop()
    assert errors == []


def test_a_shared_study_reopens_its_cards_in_the_studio(studio, page):
    open_studio(page, studio.url)
    edit_cell(page, 0, "power", "6")
    run_study(page, "length")
    page.goto(studio.url + page.locator("#share").get_attribute("href"))
    page.wait_for_selector("body[data-answer]")
    assert page.locator("#verdicts li >> nth=0").inner_text().startswith("Warning")
    page.click("#reopen")
    page.wait_for_selector("#cards-table tbody tr")
    page.wait_for_function("Number(document.body.dataset.checked) > 0")
    assert (
        page.locator("#cards-table tbody tr >> nth=0")
        .locator("input[data-field=power]")
        .input_value()
        == "6"
    )
    assert page.input_value("#question") == "length" and page.input_value("#games") == "20"


def test_the_page_gives_the_numbers_of_the_command_line(studio, page, tmp_path):
    open_studio(page, studio.url)
    page.fill("#seed", "7")
    run_study(page, "fair")
    assert page.inner_text("#deal-line").startswith("Deal number 7:")
    study_id = page.evaluate("document.body.dataset.answer")
    shown = httpx.get(f"{studio.url}/studio/api/studies/{study_id}").json()
    summary = cli_numbers(tmp_path)
    assert {key: summary[key] for key in shown["numbers"]} == shown["numbers"]


def test_a_card_is_added_and_the_set_saved_as_a_file(studio, page, tmp_path):
    open_studio(page, studio.url)
    rows = page.locator("#cards-table tbody tr")
    count = rows.count()
    before = checked(page)
    page.click("#add-card")
    page.wait_for_function("(n) => Number(document.body.dataset.checked) > n", arg=before)
    assert rows.count() == count + 1
    assert page.locator("#draft-error").is_hidden()
    edit_cell(page, count, "power", "8")
    with page.expect_download() as download:
        page.click("#save")
    saved = tmp_path / "saved.toml"
    download.value.save_as(saved)
    assert download.value.suggested_filename == "stakbots-cards.toml"
    assert saved.read_text(encoding="utf-8") == page.input_value("#draft-text")
    assert saved.read_text(encoding="utf-8").rstrip().endswith("power = 8\nrank = 6")


def test_play_the_draft_with_friends_leaves_the_other_seats_open(studio, page):
    open_studio(page, studio.url)
    page.select_option("#seats", "3")
    page.click("#play-friends")
    page.wait_for_url("**/table/**")
    table_id = page.url.split("/table/")[1].split("#")[0]
    seats = httpx.get(f"{studio.url}/api/tables/{table_id}").json()["seats"]
    assert [(s["kind"], s["open"]) for s in seats] == [
        ("human", False),
        ("human", True),
        ("human", True),
    ]


def test_cancel_stops_a_study_and_the_answer_says_on_how_many_games(studio, page):
    open_studio(page, studio.url)
    page.select_option("#question", "fair")
    page.select_option("#level", "random")
    page.fill("#games", "2000")
    page.click("#run")
    page.wait_for_function("document.getElementById('progress').value > 0")
    page.click("#cancel")
    page.wait_for_selector("body[data-answer]", timeout=120_000)
    assert page.evaluate("document.body.dataset.study") == "cancelled"
    assert page.inner_text("#progress-text").startswith("Cancelled: ")
    first = page.locator("#verdicts li >> nth=0").inner_text()
    assert first.startswith("Interrupted: this verdict rests on") and "of 2000 planned" in first
    assert page.locator("#cancel").is_hidden() and page.locator("#run").is_enabled()


def test_a_field_a_card_leaves_out_is_written_from_its_empty_cell(studio, page):
    open_studio(page, studio.url)
    first = page.locator("#cards-table tbody tr >> nth=0")
    empty = first.locator("input[data-field=copies]")
    assert empty.get_attribute("data-missing") == "true" and empty.input_value() == ""
    edit_cell(page, 0, "copies", "3")
    assert first.locator("input[data-field=copies]").input_value() == "3"
    assert page.input_value("#draft-text").split("[[cards]]")[1].strip().endswith("copies = 3")
