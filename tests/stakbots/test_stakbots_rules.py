"""One test (or more) per numbered rule of docs/rules/stakbots.md, named test_sb_<x>_<y>_..."""

from __future__ import annotations

import pytest

from robotable import ContentError
from robotable.games.stakbots.content import Bot
from robotable.games.stakbots.rules import MAX_TURN_ACTIONS, MAX_TURN_EFFECTS
from robotable.games.stakbots.state import HIDDEN, KNOWN, UP

from .sbkit import card_of, do, find, game, play, position, random_game, stak_names


def kinds(st):
    return sorted({a.kind for a in st.legal_actions()})


def types(events):
    return [e["type"] for e in events]


# -- SB-1 components ------------------------------------------------------------------------
def test_sb_1_1_bundled_deck_has_60_cards_of_16_types():
    g = game(2)
    assert len(g.deck) == 60
    assert {c.bot for c in g.deck.cards} == set(Bot)
    ranks = [c.rank for c in g.deck.cards]
    assert all(ranks.count(r) == 10 for r in range(1, 7))
    for c in g.deck.cards:
        assert c.name == f"{c.bot.title} Bot"


def test_sb_1_2_damage_never_lowers_power():
    st = position([["Core:2", "Core:5"], ["Core:3", "Core:6"]])
    damaged = card_of(st, 0)
    six = card_of(st, 1)
    st.dmg[damaged] = 1
    st.damaged.append(damaged)
    do(st, "attack", target=1)
    assert st.dmg[six] == 5  # it still deals its full power although it holds 1 damage
    assert damaged in st.scrapheap  # 1 + 6 damage against power 5


def test_sb_1_3_rank_has_no_effect_on_play(tmp_path):
    src = game(2).deck.cards
    lines = []
    for c in src:
        power = '"X"' if c.power is None else c.power
        lines.append(f'[[cards]]\nbot = "{c.bot.title}"\npower = {power}\nrank = 1\n')
    path = tmp_path / "flat_ranks.toml"
    path.write_text("\n".join(lines))
    logs = []
    for cards in ("base_proposed", str(path)):
        log = []
        for _st, a in random_game(2, 11, cards=cards):
            log.append(str(a))
        logs.append(log)
    assert logs[0] == logs[1]


def test_sb_1_4_base_deck_is_the_proposed_distribution():
    g = game(2)
    assert g.options["cards"] == "base_proposed"
    by_bot = {}
    for c in g.deck.cards:
        by_bot.setdefault(c.bot, []).append(c.power)
    assert sorted(by_bot[Bot.CORE]) == [2, 3, 3, 4, 4, 5, 5, 6, 7]
    assert by_bot[Bot.SHOT] == [0, 0, 0, 0] and by_bot[Bot.TRIP] == [0, 0, 0, 0]
    assert by_bot[Bot.LEADER] == [None, None, None]
    assert max(len(v) for v in by_bot.values()) <= 9
    assert len(by_bot) == 16


def test_sb_1_5_zones_are_staks_hands_supply_and_scrapheap():
    st = game(3).new_initial_state(4)
    v = st.view(0)
    assert [s["stak_size"] for s in v["seats"]] == [9, 9, 9]
    assert [s["hand_size"] for s in v["seats"]] == [3, 2, 2]
    assert v["supply_size"] == 60 - 27 - 7
    assert v["scrapheap"] == []


def test_sb_1_6_abilities_work_only_on_top():
    # Bash under the top card: no Bash effect when the top card fights.
    st = position([["Core:2", "Bash:4", "Core:7"], ["Core:3", "Core:4", "Core:2"]])
    do(st, "attack", target=1)
    assert stak_names(st, 1) == ["Core Bot", "Core Bot"]  # only the top Core:2 died
    # The same Bash on top scraps the bottom card of the damaged card's stak.
    st = position([["Core:2", "Core:7", "Bash:4"], ["Core:3", "Core:4", "Core:6"]])
    bottom = st.staks[1][0]
    do(st, "attack", target=1)
    assert bottom not in st.staks[1] and bottom in st.scrapheap


