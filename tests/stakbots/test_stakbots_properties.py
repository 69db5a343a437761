"""Invariants over random seeds and random legal play, for 2, 3 and 4 seats (Hypothesis)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from robotable import IllegalAction, visible_events
from robotable.games.stakbots.state import HIDDEN, UP

from .sbkit import game

SEATS = [2, 3, 4]
seeds = hs.integers(0, 2**31)


def play_random(n: int, seed: int, choice_seed: int, check) -> None:
    """Play a random game, calling check(state, action, events_before) before every action."""
    g = game(n)
    st = g.new_initial_state(seed)
    rng = random.Random(choice_seed)
    steps = 0
    while not st.is_terminal():
        legal = st.legal_actions()
        assert legal, "legal_actions() is empty before the end"
        a = rng.choice(legal)
        check(st, a, rng)
        st.apply_action(a)
        steps += 1
        assert steps < 20000
    assert st.legal_actions() == []
    assert abs(sum(st.returns()) - 1.0) < 1e-9


def conserved(st) -> None:
    zones = [*st.staks, *st.hands, st.supply, st.scrapheap]
    assert sorted(c for z in zones for c in z) == list(range(len(st.game.deck)))


@pytest.mark.parametrize("n", SEATS)
@settings(max_examples=8, deadline=None)
@given(seed=seeds, choice_seed=seeds)
def test_cards_are_conserved_and_tops_face_up_after_every_action(n, seed, choice_seed):
    def check(st, a, rng):
        conserved(st)
        for stak in st.staks:
            if stak:
                assert st.vis[stak[-1]] == UP
        for c in st.damaged:
            assert st.dmg[c] > 0
        assert all(st.dmg[c] == 0 for c in range(len(st.dmg)) if c not in st.damaged)

    play_random(n, seed, choice_seed, check)


@pytest.mark.parametrize("n", SEATS)
@settings(max_examples=6, deadline=None)
@given(seed=seeds, choice_seed=seeds)
def test_determinism_clone_independence_and_json_round_trips(n, seed, choice_seed):
    g = game(n)
    actions = []

    def check(st, a, rng):
        data = st.to_json()
        copy = g.state_from_json(json.loads(json.dumps(data)))
        assert copy.to_json() == data
        assert copy.legal_actions() == st.legal_actions()
        assert g.action_from_json(json.loads(json.dumps(a.to_json()))) == a
        twin = st.clone()
        twin.apply_action(a)  # acting on the clone leaves the original untouched
        assert st.to_json() == data
        actions.append(a)

    play_random(n, seed, choice_seed, check)
    replay = g.new_initial_state(seed)
    for a in actions:
        replay.apply_action(a)
    final = g.new_initial_state(seed)
    for a in actions:
        final.apply_action(a)
    assert replay.to_json() == final.to_json() and replay.is_terminal()


def hidden_ids(st, seat):
    """Cards `seat` may not identify."""
    out = set(st.supply)
    for s, hand in enumerate(st.hands):
        if s != seat:
            out |= {c for c in hand if st.vis[c] == HIDDEN}
    for stak in st.staks:
        out |= {c for c in stak if st.vis[c] == HIDDEN}
    return out


def ids_in(obj) -> set[int]:
    found = set()
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k in ("id", "card", "target_id") and isinstance(v, int):
                found.add(v)
            found |= ids_in(v)
    elif isinstance(obj, list):
        for v in obj:
            found |= ids_in(v)
    return found


@pytest.mark.parametrize("n", SEATS)
@settings(max_examples=5, deadline=None)
@given(seed=seeds, choice_seed=seeds)
def test_views_hold_no_secrets_and_determinize_keeps_them(n, seed, choice_seed):
    g = game(n)

    def check(st, a, rng):
        if rng.random() > 0.35:  # a sample of the positions keeps the test quick
            return
        for seat in [*range(n), None]:
            v = st.view(seat)
            json.dumps(v)
            secret = hidden_ids(st, seat if seat is not None else -1)
            if seat is None:
                secret |= {c for h in st.hands for c in h if st.vis[c] == HIDDEN}
            assert not ids_in(v) & secret
            assert "rng" not in v
            if seat is None:
                assert all(s["hand"] is None for s in v["seats"])
            else:
                other = [s for s in v["seats"] if s["seat"] != seat]
                assert all(s["hand"] is None for s in other)
                det = st.determinize(seat, rng)
                assert det.view(seat) == v
                conserved(det)
                assert g.evaluate(det, seat) == pytest.approx(g.evaluate(st, seat))
        evs = st.clone().apply_action(a)
        for seat in range(n):
            for e in visible_events(evs, seat):
                if e["type"] == "card_drawn":
                    assert e["to"] == [seat]
        for e in visible_events(evs, None):
            assert e["type"] != "card_drawn"

    play_random(n, seed, choice_seed, check)


@pytest.mark.parametrize("n", SEATS)
@settings(max_examples=5, deadline=None)
@given(seed=seeds, choice_seed=seeds)
def test_illegal_and_malformed_actions_raise_and_change_nothing(n, seed, choice_seed):
    g = game(n)
    bad_json = [
        {"type": "play"},
        {"type": "attack", "target": "one"},
        {"type": "fly"},
        {"type": "end_turn", "extra": 1},
        [1, 2],
    ]

    def check(st, a, rng):
        if rng.random() > 0.2:
            return
        data = st.to_json()
        legal = st.legal_actions()
        candidates = [
            g.play_a[rng.randrange(len(g.deck))],
            g.scrap_hand_a[rng.randrange(len(g.deck))],
            g.attack_a[rng.randrange(n)],
            g.end_a,
            g.discard_a[rng.randrange(len(g.deck))],
        ]
        for cand in candidates:
            if cand in legal:
                continue
            with pytest.raises(IllegalAction):
                st.apply_action(cand)
            assert st.to_json() == data
        for raw in bad_json:
            with pytest.raises(IllegalAction):
                st.apply_action(g.action_from_json(raw))
            assert st.to_json() == data

    play_random(n, seed, choice_seed, check)


def test_states_differing_only_in_hidden_cards_look_the_same():
    g = game(2)
    st = g.new_initial_state(5)
    twin = st.clone()
    # swap two face-down cards of seat 1's stak and two supply cards
    twin.staks[1][0], twin.staks[1][1] = twin.staks[1][1], twin.staks[1][0]
    twin.supply[0], twin.supply[-1] = twin.supply[-1], twin.supply[0]
    twin.hands[1][0], twin.supply[3] = twin.supply[3], twin.hands[1][0]
    for seat in (0, None):
        assert twin.view(seat) == st.view(seat)
    assert twin.view(1) != st.view(1)  # seat 1 sees its own hand


def test_malformed_state_json_is_refused_with_the_field_named():
    g = game(2)
    good = g.new_initial_state(1).to_json()
    cases = {
        "staks": [[0, 1], [1]],
        "vis": [0] * 59,
        "active": 5,
        "decision": [9, 0, 0],
        "rng": -1,
        "fed": "yes",
        "options": {"stak_size": 3},
    }
    for name, value in cases.items():
        bad = dict(good)
        bad[name] = value
        with pytest.raises(ValueError, match=name):
            g.state_from_json(bad)
    missing = dict(good)
    del missing["hands"]
    with pytest.raises(ValueError, match="missing field 'hands'"):
        g.state_from_json(missing)
    with pytest.raises(ValueError, match="JSON object"):
        g.state_from_json([1, 2])
