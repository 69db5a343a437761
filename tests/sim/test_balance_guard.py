"""Balance regression guard: each bundled game stays fair and finished under greedy self-play.

Issue 18's quick guard (docs/balancing.md, "The fairness pass"): in 200 games of greedy
self-play (1,200 in Rumblebots, below), the first mover of every two-seat game wins 40-60% of
the games, and Bread Winner games end by the rulebook's win (all loaves) at least 80% of the
time. The runs are seeded, so a change that moves a figure out of its bounds fails here every
time, never now and then; the full pass, with intervals and the stronger agents, is
`robotable balance` (sim/studies/balance.py).
"""

from __future__ import annotations

import pytest

from robotable.sim.analysis import summarize
from robotable.sim.runner import RunSpec, run


def greedy_self_play(tmp_path, game: str, seats: int, games: int) -> dict:
    spec = RunSpec(game, seats, ("greedy",), games=games, seed=0, error_dir=str(tmp_path))
    summary = summarize(run(spec, workers=1))
    assert summary["games"] == games and not summary["errors"]
    return summary


# Rumblebots' head starts are set by `hard` self-play (ruling RB-2.5; since 29 Nov 2026 one
# more round-4 scrap for the second Champion of a two-seat game), not by greedy, whose first
# Champion has read 52-58% of 1,000 games under the rulings so far (52.1% under this one): its
# guard reads 1,200 games (seconds), so a reading near 58% is not over 60% by chance alone.
GUARD_GAMES = {"stakbots": 200, "breadwinner": 200, "iotabots": 200, "rumblebots": 1200}


@pytest.mark.parametrize("game", sorted(GUARD_GAMES))
def test_balance_guard_first_mover_within_40_to_60_percent(tmp_path, game):
    first = greedy_self_play(tmp_path, game, 2, GUARD_GAMES[game])["first_mover"]
    assert first["games"] == GUARD_GAMES[game]
    assert 0.40 <= first["win_rate"] <= 0.60, first


def test_balance_guard_betabotz_first_seat_near_its_fair_share(tmp_path):
    first = greedy_self_play(tmp_path, "betabotz", 3, 60)["first_mover"]
    # A third is fair with three seats; 60 games give an interval about 12 points wide each way.
    assert 0.20 <= first["win_rate"] <= 0.47, first


def test_balance_guard_breadwinner_games_end_by_the_rules(tmp_path):
    quality = greedy_self_play(tmp_path, "breadwinner", 2, 200)["quality"]
    assert quality["end_reason"]["rates"]["win"] >= 0.80, quality["end_reason"]
