"""What every real-browser test shares: Debian's chromium and its flags, the two screen sizes,
the play page's readiness, the screenshot folder, and a browser, its contexts and pages checked
for javascript errors. The browser test modules import it instead of keeping copies (a copy of
READY had to follow every change to the page's readiness).

Nothing here skips on import: a module with tests that need no browser (test_web_table_flow.py)
imports it too. A module that is all browser calls `skip_module_without_chromium()`; the
`launch_browser()` fixture body skips by itself.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

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
SIZES = {"phone": PHONE, "desktop": DESKTOP}

# Screenshots go to a temporary folder; ROBOTABLE_SCREENSHOTS=docs/screenshots refreshes the ones
# the documentation shows (scripts/screenshots.sh): a test run never writes into tracked files.
SCREENSHOTS = Path(os.environ.get("ROBOTABLE_SCREENSHOTS") or tempfile.gettempdir()) / (
    "" if os.environ.get("ROBOTABLE_SCREENSHOTS") else "robotable-screenshots"
)

# The play page is ready for a click: the game is over, or this seat decides and may act. It
# never waits for an animation (motion.js moves pieces without holding up a choice).
READY = (
    "() => document.body.dataset.terminal === 'true' || "
    "(document.body.dataset.deciding === 'true' && document.body.dataset.pending !== 'true' "
    "&& document.body.dataset.forced !== 'true' "  # a forced choice is being taken by the page
    "&& document.querySelector('[data-action-index]') !== null)"
)

# The board's pieces are at rest: nothing travels or tumbles (motion.js). For a test that
# measures where things are drawn (or takes a picture of them), never for readiness.
SETTLED = "() => !document.querySelector('#board .traveling, #board [data-rolling]')"


def have_chromium() -> bool:
    return CHROMIUM.exists()


def skip_module_without_chromium() -> None:
    """For a module of browser tests only: skip it whole where chromium or Playwright is missing."""
    if not have_chromium():
        pytest.skip(
            "Debian's chromium is not installed at /usr/bin/chromium", allow_module_level=True
        )
    pytest.importorskip("playwright.sync_api")


def launch_browser() -> Iterator:
    """The body of a module-scoped `browser` fixture: chromium launched through Playwright
    (skipped where either is missing), closed after the module."""
    if not have_chromium():
        pytest.skip("Debian's chromium is not installed at /usr/bin/chromium")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        instance = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield instance
        instance.close()


def new_context(browser, size: dict | None = None, **options):
    """A browser context at `size` (the desktop's by default). bypass_csp lets Playwright
    evaluate its wait conditions; the page itself is unchanged."""
    return browser.new_context(bypass_csp=True, viewport=size or DESKTOP, **options)


def watch_errors(target, errors: list[str]) -> None:
    """Collect on `errors` every uncaught exception and console error of a page (or of every
    page of a context): a drawing module that throws is caught and logged, and is a bug."""
    if hasattr(target, "pages"):  # a context
        target.on("weberror", lambda err: errors.append(str(err.error)))
    else:
        target.on("pageerror", lambda exc: errors.append(str(exc)))
    target.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
