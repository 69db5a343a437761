"""BZ-9: end-game bonuses and the winner."""

from __future__ import annotations

from robotable.games.betabotz.effects import end_bonuses
from robotable.games.betabotz.rules import _end_game, winners

from .bz_helpers import at_mission, clear_hands, component_named, give_code, set_attrs


def _ready(n=3):
    s = at_mission(n, seed=21)
    clear_hands(s)
    for seat in range(n):
        s.comps[seat] = []
        set_attrs(s, seat, [5, 5, 5, 5])
    s.bitz = [30] * n
    return s


def test_bz_9_1_three_bonuses_ties_all_receive():
    s = _ready(4)
    set_attrs(s, 0, [14, 0, 0, 0])
    set_attrs(s, 2, [0, 0, 0, 14])  # tied highest single attribute
    gold = component_named(s, "Turbo Treads")
    s.comps[1] = [gold]
    s.comps[3] = [component_named(s, "Plasma Lance")]
    give_code(s, 3, "Siphon")
    events: list = []
    end_bonuses(s, events)
    got = {(e["seat"], e["bonus"]): e["bitz"] for e in events if e["type"] == "bonus"}
    assert got == {
        (0, "highest attribute"): 15,
        (2, "highest attribute"): 15,
        (1, "gold components"): 15,
        (3, "gold components"): 15,
        (3, "gold code cards"): 10,
    }
    assert s.bitz == [45, 45, 45, 55]


def test_bz_9_1_no_gold_no_gold_bonus():
    s = _ready(3)
    events: list = []
    end_bonuses(s, events)
    assert {e["bonus"] for e in events if e["type"] == "bonus"} == {"highest attribute"}


def test_bz_9_2_most_bitz_then_combined_attributes_then_shared():
    s = _ready(3)
    s.bitz = [50, 50, 40]
    set_attrs(s, 0, [5, 5, 5, 6])
    assert winners(s) == [0]
    set_attrs(s, 1, [5, 5, 5, 6])
    assert winners(s) == [0, 1]
    _end_game(s, [])
    assert s.is_terminal()
    r = s.returns()
    # both leaders share the highest-attribute bonus (6), so they stay tied: a shared win
    assert r == [1.0, 1.0, 0.0]


def test_bz_9_3_hands_revealed_at_the_end():
    s = _ready(3)
    give_code(s, 1, "Jammer")
    events: list = []
    _end_game(s, events)
    assert any(e["type"] == "hand_revealed" and e["cards"] == ["Jammer"] for e in events)
    assert s.view(0)["seats"][1]["hand"][0]["name"] == "Jammer"