def test_sb_1_7_face_up_cards_stay_visible_deep_in_a_stak():
    st = position([["Core:5", "?Core:2", "Core:3"], ["Core:4"]])
    deep = st.staks[0][0]
    v = st.view(1)
    stak = v["seats"][0]["stak"]
    assert stak[0]["face_up"] and stak[0]["id"] == deep and stak[0]["name"] == "Core Bot"
    assert stak[1] == {"face_up": False}


# -- SB-2 setup -------------------------------------------------------------------------------
def test_sb_2_1_each_stak_is_dealt_face_down():
    st = game(2).new_initial_state(1)
    assert [len(s) for s in st.staks] == [9, 9]
    assert all(st.vis[c] == HIDDEN for s in st.staks for c in s[:-1])
    st = game(4, stak_size=5).new_initial_state(1)
    assert [len(s) for s in st.staks] == [5, 5, 5, 5]


def test_sb_2_2_top_cards_turn_up_without_entry_effects():
    for seed in range(30):
        st = game(4).new_initial_state(seed)
        assert all(st.vis[s[-1]] == UP for s in st.staks)
        assert st.pending == [] and st.decision is None
        assert st.current_player() == 0


def test_sb_2_3_hands_are_dealt():
    st = game(3, hand_size=4).new_initial_state(2)
    # seat 0 has already drawn for its first turn (SB-3.1)
    assert [len(h) for h in st.hands] == [5, 4, 4]


def test_sb_2_4_rest_is_the_supply_and_the_scrapheap_starts_empty():
    st = game(2).new_initial_state(3)
    assert len(st.supply) == 60 - 2 * 9 - 2 * 2 - 1
    assert st.scrapheap == []
    assert all(st.vis[c] == HIDDEN for c in st.supply)


def test_sb_2_5_scrapped_and_discarded_cards_land_face_up_on_the_scrapheap():
    st = position([["Core:2", "Core:7"], ["Core:6", "Core:3"]], hands=[["Shot"], []])
    shot = st.hands[0][0]
    do(st, "scrap", from_hand=True)
    do(st, "attack", target=1)
    assert st.scrapheap[0] == shot and len(st.scrapheap) == 2
    assert all(st.vis[c] == UP for c in st.scrapheap)
    assert [c["name"] for c in st.view(1)["scrapheap"]] == ["Shot Bot", "Core Bot"]


def test_sb_2_6_seat_0_starts_and_play_goes_round():
    st = position([["Core:2"], ["Core:3"], ["Core:4"]])
    order = []
    for _ in range(4):
        order.append(st.active)
        st.fed = True
        st._legal = None
        do(st, "end_turn")
    assert order == [0, 1, 2, 0]
    # a seat that is out is skipped
    st = position([["Core:2"], ["Core:3"], ["Core:4"]])
    st.alive[1] = False
    st.scrapheap += st.staks[1]
    st.staks[1] = []
    st.fed = True
    st._legal = None
    do(st, "end_turn")
    assert st.active == 2


def test_sb_2_7_a_deck_too_small_is_refused():
    with pytest.raises(ContentError, match=r"60 cards cannot deal 4 staks of 14"):
        game(4, stak_size=14)


# -- SB-3 the turn ----------------------------------------------------------------------------
def test_sb_3_1_turn_starts_with_a_draw():
    st = position([["Core:2"], ["Core:3"]], supply_top=["Reaper"])
    st.fed = True
    st._legal = None
    events = do(st, "end_turn")
    assert st.active == 1
    assert [st.game.names[c] for c in st.hands[1]] == ["Reaper Bot"]
    drawn = [e for e in events if e["type"] == "card_drawn"]
    assert drawn[0]["to"] == [1]


def test_sb_3_1_empty_supply_reshuffles_the_scrapheap():
    st = position([["Core:2"], ["Core:3"]], empty_supply=True)
    heap = len(st.scrapheap)
    st.fed = True
    st._legal = None
    events = do(st, "end_turn")
    assert "reshuffled" in types(events)
    assert st.scrapheap == [] and len(st.supply) == heap - 1 and len(st.hands[1]) == 1
    assert all(st.vis[c] == HIDDEN for c in st.supply)


def test_sb_3_1_no_draw_when_supply_and_scrapheap_are_empty():
    st = position([["Core:2"], ["Core:3"]], empty_supply=True)
    for c in st.scrapheap:
        st.hands[0].append(c)
    st.scrapheap = []
    st.fed = True
    st._legal = None
    events = do(st, "end_turn")
    assert "draw_skipped" in types(events) and st.hands[1] == []


