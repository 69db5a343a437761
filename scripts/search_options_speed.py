"""What a search option costs or saves in time: the same searches with and without it, alternated.

    python scripts/search_options_speed.py GAME SEATS OPTIONS [ITERATIONS] [ROUNDS] [--base OPTIONS]
    python scripts/search_options_speed.py betabotz 3 worlds=32
    python scripts/search_options_speed.py breadwinner 2 rollout=4,guide=1 1000 --base rollout=0

Each round times `MCTSAgent(seed=1, iterations=ITERATIONS)` (default 1,500) and the same agent
with OPTIONS (`key=value`, comma-separated, as in an agent spec) searching from the five
mid-game states `robotable bench` uses (`mid_game_states(game, 5, 3)`), in process CPU time, one
after the other; it prints each round's ratio (plain over with-options: above 1, the option
saves time) and their median, and each search's mean seconds. Alternating in one process cancels
most of a busy machine's drift. `--base` gives both agents options (the plain agent's, and the
other's unless OPTIONS names them again), to time an option against a named strength's search.
"""

import statistics
import sys
import time

from robotable.agents import make_agent
from robotable.core.registry import load_game
from robotable.frontend.bench import mid_game_states

args = sys.argv[1:]
base = ""
if "--base" in args:
    at = args.index("--base")
    if at + 1 >= len(args):
        raise SystemExit(__doc__)
    base = "," + args[at + 1]
    del args[at : at + 2]
if len(args) not in (3, 4, 5):
    raise SystemExit(__doc__)
game = load_game(args[0], int(args[1]))
options = args[2]
iterations = int(args[3]) if len(args) > 3 else 1500
rounds = int(args[4]) if len(args) > 4 else 5
states = mid_game_states(game, 5, 3)


def seconds(spec: str) -> float:
    agent = make_agent(spec, seed=1)
    started = time.process_time()
    for state in states:
        agent.search(state)
    return time.process_time() - started


plain = f"mcts:iterations={iterations}{base}"
timed = [(seconds(plain), seconds(f"{plain},{options}")) for _ in range(rounds)]
ratios = [without / with_options for without, with_options in timed]
searches = rounds * len(states)
print(
    f"{args[0]} ({args[1]} seats), {options}: {statistics.median(ratios):.2f}x "
    f"(rounds: {', '.join(f'{r:.2f}' for r in ratios)}); a search "
    f"{sum(t for t, _ in timed) / searches:.3f} s without, "
    f"{sum(t for _, t in timed) / searches:.3f} s with"
)
