"""BZ-6 (mission phase and teams), BZ-7 (Code cards), BZ-8 (resolution)."""

from __future__ import annotations

import pytest

import robotable
from robotable import IllegalAction
from robotable.games.betabotz.actions import (
    Accept,
    ChooseAttribute,
    ChooseSeat,
    FinishInvites,
    Invite,
    Pass,
    PlayCode,
    ProposeTeam,
    Reject,
    SetShare,
)
from robotable.games.betabotz.state import PK_DISCARD_COMP, ST_AUCTION, ST_MISSION

from .bz_helpers import (
    at_mission,
    breach_named,
    bundled_content_text,
    clear_hands,
    component_named,
    game,
    give_code,
    kind_named,
    set_attrs,
    set_mission,
)


def _play(s, name, *steps):
    events = s.apply_action(PlayCode(kind_named(s, name), name))
    for step in steps:
        events += s.apply_action(step)
    return events


def _pass_all(s):
    events = []
    while s.stage == ST_MISSION and not s.pending:
        events += s.apply_action(Pass())
    return events


def test_bz_6_1_every_seat_attempts_starting_solo():
    s = at_mission(4, seed=1)
    clear_hands(s)
    set_mission(s, "Scrap Heap Sprint")  # agility 8
    for seat in range(4):
        set_attrs(s, seat, [8 if seat % 2 == 0 else 7, 0, 0, 0])
    before = s.bitz[:]
    events = _pass_all(s)
    attempts = [e for e in events if e["type"] == "mission_attempt"]
    assert sorted(tuple(e["members"]) for e in attempts) == [(0,), (1,), (2,), (3,)]
    assert [s.bitz[i] - before[i] for i in range(4)] == [5, -2, 5, -2]


def test_bz_6_2_priority_from_the_chip_one_action_then_next_seat():
    s = at_mission(3, seed=2)
    assert s.priority == s.chip and s.current_player() == s.chip
    clear_hands(s)
    give_code(s, s.chip, "Patch Notes")
    _play(s, "Patch Notes")
    assert s.current_player() == (s.chip + 1) % 3


def test_bz_6_3_phase_closes_when_every_seat_passes_in_a_row():
    s = at_mission(3, seed=3)
    clear_hands(s)
    give_code(s, (s.chip + 1) % 3, "Patch Notes")
    s.apply_action(Pass())
    _play(s, "Patch Notes")  # resets the run of passes
    s.apply_action(Pass())
    s.apply_action(Pass())
    assert s.stage == ST_MISSION and s.streak == 2
    s.apply_action(Pass())
    assert s.stage != ST_MISSION


def test_bz_6_4_proposals_name_solo_members_in_steps_and_are_capped():
    s = at_mission(4, seed=4, proposals=1)
    clear_hands(s)
    p = s.current_player()
    s.apply_action(ProposeTeam())
    assert FinishInvites() not in s.legal_actions()  # at least one other member
    assert {a.seat for a in s.legal_actions()} == {x for x in range(4) if x != p}
    s.apply_action(Invite((p + 1) % 4))
    s.apply_action(Invite((p + 2) % 4))
    s.apply_action(FinishInvites())
    reward = s.content.missions[s.mission_order[0]].reward
    assert [a.share for a in s.legal_actions()] == list(range(reward + 1))
    s.apply_action(SetShare(0))
    s.apply_action(Reject())
    assert s.proposals_left[p] == 0 and not s.draft
    # after the cap the seat can no longer propose
    for _ in range(3):
        s.apply_action(Pass())
    assert s.current_player() == p and ProposeTeam() not in s.legal_actions()


def test_bz_6_5_split_proposer_share_rest_equal_remainder_by_chip_order():
    s = at_mission(4, seed=5)
    clear_hands(s)
    set_mission(s, "Gutter Race")  # reward 6
    p = s.current_player()
    q, r = (p + 1) % 4, (p + 2) % 4
    s.apply_action(ProposeTeam())
    s.apply_action(Invite(r))
    s.apply_action(Invite(q))
    s.apply_action(FinishInvites())
    s.apply_action(SetShare(1))
    assert s.current_player() == r  # invitees answer in the order invited
    s.apply_action(Accept())
    assert s.current_player() == q
    events = s.apply_action(Accept())
    formed = next(e for e in events if e["type"] == "team_formed")
    assert s.share[p] == 1 and s.share[q] == 3 and s.share[r] == 2  # 5 = 3 + 2, chip order first
    assert formed["members"] == sorted([p, q, r])


