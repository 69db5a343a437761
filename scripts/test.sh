#!/usr/bin/env bash
# Install everything the tests need into .venv, then run lint, format check and the whole suite.
# Works on a fresh machine with Python 3.11; installs Debian's chromium for the browser tests
# and postgresql when they are missing and apt-get is usable (as root), otherwise those tests skip
# and say so.
set -euo pipefail
cd "$(dirname "$0")/.."

python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e '.[all]'

if [ ! -x /usr/bin/chromium ] && command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
    echo "installing Debian's chromium for the browser tests"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
        || echo "chromium could not be installed: browser tests will be skipped"
fi

if ! command -v initdb >/dev/null && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 \
    && command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
    echo "installing Debian's postgresql for the PostgreSQL tests"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null) \
        || echo "postgresql could not be installed: the PostgreSQL tests will be skipped"
fi

.venv/bin/ruff check src tests scripts
.venv/bin/ruff format --check src tests scripts
.venv/bin/python -m pytest -n 2 -p no:cacheprovider "$@"
