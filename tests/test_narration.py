"""Narration: every game words every event itself, for one reader, without positions or JSON."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import robotable
from robotable.core.narration import Voice, second_person
from robotable.core.registry import bundled_game_names, game_class

NAMES = ["Ada", "Bo", "Cy", "Dee", "Eve", "Fay"]
CONFIGS = [
    (name, n)
    for name in bundled_game_names()
    for n in sorted({game_class(name).min_players, game_class(name).max_players})
]

# What a reader must never see: raw data (JSON, field names) or a thing named by its position.
RAW = re.compile(r"[{}\[\]=_]|\bNone\b|\bTrue\b|\bFalse\b")
POSITION = re.compile(
    r"\b(seat|slot|position|index|player|bot|card|zone)\s*#?\d", flags=re.IGNORECASE
)
YOU = re.compile(r"\byou(r|rs|rself)?\b", flags=re.IGNORECASE)


def _random_steps(name: str, num_players: int, seed: int, max_steps: int = 400):
    game = robotable.load_game(name, num_players=num_players)
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    steps = []
    while not state.is_terminal() and len(steps) < max_steps:
        steps.append(state.apply_action(rng.choice(state.legal_actions())))
    return game, steps


@pytest.mark.parametrize(("name", "num_players"), CONFIGS, ids=[f"{g}-{n}" for g, n in CONFIGS])
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_every_event_is_worded_by_its_game(name: str, num_players: int, seed: int) -> None:
    lines = getattr(game_class(name).narration, "LINES", None)
    if lines is None:
        pytest.skip(
            f"game {name} words its events generically: name a narration module with LINES "
            "in its Game (docs/your-own-game.md) for this check"
        )
    game, steps = _random_steps(name, num_players, seed)
    kinds = {e["type"] for events in steps for e in events}
    assert kinds <= set(lines), f"{name}: events without wording: {sorted(kinds - set(lines))}"


@pytest.mark.parametrize(("name", "num_players"), CONFIGS, ids=[f"{g}-{n}" for g, n in CONFIGS])
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_narration_names_no_position_and_says_you_only_to_its_reader(
    name: str, num_players: int, seed: int
) -> None:
    game, steps = _random_steps(name, num_players, seed)
    names = NAMES[:num_players]
    for events in steps:
        public = game.narrate(events, None, names)
        for line in public:
            assert not RAW.search(line), f"{name}: raw data in {line!r}"
            assert not POSITION.search(line), f"{name}: a position in {line!r}"
            assert not YOU.search(line), f"{name}: 'you' for a spectator in {line!r}"
        for viewer in range(num_players):
            mine = game.narrate(events, viewer, names)
            for line in mine:
                assert not RAW.search(line), f"{name}: raw data in {line!r}"
                assert not POSITION.search(line), f"{name}: a position in {line!r}"
            # A public event read by a seat says "you" only where the spectator's line names
            # that very seat.
            public_events = [e for e in events if "to" not in e]
            for event in public_events:
                theirs = game.narrate([event], viewer, names)
                spectator = game.narrate([event], None, names)
                for line, seen in zip(theirs, spectator, strict=True):
                    if YOU.search(line):
                        assert names[viewer] in seen, (
                            f"{name}: {line!r} says 'you' to {names[viewer]}, "
                            f"but the event is about {seen!r}"
                        )


# A board or a prompt names seats as "Seat N", counted from 1, and shows no data structure: no
# Python list or dict, no None/True/False, no identifier with an underscore.
SEAT_NUMBER = re.compile(r"\bseat (\d+)\b", flags=re.IGNORECASE)
DATA = re.compile(
    r"\[[\d.]+(, ?[\d.]+)*\]|[{}]|\bNone\b|\bTrue\b|\bFalse\b|\b[a-z]+_[a-z_]+\b"
    r"|\breturns \[|\bcontroller\b|\borigin known\b"
)
# What a spectator's board must not call a seat: a spectator sits on nobody's side. (The prompt
# is another matter: it speaks to the seat deciding.)
SIDED = re.compile(r"\((you|opponent|teammate)[,)]", flags=re.IGNORECASE)


@pytest.mark.parametrize(("name", "num_players"), CONFIGS, ids=[f"{g}-{n}" for g, n in CONFIGS])
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_boards_and_prompts_count_seats_from_one_and_show_no_data(
    name: str, num_players: int, seed: int
) -> None:
    game = robotable.load_game(name, num_players=num_players)
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    # To the end (a game's last board and prompt say how it ended), within a bound.
    for _ in range(10_000):
        seat = None if state.is_terminal() else state.current_player()
        for reader in {seat, None}:
            text = game.render(state, reader) + "\n" + state.view(reader)["prompt"]
            for line in text.splitlines():
                for number in SEAT_NUMBER.findall(line):
                    assert 1 <= int(number) <= num_players, f"{name}: a seat out of range: {line!r}"
                assert not DATA.search(line), f"{name}: raw data in {line!r}"
            if reader is None:
                side = SIDED.search(game.render(state, None))
                assert not side, f"{name}: a spectator is given a side: {side.group(0)!r}"
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.is_terminal(), f"{name}: seed {seed}'s random game did not end in 10,000 moves"


@pytest.mark.parametrize("name", bundled_game_names())
def test_every_game_has_a_guide_with_its_terms(name: str) -> None:
    game = robotable.load_game(name)
    guide = game.guide()
    for heading in ("## Goal", "## A turn", "## Terms"):
        assert heading in guide, f"{name}: the guide has no '{heading}' section"
    assert len(game.glossary()) >= 5


@pytest.mark.parametrize("name", bundled_game_names())
def test_choices_name_no_position(name: str) -> None:
    for num_players in sorted({game_class(name).min_players, game_class(name).max_players}):
        game = robotable.load_game(name, num_players=num_players)
        state = game.new_initial_state(seed=5)
        rng = random.Random(5)
        while not state.is_terminal():
            seat = state.current_player()
            for entry in state.legal_action_entries(seat):
                assert not POSITION.search(entry["label"]), f"{name}: {entry['label']!r}"
                assert not RAW.search(entry["label"]), f"{name}: {entry['label']!r}"
            state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize(
    ("third", "second"),
    [
        ("draws", "draw"),
        ("has", "have"),
        ("passes", "pass"),
        ("carries", "carry"),
        ("is scrapped", "are scrapped"),
        ("goes first", "go first"),
        ("wins", "win"),
        ("energizes", "energize"),
        ("buzzes", "buzz"),
        ("chooses", "choose"),
        ("fixes", "fix"),
    ],
)
def test_verbs_agree_with_the_reader(third: str, second: str) -> None:
    assert second_person(third) == second
    voice = Voice.of(2, viewer=0, names=["Ada", "Bo"])
    assert voice.does(0, third) == f"You {second}"
    assert voice.does(1, third) == f"Bo {third}"
    assert voice.whose(0) == "your" and voice.whose(1) == "Bo's"


def test_seats_without_names_count_from_one() -> None:
    voice = Voice.of(3, viewer=None)
    assert [voice.who(s) for s in range(3)] == ["Seat 1", "Seat 2", "Seat 3"]
    assert Voice.of(2, viewer=None, names=["Ada", ""]).names == ("Ada", "Seat 2")


def _terms_section(guide: str) -> list[str]:
    lines, inside = [], False
    for line in guide.splitlines():
        if line.startswith("#"):
            inside = line.lstrip("#").strip().lower() == "terms"
        elif inside:
            lines.append(line)
    return lines


@pytest.mark.parametrize("name", bundled_game_names())
def test_every_term_keeps_its_whole_definition(name: str) -> None:
    """A term's meaning that runs over several lines of the guide is read whole (Betabotz and
    Rumblebots wrap many): every word of the Terms section is in the glossary."""
    game = robotable.load_game(name)
    glossary = game.glossary()
    said = " ".join(f"{term} {meaning}" for term, meaning in glossary.items()).split()
    written = " ".join(_terms_section(game.guide())).replace("- **", " ").replace("**:", " ")
    assert said == written.split(), f"{name}: the glossary drops words of the guide's Terms"


_WORD = st.text(alphabet="abcdefghij", min_size=1, max_size=6)


@settings(max_examples=50, deadline=None)
@given(
    items=st.lists(
        st.tuples(_WORD, st.lists(st.lists(_WORD, min_size=1, max_size=5), min_size=1, max_size=4)),
        min_size=1,
        max_size=6,
        unique_by=lambda item: item[0],
    )
)
def test_a_wrapped_meaning_is_joined_whole(items) -> None:
    from robotable.core.protocol import parse_glossary

    text = ["# Game", "", "## Terms", ""]
    for term, rows in items:
        text.append(f"- **{term}**: {' '.join(rows[0])}")
        text.extend("  " + " ".join(row) for row in rows[1:])
    text += ["", "## After", "- **Not a term**: no"]
    glossary = parse_glossary("\n".join(text))
    assert glossary == {term: " ".join(" ".join(row) for row in rows) for term, rows in items}


def test_a_result_says_who_won_and_by_how_much() -> None:
    from robotable.core.narration import plural, result_by_score

    two = Voice.of(2, None, ["Ada", "Bo"])
    three = Voice.of(3, 1, ["Ada", "Bo", "Cy"])
    loaves = lambda n: plural(n, "loaf", "loaves")  # noqa: E731
    bitz = lambda n: f"{n} Bitz"  # noqa: E731
    assert result_by_score([12, 9], [0], two, loaves) == "Ada wins, 12 loaves to 9."
    assert result_by_score([7, 7], [0, 1], two, loaves) == "Ada and Bo draw, 7 loaves each."
    assert (
        result_by_score([40, 45, 31], [1], three, bitz)
        == "You win with 45 Bitz, to Ada's 40 and Cy's 31."
    )
    assert (
        result_by_score([40, 40, 31], [0], three, bitz, "on combined attributes")
        == "Ada wins on combined attributes with 40 Bitz, to your 40 and Cy's 31."
    )
    assert (
        result_by_score([40, 40, 31], [0, 1], three, bitz)
        == "Ada and you share the win with 40 Bitz each, to Cy's 31."
    )


def test_a_team_win_is_said_as_one() -> None:
    from robotable.core.narration import result_from_returns

    voice = Voice.of(4, None, ["Ada", "Bo", "Cy", "Di"])
    assert result_from_returns([0.5, 0, 0.5, 0], voice, [0, 1, 0, 1]) == "Ada and Cy win together."
    assert result_from_returns([0.5, 0.5], Voice.of(2, 0, ["Ada", "Bo"])) == "You and Bo draw."


# The words that say a game's margin: a count of the game's own points.
MARGIN = {
    "breadwinner": r"\d+ loa(f|ves)",
    "betabotz": r"\d+ Bitz",
    "rumblebots": r"\d+ crystals?",
    "iotabots": r"\d+ duels?",
    "stakbots": r"\d+ cards? left|draw|Drone",
}


@pytest.mark.parametrize(("name", "num_players"), CONFIGS, ids=[f"{g}-{n}" for g, n in CONFIGS])
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_every_game_says_who_won_and_by_how_much(name: str, num_players: int, seed: int) -> None:
    game = robotable.load_game(name, num_players=num_players)
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    names = NAMES[:num_players]
    returns = state.returns()
    best = max(returns)
    for reader in [None, *range(num_players)]:
        text = game.result_sentence(state, reader, names)
        assert not RAW.search(text) and not POSITION.search(text), text
        assert re.search(MARGIN[name], text), f"{name}: no margin in {text!r}"
        if reader is None:
            won = [names[s] for s, r in enumerate(returns) if r == best and r > 0]
            assert all(w in text for w in won) and not YOU.search(text), text
            if num_players > 1 and len(set(returns)) == 1:  # everybody level: a draw
                assert re.search(r"\bdraw|share", text), text
