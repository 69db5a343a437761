"""Turn plans: composite choices a front end offers beside a seat's ordinary ones.

A plan is one decision for a person ("end the turn", "deploy as suggested") that stands for a
short sequence of ordinary legal actions of the same seat. The front ends apply its actions one
by one through `apply_action`, so records, replays, undo, encodings and agents see only ordinary
actions; nothing about the game's action space changes. A game offers plans through the optional
hook `Game.turn_plans(state)` (default: none), documented in docs/protocol.md.

A plan's actions are fixed when it is offered, worked out on a copy of the state. A plan may end
with an action whose consequence is chance (Bread Winner's "done deploying" rolls the dice for
building), but no action of a plan may depend on chance that happens inside it: the copy's
future draws are not the seat's to see, and the words of a plan never tell them.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import IllegalAction
from .events import Event
from .protocol import Action, State

# No plan is longer than this: a game's plan that would be is a bug, not a long turn.
MAX_PLAN_ACTIONS = 60


@dataclass(frozen=True, slots=True)
class Plan:
    """A composite choice: `actions`, ordinary legal actions of the deciding seat in order,
    taken as one decision. `key` names it among the plans of this decision (what a front end
    sends back); `label` is what the player reads."""

    key: str
    label: str
    actions: tuple[Action, ...]

    def to_json(self) -> dict[str, str]:
        """What a player's screen needs: the key to send back and the words. The actions stay
        with the server, which works the plan out again from the state it holds."""
        return {"key": self.key, "label": self.label}


def plans_for(state: State) -> list[Plan]:
    """The plans offered at `state`'s decision (none once the game is over)."""
    if state.is_terminal():
        return []
    return list(state.game.turn_plans(state))


def find_plan(state: State, key: str) -> Plan:
    """The plan called `key` at this decision; IllegalAction naming the ones there are if none."""
    plans = plans_for(state)
    for plan in plans:
        if plan.key == key:
            return plan
    known = ", ".join(p.key for p in plans) or "none"
    raise IllegalAction(
        f"game {state.game.name}: no plan {key!r} at this decision (plans offered: {known})"
    )


def apply_plan(state: State, plan: Plan) -> list[tuple[Action, list[Event]]]:
    """Apply a plan's actions one by one (each checked by `apply_action`); returns each action
    with its events. Stops with IllegalAction if the plan would pass the decision to another
    seat before its last action."""
    seat = state.current_player()
    done: list[tuple[Action, list[Event]]] = []
    for step, action in enumerate(plan.actions):
        if state.current_player() != seat:
            raise IllegalAction(
                f"game {state.game.name}, plan {plan.key!r}: action {step + 1} "
                f"({action}) would be Seat {state.current_player() + 1}'s, not Seat {seat + 1}'s"
            )
        done.append((action, state.apply_action(action)))
    return done