def test_sb_3_2_actions_in_any_order_any_number():
    st = position(
        [["Core:2", "Core:7"], ["Core:6", "Core:3", "Core:2"]], hands=[["Core:4", "Core:5"], []]
    )
    do(st, "attack", target=1)
    play(st, "core")
    assert "attack" not in kinds(st)  # a different card is on top now (SB-4.3)
    do(st, "scrap", from_hand=False)
    do(st, "attack", target=1)  # the Core:7 is on top again and may attack again
    play(st, "core")
    assert st.counts[0] == 2 and st.counts[1] == 2


def test_sb_3_3_turn_cannot_end_before_feeding_the_scrapheap():
    st = position([["Core:2", "Core:7"], ["Core:3", "Core:2"]], hands=[["Core:4"], []])
    assert "end_turn" not in kinds(st)
    play(st, "core")
    assert "end_turn" not in kinds(st)


def test_sb_3_3_any_route_to_the_scrapheap_feeds_it():
    st = position([["Core:2", "Core:7"], ["Core:3", "Core:2"]])
    do(st, "attack", target=1)  # the opponent's card is scrapped in combat
    assert st.fed and "end_turn" in kinds(st)


def test_sb_3_4_end_turn_is_explicit_and_repairs_all_damage():
    st = position([["Core:2", "Core:7"], ["Core:3", "Core:2"]])
    do(st, "attack", target=1)
    attacker = card_of(st, 0)
    assert st.dmg[attacker] == 2
    assert st.active == 0  # nothing ends the turn but end_turn
    do(st, "end_turn")
    assert st.dmg[attacker] == 0 and st.damaged == [] and st.active == 1


def test_sb_3_5_no_hand_limit():
    hand = ["Core:3", "Core:4", "Core:5", "Core:6", "Shot", "Shot", "Trip", "Trip"]
    st = position([["Core:2"], ["Core:7"]], hands=[hand, []])
    st.fed = True
    st._legal = None
    do(st, "end_turn")
    assert len(st.hands[0]) == 8


def test_sb_3_6_turn_action_guard():
    st = position([["Core:2", "Core:7"], ["Core:3"]], hands=[["Core:4"], []])
    st.n_actions = MAX_TURN_ACTIONS
    assert kinds(st) == ["scrap"]
    do(st, "scrap", from_hand=True)
    assert kinds(st) == ["end_turn"]


def test_sb_3_7_turn_cap_is_a_draw_among_seats_still_in():
    st = position([["Core:2"], ["Core:3"], ["Core:4"]], max_turns=3)
    st.alive[2] = False
    st.scrapheap += st.staks[2]
    st.staks[2] = []
    for _ in range(2):
        st.fed = True
        st._legal = None
        do(st, "end_turn")
    assert not st.is_terminal()
    st.turn = 3
    st.fed = True
    st._legal = None
    do(st, "end_turn")
    assert st.is_terminal() and st.end_reason == "turn_cap"
    assert st.returns() == [0.5, 0.5, 0.0]


# -- SB-4 actions -----------------------------------------------------------------------------
def test_sb_4_1_play_puts_the_card_face_up_on_top():
    st = position([["Core:2", "Core:5"], ["Core:3"]], hands=[["Core:7"], []])
    covered = card_of(st, 0)
    play(st, "core")
    top = card_of(st, 0)
    assert st.game.deck.cards[top].power == 7 and st.vis[top] == UP
    assert st.vis[covered] == UP and st.staks[0][-2] == covered


def test_sb_4_2_scrap_own_top_card_or_a_hand_card():
    st = position([["?Core:2", "Core:5"], ["Core:3"]], hands=[["Core:7"], []])
    top = card_of(st, 0)
    do(st, "scrap", from_hand=False)
    assert st.scrapheap == [top] and st.vis[card_of(st, 0)] == UP
    hand_card = st.hands[0][0]
    do(st, "scrap", from_hand=True)
    assert st.scrapheap[-1] == hand_card and st.hands[0] == []
    # only one's own top card: no scrap action names another seat's card
    assert all(a.card in st.staks[0] + st.hands[0] for a in st.legal_actions() if a.kind == "scrap")


