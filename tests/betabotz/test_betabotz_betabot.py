"""BZ-5: the Betabot (attributes, components, hand limit, Limit Breaches)."""

from __future__ import annotations

from robotable.games.betabotz.actions import DiscardCode, DiscardComponent, DrawCode, TakeBreach
from robotable.games.betabotz.effects import check_breaches, perm_changed, recompute_perm
from robotable.games.betabotz.rules import _close_auction

from .bz_helpers import (
    breach_named,
    component_named,
    fresh,
    give_code,
    play_first,
    set_attrs,
)


def _after_phase0(n=3, seed=1):
    s = fresh(n, seed)
    play_first(s, lambda st: st.phase == 1)
    return s


def test_bz_5_1_attributes_are_base_plus_components_minus_damage_and_may_go_negative():
    s = _after_phase0()
    seat = 0
    trade = component_named(s, "Paper Frame")  # +4 agility, -2 structure
    s.comps[seat] = [trade, component_named(s, "Steel Plating")]
    s.damage[seat] = [0, 0, 30, 0]
    recompute_perm(s, seat)
    base = s.content.betabots[s.bot[seat]].attrs
    assert s.perm[seat] == [base[0] + 4, base[1], base[2] - 2 + 2 - 30, base[3]]
    assert s.perm[seat][2] < 0
    assert s.view(1)["seats"][seat]["attributes"]["structure"] == s.perm[seat][2]


def test_bz_5_2_component_limit_five_green_outside_discard_any_including_new():
    s = _after_phase0()
    seat = s.current_player()
    plain = [
        component_named(s, x)
        for x in ("Servo Legs", "Spring Heels", "Gyro Balancer", "Track Wheels", "Jump Jets")
    ]
    green = component_named(s, "Grip Tape")
    s.comps[seat] = plain + [green]
    recompute_perm(s, seat)
    new = s.lots[0]
    # the seat wins lot 0 at its minimum; everybody else draws
    s.seat_lot[seat] = 0
    s.lot_bidder[0] = seat
    s.lot_bid[0] = 1
    _close_auction(s, [])
    s._legal = None
    assert s.current_player() == seat
    options = {a.card for a in s.legal_actions()}
    assert new in options and green not in options and len(options) == 6
    s.apply_action(DiscardComponent(new, s.content.components[new].name))
    assert len(s.comps[seat]) == 6 and new in s.comp_discard  # 5 plus the green one


def test_bz_5_3_hand_limit_four_discard_down_at_once():
    s = _after_phase0()
    seat = s.current_player()
    while len(s.hand[seat]) < 4:
        s.hand[seat].append(s.code_deck.pop())
    s._legal = None
    s.apply_action(DrawCode())
    assert len(s.hand[seat]) == 5 and s.current_player() == seat
    assert all(isinstance(a, DiscardCode) for a in s.legal_actions())
    s.apply_action(s.legal_actions()[0])
    assert len(s.hand[seat]) == 4 and s.current_player() != seat


def test_bz_5_4_breach_at_13_order_by_value_then_chip_one_per_attribute():
    s = _after_phase0(n=4, seed=2)
    s.pending.clear()
    chip = s.chip
    a, b, c = chip, (chip + 1) % 4, (chip + 2) % 4
    set_attrs(s, a, [13, 5, 5, 5])
    set_attrs(s, b, [14, 5, 5, 5])
    set_attrs(s, c, [13, 5, 5, 5])
    events: list = []
    assert check_breaches(s, events)  # b (14) chooses first between the two agility breaches
    assert s.pending[-1][:2] == (3, b)
    s._legal = None
    choice = s.legal_actions()
    assert {x.name for x in choice} == {"Evasion", "Afterburner"}
    s.pending.pop()
    s.holder[choice[0].breach] = b
    check_breaches(s, events)  # a is next (tied 13 with c, closer to the chip): automatic
    other = [x for x in choice if x != choice[0]][0]
    assert s.holder[other.breach] == a and not s.pending
    assert events[-1]["type"] == "breach_taken"
    assert (events[-1]["seat"], events[-1]["card"]) == (a, other.name)
    assert events[-1]["attribute"] == "agility" and events[-1]["value"] == s.perm[a][0]
    # one per attribute: c gets nothing, b cannot take a second agility breach
    assert c not in s.holder


def test_bz_5_4_breach_choice_is_an_action():
    s = _after_phase0(n=3, seed=3)
    s.pending.clear()
    seat = s.chip
    set_attrs(s, seat, [5, 13, 5, 5])
    check_breaches(s, [])
    s._legal = None
    act = TakeBreach(breach_named(s, "Overkill"), "Overkill")
    assert act in s.legal_actions()


def test_bz_5_5_breach_lost_below_13_and_offered_again():
    s = _after_phase0(n=3, seed=3)
    s.pending.clear()
    x, y = s.chip, (s.chip + 1) % 3
    evasion, after = breach_named(s, "Evasion"), breach_named(s, "Afterburner")
    set_attrs(s, x, [13, 5, 5, 5])
    set_attrs(s, y, [13, 5, 5, 5])
    s.holder[evasion] = x
    s.holder[after] = y
    events: list = []
    s.damage[x][0] += 1
    perm_changed(s, x, events)
    assert s.holder[evasion] == -1 and events[0]["type"] == "breach_lost"
    set_attrs(s, (x + 2) % 3, [15, 5, 5, 5])
    check_breaches(s, events)
    assert s.holder[evasion] == (x + 2) % 3


def test_bz_5_6_breach_effects_in_missions():
    from .bz_helpers import at_mission, set_mission

    s = at_mission(3, seed=4)
    set_mission(s, "Scrap Heap Sprint")  # agility 8
    seat = s.priority
    set_attrs(s, seat, [7, 5, 5, 5])
    s.holder[breach_named(s, "Afterburner")] = seat
    from robotable.games.betabotz.effects import mission_value

    assert mission_value(s, seat, 0) == 9  # +2 agility during missions
    # Firewall stops another player's hostile card
    other = (seat + 1) % 3
    s.holder[breach_named(s, "Firewall")] = other
    give_code(s, seat, "Virus")
    from robotable.games.betabotz.actions import ChooseAttribute, ChooseSeat, PlayCode

    from .bz_helpers import kind_named

    s.apply_action(PlayCode(kind_named(s, "Virus"), "Virus"))
    s.apply_action(ChooseSeat(other))
    ev = s.apply_action(ChooseAttribute(0))
    assert s.temp[other] == [0, 0, 0, 0] and ev[0]["blocked_by"] == "Firewall"
