"""Bread Winner's turn plans: a turn planned in fewer decisions (issue 79 point 4).

A turn runs four steps, each ended by an explicit "done" (BW-4.2), so a person clicks "done with
the map bots", "done deploying", "done building" and "end the turn" nearly every turn, and one
decision per bot besides. These composite choices (core/plans.py) stand for sequences of the
ordinary actions, applied one by one, so the rules, records and the action space are untouched:

- "<step> as suggested": the rest of the current step as the heuristic's one-move lookahead
  plays it (what `greedy` would do), spelled out move by move, ending with the step's "done".
- "the map bots and deploying as suggested": from step 1, both steps before the roll as
  suggested, ending with "done deploying", the roll; a turn is then two decisions, this and "the
  rest of the turn as suggested" once the dice are seen.
- "the rest of the turn as suggested": from step 3 (the dice are seen), or from any step of a
  turn with no roll to come (no die in the pile or no empty factory, BW-5.3).
- "skip to step N": the "done" of every step before N (step 3 begins with the roll).
- "end the turn now": the "done" of every remaining step.
- In step 1, each deployment of step 2 at once, with "done with the map bots" before it and, when
  other bots could still deploy, "done deploying" after it; in step 2, each deployment that
  leaves the step open, then "done deploying". Deploying one bot and rolling is the common shape
  of step 2 (measured with scripts/decisions_per_game.py).
- In step 3, each build that ends the step by itself, then the rest of the turn's "done"s.

Each is offered only when it is at least two actions (one action is an ordinary choice already).
No plan holds an action taken after the dice are rolled for building: the roll is the last
thing a plan may cause, so a plan's words never tell the roll.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from robotable.core.plans import MAX_PLAN_ACTIONS, Plan
from robotable.core.protocol import Action

from .actions import EndPhase, Hold
from .board import DICE_PER_SEAT
from .rules import empty_factories
from .state import P_BUILD, P_DEACT, P_DEPLOY, P_FOLLOW, P_MAP, P_OVER, BreadWinnerState

# The step (BW-4.2) each phase belongs to; a bot's follow-up decision belongs to the step it
# came from (step 1, or step 2 with the option act_after_deploy), see `step_of`.
STEP = {P_MAP: 1, P_DEPLOY: 2, P_BUILD: 3, P_DEACT: 4}
STEP_WORDS = {1: "the map bots", 2: "deploying", 3: "building", 4: "deactivating"}
SKIP_WORDS = {
    2: "skip to step 2, deploying",
    3: "skip to step 3, building (the dice are rolled)",
    4: "skip to step 4, deactivating",
}
# The suggestion's lookahead samples the face-down crops from this seed, so the same position
# always gets the same suggestion (the server works a plan out again when it is chosen).
SUGGESTION_SEED = 0


def step_of(state: BreadWinnerState) -> int:
    """The step (BW-4.2) of this decision: a follow-up after a move or a deployment is part of
    the step that goes on after it."""
    return STEP[state.follow_ret if state.phase == P_FOLLOW else state.phase]


def turn_plans(state: BreadWinnerState) -> list[Plan]:
    """The composite choices at this decision, in the order a person reads them."""
    if state.phase == P_OVER:
        return []
    plans: list[Plan] = []
    plans.extend(suggested_step(state))
    plans.extend(skip_plans(state))
    plans.extend(last_build_plans(state))
    plans.extend(deploy_now_plans(state))
    plans.extend(then_roll_plans(state))
    return without_repeats(plans)


def without_repeats(plans: list[Plan]) -> list[Plan]:
    """One shortcut per sequence of moves (a suggestion is often "end the turn" or a last build
    then "end the turn"): the first listed, except that "end the turn now", which the terminal's
    `done` takes, stands for its moves wherever it is offered."""
    end = next((plan.actions for plan in plans if plan.key == "end_turn"), None)
    seen: set[tuple[Action, ...]] = set()
    kept: list[Plan] = []
    for plan in plans:
        if plan.actions in seen or (plan.actions == end and plan.key != "end_turn"):
            continue
        seen.add(plan.actions)
        kept.append(plan)
    return kept


def deploy_now_plans(state: BreadWinnerState) -> list[Plan]:
    """In step 1, each deployment of step 2 at once: "done with the map bots" and the
    deployment in one decision (BW-4.3: deploying ends the map step anyway), and "done
    deploying" after it when the step would stay open, so the dice are rolled for building."""
    if state.phase != P_MAP:
        return []
    seat = state.seat
    sim = state.clone().silence()
    done = skip_action(sim)
    sim.apply_action(done)
    if sim.phase != P_DEPLOY or sim.current_player() != seat:
        return []
    plans: list[Plan] = []
    for n, action, after in _each_move(sim):
        words = sim.describe_action(action)
        if after.phase == P_DEPLOY and _same_turn(after, seat, state.turn):
            label = f"{words} (done with the map bots), then done deploying (the dice are rolled)"
            plans.append(Plan(f"deploy_roll:{n + 1}", label, (done, action, skip_action(after))))
        else:
            label = f"{words} (done with the map bots)"
            plans.append(Plan(f"deploy_now:{n + 1}", label, (done, action)))
    return plans