def test_sb_4_3_one_attacking_card_per_turn_attacking_again_and_again():
    st = position(
        [["Core:2", "Core:7"], ["Core:3", "Core:2"], ["Core:4", "Shot"]], hands=[["Core:5"], [], []]
    )
    do(st, "attack", target=1)
    do(st, "attack", target=2)  # the same card may attack again, any stak
    play(st, "core")
    assert "attack" not in kinds(st)
    do(st, "end_turn")
    for _ in range(2):  # seats 1 and 2 pass
        st.fed = True
        st._legal = None
        do(st, "end_turn")
    assert st.active == 0 and "attack" in kinds(st)  # next turn another card may attack


def test_sb_4_4_a_stopped_attacker_cannot_attack_again():
    st = position([["Core:2", "Core:7"], ["Core:3", "Core:4", "Core:2"]])
    do(st, "attack", target=1)
    do(st, "scrap", from_hand=False)  # the attacker is scrapped
    assert st.stopped[0] and "attack" not in kinds(st)  # the card that surfaced may not attack


def test_sb_4_4_returned_attacker_cannot_attack_after_replay():
    st = position([["Core:2", "Core:7"], ["Core:3", "Core:4", "Core:2"]])
    do(st, "attack", target=1)
    attacker = card_of(st, 0)
    from robotable.games.stakbots.effects import return_to_hand

    return_to_hand(st, 0, attacker, [])
    st._legal = None
    st.apply_action(st.game.play_a[attacker])
    assert "attack" not in kinds(st)


def test_sb_4_5_no_attack_that_deals_no_damage():
    st = position([["Core:2", "Shot"], ["Core:3", "Trip"], ["Core:4"]])
    attacks = [a.target for a in st.legal_actions() if a.kind == "attack"]
    assert attacks == [2]  # Shot (0) against Trip (0) would change nothing


# -- SB-5 combat ------------------------------------------------------------------------------
def test_sb_5_1_simultaneous_damage_equal_to_power():
    st = position([["Core:2", "Core:4"], ["Core:7", "Core:3"]])
    a, d = card_of(st, 0), card_of(st, 1)
    do(st, "attack", target=1)
    assert st.dmg[a] == 3 and d in st.scrapheap


def test_sb_5_2_damage_accumulates_within_the_turn():
    # The rulebook's example: a 5 hits a 2 (scrapped) and takes 2; 3 more damage scraps it.
    st = position([["Core:2", "Core:5"], ["Core:6", "Core:3", "Core:2"]])
    mine = card_of(st, 0)
    do(st, "attack", target=1)
    assert st.dmg[mine] == 2 and mine in st.staks[0]
    do(st, "attack", target=1)
    assert mine in st.scrapheap


def test_sb_5_3_damage_check_zero_power_and_live_leader():
    # A 0-power card only dies when actually hit.
    st = position([["Core:2", "Shot"], ["Core:3"]])
    assert card_of(st, 0) not in st.scrapheap
    # Leader X is re-read after every step: losing a card of its run kills a damaged Leader.
    st = position([["Core:2", "Core:3", "Leader"], ["Core:4", "Spike:2"]])
    leader = card_of(st, 0)
    events = do(st, "attack", target=1)
    assert "Core Bot" in [e["target_card"] for e in events if e["type"] == "ability"]
    assert leader in st.scrapheap  # 2 damage against X = 2 once the Core:3 was spiked
    assert stak_names(st, 0) == ["Core Bot"]


def test_sb_5_4_damage_abilities_fire_when_defending_too():
    st = position([["Core:2", "Core:3", "Core:7"], ["Core:4", "Bash:1"]])
    bottom = st.staks[0][0]
    do(st, "attack", target=1)
    assert bottom in st.scrapheap  # the defending Bash hit the attacker: bottom card scrapped
    assert card_of(st, 1) != bottom and len(st.staks[1]) == 1


def test_sb_5_5_damage_moves_with_the_card_and_clears_when_it_leaves():
    st = position([["Core:2", "Core:5"], ["Core:6", "Core:2"]], hands=[["Trip"], []])
    mine = card_of(st, 0)
    do(st, "attack", target=1)
    assert st.dmg[mine] == 2
    play(st, "trip")
    trip = card_of(st, 0)
    do(st, "target", seat=0, depth=0)  # Trip chooses itself: drops below the Core:5
    assert card_of(st, 0) == mine and st.staks[0][-2] == trip and st.dmg[mine] == 2
    from robotable.games.stakbots.effects import return_to_hand

    return_to_hand(st, 0, mine, [])
    assert st.dmg[mine] == 0 and mine not in st.damaged


