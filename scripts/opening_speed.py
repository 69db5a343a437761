"""What starting a barred game at its bar's first offer saves, in one run:

    python scripts/opening_speed.py [--deals 4] [--card "Golden Mainframe"]
    python scripts/opening_speed.py --table runs/FILE.jsonl

With decision streams (`simulate --decision-streams`), a barred game is its unbarred game move
for move until the barred seat is first offered the card beside another move, and
restricted_play.play_paired starts it there. For the first deals of four-seat Betabotz at
`mcts:1000` (seed 0) where the bar can act, this plays the unbarred game, then the barred game
twice: from the first move, and from the unbarred game's moves up to the first offer. It checks
that both are the same game and prints the CPU time of each, their ratio and the share of the
moves the opening covered (docs/balancing.md, "Barred games that start where the bar first acts").

With `--table`, a results file whose moves were kept and whose bars were watched (the fairness
pass's unbarred table), it plays nothing: for each bar, over the deals it could touch, it counts
the searched decisions (those with more than one legal move) that come before the first offer,
the share of each barred game an opening spares.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from dataclasses import replace

from robotable.agents.restricted import CardBar
from robotable.sim.challenge import restrict_agents
from robotable.sim.results_file import read_header, read_results, spec_from_header
from robotable.sim.runner import RunSpec, plan_jobs, play_game, walk_moves
from robotable.sim.studies.restricted_play import first_offer


def cpu(job):
    started = time.process_time()
    result = play_game(job)
    return result, time.process_time() - started


def spared(path: str) -> None:
    """Per watched bar of a kept table, the share of searched decisions before its first offer."""
    spec = spec_from_header(read_header(path, path)[0], path)
    results = read_results(path, spec, path, playing=False)[0]
    jobs = {(job.variant, job.index): job for job in plan_jobs(spec)}
    game = spec.game
    for k, (cards, kinds) in enumerate(spec.watch):
        bar = CardBar(cards, kinds)
        shares = []
        for r in results:
            if not r.moves or not r.bar_could_act[k]:
                continue
            job = jobs[(r.variant, r.index)]
            seat = job.arrangement.index(0)
            state = load_state(job)
            searched, before = 0, None
            for _, legal, _ in walk_moves(state, r.moves):
                if before is None and state.current_player() == seat and bar.can_act(legal):
                    before = searched
                searched += len(legal) > 1
            shares.append(before / searched)
        if shares:
            print(
                f"{game}, {spec.num_players} seats, {' + '.join(cards)}: {len(shares)} deals, "
                f"{100 * sum(shares) / len(shares):.0f}% of the searched decisions before the "
                "first offer"
            )


def load_state(job):
    from robotable.core.registry import load_game

    game = load_game(job.game, num_players=job.num_players, **dict(job.options))
    return game.new_initial_state(seed=job.seed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=4, help="deals where the bar can act")
    parser.add_argument("--card", default="Golden Mainframe")
    parser.add_argument("--agent", default="mcts:1000")
    parser.add_argument("--table", help="count a kept table's openings instead of timing games")
    args = parser.parse_args()
    if args.table:
        spared(args.table)
        return
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
        unbarred_job = replace(job.with_bars(watch=(((args.card,), ()),)), seat_agents=agents)
        unbarred = play_game(unbarred_job)
        if not unbarred.bar_could_act[0]:
            continue
        offer = first_offer(unbarred_job, unbarred.moves, seat)
        barred, from_start = cpu(job)
        again, from_offer = cpu(job.with_bars(opening=unbarred.moves[:offer]))
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
