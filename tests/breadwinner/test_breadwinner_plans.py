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
# The rules' variants that change which decisions come: a follow-up after deploying
# (act_after_deploy), four bots on the first turn (printed).
GAMES = (
    GAME,
    robotable.load_game("breadwinner", act_after_deploy=True),
    robotable.load_game("breadwinner", rules="printed"),
)


def walk(seed: int, steps: int, game=GAME, agent: str = "easy") -> robotable.State:
    """A position after `steps` moves of seeded play by `agent` in both seats."""
    state = game.new_initial_state(seed)
    agents = [make_agent(agent, seed=seed * 2 + s) for s in (0, 1)]
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(agents[state.current_player()].act(state))
    return state


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 160),
    other=st.integers(0, 2**62),
    game=st.sampled_from(GAMES),
    agent=st.sampled_from(["random", "easy"]),
)
def test_bw_plans_never_tell_the_dice_not_yet_rolled(seed, steps, other, game, agent):
    """Before the roll for building, the plans (words and actions) are the same whatever the
    dice will show: the same position with another RNG offers the same plans."""
    state = walk(seed, steps, game, agent)
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


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 160),
    game=st.sampled_from(GAMES),
    agent=st.sampled_from(["random", "easy"]),
)
def test_bw_every_plan_is_a_shortcut_of_legal_steps_and_ends_where_they_end(
    seed, steps, game, agent
):
    """For positions of random play, in every variant: each plan offered is a sequence of the
    deciding seat's legal actions (its first one of the choices on screen), the seat keeps the
    decision until its last action, and applying it ends exactly where its actions one by one
    end. Offering plans changes nothing: the position and its choices stay as they were (a plan
    is a shortcut, never a restriction). One plan per sequence and per key."""
    state = walk(seed, steps, game, agent)
    before, legal = state.to_json(), list(state.legal_actions())
    plans = plans_for(state)
    assert state.to_json() == before and state.legal_actions() == legal
    assert len({p.key for p in plans}) == len({p.actions for p in plans}) == len(plans)
    for plan in plans:
        assert plan.actions[0] in legal and len(plan.actions) >= 2 and plan.label
        seat = state.current_player()
        one_by_one = state.clone()
        for action in plan.actions:
            assert one_by_one.current_player() == seat, plan.key
            assert action in one_by_one.legal_actions(), (plan.key, str(action))
            one_by_one.apply_action(action)
        planned = state.clone()
        steps_done = apply_plan(planned, find_plan(planned, plan.key))
        assert [action for action, _ in steps_done] == list(plan.actions)
        assert planned.to_json() == one_by_one.to_json()


def _persons_count(person: str, seeds: range, game=GAME) -> tuple[int, int, int]:
    """Decisions before and after (scripts/decisions_per_game.py) of `person` in seat 1 against
    easy, summed over `seeds`, and the most decisions after in one of its turns."""
    script = load_script("decisions_per_game")
    before = after = most = 0
    for seed in seeds:
        actions = script.play(game, seed, person, "easy", 4000)
        count = script.count_decisions(game, seed, actions)
        assert count.finished
        before += count.before
        after += count.after
        most = max(most, _most_in_a_turn(game, seed, actions))
    return before, after, most


def _most_in_a_turn(game, seed: int, actions) -> int:
    """The most decisions seat 1 made in one turn, a plan matching its next actions being one."""
    state = game.new_initial_state(seed)
    per_turn: dict[int, int] = {}
    i = 0
    while i < len(actions):
        taken = 1
        if state.current_player() == 0 and len(state.legal_actions()) > 1:
            per_turn[state.turn] = per_turn.get(state.turn, 0) + 1
            for plan in plans_for(state):
                if tuple(actions[i : i + len(plan.actions)]) == plan.actions:
                    taken = max(taken, len(plan.actions))
        for action in actions[i : i + taken]:
            state.apply_action(action)
        i += taken
    return max(per_turn.values(), default=0)


def test_bw_a_person_makes_at_most_half_the_decisions_with_plans():
    """The count (scripts/decisions_per_game.py, issue 79 point 4's target): greedy in seat 1
    against easy, seeds 0-2, makes at most half of its primitive decisions once the plans are
    offered (a plan counts only when it is exactly what greedy then did). Deterministic: the
    same games, the same count."""
    before, after, _ = _persons_count("greedy", range(3))
    assert before > 300 and after <= 0.50 * before, (after, before)


def test_bw_a_person_who_takes_the_suggestions_plays_a_turn_in_two_decisions():
    """A person who takes the longest "as suggested" plan: the map bots and deploying up to the
    roll, then the rest of the turn once the dice are seen. At most two decisions a turn, in
    the rules as printed and with a follow-up after deploying too."""
    for game in GAMES:
        before, after, most = _persons_count("suggested", range(2), game)
        assert most <= 2 and after <= 0.35 * before, (game.options, most, after, before)
