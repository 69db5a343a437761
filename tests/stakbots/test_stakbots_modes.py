"""SB-11: the official toggles, the traitor variation and the modes, one test per numbered rule,
and the protocol's contract and the no-leak property on every mode."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

import robotable
from robotable import ContentError, IllegalAction, OptionError
from robotable.core.conformance import check_random_game

from .sbkit import RULES_DECK, do, game, position, stak_names
from .test_stakbots_properties import hidden_ids, ids_in

# Every toggle, variation and mode, and some of their combinations, as (seats, options).
MODES = [
    (2, {"stak_size": 5, "hand_size": 4}),
    (2, {"setup_effects": True}),
    (3, {"setup_effects": True, "skip_first_draw": True}),
    (2, {"recycling": True}),
    (3, {"reactive": True}),
    (3, {"borderless": "on"}),
    (2, {"attack_tally": 3}),
    (3, {"traitor": True}),
    (2, {"quickfire": True}),
    (4, {"teams": True}),
    (4, {"teams": True, "borderless": "team", "reactive": True}),
    (2, {"staks": 2}),
    (3, {"staks": 3, "reactive": True, "borderless": "on", "recycling": True}),
    (4, {"staks": 2, "teams": True, "traitor": True}),
    (2, {"preset": "club"}),
    (1, {}),
    (1, {"drones": 3, "reactive": True, "staks": 2, "setup_effects": True}),
    (2, {"reactive": True, "recycling": True, "setup_effects": True, "attack_tally": 2}),
]
MODE_IDS = [f"{n}-" + "-".join(f"{k}={v}" for k, v in o.items()) for n, o in MODES]
seeds = hs.integers(0, 2**31)


def types(events) -> list[str]:
    return [e["type"] for e in events]


# -- SB-11.1 stak depth --------------------------------------------------------------------------
def test_sb_11_1_stak_depth_and_hand_size_are_options():
    st = game(3, stak_size=4, hand_size=5).new_initial_state(1)
    assert [len(s) for s in st.staks] == [4, 4, 4]
    assert [len(h) for h in st.hands] == [6, 5, 5]  # the first player has drawn


# -- SB-11.2 setup entry effects -----------------------------------------------------------------
def _setup_game_with_entry_tops(**options):
    """A seed whose starting tops include an entry effect, and its state."""
    g = game(2, setup_effects=True, **options)
    for seed in range(200):
        st = g.new_initial_state(seed)
        if any(e["type"] == "setup_effects" for e in st.opening_events()):
            return g, seed, st
    raise AssertionError("no seed with an entry effect on a starting top")


def test_sb_11_2_setup_entry_effects_fire_before_the_first_draw():
    g, seed, st = _setup_game_with_entry_tops()
    plain = game(2).new_initial_state(seed)
    opening = types(st.opening_events())
    assert opening[0] == "setup_effects"
    assert "entry_effect" in opening
    # The chain runs in turn 0; the first draw comes only when it is over.
    while st.turn == 0:
        assert "card_drawn" not in types(st.opening_events())
        st.apply_action(st.legal_actions()[0])
    assert st.turn == 1
    assert plain.turn == 1 and "entry_effect" not in types(plain.opening_events())


def test_sb_11_2_without_the_toggle_starting_tops_do_not_fire():
    for seed in range(30):
        assert "entry_effect" not in types(game(2).new_initial_state(seed).opening_events())


# -- SB-11.3 the first player skips the first draw -----------------------------------------------
def test_sb_11_3_first_player_skips_the_first_draw_only():
    st = game(2, skip_first_draw=True).new_initial_state(1)  # no entry effect below the top
    assert len(st.hands[0]) == 2
    assert {"type": "draw_skipped", "seat": 0, "why": "first_turn"} in st.opening_events()
    do(st, "scrap", from_hand=False, card=st.staks[0][-1])
    events = do(st, "end_turn")
    assert "card_drawn" in types(events)  # seat 2 draws as usual
    assert len(st.hands[1]) == 3


# -- SB-11.4 recycling ---------------------------------------------------------------------------
def test_sb_11_4_recycling_scraps_top_and_hand_card_then_draws():
    st = position(
        [["Core:1", "Core:5"], ["Core:2"]],
        hands=[["Core:3"], []],
        supply_top=["Core:7"],
        recycling=True,
    )
    heap = len(st.scrapheap)
    events = do(st, "recycle", name="Core Bot")
    assert types(events)[0] == "recycled"
    assert len(st.scrapheap) == heap + 2
    assert stak_names(st, 0) == ["Core Bot"] and st.game.base_power[st.staks[0][-1]] == 1
    assert [st.game.base_power[c] for c in st.hands[0]] == [7]
    assert st.fed
    assert not [
        a
        for a in position([["Core:1"], ["Core:2"]], [["Core:3"], []]).legal_actions()
        if a.kind == "recycle"
    ]


# -- SB-11.5 reactive play -----------------------------------------------------------------------
def test_sb_11_5_a_reaction_cancels_the_attack():
    st = position([["Core:5"], ["Core:1"]], hands=[[], ["Core:4"]], reactive=True)
    events = do(st, "attack", target=1)
    assert types(events) == ["attack_declared"]
    assert st.current_player() == 1
    assert {a.kind for a in st.legal_actions()} == {"react", "let_through"}
    events = do(st, "react", name="Core Bot")
    assert "attack" not in types(events)
    assert [st.game.base_power[c] for c in st.staks[1]] == [1, 4]
    assert st.current_player() == 0 and st.attacker == [-1, -1]  # none finished: may switch
    assert st.dmg == [0] * len(st.dmg)


def test_sb_11_5_letting_the_attack_through_fights():
    st = position([["Core:5"], ["Core:2", "Core:1"]], hands=[[], ["Core:4"]], reactive=True)
    do(st, "attack", target=1)
    events = do(st, "let_through")
    assert "attack" in types(events)
    assert [st.game.base_power[c] for c in st.staks[1]] == [2]


def test_sb_11_5_no_reaction_is_asked_of_an_empty_hand():
    st = position([["Core:5"], ["Core:2", "Core:1"]], reactive=True)
    assert "attack" in types(do(st, "attack", target=1))


# -- SB-11.6 borderless play ---------------------------------------------------------------------
def test_sb_11_6_borderless_play_onto_another_stak_whose_owner_steers_it():
    st = position([["Core:5"], ["Core:2"]], hands=[["Shot"], []], borderless="on")
    plays = {a.seat for a in st.legal_actions() if a.kind == "play"}
    assert plays == {-1, 1}
    do(st, "play", seat=1)
    assert stak_names(st, 1)[-1] == "Shot Bot"
    assert st.current_player() == 1  # the owner of the stak it sits on makes its choice


def test_sb_11_6_borderless_team_allows_only_teammates_staks():
    st = position(
        [["Core:5"], ["Core:2"], ["Core:3"], ["Core:4"]],
        hands=[["Core:1"], [], [], []],
        teams=True,
        borderless="team",
    )
    assert {a.seat for a in st.legal_actions() if a.kind == "play"} == {-1, 2}


# -- SB-11.7 attack tally ------------------------------------------------------------------------
def test_sb_11_7_attack_tally_allows_n_attacks_by_any_top_card():
    st = position(
        [["Core:7", "Core:1"], ["Core:7", "Core:7", "Core:1"]],
        hands=[["Core:6"], []],
        attack_tally=2,
    )
    do(st, "attack", target=1)  # Core 1 against Core 1: both scrapped
    assert st.attacker[0] >= 0 and st.n_attacks == 1
    assert [a for a in st.legal_actions() if a.kind == "attack"]  # the new top card may attack
    do(st, "attack", target=1)
    assert st.n_attacks == 2
    assert not [a for a in st.legal_actions() if a.kind == "attack"]


def test_sb_11_7_without_a_tally_a_new_top_card_may_not_attack():
    st = position([["Core:7", "Core:1"], ["Core:7", "Core:7", "Core:1"]])
    do(st, "attack", target=1)
    assert not [a for a in st.legal_actions() if a.kind == "attack"]


# -- SB-11.8 traitor -----------------------------------------------------------------------------
def test_sb_11_8_traitor_plays_only_onto_opponents_and_never_scraps_from_hand():
    g = game(2, traitor=True)
    assert g.options["hand_size"] == 3
    st = position(
        [["Core:5"], ["Core:2"]],
        hands=[["Core:1", "Core:3", "Core:4", "Core:6"], []],
        traitor=True,
    )
    kinds = {
        (a.kind, getattr(a, "seat", None), getattr(a, "from_hand", None))
        for a in st.legal_actions()
    }
    assert ("play", 1, None) in kinds and ("play", -1, None) not in kinds
    assert ("scrap", None, True) not in kinds
    # Fed, but holding 4: the turn may not end until the hand is down to 3.
    st.fed = True
    st._legal = None
    assert "end_turn" not in {a.kind for a in st.legal_actions()}
    do(st, "play", seat=1, card=st.hands[0][0])
    assert "end_turn" in {a.kind for a in st.legal_actions()}


def test_sb_11_8_traitor_refuses_recycling():
    with pytest.raises(OptionError, match="recycling"):
        game(2, traitor=True, recycling=True)


# -- SB-11.9 quickfire ---------------------------------------------------------------------------
def test_sb_11_9_quickfire_deals_five_card_staks_and_no_entry_effect_fires():
    g = game(2, quickfire=True)
    assert g.options["stak_size"] == 5
    st = position([["Core:5"], ["Core:2"]], hands=[["Shot"], []], quickfire=True)
    events = do(st, "play", name="Shot Bot")
    assert "entry_effect" not in types(events)
    assert st.current_player() == 0 and st.decision is None
    st.hands[0].append(st.supply.pop())
    st._legal = None
    for a in st.legal_actions():
        assert "entry effect" not in st.describe_action(a)


# -- SB-11.10 teams ------------------------------------------------------------------------------
def test_sb_11_10_teammates_are_not_attacked_and_win_together():
    st = position(
        [["Core:5"], ["Core:1"], ["Core:3"], ["?Core:2"]],
        teams=True,
    )
    assert {a.target for a in st.legal_actions() if a.kind == "attack"} == {1, 3}
    st.staks[3] = []
    st.alive[3] = False
    events = do(st, "attack", target=1)
    over = [e for e in events if e["type"] == "game_over"][0]
    assert over["winners"] == [0, 2] and over.get("team")
    assert st.returns() == [0.5, 0.0, 0.5, 0.0]
    text = " ".join(st.game.narrate(events, None, ["Ada", "Bo", "Cy", "Di"]))
    assert "Ada and Cy win together" in text


# -- SB-11.12 several staks per seat ------------------------------------------------------------
def test_sb_11_12_several_staks_per_seat_are_dealt_with_their_default_sizes():
    st = game(2, staks=2).new_initial_state(1)
    assert [len(s) for s in st.staks] == [9, 9, 9, 9]
    st = game(3, staks=2).new_initial_state(1)
    assert [len(s) for s in st.staks] == [5] * 6
    st = game(4, staks=3).new_initial_state(1)  # the deck cannot deal 5 each: 4 each
    assert [len(s) for s in st.staks] == [4] * 12
    assert all(st.vis[s[-1]] == 1 for s in st.staks)


def test_sb_11_12_each_stak_supplies_one_attacking_card():
    st = position(
        [["Core:7", "Core:1"], ["Core:6"], ["Core:7", "Core:7", "Core:1"], ["Core:5"]],
        per_seat=2,
    )
    do(st, "attack", target=1, target_stak=0, own_stak=0)  # 1 against 1: both scrapped
    attacks = {(a.target_stak, a.own_stak) for a in st.legal_actions() if a.kind == "attack"}
    assert attacks == {(0, 1), (1, 1)}  # the first stak's new top may not attack; the second may
    events = do(st, "attack", target=1, target_stak=1, own_stak=1)
    attack = [e for e in events if e["type"] == "attack"][0]
    assert (attack["stak"], attack["target_stak"]) == (1, 1)
    text = " ".join(st.game.narrate(events, None, ["Ada", "Bo"]))
    assert "Ada's Core Bot (power 6) from their second stak attacks Bo's Core Bot" in text


def test_sb_11_12_a_seat_is_out_only_when_every_stak_is_empty():
    st = position(
        [["Core:5"], ["Core:6"], ["Core:7"], ["Core:1"]],
        hands=[["Core:2"], []],
        per_seat=2,
    )
    events = do(st, "attack", target=1, target_stak=0, own_stak=0)  # 5 against 7: 5 scrapped
    assert st.staks[0] == [] and st.alive[0] and "seat_out" not in types(events)
    legal = st.legal_actions()
    assert {(a.seat, a.stak) for a in legal if a.kind == "play"} == {(-1, 1)}
    assert all(a.own_stak == 1 for a in legal if a.kind == "attack")
    st.apply_action(
        next(a for a in legal if a.kind == "attack" and a.target_stak == 0)
    )  # 6 against 7: scrapped, and seat 1 has no stak left
    assert not st.alive[0] and st.returns() == [0.0, 1.0]


def test_sb_11_12_effects_choose_cards_on_any_stak():
    st = position(
        [["Core:5"], ["Core:6"], ["Core:7"], ["Core:1"]],
        hands=[["Reaper"], []],
        per_seat=2,
    )
    do(st, "play", seat=-1, stak=1)
    targets = {(a.seat, a.stak) for a in st.legal_actions()}
    assert targets == {(0, 0), (1, 0), (1, 1)}  # "another top card": not the Reaper itself
    events = do(st, "target", seat=1, stak=1)
    assert st.staks[3] == [] and "seat_out" not in types(events)


# -- SB-11.13 the club tournament preset ---------------------------------------------------------
def test_sb_11_13_club_preset_plays_the_club_format():
    g = game(2, preset="club")
    for name, value in {
        "staks": 2,
        "stak_size": 9,
        "hand_size": 3,
        "reactive": True,
        "setup_effects": True,
        "skip_first_draw": True,
    }.items():
        assert g.options[name] == value
    st = g.new_initial_state(5)
    assert [len(s) for s in st.staks] == [9, 9, 9, 9]
    events = st.opening_events()
    while st.turn == 0:  # the setup chain's choices
        events += st.apply_action(st.legal_actions()[0])
    assert {"type": "draw_skipped", "seat": 0, "why": "first_turn"} in events


@pytest.mark.parametrize(
    ("n", "options", "words"),
    [
        (3, {}, "a duel, 2 seats"),
        (2, {"staks": 3}, "option 'staks': the club format plays staks=2"),
        (2, {"quickfire": True}, "plays quickfire=false"),
    ],
)
def test_sb_11_13_club_preset_refuses_what_the_format_does_not_play(n, options, words):
    with pytest.raises(OptionError, match=words):
        game(n, preset="club", **options)


def test_sb_11_13_club_preset_takes_options_left_at_their_defaults():
    """The web lobby sends every checkbox: options at their defaults give way to the format."""
    g = game(2, preset="club", reactive=False, staks=1, traitor=False)
    assert g.options["reactive"] is True and g.options["staks"] == 2


def _deck_file(tmp_path, cards: list[tuple[str, int, int, int]]) -> str:
    text = "".join(
        f'[[cards]]\nbot = "{bot}"\npower = {power}\nrank = {rank}\ncopies = {copies}\n\n'
        for bot, power, rank, copies in cards
    )
    path = tmp_path / "deck.toml"
    path.write_text(text)
    return str(path)


def test_sb_11_13_club_preset_checks_the_deck_building_limits(tmp_path):
    legal = [("Core", r, r, 5) for r in range(1, 7)] + [("Shot", 0, r, 5) for r in range(1, 7)]
    assert game(2, preset="club", cards=_deck_file(tmp_path, legal)).deck
    too_many = [("Core", r, r, 10 if r == 1 else 5) for r in range(1, 7)]
    too_many += [("Shot", 0, r, 5) for r in range(2, 7)]
    with pytest.raises(ContentError, match="allows 5 copies of a card, and Core Bot"):
        game(2, preset="club", cards=_deck_file(tmp_path, too_many))
    short = [("Core", r, r, 5) for r in range(1, 7)]
    with pytest.raises(ContentError, match="10 cards of each rank 1-6, and rank 1 has 5"):
        game(2, preset="club", cards=_deck_file(tmp_path, short))


# -- SB-11.14 Drone Mode -------------------------------------------------------------------------
def _drone_position(player, drones, hands=None, supply_top=None, **options):
    """One seat's staks then the Drone's, as `position` lists them."""
    g = robotable.load_game(
        "stakbots", num_players=1, drones=len(drones), cards=RULES_DECK, **options
    )
    return position([*player, *drones], hands=hands, supply_top=supply_top, g=g)


def test_sb_11_14_one_seat_plays_the_drone_which_never_decides():
    g = game(1)
    assert g.options["drones"] == 1 and g.num_players == 1
    st = g.new_initial_state(3)
    assert len(st.staks) == 2 and st.view(0)["drone"]["staks"][0]["size"] == 9
    rng = random.Random(3)
    while not st.is_terminal():
        assert st.current_player() == 0
        st.apply_action(rng.choice(st.legal_actions()))
    assert st.end_reason in ("drone_wins", "drone_cleared", "wipe_out_draw", "turn_cap")
    assert game().num_players == 2  # two seats unless one is asked for


def test_sb_11_14_the_drone_plays_the_supply_top_then_attacks_the_weakest_top_card():
    st = _drone_position(
        [["Core:1", "Core:7"]],
        [["Core:2", "Core:3"], ["Core:1"]],
        supply_top=["Core:5", "Core:4"],
    )
    st.fed = True
    events = do(st, "end_turn")
    played = [e for e in events if e["type"] == "played"][0]
    assert (played["seat"], played["stak"], played["power"]) == (1, 1, 5)  # the shortest stak
    attacks = [e for e in events if e["type"] == "attack"]
    assert [(a["stak"], a["power"]) for a in attacks] == [(0, 3), (1, 5)]
    assert st.current_player() == 0 and st.active == 0 and st.turn == 3


def test_sb_11_14_the_drones_entry_effects_choose_by_the_fixed_rule():
    st = _drone_position(
        [["Core:2"]],
        [["Core:1", "Core:1"]],
        hands=[["Core:6"]],
        supply_top=["Reaper"],
    )
    do(st, "play", name="Core Bot")  # the player's strongest top card: power 6
    st.fed = True
    events = do(st, "end_turn")
    reaped = [e for e in events if e["type"] == "reaped"][0]
    assert reaped["target_seat"] == 0 and reaped["target_power"] == 6


def test_sb_11_14_the_player_wins_by_emptying_every_drone_stak():
    st = _drone_position([["Core:7"]], [["Core:1"], ["Core:2"]])
    do(st, "attack", target=1, target_stak=0)
    assert not st.is_terminal()  # one Drone stak is empty, the other is not
    events = do(st, "attack", target=1, target_stak=1)  # the same card attacks again
    assert st.returns() == [1.0] and st.end_reason == "drone_cleared"
    assert "You win" in " ".join(st.game.narrate(events, 0))


def test_sb_11_14_drone_mode_is_solo_and_plays_the_base_rules():
    with pytest.raises(OptionError, match="Drone Mode is solo"):
        game(2, drones=1)
    with pytest.raises(OptionError, match="one seat plays Drone Mode"):
        game(1, drones=0)
    with pytest.raises(OptionError, match="base rules"):
        game(1, borderless="on")


def test_a_state_saved_before_the_modes_still_loads():
    g = game(2)
    st = g.new_initial_state(4)
    old = st.to_json()
    for name in ("n_attacks", "declared", "stomp_from"):
        del old[name]
    old["attacker"] = -1
    old["stopped"] = False
    old["options"] = {
        k: old["options"][k] for k in ("stak_size", "hand_size", "cards", "max_turns")
    }
    back = g.state_from_json(old)
    assert back.to_json() == st.to_json()


# -- SB-11.11 combinations refused ---------------------------------------------------------------
@pytest.mark.parametrize(
    ("n", "options", "words"),
    [
        (2, {"teams": True}, "teams need 4 seats"),
        (2, {"borderless": "team"}, "teams=true"),
        (3, {"traitor": True, "borderless": "on"}, "traitor"),
        (2, {"borderless": "sideways"}, "borderless"),
    ],
)
def test_sb_11_11_combinations_the_rules_do_not_allow_are_refused(n, options, words):
    with pytest.raises(OptionError, match=words) as info:
        game(n, **options)
    assert "\n" not in str(info.value)


# -- every mode: the contract, no leaks, words for every choice ----------------------------------
@pytest.mark.parametrize(("n", "options"), MODES, ids=MODE_IDS)
@settings(max_examples=3, deadline=None)
@given(seed=seeds, choice_seed=seeds)
def test_every_mode_keeps_the_protocol_contract(n, options, seed, choice_seed):
    g = robotable.load_game("stakbots", num_players=n, **options)
    check_random_game(g, seed=seed, choice_seed=choice_seed, max_steps=250, every=3)


@pytest.mark.parametrize(("n", "options"), MODES, ids=MODE_IDS)
@settings(max_examples=3, deadline=None)
@given(seed=seeds, choice_seed=seeds)
def test_every_mode_leaks_nothing_and_words_every_choice(n, options, seed, choice_seed):
    g = robotable.load_game("stakbots", num_players=n, **options)
    st = g.new_initial_state(seed)
    rng = random.Random(choice_seed)
    steps = 0
    while not st.is_terminal() and steps < 400:
        legal = st.legal_actions()
        if rng.random() < 0.3:
            for seat in range(n):
                v = st.view(seat)
                json.dumps(v)
                assert not ids_in(v) & hidden_ids(st, seat)
                assert st.determinize(seat, rng).view(seat) == v
            for a in legal:
                words = st.describe_action(a)
                assert words and "{" not in words and "#" not in words
        a = rng.choice(legal)
        before = st.clone()
        with pytest.raises(IllegalAction):
            st.apply_action(_illegal(g, legal))
        assert st.to_json() == before.to_json()
        events = st.apply_action(a)
        for line in g.narrate(events, None):
            assert line and "{" not in line
        steps += 1


@pytest.mark.parametrize("level", ["easy", "medium", "hard", "expert"])
def test_every_named_strength_plays_every_mode(level):
    """Each named strength's agent plays in every mode: easy and medium whole games; hard and
    expert (MCTS, timed) their search on a test budget, a few decisions each."""
    from robotable.agents import concrete_spec, make_agent

    spec = concrete_spec(level, "stakbots")
    searching = spec.startswith("mcts")
    if searching:
        spec = "mcts:iterations=12"  # the same search, a budget for a test
    for n, options in MODES:
        g = robotable.load_game("stakbots", num_players=n, **options)
        st = g.new_initial_state(9)
        agents = [make_agent(spec, seed=s) for s in range(n)]
        moves = 0
        while not st.is_terminal() and (moves < 6 or not searching) and moves < 3000:
            action = agents[st.current_player()].act(st)
            assert action in st.legal_actions()
            st.apply_action(action)
            moves += 1
        assert moves >= 1


def _illegal(g, legal):
    """An action of this game that is not legal now."""
    for a in (g.end_a, g.play_a[0], g.attack_a[0], g.recycle_a[0]):
        if a not in legal:
            return a
    raise AssertionError("every probe action is legal")


def test_sb_11_10_the_lab_counts_a_team_win_for_both_seats_not_as_a_draw(tmp_path):
    from robotable.sim.analysis import summarize
    from robotable.sim.runner import RunSpec, Variant, run

    spec = RunSpec(
        "stakbots",
        4,
        ("greedy",),
        games=8,
        seed=1,
        variants=(Variant(0, "teams", (("teams", True),)),),
        error_dir=str(tmp_path),
        track_cards=False,
    )
    outcome = run(spec, workers=1)
    results = outcome.results
    s = summarize(outcome)
    decided = [r for r in results if r.decisive()]
    assert decided and all(len(r.winners()) == 2 for r in decided)
    assert s["draws"] == sum(r.is_draw() for r in results)
    assert sum(s["wins"]) == 2 * len(decided)
    assert s["quality"]["end_reason"]["counts"]["win"] == len(decided)
    assert s["first_mover"]["fair_share"] <= 0.5 and s["first_mover"]["fair_share"] > 0.4
