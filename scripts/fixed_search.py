"""A fixed amount of search, for before/after timings of the engine from outside the process.

    python scripts/fixed_search.py GAME SEATS ITERATIONS

Runs `MCTSAgent(seed=1, iterations=ITERATIONS).search(state)` from each of the five mid-game
states `robotable bench` uses (`mid_game_states(game, 5, 3)`) and prints the CPU seconds the
searches took. The work is the same on every engine and tree whose moves are the same (the
fingerprints of scripts/engine_fingerprint.py), so two trees are compared by timing this script
under each, alternated, e.g. with farm-bench (docs/performance.md, "Betabotz's card tables").
"""

import sys
import time

from robotable.agents.mcts import MCTSAgent
from robotable.core.registry import load_game
from robotable.frontend.bench import mid_game_states

if len(sys.argv) != 4:
    raise SystemExit(__doc__)
game = load_game(sys.argv[1], int(sys.argv[2]))
states = mid_game_states(game, 5, 3)
agent = MCTSAgent(seed=1, iterations=int(sys.argv[3]))
started = time.process_time()
for state in states:
    agent.search(state)
print(f"{time.process_time() - started:.3f} s of CPU for 5 searches")
