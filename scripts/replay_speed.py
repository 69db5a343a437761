"""What replaying a game by its kept moves costs beside playing it, in one run:

    python scripts/replay_speed.py

Plays one four-seat Betabotz game at `mcts:1000` with its moves kept and two bars watched, then
replays it by those moves (runner.replay_job, what `--unbarred-from` and the fairness pass do
with a kept unbarred game), checks that the replay is the same game, and prints both CPU times
(docs/balancing.md, the fairness pass).
"""

import tempfile
import time

from robotable.sim.runner import RunSpec, plan_jobs, play_game, replay_job

spec = RunSpec(
    "betabotz",
    4,
    ("mcts:1000",),
    games=1,
    seed=0,
    error_dir=tempfile.mkdtemp(),
    keep_moves=True,
    watch=((("Golden Mainframe",), ()), (("Neural Mesh",), ())),
)
[job] = plan_jobs(spec)
started = time.process_time()
played = play_game(job)
playing = time.process_time() - started
started = time.process_time()
again = replay_job(job, played.moves, played.returns)
replaying = time.process_time() - started
assert again is not None and again.to_json() | {"seconds": 0} == played.to_json() | {"seconds": 0}
print(
    f"{played.actions} moves: played in {playing:.2f} s of CPU, replayed in {replaying:.4f} s, "
    f"{playing / replaying:,.0f} times less"
)
