"""scripts/search_ceiling.py: robotable's share of a compiled search, read from perf's report."""

from __future__ import annotations

import subprocess
import sys

import pytest

from script_modules import SCRIPTS, load_script

# `perf report --sort dso --stdio -n -v` as it prints: comment lines, then "PERCENT% COUNT PATH".
SEARCH_REPORT = """\
# Samples: 1K of event 'cpu-clock:pppH'
#
# Overhead       Samples  Shared Object
# ........  ............  ......................
#
    60.00%           600  /usr/lib/libpython3.11.so.1.0
    25.00%           250  /eng/robotable/games/stakbots/rules.cpython-311-x86_64-linux-gnu.so
    10.00%           100  /eng/robotable/agents/mcts.cpython-311-x86_64-linux-gnu.so
     5.00%            50  /usr/lib/python3.11/lib-dynload/_random.cpython-311-x86_64-linux-gnu.so
"""
START_REPORT = """\
    95.00%           200  /usr/lib/libpython3.11.so.1.0
     5.00%            10  /eng/robotable/games/stakbots/rules.cpython-311-x86_64-linux-gnu.so
"""


@pytest.fixture(scope="module")
def ceiling():
    return load_script("search_ceiling")


def test_the_report_is_read_by_file(ceiling):
    counts = ceiling.parse_report(SEARCH_REPORT)
    assert counts["/usr/lib/libpython3.11.so.1.0"] == 600
    assert sum(counts.values()) == 1000  # the comment lines count nothing


def test_the_share_is_robotables_modules_after_start_up(ceiling):
    share = ceiling.own_share(
        ceiling.parse_report(SEARCH_REPORT), ceiling.parse_report(START_REPORT)
    )
    # start-up taken away: 400 of libpython, 240 + 100 of robotable, 50 of _random (not ours)
    assert share == pytest.approx(340 / 790)


def test_a_bad_argument_is_one_line():
    done = subprocess.run(
        [sys.executable, str(SCRIPTS / "search_ceiling.py"), "many"],
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 1
    assert done.stderr == "search_ceiling: the one argument is a whole number of iterations\n"
