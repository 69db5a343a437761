"""Random playouts of one game with and without events, alternated in one process.

    python scripts/silenced_playouts.py GAME SEATS [ROUNDS]

Each round runs `robotable bench`'s random playouts (`frontend.bench.random_playouts`, two
seconds of process CPU time) twice from the same seed, once on states as the front ends get
them and once silenced (`State.silence()`: no events built); the medians over ROUNDS (default
5) and their ratio are printed. Both ways play the same games, move for move (the conformance
checker holds the positions equal), so the ratio is what building the events costs.
docs/performance.md, "Silenced states".
"""

import sys

from robotable.core.registry import load_game
from robotable.frontend.bench import random_playouts

if len(sys.argv) not in (3, 4):
    raise SystemExit(__doc__)
game = load_game(sys.argv[1], num_players=int(sys.argv[2]))
rounds = int(sys.argv[3]) if len(sys.argv) == 4 else 5
loud, quiet = [], []
for number in range(rounds):
    for silenced, rates in ((False, loud), (True, quiet)):
        rates.append(random_playouts(game, 2.0, number, silenced)["random_actions_per_s"])
loud.sort()
quiet.sort()
middle = rounds // 2
print(
    f"{game.name} {game.num_players} seats: with events {loud[middle]:,.0f} actions/s, "
    f"silenced {quiet[middle]:,.0f}: {quiet[middle] / loud[middle]:.2f}x (medians of {rounds})"
)
