"""Bread Winner's turn plans: a turn planned in fewer decisions (issue 79 point 4).

A turn runs four steps, each ended by an explicit "done" (BW-4.2), so a person clicks "done with
the map bots", "done deploying", "done building" and "end the turn" nearly every turn, and one
decision per bot besides. These composite choices (core/plans.py) stand for sequences of the
ordinary actions, applied one by one, so the rules, records and the action space are untouched:

- "<step> as suggested": the rest of the current step as the heuristic's one-move lookahead
  plays it (what `greedy` would do), spelled out move by move, ending with the step's "done".
- "skip to step N": the "done" of every step before N (step 3 begins with the roll).
- "end the turn now": the "done" of every remaining step.

Each is offered only when it is at least two actions (one action is an ordinary choice already).
No plan holds an action taken after the dice are rolled for building: the roll is the last
thing a plan may cause, so a plan's words never tell the roll.
"""

from __future__ import annotations

import random

from robotable.core.plans import MAX_PLAN_ACTIONS, Plan
from robotable.core.protocol import Action

from .actions import EndPhase, Hold
from .state import P_BUILD, P_DEACT, P_DEPLOY, P_FOLLOW, P_MAP, P_OVER, BreadWinnerState

# The step (BW-4.2) each phase belongs to: a bot's follow-up decision is part of step 1.
STEP = {P_MAP: 1, P_FOLLOW: 1, P_DEPLOY: 2, P_BUILD: 3, P_DEACT: 4}
STEP_WORDS = {1: "the map bots", 2: "deploying", 3: "building", 4: "deactivating"}
SKIP_WORDS = {
    2: "skip to step 2, deploying",
    3: "skip to step 3, building (the dice are rolled)",
    4: "skip to step 4, deactivating",
}
# The suggestion's lookahead samples the face-down crops from this seed, so the same position
# always gets the same suggestion (the server works a plan out again when it is chosen).
SUGGESTION_SEED = 0


def turn_plans(state: BreadWinnerState) -> list[Plan]:
    """The composite choices at this decision, in the order a person reads them."""
    if state.phase == P_OVER:
        return []
    plans: list[Plan] = []
    plans.extend(suggested_step(state))
    plans.extend(skip_plans(state))
    plans.extend(last_build_plans(state))
    plans.extend(deploy_now_plans(state))
    return plans


def deploy_now_plans(state: BreadWinnerState) -> list[Plan]:
    """In step 1, each deployment of step 2 at once: "done with the map bots" and the
    deployment in one decision (BW-4.3: deploying ends the map step anyway)."""
    if state.phase != P_MAP:
        return []
    sim = state.clone().silence()
    done = skip_action(sim)
    sim.apply_action(done)
    if sim.phase != P_DEPLOY or sim.current_player() != state.seat:
        return []
    return [
        Plan(f"deploy_now:{n + 1}", f"{sim.describe_action(a)} (done with the map bots)", (done, a))
        for n, a in enumerate(sim.legal_actions())
        if not isinstance(a, EndPhase)
    ]


def last_build_plans(state: BreadWinnerState) -> list[Plan]:
    """ "build X on factory N, then end the turn" for each build that ends step 3 by itself
    (the last empty factory, or the last rolled bot): otherwise "end the turn" would follow as
    a decision of its own. After the roll nothing is left to chance this turn."""
    if state.phase != P_BUILD:
        return []
    seat, turn = state.seat, state.turn
    plans: list[Plan] = []
    for n, action in enumerate(state.legal_actions()):
        if isinstance(action, EndPhase):
            continue
        sim = state.clone().silence()
        sim.apply_action(action)
        if not _same_turn(sim, seat, turn) or sim.phase == P_BUILD:
            continue
        actions = [action]
        while _same_turn(sim, seat, turn) and len(actions) < MAX_PLAN_ACTIONS:
            skip = skip_action(sim)
            actions.append(skip)
            sim.apply_action(skip)
        label = f"{state.describe_action(action)}, then end the turn"
        plans.append(Plan(f"then_end:{n + 1}", label, tuple(actions)))
    return plans


