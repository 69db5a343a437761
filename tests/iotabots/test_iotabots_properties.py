"""Property tests over random seeds and random legal play (Hypothesis)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import robotable
from robotable.games.iotabots.content import CardType
from robotable.games.iotabots.heuristic import duel_estimate
from robotable.games.iotabots.rules import ZONE_SIZE

DECKS = ["assembly_line", "heavy_metal", "hijack", "beacon"]
_GAMES: dict[tuple, robotable.Game] = {}


def _game(d0: str, d1: str) -> robotable.Game:
    key = (d0, d1)
    if key not in _GAMES:
        _GAMES[key] = robotable.load_game(
            "iotabots", deck0=d0, deck1=d1, proposed_texts=True, max_turns=40
        )
    return _GAMES[key]


def _cards_of(state, seat: int) -> int:
    """IB-9: every card a seat owns is in exactly one zone (tokens are not cards)."""
    g = state.game
    n = len(state.deck[seat]) + len(state.hand[seat]) + len(state.junk[seat])
    n += sum(
        1
        for f in state.field
        for b in f
        if b.owner == seat and g.cards[b.card].type != CardType.TOKEN
    )
    if state.resolving >= 0 and state.active == seat:
        n += 1
    return n


def _play(seed: int, choice_seed: int, d0: str, d1: str, steps: int, check):
    g = _game(d0, d1)
    s = g.new_initial_state(seed)
    rnd = random.Random(choice_seed)
    for _ in range(steps):
        if s.is_terminal():
            break
        legal = s.legal_actions()
        assert legal, "no legal actions before the end"
        action = rnd.choice(legal)
        before = (list(s.life), len(s.results))
        events = s.apply_action(action)
        check(s, action, events, before)
    return s


decks = st.sampled_from(DECKS)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**31), st.integers(0, 2**31), decks, decks)
def test_ib_prop_33_cards_conserved_and_zone_limit(seed, choice_seed, d0, d1):
    def check(s, action, events, before):
        if s.phase != 0 or s.results:  # before the first deal no zone holds a card
            assert _cards_of(s, 0) == 33 and _cards_of(s, 1) == 33
        assert all(len(f) <= ZONE_SIZE for f in s.field)

    _play(seed, choice_seed, d0, d1, 400, check)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**31), st.integers(0, 2**31), decks, decks)
def test_ib_prop_life_arithmetic_matches_events(seed, choice_seed, d0, d1):
    def check(s, action, events, before):
        life_before, duels = before
        if len(s.results) != duels and s.phase == 0 and not s.deck[0]:
            return
        if any(e["type"] == "duel_start" for e in events):
            return
        delta = [0, 0]
        for e in events:
            t = e["type"]
            if t == "attack":
                a = e["seat"]
                if e["target"] == "life points":
                    delta[1 - a] -= e["damage"]
                else:
                    delta[1 - a] += min(0, e["defender_diff"])
                    delta[a] += min(0, e["attacker_diff"])
            elif t == "heal":
                delta[e["seat"]] += e["amount"]
            elif t == "damage":
                delta[1 - e["seat"]] -= e["amount"]
        assert [life_before[i] + delta[i] for i in (0, 1)] == s.life

    _play(seed, choice_seed, d0, d1, 400, check)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**31), st.integers(0, 2**31))
def test_ib_prop_determinism_and_json_round_trip(seed, choice_seed):
    g = _game("hijack", "beacon")
    a = g.new_initial_state(seed)
    b = g.new_initial_state(seed)
    rnd = random.Random(choice_seed)
    for step in range(250):
        if a.is_terminal():
            break
        action = rnd.choice(a.legal_actions())
        text = json.dumps(action.to_json())
        assert g.action_from_json(json.loads(text)) == action
        assert a.apply_action(action) == b.apply_action(g.action_from_json(json.loads(text)))
        if step % 10 == 0:
            data = json.loads(json.dumps(a.to_json()))
            twin = g.state_from_json(data)
            assert twin.to_json() == a.to_json()
            assert twin.legal_actions() == a.legal_actions()
    assert a.to_json() == b.to_json()


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**31), st.integers(0, 2**31))
def test_ib_prop_clone_is_independent(seed, choice_seed):
    g = _game("assembly_line", "hijack")
    s = g.new_initial_state(seed)
    rnd = random.Random(choice_seed)
    for _ in range(rnd.randrange(10, 120)):
        if s.is_terminal():
            return
        s.apply_action(rnd.choice(s.legal_actions()))
    snapshot = json.dumps(s.to_json())
    twin = s.clone()
    for _ in range(60):
        if twin.is_terminal():
            break
        twin.apply_action(rnd.choice(twin.legal_actions()))
    assert json.dumps(s.to_json()) == snapshot


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**31), st.integers(0, 2**31), st.integers(0, 2**31))
def test_ib_prop_no_leak_of_hands_and_determinize_keeps_view(seed, choice_seed, det_seed):
    g = _game("heavy_metal", "beacon")
    s = g.new_initial_state(seed)
    rnd = random.Random(choice_seed)
    for _ in range(rnd.randrange(5, 150)):
        if s.is_terminal():
            return
        s.apply_action(rnd.choice(s.legal_actions()))
    for seat in (0, 1):
        other = 1 - seat
        v = s.view(seat)
        assert v["players"][other]["hand"] is None
        # two states differing only in the opponent's hidden cards give the same view
        d = s.determinize(seat, random.Random(det_seed))
        assert d.view(seat) == v
        assert json.dumps(d.view(seat), sort_keys=True) == json.dumps(v, sort_keys=True)
        # a state whose opponent hand is swapped with deck cards shows nothing different
        t = s.clone()
        t._legal = None
        hidden = [i for i, c in enumerate(t.hand[other]) if c not in t.known[other]]
        if hidden and t.deck[other]:
            i = hidden[0]
            t.hand[other][i], t.deck[other][0] = t.deck[other][0], t.hand[other][i]
            if seat != t.current_player():
                assert t.view(seat) == v
        spectator = s.view(None)
        del spectator["match"]  # duel end reasons name the winning card, which was public
        text = json.dumps(spectator)
        public = {b.card for f in s.field for b in f} | set(s.junk[0] + s.junk[1])
        public |= set(s.known[0] + s.known[1])  # publicly returned to a hand (IB-11.1)
        for c in set(s.hand[0] + s.hand[1]) - public:
            if s.resolving != c:
                assert f'"{g.names[c]}"' not in text


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**31), st.integers(0, 2**31))
def test_ib_prop_illegal_actions_raise_and_leave_state(seed, choice_seed):
    from robotable.games.iotabots.actions import Attack, ChooseBot, Summon

    g = _game("assembly_line", "beacon")
    s = g.new_initial_state(seed)
    rnd = random.Random(choice_seed)
    for _ in range(rnd.randrange(0, 100)):
        if s.is_terminal():
            return
        s.apply_action(rnd.choice(s.legal_actions()))
    snapshot = json.dumps(s.to_json())
    legal = s.legal_actions()
    for bad in (Summon("Alpha Bot"), Attack(4, 4), ChooseBot(1, 4), "summon", {"type": "x"}):
        if bad in legal:
            continue
        with pytest.raises(robotable.IllegalAction):
            s.apply_action(bad)
    for data in ({"type": "summon"}, {"type": "attack", "slot": "1", "target": 0}, 5):
        with pytest.raises(robotable.IllegalAction):
            g.action_from_json(data)
    assert json.dumps(s.to_json()) == snapshot


def test_ib_prop_malformed_state_json_names_the_field():
    g = _game("assembly_line", "beacon")
    data = g.new_initial_state(1).to_json()
    for field, value in (("life", [20]), ("hand", [[999], []]), ("phase", 42), ("rng", "x")):
        bad = dict(data)
        bad[field] = value
        with pytest.raises(ValueError, match=f"'{field}'"):
            g.state_from_json(bad)
    bad = dict(data)
    del bad["frames"]
    with pytest.raises(ValueError, match="'frames'"):
        g.state_from_json(bad)


def test_ib_prop_every_duel_ends_within_the_turn_cap():
    g = robotable.load_game("iotabots", deck0="beacon", deck1="beacon", max_turns=30)
    rnd = random.Random(3)
    for seed in range(4):
        s = g.new_initial_state(seed)
        steps = 0
        while not s.is_terminal():
            s.apply_action(rnd.choice(s.legal_actions()))
            steps += 1
            assert s.turn <= 31
        assert 1 <= len(s.results) <= 3 and steps < 5000


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**31), st.integers(0, 2**31))
def test_ib_12_encodings_and_heuristic(seed, choice_seed):
    g = _game("hijack", "assembly_line")
    s = g.new_initial_state(seed)
    rnd = random.Random(choice_seed)
    size = g.observation_size()
    for step in range(200):
        if s.is_terminal():
            break
        legal = s.legal_actions()
        if step % 4:
            s.apply_action(rnd.choice(legal))
            continue
        indices = [g.action_index(a) for a in legal]
        assert len(set(indices)) == len(indices)
        assert all(0 <= i < g.num_distinct_actions() for i in indices)
        seat = s.current_player()
        obs = g.encode_observation(s.view(seat))
        assert len(obs) == size
        # the heuristic sees only public information: resampled hidden cards change nothing
        value = g.evaluate(s, seat)
        assert 0.0 <= value <= 1.0
        assert g.evaluate(s.determinize(seat, rnd), seat) == value
        # one duel, two seats: the estimates are each other's complement
        assert duel_estimate(s, 0) + duel_estimate(s, 1) == pytest.approx(1.0)
        s.apply_action(rnd.choice(legal))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**31), st.integers(0, 2**31))
def test_ib_11_events_never_leak_drawn_cards(seed, choice_seed):
    g = _game("beacon", "hijack")
    s = g.new_initial_state(seed)
    rnd = random.Random(choice_seed)
    for _ in range(200):
        if s.is_terminal():
            break
        events = s.apply_action(rnd.choice(s.legal_actions()))
        for e in events:
            if e["type"] == "drew":
                assert e["to"] == [e["seat"]]
            else:
                assert "cards" not in e
        assert all(json.dumps(e) for e in robotable.visible_events(events, None))
