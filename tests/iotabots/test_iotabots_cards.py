"""The effect vocabulary card by card (IB-8), and the card pool as data (IB-9, IB-10)."""

from __future__ import annotations

from pathlib import Path

import pytest

import robotable
from robotable.games.iotabots.actions import (
    Activate,
    Attack,
    ChooseBot,
    ChooseCard,
    EndBattle,
    EndTurn,
    EnterBattle,
    PlayBuzz,
    Summon,
)
from robotable.games.iotabots.content import CardType, EffectKind, Op, bundled_deck_names
from robotable.games.iotabots.effects import stats

from .ib_helpers import blank, field_names, game, give, idx, labels, names, put

# -- continuous effects (IB-8.2) -----------------------------------------------------------------


def test_ib_8_2_carry_bot_needs_a_drone_bot_in_junk_or_field():
    s = blank()
    carry = put(s, 0, "Carry Bot")
    assert stats(s, 0, carry) == (0, 1)
    s.junk[0].append(idx(s, "Drone Bot"))
    assert stats(s, 0, carry) == (2, 1)
    s.junk[0] = []
    put(s, 0, "Drone Bot")
    assert stats(s, 0, carry) == (2, 1)
    put(s, 1, "Drone Bot")  # the opponent's Drone Bot does not count
    s.field[0].pop()
    assert stats(s, 0, carry) == (0, 1)


def test_ib_8_2_commander_bot_gives_other_bots_one_attack():
    s = blank()
    tri = put(s, 0, "Tri Bot")
    cmd = put(s, 0, "Commander Bot")
    enemy = put(s, 1, "Mid Bot")
    assert stats(s, 0, tri) == (3, 1) and stats(s, 0, cmd) == (2, 3)
    assert stats(s, 1, enemy) == (2, 1)


def test_ib_8_2_sneaky_bot_proposed_text():
    s = blank(proposed_texts=True)
    put(s, 0, "Tri Bot")
    put(s, 1, "Sneaky Bot")
    s.apply_action(EnterBattle())
    assert "your bot 1 attacks enemy bot 1" in labels(s)
    put(s, 1, "Ball Bot")
    s._legal = None
    assert "your bot 1 attacks enemy bot 1" not in labels(s)
    assert "your bot 1 attacks enemy bot 2" in labels(s)


def test_ib_8_2_wall_bot_proposed_text_forbids_direct_attacks():
    s = blank(proposed_texts=True)
    put(s, 0, "Tri Bot")
    put(s, 1, "Wall Bot")
    s.apply_action(EnterBattle())
    assert "your bot 1 attacks the opponent's Life Points" not in labels(s)
    plain = blank()
    put(plain, 0, "Tri Bot")
    put(plain, 1, "Wall Bot")
    plain.apply_action(EnterBattle())
    assert "your bot 1 attacks the opponent's Life Points" in labels(plain)


def test_ib_8_1_card_text_beats_the_rulebook():
    # Cute Bot attacks twice; a Hijacked Bot attacks on the turn it arrived.
    s = blank()
    put(s, 0, "Cute Bot")
    put(s, 1, "Tri Bot")
    give(s, 0, "Hijack")
    s.apply_action(PlayBuzz("Hijack"))
    s.apply_action(EnterBattle())
    assert "your bot 2 attacks the opponent's Life Points" in labels(s)
    s.apply_action(Attack(0, -1))
    assert "your bot 1 attacks the opponent's Life Points" in labels(s)


# -- ignition effects and costs (IB-8.3) ----------------------------------------------------------


def test_ib_8_3_factory_bot_discard_cost_makes_a_token_once_per_turn():
    s = blank()
    put(s, 0, "Factory Bot")
    assert "use the ignition effect of your bot 1" not in labels(s)  # no card to discard
    give(s, 0, "Patch", "Ball Bot")
    s.apply_action(Activate(0))
    assert s.current_player() == 0 and set(labels(s)) == {"choose Patch", "choose Ball Bot"}
    s.apply_action(ChooseCard("Patch"))
    assert field_names(s, 0) == ["Factory Bot", "Scrap Bot"] and names(s, s.junk[0]) == ["Patch"]
    assert "use the ignition effect of your bot 1" not in labels(s)
    s.apply_action(EndTurn())
    s.apply_action(EndTurn())
    assert "use the ignition effect of your bot 1" in labels(s)


