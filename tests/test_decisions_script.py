"""scripts/decisions_per_game.py counts a person's decisions before and after turn plans."""

from __future__ import annotations

import robotable
from robotable.core.plans import plans_for
from script_modules import load_script

script = load_script("decisions_per_game")


def test_a_plan_matching_the_persons_moves_counts_as_one_decision():
    game = robotable.load_game("breadwinner", first_player="seat0")
    state = game.new_initial_state(seed=4)
    actions = []
    # Seat 1's first build step: take the first plan's actions one by one.
    plan = plans_for(state)[0]
    actions.extend(plan.actions)
    count = script.count_decisions(game, 4, actions, seat=0)
    assert count.before == len(plan.actions) >= 2
    assert count.after == 1 and count.forced == 0
    assert sum(count.plans_taken.values()) == 1
    assert not count.finished
    # Without the plan's last action the person decided each move alone.
    count = script.count_decisions(game, 4, actions[:-1], seat=0)
    assert count.after == count.before == len(plan.actions) - 1


def test_only_choices_are_counted_as_forced_and_not_after():
    row = script.measure("stakbots", 1, 0, "random", "random", 60)
    assert row.plans == {}  # Stak Bots offers no plans: after is before less the only choices
    assert row.after == row.before - row.forced and row.before > 0
    assert "| stakbots | 1 |" in script.table([row], 5.0)
