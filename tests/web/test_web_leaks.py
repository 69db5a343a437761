"""Whole games of every registered game played through the server, every frame inspected.

Each seat is a websocket client choosing random legal actions; a spectator watches. A mirror of
the game, replayed locally from the same seed and actions, says what each seat may know: every
frame a seat receives must hold exactly `view(seat)` and `visible_events(events, seat)`, no
legal actions unless it decides, no label of another seat's action before the end, and nothing
of an event meant for other seats only.
"""

from __future__ import annotations

import json
import random

import pytest

from robotable import load_game
from robotable.core.registry import bundled_game_names
from robotable.server.table import seat_events

MAX_STEPS = 4000


def _loadable_games() -> list[str]:
    # The bundled games and the framework's test game; games that other test modules register
    # for their own purposes (minimal views) are not web-table games.
    return [*bundled_game_names(), "countdown"]


def _leak_cases() -> list[tuple[str, int | None]]:
    """Every game at its smallest table, and the largest table of games that seat more."""
    cases: list[tuple[str, int | None]] = []
    for name in _loadable_games():
        cases.append((name, None))
        game_class = type(load_game(name))
        if game_class.max_players > game_class.min_players:
            cases.append((name, game_class.max_players))
    return cases


@pytest.mark.parametrize(("name", "num_players"), _leak_cases())
def test_every_frame_holds_only_what_its_seat_may_know(
    client, seat_client, new_table, name, num_players
):
    check_every_frame(client, seat_client, new_table, name, num_players)


def check_every_frame(client, seat_client, new_table, name, num_players) -> None:
    """A whole random game through `client`, every frame of every seat checked (also run
    against PostgreSQL by test_postgres.py)."""
    game = load_game(name, num_players=num_players)
    seats = game.num_players
    seed = 1234
    table = new_table(client, name, [{"kind": "human"}] * seats, seed=seed, options=game.options)
    players = [seat_client(client, table["id"], s["token"]) for s in table["seats"]]
    spectator = seat_client(client, table["id"])
    watchers: list[tuple[int | None, object]] = [*enumerate(players), (None, spectator)]

    mirror = game.new_initial_state(seed=seed)
    for seat, watcher in watchers:
        _check_frame(watcher.state, mirror, seat, [])
    rng = random.Random(name)
    step = 0
    while not mirror.is_terminal():
        assert step < MAX_STEPS, f"{name}: no end after {MAX_STEPS} random actions"
        deciding = mirror.current_player()
        legal = mirror.legal_actions()
        index = rng.randrange(len(legal))
        players[deciding].send({"type": "act", "id": step, "index": index, "step": step})
        events = mirror.apply_action(legal[index])
        step += 1
        ack = players[deciding].until(lambda f: f["type"] in ("ack", "error"))
        assert ack == {"type": "ack", "id": step - 1, "step": step}, ack
        for seat, watcher in watchers:
            frame = watcher.until(lambda f: f["type"] == "update")
            assert frame["step"] == step
            _check_frame(frame, mirror, seat, events)
            if seat is not None and frame["entry"]["seat"] != seat and not mirror.is_terminal():
                assert frame["entry"]["label"] is None
    for seat, watcher in watchers:
        final = watcher.until(lambda f: f["type"] == "state")
        _check_frame(final, mirror, seat, None)


def _check_frame(frame: dict, mirror, seat: int | None, events: list | None) -> None:
    view = mirror.view(seat)
    # Through JSON, as the client sees it (tuples become lists).
    assert frame["view"] == json.loads(json.dumps(view))
    if seat is None or seat != mirror.current_player():
        assert frame["view"]["legal_actions"] == []
    text = json.dumps(frame)
    if events is not None and frame["type"] == "update":
        assert frame["entry"]["events"] == json.loads(json.dumps(seat_events(events, seat)))
        # The words a seat reads are its own narration of what it may see, nothing else.
        names = [f"Player {i + 1}" for i in range(mirror.game.num_players)]
        assert frame["entry"]["lines"] == mirror.game.narrate(events, seat, names)
        for event in events:
            if "to" in event and (seat is None or not _sent_to(event, seat)):
                secret = json.dumps(event)
                assert secret not in text, f"seat {seat} received an event meant for {event['to']}"
    for entry in frame.get("log", []):
        for event in entry["events"]:
            assert "to" not in event or (seat is not None and _sent_to(event, seat))


def _sent_to(event: dict, seat: int) -> bool:
    return isinstance(event["to"], list | tuple) and seat in event["to"]


@pytest.mark.parametrize("name", _loadable_games())
def test_every_game_plays_to_the_end_against_an_ai_seat_with_undo(
    client, seat_client, new_table, name
):
    game = load_game(name)
    seats = [{"kind": "human"}] + [{"kind": "ai", "ai": "random"}] * (game.num_players - 1)
    table = new_table(client, name, seats, seed=77)
    me = seat_client(client, table["id"], table["seats"][0]["token"])
    rng = random.Random(name)
    undone = False
    for _ in range(MAX_STEPS):
        frame = me.state
        view = frame["view"]
        if view["terminal"]:
            break
        if view["current_player"] != 0:
            me.until(lambda f: f["type"] in ("update", "state"))
            continue
        if frame["can_undo"] and not undone and frame["step"] > 2:
            undone = True
            before = frame["step"]
            me.send({"type": "undo", "id": 1})
            reply = me.until(lambda f: f["type"] in ("ack", "error"))
            assert reply["type"] == "ack" and reply["step"] < before, reply
            continue
        choice = rng.randrange(len(view["legal_actions"]))
        me.send({"type": "act", "id": 2, "index": choice, "step": frame["step"]})
        reply = me.until(lambda f: f["type"] in ("ack", "error"))
        assert reply["type"] == "ack", reply
    else:
        raise AssertionError(f"{name}: no end after {MAX_STEPS} steps")
    assert client.get(f"/api/tables/{table['id']}/record").status_code == 200
