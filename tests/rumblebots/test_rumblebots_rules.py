"""One test (or more) per numbered rule of docs/rules/rumblebots.md."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import robotable
from robotable import ContentError, IllegalAction, OptionError, RecordError
from robotable.games.rumblebots import rules
from robotable.games.rumblebots.actions import (
    BuildLab,
    BuildScanned,
    ChooseFaction,
    ChooseTarget,
    EndTurn,
    EnergizeCryo,
    EnergizeScan,
    EnergizeScrap,
    PassContraption,
    Recycle,
    Upgrade,
    UseContraption,
)
from robotable.games.rumblebots.content import FACTIONS, Keyword
from robotable.games.rumblebots.effects import challenger_winning, clash_numbers, gang_totals
from robotable.games.rumblebots.state import (
    P_ATTACK_WINDOW,
    P_DEFEND_WINDOW,
    P_FACTION,
    P_TARGET_DEFEAT,
)

from .rb_helpers import battle, battle_zone_ids, game, ids_of, names


def kinds(state) -> set[str]:
    return {a.kind for a in state.legal_actions()}


def build_state(n: int = 2, **options):
    """Round 1, seat 0 building (seat 0 holds the Champion token)."""
    g = game(n, first_champion=0, **options)
    s = g.new_initial_state(seed=3)
    return g, s


def touch(s) -> None:
    s._legal = None


def log_kinds(s) -> list[str]:
    return [e[0] for e in s.log_entries()]


# ---------------------------------------------------------------- RB-1 components
def test_rb_1_1_bundled_card_set_counts_and_keywords():
    c = game().content
    starters = [c.cards[ids[0]].name for ids in c.starters]
    assert starters == ["Bulby", "Mechchicken", "Wrench Toast"]
    assert all(len(ids) == 4 for ids in c.starters)
    assert [len(c.tier_decks[t]) for t in range(1, 5)] == [18, 24, 20, 16]
    assert len(c.transformation) == 8
    assert c.num_cards == 12 + 18 + 24 + 20 + 16 + 8
    used = {f for d in c.designs for f in d.factions}
    assert used == set(FACTIONS) and len(FACTIONS) == 6
    assert sum(1 for d in c.designs if d.contraption) >= 6
    keywords = {d.keyword for d in c.designs}
    for kw in (
        Keyword.ENTER,
        Keyword.REBOOT,
        Keyword.SWARM,
        Keyword.FINALE,
        Keyword.ENERGIZED,
        Keyword.BUDDY,
        Keyword.CRYSTALS,
        Keyword.TRANSFORMATION,
        Keyword.RIPENING,
    ):
        assert kw in keywords, kw
    assert all(d.text for d in c.designs if d.keyword is not Keyword.NONE)


def test_rb_1_2_contraptions_never_enter_the_battle():
    g, s = build_state()
    cards = g.content.cards
    tier1 = s.decks[1]
    cid = next(c for c in tier1 if cards[c].contraption)
    tier1.remove(cid)
    s.collection[0].append(cid)
    touch(s)
    while s.phase == rules.BUILD:
        s.apply_action(EndTurn())
    assert cid not in s.bdeck[0] and cid not in s.defense and cid not in s.attack
    assert cid in s.collection[0]
    view = s.view(0)
    assert [c["name"] for c in view["seats"][0]["contraptions"]] == [cards[cid].name]
    assert all(not c["contraption"] for c in view["seats"][0]["bots"])


def test_rb_1_3_user_card_file_replaces_the_bundled_set(tmp_path: Path):
    bundled = Path(__file__).parents[2] / "src/robotable/games/rumblebots/data/cards.toml"
    text = bundled.read_text().replace('name = "Rust Rooster"', 'name = "Rust Rider"')
    path = tmp_path / "mine.toml"
    path.write_text(text)
    g = game(cards=str(path))
    assert "Rust Rider" in g.content.by_name and "Rust Rooster" not in g.content.by_name
    s = g.new_initial_state(seed=1)
    assert not s.is_terminal()


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            'keyword = "buddy", effect = "attack", amount = 1 }',
            'keyword = "hover", effect = "attack", amount = 1 }',
        ),
        (
            'keyword = "swarm", effect = "attack", amount = 2 }',
            'keyword = "swarm", effect = "revive", amount = 2 }',
        ),
        ("attack = 3\ndefense = 2\n", 'attack = "three"\ndefense = 2\n'),
    ],
)
def test_rb_1_3_bad_card_file_names_file_card_and_field(tmp_path: Path, old, new):
    bundled = Path(__file__).parents[2] / "src/robotable/games/rumblebots/data/cards.toml"
    text = bundled.read_text()
    assert old in text
    path = tmp_path / "bad.toml"
    path.write_text(text.replace(old, new, 1))
    with pytest.raises(ContentError) as err:
        game(cards=str(path))
    msg = str(err.value)
    assert "bad.toml" in msg and "card '" in msg and "\n" not in msg


# ---------------------------------------------------------------- RB-2 setup
def test_rb_2_1_setup_workshops_laboratory_and_starters():
    for n in (2, 3, 4):
        g = game(n)
        s = g.new_initial_state(seed=11)
        cards = g.content.cards
        assert s.lab_open == [False, True, False, False, False]
        assert all(c >= 0 and cards[c].tier == 1 for c in s.lab[1])
        assert [len(s.decks[t]) for t in range(1, 5)] == [14, 24, 20, 16]
        assert len(s.transform_deck) == 8
        assert len(s.reserve) == 12 - 3 * n
        for p in range(n):
            assert sorted(names(g, s.collection[p])) == ["Bulby", "Mechchicken", "Wrench Toast"]
            assert s.tier[p] == 1
            assert s.storage[p] == s.reactor[p] == s.cryo[p] == 0
        builder = s.current_player()
        assert all(s.scraps[p] == 0 for p in range(n) if p != builder)


def test_rb_2_3_round_spaces_and_supply():
    s = game().new_initial_state(seed=2)
    assert s.spaces == [2, 2, 3, 3, 4]
    assert s.supply == 30 - 14
    s2 = game(round_crystals=(1, 1, 1, 1, 1)).new_initial_state(seed=2)
    assert s2.spaces == [1] * 5 and s2.supply == 25


def test_rb_2_5_first_champion_starts_with_a_cryo_crystal():
    for n in (2, 3, 4):
        plain = game(n, first_champion=1).new_initial_state(seed=4)
        s = game(n, first_champion=1, first_champion_cryo=1).new_initial_state(seed=4)
        assert s.cryo == [0, 1] + [0] * (n - 2)
        assert s.supply == plain.supply - 1  # taken from the supply: 30 crystals in all
        assert rules.crystals_of(s, 1) == 1 and rules.crystals_of(s, 0) == 0
        (first,) = [e for e in s.opening_events() if e["type"] == "crystals_gained"]
        assert first == {
            "type": "crystals_gained",
            "seat": 1,
            "count": 1,
            "from": "first champion",
            "total": 1,
        }
    # The default gives none, at every seat count; -1, the earlier default that records made
    # before 27 Nov 2026 hold, still gives two crystals in a two-seat game and none with more.
    for n in (2, 3, 4):
        assert robotable.load_game("rumblebots", n).new_initial_state(seed=4).cryo == [0] * n
    two = robotable.load_game("rumblebots", 2, first_champion_cryo=-1).new_initial_state(seed=4)
    assert sorted(two.cryo) == [0, 2] and two.cryo[two.champion] == 2
    three = robotable.load_game("rumblebots", 3, first_champion_cryo=-1)
    assert three.new_initial_state(seed=4).cryo == [0, 0, 0]
    with pytest.raises(OptionError, match="first_champion_cryo"):
        game(2, first_champion_cryo=4)


def test_rb_2_5_first_champion_scraps_head_start():
    """The option gives the first Champion, and nobody else, more scraps in the rounds it names,
    and the income line says why."""
    for n in (2, 3, 4):
        plain = game(n, first_champion=1).new_initial_state(seed=4)
        s = game(n, first_champion=1, first_champion_scraps=(1,)).new_initial_state(seed=4)
        assert plain.scraps[1] == 1 and s.scraps[1] == 2  # round 1's income is 1 scrap
        (income,) = [e for e in s.opening_events() if e["type"] == "income"]
        assert income == {
            "type": "income",
            "seat": 1,
            "scraps": 2,
            "underdog": False,
            "head_start": 1,
        }
        line = " ".join(s.game.narrate([income], None, [f"P{i + 1}" for i in range(n)]))
        assert "P2 gets 2 scraps of income (1 extra as the first Champion)" in line
        events = s.apply_action(EndTurn())
        (nxt,) = [e for e in events if e["type"] == "income"]
        assert nxt["seat"] != 1 and nxt["scraps"] == 1 and "head_start" not in nxt
    # Round 2 only: round 1 as dealt, then one more in the first Champion's round-2 income,
    # whoever holds the token by then.
    for seed in range(3):
        s = game(4, first_champion=2, first_champion_scraps="0,1").new_initial_state(seed=seed)
        assert s.scraps[2] == 1 and s.first_champion == 2
        rng = random.Random(seed)
        incomes = []
        while not s.is_terminal() and s.round <= 2:
            events = s.apply_action(rng.choice(s.legal_actions()))
            incomes += [(s.round, e) for e in events if e["type"] == "income"]
        second = [e for r, e in incomes if r == 2]
        assert [e.get("head_start", 0) for e in second] == [int(e["seat"] == 2) for e in second]
        assert s.clone().first_champion == 2
        assert s.game.state_from_json(s.to_json()).first_champion == 2
    bad_record = {**s.to_json(), "first_champion": 9}
    with pytest.raises(RecordError, match="field 'first_champion' must be a seat from 0 to 3"):
        s.game.state_from_json(bad_record)
    # The default: one more in round 4 with four seats since 30 Nov 2026, none with two or three
    # (from 27 Nov 2026 none at any count); a record holds its resolved head start (0,1 with four
    # seats before 27 Nov 2026, none until 30 Nov 2026) and replays with it.
    assert [game(n).options["first_champion_scraps"] for n in (2, 3, 4)] == [(), (), (0, 0, 0, 1)]
    assert [game(n).options["first_neighbours_scraps"] for n in (2, 3, 4)] == [
        (),
        (),
        (0, 0, 0, 1),
    ]
    earlier = game(4, first_champion_scraps=(0, 1))
    assert earlier.options["first_champion_scraps"] == (0, 1)
    for bad in ((4,), (0,) * 7, ("x",)):
        with pytest.raises(OptionError, match="first_champion_scraps"):
            game(2, first_champion_scraps=bad)
    # The message shows the value as typed on a command line, not as a Python tuple.
    with pytest.raises(OptionError, match=r"first_champion_scraps.*, got '0,4'$"):
        game(2, first_champion_scraps="0,4")


def _incomes_through_round(s, rng: random.Random, last: int = 2) -> list[tuple[int, dict]]:
    """Every income event of rounds 1 to `last` with its round (and the next round's, paid as
    it opens), the moves chosen at random."""
    incomes = [(1, e) for e in s.opening_events() if e["type"] == "income"]
    while not s.is_terminal() and s.round <= last:
        events = s.apply_action(rng.choice(s.legal_actions()))
        incomes += [(s.round, e) for e in events if e["type"] == "income"]
    return incomes


def test_rb_2_5_first_challengers_scraps_head_start():
    """The option gives every seat but the first Champion more scraps in the rounds it names,
    whoever holds the token by then, and the income line says why."""
    for n in (2, 3, 4):
        s = game(n, first_champion=0, first_challengers_scraps="0,1").new_initial_state(seed=5)
        assert s.scraps[0] == 1  # round 1 as dealt
        incomes = _incomes_through_round(s, random.Random(n))
        assert [e.get("head_start", 0) for r, e in incomes if r == 1] == [0] * n
        second = [e for r, e in incomes if r == 2]
        assert sorted(e["seat"] for e in second) == list(range(n))
        assert [e.get("head_start", 0) for e in second] == [int(e["seat"] != 0) for e in second]
        (bonus, *_) = [e for e in second if e["seat"] != 0]
        assert bonus["first_challenger"] is True
        names = [f"P{i + 1}" for i in range(n)]
        line = " ".join(s.game.narrate([bonus], None, names))
        assert "(1 extra for not holding the Champion token in round 1)" in line
    with pytest.raises(OptionError, match="first_challengers_scraps"):
        game(2, first_challengers_scraps="0,4")


def test_rb_2_5_first_neighbours_scraps_head_start():
    """The option gives the seats beside the first Champion (the next and the previous in seat
    order, wrapping round) more scraps in the rounds it names, and nobody else; the income
    line says why."""
    for n, first in ((2, 0), (3, 2), (4, 0), (4, 3)):
        options = {"first_champion": first, "first_neighbours_scraps": "0,2"}
        s = game(n, **options).new_initial_state(seed=5)
        beside = {(first + 1) % n, (first - 1) % n}
        incomes = _incomes_through_round(s, random.Random(n))
        assert [e.get("beside_first_champion", 0) for r, e in incomes if r == 1] == [0] * n
        second = {e["seat"]: e for r, e in incomes if r == 2}
        assert sorted(second) == list(range(n))
        got = {seat: e.get("beside_first_champion", 0) for seat, e in second.items()}
        assert got == {seat: 2 * (seat in beside) for seat in range(n)}
        assert all("head_start" not in e for e in second.values())
        for seat, e in second.items():
            assert e["scraps"] == 2 + e["underdog"] + got[seat]
        (seat, *_) = sorted(beside)
        names = [f"P{i + 1}" for i in range(n)]
        line = " ".join(s.game.narrate([second[seat]], None, names))
        assert "(2 extra for sitting beside the first Champion)" in line
    with pytest.raises(OptionError, match="first_neighbours_scraps"):
        game(4, first_neighbours_scraps="0,4")


def test_rb_2_5_four_seat_default_head_start():
    """With four seats and default options, every seat but the one opposite the first Champion
    has one more scrap in round 4, and nobody has any extra before."""
    for first in range(4):
        s = game(4, first_champion=first).new_initial_state(seed=first)
        incomes = _incomes_through_round(s, random.Random(first), last=4)
        extra = {
            (r, e["seat"]): e.get("head_start", 0) + e.get("beside_first_champion", 0)
            for r, e in incomes
            if r <= 4
        }
        assert sorted(extra) == [(r, seat) for r in (1, 2, 3, 4) for seat in range(4)]
        opposite = (first + 2) % 4
        for (r, seat), got in extra.items():
            assert got == int(r == 4 and seat != opposite), (first, r, seat)


def test_rb_2_4_first_champion_drawn_with_the_seed_or_chosen():
    champs = {game(3).new_initial_state(seed=k).champion for k in range(30)}
    assert champs == {0, 1, 2}
    assert game(3, first_champion=2).new_initial_state(seed=5).champion == 2
    s = game(3, first_champion=2).new_initial_state(seed=5)
    assert s.current_player() == 2
    with pytest.raises(OptionError, match="first_champion"):
        game(2, first_champion=3)


# ---------------------------------------------------------------- RB-3 rounds
def test_rb_3_1_six_rounds_build_then_battle_then_showdown():
    import random

    g = game(2, dominance_margin=99)
    s = g.new_initial_state(seed=4)
    rng = random.Random(4)
    sequence = []
    while not s.is_terminal():
        legal = s.legal_actions()
        for e in s.apply_action(legal[rng.randrange(len(legal))]):
            if e["type"] in ("round_started", "battle_started"):
                sequence.append((e["type"], e["round"]))
    expected = [("round_started", 1)]
    for r in range(1, 7):
        expected.append(("battle_started", r))
        if r < 6:
            expected.append(("round_started", r + 1))
    assert sequence == expected[1:]  # round 1 starts inside new_initial_state
    assert s.end_reason == "showdown" and s.round == 6 and s.battle_no == 6


def test_rb_3_2_champion_starts_and_direction_alternates():
    g = game(3, first_champion=1)
    s = g.new_initial_state(seed=9)
    assert s.order == [1, 2, 0] and s.direction == 1
    s.round = 2
    s.champion = 2
    ev: list = []
    rules.start_round(s, ev)
    assert s.order == [2, 1, 0] and s.direction == -1
    # the battle uses the round's direction: champion 2, first challenger 1 in round 2
    b, ev = battle(g, [["Fridge Fortress"], ["Bulby"], ["Bulby"]], champion=2, round_=2)
    clashes = [e["challenger"] for e in ev if e["type"] == "clash_started"]
    assert clashes[:2] == [1, 0]


# ---------------------------------------------------------------- RB-4 build phase
def test_rb_4_1_income_equals_the_round():
    g, s = build_state()
    assert s.scraps[0] == 1
    s.apply_action(EndTurn())
    assert s.scraps[0] == 0 and s.scraps[1] == 1
    s.round = 3
    s.turn_pos = 0
    ev: list = []
    rules.begin_turn(s, ev)
    assert s.scraps[s.order[0]] == 3


def test_rb_4_2_underdog_bonus_from_round_two():
    g, s = build_state(3)
    s.storage[1] = 2
    s.supply -= 2
    ev: list = []
    s.turn_pos = 0
    rules.begin_turn(s, ev)  # round 1: no bonus
    assert s.scraps[0] == 1
    s.round = 2
    rules.begin_turn(s, ev)
    assert s.scraps[0] == 3 and ev[-1]["underdog"] is True
    s.storage[0] = 1  # only 1 behind: no bonus
    s.supply -= 1
    rules.begin_turn(s, ev)
    assert s.scraps[0] == 2


def _rich(s, tier=4, scraps=30):
    ev: list = []
    s.tier[0] = tier
    s.scraps[0] = scraps
    for t in range(2, tier + 1):
        if not s.lab_open[t]:
            rules.reveal_row(s, t, ev)
    touch(s)


def test_rb_4_3_build_at_most_twice_paying_the_cost():
    g, s = build_state()
    _rich(s)
    cards = g.content.cards
    first = next(a for a in s.legal_actions() if a.kind == "build_lab")
    cost = cards[s.lab[first.tier][first.slot]].cost
    s.apply_action(first)
    assert s.scraps[0] == 30 - cost and names(g, s.fresh[0]) == [first.name]
    s.apply_action(next(a for a in s.legal_actions() if a.kind == "build_lab"))
    assert "build_lab" not in kinds(s) and "build_scanned" not in kinds(s)
    assert len(s.fresh[0]) == 2


def test_rb_4_3_tier_limit_and_cost_limit():
    g, s = build_state()
    _rich(s, tier=4)
    s.tier[0] = 1
    s.scraps[0] = 2
    touch(s)
    cards = g.content.cards
    for a in s.legal_actions():
        if a.kind == "build_lab":
            assert a.tier == 1 and cards[s.lab[1][a.slot]].cost <= 2
    with pytest.raises(IllegalAction):
        s.apply_action(BuildLab(2, 0, cards[s.lab[2][0]].name))


def test_rb_4_3_replacement_from_the_deck_then_empty_slot():
    g, s = build_state()
    _rich(s)
    top = s.decks[1][-1]
    a = next(a for a in s.legal_actions() if a.kind == "build_lab" and a.tier == 1)
    s.apply_action(a)
    assert s.lab[1][a.slot] == top
    s.decks[1] = []
    s.builds = 0
    touch(s)
    a = next(a for a in s.legal_actions() if a.kind == "build_lab" and a.tier == 1)
    s.apply_action(a)
    assert s.lab[1][a.slot] == -1
    assert s.view(0)["laboratory"]["rows"][0]["slots"][a.slot] is None


def test_rb_4_3_build_from_the_scanned_hand():
    g, s = build_state()
    _rich(s)
    s.storage[0] = 1
    s.supply -= 1
    touch(s)
    s.apply_action(EnergizeScan(3))
    hand = list(s.hand[0])
    assert len(hand) == 2
    name = g.content.cards[hand[0]].name
    s.apply_action(BuildScanned(name))
    assert name in names(g, s.fresh[0]) and len(s.hand[0]) == 1


def test_rb_4_4_recycle_rules():
    g, s = build_state()
    cards = g.content.cards
    s.apply_action(Recycle("Bulby"))
    assert s.scraps[0] == 2 and names(g, s.recycled) == ["Bulby"]
    s.apply_action(Recycle("Mechchicken"))
    # one bot left: it cannot be recycled
    assert "recycle" not in kinds(s)
    # a bot built this phase is not recyclable; a contraption never leaves a deck of only those
    s.scraps[0] = 10
    touch(s)
    over = next(a for a in s.legal_actions() if a.kind == "build_lab")
    s.apply_action(over)
    assert Recycle(over.name) not in s.legal_actions() or over.name == "Wrench Toast"
    s2 = build_state()[1]
    tier1 = s2.decks[1]
    cid = next(c for c in tier1 if cards[c].contraption)
    tier1.remove(cid)
    s2.collection[0] = [s2.collection[0][0], cid]
    touch(s2)
    legal = s2.legal_actions()
    assert Recycle(cards[cid].name) in legal
    assert Recycle(cards[s2.collection[0][0]].name) not in legal  # only Contraptions would stay


def test_rb_4_5_upgrade_once_for_three_first_reveals_the_row():
    g, s = build_state()
    s.scraps[0] = 9
    touch(s)
    events = s.apply_action(Upgrade())
    assert s.tier[0] == 2 and s.scraps[0] == 6 and s.lab_open[2]
    assert any(e["type"] == "row_revealed" for e in events)
    assert "upgrade" not in kinds(s)
    row = list(s.lab[2])
    s.apply_action(EndTurn())
    s.scraps[1] = 3
    touch(s)
    events = s.apply_action(Upgrade())
    assert s.tier[1] == 2 and s.lab[2] == row
    assert not any(e["type"] == "row_revealed" for e in events)
    s.tier[1] = 4
    s.upgrades = 0
    s.scraps[1] = 9
    touch(s)
    assert "upgrade" not in kinds(s)


def test_rb_4_6_energize_up_to_three_times():
    g, s = build_state()
    s.storage[0] = 5
    s.supply -= 5
    touch(s)
    s.apply_action(EnergizeScrap())
    assert (s.storage[0], s.reactor[0], s.scraps[0]) == (4, 1, 2)
    s.apply_action(EnergizeScrap())
    s.apply_action(EnergizeScan(1))
    assert s.energizes == 3 and s.reactor[0] == 3 and len(s.hand[0]) == 2
    assert "energize_scrap" not in kinds(s) and "energize_scan" not in kinds(s)


def test_rb_4_6_scan_only_tiers_you_may_build_and_short_decks():
    g, s = build_state()
    s.storage[0] = 3
    s.supply -= 3
    touch(s)
    assert [a.tier for a in s.legal_actions() if a.kind == "energize_scan"] == [1]
    s.decks[1] = s.decks[1][:1]
    touch(s)
    s.apply_action(EnergizeScan(1))
    assert len(s.hand[0]) == 1 and s.decks[1] == []
    assert EnergizeScan(1) not in s.legal_actions()


def test_rb_4_7_cleanup_returns_scans_merges_and_resets_scraps():
    g, s = build_state()
    _rich(s)
    s.storage[0] = 2
    s.supply -= 2
    touch(s)
    s.apply_action(EnergizeScan(2))
    hand = set(s.hand[0])
    s.apply_action(next(a for a in s.legal_actions() if a.kind == "build_lab"))
    built = list(s.fresh[0])
    s.apply_action(EndTurn())
    assert s.hand[0] == [] and set(s.decks[2][:2]) == hand
    assert all(c in s.collection[0] for c in built) and s.fresh[0] == []
    assert s.scraps[0] == 0


# ---------------------------------------------------------------- RB-5 battle
def test_rb_5_1_battle_decks_hold_every_bot_shuffled():
    orders = set()
    paused = 0
    for seed in range(12):
        g = game(2, first_champion=0)
        s = g.new_initial_state(seed=seed)
        cards = g.content.cards
        over = next(c for c in s.decks[2] if cards[c].name == "Crit Scope")
        s.decks[2].remove(over)
        s.collection[1].append(over)  # seat 1 will pause at its Contraption window
        before = [sorted(s.collection[p]) for p in range(2)]
        s._legal = None
        s.apply_action(EndTurn())
        s.apply_action(EndTurn())
        if s.phase != rules.BATTLE:
            continue  # the battle did not pause for a decision with this seed
        paused += 1
        for p in range(2):
            assert sorted(battle_zone_ids(s, p)) == before[p]
        assert over not in s.bdeck[1] + s.attack + s.defense + s.discard[1]
        orders.add(tuple(names(g, s.bdeck[0] + s.bdeck[1])))
    assert paused >= 4 and len(orders) > 1  # shuffled


def test_rb_5_2_champion_reveals_the_first_defense_gang():
    g = game()
    s, ev = battle(g, [["Bulby", "Fridge Fortress"], ["Bulby"]], champion=0)
    assert ev[0]["type"] == "defense_revealed" and ev[0]["card"] == "Fridge Fortress"


def test_rb_5_3_empty_gang_is_refilled_from_the_champion_deck():
    g = game()
    s, ev = battle(g, [["Bulby", "Mechchicken"], ["Thunder Stag"]], champion=0)
    text = "\n".join(s.battle_log())
    assert "defeats the defender Mechchicken" in text
    assert "reveals the defense gang: Bulby" in text.split("defeats")[1]
    assert ". as" not in text and ".)" not in text  # card text ends inside its sentence
    assert s.champion == 1
    s2, _ = battle(g, [["Mechchicken"], ["Thunder Stag"]], champion=0)
    assert "no bot left to defend" in "\n".join(s2.battle_log())
    assert s2.champion == 1


def test_rb_5_4_attack_must_exceed_defense_or_crits_get_through():
    g = game()
    s, _ = battle(g, [["Bulby"], ["Wrench Toast", "Mechchicken"]], champion=0)
    reveals = [e for e in s.log_entries() if e[0] == "reveal"]
    assert len(reveals) == 2  # 2 vs 2 is not enough, 3 vs 2 is
    g2 = game(attack_must_exceed=False)
    s2, _ = battle(g2, [["Bulby"], ["Wrench Toast", "Mechchicken"]], champion=0)
    assert len([e for e in s2.log_entries() if e[0] == "reveal"]) == 1
    # crit threshold 4 + barriers
    s3, _ = battle(g, [["Fridge Fortress"], ["Overclocker"]], champion=0, contraptions=[[], []])
    s3.phase = rules.BATTLE
    s3.champion, s3.challenger, s3.forced = 0, 1, False
    s3.defense = ids_of(g, "Fridge Fortress")  # DEF 7, barriers 2
    s3.attack = ids_of(g, "Boiler Bomber", "Boiler Bomber")  # ATK 6, crits 4
    s3.atk_mod = s3.crit_mod = s3.def_mod = s3.bar_mod = 0
    s3.reactor = [0, 0]
    s3.bdeck = [[1, 2], [1, 2]]
    assert not challenger_winning(s3)
    s3.crit_mod = 2  # 6 crits vs 4 + 2 barriers
    assert challenger_winning(s3)
    s3.crit_mod, s3.atk_mod = 0, 1  # 7 vs 7
    assert not challenger_winning(s3)
    s3.atk_mod = 2
    assert challenger_winning(s3)


def test_rb_5_5_failed_challenger_surrenders_and_discards_its_attack():
    g = game()
    s, ev = battle(g, [["Fridge Fortress"], ["Bulby", "Mechchicken"]], champion=0)
    assert any(e["type"] == "surrendered" and e["seat"] == 1 for e in ev)
    won = next(e for e in ev if e["type"] == "battle_won")
    assert won["seat"] == 0
    assert "runs out of bots" in "\n".join(s.battle_log())


def test_rb_5_6_winner_picks_a_faction_new_gang_and_discards():
    g = game()
    s, ev = battle(g, [["Bulby"], ["Bulby", "Mechchicken", "Piston Pup"]], champion=0)
    assert s.pending and s.pending[-1][0] == P_FACTION and s.current_player() == 1
    assert set(s.legal_actions()) == {ChooseFaction("Animal"), ChooseFaction("Steam")}
    assert names(g, s.discard[0]) == ["Bulby"]  # old defense gang defeated
    s2 = s.clone()
    s.apply_action(ChooseFaction("Steam"))
    log = "\n".join(s.battle_log())
    assert "new Champion with a Steam defense gang" in log
    s2.apply_action(ChooseFaction("Animal"))
    assert "new Champion with an Animal defense gang" in "\n".join(s2.battle_log())
    # old champion had an empty deck: surrendered; seat 1 won the round
    assert s.champion == 1 and s.round == 2


def test_rb_5_6_single_faction_is_chosen_automatically():
    g = game()
    s, ev = battle(g, [["Bulby", "Bulby"], ["Bulby", "Mechchicken", "Mechchicken"]], champion=0)
    champ = next(e for e in ev if e["type"] == "champion")
    assert champ["faction"] == "Animal" and champ["gang"] == ["Mechchicken", "Mechchicken"]


def test_rb_5_7_empty_deck_when_called_surrenders_at_once():
    g = game(3)
    s, ev = battle(g, [["Fridge Fortress"], ["Bulby"], []], champion=0)
    order = [
        (e["type"], e.get("seat", e.get("challenger")))
        for e in ev
        if e["type"] in ("clash_started", "surrendered", "bot_revealed")
    ]
    assert order == [
        ("clash_started", 1),
        ("bot_revealed", 1),
        ("surrendered", 1),
        ("clash_started", 2),
        ("surrendered", 2),
    ]
    assert s.champion == 0


def test_rb_5_8_contraptions_once_per_battle_owner_decides():
    g = game()
    s, _ = battle(
        g,
        [["Fridge Fortress"], ["Bulby", "Mechchicken"]],
        champion=0,
        contraptions=[[], ["Overclocker"]],
    )
    assert s.pending[-1][0] == P_ATTACK_WINDOW and s.current_player() == 1
    assert s.legal_actions() == [UseContraption("Overclocker"), PassContraption()]
    s.apply_action(UseContraption("Overclocker"))
    assert s.atk_mod == 2 or s.phase != rules.BATTLE
    text = "\n".join(s.battle_log())
    assert text.count("uses the Contraption Overclocker") == 1
    # defense window for the Champion when the defense is about to fall
    s2, _ = battle(
        g,
        [["Bulby"], ["Wrench Toast", "Mechchicken"]],
        champion=0,
        contraptions=[["Force Field"], []],
    )
    assert s2.pending[-1][0] == P_DEFEND_WINDOW and s2.current_player() == 0
    s2.apply_action(UseContraption("Force Field"))
    assert s2.champion == 0  # 3 vs 2 + 3: the challenger ran out and surrendered
    assert "runs out of bots" in "\n".join(s2.battle_log())


def test_rb_5_8_pass_then_offered_again_after_the_next_reveal():
    g = game()
    s, _ = battle(
        g,
        [["Fridge Fortress"], ["Bulby", "Mechchicken"]],
        champion=0,
        contraptions=[[], ["Overclocker"]],
    )
    s.apply_action(PassContraption())
    assert s.pending[-1][0] == P_ATTACK_WINDOW
    assert len([e for e in s.log_entries() if e[0] == "reveal"]) == 2


def test_rb_5_9_defense_keeps_continuous_abilities_not_reveal_effects():
    g = game()
    s, _ = battle(
        g,
        [["Cog Golem"], ["Bulby", "Overclocker"]],
        champion=0,
        contraptions=[[], []],
        reactor=[1, 0],
    )
    s.challenger = -1
    assert clash_numbers(s)[2] == 6  # 4 + Energized 2
    s.reactor = [0, 0]
    assert clash_numbers(s)[2] == 4
    s2, _ = battle(g, [["Thunder Stag"], ["Bulby"]], champion=0)
    assert not any(e[0] == "defeat" for e in s2.log_entries())


def test_rb_5_10_last_champion_standing_wins_the_battle_round():
    g = game(3)
    s, ev = battle(g, [["Fridge Fortress"], ["Bulby"], ["Mechchicken"]], champion=0)
    assert [e for e in ev if e["type"] == "battle_won"][0]["seat"] == 0
    assert s.storage[0] == 2 and s.round == 2


def test_rb_5_11_reveal_cap_ends_the_battle_for_the_champion():
    g = game()
    s, _ = battle(
        g,
        [["Gaia Engine"], ["Bulby", "Mechchicken"]],
        champion=0,
        contraptions=[[], ["Overclocker"]],
    )
    s.reveals = g.options["battle_reveal_cap"]
    ev = s.apply_action(PassContraption())
    assert any(e["type"] == "battle_capped" for e in ev)
    assert s.round == 2 and s.champion == 0


# ---------------------------------------------------------------- RB-6 crystals
def test_rb_6_2_round_winner_takes_the_space_and_keeps_the_token():
    g = game()
    s, ev = battle(g, [["Bulby"], ["Bulby", "Mechchicken", "Mechchicken"]], champion=0)
    assert s.champion == 1 and s.storage[1] == 2 and s.spaces[0] == 0
    assert s.round == 2 and s.order[0] == 1


def test_rb_6_4_end_of_round_reactor_to_cryo_and_zones_return():
    g = game()
    s, _ = battle(g, [["Fridge Fortress"], ["Bulby"]], champion=0, reactor=[2, 1])
    assert s.round == 2 and s.reactor == [0, 0] and s.cryo == [2, 1]
    assert s.bdeck == [[], []] and s.discard == [[], []] and s.defense == []
    g2 = game(reactor_to_cryo=False)
    s2, _ = battle(g2, [["Fridge Fortress"], ["Bulby"]], champion=0, reactor=[2, 1])
    assert s2.reactor == [2, 1] and s2.cryo == [0, 0]


def test_rb_6_5_creating_crystals_is_capped_by_the_supply():
    g, s = build_state()
    s.supply = 1
    ev: list = []
    s.create_crystals(0, 2, ev, "Gaia Engine")
    assert s.storage[0] == 1 and s.supply == 0
    s.create_crystals(0, 2, ev, "Gaia Engine")
    assert s.storage[0] == 1


# ---------------------------------------------------------------- RB-7 showdown
def _showdown_state():
    g, s = build_state()
    s.round = 6
    ev: list = []
    rules.start_round(s, ev)
    return g, s


def test_rb_7_1_showdown_build_rules():
    g, s = _showdown_state()
    seat = s.current_player()
    assert s.scraps[seat] == 6
    s.storage[seat] = 5
    s.cryo[seat] = 2
    s.supply -= 7
    touch(s)
    for _ in range(4):
        s.apply_action(EnergizeScrap())
    assert s.scraps[seat] == 6 + 8 and s.energizes == 4
    s.apply_action(EnergizeCryo())
    assert s.scraps[seat] == 15 and s.cryo[seat] == 1 and s.reactor[seat] == 5
    s.apply_action(Upgrade())
    s.apply_action(Upgrade())
    assert s.tier[seat] == 3
    s.scraps[seat] += 20  # enough for any three bots of the Laboratory, whatever their costs
    touch(s)
    for _ in range(3):
        s.apply_action(next(a for a in s.legal_actions() if a.kind == "build_lab"))
    assert "build_lab" not in kinds(s)


def test_rb_7_2_showdown_champion_wins_without_crystals():
    g = game()
    s, ev = battle(g, [["Fridge Fortress"], ["Bulby"]], champion=0, round_=6)
    assert s.is_terminal() and s.returns() == [1.0, 0.0] and s.end_reason == "showdown"
    assert s.storage == [0, 0]
    # Dominance is not checked in the Showdown
    s2, _ = battle(g, [["Bulby"], ["Bulby", "Mechchicken", "Mechchicken"]], champion=0, round_=6)
    assert s2.returns() == [0.0, 1.0]


# ---------------------------------------------------------------- RB-8 abilities
def test_rb_8_1_enter_target_is_the_owners_decision():
    g = game()
    s, _ = battle(
        g, [["Thunder Stag", "Bulby"], ["Bulby", "Rust Rooster", "Mechchicken"]], champion=0
    )
    assert s.pending[-1][0] == P_TARGET_DEFEAT and s.current_player() == 0
    assert set(s.legal_actions()) == {ChooseTarget("Mechchicken"), ChooseTarget("Rust Rooster")}
    assert "choose a defending bot" in s.prompt()
    s.apply_action(ChooseTarget("Rust Rooster"))
    assert "defeats the defender Rust Rooster" in "\n".join(s.battle_log())


def test_rb_8_2_swarm_finale_energized_buddy():
    g = game()
    s, _ = battle(g, [["Fridge Fortress"], ["Bulby"]], champion=0)
    s.bdeck = [[1, 2, 3], [1, 2, 3]]
    s.reactor = [0, 0]
    pup = ids_of(g, "Piston Pup", "Bulby", "Mechchicken")
    assert gang_totals(s, pup, 1)[0] == 2 + 1 + 2 + 2  # Swarm in a gang of 3
    assert gang_totals(s, pup[:2], 1)[0] == 3
    trooper = ids_of(g, "Toaster Trooper")
    assert gang_totals(s, trooper, 1)[0] == 3
    s.bdeck[1] = [5]
    assert gang_totals(s, trooper, 1)[0] == 5  # Finale: 0-1 cards left
    titan = ids_of(g, "Steam Titan")
    assert gang_totals(s, titan, 1)[0] == 6
    s.reactor[1] = 1
    assert gang_totals(s, titan, 1)[0] == 8  # Energized
    brute = ids_of(g, "Blender Brute", "Wrench Toast")
    assert gang_totals(s, brute, 1)[0] == 4 + 1 + 2  # Appliances buddy
    brute2 = ids_of(g, "Blender Brute", "Bulby")
    assert gang_totals(s, brute2, 1)[0] == 5


def test_rb_8_3_reboot_goes_under_the_deck_and_cannot_loop():
    g = game()
    s, _ = battle(
        g,
        [["Fridge Fortress"], ["Bulby", "Steam Sparrow"]],
        champion=0,
        contraptions=[[], ["Overclocker"]],
    )
    # Sparrow rebooted (+2 attack) under the deck, then the Contraption window
    assert names(g, s.bdeck[1]) == ["Steam Sparrow", "Bulby"] and s.atk_mod == 2
    assert s.view(0)["seats"][1]["battle"]["deck_bottom_known"] == ["Steam Sparrow"]
    assert s.attack == []
    s.apply_action(PassContraption())
    assert names(g, s.attack) == ["Bulby"] and names(g, s.bdeck[1]) == ["Steam Sparrow"]
    s.apply_action(PassContraption())
    assert s.champion == 0 and s.round == 2  # only a rebooted card left: the challenger failed


def test_rb_8_3_reboot_bot_is_under_the_deck_while_its_target_is_chosen():
    g = game()
    s, _ = battle(
        g,
        [["Mole Driller", "Bulby"], ["Bulby", "Rust Rooster", "Mechchicken"]],
        champion=0,
    )
    assert s.pending[-1][0] == P_TARGET_DEFEAT and s.current_player() == 0
    driller = ids_of(g, "Mole Driller")[0]
    assert s.bdeck[0] == [driller] and driller not in s.attack
    assert sorted(battle_zone_ids(s, 0)) == sorted(s.collection[0])
    s.apply_action(ChooseTarget("Mechchicken"))
    assert "defeats the defender Mechchicken" in "\n".join(s.battle_log())


def test_rb_8_4_creating_crystals_when_the_gang_wins():
    g = game()
    s, _ = battle(g, [["Bulby"], ["Bulby", "Crystal Moth", "Mechchicken"]], champion=0)
    if s.pending:
        s.apply_action(ChooseFaction("Animal"))
    assert s.storage[1] == 1 + 2 and s.supply == 16 - 1


def test_rb_8_5_transformation_swaps_in_the_evolved_bot():
    g = game()
    s, _ = battle(g, [["Bulby"], ["Bulby", "Kettle Knight"]], champion=0)
    assert "Kettle Paladin" in names(g, s.collection[1])
    assert "Kettle Knight" in names(g, s.recycled)
    assert names(g, s.transform_deck).count("Kettle Paladin") == 1
    g2 = game()
    s2 = g2.new_initial_state(seed=0)
    s2.transform_deck = []  # the evolved version is gone: nothing happens
    knight = ids_of(g2, "Kettle Knight")[0]
    ev: list = []
    s2.attack = [knight]
    s2.collection[1] = [knight]
    rules.transform(s2, 1, knight, ev)
    assert s2.attack == [knight] and ev == []


def test_rb_8_6_ripening_pays_the_workshop_tier():
    g, s = build_state()
    cards = g.content.cards
    drone = next(c for c in s.decks[1] + s.lab[1] if c >= 0 and cards[c].name == "Sprout Drone")
    if drone in s.decks[1]:
        s.decks[1].remove(drone)
    else:
        s.lab[1][s.lab[1].index(drone)] = s.decks[1].pop()
    s.collection[0].append(drone)
    s.tier[0] = 3
    touch(s)
    s.apply_action(Recycle("Sprout Drone"))
    assert s.scraps[0] == 1 + 1 + 3


# ---------------------------------------------------------------- RB-10 victory
WIN_FOR_1 = [["Bulby"], ["Bulby", "Mechchicken", "Mechchicken"]]


def test_rb_10_1_dominance_at_the_end_of_a_round():
    g = game()
    s, _ = battle(g, WIN_FOR_1, champion=0, round_=3, storage=[0, 2])
    assert not s.is_terminal() and s.storage[1] == 5  # a lead of 5 is not enough
    s2, ev = battle(g, WIN_FOR_1, champion=0, round_=3, storage=[0, 3])
    assert s2.is_terminal() and s2.end_reason == "dominance" and s2.returns() == [0.0, 1.0]
    s3, _ = battle(g, WIN_FOR_1, champion=0, round_=3, storage=[1, 4])
    assert s3.is_terminal() and s3.winner == 1  # 7 vs 1: exactly 6 more is enough


def test_rb_10_1_dominance_during_a_battle_ends_the_game_at_once():
    g = game()
    s, ev = battle(g, [["Fridge Fortress"], ["Bulby", "Spore Queen"]], champion=0, storage=[0, 5])
    assert s.is_terminal() and s.end_reason == "dominance" and s.winner == 1
    assert not any(e["type"] == "battle_won" for e in ev)
    assert s.legal_actions() == []
