"""What a finished game reports to the balance lab: mission success per ground."""

from __future__ import annotations

import random

import robotable


def test_stats_report_unit_attempts_and_success_rate_per_ground() -> None:
    game = robotable.load_game("betabotz", num_players=3, bid_amounts="coarse")
    state = game.new_initial_state(seed=4)
    rng = random.Random(4)
    attempts = []
    while not state.is_terminal():
        for event in state.apply_action(rng.choice(state.legal_actions())):
            if event["type"] == "mission_attempt":
                attempts.append((event["ground"], event["success"]))
    by_ground = state.stats()["missions_by_ground"]
    assert sum(g["attempts"] for g in by_ground.values()) == len(attempts) >= 10
    for ground, figures in by_ground.items():
        results = [ok for g, ok in attempts if g == ground]
        assert figures["attempts"] == len(results)
        assert figures["success_rate"] == sum(results) / len(results)