def test_ib_8_3_siphon_bot_tributes_another_bot_even_a_controlled_one():
    s = blank()
    put(s, 0, "Siphon Bot")
    assert "use the ignition effect of your bot 1" not in labels(s)  # nothing to tribute
    put(s, 0, "Chroma Bot", owner=1)
    hand = len(s.hand[0])
    s.apply_action(Activate(0))  # a single option is chosen without asking
    assert field_names(s, 0) == ["Siphon Bot"]
    assert names(s, s.junk[1]) == ["Chroma Bot"] and s.junk[0] == []
    assert s.life[0] == 23 and len(s.hand[0]) == hand + 1


def test_ib_8_3_bi_bot_proposed_tributes_itself_for_mana():
    s = blank(proposed_texts=True)
    put(s, 0, "Bi Bot")
    s.apply_action(Activate(0))
    assert s.field[0] == [] and s.mana[0] == 7 and names(s, s.junk[0]) == ["Bi Bot"]


def test_ib_8_3_targets_must_exist_when_declared():
    s = blank()
    give(s, 0, "Short Circuit", "Hijack", "Recall", "Overclock", "Callback")
    offered = labels(s)
    for card in ("Short Circuit", "Hijack", "Recall", "Overclock", "Callback"):
        assert f"activate {card}" not in offered
    put(s, 1, "Heavy Bot")  # DEF 6: no Short Circuit target, but Hijack/Recall have one
    s._legal = None
    offered = labels(s)
    assert "activate Short Circuit" not in offered and "activate Hijack" in offered


# -- triggers (IB-8.5) ----------------------------------------------------------------------------


def test_ib_8_5_draw_bot_proposed_on_summon():
    s = blank(proposed_texts=True)
    give(s, 0, "Draw Bot")
    s.apply_action(Summon("Draw Bot"))
    assert len(s.hand[0]) == 2


def test_ib_8_5_kamikaze_bot_proposed_destroys_what_it_battled():
    s = blank(proposed_texts=True)
    put(s, 0, "Heavy Bot")
    put(s, 1, "Kamikaze Bot")
    s.apply_action(EnterBattle())
    s.apply_action(Attack(0, 0))
    assert s.field == [[], []]
    assert names(s, s.junk[0]) == ["Heavy Bot"] and names(s, s.junk[1]) == ["Kamikaze Bot"]


def test_ib_8_5_turn_players_triggers_resolve_first():
    s = blank(proposed_texts=True)
    put(s, 0, "Kamikaze Bot")
    put(s, 1, "Leech Bot")
    s.apply_action(EnterBattle())
    events = s.apply_action(Attack(0, 0))
    kinds = [e["type"] for e in events]
    # Kamikaze Bot (the turn player's) resolves first and destroys Leech Bot, whose
    # "if it is still on the field" heal then does nothing
    assert "destroy" in kinds and "heal" not in kinds
    assert s.field == [[], []] and s.life == [18, 20]


def test_ib_8_5_leech_bot_heals_after_surviving_damage():
    s = blank()
    put(s, 0, "Leech Bot")
    put(s, 1, "Ball Bot")
    s.apply_action(EnterBattle())
    s.apply_action(Attack(0, 0))
    assert s.life[0] == 22
    t = blank()
    put(t, 0, "Leech Bot")
    put(t, 1, "Alpha Bot")
    t.apply_action(EnterBattle())
    t.apply_action(Attack(0, 0))
    assert t.life[0] == 20 - 3  # destroyed: no heal, 3 - 6 = -3 damage


def test_ib_8_5_puppet_bot_takes_control_on_summon():
    s = blank()
    put(s, 1, "Chroma Bot")  # ATK 3
    put(s, 1, "Hunter Bot")  # ATK 5: not a legal target
    give(s, 0, "Puppet Bot")
    s.apply_action(Summon("Puppet Bot"))
    assert field_names(s, 0) == ["Puppet Bot", "Chroma Bot"]
    s.apply_action(EnterBattle())
    assert "your bot 2 attacks the opponent's Life Points" in labels(s)
    assert "your bot 1 attacks the opponent's Life Points" not in labels(s)  # just summoned


