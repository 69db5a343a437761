"""One test (or more) per numbered rule of docs/rules/breadwinner.md (BW-x.y) and its rulings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import robotable
from robotable.core.errors import IllegalAction, OptionError
from robotable.games.breadwinner.board import ADJACENT, TILE_INDEX, TILE_NAMES
from robotable.games.breadwinner.content import load_crop_values
from robotable.games.breadwinner.rules import Phase

from .bw_setup import die, labels, play, position, where

END_MAP = "done with the map bots (go to step 2, deploy)"
END_DEPLOY = "done deploying (go to step 3, build)"
END_BUILD = "done building (go to step 4, deactivate)"
END_TURN = "end the turn"


# -- BW-1 components -------------------------------------------------------------------------
def test_bw_1_1_components_at_setup():
    game = robotable.load_game("breadwinner")
    st = game.new_initial_state(3)
    assert len(st.loc) == 16 and all(loc == -1 for loc in st.loc)
    assert st.centre == 12 and st.loaves == [0, 0]
    assert sorted(st.pile) == list(range(10)) and st.discards == []
    assert not any(st.poison)
    assert game.crop_values == (1, 2, 2, 3, 3, 3, 4, 4, 5, 5)  # ruling BW-R6
    view = st.view(0)
    assert view["poison_supply"] == 4 and view["crop_pile"] == 10
    assert [f["number"] for f in view["seats"][0]["factories"]] == [1, 2, 3, 4]


def test_bw_1_1_crop_values_option_and_file(tmp_path: Path):
    game = robotable.load_game("breadwinner", crop_values="1,2,3,4,5,1,2,3,4,5")
    assert game.crop_values == (1, 2, 3, 4, 5, 1, 2, 3, 4, 5)
    assert game.options["crop_values"] == game.crop_values
    with pytest.raises(OptionError, match="crop_values.*10 values"):
        robotable.load_game("breadwinner", crop_values=[1, 2, 3])
    with pytest.raises(OptionError, match="integer 1-12"):
        robotable.load_game("breadwinner", crop_values=[0] * 10)
    good = tmp_path / "flat.toml"
    good.write_text('[[chip]]\nname = "two"\nvalue = 2\ncount = 10\n')
    assert robotable.load_game("breadwinner", crop_file=str(good)).crop_values == (2,) * 10
    bad = tmp_path / "bad.toml"
    bad.write_text('[[chip]]\nname = "nine"\nvalue = "nine"\ncount = 10\n')
    with pytest.raises(OptionError, match=r"bad.toml, chip 'nine': value"):
        robotable.load_game("breadwinner", crop_file=str(bad))
    short = tmp_path / "short.toml"
    short.write_text('[[chip]]\nname = "two"\nvalue = 2\ncount = 9\n')
    with pytest.raises(OptionError, match="add up to 9"):
        robotable.load_game("breadwinner", crop_file=str(short))
    assert load_crop_values() == (1, 2, 2, 3, 3, 3, 4, 4, 5, 5)


def test_bw_1_2_die_faces_and_roll():
    st = robotable.load_game("breadwinner").new_initial_state(11)
    assert st.phase == Phase.BUILD and sum(st.roll) == 8  # every die of the pile is rolled
    view = st.view(st.seat)
    assert set(view["roll"]) == {"Drone", "Harvester", "Locust", "Soldier", "Shield", "R&D"}
    assert [t["name"] for t in view["bot_types"]] == [
        "Drone",
        "Harvester",
        "Locust",
        "Soldier",
        "Shield",
        "R&D",
    ]


# -- BW-2 winning and the stalemate ruling ---------------------------------------------------
def test_bw_2_1_all_loaves_win_at_once():
    st = position(bots=[("A2", "Harvester", "L1a", 3)], loaves=(10, 2))
    st.centre = 0
    play(st, "Harvester A2 L1a -> D_A (home)")
    events = play(st, "Harvester A2 on D_A (home): unload the harvest")
    assert st.loaves == [12, 0] and st.is_terminal()
    assert st.returns() == [1.0, 0.0] and st.stats()["end_reason"] == "all_loaves"
    assert any(e["type"] == "game_over" for e in events)
    assert st.legal_actions() == []


def _end_turns(st, count):
    for _ in range(count):
        while not st.is_terminal() and END_TURN not in labels(st):
            ends = [a for a in st.legal_actions() if a.kind in ("end", "hold")]
            st.apply_action(ends[0])
        if st.is_terminal():
            return
        play(st, END_TURN)


@pytest.mark.parametrize(
    ("loaves", "stalemate", "returns", "reason"),
    [
        ((3, 1), "most_loaves", [1.0, 0.0], "turn_cap_most_loaves"),
        ((2, 2), "most_loaves", [0.5, 0.5], "turn_cap_draw"),
        ((3, 1), "draw", [0.5, 0.5], "turn_cap_draw"),
    ],
)
def test_bw_2_2_turn_cap_stalemate(loaves, stalemate, returns, reason):
    st = position(
        bots=[("A1", "Soldier", "f1")], loaves=loaves, max_turns=3, stalemate=stalemate, turn=3
    )
    _end_turns(st, 3)
    assert st.is_terminal() and st.turn == 6
    assert st.returns() == returns and st.stats()["end_reason"] == reason


def test_bw_2_2_default_cap_ends_random_games():
    game = robotable.load_game("breadwinner", max_turns=8)
    import random

    rng = random.Random(4)
    st = game.new_initial_state(4)
    while not st.is_terminal():
        legal = st.legal_actions()
        st.apply_action(legal[rng.randrange(len(legal))])
    assert st.turn <= 16 and st.stats()["end_reason"] is not None
    assert robotable.load_game("breadwinner").options["max_turns"] == 60


# -- BW-3 setup --------------------------------------------------------------------------------
def test_bw_3_1_first_player_random_or_chosen():
    firsts = {robotable.load_game("breadwinner").new_initial_state(s).seat for s in range(12)}
    assert firsts == {0, 1}
    st = robotable.load_game("breadwinner", first_player="seat1").new_initial_state(0)
    assert st.current_player() == 1 and st.stats()["first_player"] == 1


def test_bw_3_3_second_player_head_start_loaves():
    """Ruling BW-R19: the second player takes its loaves from the centre before the first turn,
    and the log says so; off by default."""
    plain = robotable.load_game("breadwinner", first_player="seat1").new_initial_state(0)
    assert plain.loaves == [0, 0] and plain.centre == 12
    g = robotable.load_game("breadwinner", first_player="seat1", second_player_loaves=2)
    st = g.new_initial_state(0)
    assert st.loaves == [2, 0] and st.centre == 10 and st.current_player() == 1
    (head,) = [e for e in st.opening_events() if e["type"] == "head_start"]
    assert head == {"type": "head_start", "seat": 0, "loaves": 2, "centre": 10}
    assert g.narrate([head], None, ["Ada", "Bo"]) == [
        "Ada takes 2 loaves from the centre for moving second (10 loaves left there)."
    ]
    assert g.narrate([head], 0, ["Ada", "Bo"])[0].startswith("You take 2 loaves")
    # a saved state still holds 12 loaves in all
    assert g.state_from_json(st.to_json()).loaves == [2, 0]
    with pytest.raises(OptionError, match="second_player_loaves"):
        robotable.load_game("breadwinner", second_player_loaves=4)


def test_bw_3_4_first_turn_bots_cap():
    """Ruling BW-R20: the first player builds at most N bots on its first turn (2 by default),
    the log says so before the roll, and the second player's first turn and every later build
    are not capped."""
    g = robotable.load_game("breadwinner", first_player="seat0")
    assert g.options["first_turn_bots"] == 2
    st = g.new_initial_state(3)
    (cap,) = [e for e in st.opening_events() if e["type"] == "first_turn_limit"]
    assert cap == {"type": "first_turn_limit", "seat": 0, "bots": 2}
    assert g.narrate([cap], None, ["Ada", "Bo"]) == [
        "Ada may build at most 2 bots on this first turn, for moving first."
    ]
    built = 0
    while st.current_player() == 0:
        builds = [a for a in st.legal_actions() if type(a).__name__ in ("Build", "Research")]
        assert builds or built == 2
        st.apply_action(builds[0] if builds else st.legal_actions()[-1])
        built += bool(builds)
    assert built == 2 and sum(1 for d in range(8) if st.loc[d] >= 0) == 2
    assert st.turn == 2
    while st.current_player() == 1:  # the second player fills every factory it can
        builds = [a for a in st.legal_actions() if type(a).__name__ in ("Build", "Research")]
        st.apply_action(builds[0] if builds else st.legal_actions()[-1])
    assert sum(1 for d in range(8, 16) if st.loc[d] >= 0) > 2
    rulebook = robotable.load_game("breadwinner", first_player="seat0", first_turn_bots=4)
    plain = rulebook.new_initial_state(3)
    assert not [e for e in plain.opening_events() if e["type"] == "first_turn_limit"]
    with pytest.raises(OptionError, match="first_turn_bots"):
        robotable.load_game("breadwinner", first_turn_bots=0)


def test_bw_3_2_map_adjacency_is_orthogonal():
    assert {TILE_NAMES[n] for n in ADJACENT[TILE_INDEX["L1a"]]} == {"D_A", "L1b", "L2a"}
    assert {TILE_NAMES[n] for n in ADJACENT[TILE_INDEX["D_B"]]} == {"L2a", "L2b"}
    for tile, neighbours in enumerate(ADJACENT):
        for n in neighbours:
            assert tile in ADJACENT[n]
    st = position(bots=[("A1", "Soldier", "L1a")])
    moves = [label for label in labels(st) if "->" in label]
    assert moves == [
        "Soldier A1 L1a -> D_A (home)",
        "Soldier A1 L1a -> L1b",
        "Soldier A1 L1a -> L2a",
    ]


# -- BW-4 turn order ---------------------------------------------------------------------------
def test_bw_4_1_first_turn_builds_only_and_second_seat_sees_it():
    st = robotable.load_game("breadwinner", first_player="seat0").new_initial_state(5)
    assert st.phase == Phase.BUILD and st.turn == 1
    kinds = {a.kind for a in st.legal_actions()}
    assert kinds <= {"build", "research", "end"}
    assert END_TURN in labels(st)
    build = next(a for a in st.legal_actions() if a.kind == "build")
    st.apply_action(build)
    while st.seat == 0:
        st.apply_action(next(a for a in st.legal_actions() if a.kind == "end"))
    assert st.turn == 2 and st.phase == Phase.BUILD  # seat B's first turn: building only
    built = st.view(1)["seats"][0]["factories"][build.factory - 1]["bot"]
    assert built["type"] == build.bot  # B sees A's placement
    st.apply_action(next(a for a in st.legal_actions() if a.kind == "end"))
    assert st.turn == 3 and st.seat == 0 and st.phase == Phase.DEPLOY  # no map bots yet


def test_bw_4_2_steps_in_fixed_order():
    st = position(bots=[("A1", "Soldier", "L1a"), ("A2", "Drone", "f2")], seed=3)
    assert st.phase == Phase.MAP
    play(st, END_MAP)
    assert st.phase == Phase.DEPLOY
    play(st, END_DEPLOY)
    assert st.phase == Phase.BUILD and st.roll is not None and sum(st.roll) == 6
    play(st, END_BUILD)
    assert st.phase == Phase.DEACT
    assert all(a.kind in ("deactivate", "end") for a in st.legal_actions())
    play(st, END_TURN)
    assert st.seat == 1 and st.turn == 6


def test_bw_4_3_deploying_ends_the_map_step():
    st = position(bots=[("A1", "Soldier", "L1a"), ("A2", "Drone", "f2")])
    play(st, END_MAP)
    play(st, "Drone A2 factory 2 -> L1b")
    assert not any(a.kind in ("move", "act") for a in st.legal_actions())
    with pytest.raises(IllegalAction):
        st.apply_action(
            robotable.load_game("breadwinner").action_from_json(
                {"type": "move", "die": 0, "bot": "Soldier", "frm": "L1a", "to": "L2a"}
            )
        )


def test_bw_4_2_empty_steps_are_skipped():
    st = position(bots=[("A1", "Shield", "f1")], seed=2)
    play(st, END_MAP) if st.phase == Phase.MAP else None
    assert st.phase == Phase.DEPLOY  # no map bots: step 1 offers nothing
    st2 = position(bots=[])
    st2.phase = Phase.MAP
    from .bw_setup import advance

    advance(st2)
    assert st2.phase == Phase.BUILD  # nothing on the map nor in a factory


# -- BW-5 the steps ----------------------------------------------------------------------------
def test_bw_5_1_each_map_bot_moves_or_acts_once():
    st = position(bots=[("A1", "Drone", "L1a"), ("A2", "Soldier", "D_A")])
    assert "Drone A1 on L1a: plant a crop" in labels(st)
    play(st, "Drone A1 L1a -> L2a")
    assert not any(a.die == die("A1") for a in st.legal_actions() if hasattr(a, "die"))
    play(st, "Soldier A2 D_A -> L1b")
    assert st.phase != Phase.MAP  # every map bot is used: step 1 is over (BW-4.2)


def test_bw_5_1_move_limits_two_bots_and_rival_shield():
    st = position(
        bots=[
            ("A1", "Locust", "L1a"),
            ("A2", "Drone", "L2a"),
            ("B1", "Drone", "L2a"),
            ("B2", "Shield", "L1b"),
        ]
    )
    moves = [label for label in labels(st) if label.startswith("Locust A1 L1a ->")]
    assert moves == ["Locust A1 L1a -> D_A (home)"]


def test_bw_5_1_offensive_action_or_unload_may_follow_a_move():
    st = position(bots=[("A1", "Locust", "L1a"), ("B1", "Harvester", "L2a", 2)])
    play(st, "Locust A1 L1a -> L2a")
    assert st.phase == Phase.FOLLOW
    assert labels(st) == [
        "Locust A1 on L2a: poison the land",
        "Locust A1 on L2a: meltdown Harvester B1",
        "Locust A1 on L2a: no action",
    ]
    play(st, "Locust A1 on L2a: no action")
    assert st.phase != Phase.FOLLOW
    # A Drone's and a Harvester's own actions do not follow a move (ruling BW-R9).
    st = position(bots=[("A1", "Drone", "D_A"), ("A2", "Harvester", "D_A")], crops={"L1a": 2})
    play(st, "Drone A1 D_A -> L1b")
    assert st.phase == Phase.MAP
    play(st, "Harvester A2 D_A -> L1a")
    assert st.phase not in (Phase.MAP, Phase.FOLLOW) and st.carry[die("A2")] == -1


def test_bw_5_2_factory_number_bounds_the_path():
    bots = [("A1", "Drone", "f1"), ("A2", "Soldier", "f2"), ("A3", "Locust", "f3")]
    st = position(bots=[*bots, ("A4", "Harvester", "f4")], phase=Phase.DEPLOY)

    def stops(name):
        return sorted(a.to for a in st.legal_actions() if a.kind == "deploy" and a.die == die(name))

    assert stops("A1") == ["D_A"]
    assert stops("A2") == ["D_A", "L1a", "L1b"]
    assert stops("A3") == ["D_A", "L1a", "L1b", "L2a", "L2b"]
    assert stops("A4") == ["D_A", "D_B", "L1a", "L1b", "L2a", "L2b"]
    assert "Harvester A4 factory 4 -> D_B (rival)" in labels(st)


def test_bw_5_2_pass_through_friendly_full_tiles_only():
    full_home = [("A5", "Drone", "D_A"), ("A6", "Drone", "D_A")]
    st = position(bots=[*full_home, ("A1", "Soldier", "f2")], phase=Phase.DEPLOY)
    stops = sorted(a.to for a in st.legal_actions() if a.kind == "deploy")
    assert stops == ["L1a", "L1b"]  # passes the full home tile, cannot stop there
    rival_in = [("A5", "Drone", "D_A"), ("B1", "Drone", "D_A")]
    st = position(bots=[*rival_in, ("A1", "Soldier", "f4")], phase=Phase.DEPLOY)
    assert not any(a.kind == "deploy" for a in st.legal_actions())  # two bots with a rival
    shielded = [("B1", "Shield", "L1a"), ("B2", "Shield", "L1b")]
    st = position(bots=[*shielded, ("A1", "Soldier", "f4")], phase=Phase.DEPLOY)
    assert sorted(a.to for a in st.legal_actions() if a.kind == "deploy") == ["D_A"]
    # Ruling BW-R3: one rival (non-Shield) bot does not block passage.
    st = position(
        bots=[("B1", "Drone", "L1a"), ("B2", "Drone", "L1b"), ("A1", "Soldier", "f3")],
        phase=Phase.DEPLOY,
    )
    assert sorted(a.to for a in st.legal_actions() if a.kind == "deploy") == [
        "D_A",
        "L1a",
        "L1b",
        "L2a",
        "L2b",
    ]


def test_bw_5_2_bot_may_stay_in_its_factory():
    st = position(bots=[("A1", "Soldier", "f2")], phase=Phase.DEPLOY, seed=9)
    play(st, END_DEPLOY)
    assert where(st, "A1") == "factory 2"


def test_bw_5_3_build_on_empty_factories_only():
    st = position(
        bots=[("A1", "Soldier", "f1"), ("A2", "Soldier", "f3")],
        phase=Phase.BUILD,
        roll=[1, 2, 0, 0, 0, 3],
    )
    builds = labels(st)
    assert "build Drone on factory 2" in builds and "build Harvester on factory 4" in builds
    assert not any("factory 1" in b or "factory 3" in b for b in builds)
    assert not any("Locust" in b for b in builds if b.startswith("build"))
    play(st, "build Harvester on factory 2")
    assert st.roll == [1, 1, 0, 0, 0, 3]
    play(st, END_BUILD)
    assert sum(1 for d in range(8) if st.loc[d] == -1) == 5  # unplaced dice stay in the pile


def test_bw_5_4_research_and_development():
    st = position(phase=Phase.BUILD, roll=[0, 0, 0, 0, 0, 2])
    assert labels(st) == [END_BUILD]  # R&D cannot be built; two are not enough
    st = position(phase=Phase.BUILD, roll=[0, 0, 0, 0, 0, 4])
    play(st, "R&D (spend three): build Shield on factory 4")
    # ruling BW-R16: 4 R&D buy one bot; the spare R&D leaves nothing to build, step 3 ends.
    assert where(st, "A1") == "factory 4" and st.phase == Phase.DEACT
    st = position(phase=Phase.BUILD, roll=[0, 0, 0, 0, 0, 6])
    play(st, "R&D (spend three): build Shield on factory 4")
    play(st, "R&D (spend three): build Locust on factory 1")
    assert st.stats()["research_builds"] == [2, 0]
    assert where(st, "A1") == "factory 4" and where(st, "A2") == "factory 1"


def test_bw_5_5_deactivate_own_bots():
    st = position(
        bots=[("A1", "Shield", "L1a"), ("A2", "Drone", "f2"), ("B1", "Drone", "L2a")],
        phase=Phase.DEACT,
    )
    assert labels(st) == [
        "deactivate Shield A1 on L1a",
        "deactivate Drone A2 on factory 2",
        END_TURN,
    ]
    play(st, "deactivate Drone A2 on factory 2")
    assert where(st, "A2") == "pile" and st.face[die("A2")] == 0


def test_bw_5_6_deployed_bots_act_next_turn_unless_option():
    bots = [("A1", "Locust", "f2"), ("B1", "Harvester", "L1a")]
    st = position(bots=bots, phase=Phase.DEPLOY)
    play(st, "Locust A1 factory 2 -> L1a")
    assert st.phase != Phase.FOLLOW and where(st, "B1") == "L1a"
    st = position(bots=bots, phase=Phase.DEPLOY, act_after_deploy=True)
    play(st, "Locust A1 factory 2 -> L1a")
    assert st.phase == Phase.FOLLOW
    play(st, "Locust A1 on L1a: meltdown Harvester B1")
    assert where(st, "B1") == "pile" and st.phase != Phase.FOLLOW


# -- BW-6 occupancy and Shields ----------------------------------------------------------------
def test_bw_6_1_one_bot_per_factory_two_per_tile():
    st = position(bots=[("A1", "Drone", "L1a"), ("A2", "Drone", "L1a"), ("A3", "Drone", "L1b")])
    assert "Drone A3 L1b -> L1a" not in labels(st)
    st = position(bots=[("A1", "Drone", "f1")], phase=Phase.BUILD, roll=[3, 0, 0, 0, 0, 0])
    assert not any("factory 1" in label for label in labels(st))


def test_bw_6_2_shield_movement_limits_and_protection():
    st = position(
        bots=[
            ("A1", "Shield", "L1a"),
            ("A2", "Shield", "L1b"),
            ("B1", "Drone", "L2a"),
        ]
    )
    shield_moves = [label for label in labels(st) if label.startswith("Shield A1")]
    assert shield_moves == ["Shield A1 L1a -> D_A (home)"]  # not L1b (friendly Shield), not L2a
    st = position(bots=[("B1", "Drone", "L2a"), ("A1", "Shield", "L1a")], seat=1)
    assert "Drone B1 L2a -> L1a" not in labels(st)  # rival Shield guards L1a


# -- BW-7 abilities ----------------------------------------------------------------------------
def test_bw_7_1_plant_face_down():
    st = position(bots=[("A1", "Drone", "L1a"), ("A2", "Drone", "D_A")])
    assert not any("A2" in label and "plant" in label for label in labels(st))  # Delivery
    events = play(st, "Drone A1 on L1a: plant a crop")
    assert st.crop[TILE_INDEX["L1a"]] >= 0 and not st.known[TILE_INDEX["L1a"]]
    assert where(st, "A1") == "pile" and len(st.pile) == 9
    assert all("value" not in e for e in events)  # nobody learns the value (ruling BW-R5)
    assert st.view(0)["tiles"][1]["crop"] == {"face_down": True, "value": None}


def test_bw_7_1_plant_rules_poison_planted_and_reshuffle():
    st = position(bots=[("A1", "Drone", "L1a")], crops={"L1a": 2})
    assert not any("plant" in label for label in labels(st))
    st = position(bots=[("A1", "Drone", "L1a")], poison=("L1a",))
    assert not any("plant" in label for label in labels(st))  # ruling BW-R7
    st = position(bots=[("A1", "Drone", "L1a")])
    st.discards, st.pile = st.pile, []
    events = play(st, "Drone A1 on L1a: plant a crop")
    assert any(e["type"] == "crops_reshuffled" for e in events)
    assert len(st.pile) == 9 and st.discards == []
    # Ruling BW-R8: with every chip planted or carried there is nothing to draw: no planting.
    # Every chip of the bundled set: seven carried, three planted.
    chips = load_crop_values()
    places = [("B1", "D_B"), ("B2", "D_B"), ("B3", "L2a"), ("B4", "L2a"), ("B5", "L2b")]
    places += [("B6", "L2b"), ("B7", "D_A")]
    carriers = [(n, "Harvester", t, v) for (n, t), v in zip(places, chips[:7], strict=True)]
    st = position(
        bots=[("A1", "Drone", "L1a"), *carriers],
        crops=dict(zip(("L1b", "L2a", "L2b"), chips[7:], strict=True)),
    )
    assert st.pile == [] and st.discards == []
    assert not any("plant" in label for label in labels(st))


def test_bw_7_2_restore_the_soil():
    st = position(bots=[("A1", "Drone", "L2b")], poison=("L2b",))
    play(st, "Drone A1 on L2b: restore the soil")
    assert not st.poison[TILE_INDEX["L2b"]] and where(st, "A1") == "pile"
    assert st.view(1)["poison_supply"] == 4


def test_bw_7_3_harvest_turns_the_chip_face_up():
    st = position(bots=[("A1", "Harvester", "L1b")], crops={"L1b": 4})
    events = play(st, "Harvester A1 on L1b: harvest the crop")
    assert st.crop[TILE_INDEX["L1b"]] == -1 and st.game.crop_values[st.carry[die("A1")]] == 4
    assert events[0]["value"] == 4
    assert st.view(1)["tiles"][2]["bots"][0]["carrying"] == 4
    assert not any("A1" in label for label in labels(st))  # it acted: done this turn


def test_bw_7_4_steal_from_a_carrying_rival_harvester():
    st = position(bots=[("A1", "Harvester", "L2a"), ("B1", "Harvester", "L2a", 5)])
    play(st, "Harvester A1 on L2a: steal the harvest of Harvester B1")
    assert st.carry[die("B1")] == -1 and st.game.crop_values[st.carry[die("A1")]] == 5
    assert where(st, "B1") == "L2a"
    st = position(bots=[("A1", "Harvester", "L2a", 1), ("B1", "Harvester", "L2a", 5)])
    assert not any("steal" in label for label in labels(st))  # already carrying


def test_bw_7_5_unload_centre_then_rival():
    st = position(bots=[("A1", "Harvester", "D_A", 5)], loaves=(4, 6))
    assert st.centre == 2
    events = play(st, "Harvester A1 on D_A (home): unload the harvest")
    assert st.loaves == [9, 3] and st.centre == 0
    assert events[0]["from_centre"] == 2 and events[0]["from_rival"] == 3
    assert where(st, "A1") == "pile" and len(st.discards) == 1
    assert st.view(1)["discarded_harvest"] == [5]


def test_bw_7_5_unload_only_on_own_delivery():
    st = position(bots=[("A1", "Harvester", "L2a", 2)])
    play(st, "Harvester A1 L2a -> D_B (rival)")
    assert st.phase != Phase.FOLLOW  # no unloading on the rival's Delivery
    assert st.carry[die("A1")] >= 0
    st = position(bots=[("A1", "Harvester", "L1a", 2), ("A2", "Drone", "D_A")])
    play(st, "Harvester A1 L1a -> D_A (home)")
    assert labels(st) == [
        "Harvester A1 on D_A (home): unload the harvest",
        "Harvester A1 on D_A (home): no action",
    ]


def test_bw_7_6_poison_land():
    st = position(bots=[("A1", "Locust", "L1a")], crops={"L1a": 3})
    events = play(st, "Locust A1 on L1a: poison the land")
    assert st.poison[TILE_INDEX["L1a"]] and st.crop[TILE_INDEX["L1a"]] == -1  # ruling BW-R7
    assert events[0]["discarded_value"] == 3 and where(st, "A1") == "pile"
    st = position(bots=[("A1", "Locust", "L1a"), ("A2", "Shield", "L1a")])
    assert not any("poison" in label for label in labels(st))  # guarded by a Shield
    st = position(bots=[("A1", "Locust", "D_A")])
    assert not any("poison" in label for label in labels(st))  # Land only
    st = position(bots=[("A1", "Locust", "L1a")], poison=("L1a",))
    assert not any("poison" in label for label in labels(st))
    st = position(bots=[("A1", "Locust", "L1a"), ("A2", "Harvester", "L1a", 2)])
    play(st, "Locust A1 on L1a: poison the land")
    assert st.carry[die("A2")] >= 0  # a Harvester standing there keeps its load


def test_bw_7_7_meltdown_rival_harvester():
    st = position(bots=[("A1", "Locust", "L2b"), ("B1", "Harvester", "L2b", 4)], loaves=(0, 0))
    assert "Locust A1 on L2b: meltdown Harvester B1" in labels(st)
    play(st, "Locust A1 on L2b: meltdown Harvester B1")
    assert where(st, "A1") == "pile" and where(st, "B1") == "pile"
    assert [st.game.crop_values[c] for c in st.discards] == [4]
    st = position(bots=[("A1", "Locust", "L2b"), ("A2", "Harvester", "L2b")])
    assert not any("meltdown" in label for label in labels(st))  # ruling BW-R10


def test_bw_7_8_pulse_adjacent_and_shield_absorbs():
    st = position(
        bots=[
            ("A1", "Soldier", "L1a"),
            ("B1", "Drone", "L2a"),
            ("B2", "Shield", "L1b"),
            ("B3", "Locust", "L1b"),
            ("B4", "Drone", "L2b"),
        ]
    )
    pulses = [label for label in labels(st) if "pulse" in label]
    assert pulses == [
        "Soldier A1 on L1a: pulse Shield B2 on L1b",
        "Soldier A1 on L1a: pulse Drone B1 on L2a",
    ]  # L2b is not adjacent (ruling BW-R11); the Shield absorbs for B3
    play(st, "Soldier A1 on L1a: pulse Shield B2 on L1b")
    assert where(st, "B2") == "pile" and where(st, "B3") == "L1b" and where(st, "A1") == "pile"


@pytest.mark.parametrize(
    ("tile", "crops", "poison", "outcome"),
    [
        ("L2a", {}, (), "dropped"),
        ("L2a", {"L2a": 1}, (), "discarded"),
        ("L2a", {}, ("L2a",), "discarded"),
        ("D_B", {}, (), "discarded"),
    ],
)
def test_bw_7_8_pulsed_harvester_drops_its_harvest(tile, crops, poison, outcome):
    st = position(
        bots=[("A1", "Soldier", "L2b"), ("B1", "Harvester", tile, 5)], crops=crops, poison=poison
    )
    play(st, f"Soldier A1 on L2b: pulse Harvester B1 on {tile}")
    t = TILE_INDEX[tile]
    if outcome == "dropped":
        assert st.game.crop_values[st.crop[t]] == 5 and st.known[t]  # ruling BW-R12
        assert st.view(1)["tiles"][t]["crop"] == {"face_down": True, "value": 5}
    else:
        assert [st.game.crop_values[c] for c in st.discards] == [5]


def test_bw_7_9_deactivated_harvester_discards_its_harvest():
    st = position(bots=[("A1", "Harvester", "L1a", 3)], phase=Phase.DEACT)
    play(st, "deactivate Harvester A1 on L1a")
    assert [st.game.crop_values[c] for c in st.discards] == [3]  # ruling BW-R15


def test_bw_r13_identical_bots_offer_their_choices_once():
    st = position(bots=[("A1", "Drone", "L1a"), ("A2", "Drone", "L1a")])
    assert labels(st).count("Drone A1 on L1a: plant a crop") == 1
    assert not any("A2" in label for label in labels(st))
    play(st, "Drone A1 L1a -> L2a")
    assert "Drone A2 on L1a: plant a crop" in labels(st)


# -- BW-8 hidden information -------------------------------------------------------------------
def test_bw_8_1_face_down_values_hidden_from_both_seats():
    a = position(bots=[("A1", "Harvester", "L2a")], crops={"L1a": 5, "L2b": 1})
    b = position(bots=[("A1", "Harvester", "L2a")], crops={"L1a": 1, "L2b": 5})
    for seat in (0, 1, None):
        assert json.dumps(a.view(seat), sort_keys=True) == json.dumps(b.view(seat), sort_keys=True)
        assert a.game.render(a, seat) == b.game.render(b, seat)
    assert "pile" not in json.dumps(a.view(0)).replace("crop_pile", "").replace('"pile"', "")


def test_bw_8_2_determinize_resamples_only_hidden_chips():
    import random

    st = position(bots=[("A1", "Harvester", "L2a", 4)], crops={"L1a": 5, "L2b": 1}, known=("L2b",))
    values = set()
    for k in range(40):
        twin = st.determinize(0, random.Random(k))
        assert twin.view(0) == st.view(0)
        assert twin.crop[TILE_INDEX["L2b"]] == st.crop[TILE_INDEX["L2b"]]
        assert twin.carry == st.carry
        values.add(twin.game.crop_values[twin.crop[TILE_INDEX["L1a"]]])
        assert sorted(twin.pile + [twin.crop[TILE_INDEX["L1a"]]]) == sorted(
            st.pile + [st.crop[TILE_INDEX["L1a"]]]
        )
    assert len(values) >= 3
