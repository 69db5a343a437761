"""Card files (SB-1.4): the bundled deck, user files, and one-line errors naming file, card, field."""

from __future__ import annotations

import pytest

import robotable
from robotable import ContentError, OptionError
from robotable.games.stakbots.content import load_deck

GOOD = """
[[cards]]
bot = "Core"
power = 3
rank = 2
copies = 40

[[cards]]
bot = "Shot Bot"
power = 0
rank = 4
copies = 10

[[cards]]
bot = "Leader"
power = "X"
rank = 5
copies = 10
"""


def write(tmp_path, text, name="my.toml"):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_sb_1_4_user_card_file_is_loaded_and_played(tmp_path):
    path = write(tmp_path, GOOD)
    g = robotable.load_game("stakbots", num_players=2, cards=path)
    assert len(g.deck) == 60
    assert {c.name for c in g.deck.cards} == {"Core Bot", "Shot Bot", "Leader Bot"}
    st = g.new_initial_state(3)
    while not st.is_terminal():
        st.apply_action(st.legal_actions()[-1])
    assert abs(sum(st.returns()) - 1) < 1e-9


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        (
            'bot = "Shot"\npower = "four"\nrank = 4',
            "card file {f}, card 'Shot Bot #2': power must be an integer >= 0, got 'four'",
        ),
        (
            'bot = "Shot"\npower = -1\nrank = 4',
            "card file {f}, card 'Shot Bot #2': power must be an integer >= 0, got -1",
        ),
        (
            'bot = "Shot"\nrank = 4',
            "card file {f}, card 'Shot Bot #2': power must be an integer >= 0, got nothing",
        ),
        (
            'bot = "Shot"\npower = 0\nrank = 0',
            "card file {f}, card 'Shot Bot #2': rank must be an integer >= 1, got 0",
        ),
        (
            'bot = "Shot"\npower = 0\nrank = 1\ncopies = 0',
            "card file {f}, card 'Shot Bot #2': copies must be an integer >= 1, got 0",
        ),
        (
            'bot = "Leader"\npower = 3\nrank = 1',
            "card file {f}, card 'Leader Bot #1': power must be 'X' for a Leader Bot, got 3",
        ),
        (
            'bot = "Laser"\npower = 3\nrank = 1',
            "card file {f}, card #2: bot must be one of Core, Stomp",
        ),
        (
            'bot = "Shot"\npowr = 3\nrank = 1',
            "card file {f}, card 'Shot Bot #2': unknown field 'powr'",
        ),
        (
            'bot = "Shot"\nname = ""\npower = 0\nrank = 1',
            "card file {f}, card 'Shot Bot #2': name must be a non-empty string",
        ),
    ],
)
def test_sb_1_4_malformed_card_is_named_with_its_field(tmp_path, entry, message):
    path = write(tmp_path, f'[[cards]]\nbot = "Shot"\npower = 0\nrank = 4\n\n[[cards]]\n{entry}\n')
    with pytest.raises(ContentError) as err:
        load_deck(path)
    text = str(err.value)
    assert text.startswith(message.format(f=path)), text
    assert "\n" not in text


def test_sb_1_4_file_level_errors(tmp_path):
    with pytest.raises(ContentError, match=r"cannot read it"):
        load_deck(str(tmp_path / "missing.toml"))
    with pytest.raises(ContentError, match=r"not valid TOML"):
        load_deck(write(tmp_path, "[[cards]\nbot=", "broken.toml"))
    with pytest.raises(ContentError, match=r"expected a non-empty list of \[\[cards\]\]"):
        load_deck(write(tmp_path, 'name = "x"\n', "empty.toml"))
    with pytest.raises(ContentError, match=r"unknown top-level key 'card'"):
        load_deck(write(tmp_path, '[[card]]\nbot = "Core"\n', "typo.toml"))
    with pytest.raises(ContentError, match=r"no such bundled file"):
        load_deck("nosuchset")
    with pytest.raises(ContentError, match=r"more than 200 cards"):
        load_deck(write(tmp_path, '[[cards]]\nbot="Core"\npower=1\nrank=1\ncopies=201\n', "b.toml"))


def test_sb_1_4_cards_option_errors_are_one_line(tmp_path):
    small = write(tmp_path, '[[cards]]\nbot = "Core"\npower = 2\nrank = 1\ncopies = 20\n', "s.toml")
    with pytest.raises(ContentError, match=r"20 cards cannot deal 2 staks of 9"):
        robotable.load_game("stakbots", num_players=2, cards=small)
    with pytest.raises(OptionError, match=r"option 'stak_size'"):
        robotable.load_game("stakbots", num_players=2, stak_size=0)
    with pytest.raises(OptionError, match=r"5 seats is not allowed"):
        robotable.load_game("stakbots", num_players=5)


def test_sb_1_4_content_is_parsed_once():
    assert load_deck("base_proposed") is load_deck("base_proposed")
    g1 = robotable.load_game("stakbots", num_players=2)
    g2 = robotable.load_game("stakbots", num_players=3)
    assert g1.deck is g2.deck
