"""Property tests over random seeds and random legal play (BZ-5, BZ-10, BZ-11)."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import robotable
from robotable.games.betabotz.effects import recompute_perm
from robotable.games.betabotz.state import HAND_LIMIT, PK_DISCARD_CODE

from .bz_helpers import game

ACCOUNTED = ("reward", "consequence", "bonus")
SEEDS = st.integers(0, 2**31)


def _random_game(n, seed, choice_seed, steps=100000, each=None):
    g = game(n)
    s = g.new_initial_state(seed=seed)
    rng = random.Random(choice_seed)
    actions = []
    k = 0
    while not s.is_terminal() and k < steps:
        a = rng.choice(s.legal_actions())
        ev = s.apply_action(a)
        actions.append(a)
        if each:
            each(s, a, ev)
        k += 1
    return g, s, actions


@settings(max_examples=25, deadline=None)
@given(n=st.integers(3, 6), seed=SEEDS, choice=SEEDS)
def test_bz_11_1_bitz_accounting_and_bz_5_invariants(n, seed, choice):
    total = [40 * n]
    c = game(n).content

    def check(s, a, events):
        for e in events:
            if e["type"] in ACCOUNTED:
                total[0] += e["bitz"]
            elif "bitz" in e and e["type"] not in ("bitz_stolen", "game_over"):
                raise AssertionError(f"unaccounted Bitz event {e}")
        assert s.bank + sum(s.bitz) == total[0], (a, events)
        assert all(b >= 0 for b in s.bitz)
        for seat in range(n):
            # attributes always equal base + components - damage (BZ-5.1)
            want = s.perm[seat][:]
            recompute_perm(s, seat)
            assert s.perm[seat] == want
            # no hand above the limit once discards are resolved (BZ-5.3)
            if not any(p[0] == PK_DISCARD_CODE and p[1] == seat for p in s.pending):
                assert len(s.hand[seat]) <= HAND_LIMIT
        # Limit Breach holders always at 13 or more (BZ-5.5), one per attribute each
        for b, h in enumerate(s.holder):
            if h >= 0:
                assert s.perm[h][c.breaches[b].attr] >= 13
        for seat in range(n):
            attrs = [c.breaches[b].attr for b, h in enumerate(s.holder) if h == seat]
            assert len(attrs) == len(set(attrs))
        # content conservation
        cards = sorted(s.code_deck + s.code_discard + [x for h in s.hand for x in h])
        assert cards == list(range(50))
        comps = s.comp_deck + s.comp_discard + [x for h in s.comps for x in h]
        if s.phase == 1 and s.stage == 0:
            comps += s.lots
        assert sorted(comps) == list(range(64))

    _, s, _ = _random_game(n, seed, choice, each=check)
    assert s.is_terminal() and s.revealed == 10
    assert sum(s.returns()) >= 1.0


@settings(max_examples=25, deadline=None)
@given(n=st.integers(3, 6), seed=SEEDS, choice=SEEDS, cut=st.integers(0, 400))
def test_bz_10_2_determinism_clone_json_and_determinize(n, seed, choice, cut):
    g, s, actions = _random_game(n, seed, choice, steps=cut)
    # determinism: same seed and actions, same state byte for byte
    t = g.new_initial_state(seed=seed)
    for a in actions:
        t.apply_action(g.action_from_json(json.loads(json.dumps(a.to_json()))))
    assert json.dumps(t.to_json()) == json.dumps(s.to_json())
    # JSON round trip
    back = g.state_from_json(json.loads(json.dumps(s.to_json())))
    assert back.to_json() == s.to_json() and back.legal_actions() == s.legal_actions()
    # clone independence
    snap = json.dumps(s.to_json())
    c = s.clone()
    while not c.is_terminal() and c.turn < s.turn + 30:
        c.apply_action(c.legal_actions()[0])
    assert json.dumps(s.to_json()) == snap
    # determinize keeps the view, never the hidden truth of others' hands in the view
    for seat in range(n):
        d = s.determinize(seat, random.Random(seed ^ seat))
        assert d.view(seat) == s.view(seat)
        assert d.hand[seat] == s.hand[seat]
        assert sorted(d.code_deck + [x for i, h in enumerate(d.hand) if i != seat for x in h]) == (
            sorted(s.code_deck + [x for i, h in enumerate(s.hand) if i != seat for x in h])
        )


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, choice=SEEDS, cut=st.integers(0, 300))
def test_bz_10_1_no_leak_of_code_hands(seed, choice, cut):
    g, s, _ = _random_game(4, seed, choice, steps=cut)
    if s.is_terminal():
        return
    c = s.content
    for seat in [0, 1, 2, 3, None]:
        v = s.view(seat)
        for other in range(4):
            if other == seat:
                continue
            assert "hand" not in v["seats"][other]
        # two states differing only in other seats' hands give the same view
        twin = s.clone()
        others = [i for i in range(4) if i != seat]
        pool = [x for i in others for x in twin.hand[i]] + twin.code_deck
        random.Random(seed).shuffle(pool)
        pos = 0
        for i in others:
            k = len(twin.hand[i])
            twin.hand[i] = pool[pos : pos + k]
            pos += k
        twin.code_deck = pool[pos:]
        twin._legal = None
        assert twin.view(seat) == v
    # the names in another's hand are absent unless they are public elsewhere (discards, kinds)
    text = json.dumps(s.view(0))
    v0 = s.view(0)
    public = set(v0["decks"]["code_discard"]) | {k["name"] for k in v0["code_kinds"]}
    for card in s.hand[1]:
        name = c.codes[c.code_card_kind[card]].name
        assert name in public or name not in text


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, choice=SEEDS, cut=st.integers(0, 300))
def test_bz_10_3_illegal_and_malformed_actions_leave_the_state(seed, choice, cut):
    g, s, _ = _random_game(3, seed, choice, steps=cut)
    snap = json.dumps(s.to_json())
    for bad in (
        {"type": "bid", "amount": 100000},
        {"type": "bid", "amount": "ten"},
        {"type": "play_code", "code": 99, "name": "Nope"},
        {"type": "choose_seat", "seat": 9},
        {"type": "teleport"},
        {"type": "set_share"},
    ):
        try:
            s.apply_action(g.action_from_json(bad))
        except robotable.IllegalAction as exc:
            assert "\n" not in str(exc)
        else:
            raise AssertionError(f"{bad} accepted")
        assert json.dumps(s.to_json()) == snap


def test_bz_10_4_events_mark_secrets():
    g = game(3)
    s = g.new_initial_state(seed=3)
    rng = random.Random(3)
    seen_private = False
    while not s.is_terminal():
        seat = s.current_player()
        for e in s.apply_action(rng.choice(s.legal_actions())):
            if e["type"] == "code_drawn":
                assert e["to"] == [e["seat"]]
                seen_private = True
            else:
                assert "to" not in e
            if e["type"] in ("code_played", "code_drawn", "auction_won", "breach_taken"):
                assert "seat" in e and "card" in e
        _ = seat
    assert seen_private
    public = robotable.visible_events([{"type": "code_drawn", "seat": 1, "to": [1]}], 0)
    assert public == []


def test_bz_10_5_state_from_json_rejects_malformed():
    import pytest

    g = game(3)
    s = g.new_initial_state(seed=1)
    data = s.to_json()
    for key, value, msg in (
        ("bitz", "lots", "field 'bitz'"),
        ("hand", [[1]], "field 'hand'"),
        ("stage", 99, "field 'stage'"),
        ("code_deck", [], "Code cards"),
    ):
        bad = dict(data)
        bad[key] = value
        with pytest.raises(robotable.RecordError, match=msg):
            g.state_from_json(bad)
    bad = dict(data)
    del bad["chip"]
    with pytest.raises(robotable.RecordError, match="missing field 'chip'"):
        g.state_from_json(bad)
