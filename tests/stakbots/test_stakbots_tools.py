"""Render, heuristic and encodings (agents and RL hooks)."""

from __future__ import annotations

import random

from .sbkit import do, game, play, position, random_game


def test_render_shows_board_hand_heap_and_the_decision():
    st = position([["?Core:2", "Core:5", "Core:4"], ["Core:6", "Core:3"]], hands=[["Shot"], []])
    do(st, "attack", target=1)
    play(st, "shot")
    text = st.game.render(st, 0)
    for needle in (
        "turn 1",
        "supply",
        "scrapheap 1 card, top: Core Bot P3",
        "Seat 1 (you): stak 4 cards",
        "top Shot Bot P0 r1  >4 dmg to a top",
        "Core Bot P4 dmg 3",
        "[1 face-down]",
        "Seat 2 (opponent): stak 1 card, hand 0 cards",
        "top: Core Bot P6",
        "your hand: empty",
        "decision: Seat 1: your Shot Bot entered: choose a top card to take 4 damage",
    ):
        assert needle in text, (needle, text)
    assert "your hand" not in st.game.render(st, 1).split("Seat 2 (you)")[0]
    assert "decision:" in st.game.render(st, None)


def test_heuristic_is_in_range_and_prefers_material():
    g = game(2)
    for st, _a in random_game(2, 4):
        for seat in (0, 1):
            assert 0.0 <= g.evaluate(st, seat) <= 1.0
    ahead = position([["Core:2", "Core:3", "Core:4", "Core:5"], ["Core:6"]])
    assert ahead.game.evaluate(ahead, 0) > 0.6 > ahead.game.evaluate(ahead, 1)
    end = position([["Core:2", "Core:7"], ["Core:3"]])
    do(end, "attack", target=1)
    assert end.game.evaluate(end, 0) == 1.0 and end.game.evaluate(end, 1) == 0.0


def test_encodings_have_fixed_sizes_and_distinct_indices():
    for n in (2, 3, 4):
        g = game(n)
        size = g.observation_size()
        bound = g.num_distinct_actions()
        rng = random.Random(n)
        st = g.new_initial_state(n)
        while not st.is_terminal():
            legal = st.legal_actions()
            idx = [g.action_index(a) for a in legal]
            assert len(set(idx)) == len(idx) and all(0 <= i < bound for i in idx)
            for seat in (*range(n), None):
                obs = g.encode_observation(st.view(seat))
                assert len(obs) == size and all(isinstance(x, float) for x in obs)
            st.apply_action(rng.choice(legal))
