"""How far compiling robotable's own code can take a search, per game, from one run.

    ROBOTABLE_ENGINE_DIR=DIR python scripts/search_ceiling.py [ITERATIONS]

For each table, the same searches as `scripts/fixed_search.py` (five mid-game states,
`MCTSAgent(seed=1)`) run on the compiled engine under Linux `perf record`, then on the pure
engine (`ROBOTABLE_PURE=1`). It prints the CPU seconds of each, their ratio (the MCTS speed-up the
compiled engine gives) and the share of the compiled process's samples that fall in robotable's
own compiled modules (files under a `robotable/` folder), after taking away a run of one
iteration a search (start-up and the mid-game states). The rest of the samples are CPython's
runtime (allocating and freeing lists, tuples and states, dict lookups, calls by name), the C
library and the kernel: work both engines do alike. The ceiling is the ratio the search would
reach if robotable's compiled code took no time at all, `pure / (compiled * (1 - share))`.

Needs `perf` (Debian's linux-perf) and a built engine (`python -m robotable._build DIR`).
"""

from __future__ import annotations

import collections
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from robotable.frontend.bench import BENCH_TABLES

SEARCH = Path(__file__).with_name("fixed_search.py")


def searched(game: str, seats: int, iterations: int, env: dict, record: Path | None) -> float:
    """CPU seconds of the five searches (as fixed_search.py prints them)."""
    command = [sys.executable, str(SEARCH), game, str(seats), str(iterations)]
    if record is not None:
        command = ["perf", "record", "-q", "-F", "499", "-o", str(record), *command]
    out = subprocess.run(command, env=env, capture_output=True, text=True, check=True).stdout
    return float(out.split()[0])


def samples_by_file(record: Path) -> collections.Counter:
    """perf's sample counts by the file they fall in (full paths)."""
    report = subprocess.run(
        ["perf", "report", "-i", str(record), "--sort", "dso", "--stdio", "-n", "-v"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return parse_report(report)


def parse_report(report: str) -> collections.Counter:
    """The counts in `perf report --sort dso --stdio -n -v`'s lines: "PERCENT% COUNT PATH"."""
    counts: collections.Counter = collections.Counter()
    for line in report.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[0].endswith("%") and parts[1].isdigit():
            counts[parts[2]] += int(parts[1])
    return counts


def own_share(search: collections.Counter, start: collections.Counter) -> float:
    """The share of the search's samples (start-up's taken away) in robotable's own modules."""
    left = search - start  # a Counter's difference keeps only what is left over
    own = sum(n for path, n in left.items() if "/robotable/" in path)
    return own / left.total()


def main() -> None:
    if len(sys.argv) > 2 or (len(sys.argv) == 2 and not sys.argv[1].isdigit()):
        raise SystemExit("search_ceiling: the one argument is a whole number of iterations")
    iterations = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    if not os.environ.get("ROBOTABLE_ENGINE_DIR"):
        raise SystemExit("search_ceiling: set ROBOTABLE_ENGINE_DIR to a built engine's folder")
    if shutil.which("perf") is None:
        raise SystemExit("search_ceiling: needs Linux perf on the PATH (Debian: linux-perf)")
    compiled_env = dict(os.environ, ROBOTABLE_PURE="")
    pure_env = dict(os.environ, ROBOTABLE_PURE="1")
    print("| game | seats | compiled s | pure s | MCTS x | robotable's compiled code | ceiling |")
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        for game, seats in BENCH_TABLES:
            full, start = Path(folder, "full.data"), Path(folder, "start.data")
            compiled = searched(game, seats, iterations, compiled_env, full)
            searched(game, seats, 1, compiled_env, start)
            pure = searched(game, seats, iterations, pure_env, None)
            share = own_share(samples_by_file(full), samples_by_file(start))
            print(
                f"| {game} | {seats} | {compiled:.2f} | {pure:.2f} | {pure / compiled:.2f}x "
                f"| {100 * share:.1f}% | {pure / (compiled * (1 - share)):.2f}x |"
            )


if __name__ == "__main__":
    main()
