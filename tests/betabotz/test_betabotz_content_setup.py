"""BZ-1 (content) and BZ-2 (setup)."""

from __future__ import annotations

import pytest

import robotable
from robotable.games.betabotz.content import (
    GROUNDS,
    box_count_problems,
    load_content,
)
from robotable.games.betabotz.rules import LAYOUT, START_BITZ

from .bz_helpers import bundled_content_text, fresh, game


def test_bz_1_1_bundled_content_matches_the_box():
    c = load_content()
    assert box_count_problems(c) == []
    assert len(c.betabots) == 9 and len(c.components) == 64 and len(c.code_card_kind) == 50
    assert len(c.breaches) == 8 and len(c.missions) == 40
    assert [len(g) for g in c.missions_by_ground] == [14, 14, 12]
    assert any(x.gold for x in c.components) and any(x.green for x in c.components)
    assert any(c.codes[k].gold for k in c.code_card_kind)
    # two Limit Breaches per attribute
    assert sorted(b.attr for b in c.breaches) == [0, 0, 1, 1, 2, 2, 3, 3]


BAD = """
[[betabot]]
name = "A"
min_bid = 3
agility = 1
firepower = 1
structure = 1
processor = 1
"""


def test_bz_1_2_content_errors_name_file_entry_field(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(BAD)
    with pytest.raises(robotable.ContentError, match=r"mine.toml: missing the \[\[component\]\]"):
        game(3, content=str(path))
    text = bundled_content_text()
    path.write_text(text.replace("min_bid = 6", 'min_bid = "six"', 1))
    with pytest.raises(robotable.ContentError, match=r"betabot 'Sprocket': min_bid"):
        game(3, content=str(path))
    path.write_text(text.replace('op = "mod"', 'op = "teleport"', 1))
    with pytest.raises(robotable.ContentError, match=r"code card 'Overclock': op"):
        game(3, content=str(path))
    # a counted breach effect with amount 0 would still act once (a held flag counts 1)
    compiler = 'effect = "draw_each_mission"\namount = 1'
    assert text.count(compiler) == 1
    path.write_text(text.replace(compiler, 'effect = "draw_each_mission"\namount = 0'))
    with pytest.raises(robotable.ContentError, match=r"breach 'Compiler'.*needs amount >= 1"):
        game(3, content=str(path))


def test_bz_1_3_a_users_file_replaces_the_bundle(tmp_path):
    text = bundled_content_text().replace('name = "Sprocket"', 'name = "Clanky"')
    path = tmp_path / "own.toml"
    path.write_text(text)
    g = game(3, content=str(path))
    assert any(b.name == "Clanky" for b in g.content.betabots)
    # too few missions of a ground for the seat count is refused with a clear line
    blocks = text.split("\n\n")
    chip = [i for i, b in enumerate(blocks) if 'ground = "chiptropolis"' in b]
    short = "\n\n".join(b for i, b in enumerate(blocks) if i not in chip[:10])
    (tmp_path / "short.toml").write_text(short)
    with pytest.raises(robotable.ContentError, match="need 4 chiptropolis missions"):
        game(3, content=str(tmp_path / "short.toml"))


def test_bz_1_3_the_rules_card_tables_follow_the_file_loaded(tmp_path):
    """The rules read cards from the Game's tables (BetabotzTables), built from its Content:
    every entry agrees with the card it comes from, for the bundle and for a user's file."""
    text = bundled_content_text()
    first_reward = text.index("reward = ")
    end = text.index("\n", first_reward)
    changed = text[:first_reward] + "reward = 42" + text[end:]
    path = tmp_path / "own.toml"
    path.write_text(changed)
    for g in (game(4), game(4, content=str(path))):
        c = g.content
        assert g.bot_name == [b.name for b in c.betabots]
        assert g.bot_attrs == [list(b.attrs) for b in c.betabots]
        assert g.comp_mods == [list(x.mods) for x in c.components]
        assert g.comp_gold == [int(x.gold) for x in c.components]
        assert g.comp_green == [int(x.green) for x in c.components]
        assert g.comp_acquire == [x.acquire_cost for x in c.components]
        assert g.card_gold == [int(c.codes[k].gold) for k in c.code_card_kind]
        assert g.kind_op == [int(k.op) for k in c.codes]
        assert g.breach_effect == [int(b.effect) for b in c.breaches]
        assert g.mission_reward == [m.reward for m in c.missions]
        assert g.mission_ground == [m.ground for m in c.missions]
        assert g.missions_by_ground == [list(ids) for ids in c.missions_by_ground]
    assert 42 in game(4, content=str(path)).mission_reward
    assert 42 not in game(4).mission_reward


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_bz_2_1_ten_missions_by_seat_count_in_ground_order(n):
    s = fresh(n, seed=n)
    grounds = [s.content.missions[m].ground for m in s.mission_order]
    want = [g for g, k in enumerate(LAYOUT[n]) for _ in range(k)]
    assert grounds == want and len(grounds) == 10
    assert len(set(s.mission_order)) == 10
    assert LAYOUT[3] == (5, 1, 4) and LAYOUT[4] == (4, 2, 4) and LAYOUT[5] == LAYOUT[6] == (3, 4, 3)
    assert GROUNDS == ("comptown", "rustland", "chiptropolis")


def test_bz_2_2_decks_shuffled_and_breaches_free():
    a, b = fresh(4, seed=1), fresh(4, seed=2)
    assert a.comp_deck != b.comp_deck and a.code_deck != b.code_deck
    assert all(h == -1 for h in a.holder)
    v = a.view(0)
    assert len(v["breach_pool"]) == 8 and all(x["holder"] is None for x in v["breach_pool"])


@pytest.mark.parametrize("n", [3, 6])
def test_bz_2_3_forty_bitz_and_three_codes_each(n):
    s = fresh(n, seed=5)
    assert s.bitz == [START_BITZ] * n == [40] * n
    assert [len(h) for h in s.hand] == [3] * n
    assert len(s.code_deck) == 50 - 3 * n


def test_bz_2_4_starter_chip_random_and_acts_first():
    chips = {fresh(3, seed=k).chip for k in range(12)}
    assert chips == {0, 1, 2}
    s = fresh(3, seed=3)
    assert s.current_player() == s.chip