# -- choices (IB-8.4) -----------------------------------------------------------------------------


def test_ib_8_4_several_options_become_a_pending_decision():
    s = blank()
    put(s, 1, "Tri Bot")
    put(s, 1, "Mid Bot")
    put(s, 0, "Range Bot")
    give(s, 0, "Short Circuit")
    s.apply_action(PlayBuzz("Short Circuit"))
    assert s.view(0)["pending"] == {"seat": 0, "card": "Short Circuit", "kind": "bot"}
    assert set(labels(s)) == {
        "choose seat 0's bot 1",
        "choose seat 1's bot 1",
        "choose seat 1's bot 2",
    }
    s.apply_action(ChooseBot(1, 1))
    assert field_names(s, 1) == ["Tri Bot"] and names(s, s.junk[0]) == ["Short Circuit"]


# -- the operations (IB-8.6) ------------------------------------------------------------------------


def test_ib_8_6_callback_discards_then_returns_a_bot_from_junk():
    s = blank()
    s.junk[0] = [idx(s, "Tri Bot"), idx(s, "Patch")]
    give(s, 0, "Callback", "Reboot")
    s.apply_action(PlayBuzz("Callback"))  # the only card to discard and the only Bot: no asks
    assert names(s, s.hand[0]) == ["Tri Bot"]
    assert names(s, s.junk[0]) == ["Patch", "Reboot", "Callback"]


def test_ib_8_6_bot_protect_until_next_standby():
    s = blank()
    put(s, 0, "Tri Bot")
    give(s, 0, "Bot Protect")
    s.apply_action(PlayBuzz("Bot Protect"))
    s.apply_action(EndTurn())
    put(s, 1, "Alpha Bot")
    s.apply_action(EnterBattle())
    assert set(labels(s)) == {
        "your bot 1 attacks the opponent's Life Points",
        "end the Battle Phase",
    }
    s.apply_action(EndBattle())
    s.apply_action(EndTurn())
    assert s.protect == [False, False]


def test_ib_8_6_reboot_draws_two_then_discards_one():
    s = blank()
    give(s, 0, "Reboot", "Patch")
    s.apply_action(PlayBuzz("Reboot"))
    assert len(s.hand[0]) == 3 and s.current_player() == 0
    s.apply_action(s.legal_actions()[0])
    assert len(s.hand[0]) == 2 and len(s.junk[0]) == 2


def test_ib_8_6_overclock_hardening_and_repair_last_until_end_of_turn():
    s = blank()
    tri = put(s, 0, "Tri Bot")
    give(s, 0, "Overclock", "Hardening", "Emergency Repair")
    s.apply_action(PlayBuzz("Overclock"))
    s.apply_action(PlayBuzz("Hardening"))
    s.apply_action(PlayBuzz("Emergency Repair"))
    assert stats(s, 0, tri) == (4, 5)
    s.apply_action(EndTurn())
    assert stats(s, 0, tri) == (2, 1)


def test_ib_8_6_short_circuit_and_system_purge_destroy_by_stats():
    s = blank()
    put(s, 0, "Tri Bot")
    put(s, 0, "Chroma Bot")
    put(s, 1, "Big Bot")
    put(s, 1, "Scrap Bot", owner=1)
    give(s, 0, "System Purge")
    s.apply_action(PlayBuzz("System Purge"))
    assert field_names(s, 0) == ["Chroma Bot"] and field_names(s, 1) == []
    assert names(s, s.junk[1]) == ["Big Bot"]  # the token left the game


def test_ib_8_6_scrap_call_creates_tokens_as_many_as_fit():
    s = blank()
    for name in ("Ball Bot", "Mid Bot", "Tri Bot", "Drone Bot"):
        put(s, 0, name)
    give(s, 0, "Scrap Call")
    s.apply_action(PlayBuzz("Scrap Call"))
    assert len(s.field[0]) == 5 and field_names(s, 0)[-1] == "Scrap Bot"
    token = s.field[0][-1]
    assert s.game.cards[token.card].type == CardType.TOKEN


