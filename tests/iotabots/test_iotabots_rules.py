"""One test (at least) per numbered rule of docs/rules/iotabots.md (IB-1 .. IB-7, IB-11)."""

from __future__ import annotations

import pytest

import robotable
from robotable.games.iotabots.actions import (
    Attack,
    ChooseCard,
    ChooseOrder,
    EndBattle,
    EndTurn,
    EnterBattle,
    Mulligan,
    PlayBuzz,
    Summon,
)
from robotable.games.iotabots.board import end_duel
from robotable.games.iotabots.state import DRAW

from .ib_helpers import blank, field_names, game, give, idx, labels, names, put, start

# -- IB-1 match ---------------------------------------------------------------------------------


def test_ib_1_1_life_zero_loses_the_duel():
    s = blank()
    put(s, 0, "Alpha Bot")
    s.life[1] = 6
    s.apply_action(EnterBattle())
    s.apply_action(Attack(0, -1))
    assert s.results == [0] and s.reasons == ["life points"]


def test_ib_1_1_both_at_zero_at_once_is_a_drawn_duel():
    s = blank()
    put(s, 0, "Hunter Bot")  # 5/2
    put(s, 1, "Loaded Bot")  # 4/2
    s.life = [2, 3]
    s.apply_action(EnterBattle())
    s.apply_action(Attack(0, 0))  # defender 2-5=-3, attacker 2-4=-2
    assert s.results == [DRAW]


@pytest.mark.parametrize(
    ("results", "over", "returns"),
    [
        ([0, 0], True, [1.0, 0.0]),
        ([1, 1], True, [0.0, 1.0]),
        ([0, DRAW, DRAW], True, [1.0, 0.0]),
        ([DRAW, 1, DRAW], True, [0.0, 1.0]),
        ([0, 1, DRAW], True, [0.5, 0.5]),
        ([DRAW, DRAW, DRAW], True, [0.5, 0.5]),
        ([0, 1, 0], True, [1.0, 0.0]),
        ([0, DRAW], False, None),
        ([0, 1], False, None),
    ],
)
def test_ib_1_2_match_win_and_draw_table(results, over, returns):
    s = start()
    for r in results:
        end_duel(s, r, "test", [])
    assert s.is_terminal() == over
    if over:
        assert s.returns() == returns
        assert s.legal_actions() == []


def test_ib_1_3_coin_toss_winner_chooses_first_or_second():
    g = game()
    tossers = set()
    for seed in range(12):
        s = g.new_initial_state(seed)
        tossers.add(s.chooser)
        assert s.current_player() == s.chooser
        assert {str(a) for a in s.legal_actions()} == {"go first", "go second"}
        s.apply_action(ChooseOrder(False))
        assert s.first == 1 - s.chooser
    assert tossers == {0, 1}  # the toss is chance, not a fixed seat


def test_ib_1_3_loser_chooses_next_duel_and_draw_retosses():
    s = start()
    end_duel(s, 0, "test", [])
    assert s.current_player() == 1 and s.chooser == 1  # seat 1 lost
    s.apply_action(ChooseOrder(True))
    assert s.first == 1
    choosers = set()
    for seed in range(10):
        t = start(seed)
        end_duel(t, DRAW, "test", [])
        choosers.add(t.chooser)
    assert choosers == {0, 1}


# -- IB-2 decks ---------------------------------------------------------------------------------


def test_ib_2_1_decks_hold_exactly_33_cards():
    g = game()
    for deck in g.decks:
        assert len(deck) == 33


def test_ib_2_2_at_most_three_copies_and_limits_list(tmp_path):
    from collections import Counter

    for name in ("assembly_line", "heavy_metal", "hijack", "beacon"):
        g = game(deck0=name)
        assert max(Counter(g.decks[0]).values()) <= 3
    deck = tmp_path / "four.txt"
    deck.write_text("4 Tri Bot\n29 Ball Bot\n")
    with pytest.raises(robotable.OptionError, match=r"four.txt, line 1: 4 copies of 'Tri Bot'"):
        game(deck0=str(deck))
    limits = tmp_path / "limits.toml"
    limits.write_text("[limits]\n'Tri Bot' = 1\n")
    ok = tmp_path / "two.txt"
    ok.write_text(
        "2 Tri Bot\n3 Ball Bot\n3 Mid Bot\n3 Range Bot\n3 Cute Bot\n3 Drone Bot\n"
        "3 Turtle Bot\n3 Chroma Bot\n3 Big Bot\n3 Tall Bot\n3 Loaded Bot\n1 Heavy Bot\n"
    )
    game(deck0=str(ok))
    with pytest.raises(
        robotable.OptionError, match=r"line 1: 2 copies of 'Tri Bot' but the limited"
    ):
        game(deck0=str(ok), limits=str(limits))
    assert game().pool.limits == {}  # the bundled list is empty


