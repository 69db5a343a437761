"""Invariants over random seeds and random legal play (Hypothesis)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import robotable
from robotable.core.errors import IllegalAction, RecordError
from robotable.games.breadwinner.board import DICE_PER_SEAT, IS_LAND, NUM_TILES
from robotable.games.breadwinner.state import BreadWinnerState

GAME = robotable.load_game("breadwinner", max_turns=14)


def canon(data) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def random_walk(seed: int, choices: random.Random, steps: int = 400):
    """Yield (state, action) along a random game; the state is before the action."""
    state = GAME.new_initial_state(seed)
    for _ in range(steps):
        if state.is_terminal():
            return
        legal = state.legal_actions()
        action = legal[choices.randrange(len(legal))]
        yield state, action
        state.apply_action(action)


def check_conservation(s: BreadWinnerState) -> None:
    # 8 dice per seat, each in exactly one place; <= 2 bots a tile, <= 1 bot a factory.
    assert len(s.loc) == 2 * DICE_PER_SEAT
    for seat in (0, 1):
        dice = range(seat * DICE_PER_SEAT, (seat + 1) * DICE_PER_SEAT)
        places = [s.loc[d] for d in dice]
        factories = [p for p in places if p > 5]
        assert len(factories) == len(set(factories))
        assert all(-1 <= p <= 9 for p in places)
    for tile in range(NUM_TILES):
        assert sum(1 for loc in s.loc if loc == tile) <= 2
    # 12 loaves.
    assert sum(s.loaves) + s.centre == 12 and min(s.loaves) >= 0 and s.centre >= 0
    # 10 crop chips: pile, planted, carried, discarded.
    places = s.pile + s.discards + [c for c in s.crop if c >= 0] + [c for c in s.carry if c >= 0]
    assert sorted(places) == list(range(10))
    # 4 poison chips: on Land only, the rest in the supply.
    assert all(IS_LAND[t] for t in range(NUM_TILES) if s.poison[t])
    view = s.view(0)
    assert view["poison_supply"] + sum(s.poison) == 4
    for seat_view in view["seats"]:
        on_factories = sum(1 for f in seat_view["factories"] if f["bot"])
        assert seat_view["pile"] + on_factories + seat_view["map_bots"] == 8


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**40), rnd=st.randoms(use_true_random=False))
def test_bw_props_conservation_and_never_empty(seed, rnd):
    for state, _ in random_walk(seed, rnd):
        check_conservation(state)
        assert state.legal_actions()
        legal = state.legal_actions()
        assert len(set(legal)) == len(legal)
        indexes = [GAME.action_index(a) for a in legal]
        assert len(set(indexes)) == len(indexes)
        assert all(0 <= i < GAME.num_distinct_actions() for i in indexes)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**40), choice_seed=st.integers(0, 2**20))
def test_bw_props_determinism(seed, choice_seed):
    a = [act for _, act in random_walk(seed, random.Random(choice_seed), 250)]
    one = GAME.new_initial_state(seed)
    two = GAME.new_initial_state(seed)
    for action in a:
        e1 = one.apply_action(action)
        e2 = two.apply_action(GAME.action_from_json(json.loads(json.dumps(action.to_json()))))
        assert e1 == e2
        # BW-8: no event is secret (nobody sees a planted value), so none has a "to" list.
        assert all("to" not in event for event in e1)
    assert canon(one.to_json()) == canon(two.to_json())


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**40), rnd=st.randoms(use_true_random=False))
def test_bw_props_clone_and_json_round_trip(seed, rnd):
    for i, (state, action) in enumerate(random_walk(seed, rnd, 250)):
        if i % 7:
            continue
        snapshot = canon(state.to_json())
        twin = GAME.state_from_json(json.loads(json.dumps(state.to_json())))
        assert canon(twin.to_json()) == snapshot
        assert twin.legal_actions() == state.legal_actions()
        copy = state.clone()
        copy.apply_action(action)
        assert canon(state.to_json()) == snapshot
        back = GAME.action_from_json(json.loads(json.dumps(action.to_json())))
        assert back == action and str(back) == str(action)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**40), rnd=st.randoms(use_true_random=False))
def test_bw_props_no_leak_and_determinize(seed, rnd):
    for i, (state, _) in enumerate(random_walk(seed, rnd, 300)):
        if i % 5:
            continue
        hidden = [t for t in range(NUM_TILES) if state.crop[t] >= 0 and not state.known[t]]
        for seat in (0, 1, None):
            view = state.view(seat)
            for t in hidden:
                assert view["tiles"][t]["crop"] == {"face_down": True, "value": None}
            assert isinstance(view["crop_pile"], int)  # a count, never chip ids
            assert '"rng"' not in canon(view)
        for seat in (0, 1):
            sample = state.determinize(seat, random.Random(rnd.getrandbits(32)))
            # A state differing only in hidden chips gives every seat the same view.
            for viewer in (0, 1, None):
                assert canon(sample.view(viewer)) == canon(state.view(viewer))
            check_conservation(sample)
            if state.current_player() == seat:
                assert sample.legal_actions() == state.legal_actions()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**40), rnd=st.randoms(use_true_random=False))
def test_bw_props_illegal_input_changes_nothing(seed, rnd):
    foreign = []
    for i, (state, action) in enumerate(random_walk(seed, rnd, 200)):
        if i % 9 == 0:
            snapshot = canon(state.to_json())
            legal = state.legal_actions()
            bad = [a for a in foreign if a not in legal][:3]
            for candidate in bad:
                with pytest.raises(IllegalAction):
                    state.apply_action(candidate)
            for data in (
                {"type": "move", "die": "one", "bot": "Drone", "frm": "L1a", "to": "L2a"},
                {"type": "move", "die": 1},
                {"type": "build", "bot": "Drone", "factory": 1, "extra": 2},
                {"type": "nonsense"},
                [1, 2],
            ):
                with pytest.raises(IllegalAction):
                    state.apply_action(GAME.action_from_json(data))
            assert canon(state.to_json()) == snapshot
        foreign.append(action)


def test_bw_props_state_from_json_rejects_malformed():
    state = GAME.new_initial_state(3)
    good = state.to_json()
    cases = {
        "loaves": [13, 0],
        "loc": [0] * 16,
        "pile": [0, 0, 1],
        "phase": "lunch",
        "rng": -1,
        "options": {},
        "face": [9] * 16,
    }
    for field, value in cases.items():
        data = dict(good)
        data[field] = value
        with pytest.raises(RecordError, match=field):
            GAME.state_from_json(data)
    data = dict(good)
    del data["crop"]
    with pytest.raises(RecordError, match="'crop': missing"):
        GAME.state_from_json(data)


def test_bw_props_observation_encoding_fixed_size():
    rnd = random.Random(5)
    for i, (state, _) in enumerate(random_walk(8, rnd, 300)):
        if i % 10 == 0:
            for seat in (0, 1, None):
                obs = GAME.encode_observation(state.view(seat))
                assert len(obs) == GAME.observation_size()
                assert all(isinstance(x, float) for x in obs)