def test_ib_8_6_rewire_is_permanent_and_cannot_attack_at_once():
    s = blank()
    put(s, 1, "Roaming Bot")  # ATK 4
    give(s, 0, "Rewire")
    s.apply_action(PlayBuzz("Rewire"))
    assert field_names(s, 0) == ["Roaming Bot"]
    assert "enter the Battle Phase" not in labels(s)
    s.apply_action(EndTurn())
    s.apply_action(EndTurn())
    assert field_names(s, 0) == ["Roaming Bot"] and s.field[0][0].owner == 1


def test_ib_8_6_recall_returns_to_the_owners_hand_and_removes_tokens():
    s = blank()
    put(s, 0, "Chroma Bot", owner=1)
    give(s, 0, "Recall")
    s.apply_action(PlayBuzz("Recall"))
    assert names(s, s.hand[1]) == ["Chroma Bot"] and s.field[0] == []
    t = blank()
    put(t, 1, "Scrap Bot")
    give(t, 0, "Recall")
    t.apply_action(PlayBuzz("Recall"))
    assert t.field[1] == [] and t.hand[1] == []


def test_ib_8_6_power_surge_may_exceed_six_and_firewall_breach_can_win():
    s = blank()
    give(s, 0, "Power Surge", "Firewall Breach")
    s.apply_action(PlayBuzz("Power Surge"))
    assert s.mana[0] == 7
    s.life[1] = 2
    s.apply_action(PlayBuzz("Firewall Breach"))
    assert s.results == [0]


def test_ib_8_6_sacrifice_protocol_tributes_then_draws_two():
    s = blank()
    put(s, 0, "Ball Bot")
    give(s, 0, "Sacrifice Protocol")
    s.apply_action(PlayBuzz("Sacrifice Protocol"))
    assert s.field[0] == [] and len(s.hand[0]) == 2


# -- control (IB-8.7) and win conditions (IB-8.8) -------------------------------------------------


def test_ib_8_7_control_needs_room_and_returns_to_junk_when_owner_zone_full():
    s = blank()
    for name in ("Ball Bot", "Mid Bot", "Tri Bot", "Drone Bot", "Turtle Bot"):
        put(s, 0, name)
    put(s, 1, "Chroma Bot")
    give(s, 0, "Hijack")
    assert "activate Hijack" not in labels(s)
    s.field[0].pop()
    s._legal = None
    s.apply_action(PlayBuzz("Hijack"))
    for name in ("Ball Bot", "Mid Bot", "Tri Bot", "Drone Bot", "Turtle Bot"):
        put(s, 1, name)
    s.apply_action(EndTurn())
    assert names(s, s.junk[1]) == ["Chroma Bot"] and len(s.field[1]) == 5


def test_ib_8_8_beacon_bot_wins_at_three_counters():
    s = blank()
    put(s, 0, "Beacon Bot")
    for _ in range(4):
        s.apply_action(EndTurn())
    assert s.field[0][0].counters == 2 and not s.results
    s.apply_action(EndTurn())
    s.apply_action(EndTurn())
    assert s.results == [0] and s.reasons == ["win condition (Beacon Bot)"]


# -- the pool (IB-9) and the decks (IB-10) --------------------------------------------------------


def test_ib_9_1_pool_size_known_cards_and_every_effect_kind():
    g = game()
    cards = [c for c in g.cards if c.type != CardType.TOKEN]
    assert len(cards) >= 40
    assert sum(c.type == CardType.BUZZ for c in cards) >= 14
    known_bots = [c for c in cards if c.origin == "known" and c.type == CardType.BOT]
    known_buzz = [c for c in cards if c.origin == "known" and c.type == CardType.BUZZ]
    assert len(known_bots) == 22 and {c.name for c in known_buzz} == {"Callback", "Bot Protect"}
    assert (g.pool.card("Chroma Bot").atk, g.pool.card("Chroma Bot").def_) == (3, 3)
    assert g.pool.card("Cute Bot").attacks == 2
    kinds = {e.kind for c in g.cards for e in c.effects}
    assert kinds == set(EffectKind)
    ops = {s.op for c in g.cards for e in c.effects for s in e.steps}
    for op in (Op.TOKEN, Op.CONTROL, Op.WIN_IF_COUNTERS, Op.COST_DISCARD, Op.COST_TRIBUTE):
        assert op in ops