def test_sb_5_6_stomp_keeps_attacking_the_same_stak():
    st = position([["Core:2", "Stomp:5"], ["Core:4", "Core:3", "Core:2"], ["Core:6"]])
    stomp = card_of(st, 0)
    do(st, "attack", target=1)
    assert [str(a) for a in st.legal_actions()] == ["attack seat 1's stak"]
    assert "must keep attacking" in st.prompt()
    do(st, "attack", target=1)  # kills the Core:3; the Stomp now holds 5 damage: scrapped
    assert stomp in st.scrapheap and st.stomp == -1
    assert "end_turn" in kinds(st)


def test_sb_5_6_stomp_stops_when_the_target_stak_is_empty():
    st = position([["Core:2", "Stomp:5"], ["Core:3"], ["Core:6", "Core:4"]])
    do(st, "attack", target=1)
    assert not st.alive[1] and st.stomp == -1
    assert find(st, "attack", target=2) and "end_turn" in kinds(st)


# -- SB-6 entry effects -----------------------------------------------------------------------
def test_sb_6_1_fires_when_played_and_when_turned_up_on_top():
    st = position([["Core:2"], ["Core:3"]], hands=[["Bountiful"], []])
    play(st, "bountiful")
    assert len(st.hands[0]) == 1  # played one, drew one
    st = position([["Core:2", "Core:7"], ["?Bountiful", "Core:2"]])
    events = do(st, "attack", target=1)
    assert "flipped" in types(events) and len(st.hands[1]) == 1


def test_sb_6_1_a_face_up_card_that_becomes_top_again_does_not_fire():
    st = position([["Core:2", "Core:7"], ["Bountiful", "Core:2"]])
    events = do(st, "attack", target=1)
    assert "entry_effect" not in types(events) and st.hands[1] == []


def test_sb_6_2_effects_are_mandatory_and_fizzle_without_a_target():
    # Clumsy's effect harms its owner and still happens.
    st = position([["Core:7", "Core:2"], ["Core:3"]], hands=[["Clumsy"], []])
    bottom = st.staks[0][0]
    play(st, "clumsy")
    assert bottom in st.scrapheap
    # A Reaper with no other top card anywhere fizzles.
    st = position([["Core:3"], ["?Reaper", "Core:3"]])
    events = do(st, "attack", target=1)
    assert "effect_fizzled" in types(events)


def test_sb_6_3_active_seat_first_then_turn_order():
    st = position([["?Shot", "Core:3"], ["Core:4"], ["?Shot", "Core:3"]])
    st.staks[1] = [st.staks[1][0]]
    do(st, "attack", target=2)  # both Core:3 die, both Shots turn up
    assert st.current_player() == 0 and "Shot Bot entered" in st.prompt()
    do(st, "target", seat=1, depth=0)
    assert st.current_player() == 2


def test_sb_6_4_new_effects_resolve_before_waiting_ones():
    st = position([["?Bountiful", "?Shot", "Core:3"], ["?Bountiful", "Core:3"]])
    events = do(st, "attack", target=1)
    assert st.current_player() == 0
    events = do(st, "target", seat=0, depth=0)  # the Shot shoots itself: seat 0's Bountiful up
    fx = [(e["seat"], e["card"]) for e in events if e["type"] == "entry_effect"]
    assert fx == [(0, "Bountiful Bot"), (1, "Bountiful Bot")]


def test_sb_6_5_a_waiting_effect_lapses_when_its_card_left_the_top():
    st = position([["Core:2", "?Reaper", "Core:3"], ["?Core:2", "?Bountiful", "Core:3"]])
    do(st, "attack", target=1)
    events = do(st, "target", seat=1, depth=0)  # reap the waiting Bountiful
    assert "effect_lapsed" in types(events) and st.hands[1] == []