def test_ib_2_3_deck_file_errors_name_the_file_and_line(tmp_path):
    bad = tmp_path / "mine.txt"
    bad.write_text("# my deck\n3 Tri Bot\n3 Tri Bott\n")
    with pytest.raises(robotable.OptionError, match=r"mine.txt, line 3: unknown card 'Tri Bott'"):
        game(deck1=str(bad))
    bad.write_text("3 Tri Bot\nthree Mid Bot\n")
    with pytest.raises(robotable.OptionError, match=r"line 2: expected '<copies> <card name>'"):
        game(deck0=str(bad))
    bad.write_text("3 Tri Bot\n2 Scrap Bot\n")
    with pytest.raises(robotable.OptionError, match=r"line 2: 'Scrap Bot' is a token"):
        game(deck0=str(bad))
    bad.write_text("3 Tri Bot\n3 Mid Bot\n")
    with pytest.raises(robotable.OptionError, match=r"line 2: the deck holds 6 cards"):
        game(deck0=str(bad))
    with pytest.raises(robotable.OptionError, match=r"neither a bundled deck"):
        game(deck0="no_such_deck")


def test_ib_2_3_bundled_name_or_path_give_the_same_deck(tmp_path):
    from importlib import resources

    text = resources.files("robotable.games.iotabots").joinpath("data", "hijack.txt").read_text()
    path = tmp_path / "copy.txt"
    path.write_text(text)
    assert game(deck0="hijack").decks[0] == game(deck0=str(path)).decks[0]
    assert game(deck0=str(path)).deck_names[0] == "copy"


# -- IB-3 setup ---------------------------------------------------------------------------------


def test_ib_3_1_duel_setup_shuffled_20_life_three_cards():
    # The rulebook's setup; IB-4.8's extra card for the player going second is tested there.
    g = game(second_player_bonus="none")
    s = g.new_initial_state(5)
    s.apply_action(ChooseOrder(True))
    assert s.life == [20, 20]
    assert [len(h) for h in s.hand] == [3, 3]
    assert [len(d) for d in s.deck] == [30, 30]
    t = g.new_initial_state(6)
    t.apply_action(ChooseOrder(True))
    assert s.deck != t.deck or s.hand != t.hand  # shuffled by the seed


def test_ib_3_2_two_mulligans_then_the_hand_is_kept():
    g = game()
    s = g.new_initial_state(3)
    s.apply_action(ChooseOrder(True))
    first = s.first
    assert s.current_player() == first
    s.apply_action(Mulligan(True))
    assert s.mulligans[first] == 1 and len(s.hand[first]) == 3 and len(s.deck[first]) == 30
    s.apply_action(Mulligan(True))
    # after two mulligans the hand is kept and the other seat decides
    assert s.current_player() == 1 - first
    assert labels(s) == ["keep this hand", "mulligan: shuffle the hand back and draw 3"]
    s.apply_action(Mulligan(False))
    assert s.turn == 1 and s.active == first


# -- IB-4 turn ----------------------------------------------------------------------------------


def test_ib_4_1_draw_phase_and_deck_out_loses():
    s = start()
    assert len(s.hand[0]) == 4  # drew on turn 1 (ruling), 3 + 1
    s.deck[1] = []
    s.apply_action(EndTurn())
    assert s.results == [0] and s.reasons == ["deck out"]


def test_ib_4_1_first_turn_draw_option():
    s = start(first_turn_draw=False, second_player_bonus="mana")
    assert len(s.hand[0]) == 3
    s.apply_action(EndTurn())
    assert len(s.hand[1]) == 4


