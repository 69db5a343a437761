"""One conformance checker for every game (the protocol's contract, checked step by step).

Used by tests/test_conformance.py over every registered game and seat count, and usable on a
user's own game: `check_random_game(game, seed=1, choice_seed=2)` raises AssertionError with the
step and the broken property.
"""

from __future__ import annotations

import json
import random
from typing import Any

from .errors import IllegalAction
from .protocol import TERMINAL, Action, Game, State

VIEW_KEYS = (
    "game",
    "seat",
    "current_player",
    "turn",
    "prompt",
    "terminal",
    "returns",
    "legal_actions",
)


def _canon(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def check_state(game: Game, state: State, rng: random.Random, where: str) -> None:
    """Every per-state property of the protocol."""
    n = game.num_players
    snapshot = _canon(state.to_json())
    terminal = state.is_terminal()
    player = state.current_player()
    legal = state.legal_actions()
    if terminal:
        assert player == TERMINAL, f"{where}: terminal but current_player() is {player}"
        assert legal == [], f"{where}: terminal state has legal actions"
        returns = state.returns()
        assert len(returns) == n, f"{where}: returns() has {len(returns)} values for {n} seats"
        assert all(0.0 <= r <= 1.0 for r in returns), f"{where}: returns out of [0,1]: {returns}"
    else:
        assert 0 <= player < n, f"{where}: current_player() is {player}"
        assert legal, f"{where}: no legal actions before the end"
        assert len(set(legal)) == len(legal), f"{where}: duplicate legal actions"

    # JSON round trip of the state, through real JSON text.
    text = json.dumps(state.to_json())
    twin = game.state_from_json(json.loads(text))
    assert _canon(twin.to_json()) == snapshot, f"{where}: to_json/state_from_json not exact"
    assert twin.legal_actions() == legal, f"{where}: restored state has other legal actions"
    if legal:  # ... and plays on as the original would, events and all
        pick = rng.randrange(len(legal))
        played = state.clone()
        assert twin.apply_action(legal[pick]) == played.apply_action(legal[pick]), (
            f"{where}: the restored state's move told other events"
        )
        assert _canon(twin.to_json()) == _canon(played.to_json()), (
            f"{where}: the restored state's move led elsewhere"
        )

    # The one-pass heuristic agrees with the per-seat one, and stays in [0, 1].
    together = game.evaluate_all(state)
    for seat in range(n):
        alone = game.evaluate(state, seat)
        assert 0.0 <= alone <= 1.0, f"{where}: evaluate({seat}) = {alone} is outside [0, 1]"
        assert abs(together[seat] - alone) < 1e-9, f"{where}: evaluate_all disagrees for {seat}"

    # Views: JSON-safe, with the shared keys; legal actions only for the deciding seat.
    for seat in [*range(n), None]:
        view = state.view(seat)
        json.dumps(view)
        for key in VIEW_KEYS:
            assert key in view, f"{where}: view({seat}) lacks '{key}'"
        if seat is not None and seat == player:
            assert len(view["legal_actions"]) == len(legal), f"{where}: view legal actions"
        else:
            assert not view["legal_actions"], f"{where}: view({seat}) shows others' choices"

    # Actions round-trip and read well.
    for action in legal:
        back = game.action_from_json(json.loads(json.dumps(action.to_json())))
        assert back == action, f"{where}: action {action} does not round-trip"
        assert str(action).strip(), f"{where}: action without a label"

    # determinize keeps what the seat knows, and the decider's choices.
    for seat in range(n):
        sample = state.determinize(seat, random.Random(rng.getrandbits(32)))
        assert _canon(sample.view(seat)) == _canon(state.view(seat)), (
            f"{where}: determinize({seat}) changed view({seat})"
        )
        if seat == player:
            assert sample.legal_actions() == legal, (
                f"{where}: determinize({seat}) changed the deciding seat's legal actions"
            )
        assert _canon(state.to_json()) == snapshot, f"{where}: determinize mutated the state"

    # Illegal and malformed input is refused and changes nothing.
    for bad in (object(), {"type": "no-such-action"}):
        try:
            action = game.action_from_json(bad) if isinstance(bad, dict) else bad
            state.apply_action(action)  # type: ignore[arg-type]
        except IllegalAction as exc:
            assert str(exc).strip() and "\n" not in str(exc), f"{where}: error not one line"
        else:
            raise AssertionError(f"{where}: {bad!r} was accepted")
        assert _canon(state.to_json()) == snapshot, f"{where}: a refused action changed the state"

    # Clone independence: playing on a clone leaves the original untouched.
    if legal:
        copy = state.clone()
        assert _canon(copy.to_json()) == snapshot, f"{where}: clone differs from the original"
        copy.apply_action(legal[rng.randrange(len(legal))])
        assert _canon(state.to_json()) == snapshot, f"{where}: acting on a clone changed it"


def check_random_game(
    game: Game, seed: int, choice_seed: int, max_steps: int = 300, every: int = 1
) -> int:
    """Play a random game from `seed`, checking every `every`-th state; returns steps played.

    Then replays the same seed and actions and demands the identical final state.
    """
    rng = random.Random(choice_seed)
    state = game.new_initial_state(seed=seed)
    # The same game played silenced, in step: it must stay the same position throughout.
    quiet = game.new_initial_state(seed=seed).silence()
    actions: list[Action] = []
    for step in range(max_steps):
        where = f"game {game.name} ({game.num_players} seats, seed {seed}), step {step}"
        if step % every == 0 or state.is_terminal():
            check_state(game, state, rng, where)
            assert _canon(quiet.to_json()) == _canon(state.to_json()), (
                f"{where}: the silenced copy of the game is in another position"
            )
        if state.is_terminal():
            break
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        silent = quiet.apply_action(quiet.legal_actions()[legal.index(action)])
        if getattr(quiet, "quiet", False):
            assert silent == [], f"{where}: a silenced state built events"
            assert quiet.clone().quiet, f"{where}: a clone of a silenced state is not silenced"
            if not quiet.is_terminal():
                sample = quiet.determinize(quiet.current_player(), random.Random(step))
                assert sample.quiet, f"{where}: a determinization of a silenced state is not"
        events = state.apply_action(action)
        assert isinstance(events, list), f"{where}: apply_action must return a list of events"
        for event in events:
            assert isinstance(event, dict) and "type" in event, f"{where}: bad event {event!r}"
            # "to" is reserved for visibility (robotable.visible_events): a list of seats.
            if "to" in event:
                seats = event["to"]
                assert isinstance(seats, list) and all(
                    isinstance(s, int) and 0 <= s < game.num_players for s in seats
                ), f"{where}: event {event['type']!r} has 'to' that is not a list of seats"
        json.dumps(events)
        actions.append(action)
    again = game.new_initial_state(seed=seed)
    for action in actions:
        again.apply_action(action)
    assert _canon(again.to_json()) == _canon(state.to_json()), (
        f"game {game.name} seed {seed}: replaying the same actions gave another state"
    )
    return len(actions)