def test_sb_6_5_a_reset_waiting_effect_lapses_but_fires_anew():
    st = position([["Core:2", "?Tranq", "Core:3"], ["Core:4", "?Bountiful", "Core:3"]])
    do(st, "attack", target=1)
    events = do(st, "target", seat=1, depth=0)  # reset the waiting Bountiful: it turns up again
    fx = [e for e in events if e["type"] == "entry_effect" and e["card"] == "Bountiful Bot"]
    assert len(fx) == 1 and len(st.hands[1]) == 1


def test_sb_6_6_chain_finishes_before_a_seat_at_zero_is_out():
    st = position([["Core:3"], ["?Core:2", "?Expel", "Core:3"]], hands=[["Core:4", "Shot"], []])
    do(st, "attack", target=1)
    assert st.staks[0] == [] and st.alive[0]
    assert st.current_player() == 1
    do(st, "choose_player", seat=0)
    assert st.current_player() == 0  # seat 0, stak empty, still discards
    do(st, "discard", card=st.hands[0][0], name="Core Bot")
    assert not st.alive[0] and st.is_terminal() and st.returns() == [0.0, 1.0]


def test_sb_6_7_the_stak_owner_makes_the_choices_off_turn():
    st = position([["Core:2", "Core:7"], ["Core:4", "?Shot", "Core:2"]])
    do(st, "attack", target=1)
    assert st.active == 0 and st.current_player() == 1
    assert st.decision is not None
    assert {a.kind for a in st.legal_actions()} == {"target"}
    assert st.view(0)["legal_actions"] == [] and st.view(1)["legal_actions"]


def test_sb_6_8_entry_effect_limit_per_turn():
    st = position([["Core:2"], ["Core:3"]], hands=[["Bountiful"], []])
    st.n_effects = MAX_TURN_EFFECTS
    events = play(st, "bountiful")
    assert "effect_lapsed" in types(events) and st.hands[0] == []


def test_sb_6_9_a_top_card_includes_itself_another_does_not():
    st = position([["Core:2"], ["Core:3"]], hands=[["Shot", "Reaper"], []])
    play(st, "shot")
    assert sorted(a.seat for a in st.legal_actions()) == [0, 1]
    st = position([["Core:2"], ["Core:3"]], hands=[["Reaper"], []])
    play(st, "reaper")
    assert [a.seat for a in st.legal_actions()] == [1]


# -- SB-7 elimination and the end -------------------------------------------------------------
def test_sb_7_1_top_card_is_always_face_up():
    st = position([["?Core:2", "?Core:4", "Core:5"], ["Core:3"]])
    do(st, "scrap", from_hand=False)
    assert st.vis[card_of(st, 0)] == UP and st.vis[st.staks[0][0]] == HIDDEN


def test_sb_7_2_a_seat_without_stak_cards_is_out_even_with_a_hand():
    st = position([["Core:2"], ["Core:3"], ["Core:7"]], hands=[[], ["Shot", "Trip"], []])
    hand = list(st.hands[1])
    st.active = 2
    st._legal = None
    do(st, "attack", target=1)
    assert not st.alive[1] and st.hands[1] == [] and all(c in st.scrapheap for c in hand)
    assert not st.is_terminal()
    assert all(a.target != 1 for a in st.legal_actions() if a.kind == "attack")


def test_sb_7_3_last_seat_with_cards_wins():
    st = position([["Core:2", "Core:7"], ["Core:3"]])
    events = do(st, "attack", target=1)
    assert st.is_terminal() and st.returns() == [1.0, 0.0] and st.end_reason == "last_stak"
    assert events[-1]["type"] == "game_over" and st.legal_actions() == []


def test_sb_7_4_simultaneous_wipe_out_is_a_draw():
    st = position([["Core:3"], ["Core:4"], ["Core:3"]])
    st.alive[1] = False
    st.scrapheap += st.staks[1]
    st.staks[1] = []
    do(st, "attack", target=2)
    assert st.is_terminal() and st.end_reason == "wipe_out_draw"
    assert st.returns() == [0.5, 0.0, 0.5]


def test_sb_7_5_when_the_active_seat_is_out_its_turn_ends():
    st = position([["Core:3"], ["Core:2", "Core:7"], ["Core:5"]])
    do(st, "attack", target=1)
    assert not st.alive[0] and st.active == 1 and st.turn == 2 and len(st.hands[1]) == 1