def test_bz_6_6_all_must_accept_and_teams_lock():
    s = at_mission(4, seed=6)
    clear_hands(s)
    p = s.current_player()
    q, r = (p + 1) % 4, (p + 2) % 4
    s.apply_action(ProposeTeam())
    s.apply_action(Invite(q))
    s.apply_action(Invite(r))
    s.apply_action(FinishInvites())
    s.apply_action(SetShare(0))
    s.apply_action(Accept())
    s.apply_action(Reject())
    assert s.team_of == [-1] * 4
    # a formed team is locked: its members can neither propose nor be invited
    s.apply_action(ProposeTeam())  # q proposes to p
    assert s.current_player() == q
    s.apply_action(Invite(p))
    s.apply_action(FinishInvites())
    s.apply_action(SetShare(0))
    s.apply_action(Accept())
    assert s.team_of[p] == s.team_of[q] == q
    s.apply_action(Pass())  # r
    s.apply_action(ProposeTeam())  # the fourth seat
    assert {a.seat for a in s.legal_actions()} == {r}
    with pytest.raises(IllegalAction):
        s.apply_action(Invite(p))


def test_bz_7_1_codes_only_in_mission_on_priority_face_up():
    s = at_mission(3, seed=7)
    clear_hands(s)
    seat = s.current_player()
    give_code(s, seat, "Patch Notes")
    give_code(s, (seat + 1) % 3, "Turbo Boost")
    assert {a.kind for a in s.legal_actions()} >= {"play_code", "pass"}
    ev = _play(s, "Patch Notes")
    assert ev[0] == {"type": "code_played", "seat": seat, "card": "Patch Notes"}
    assert s.content.codes[s.content.code_card_kind[s.code_discard[-1]]].name == "Patch Notes"
    # in an auction no Code card is playable
    from .bz_helpers import fresh

    f = fresh(3, seed=7)
    assert not any(a.kind == "play_code" for a in f.legal_actions())


def test_bz_7_2_targets_and_attributes_are_pending_steps():
    s = at_mission(3, seed=8)
    clear_hands(s)
    seat = s.current_player()
    give_code(s, seat, "Overclock")
    s.apply_action(PlayCode(kind_named(s, "Overclock"), "Overclock"))
    assert s.legal_actions() == [ChooseSeat(i) for i in range(3)]  # any player
    s.apply_action(ChooseSeat((seat + 2) % 3))
    assert s.legal_actions() == [ChooseAttribute(a) for a in range(4)]
    s.apply_action(ChooseAttribute(3))
    assert s.temp[(seat + 2) % 3] == [0, 0, 0, 2]
    give_code(s, s.current_player(), "Jammer")
    s.apply_action(PlayCode(kind_named(s, "Jammer"), "Jammer"))
    assert s.current_player() not in {a.seat for a in s.legal_actions()}  # another player


def test_bz_7_3_effects_resolve_at_once_in_play_order_and_last_the_mission():
    s = at_mission(3, seed=9)
    clear_hands(s)
    a = s.current_player()
    b = (a + 1) % 3
    give_code(s, a, "Swarm Protocol")
    give_code(s, b, "Virus")
    _play(s, "Swarm Protocol")
    assert s.temp[a] == [3, 3, 3, 3]
    _play(s, "Virus", ChooseSeat(a), ChooseAttribute(1))
    assert s.temp[a] == [3, -1, 3, 3]
    _pass_all(s)
    assert s.temp[a] == [0, 0, 0, 0]


def test_bz_7_4_rollback_undoes_the_latest_change_in_force():
    s = at_mission(3, seed=10)
    clear_hands(s)
    a = s.current_player()
    b = (a + 1) % 3
    give_code(s, a, "Rollback")
    assert PlayCode(kind_named(s, "Rollback"), "Rollback") not in s.legal_actions()
    give_code(s, a, "Turbo Boost")
    _play(s, "Turbo Boost", ChooseAttribute(2))
    give_code(s, b, "Jammer")
    _play(s, "Jammer", ChooseSeat(a), ChooseAttribute(0))
    s.apply_action(Pass())
    ev = _play(s, "Rollback")
    assert s.temp[a] == [0, 0, 4, 0]
    assert any(e.get("cancelled") == "Jammer" for e in ev)