def test_ib_9_1_the_rules_table_gives_every_card_its_bundled_numbers():
    """docs/rules/iotabots.md lists the pool with each card's mana, ATK/DEF and origin: a
    balance pass that changes a card in data/cards.toml must change the table too."""
    rules = Path(__file__).resolve().parents[2] / "docs" / "rules" / "iotabots.md"
    section = rules.read_text().split("## IB-9 ", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 6 and cells[1] in ("bot", "buzz", "token"):
            rows[cells[0]] = cells[1:5]
    g = game()
    assert set(rows) == {c.name for c in g.cards}
    for card in g.cards:
        kind, mana, numbers, origin = rows[card.name]
        assert int(mana) == card.mana, card.name
        if card.type != CardType.BUZZ:
            assert numbers == f"{card.atk}/{card.def_}", card.name
        assert origin == card.origin, card.name


def test_ib_9_2_user_card_file_and_its_errors(tmp_path):
    cards = tmp_path / "cards.toml"
    cards.write_text(
        '[[cards]]\nname = "Tri Bot"\ntype = "bot"\nmana = 2\natk = 2\ndef = 1\n'
        '[[cards]]\nname = "Zap"\ntype = "buzz"\nmana = 1\n'
        '[[cards.effects]]\nkind = "play"\nops = [{ op = "damage", n = 1 }]\n'
    )
    deck = tmp_path / "deck.txt"
    deck.write_text("3 Tri Bot\n" * 5 + "3 Zap\n" * 5 + "3 Tri Bot\n")
    with pytest.raises(robotable.OptionError, match="line 2: 6 copies"):
        game(cards=str(cards), deck0=str(deck), deck1=str(deck))
    bad = tmp_path / "bad.toml"
    bad.write_text('[[cards]]\nname = "Oops"\ntype = "bot"\nmana = "four"\n')
    with pytest.raises(robotable.ContentError, match=r"bad.toml, card 'Oops': mana"):
        game(cards=str(bad))
    bad.write_text(
        '[[cards]]\nname = "Oops"\ntype = "buzz"\nmana = 1\n'
        '[[cards.effects]]\nkind = "play"\nops = [{ op = "destroy" }]\n'
    )
    with pytest.raises(robotable.ContentError, match=r"card 'Oops'.*needs a target"):
        game(cards=str(bad))


def test_ib_10_1_four_bundled_decks_are_legal(tmp_path):
    decks = bundled_deck_names()
    assert decks == ["assembly_line", "beacon", "heavy_metal", "hijack"]
    for d in decks:
        g = game(deck0=d, deck1=d)
        assert len(g.decks[0]) == 33
    tiny = tmp_path / "tiny.toml"
    tiny.write_text('[[cards]]\nname = "Tri Bot"\ntype = "bot"\nmana = 2\natk = 2\ndef = 1\n')
    with pytest.raises(robotable.OptionError, match="assembly_line.txt, line 2: unknown card"):
        game(deck0="assembly_line", cards=str(tiny))


def test_ib_8_7_temporary_control_returns_to_the_previous_controller():
    s = blank()
    put(s, 1, "Roaming Bot")
    give(s, 0, "Rewire")
    give(s, 1, "Hijack")
    s.apply_action(PlayBuzz("Rewire"))  # seat 0 keeps seat 1's Roaming Bot for good
    s.apply_action(EndTurn())
    s.apply_action(PlayBuzz("Hijack"))  # seat 1, its owner, borrows it back for a turn
    assert field_names(s, 1) == ["Roaming Bot"] and s.field[1][0].home == 0
    s.apply_action(EnterBattle())
    s.apply_action(Attack(0, -1))
    s.apply_action(EndBattle())
    s.apply_action(EndTurn())
    assert field_names(s, 0) == ["Roaming Bot"] and s.field[1] == []
    assert s.field[0][0].owner == 1 and s.life[0] == 16


def test_bundled_deck_names_match_the_data_folder():
    from importlib import resources

    from robotable.games.iotabots.content import BUNDLED_DECKS

    folder = resources.files("robotable.games.iotabots").joinpath("data")
    assert sorted(BUNDLED_DECKS) == sorted(
        p.name[:-4] for p in folder.iterdir() if p.name.endswith(".txt")
    )