def test_ib_4_8_going_second_gets_one_more_mana_on_its_first_turn():
    s = start(second_player_bonus="mana")
    assert len(s.hand[1]) == 3
    s.apply_action(EndTurn())
    assert s.active == 1 and s.turn == 2
    assert (s.mana[1], s.mana_max[1]) == (2, 1)  # one extra, for this turn only
    s.apply_action(EndTurn())
    s.apply_action(EndTurn())
    assert s.turn == 4 and (s.mana[1], s.mana_max[1]) == (2, 2)


def test_ib_4_8_bonus_options_card_and_none():
    s = start(second_player_bonus="card")
    assert (len(s.hand[0]), len(s.hand[1])) == (4, 4)  # 3 + turn-1 draw; 3 + 1 extra
    s.apply_action(EndTurn())
    assert s.mana[1] == 1
    s = start(second_player_bonus="none")
    assert len(s.hand[1]) == 3
    s.apply_action(EndTurn())
    assert s.mana[1] == 1


def test_ib_4_8_bonus_option_both_gives_the_card_and_the_mana():
    s = start()  # the default, second_player_bonus=both
    assert (len(s.hand[0]), len(s.hand[1])) == (4, 4)
    s.apply_action(EndTurn())
    assert (len(s.hand[1]), s.mana[1], s.mana_max[1]) == (5, 2, 1)


def test_ib_4_2_mana_grows_to_six_and_refills():
    s = start()
    seen = []
    for _ in range(16):
        seen.append((s.active, s.mana[s.active], s.mana_max[s.active]))
        s.hand[s.active] = []
        s._legal = None
        s.apply_action(EndTurn())
    mine = [m for seat, m, _ in seen if seat == 0]
    assert mine == [1, 2, 3, 4, 5, 6, 6, 6]
    assert s.mana[1 - s.active] == 0  # emptied at the end of the turn


def test_ib_4_2_standby_triggers_resolve_before_main():
    s = blank()
    beacon = put(s, 0, "Beacon Bot")
    s.apply_action(EndTurn())
    assert beacon.counters == 0  # the opponent's Standby does not count
    s.apply_action(EndTurn())
    assert beacon.counters == 1 and s.phase == 2


def test_ib_4_3_summon_pays_mana_and_zero_cost_is_free():
    s = blank()
    s.mana[0] = 2
    give(s, 0, "Tri Bot", "Bi Bot", "Chroma Bot")
    assert "summon Chroma Bot" not in labels(s)
    s.apply_action(Summon("Tri Bot"))
    assert s.mana[0] == 0
    s.apply_action(Summon("Bi Bot"))
    assert field_names(s, 0) == ["Tri Bot", "Bi Bot"]


def test_ib_4_5_main_phase_2_allows_summons_after_battle():
    s = blank()
    put(s, 0, "Tri Bot")
    give(s, 0, "Mid Bot")
    s.apply_action(EnterBattle())
    assert "summon Mid Bot" not in labels(s)
    s.apply_action(EndBattle())
    assert "summon Mid Bot" in labels(s)
    assert "enter the Battle Phase" not in labels(s)


def test_ib_4_6_end_phase_discards_to_five_then_mana_zero():
    s = blank()
    give(s, 0, "Tri Bot", "Mid Bot", "Ball Bot", "Patch", "Patch", "Reboot", "Hijack")
    s.apply_action(EndTurn())
    assert s.current_player() == 0 and s.phase == 5
    assert set(labels(s)) == {
        "choose Tri Bot",
        "choose Mid Bot",
        "choose Ball Bot",
        "choose Patch",
        "choose Reboot",
        "choose Hijack",
    }
    s.apply_action(ChooseCard("Hijack"))
    s.apply_action(ChooseCard("Patch"))
    assert len(s.hand[0]) == 5 and names(s, s.junk[0]) == ["Hijack", "Patch"]
    assert s.active == 1 and s.mana[0] == 0


def test_ib_4_7_turn_cap_ends_the_duel_in_a_draw():
    s = start(max_turns=4, second_player_bonus="mana")  # no discard choice at the end phase
    for _ in range(4):
        s.apply_action(EndTurn())
    assert s.results == [DRAW] and s.reasons == ["turn cap"]


# -- IB-5 main phase ----------------------------------------------------------------------------


