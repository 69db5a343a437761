"""Encodings, heuristic, rendering and agents on Rumblebots."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from robotable.agents import make_agent

from .rb_helpers import battle, game


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31), n=st.integers(2, 4))
def test_rb_encodings_are_fixed_and_distinct(seed, n):
    g = game(n)
    s = g.new_initial_state(seed=seed)
    rng = random.Random(seed)
    size = g.observation_size()
    while not s.is_terminal():
        legal = s.legal_actions()
        idx = [g.action_index(a) for a in legal]
        assert len(set(idx)) == len(idx)
        assert all(0 <= i < g.num_distinct_actions() for i in idx)
        seat = s.current_player()
        obs = g.encode_observation(s.view(seat))
        assert len(obs) == size and all(isinstance(x, float) for x in obs)
        value = g.evaluate(s, seat)
        assert 0.0 <= value <= 1.0
        s.apply_action(legal[rng.randrange(len(legal))])
    assert [g.evaluate(s, p) for p in range(n)] == s.returns()


def test_rb_heuristic_prefers_crystals_and_power():
    g = game(2)
    s = g.new_initial_state(seed=1)
    base = g.evaluate(s, 0)
    s.storage[0] = 3
    s.supply -= 3
    assert g.evaluate(s, 0) > base
    assert abs(g.evaluate(s, 0) + g.evaluate(s, 1) - 1.0) < 1e-9


def test_rb_render_shows_workshops_rows_and_the_clash_step_by_step():
    g = game(2)
    s = g.new_initial_state(seed=2)
    text = g.render(s, s.current_player())
    assert "Laboratory:" in text and "tier 1 (14 in deck)" in text
    assert "Seat 1" in text and "Workshop tier 1" in text and "Build Phase" in text
    # seats count from 1; the choices are listed (and numbered) by the front end, not here
    assert "Seat 0" not in text and "[0]" not in text
    b, _ = battle(
        g,
        [["Fridge Fortress"], ["Bulby", "Mechchicken"]],
        champion=0,
        contraptions=[[], ["Overclocker"]],
    )
    text = g.render(b, 1)
    assert "Clash: Champion Seat 1 defends with Fridge Fortress" in text
    assert "Seat 2 reveals Mechchicken" in text and "attack 2 vs defense 7" in text
    assert "use a Contraption?" in text and "use your Overclocker" not in text
    labels = [e["label"] for e in b.legal_action_entries(1)]
    assert labels[0].startswith("use your Overclocker")


def test_rb_agents_play_whole_games():
    g = game(3)
    for spec in ("greedy", "mcts:20"):
        s = g.new_initial_state(seed=5)
        agents = [make_agent(spec, seed=p) for p in range(3)]
        while not s.is_terminal():
            s.apply_action(agents[s.current_player()].act(s))
        assert sorted(s.returns()) == [0.0, 0.0, 1.0]
        assert s.stats()["end_reason"] in ("dominance", "showdown")