def skip_action(state: BreadWinnerState) -> Action:
    """The choice that does nothing more at this decision: the step's "done", or "no action"
    after a move."""
    for action in state.legal_actions():
        if isinstance(action, EndPhase | Hold):
            return action
    raise AssertionError(f"Bread Winner: no way to skip at phase {state.phase}")  # BW-4.2


def _same_turn(sim: BreadWinnerState, seat: int, turn: int) -> bool:
    return not sim.is_terminal() and sim.current_player() == seat and sim.turn == turn


def skip_plans(state: BreadWinnerState) -> list[Plan]:
    """ "skip to step N" for each later step this turn reaches before the roll, and "end the
    turn now" (every remaining "done", through the roll: which "done" comes next after it may
    depend on the dice, but the plan's words do not)."""
    seat, turn = state.seat, state.turn
    sim = state.clone().silence()
    actions: list[Action] = []
    plans: list[Plan] = []
    step = STEP[sim.phase]
    rolled = False
    while _same_turn(sim, seat, turn) and len(actions) < MAX_PLAN_ACTIONS:
        action = skip_action(sim)
        actions.append(action)
        sim.apply_action(action)
        if not _same_turn(sim, seat, turn):
            break
        reached = STEP[sim.phase]
        if reached == step or rolled:
            continue
        if step <= 2 and reached >= 3:
            reached = 3  # step 3 begins (the roll), even when it then has nothing to build
            rolled = True
        step = reached
        if len(actions) >= 2:
            plans.append(Plan(f"skip:{reached}", SKIP_WORDS[reached], tuple(actions)))
    if len(actions) >= 2 and not _same_turn(sim, seat, turn):
        plans.append(Plan("end_turn", "end the turn now, skipping the steps left", tuple(actions)))
    return plans


def suggest(state: BreadWinnerState, rng: random.Random) -> Action:
    """The heuristic's choice one move ahead (the first of equal best), on a copy whose
    face-down crops are dealt again, so it knows nothing the seat does not."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    seat = state.seat
    sample = state.determinize(seat, rng).silence()
    evaluate = state.game.evaluate
    best, best_value = legal[0], float("-inf")
    for action in legal:
        after = sample.clone()
        after.apply_action(action)
        value = evaluate(after, seat)
        if value > best_value + 1e-12:
            best, best_value = action, value
    return best


def suggested_step(state: BreadWinnerState) -> list[Plan]:
    """The rest of the current step as suggested, ending with its "done" (or where the step
    ends by itself: the last factory bot deployed, the turn over). From step 3 on, once the dice
    for building are rolled, nothing is left to chance this turn, so the rest of the turn as
    suggested is offered too."""
    seat, turn = state.seat, state.turn
    step = STEP[state.phase]
    sim = state.clone().silence()
    rng = random.Random(SUGGESTION_SEED)
    actions: list[Action] = []
    words: list[str] = []
    step_end = 0  # how many of `actions` finish the current step
    while len(actions) < MAX_PLAN_ACTIONS:
        action = suggest(sim, rng)
        words.append(sim.describe_action(action))
        actions.append(action)
        sim.apply_action(action)
        if not _same_turn(sim, seat, turn):
            break
        if not step_end and (isinstance(action, EndPhase) or STEP[sim.phase] != step):
            step_end = len(actions)
            if step < 3:
                break  # the next step may begin with the roll: no word of it before it is seen
    step_end = step_end or len(actions)
    plans: list[Plan] = []
    if step_end >= 2:
        label = f"{STEP_WORDS[step]} as suggested: " + "; ".join(words[:step_end])
        plans.append(Plan(f"suggested:{step}", label, tuple(actions[:step_end])))
    if len(actions) > max(step_end, 1) and not _same_turn(sim, seat, turn):
        label = "the rest of the turn as suggested: " + "; ".join(words)
        plans.append(Plan("suggested:turn", label, tuple(actions)))
    return plans
