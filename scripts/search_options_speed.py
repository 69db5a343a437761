"""What a search option costs or saves in time: the same searches with and without it, alternated.

    python scripts/search_options_speed.py GAME SEATS OPTIONS [ITERATIONS] [ROUNDS]
    python scripts/search_options_speed.py betabotz 3 worlds=32

Each round times `MCTSAgent(seed=1, iterations=ITERATIONS)` (default 1,500) and the same agent
with OPTIONS (`key=value`, comma-separated, as in an agent spec) searching from the five
mid-game states `robotable bench` uses (`mid_game_states(game, 5, 3)`), in process CPU time, one
after the other; it prints each round's ratio (plain over with-options: above 1, the option
saves time) and their median. Alternating in one process cancels most of a busy machine's drift.
"""

import statistics
import sys
import time

from robotable.agents import make_agent
from robotable.core.registry import load_game
from robotable.frontend.bench import mid_game_states

if len(sys.argv) not in (4, 5, 6):
    raise SystemExit(__doc__)
game = load_game(sys.argv[1], int(sys.argv[2]))
options = sys.argv[3]
iterations = int(sys.argv[4]) if len(sys.argv) > 4 else 1500
rounds = int(sys.argv[5]) if len(sys.argv) > 5 else 5
states = mid_game_states(game, 5, 3)


def seconds(spec: str) -> float:
    agent = make_agent(spec, seed=1)
    started = time.process_time()
    for state in states:
        agent.search(state)
    return time.process_time() - started


plain = f"mcts:iterations={iterations}"
ratios = [seconds(plain) / seconds(f"{plain},{options}") for _ in range(rounds)]
print(
    f"{sys.argv[1]} ({sys.argv[2]} seats), {options}: {statistics.median(ratios):.2f}x "
    f"(rounds: {', '.join(f'{r:.2f}' for r in ratios)})"
)
