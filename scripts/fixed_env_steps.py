"""A fixed amount of reinforcement-learning environment stepping, for before/after timings.

    python scripts/fixed_env_steps.py GAME SEATS STEPS

Steps `RobotableVectorEnv(GAME, num_envs=16, num_players=SEATS, opponents="random")`, reset
with seed 3, STEPS times with a uniformly random legal action per sub-env (`random_actions` of
robotable.envs.vector_bench, numpy's generator seeded 0), and prints the CPU seconds the steps took. The work is the same on every engine and
tree whose moves and observations are the same, so two trees are compared by timing this
script under each, alternated, e.g. with farm-bench (docs/performance.md, "What an environment
step costs").
"""

import sys
import time

import numpy as np

from robotable.envs.vector import RobotableVectorEnv
from robotable.envs.vector_bench import random_actions

if len(sys.argv) != 4:
    raise SystemExit(__doc__)
envs = RobotableVectorEnv(sys.argv[1], num_envs=16, num_players=int(sys.argv[2]))
_, infos = envs.reset(seed=3)
rng = np.random.default_rng(0)
started = time.process_time()
for _ in range(int(sys.argv[3])):
    _, _, _, _, infos = envs.step(random_actions(infos["action_mask"], rng))
print(f"{time.process_time() - started:.3f} s of CPU for {sys.argv[3]} steps of 16 sub-envs")
