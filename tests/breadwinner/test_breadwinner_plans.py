"""Bread Winner's turn plans (plans.py, issue 79 point 4): composite choices that expand into
ordinary legal actions of the deciding seat and end where those actions one by one end."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import robotable
from robotable.agents import make_agent
from robotable.core.plans import apply_plan, find_plan, plans_for
from robotable.games.breadwinner.actions import EndPhase, Hold
from robotable.games.breadwinner.state import P_BUILD
from script_modules import load_script

GAME = robotable.load_game("breadwinner")


def walk(seed: int, steps: int) -> robotable.State:
    """A position after `steps` moves of seeded `easy` play."""
    state = GAME.new_initial_state(seed)
    agents = [make_agent("easy", seed=seed * 2 + s) for s in (0, 1)]
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(agents[state.current_player()].act(state))
    return state


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 120))
def test_bw_plans_expand_to_legal_actions_and_end_as_the_actions_one_by_one(seed, steps):
    state = walk(seed, steps)
    for plan in plans_for(state):
        seat = state.current_player()
        one_by_one = state.clone()
        for action in plan.actions:
            assert one_by_one.current_player() == seat, plan.key
            assert action in one_by_one.legal_actions(), (plan.key, str(action))
            one_by_one.apply_action(action)
        planned = state.clone()
        apply_plan(planned, find_plan(planned, plan.key))
        assert planned.to_json() == one_by_one.to_json()
        assert len(plan.actions) >= 2 and plan.label


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 120), other=st.integers(0, 2**62))
def test_bw_plans_never_tell_the_dice_not_yet_rolled(seed, steps, other):
    """Before the roll for building, the plans (words and actions) are the same whatever the
    dice will show: the same position with another RNG offers the same plans."""
    state = walk(seed, steps)
    if state.is_terminal() or state.phase >= P_BUILD:
        return
    twin = state.determinize(state.current_player(), random.Random(other))
    twin.crop, twin.pile = list(state.crop), list(state.pile)  # only the dice differ
    assert plans_for(twin) == plans_for(state)


def test_bw_end_turn_plan_is_only_done_steps_and_ends_the_turn():
    for seed in range(6):
        state = walk(seed, 40)
        plan = next((p for p in plans_for(state) if p.key == "end_turn"), None)
        if plan is None:
            continue
        assert all(isinstance(a, EndPhase | Hold) for a in plan.actions)
        seat, turn = state.current_player(), state.turn
        apply_plan(state, plan)
        assert state.is_terminal() or (state.turn == turn + 1 and state.current_player() != seat)


def test_bw_a_person_makes_at_most_about_half_the_decisions_with_plans():
    """The count (scripts/decisions_per_game.py): greedy in seat 1 against easy, seeds 0-2.
    Deterministic: the same games, the same count."""
    script = load_script("decisions_per_game")
    before = after = 0
    for seed in range(3):
        actions = script.play(GAME, seed, "greedy", "easy", 4000)
        count = script.count_decisions(GAME, seed, actions)
        before += count.before
        after += count.after
    assert after <= 0.60 * before, (after, before)
