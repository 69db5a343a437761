"""Restricted play at the level of one game (`simulate --restrict`, the fairness pass's bars):
a restricted agent 0's game and the same game unbarred, each played by sim/games.py, as one
paired result. The runner (sim/runner.py, `play_job`) plays a job through `play_paired` when
its bars are paired; the cards study (sim/studies/cards.py) reads the pairs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ...core.errors import OptionError
from .. import games
from ..games import Bars, GameJob, GameResult


def play_paired(job: GameJob) -> GameResult:
    """A restricted agent 0's game, and the same game unbarred, as one paired result.

    The unbarred game (agent 0's seat played by its base agent, everything else the same: seed,
    seats, the agents' own random streams) is played first, watching that seat, or replayed by
    the moves a results file kept of it (`GameJob.unbarred`; played when they do not replay
    under this robotable's rules). A restricted agent chooses as its base wherever its bar
    cannot act (agents/restricted.py: it asks the base with the same state), so when the seat
    was never offered the card beside another move the barred game is that game, move for
    move, and is not played again; otherwise it is played. Either way the result is the barred
    game's, with the unbarred game's returns beside it: a comparison on the same deals, game by
    game.
    """
    from ...agents.restricted import split_restricted

    seat = job.arrangement.index(0)
    bar = split_restricted(job.seat_agents[seat])
    if bar is None:
        raise OptionError(
            f"a paired game needs a restricted agent 0, not '{job.seat_agents[seat]}'"
        )
    base, cards, kinds = bar
    agents = list(job.seat_agents)
    agents[seat] = base
    unbarred_job = replace(
        job,
        seat_agents=tuple(agents),
        bars=Bars(watch=((cards, kinds),)),
        # with decision streams, the barred game starts from the unbarred game's moves
        record=replace(job.record, keep_moves=job.record.keep_moves or job.decision_streams),
    )
    unbarred = games.replay_job(unbarred_job, *job.bars.unbarred) if job.bars.unbarred else None
    if unbarred is None:
        unbarred = games.play_game(unbarred_job)
    if unbarred.returns is None or not unbarred.bar_could_act[0]:
        pair = pair_with(unbarred, unbarred, could_act=False)
    else:
        opening: tuple[int, ...] = ()
        if job.decision_streams:
            # Up to the bar's first offer the barred game is the unbarred one, move for move.
            opening = unbarred.moves[: first_offer(unbarred_job, unbarred.moves, seat)]
        barred = games.play_game(replace(job, bars=Bars(opening=opening)))
        pair = pair_with(barred, unbarred, could_act=True)
    if not job.record.keep_moves:
        pair.moves = pair.unbarred_moves = ()
    return pair


def first_offer(job: GameJob, moves: Sequence[int], seat: int) -> int:
    """How many of a game's kept `moves` come before `seat` is first offered a card of the bar
    `job` watches beside another move (len(moves) when it never is)."""
    from ...agents.restricted import CardBar

    ((cards, kinds),) = job.bars.watch
    bar = CardBar(cards, kinds)
    state = games._cached_game(job.game, job.num_players, job.options).new_initial_state(
        seed=job.seed
    )
    for step, legal, _ in games.walk_moves(state, moves):
        if state.current_player() == seat and bar.can_act(legal):
            return step - 1
    return len(moves)


def pair_with(barred: GameResult, unbarred: GameResult | None, could_act: bool) -> GameResult:
    """`barred` marked as the barred game of a pair whose unbarred game is `unbarred` (itself
    where the bar could not act); a pair is only counted when both games finished."""
    barred.bar_could_act = (could_act,)
    barred.placebo_returns = None if unbarred is None else unbarred.returns
    barred.unbarred_moves = unbarred.moves if could_act and unbarred is not None else ()
    barred.paired = barred.returns is not None and barred.placebo_returns is not None
    return barred
