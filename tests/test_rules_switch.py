"""The rules switch (issue 78): every game plays `balanced` (robotable's measured fairness
rulings) by default or `printed` (the rulebook as written); and every option's help is one line
a player reads. docs/rules/GAME.md, "Balanced and printed", says what each game's switch changes
and why."""

from __future__ import annotations

import json
import random
import re

import pytest
from typer.testing import CliRunner

import robotable
from robotable.cli import _register_all, app
from robotable.core.registry import bundled_game_names, game_class, game_names

_register_all()
runner = CliRunner()

GAMES = bundled_game_names()

# The fairness options each game's `printed` sets, with the rulebook's values.
PRINTED = {
    "stakbots": {},
    "betabotz": {},
    "iotabots": {"second_player_bonus": "none"},
    "breadwinner": {"first_turn_bots": 4, "second_player_loaves": 0},
    "rumblebots": {
        "first_champion_cryo": 0,
        "first_champion_scraps": (),
        "first_challengers_scraps": (),
        "first_neighbours_scraps": (),
    },
}


def _seat_counts(name: str) -> range:
    cls = game_class(name)
    return range(max(cls.min_players, 2), cls.max_players + 1)


def test_iotabots_printed_second_player_gets_no_extra_card() -> None:
    """IB-4.8 off: the player going second draws no extra card and no extra mana."""
    assert robotable.load_game("iotabots").options["second_player_bonus"] == "both"
    printed = robotable.load_game("iotabots", rules="printed")
    assert printed.options["second_player_bonus"] == "none"


def test_breadwinner_printed_first_player_builds_on_every_factory() -> None:
    """BW-R20 off: the first player may build 4 bots on the first turn, as the rulebook has it."""
    assert robotable.load_game("breadwinner").first_turn_bots == 2
    printed = robotable.load_game("breadwinner", rules="printed")
    assert (printed.first_turn_bots, printed.second_player_loaves) == (4, 0)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_rumblebots_printed_gives_no_head_start(seats: int) -> None:
    """RB-2.5 head starts off: no extra scraps for anyone, nothing in the Cryo-cell."""
    balanced = robotable.load_game("rumblebots", num_players=seats).options
    if seats != 3:  # two and four seats have a round-4 scrap by default
        assert (0, 0, 0, 1) in (
            balanced["first_challengers_scraps"],
            balanced["first_champion_scraps"],
        )
    options = robotable.load_game("rumblebots", num_players=seats, rules="printed").options
    assert {k: options[k] for k in PRINTED["rumblebots"]} == PRINTED["rumblebots"]


@pytest.mark.parametrize("name", ["stakbots", "betabotz"])
def test_printed_is_the_balanced_game_where_the_rulebook_plays_fair(name: str) -> None:
    for seats in _seat_counts(name):
        balanced = robotable.load_game(name, num_players=seats).options
        printed = robotable.load_game(name, num_players=seats, rules="printed").options
        assert {**printed, "rules": "balanced"} == balanced


@pytest.mark.parametrize("name", GAMES)
def test_balanced_is_the_default_and_printed_sets_the_rulebook_values(name: str) -> None:
    for seats in _seat_counts(name):
        default = robotable.load_game(name, num_players=seats).options
        assert default["rules"] == "balanced"
        assert robotable.load_game(name, num_players=seats, rules="balanced").options == default
        printed = robotable.load_game(name, num_players=seats, rules="printed").options
        assert {k: printed[k] for k in PRINTED[name]} == PRINTED[name]
        # printed changes the fairness options and nothing else
        changed = {k for k in default if default[k] != printed[k]} - {"rules"}
        assert changed <= set(PRINTED[name])


@pytest.mark.parametrize(
    ("name", "option", "value", "expected"),
    [
        ("iotabots", "second_player_bonus", "mana", "mana"),
        ("breadwinner", "first_turn_bots", 3, 3),
        ("rumblebots", "first_challengers_scraps", "0,0,1", (0, 0, 1)),
    ],
)
def test_an_explicit_option_wins_over_the_preset(name, option, value, expected) -> None:
    options = robotable.load_game(name, rules="printed", **{option: value}).options
    assert options[option] == expected
    assert options["rules"] == "printed"


def test_an_unknown_rules_value_is_refused_in_one_line() -> None:
    with pytest.raises(robotable.OptionError, match="must be one of balanced, printed"):
        robotable.load_game("iotabots", rules="house")


def _played(game, seed: int, steps: int = 400):
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    actions = []
    while not state.is_terminal() and len(actions) < steps:
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        actions.append(action)
    return state, actions


@pytest.mark.parametrize("name", ["iotabots", "breadwinner", "rumblebots"])
def test_a_printed_record_carries_the_switch_and_replays_with_it(name: str) -> None:
    game = robotable.load_game(name, rules="printed")
    state, actions = _played(game, seed=3)
    record = json.loads(json.dumps(robotable.make_record(game, 3, actions, state)))
    assert record["options"]["rules"] == "printed"
    replayed, again, _ = robotable.replay_record(record)
    assert replayed.options == game.options
    assert again.to_json() == state.to_json()
    # The same moves under the balanced rules are another game: the switch is what replays.
    balanced = robotable.load_game(name, num_players=game.num_players).options
    assert any(replayed.options[k] != balanced[k] for k in PRINTED[name])


