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

# Both engines, one source. The editable install above runs the pure-Python engine; the compiled
# one (Cython, from the same .py files) is built into build/engine, never next to the sources
# where it would shadow edits, and is up to date or rebuilt (robotable/_engine.py checks every
# module's source hash anyway). The whole suite runs on the compiled engine: it is what an
# installed wheel runs, and the front ends, the lab's worker processes and the web table are where
# a compiled-only difference (pickling, introspection) would hide. The engine-bound tests (rules,
# goldens, conformance, agents, RL adapters) run again on the pure engine, which a developer edits.
# Without a C compiler the whole suite runs on the pure engine instead, saying so.
engine="$PWD/build/engine"
if .venv/bin/python -m robotable._build "$engine"; then
    echo "whole suite on the compiled engine"
    ROBOTABLE_ENGINE_DIR="$engine" .venv/bin/python -m pytest -n 2 -p no:cacheprovider "$@"
    echo "engine-bound tests on the pure-Python engine"
    # each bundled game's own tests folder, from the registry (a game may have none yet)
    game_tests=$(.venv/bin/python -c "import os; from robotable.core.registry import bundled_game_names as b; print(*(d for n in b() if os.path.isdir(d := f'tests/{n}')))")
    ROBOTABLE_PURE=1 .venv/bin/python -m pytest -n 2 -p no:cacheprovider "$@" \
        tests/test_conformance.py tests/test_engine.py tests/test_agents.py tests/test_core.py \
        tests/envs $game_tests
else
    echo "the compiled engine could not be built: whole suite on the pure-Python engine"
    ROBOTABLE_PURE=1 .venv/bin/python -m pytest -n 2 -p no:cacheprovider "$@"
fi
