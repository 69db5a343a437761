"""The heuristic agents use, and the terminal board."""

from __future__ import annotations

import random

from robotable.agents import make_agent

from .bw_setup import play, position


def test_bw_heuristic_in_range_and_prefers_bread():
    st = position(bots=[("A1", "Harvester", "L1a")], loaves=(5, 1))
    game = st.game
    a, b = game.evaluate(st, 0), game.evaluate(st, 1)
    assert 0.0 <= b < 0.5 < a <= 1.0 and abs(a + b - 1.0) < 1e-9
    near = position(bots=[("A1", "Harvester", "L1a", 4)])
    far = position(bots=[("A1", "Harvester", "L2a", 4)])
    assert game.evaluate(near, 0) > game.evaluate(far, 0) > 0.5


def test_bw_heuristic_ignores_hidden_chip_values():
    one = position(bots=[("A1", "Harvester", "L1a")], crops={"L1a": 5, "L2b": 1})
    two = position(bots=[("A1", "Harvester", "L1a")], crops={"L1a": 1, "L2b": 5})
    for seat in (0, 1):
        assert one.game.evaluate(one, seat) == two.game.evaluate(two, seat)


def test_bw_heuristic_rewards_unloading():
    st = position(bots=[("A1", "Harvester", "D_A", 1)])
    before = st.game.evaluate(st, 0)
    play(st, "Harvester A1 on D_A (home): unload the harvest")
    assert st.game.evaluate(st, 0) > before


def test_bw_greedy_takes_an_obvious_unload():
    st = position(bots=[("A1", "Harvester", "L1a", 5)], loaves=(0, 0))
    agent = make_agent("greedy", seed=1)
    action = agent.act(st)
    assert str(action) == "Harvester A1 L1a -> D_A (home)"
    st.apply_action(action)
    assert str(agent.act(st)) == "Harvester A1 on D_A (home): unload the harvest"


def test_bw_render_draws_the_board():
    st = position(
        bots=[
            ("A1", "Harvester", "L1a", 3),
            ("B2", "Shield", "L2b"),
            ("A3", "Locust", "f4"),
        ],
        crops={"L2a": 5},
        poison=("L1b",),
        loaves=(2, 1),
    )
    text = st.game.render(st, 0)
    lines = text.splitlines()
    assert "A1 Hv+3" in text and "B2 Sh" in text and "[4: A3 Lc]" in text
    assert "crop ?" in text and "POISON" in text and "centre 9, Seat 1 2, Seat 2 1" in text
    # A's side at the bottom: D_B is drawn above D_A.
    assert next(i for i, s in enumerate(lines) if "D_B" in s) < next(
        i for i, s in enumerate(lines) if "D_A" in s
    )
    flipped = st.game.render(st, 1).splitlines()
    assert next(i for i, s in enumerate(flipped) if "D_A" in s) < next(
        i for i, s in enumerate(flipped) if "D_B" in s
    )
    assert "decision: Seat 1" in text and "crop 5" not in text
    assert "Seat 1 (A) factories" in text  # the table puts the seat's name in; A marks its bots


def test_bw_mcts_plays_legal_moves():
    st = position(bots=[("A1", "Harvester", "L1a", 2), ("B1", "Soldier", "L2b")])
    agent = make_agent("mcts:60", seed=3)
    rng = random.Random(0)
    for _ in range(6):
        if st.is_terminal():
            break
        action = agent.act(st) if st.current_player() == 0 else rng.choice(st.legal_actions())
        assert action in st.legal_actions()
        st.apply_action(action)


def test_bw_heuristic_rewards_each_step_of_a_delivery():
    def value(st):
        return st.game.evaluate(st, 0)

    st = position(bots=[("A1", "Drone", "L1a"), ("A2", "Harvester", "L1b")])
    before = value(st)
    play(st, "Drone A1 on L1a: plant a crop")
    assert value(st) > before  # planting
    # A crop of about the chips' mean value: harvesting a chip below the mean is, rightly, news
    # that lowers the estimate.
    st = position(bots=[("A2", "Harvester", "L1b")], crops={"L1a": 3})
    before = value(st)
    play(st, "Harvester A2 L1b -> L1a")
    assert value(st) > before  # reaching the crop
    st = position(bots=[("A2", "Harvester", "L1a")], crops={"L1a": 3})
    before = value(st)
    play(st, "Harvester A2 on L1a: harvest the crop")
    assert value(st) > before  # harvesting
    st = position(bots=[("A2", "Harvester", "L2a", 2)])
    before = value(st)
    play(st, "Harvester A2 L2a -> L1a")
    assert value(st) > before  # carrying it home
