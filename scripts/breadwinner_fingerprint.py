"""Fingerprint of seeded Bread Winner games: every action, event and final state of random and
MCTS seats over a few option configurations: the check that both engines, and the source before
a change to the engine, make the same moves. Usage: PYTHONPATH=SRC [ROBOTABLE_PURE=1] python
scripts/breadwinner_fingerprint.py [SEEDS]
"""

import hashlib
import json
import sys

import robotable._engine as e
from robotable.agents.mcts import MCTSAgent
from robotable.agents.random_agent import RandomAgent
from robotable.games.breadwinner import BreadWinnerGame

h = hashlib.sha256()
moves = 0
configs = [
    {},
    {"act_after_deploy": True},
    {"stalemate": "draw", "max_turns": 12},
    {"first_player": "seat1", "crop_values": (1, 1, 2, 2, 3, 3, 4, 4, 5, 6)},
]
for opts in configs:
    g = BreadWinnerGame(2, **opts)
    for seed in range(int(sys.argv[1]) if len(sys.argv) > 1 else 20):
        s = g.new_initial_state(seed)
        for ev in s.opening_events():
            h.update(json.dumps(ev, sort_keys=True, default=str).encode())
        agents = [
            MCTSAgent(seed=seed * 7 + i, iterations=60)
            if (seed + i) % 3 == 0
            else RandomAgent(seed=seed * 7 + i)
            for i in range(2)
        ]
        t = 0
        while not s.is_terminal() and t < 600:
            p = s.current_player()
            a = agents[p].act(s)
            h.update(json.dumps(a.to_json(), sort_keys=True).encode())
            for ev in s.apply_action(a):
                h.update(json.dumps(ev, sort_keys=True, default=str).encode())
            t += 1
            moves += 1
        h.update(json.dumps(s.to_json(), sort_keys=True).encode())
        h.update(json.dumps(s.stats(), sort_keys=True).encode())
        h.update(json.dumps(s.view(0), sort_keys=True, default=str).encode())
        h.update(s.prompt().encode())
print(e.describe() if hasattr(e, "describe") else "", moves, h.hexdigest())
