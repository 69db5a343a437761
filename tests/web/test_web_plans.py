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