def test_ib_5_1_bot_zone_holds_five_including_tokens_and_controlled():
    s = blank()
    for name in ("Ball Bot", "Mid Bot", "Tri Bot", "Drone Bot"):
        put(s, 0, name)
    put(s, 0, "Chroma Bot", owner=1)  # a controlled Bot counts too
    give(s, 0, "Turtle Bot", "Scrap Call")
    assert not [x for x in labels(s) if x.startswith("summon") or x == "activate Scrap Call"]


def test_ib_5_2_buzz_resolves_then_goes_to_junk():
    s = blank()
    give(s, 0, "Patch")
    s.apply_action(PlayBuzz("Patch"))
    assert s.life[0] == 23 and s.mana[0] == 5
    assert names(s, s.junk[0]) == ["Patch"] and s.resolving == -1


# -- IB-6 battle --------------------------------------------------------------------------------


def test_ib_6_1_starting_player_has_no_battle_on_turn_one():
    s = start()
    put(s, 0, "Tri Bot")
    assert "enter the Battle Phase" not in labels(s)
    s.apply_action(EndTurn())
    put(s, 1, "Tri Bot")
    assert "enter the Battle Phase" in labels(s)  # the second player's first turn may battle


def test_ib_6_2_targets_a_bot_or_life_points():
    s = blank()
    put(s, 0, "Tri Bot")
    put(s, 1, "Ball Bot")
    put(s, 1, "Mid Bot")
    s.apply_action(EnterBattle())
    assert set(labels(s)) == {
        "your bot 1 attacks enemy bot 1",
        "your bot 1 attacks enemy bot 2",
        "your bot 1 attacks the opponent's Life Points",
        "end the Battle Phase",
    }
    t = blank(direct_attack_requires_empty_zone=True)
    put(t, 0, "Tri Bot")
    put(t, 1, "Ball Bot")
    t.apply_action(EnterBattle())
    assert "your bot 1 attacks the opponent's Life Points" not in labels(t)


def test_ib_6_2_attack_on_life_points_subtracts_attack():
    s = blank()
    put(s, 0, "Loaded Bot")
    s.apply_action(EnterBattle())
    s.apply_action(Attack(0, -1))
    assert s.life == [20, 16]


def test_ib_6_3_no_attack_on_summon_turn_and_once_per_turn():
    s = blank()
    put(s, 0, "Tri Bot", ready=False)
    put(s, 0, "Mid Bot")
    s.apply_action(EnterBattle())
    assert [x for x in labels(s) if "bot 1 attacks" in x] == []
    s.apply_action(Attack(1, -1))
    assert labels(s) == ["end the Battle Phase"]


def test_ib_6_3_cute_bot_attacks_twice():
    s = blank()
    put(s, 0, "Cute Bot")
    s.apply_action(EnterBattle())
    s.apply_action(Attack(0, -1))
    s.apply_action(Attack(0, -1))
    assert s.life[1] == 16 and labels(s) == ["end the Battle Phase"]


def test_ib_6_4_rulebook_example_chroma_bot_attacks_tri_bot():
    """The rulebook's own example: 1 - 3 = -2 destroys Tri Bot and costs its player 2 LP;
    3 - 2 = 1 leaves Chroma Bot and its player untouched."""
    s = blank()
    put(s, 0, "Chroma Bot")
    put(s, 1, "Tri Bot")
    s.apply_action(EnterBattle())
    events = s.apply_action(Attack(0, 0))
    battle = next(e for e in events if e["type"] == "attack")
    assert battle["defender_diff"] == -2 and battle["attacker_diff"] == 1
    assert s.life == [20, 18]
    assert field_names(s, 0) == ["Chroma Bot"] and field_names(s, 1) == []
    assert names(s, s.junk[1]) == ["Tri Bot"]


def test_ib_6_4_exact_zero_destroys_without_damage_and_def_is_not_worn():
    s = blank()
    put(s, 0, "Tri Bot")  # 2/1
    put(s, 1, "Mid Bot")  # 2/1 -> 1-2=-1 both ways
    put(s, 0, "Range Bot")  # 3/1
    put(s, 1, "Big Bot")  # 2/4
    s.apply_action(EnterBattle())
    s.apply_action(Attack(0, 0))
    assert field_names(s, 0) == ["Range Bot"] and field_names(s, 1) == ["Big Bot"]
    assert s.life == [19, 19]
    s.apply_action(Attack(0, 0))  # Range 3 vs Big DEF 4: 4-3=1 nothing; 1-2=-1 Range dies
    assert field_names(s, 1) == ["Big Bot"] and s.life == [18, 19]
    big = s.field[1][0]
    assert (big.atk_mod, big.def_mod) == (0, 0)