def test_bz_7_5_other_code_ops_shield_bounty_draw_steal_roll():
    s = at_mission(3, seed=11)
    clear_hands(s)
    set_mission(s, "Scrap Heap Sprint")  # agility 8, lose 2
    a = s.current_player()
    b, c = (a + 1) % 3, (a + 2) % 3
    for seat in range(3):
        set_attrs(s, seat, [0, 0, 0, 0])
    set_attrs(s, b, [8, 0, 0, 0])
    give_code(s, a, "Failsafe")
    give_code(s, b, "Bounty Script")
    give_code(s, c, "Siphon")
    _play(s, "Failsafe")
    _play(s, "Bounty Script")
    bitz = s.bitz[:]
    _play(s, "Siphon", ChooseSeat(b))
    assert s.bitz[c] == bitz[c] + 3 and s.bitz[b] == bitz[b] - 3
    give_code(s, a, "Fetch Routine")
    hand = len(s.hand[a])
    _play(s, "Fetch Routine")
    assert len(s.hand[a]) == hand - 1 + 2
    give_code(s, b, "Random Seed")
    ev = _play(s, "Random Seed", ChooseAttribute(3))
    roll = next(e["roll"] for e in ev if e["type"] == "code_resolved")
    assert 1 <= roll <= 6 and s.temp[b][3] == roll
    before = s.bitz[:]
    _pass_all(s)
    assert s.bitz[a] == before[a]  # Failsafe: no loss
    assert s.bitz[b] == before[b] + 5 + 5  # reward plus bounty
    assert s.bitz[c] == before[c] - 2


def test_bz_7_6_empty_code_deck_refills_except_during_a_mission():
    s = at_mission(3, seed=12)
    clear_hands(s)
    s.code_discard.extend(s.code_deck)
    s.code_deck.clear()
    seat = s.current_player()
    give_code(s, seat, "Fetch Routine")
    _play(s, "Fetch Routine")
    assert len(s.hand[seat]) == 0  # nothing drawn during the mission
    from robotable.games.betabotz.effects import draw_codes

    s.stage = ST_AUCTION
    draw_codes(s, seat, 1, [])
    assert len(s.hand[seat]) == 1 and s.code_deck


def test_bz_8_1_unit_values_are_summed_and_must_meet_every_requirement():
    s = at_mission(3, seed=13)
    clear_hands(s)
    set_mission(s, "Canyon Crossing")  # agility 12
    p = s.current_player()
    q = (p + 1) % 3
    r = (p + 2) % 3
    set_attrs(s, p, [6, 0, 0, 0])
    set_attrs(s, q, [6, 0, 0, 0])
    set_attrs(s, r, [11, 0, 0, 0])
    s.apply_action(ProposeTeam())
    s.apply_action(Invite(q))
    s.apply_action(FinishInvites())
    s.apply_action(SetShare(4))
    s.apply_action(Accept())
    events = _pass_all(s)
    res = {tuple(e["members"]): e["success"] for e in events if e["type"] == "mission_attempt"}
    assert res[tuple(sorted([p, q], key=lambda x: (x - s.chip) % 3))] is True
    assert res[(r,)] is False


def test_bz_8_2_each_succeeding_unit_takes_the_printed_reward_split_as_agreed():
    s = at_mission(3, seed=14)
    clear_hands(s)
    set_mission(s, "Canyon Crossing")  # agility 12, reward 8
    p = s.current_player()
    q, r = (p + 1) % 3, (p + 2) % 3
    for seat in range(3):
        set_attrs(s, seat, [12, 0, 0, 0])
    s.holder[breach_named(s, "Overkill")] = r
    s.apply_action(ProposeTeam())
    s.apply_action(Invite(q))
    s.apply_action(FinishInvites())
    s.apply_action(SetShare(5))
    s.apply_action(Accept())
    before = s.bitz[:]
    events = _pass_all(s)
    assert s.bitz[p] - before[p] == 5 and s.bitz[q] - before[q] == 3
    assert s.bitz[r] - before[r] == 8 + 3  # solo reward plus Overkill
    assert all(e["bitz"] > 0 for e in events if e["type"] == "reward")


def test_bz_8_3_failure_hits_every_member_in_full():
    s = at_mission(3, seed=15)
    clear_hands(s)
    set_mission(s, "Mainframe Raid")  # agility 17 + structure 19, -2 agility, lose 3
    p = s.current_player()
    q = (p + 1) % 3
    set_attrs(s, p, [1, 1, 1, 1])
    set_attrs(s, q, [1, 1, 1, 1])
    s.bitz[p] = 2
    s.apply_action(ProposeTeam())
    s.apply_action(Invite(q))
    s.apply_action(FinishInvites())
    s.apply_action(SetShare(8))
    s.apply_action(Accept())
    before = s.bitz[:]
    _pass_all(s)
    assert s.bitz[p] == 0 and s.bitz[q] == before[q] - 3  # never below 0
    assert s.perm[p][0] == -1 and s.perm[q][0] == -1 and s.damage[p][0] > 0


def test_bz_8_3_component_discard_is_a_choice_and_armored_is_immune():
    s = at_mission(3, seed=16)
    clear_hands(s)
    set_mission(s, "Skyrail Pursuit")  # discard a component
    p = s.current_player()
    q = (p + 1) % 3
    for seat in range(3):
        s.comps[seat] = [component_named(s, "Servo Legs")] if seat == p else []
        set_attrs(s, seat, [0, 0, 0, 0])
    s.comps[q] = [component_named(s, "Spring Heels")]
    s.holder[breach_named(s, "Armored")] = q
    s.bitz = [40, 40, 40]
    _pass_all(s)
    assert s.pending and s.pending[-1][:2] == (PK_DISCARD_COMP, p)
    s.apply_action(s.legal_actions()[0])
    assert s.comps[p] == [] and s.comps[q] == [component_named(s, "Spring Heels")]


