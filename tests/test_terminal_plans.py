"""Turn plans in the terminal (issue 79 point 4): a game's shortcuts are numbered after its
choices, and `done` ends the turn where a plan does; each plan's action is an ordinary move."""

from __future__ import annotations

import json

from rich.console import Console

import robotable
from robotable.core.plans import plans_for
from robotable.frontend.play import Table, build_agents, menu, run_table


def _answers(*texts):
    queue = list(texts)

    def answer(prompt: str) -> str:
        if not queue:
            raise EOFError
        return queue.pop(0)

    return answer


def _table(tmp_path, seed):
    game = robotable.load_game("breadwinner", first_player="seat0")
    seats = ["human", "human"]
    console = Console(record=True, width=400, force_terminal=False)
    agents = build_agents(seats, seed)
    return Table(game, seed, seats, agents, tmp_path / "g.json", console, ["Ada", "Bo"])


def test_a_shortcut_is_numbered_after_the_choices_and_played_move_by_move(tmp_path) -> None:
    table = _table(tmp_path, 4)
    state = table.game.new_initial_state(seed=4)
    choices = menu(state, state.legal_actions())
    plan = plans_for(state)[0]
    run_table(table, _answers(str(len(choices) + 1), "quit"))
    out = table.console.export_text()
    assert "shortcuts (several moves as one decision)" in out
    assert f"{len(choices) + 1:3d}  {plan.label}" in out
    record = json.loads((tmp_path / "g.json").read_text())
    assert record["actions"] == [a.to_json() for a in plan.actions]
    # The log shows each of them as a move of its own.
    assert [step.label for step in table.log] == list(_labels(table.game, 4, plan.actions))


def _labels(game, seed, actions):
    state = game.new_initial_state(seed=seed)
    for action in actions:
        yield state.describe_action(action)
        state.apply_action(action)


def test_done_ends_the_turn_where_the_game_offers_it(tmp_path) -> None:
    table = _table(tmp_path, 4)
    # Both first turns as suggested (plan 1 each), then Ada's turn 3 ends at `done`.
    state = table.game.new_initial_state(seed=4)
    moves = []
    while state.turn < 3:
        plan = plans_for(state)[0]
        moves.append(plan)
        for action in plan.actions:
            state.apply_action(action)
    end = next(p for p in plans_for(state) if p.key == "end_turn")
    # Type each first-turn plan by its number at that decision.
    replay = table.game.new_initial_state(seed=4)
    typed = []
    for plan in moves:
        typed.append(str(len(menu(replay, replay.legal_actions())) + 1))
        for action in plan.actions:
            replay.apply_action(action)
    run_table(table, _answers(*typed, "done", "quit"))
    assert table.state.turn == 4 and table.state.current_player() == 1
    assert table.actions[-len(end.actions) :] == list(end.actions)
    assert "No shortcut ends the turn here" not in table.console.export_text()