def test_ib_6_5_destroyed_bots_go_to_the_owners_junk_and_end_battle():
    s = blank()
    put(s, 0, "Alpha Bot")
    put(s, 1, "Tri Bot", owner=0)  # seat 1 controls seat 0's Tri Bot
    s.apply_action(EnterBattle())
    s.apply_action(Attack(0, 0))
    assert names(s, s.junk[0]) == ["Tri Bot"] and s.junk[1] == []
    s.apply_action(EndBattle())
    assert s.phase == 4


# -- IB-7 zones ---------------------------------------------------------------------------------


def test_ib_7_1_junk_zones_are_public():
    s = blank()
    s.junk[1] = [idx(s, "Tri Bot")]
    v = s.view(0)
    assert [c["name"] for c in v["players"][1]["junk"]] == ["Tri Bot"]
    assert [c["name"] for c in s.view(None)["players"][1]["junk"]] == ["Tri Bot"]


def test_ib_7_2_tokens_leave_the_game_when_destroyed():
    s = blank()
    put(s, 0, "Alpha Bot")
    give(s, 1, "Scrap Call")
    s.apply_action(EndTurn())
    s.apply_action(PlayBuzz("Scrap Call"))
    assert field_names(s, 1) == ["Scrap Bot", "Scrap Bot"]
    s.apply_action(EndTurn())
    s.apply_action(EnterBattle())
    s.apply_action(Attack(0, 0))
    assert field_names(s, 1) == ["Scrap Bot"] and "Scrap Bot" not in names(s, s.junk[1])


def test_ib_7_3_controlled_bots_count_and_return_to_owner():
    s = blank()
    put(s, 1, "Chroma Bot")
    give(s, 0, "Hijack")
    s.apply_action(PlayBuzz("Hijack"))
    assert field_names(s, 0) == ["Chroma Bot"] and s.field[0][0].owner == 1
    s.apply_action(EnterBattle())  # Hijack: it may attack this turn
    s.apply_action(Attack(0, -1))
    assert s.life[1] == 17
    s.apply_action(EndBattle())
    s.apply_action(EndTurn())
    assert field_names(s, 1) == ["Chroma Bot"] and field_names(s, 0) == []


# -- IB-11 visibility ---------------------------------------------------------------------------


def test_ib_11_1_view_hides_hands_and_deck_order():
    s = start()
    v = s.view(1)
    assert v["players"][0]["hand"] is None and v["players"][1]["hand"] is not None
    assert v["players"][0]["hand_count"] == 4
    assert "deck" not in v["players"][0] and v["players"][0]["deck_count"] == 29
    assert s.view(None)["players"][1]["hand"] is None


def test_ib_11_2_determinize_resamples_the_opponents_hand():
    import random

    s = start()
    hands = set()
    for i in range(10):
        d = s.determinize(1, random.Random(i))
        assert d.view(1) == s.view(1)
        assert sorted(d.hand[0] + d.deck[0]) == sorted(s.hand[0] + s.deck[0])
        assert d.hand[1] == s.hand[1]
        hands.add(tuple(sorted(d.hand[0])))
    assert len(hands) > 1


def test_ib_11_2_cards_publicly_returned_to_a_hand_stay_known():
    import random

    s = blank()
    put(s, 1, "Chroma Bot")
    give(s, 0, "Recall")
    s.apply_action(PlayBuzz("Recall"))
    assert s.view(0)["players"][1]["known_hand"] == ["Chroma Bot"]
    for i in range(5):
        d = s.determinize(0, random.Random(i))
        assert idx(s, "Chroma Bot") in d.hand[1] and d.view(0) == s.view(0)
    s.apply_action(EndTurn())
    s.apply_action(Summon("Chroma Bot"))
    assert s.view(0)["players"][1]["known_hand"] == []
