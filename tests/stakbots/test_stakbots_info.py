"""SB-9: hidden information, one visibility model for view, events and determinize."""

from __future__ import annotations

import random

from robotable import visible_events
from robotable.games.stakbots.state import HIDDEN, KNOWN

from .sbkit import card_of, do, game, play, position


def ids(obj) -> set[int]:
    out = set()
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k == "id":
                out.add(v)
            out |= ids(v)
    elif isinstance(obj, list):
        for v in obj:
            out |= ids(v)
    return out


def test_sb_9_1_hands_are_hidden_from_the_other_seats():
    st = game(3).new_initial_state(8)
    v1 = st.view(1)
    assert v1["seats"][1]["hand"] is not None and v1["seats"][0]["hand"] is None
    assert v1["seats"][0]["hand_size"] == 3
    assert not ids(v1) & set(st.hands[0] + st.hands[2])
    assert set(st.hands[1]) <= ids(v1)


def test_sb_9_2_face_down_cards_are_unknown_even_to_their_owner():
    st = game(2).new_initial_state(8)
    v0 = st.view(0)
    assert not ids(v0) & set(st.staks[0][:-1])
    assert all(c == {"face_up": False} for c in v0["seats"][0]["stak"][:-1])


def test_sb_9_3_supply_order_is_hidden_and_resampled():
    st = game(2).new_initial_state(8)
    det = st.determinize(0, random.Random(1))
    assert det.supply != st.supply and det.view(0) == st.view(0)
    assert det.hands[0] == st.hands[0] and det.staks[0][-1] == st.staks[0][-1]
    assert det.rng.state != st.rng.state  # the copy does not know the true future draws


def test_sb_9_4_public_information_is_in_every_view():
    st = position([["Core:2", "Core:7"], ["Core:3", "Core:2"]])
    do(st, "attack", target=1)
    for seat in (0, 1, None):
        v = st.view(seat)
        assert [c["name"] for c in v["scrapheap"]] == ["Core Bot"]
        assert v["seats"][0]["top"]["damage"] == 2
        assert v["attacker"]["name"] == "Core Bot" and v["scrapheap_fed"]


def test_sb_9_5_reset_and_returned_cards_stay_known():
    st = position(
        [["Core:2", "Core:5", "Core:4"], ["Core:3", "Core:6"]], hands=[["Tranq", "Begone"], []]
    )
    five = st.staks[0][1]
    play(st, "tranq")
    do(st, "target", seat=0, depth=2)  # reset the Core:5 under the Core:4
    assert st.vis[five] == KNOWN
    v1 = st.view(1)
    assert v1["seats"][0]["stak"][1] == {
        "face_up": False,
        "known": v1["seats"][0]["stak"][1]["known"],
    }
    assert v1["seats"][0]["stak"][1]["known"]["id"] == five
    play(st, "begone")
    six = card_of(st, 1)
    do(st, "target", seat=1, depth=0)
    v0 = st.view(0)
    assert [c["id"] for c in v0["seats"][1]["known_hand"]] == [six]
    det = st.determinize(0, random.Random(3))
    assert det.staks[0][1] == five and six in det.hands[1] and det.view(0) == v0


def test_sb_9_6_determinize_resamples_exactly_the_unknown_cards():
    st = game(4).new_initial_state(9)
    for seat in range(4):
        det = st.determinize(seat, random.Random(seat))
        assert det.view(seat) == st.view(seat)
        unknown = set(st.supply)
        for s in range(4):
            if s != seat:
                unknown |= set(st.hands[s])
            unknown |= {c for c in st.staks[s] if st.vis[c] == HIDDEN}
        moved = {c for c in range(60) if _where(det, c) != _where(st, c)}
        assert moved <= unknown


def _where(st, c):
    for zone_name in ("staks", "hands"):
        for s, z in enumerate(getattr(st, zone_name)):
            if c in z:
                return (zone_name, s, z.index(c))
    if c in st.supply:
        return ("supply", st.supply.index(c))
    return ("heap", st.scrapheap.index(c))


def test_sb_9_7_secret_events_name_who_may_see_them():
    st = position([["Core:2"], ["Core:3"]], supply_top=["Reaper"])
    st.fed = True
    st._legal = None
    events = do(st, "end_turn")
    drawn = [e for e in events if e["type"] == "card_drawn"]
    assert drawn and drawn[0]["to"] == [1] and drawn[0]["card"] == "Reaper Bot"
    assert not [e for e in visible_events(events, 0) if e["type"] == "card_drawn"]
    public = [e for e in visible_events(events, 0) if e["type"] == "drew"]
    assert public == [{"type": "drew", "seat": 1, "hand_size": 1}]


def test_the_state_is_a_protocol_state_on_both_engines() -> None:
    """Compiled, StakBotsState is an extension type on StateBase (it cannot inherit the ABC);
    registered, it is a State to every check, as a user's Python subclass of State is."""
    from robotable.core.protocol import State
    from robotable.games.stakbots import StakBotsGame
    from robotable.games.stakbots.state import StakBotsState

    st = StakBotsGame(2).new_initial_state(1)
    assert isinstance(st, State) and issubclass(StakBotsState, State)
    assert isinstance(st.clone(), State) and st.opening_events() == st.opening_events()
    assert StakBotsState.from_json(st.game, st.to_json()).opening_events() == []
