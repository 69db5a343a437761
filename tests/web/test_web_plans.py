"""Turn plans at the web table (issue 79 point 4): the deciding seat's frames carry the plans,
and {"type": "act", "plan": key} applies each of the plan's actions as an ordinary step."""

from __future__ import annotations

import json

import robotable
from robotable.core.plans import plans_for

HUMAN = {"kind": "human"}
OPTIONS = {"first_player": "seat0"}


def test_a_plan_is_offered_to_the_deciding_seat_and_played_as_ordinary_steps(
    client, seat_client, new_table
):
    table = new_table(client, "breadwinner", [HUMAN, HUMAN], seed=4, options=OPTIONS)
    me = seat_client(client, table["id"], table["seats"][0]["token"])
    other = seat_client(client, table["id"], table["seats"][1]["token"])
    state = robotable.load_game("breadwinner", **OPTIONS).new_initial_state(seed=4)
    plans = plans_for(state)
    assert plans, "the first build offers 'building as suggested'"
    assert me.state["plans"] == [p.to_json() for p in plans]
    assert other.state["plans"] == []  # only the deciding seat sees its shortcuts
    plan = plans[0]
    me.send({"type": "act", "id": 3, "plan": plan.key, "step": 0})
    ack = me.until(lambda f: f["type"] == "ack" and f["id"] == 3)
    assert ack["step"] == len(plan.actions) >= 2
    labels = []
    for action in plan.actions:
        labels.append(state.describe_action(action))
        state.apply_action(action)
    # Each action is an ordinary step of the log, labelled as if chosen one by one.
    entries = [me.until_step(n)["entry"] for n in range(1, len(plan.actions) + 1)]
    assert [e["label"] for e in entries] == labels
    assert entries[-1]["step"] == len(plan.actions)
    assert me.state["view"] == json.loads(json.dumps(state.view(0)))
    assert other.until_step(len(plan.actions))["step"] == len(plan.actions)
    assert client.get(f"/api/tables/{table['id']}").json()["step"] == len(plan.actions)


def test_an_unknown_plan_is_refused_with_the_plans_there_are(client, seat_client, new_table):
    table = new_table(client, "breadwinner", [HUMAN, HUMAN], seed=4, options=OPTIONS)
    me = seat_client(client, table["id"], table["seats"][0]["token"])
    me.send({"type": "act", "id": 8, "plan": "end_the_world", "step": 0})
    refused = me.until(lambda f: f["type"] == "error")
    assert refused["id"] == 8 and "no plan 'end_the_world'" in refused["message"]
    me.send({"type": "act", "id": 9, "plan": "x", "index": 0})
    assert "exactly one" in me.until(lambda f: f["type"] == "error")["message"]
    assert client.get(f"/api/tables/{table['id']}").json()["step"] == 0


def test_plans_through_the_roll_are_played_at_the_table_as_one_by_one(
    client, seat_client, new_table
):
    """Both seats take the longest plan "as suggested" (from step 1 "the map bots and deploying
    as suggested", up to the roll for building): the table rolls its own dice inside a plan and
    ends where the same actions one by one end, turn after turn."""
    table = new_table(client, "breadwinner", [HUMAN, HUMAN], seed=4, options=OPTIONS)
    seats = [seat_client(client, table["id"], s["token"]) for s in table["seats"][:2]]
    state = robotable.load_game("breadwinner", **OPTIONS).new_initial_state(seed=4)
    step, taken = 0, []
    while state.turn <= 8:
        seat = state.current_player()
        suggested = [p for p in plans_for(state) if p.key.startswith("suggested")]
        if suggested:
            plan = max(suggested, key=lambda p: len(p.actions))
            message, actions = {"plan": plan.key}, plan.actions
            taken.append(plan.key)
        else:
            message, actions = {"index": 0}, state.legal_actions()[:1]
        seats[seat].send({"type": "act", "id": step + 1, "step": step, **message})
        for action in actions:
            state.apply_action(action)
        step += len(actions)
        view = seats[seat].until_step(step)["view"]
        assert view == json.loads(json.dumps(state.view(seat))), (step, message)
    assert "suggested:roll" in taken and "suggested:turn" in taken, taken
