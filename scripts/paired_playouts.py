"""Random playouts of one game on two source trees, compiled, in paired rounds: the before/after
of an engine change on a machine whose speed drifts (docs/performance.md).

    python scripts/paired_playouts.py NEW_SRC NEW_ENGINE OLD_SRC OLD_ENGINE GAME SEATS [ROUNDS]

NEW_SRC/OLD_SRC are a tree's `src` folder, NEW_ENGINE/OLD_ENGINE what `python -m robotable._build
DIR` built from it. Each round runs `robotable bench`'s silenced random playouts
(`frontend.bench.random_playouts`, one second of process CPU time, the same seed) in a fresh
process per tree, the old tree first, then the new; the ratio of a round is new over old. The
median of the rounds' ratios and its quartiles are printed (default 11 rounds): a drift of the
machine's speed moves both halves of a round alike, where it would move a ratio of two medians
taken minutes apart.
"""

import os
import statistics
import subprocess
import sys

if len(sys.argv) not in (7, 8):
    raise SystemExit(__doc__)
NEW_SRC, NEW_ENGINE, OLD_SRC, OLD_ENGINE = (os.path.abspath(a) for a in sys.argv[1:5])
GAME, SEATS = sys.argv[5], int(sys.argv[6])
ROUNDS = int(sys.argv[7]) if len(sys.argv) == 8 else 11
PLAYOUTS = (
    "import sys\n"
    "from robotable.core.registry import load_game\n"
    "from robotable.frontend.bench import random_playouts\n"
    "game = load_game(sys.argv[1], num_players=int(sys.argv[2]))\n"
    "print(random_playouts(game, 1.0, 0, True)['random_actions_per_s'])\n"
)


def rate(src: str, engine: str) -> float:
    env = {**os.environ, "PYTHONPATH": src, "ROBOTABLE_ENGINE_DIR": engine}
    env.pop("ROBOTABLE_PURE", None)
    out = subprocess.run(
        [sys.executable, "-c", PLAYOUTS, GAME, str(SEATS)],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return float(out.stdout.split()[-1])


old, new = [], []
for _ in range(ROUNDS):
    old.append(rate(OLD_SRC, OLD_ENGINE))
    new.append(rate(NEW_SRC, NEW_ENGINE))
ratios = sorted(b / a for a, b in zip(old, new, strict=True))
quartiles = statistics.quantiles(ratios, n=4)
print(
    f"{GAME} {SEATS} seats: old {statistics.median(old):,.0f} new {statistics.median(new):,.0f}"
    f" random actions/s; new/old per round: median {statistics.median(ratios):.2f}x"
    f" (quartiles {quartiles[0]:.2f}-{quartiles[2]:.2f}, {ROUNDS} rounds)"
)