@pytest.mark.parametrize("name", GAMES)
def test_a_record_made_before_the_switch_replays_as_before(name: str) -> None:
    """A record without `rules` played the balanced game, and replays exactly so."""
    game = robotable.load_game(name)
    state, actions = _played(game, seed=1, steps=200)
    record = json.loads(json.dumps(robotable.make_record(game, 1, actions, state)))
    del record["options"]["rules"]
    replayed, again, _ = robotable.replay_record(record)
    assert replayed.options["rules"] == "balanced"
    assert again.to_json() == state.to_json()


def test_the_terminal_plays_printed_and_records_it(tmp_path) -> None:
    path = tmp_path / "game.json"
    args = ["play", "iotabots", "-o", "rules=printed", "--seats", "random,random"]
    result = runner.invoke(app, [*args, "--seed", "2", "--record", str(path)])
    assert result.exit_code == 0, result.output
    record = json.loads(path.read_text())
    assert record["options"]["rules"] == "printed"
    assert record["options"]["second_player_bonus"] == "none"
    again = runner.invoke(app, ["replay", str(path), "--quiet"])
    assert again.exit_code == 0, again.output


def test_the_lab_simulates_printed(tmp_path) -> None:
    args = ["simulate", "breadwinner", "-o", "rules=printed", "--games", "2", "--agents", "random"]
    result = runner.invoke(app, [*args, "--workers", "1", "--seed", "0", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert [v["options"] for v in report["variants"]] == [{"rules": "printed"}]


@pytest.mark.parametrize("name", GAMES)
def test_the_game_info_offers_the_switch_first_with_its_words(name: str) -> None:
    option = robotable.load_game(name).info()["options"][0]
    assert option["name"] == "rules" and option["default"] == "balanced"
    assert option["choices"] == ["balanced", "printed"]
    assert option["labels"] == {"balanced": "balanced (recommended)", "printed": "as printed"}
    printed = {k: list(v) if isinstance(v, tuple) else v for k, v in PRINTED[name].items()}
    assert option["presets"] == {"printed": printed}


# Words a player reads at the table: no rule codes (SB-11.6, BW-R14), no dates, no record notes.
RULE_CODE = re.compile(r"\b[A-Z]{2}-R?\d+")
DATE = re.compile(
    r"\b(19|20)\d\d\b|\b\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)", re.IGNORECASE
)


@pytest.mark.parametrize("name", GAMES)
def test_option_help_is_one_short_line_for_players(name: str) -> None:
    for spec in game_class(name).option_specs:
        where = f"{name} option {spec.name}"
        assert spec.help and "\n" not in spec.help, where
        assert len(spec.help) <= 100, f"{where}: {len(spec.help)} characters"
        assert not RULE_CODE.search(spec.help), f"{where}: a rule code in {spec.help!r}"
        assert not DATE.search(spec.help), f"{where}: a date in {spec.help!r}"
        assert "record" not in spec.help.lower(), f"{where}: {spec.help!r}"


def test_help_checks_catch_what_they_look_for() -> None:
    assert RULE_CODE.search("attack tally (SB-11.7)") and RULE_CODE.search("ruling BW-R14")
    assert DATE.search("before 27 Nov 2026") and DATE.search("the 2023 prototype")
    assert not RULE_CODE.search("0,0,0,1 in round 4") and not DATE.search("1 to 1000 turns")


def test_games_is_a_short_table() -> None:
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    # A line a game, a heading and a footer (the test process registers games of its own too).
    assert len(lines) <= len(game_names()) + 4
    for name in GAMES:
        (row,) = [line for line in lines if line.startswith(name + " ")]
        cls = game_class(name)
        assert f"{cls.min_players}-{cls.max_players}" in row or str(cls.min_players) in row
    assert re.search(r"^betabotz +3-6 +30-60 ", result.stdout, re.MULTILINE)


def test_games_game_shows_its_options_one_each() -> None:
    result = runner.invoke(app, ["games", "iotabots"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    rows = {line.split()[0]: line for line in result.stdout.splitlines() if line.strip()}
    for spec in game_class("iotabots").option_specs:
        assert spec.name in rows, spec.name
    assert "balanced (recommended)" in rows["rules"] and "balanced, printed" in rows["rules"]
    assert "mana, card, both, none" in rows["second_player_bonus"]
    as_json = runner.invoke(app, ["games", "iotabots", "--json"])
    assert json.loads(as_json.stdout)["options"][0]["name"] == "rules"
    unknown = runner.invoke(app, ["games", "chess"])
    assert unknown.exit_code == 2 and "unknown game 'chess'" in unknown.output


def test_a_lab_run_from_before_the_switch_is_the_same_game() -> None:
    """A results file written before `rules` existed resumes: its rules did not name the switch
    and were balanced."""
    from robotable.sim.results_file import rules_difference, rules_of

    here = rules_of("rumblebots", 4)
    before = {**here, "defaults": {k: v for k, v in here["defaults"].items() if k != "rules"}}
    assert rules_difference(before, here, "rumblebots") == ""
    printed = {**here, "defaults": {**here["defaults"], "rules": "printed"}}
    assert "rules" in rules_difference(printed, here, "rumblebots")
