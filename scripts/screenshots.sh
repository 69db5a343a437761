#!/usr/bin/env bash
# Refresh docs/screenshots/ on purpose: runs the browser tests with their screenshots written
# there (a normal test run writes them to a temporary folder and leaves the clone clean).
# Needs what scripts/test.sh installs (the venv and Debian's chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
# The *-before.png pictures (the tables before they had art, issue 79) are kept.
find docs/screenshots -name '*.png' ! -name '*-before.png' -delete
# The play pages at both sizes (<game>-phone.png, <game>-desktop.png), a Stak Bots game's end
# (stakbots-end.png) and the lobby at both sizes (lobby-phone.png, lobby-desktop.png).
ROBOTABLE_SCREENSHOTS="$PWD/docs/screenshots" .venv/bin/python -m pytest -q -p no:cacheprovider \
    tests/web/test_web_browser.py tests/web/test_web_art.py \
    tests/web/test_web_lobby.py::test_lobby_screenshots "$@"
# The terminal's side of the same: each game's first turns as a newcomer reads them.
.venv/bin/python scripts/transcripts.py
ls docs/screenshots