def test_bz_8_4_code_changes_clear_and_next_round_starts():
    s = at_mission(3, seed=17)
    clear_hands(s)
    give_code(s, s.current_player(), "Swarm Protocol")
    _play(s, "Swarm Protocol")
    _pass_all(s)
    while s.pending:
        s.apply_action(s.legal_actions()[0])
    assert all(t == [0, 0, 0, 0] for t in s.temp) and not s.code_log
    assert s.stage == ST_AUCTION and s.phase == 1 and s.revealed == 1


def test_bz_8_5_evasion_halves_bitz_losses():
    s = at_mission(3, seed=18)
    clear_hands(s)
    set_mission(s, "Bolt Collection")  # lose 4? (check below)
    m = s.content.missions[s.mission_order[0]]
    p = s.current_player()
    for seat in range(3):
        set_attrs(s, seat, [0, 0, 0, 0])
    s.holder[breach_named(s, "Evasion")] = p
    before = s.bitz[:]
    _pass_all(s)
    assert before[p] - s.bitz[p] == m.lose_bitz // 2


def test_bz_8_3_failure_discards_a_random_code_card_face_up():
    s = at_mission(3, seed=19)
    clear_hands(s)
    set_mission(s, "Reactor Meltdown")  # discard_code
    p = s.current_player()
    for seat in range(3):
        set_attrs(s, seat, [0, 0, 0, 0])
    give_code(s, p, "Jammer")
    give_code(s, p, "Virus")
    events = _pass_all(s)
    assert len(s.hand[p]) == 1
    ev = next(e for e in events if e["type"] == "consequence" and e["seat"] == p)
    assert ev["discarded_code"] in ("Jammer", "Virus")
    assert (
        s.content.codes[s.content.code_card_kind[s.code_discard[-1]]].name == ev["discarded_code"]
    )


def test_bz_5_6_compiler_draws_when_a_mission_is_flipped():
    from robotable.games.betabotz.rules import _open_mission

    s = at_mission(3, seed=20)
    clear_hands(s)
    seat = (s.chip + 1) % 3
    s.holder[breach_named(s, "Compiler")] = seat
    s.revealed = 1
    events: list = []
    _open_mission(s, events)
    assert len(s.hand[seat]) == 1 and sum(len(h) for h in s.hand) == 1
    assert any(e["type"] == "codes_drawn" and e["seat"] == seat for e in events)


def test_bz_5_6_every_second_mission_breach_draws_on_even_flips(tmp_path):
    """`draw_every_second_mission` draws its amount when the second, fourth... mission is
    flipped and nothing on the others; its draw's event names the breach, and the log says what
    the breach does when a seat takes it."""
    from robotable.games.betabotz.effects import breach_event
    from robotable.games.betabotz.rules import _open_mission

    text = bundled_content_text()
    compiler = 'effect = "draw_each_mission"\namount = 1'
    assert text.count(compiler) == 1
    path = tmp_path / "half_compiler.toml"
    path.write_text(text.replace(compiler, 'effect = "draw_every_second_mission"\namount = 2'))
    s = at_mission(3, seed=20, content=str(path))
    clear_hands(s)
    seat = (s.chip + 1) % 3
    s.holder[breach_named(s, "Compiler")] = seat
    drawn = []
    for revealed in (1, 2, 3, 4):  # _open_mission flips the next one: the 2nd ... the 5th
        s.revealed = revealed
        events: list = []
        before = len(s.hand[seat])
        _open_mission(s, events)
        drawn.append(len(s.hand[seat]) - before)
        if drawn[-1]:
            (draw,) = [e for e in events if e["type"] == "codes_drawn"]
            assert draw["seat"] == seat and draw["because"] == ["Compiler"]
    assert drawn == [2, 0, 2, 0]
    taken = breach_event("breach_taken", s, seat, breach_named(s, "Compiler"))
    (line,) = s.game.narrate([taken], None, ["Ada", "Bo", "Cy"])
    assert "2 Code cards drawn whenever the second, fourth, sixth... mission is flipped" in line
    # a counted effect needs an amount, as draw_each_mission does
    zero = tmp_path / "no_compiler.toml"
    zero.write_text(text.replace(compiler, 'effect = "draw_every_second_mission"\namount = 0'))
    with pytest.raises(robotable.ContentError, match=r"breach 'Compiler'.*needs amount >= 1"):
        game(3, content=str(zero))
