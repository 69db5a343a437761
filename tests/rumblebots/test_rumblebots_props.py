"""Property tests over random seeds and random legal play (RB-4, RB-6, RB-9)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import robotable
from robotable import IllegalAction, visible_events
from robotable.games.rumblebots import rules

from .rb_helpers import all_card_ids, battle_zone_ids, crystals_total, game, play_random

SEEDS = st.integers(0, 2**31)
SEATS = st.integers(2, 4)


def canon(d) -> str:
    return json.dumps(d, sort_keys=True)


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, n=SEATS)
def test_rb_4_scrap_accounting(seed, n):
    """Scraps move only by income, builds, recycling, upgrades and energizing; never below 0;
    back to 0 at the end of every Build Phase (RB-4.1..4.7)."""
    g = game(n)
    s = g.new_initial_state(seed=seed)
    rng = random.Random(seed)

    def hook(before, action, events, after):
        if before.phase != rules.BUILD or before.pending:
            return
        seat = before.current_player()
        expected = before.scraps[seat]
        for e in events:
            if e.get("seat") != seat:
                continue
            if e["type"] == "built":
                expected -= e["cost"]
            elif e["type"] in ("recycled", "energized") and "scraps" in e:
                expected += e["scraps"]
            elif e["type"] == "workshop_upgraded":
                expected -= rules.UPGRADE_COST
            elif e["type"] == "build_ended":
                expected = 0
                assert after.scraps[seat] == 0 or any(x["type"] == "income" for x in events)
            elif e["type"] == "income":
                expected = e["scraps"]
        assert after.scraps[seat] == expected, (action, events)
        assert all(x >= 0 for x in after.scraps)
        if after.phase == rules.BATTLE or after.is_terminal():
            assert after.scraps == [0] * n
        elif after.current_player() != seat:
            assert all(after.scraps[p] == 0 for p in range(n) if p != after.current_player())

    play_random(s, rng, hook=hook)


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, n=SEATS)
def test_rb_6_crystal_and_card_conservation(seed, n):
    """Supply + round spaces + all workshops is constant; every card is in exactly one zone;
    in battle each seat's deck, discard, gang and Contraptions are its collection (RB-6.1)."""
    g = game(n)
    s = g.new_initial_state(seed=seed)
    total = g.options["total_crystals"]
    everything = list(range(g.content.num_cards))

    def hook(before, action, events, after):
        assert crystals_total(after) == total
        assert all(x >= 0 for x in after.storage + after.reactor + after.cryo)
        assert sorted(all_card_ids(after)) == everything
        if after.phase == rules.BATTLE:
            for p in range(n):
                assert sorted(battle_zone_ids(after, p)) == sorted(after.collection[p])

    play_random(s, random.Random(seed), hook=hook)


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, n=SEATS)
def test_rb_4_3_tier_gating(seed, n):
    """Nothing of a tier above the Workshop is built or scanned; rows open only once reached."""
    g = game(n)
    s = g.new_initial_state(seed=seed)
    cards = g.content.cards

    def hook(before, action, events, after):
        reached = max(before.tier)
        assert all(after.lab_open[t] == (t <= max(after.tier)) for t in range(1, 5))
        if before.phase == rules.BUILD and not before.pending:
            seat = before.current_player()
            if action.kind == "build_lab":
                assert action.tier <= before.tier[seat]
            if action.kind == "build_scanned":
                d = next(cards[c] for c in before.hand[seat] if cards[c].name == action.name)
                assert d.tier <= before.tier[seat]
            if action.kind == "energize_scan":
                assert action.tier <= before.tier[seat]
        del reached

    play_random(s, random.Random(seed), hook=hook)


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, n=SEATS, choice=st.integers(0, 2**31))
def test_rb_determinism_and_json_round_trips(seed, n, choice):
    g = game(n)
    a = g.new_initial_state(seed=seed)
    rng = random.Random(choice)
    actions = []
    while not a.is_terminal():
        legal = a.legal_actions()
        assert legal
        act = legal[rng.randrange(len(legal))]
        assert g.action_from_json(json.loads(json.dumps(act.to_json()))) == act
        actions.append(act)
        a.apply_action(act)
        if len(actions) % 7 == 0:
            twin = g.state_from_json(json.loads(json.dumps(a.to_json())))
            assert canon(twin.to_json()) == canon(a.to_json())
            assert twin.legal_actions() == a.legal_actions()
            assert canon(twin.view(0)) == canon(a.view(0))
    b = g.new_initial_state(seed=seed)
    for act in actions:
        b.apply_action(act)
    assert canon(a.to_json()) == canon(b.to_json())
    assert sum(a.returns()) == 1.0


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, n=SEATS)
def test_rb_9_no_leak_of_scanned_hands_or_deck_order(seed, n):
    """view(q) never shows another seat's scanned cards or any deck order; states that differ
    only in those give q the same view; the scan event goes to its owner only."""
    g = game(n)
    s = g.new_initial_state(seed=seed)
    rng = random.Random(seed)
    cards = g.content.cards
    checked = 0
    while not s.is_terminal():
        legal = s.legal_actions()
        act = legal[rng.randrange(len(legal))]
        events = s.apply_action(act)
        for e in events:
            if e["type"] == "scanned":
                assert e["to"] == [e["seat"]]
                for q in range(n):
                    if q != e["seat"]:
                        assert all(x["type"] != "scanned" for x in visible_events([e], q))
        # Another state that differs only in hidden things: the holder's scanned cards
        # swapped for other cards of the same tiers, every tier deck and the hidden part of
        # every battle deck reordered.
        other = s.clone()
        other._legal = None
        holder = next((p for p in range(n) if s.hand[p]), None)
        if holder is not None:
            for i, cid in enumerate(other.hand[holder]):
                deck = other.decks[cards[cid].tier]
                if deck:
                    other.hand[holder][i], deck[0] = deck[0], cid
        for t in range(1, 5):
            random.Random(seed + t).shuffle(other.decks[t])
        for p in range(n):
            deck = other.bdeck[p]
            lo, hi = other.known_bottom[p], len(deck) - other.known_top[p]
            middle = deck[lo:hi]
            random.Random(seed + p).shuffle(middle)
            deck[lo:hi] = middle
        for q in [*range(n), None]:
            if q == holder:
                continue
            view = s.view(q)
            if holder is not None:
                assert "hand" not in view["seats"][holder]
                assert view["seats"][holder]["hand_count"] == len(s.hand[holder])
            assert canon(view) == canon(other.view(q))
        if holder is not None:
            checked += 1
            mine = [cards[c].name for c in s.hand[holder]]
            assert [c["name"] for c in s.view(holder)["seats"][holder]["hand"]] == mine


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, n=SEATS, choice=st.integers(0, 2**31))
def test_rb_9_determinize_keeps_the_view_and_clone_is_independent(seed, n, choice):
    g = game(n)
    s = g.new_initial_state(seed=seed)
    rng = random.Random(choice)
    for step in range(200):
        if s.is_terminal():
            break
        if step % 5 == 0:
            snap = canon(s.to_json())
            for seat in range(n):
                d = s.determinize(seat, random.Random(rng.getrandbits(32)))
                assert canon(d.view(seat)) == canon(s.view(seat))
                if seat == s.current_player():
                    assert d.legal_actions() == s.legal_actions()
            c = s.clone()
            legal = c.legal_actions()
            c.apply_action(legal[rng.randrange(len(legal))])
            assert canon(s.to_json()) == snap
        legal = s.legal_actions()
        s.apply_action(legal[rng.randrange(len(legal))])


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, n=SEATS, choice=st.integers(0, 2**31))
def test_rb_illegal_and_malformed_actions_change_nothing(seed, n, choice):
    g = game(n)
    s = g.new_initial_state(seed=seed)
    rng = random.Random(choice)
    play_random(s, rng, max_steps=rng.randrange(40))
    if s.is_terminal():
        return
    snap = canon(s.to_json())
    legal = s.legal_actions()
    bad = [
        {"type": "build_lab", "tier": 9, "slot": 0, "name": "Bulby"},
        {"type": "recycle", "name": "No Such Bot"},
        {"type": "choose_faction", "faction": "Pirates"},
        {"type": "use_contraption", "name": "Overclocker"},
        {"type": "upgrade", "extra": 1},
        {"type": "energize_scan", "tier": "two"},
        {"type": "nope"},
        "end_turn",
    ]
    for data in bad:
        with pytest.raises(IllegalAction):
            action = g.action_from_json(data)
            if action in legal:
                raise IllegalAction("legal here, fine")
            s.apply_action(action)
        assert canon(s.to_json()) == snap


def test_rb_json_rejects_malformed_states():
    g = game(2)
    s = g.new_initial_state(seed=1)
    good = s.to_json()
    for field, value in [
        ("round", "one"),
        ("collection", [[1]]),
        ("rng", None),
        ("pending", [[1, 2]]),
        ("collection", [[0, 0, 1], [4, 5, 6]]),
        ("game", "stakbots"),
        ("decks", [[999]] * 5),
    ]:
        bad = dict(good)
        bad[field] = value
        with pytest.raises(robotable.RecordError) as err:
            g.state_from_json(bad)
        assert field in str(err.value) and "\n" not in str(err.value)
    bad = dict(good)
    del bad["lab"]
    with pytest.raises(robotable.RecordError, match="'lab'"):
        g.state_from_json(bad)