def then_roll_plans(state: BreadWinnerState) -> list[Plan]:
    """In step 2, each deployment that leaves the step open (other bots could still deploy),
    then "done deploying": one bot deployed and the dice rolled is step 2's common shape, and
    "done deploying" was the confirmation a person clicked most often on its own."""
    if state.phase != P_DEPLOY:
        return []
    plans: list[Plan] = []
    for n, action, sim in _each_move(state):
        if sim.phase != P_DEPLOY or not _same_turn(sim, state.seat, state.turn):
            continue
        label = f"{state.describe_action(action)}, then done deploying (the dice are rolled)"
        plans.append(Plan(f"then_roll:{n + 1}", label, (action, skip_action(sim))))
    return plans


def last_build_plans(state: BreadWinnerState) -> list[Plan]:
    """ "build X on factory N, then end the turn" for each build that ends step 3 by itself
    (the last empty factory, or the last rolled bot): otherwise "end the turn" would follow as
    a decision of its own. After the roll nothing is left to chance this turn."""
    if state.phase != P_BUILD:
        return []
    seat, turn = state.seat, state.turn
    plans: list[Plan] = []
    for n, action, sim in _each_move(state):
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


def _each_move(state: BreadWinnerState) -> Iterator[tuple[int, Action, BreadWinnerState]]:
    """Each choice at this decision but the step's "done": its place among the choices and a
    copy of the state after it."""
    for n, action in enumerate(state.legal_actions()):
        if not isinstance(action, EndPhase):
            sim = state.clone().silence()
            sim.apply_action(action)
            yield n, action, sim


def skip_action(state: BreadWinnerState) -> Action:
    """The choice that does nothing more at this decision: the step's "done", or "no action"
    after a move."""
    for action in state.legal_actions():
        if isinstance(action, EndPhase | Hold):
            return action
    raise AssertionError(f"Bread Winner: no way to skip at phase {state.phase}")  # BW-4.2


def _same_turn(sim: BreadWinnerState, seat: int, turn: int) -> bool:
    return not sim.is_terminal() and sim.current_player() == seat and sim.turn == turn


def _rolled(sim: BreadWinnerState, seat: int) -> bool:
    """Whether entering step 3 rolled the seat's dice (BW-5.3: it does with a die in the pile and
    an empty factory). Known without the dice: the roll moves no die."""
    dice = range(seat * DICE_PER_SEAT, (seat + 1) * DICE_PER_SEAT)
    return any(sim.loc[die] < 0 for die in dice) and bool(empty_factories(sim, seat))


def skip_plans(state: BreadWinnerState) -> list[Plan]:
    """ "skip to step N" for each later step this turn reaches before the roll, and "end the
    turn now" (every remaining "done", through the roll: which "done" comes next after it may
    depend on the dice, but the plan's words do not)."""
    seat, turn = state.seat, state.turn
    sim = state.clone().silence()
    actions: list[Action] = []
    plans: list[Plan] = []
    step = step_of(sim)
    rolled = False
    while _same_turn(sim, seat, turn) and len(actions) < MAX_PLAN_ACTIONS:
        action = skip_action(sim)
        actions.append(action)
        sim.apply_action(action)
        if not _same_turn(sim, seat, turn):
            break
        reached = step_of(sim)
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
    ends by itself: the last factory bot deployed, the turn over). From step 1, the map bots and
    deploying as suggested, up to the roll. Once the dice for building are rolled (or when no
    roll comes this turn), nothing is left to chance, so the rest of the turn as suggested is
    offered too."""
    seat, turn = state.seat, state.turn
    step = step_of(state)
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
        if not step_end and (isinstance(action, EndPhase) or step_of(sim) != step):
            step_end = len(actions)
        if step < 3 and step_of(sim) >= 3 and _rolled(sim, seat):
            break  # the roll for building: no word of what follows it before it is seen
    step_end = step_end or len(actions)
    plans: list[Plan] = []
    if step_end >= 2:
        label = f"{STEP_WORDS[step]} as suggested: " + "; ".join(words[:step_end])
        plans.append(Plan(f"suggested:{step}", label, tuple(actions[:step_end])))
    if len(actions) <= max(step_end, 1):
        return plans
    if not _same_turn(sim, seat, turn):
        label = "the rest of the turn as suggested: " + "; ".join(words)
        plans.append(Plan("suggested:turn", label, tuple(actions)))
    elif step < 3 and step_of(sim) >= 3:  # stopped at the roll, after steps 1 and 2
        label = "the map bots and deploying as suggested: " + "; ".join(words)
        plans.append(Plan("suggested:roll", label, tuple(actions)))
    return plans