# -- SB-8 the bots ----------------------------------------------------------------------------
def test_sb_8_1_core_has_no_effect():
    st = position([["Core:2"], ["Core:3"]], hands=[["Core:5"], []])
    events = play(st, "core")
    assert "entry_effect" not in types(events) and st.decision is None


def test_sb_8_2_stomp_is_forced_to_continue():
    st = position([["Core:2", "Stomp:4"], ["Core:6", "Core:2"], ["Core:3"]])
    do(st, "attack", target=1)
    assert [a.target for a in st.legal_actions()] == [1]


def test_sb_8_3_bash_scraps_the_bottom_card_or_the_lone_card():
    st = position([["Core:2", "Bash:3"], ["Core:6", "Core:7"], ["Core:5"]])
    bottom = st.staks[1][0]
    do(st, "attack", target=1)
    assert bottom in st.scrapheap
    st = position([["Core:2", "Bash:1"], ["Core:7"], ["Core:5"]])
    do(st, "attack", target=1)
    assert not st.alive[1]  # alone: the damaged card itself is the bottom card


def test_sb_8_4_spike_scraps_the_card_beneath():
    st = position([["Core:2", "Spike:3"], ["Core:6", "Core:5", "Core:7"]])
    beneath = st.staks[1][1]
    do(st, "attack", target=1)
    assert beneath in st.scrapheap and len(st.staks[1]) == 2
    st = position([["Core:2", "Spike:1"], ["Core:7"], ["Core:4"]])
    do(st, "attack", target=1)
    assert st.alive[1] and len(st.staks[1]) == 1  # nothing beneath: nothing more happens


def test_sb_8_5_clumsy_scraps_its_own_bottom_card_or_itself():
    st = position([["Core:2", "Core:5"], ["Core:3"]], hands=[["Clumsy"], []])
    bottom = st.staks[0][0]
    play(st, "clumsy")
    assert bottom in st.scrapheap and stak_names(st, 0) == ["Core Bot", "Clumsy Bot"]
    st = position([["Core:2", "Core:7"], ["?Clumsy", "Core:3"], ["Core:4"]])
    do(st, "attack", target=1)  # the Clumsy turns up alone and scraps itself
    assert not st.alive[1] and st.game.names[st.scrapheap[-1]] == "Clumsy Bot"


def test_sb_8_6_shot_deals_4_damage_to_a_chosen_top_card():
    st = position([["Core:2"], ["Core:4", "Core:7"]], hands=[["Shot"], []])
    play(st, "shot")
    seven = card_of(st, 1)
    do(st, "target", seat=1, depth=0)
    assert st.dmg[seven] == 4
    do(st, "attack", target=1)  # Shot has power 0: attacking it deals nothing, takes 7
    assert seven in st.staks[1]
    st = position([["Core:2"], ["Core:4", "Core:3"]], hands=[["Shot"], []])
    play(st, "shot")
    do(st, "target", seat=0, depth=0)  # itself: 4 damage on power 0
    assert st.game.names[st.scrapheap[-1]] == "Shot Bot"


def test_sb_8_7_reaper_scraps_another_top_card():
    st = position([["Core:2"], ["Core:4", "Core:7"]], hands=[["Reaper"], []])
    play(st, "reaper")
    seven = card_of(st, 1)
    do(st, "target", seat=1, depth=0)
    assert seven in st.scrapheap and st.fed


def test_sb_8_8_fatal_scraps_any_card_it_damages():
    st = position([["Core:2", "Fatal:1"], ["Core:4", "Core:7"]])
    seven = card_of(st, 1)
    fatal = card_of(st, 0)
    do(st, "attack", target=1)
    assert seven in st.scrapheap and fatal in st.scrapheap


def test_sb_8_9_sidekick_drops_one_place():
    st = position([["Core:2", "Core:5"], ["Core:3"]], hands=[["Sidekick"], []])
    five = card_of(st, 0)
    play(st, "sidekick")
    assert card_of(st, 0) == five and stak_names(st, 0)[1] == "Sidekick Bot"
    # A face-down card that surfaces turns up and fires.
    st = position([["Core:2", "Core:7"], ["?Bountiful", "?Sidekick", "Core:3"]])
    do(st, "attack", target=1)
    assert stak_names(st, 1) == ["Sidekick Bot", "Bountiful Bot"] and len(st.hands[1]) == 1


