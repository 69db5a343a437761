"""BZ-3 (the bidding system) and BZ-4 (phases 0 and 1)."""

from __future__ import annotations

import pytest

from robotable import IllegalAction
from robotable.games.betabotz.actions import Bid, ChooseLot, DrawCode
from robotable.games.betabotz.rules import bid_amounts
from robotable.games.betabotz.state import ST_AUCTION, ST_MISSION

from .bz_helpers import by_kind, fresh, play_first


def _bid(s, slot, amount):
    s.apply_action(next(a for a in by_kind(s, "choose_lot") if a.slot == slot))
    s.apply_action(Bid(amount))


def test_bz_3_1_bidding_starts_at_chip_and_goes_clockwise():
    s = fresh(4, seed=2)
    first = s.current_player()
    assert first == s.chip
    _bid(s, 0, s.content.betabots[s.lots[0]].min_bid)
    assert s.current_player() == (first + 1) % 4


def test_bz_3_2_a_seat_with_an_active_bid_is_skipped():
    s = fresh(3, seed=4)
    c = s.chip
    _bid(s, 0, 20)
    _bid(s, 1, 20)
    # the third seat bids; the auction closes because everyone holds a bid
    assert s.current_player() == (c + 2) % 3
    _bid(s, 2, 20)
    assert s.phase == 1 and s.stage == ST_AUCTION


def test_bz_3_3_one_active_bid_two_steps():
    s = fresh(3, seed=4)
    seat = s.current_player()
    lot = by_kind(s, "choose_lot")[0]
    s.apply_action(lot)
    assert s.current_player() == seat
    assert {a.kind for a in s.legal_actions()} == {"bid"}
    s.apply_action(s.legal_actions()[0])
    assert s.seat_lot[seat] == lot.slot


def test_bz_3_4_minimum_first_bid_raises_exceed_outbid_acts_again():
    s = fresh(3, seed=6)
    a = s.current_player()
    low = s.content.betabots[s.lots[0]].min_bid
    s.apply_action(by_kind(s, "choose_lot")[0])
    assert min(x.amount for x in s.legal_actions()) == low
    with pytest.raises(IllegalAction):
        s.apply_action(Bid(low - 1))
    s.apply_action(Bid(low + 2))
    b = s.current_player()
    s.apply_action(next(x for x in by_kind(s, "choose_lot") if x.slot == 0))
    assert min(x.amount for x in s.legal_actions()) == low + 3  # must exceed by at least 1
    s.apply_action(Bid(low + 3))
    assert s.seat_lot[a] == -1 and s.lot_bidder[0] == b
    assert s.bitz[a] == 40  # nothing was paid: the Bitz went back
    # the outbid seat acts again when the turn comes round
    c = s.current_player()
    _ = by_kind(s, "choose_lot")
    s.apply_action(next(x for x in by_kind(s, "choose_lot") if x.slot == 1))
    s.apply_action(s.legal_actions()[0])
    assert s.current_player() == a and s.seat_lot[c] == 1


def test_bz_3_5_bid_amounts_all_and_coarse():
    s = fresh(3, seed=1)
    seat = s.current_player()
    s.bitz[seat] = 200
    amounts = bid_amounts(s, seat, 0)
    low = s.content.betabots[s.lots[0]].min_bid
    assert amounts[:40] == list(range(low, low + 40))
    assert amounts[-1] == 200 and len(amounts) <= 60 and amounts == sorted(set(amounts))
    s.bitz[seat] = 5000  # never above 999; coarser steps keep the list at 60 at most
    far = bid_amounts(s, seat, 0)
    assert far[-1] == 999 and len(far) <= 60 and far[:40] == list(range(low, low + 40))
    s.bitz[seat] = 10
    assert bid_amounts(s, seat, 0) == list(range(low, 11))
    c = fresh(3, seed=1, bid_amounts="coarse")
    seat = c.current_player()
    assert bid_amounts(c, seat, 0) == [low + d for d in (0, 1, 2, 3, 5, 8, 12, 17, 23, 30)]


def test_bz_3_6_winners_pay_the_bank_unbid_components_discarded():
    s = fresh(3, seed=8)
    play_first(s, lambda st: st.phase == 1)
    assert s.bank == sum(40 - b for b in s.bitz) and all(b >= 0 for b in s.bot)
    # phase 1: two lots for three seats; one seat bids, the others draw
    chip = s.chip
    lots = list(s.lots)
    _bid(s, 0, s.content.components[lots[0]].min_bid)
    s.apply_action(DrawCode())
    bank = s.bank
    before = s.bitz[:]
    s.apply_action(DrawCode())
    price = s.content.components[lots[0]].min_bid
    cost = s.content.components[lots[0]].acquire_cost
    assert s.bitz[chip] == before[chip] - price - cost and s.bank == bank + price + cost
    assert lots[0] in s.comps[chip] and lots[1] in s.comp_discard


def test_bz_3_7_must_bid_without_the_means_bids_all():
    s = fresh(3, seed=9)
    seat = s.current_player()
    s.bitz[seat] = 2
    s._legal = None
    lots = by_kind(s, "choose_lot")
    assert lots  # never stuck in phase 0
    s.apply_action(lots[0])
    assert [a.amount for a in s.legal_actions()] == [2]


def test_bz_3_8_chip_moves_after_phase_0_and_each_phase_1():
    s = fresh(4, seed=3)
    c0 = s.chip
    play_first(s, lambda st: st.phase == 1)
    assert s.chip == (c0 + 1) % 4
    play_first(s, lambda st: st.stage == ST_MISSION)
    assert s.chip == (c0 + 2) % 4


@pytest.mark.parametrize("n", [3, 5])
def test_bz_4_1_lots_per_phase(n):
    s = fresh(n, seed=n)
    assert len(s.lots) == n and s.view(None)["auction"]["kind"] == "betabot"
    play_first(s, lambda st: st.phase == 1)
    assert len(s.lots) == n - 1 and s.view(None)["auction"]["kind"] == "component"
    assert all(b >= 0 for b in s.bot) and len(set(s.bot)) == n


def test_bz_4_2_draw_instead_of_bidding_leaves_the_auction():
    s = fresh(3, seed=2)
    assert DrawCode() not in s.legal_actions()  # phase 0: must bid
    play_first(s, lambda st: st.phase == 1)
    seat = s.current_player()
    assert DrawCode() in s.legal_actions()
    hand = len(s.hand[seat])
    s.apply_action(DrawCode())
    assert len(s.hand[seat]) == hand + 1 or s.pending
    assert s.drew[seat] and s.current_player() != seat
    # a seat that cannot afford any lot may only draw
    s2 = fresh(3, seed=2)
    play_first(s2, lambda st: st.phase == 1)
    s2.bitz[s2.current_player()] = 0
    s2._legal = None
    assert s2.legal_actions() == [DrawCode()]
    # and a seat holding a bid cannot draw: it is skipped
    assert all(not isinstance(a, ChooseLot) or a.slot >= 0 for a in s.legal_actions())


def test_bz_4_3_ten_rounds_of_enhancement_and_mission():
    s = fresh(3, seed=1)
    auctions = missions = 0
    last = None
    while not s.is_terminal():
        key = (s.phase, s.revealed)
        if key != last:
            auctions += s.phase == 1
            missions += s.phase == 2
            last = key
        s.apply_action(s.legal_actions()[0])
    assert auctions == 10 and missions == 10 and s.revealed == 10
