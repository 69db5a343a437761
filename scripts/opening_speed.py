"""What starting a barred game at its bar's first offer saves, in one run:

    python scripts/opening_speed.py [--deals 4] [--card "Golden Mainframe"]

With decision streams (`simulate --decision-streams`), a barred game is its unbarred game move
for move until the barred seat is first offered the card beside another move, and
runner.play_paired starts it there. For the first deals of four-seat Betabotz at `mcts:1000`
(seed 0) where the bar can act, this plays the unbarred game, then the barred game twice: from
the first move, and from the unbarred game's moves up to the first offer. It checks that both
are the same game and prints the CPU time of each, their ratio and the share of the moves the
opening covered (docs/balancing.md, "Barred games that start where the bar first acts").
"""

from __future__ import annotations

import argparse
import tempfile
import time
from dataclasses import replace

from robotable.sim.challenge import restrict_agents
from robotable.sim.runner import RunSpec, first_offer, plan_jobs, play_game


def cpu(job):
    started = time.process_time()
    result = play_game(job)
    return result, time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=4, help="deals where the bar can act")
    parser.add_argument("--card", default="Golden Mainframe")
    parser.add_argument("--agent", default="mcts:1000")
    args = parser.parse_args()
    spec = RunSpec(
        "betabotz",
        4,
        tuple(restrict_agents(args.agent, [args.card], [], 4)),
        games=40,
        seed=0,
        error_dir=tempfile.mkdtemp(),
        keep_moves=True,
        decision_streams=True,
    )
    whole = opened = 0.0
    share = []
    for job in plan_jobs(spec):
        if len(share) == args.deals:
            break
        seat = job.arrangement.index(0)
        agents = tuple(args.agent for _ in job.seat_agents)
        unbarred_job = replace(job, seat_agents=agents, watch=(((args.card,), ()),))
        unbarred = play_game(unbarred_job)
        if not unbarred.bar_could_act[0]:
            continue
        offer = first_offer(unbarred_job, unbarred.moves, seat)
        barred, from_start = cpu(job)
        again, from_offer = cpu(replace(job, opening=unbarred.moves[:offer]))
        assert again.moves == barred.moves and again.returns == barred.returns
        whole += from_start
        opened += from_offer
        share.append(offer / len(unbarred.moves))
        print(
            f"deal {job.index}: {barred.actions} moves, the first {offer} the unbarred game's; "
            f"{from_start:.1f} s of CPU from the first move, {from_offer:.1f} s from the offer"
        )
    print(
        f"{len(share)} barred games: {whole:.1f} s of CPU from the first move, {opened:.1f} s "
        f"from the first offer ({opened / whole:.2f} of it); the openings covered "
        f"{100 * sum(share) / len(share):.0f}% of their games' moves"
    )


if __name__ == "__main__":
    main()