def test_sb_8_10_leader_power_is_its_face_up_run():
    st = position([["Core:2", "?Core:3", "Core:4", "Leader", "Core:5"], ["Core:6"]])
    from robotable.games.stakbots.board import power

    leader = st.staks[0][3]
    assert power(st, leader) == 3
    v = st.view(1)
    assert v["seats"][0]["stak"][3]["current_power"] == 3
    st = position([["Core:2", "Core:4", "Leader"], ["Core:7", "Core:3"]])
    do(st, "attack", target=1)
    assert st.game.names[st.scrapheap[-1]] == "Core Bot"  # X = 3 killed the Core:3


def test_sb_8_11_bountiful_draws_for_its_owner():
    st = position([["Core:2"], ["Core:3"]], hands=[["Bountiful"], []], supply_top=["Reaper"])
    play(st, "bountiful")
    assert [st.game.names[c] for c in st.hands[0]] == ["Reaper Bot"]


def test_sb_8_12_expel_chosen_player_discards_a_card_of_their_choice():
    st = position([["Core:2"], ["Core:3"]], hands=[["Expel"], ["Shot", "Core:5"]])
    play(st, "expel")
    assert sorted(a.seat for a in st.legal_actions()) == [0, 1]
    do(st, "choose_player", seat=1)
    assert st.current_player() == 1 and "discard" in st.prompt()
    shot = next(c for c in st.hands[1] if st.game.names[c] == "Shot Bot")
    do(st, "discard", card=shot, name="Shot Bot")
    assert shot in st.scrapheap and st.current_player() == 0
    st = position([["Core:2"], ["Core:3"]], hands=[["Expel"], []])
    play(st, "expel")
    events = do(st, "choose_player", seat=1)
    assert "effect_fizzled" in types(events) and st.current_player() == 0


def test_sb_8_13_tranq_resets_another_face_up_card():
    st = position([["Core:2", "Core:4", "Leader"], ["Core:6"]], hands=[["Tranq"], []])
    leader = st.staks[0][2]
    four = st.staks[0][1]
    play(st, "tranq")
    targets = {(a.seat, a.depth) for a in st.legal_actions()}
    assert (0, 0) not in targets and (0, 2) in targets and (1, 0) in targets
    do(st, "target", seat=0, depth=2)  # the Core:4 below the Leader
    assert st.vis[four] == KNOWN
    from robotable.games.stakbots.board import power

    assert power(st, leader) == 2
    # A reset top card turns straight back up and fires again.
    st = position([["Core:2"], ["Core:3", "Bountiful"]], hands=[["Tranq"], []])
    play(st, "tranq")
    do(st, "target", seat=1, depth=0)
    assert len(st.hands[1]) == 1 and st.vis[card_of(st, 1)] == UP


def test_sb_8_14_begone_returns_another_top_card_to_its_owner():
    st = position([["Core:2"], ["?Core:4", "Core:7"]], hands=[["Begone"], []])
    play(st, "begone")
    seven = card_of(st, 1)
    do(st, "target", seat=1, depth=0)
    assert st.hands[1] == [seven] and st.vis[seven] == KNOWN
    assert st.vis[card_of(st, 1)] == UP


def test_sb_8_15_trip_swaps_a_top_card_with_the_card_beneath():
    st = position([["Core:2"], ["?Bountiful", "Core:7"]], hands=[["Trip"], []])
    play(st, "trip")
    do(st, "target", seat=1, depth=0)
    assert stak_names(st, 1) == ["Core Bot", "Bountiful Bot"] and len(st.hands[1]) == 1
    st = position([["Core:2"], ["Core:7"]], hands=[["Trip"], []])
    play(st, "trip")
    do(st, "target", seat=1, depth=0)  # alone: nothing moves
    assert stak_names(st, 1) == ["Core Bot"]


def test_sb_8_16_pit_moves_a_top_card_face_up_to_the_bottom():
    st = position([["Core:2"], ["?Core:4", "?Core:3", "Core:7"]], hands=[["Pit"], []])
    play(st, "pit")
    seven = card_of(st, 1)
    do(st, "target", seat=1, depth=0)
    assert st.staks[1][0] == seven and st.vis[seven] == UP
    assert st.vis[card_of(st, 1)] == UP and len(st.staks[1]) == 3
