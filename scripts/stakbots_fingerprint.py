"""Fingerprint of seeded Stak Bots games: every action, event and final state of random and MCTS
seats over ten seat/mode configurations: the check that both engines, and the source before a
change to the engine, make the same moves. Usage: PYTHONPATH=SRC [ROBOTABLE_PURE=1] python scripts/stakbots_fingerprint.py [SEEDS]
"""

import hashlib
import json
import sys

import robotable._engine as e
from robotable.agents.mcts import MCTSAgent
from robotable.agents.random_agent import RandomAgent
from robotable.games.stakbots import StakBots

h = hashlib.sha256()
moves = 0
configs = [
    (2, {}),
    (4, {}),
    (3, {}),
    (2, {"reactive": True, "recycling": True, "setup_effects": True}),
    (2, {"staks": 2}),
    (4, {"teams": True, "borderless": "team"}),
    (1, {"drones": 2}),
    (3, {"traitor": True}),
    (2, {"quickfire": True, "attack_tally": 2, "skip_first_draw": True}),
    (3, {"borderless": "on"}),
]
for n, opts in configs:
    try:
        g = StakBots(n, **opts)
    except Exception as ex:
        print("skip", n, opts, ex)
        continue
    for seed in range(int(sys.argv[1]) if len(sys.argv) > 1 else 30):
        s = g.new_initial_state(seed)
        agents = [
            MCTSAgent(seed=seed * 7 + i, iterations=60)
            if (seed + i) % 3 == 0
            else RandomAgent(seed=seed * 7 + i)
            for i in range(n)
        ]
        t = 0
        while not s.is_terminal() and t < 400:
            p = s.current_player()
            a = agents[p].act(s)
            h.update(json.dumps(a.to_json(), sort_keys=True).encode())
            for ev in s.apply_action(a):
                h.update(json.dumps(ev, sort_keys=True, default=str).encode())
            t += 1
            moves += 1
        h.update(json.dumps(s.to_json(), sort_keys=True).encode())
        h.update(json.dumps(s.stats(), sort_keys=True).encode())
print(e.describe() if hasattr(e, "describe") else "", moves, h.hexdigest())
