"""Rules versions: a record or a stored table replays with the bundled content it was made with.

When a bundled card set changes what a game does, the game's version goes up and the former set
is kept (`Game.former_content`); the pinned digests below make a content change without a new
version fail here, not in a player's saved game.
"""

from __future__ import annotations

import hashlib
import random
from importlib import resources

import pytest

import robotable
from robotable.core.errors import RecordError
from robotable.core.options import INLINE
from robotable.core.registry import bundled_game_names, game_class, load_recorded_game

# The rules version of each game and a digest of the bundled content it plays (every data file
# but the guide and the former versions' files). Changing the content changes the digest: raise
# the game's version, keep the former file in its `former_content`, then pin both here. (A change
# that cannot alter a recorded game, a comment in a card file, only needs the new digest.)
PINNED = {
    "betabotz": ("1", "ce2dabac811b6454"),
    "breadwinner": ("1", "a5a32f0445fbbcf4"),
    "iotabots": ("1", "56cdfb83aec93f1d"),
    "rumblebots": ("5", "2a0c8cc3235172ff"),
    "stakbots": ("1", "8a96de68a688d18a"),
}


def test_every_pin_is_a_bundled_game() -> None:
    assert set(PINNED) <= set(bundled_game_names()), "PINNED names a game that is gone"


def _content_digest(name: str) -> str:
    cls = game_class(name)
    former = {
        f for files in cls.former_content.values() for v in files.values() for f in v.values()
    }
    data = resources.files(cls.__module__).joinpath("data")
    digest = hashlib.sha256()
    for entry in sorted(data.iterdir(), key=lambda e: e.name):
        # Guides and the guided game's coach script teach the rules; they do not change them.
        if (
            entry.name.endswith(".md")
            or entry.name == "coach.toml"
            or f"data/{entry.name}" in former
        ):
            continue
        digest.update(entry.name.encode() + b"\0" + entry.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


@pytest.mark.parametrize("name", bundled_game_names())
def test_rules_version_goes_up_with_the_bundled_content(name: str) -> None:
    if name not in PINNED:  # a game added since: it is pinned once its content is settled
        pytest.skip(
            f"no pinned content for game {name}: pin {name!r}: "
            f"({game_class(name).version!r}, {_content_digest(name)!r}) in PINNED"
        )
    version, digest = PINNED[name]
    assert (game_class(name).version, _content_digest(name)) == (version, digest), (
        f"{name}'s bundled content changed: raise its version and keep the former files "
        "in former_content (see this file's docstring)"
    )


@pytest.mark.parametrize("name", bundled_game_names())
def test_every_former_version_loads_its_content(name: str) -> None:
    cls = game_class(name)
    for version in cls.former_content:
        game = load_recorded_game(name, version)
        assert game.version == version
        assert cls.version != version


def _random_record(game, seed: int, steps: int) -> dict:
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    actions = []
    while not state.is_terminal() and len(actions) < steps:
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        actions.append(action)
    return robotable.make_record(game, seed, actions, state)


def _design(game, name: str):
    return next(card for card in game.content.cards if card.name == name)


def _replay_as_former_version(version: str):
    """A random game played with `version`'s bundled cards (given as the user's own file), then
    replayed from a record that names only the version: the game and the state it replays to,
    and the state the game reached when it was played."""
    former = resources.files("robotable.games.rumblebots").joinpath(f"data/cards_v{version}.toml")
    played_with = robotable.load_game("rumblebots", cards=INLINE + former.read_text("utf-8"))
    record = _random_record(played_with, seed=5, steps=10_000)
    assert record["result"] is not None
    _, expected, _ = robotable.replay_record(dict(record))

    record.update(version=version, options={**record["options"], "cards": ""})
    game, state, _ = robotable.replay_record(record)
    assert game.version == version
    # A record written from that game says the same version again.
    assert robotable.make_record(game, record["seed"], [], None)["version"] == version
    return game, state, expected


def _stats(game, name: str) -> tuple[int, int, int]:
    card = _design(game, name)
    return card.attack, card.crits, card.defense


def test_rb_1_1_a_version_1_record_replays_with_the_former_cards() -> None:
    """RB-1.1: a game played with version 1's cards (Rust Rooster cost 2, Kettle Paladin 4/5)
    replays, from a record that names only version 1, exactly as it was played."""
    game, state, expected = _replay_as_former_version("1")
    assert _design(game, "Rust Rooster").cost == 2
    assert _stats(game, "Kettle Paladin") == (4, 1, 5)
    assert state.to_json() == expected.to_json()


def test_rb_1_1_a_version_2_record_replays_with_the_former_cards() -> None:
    """RB-1.1: a game played with version 2's cards (Bolt Beetle and Kettle Knight cost 3)
    replays, from a record that names only version 2, exactly as it was played."""
    game, state, expected = _replay_as_former_version("2")
    assert _design(game, "Rust Rooster").cost == 3
    assert _stats(game, "Kettle Paladin") == (3, 1, 4)
    assert (_design(game, "Bolt Beetle").cost, _design(game, "Kettle Knight").cost) == (3, 3)
    assert state.to_json() == expected.to_json()


def test_rb_1_1_a_version_3_record_replays_with_the_former_cards() -> None:
    """RB-1.1: a game played with version 3's cards (Steam Sparrow costs 2) replays, from a
    record that names only version 3, exactly as it was played."""
    game, state, expected = _replay_as_former_version("3")
    assert (_design(game, "Bolt Beetle").cost, _design(game, "Kettle Knight").cost) == (4, 4)
    assert _design(game, "Steam Sparrow").cost == 2
    assert state.to_json() == expected.to_json()


def test_rb_1_1_a_version_4_record_replays_with_the_former_cards() -> None:
    """RB-1.1: a game played with version 4's cards (Piston Pup costs 2) replays, from a record
    that names only version 4, exactly as it was played."""
    game, state, expected = _replay_as_former_version("4")
    assert _design(game, "Steam Sparrow").cost == 3
    assert _design(game, "Piston Pup").cost == 2
    assert state.to_json() == expected.to_json()


def test_rb_1_1_the_current_version_plays_the_current_cards() -> None:
    game = load_recorded_game("rumblebots", "5")
    assert _design(game, "Rust Rooster").cost == 3
    assert (_design(game, "Bolt Beetle").cost, _design(game, "Kettle Knight").cost) == (4, 4)
    assert _design(game, "Steam Sparrow").cost == 3
    assert _design(game, "Piston Pup").cost == 3
    assert game.options["cards"] == ""


def test_rb_2_5_a_record_made_before_the_challengers_head_start_replays_without_it() -> None:
    """RB-2.5: records and stored tables made before `first_challengers_scraps` existed do not
    name it; they played without a head start, and replay so, though a new two-seat game has
    one (one more scrap in round 4)."""
    default = robotable.load_game("rumblebots", num_players=2).options
    assert default["first_challengers_scraps"] == (0, 0, 0, 1)
    played = robotable.load_game("rumblebots", num_players=2, first_challengers_scraps="")
    for seed in range(30):  # a random game that lasts until round 4, where the scrap is paid
        record = _random_record(played, seed=seed, steps=10_000)
        _, expected, _ = robotable.replay_record(dict(record))
        if expected.round >= 4:
            break
    assert expected.round >= 4
    older = {k: v for k, v in record["options"].items() if k != "first_challengers_scraps"}
    game, state, _ = robotable.replay_record({**record, "options": older})
    assert game.options["first_challengers_scraps"] == ()
    assert state.to_json() == expected.to_json()
    # With the head start the same moves do not make the same game: a round-4 income differs.
    with_it = {**record, "options": {**older, "first_challengers_scraps": [0, 0, 0, 1]}}
    try:
        _, _, log = robotable.replay_record(with_it)
    except RecordError:
        return
    paid = [e for events in log for e in events if e["type"] == "income" and "head_start" in e]
    assert paid and all(e["first_challenger"] for e in paid)


def test_a_users_own_card_file_is_kept_for_a_former_version() -> None:
    own = INLINE + resources.files("robotable.games.rumblebots").joinpath(
        "data/cards.toml"
    ).read_text("utf-8")
    game = load_recorded_game("rumblebots", "1", cards=own)
    assert game.options["cards"] == own
    assert _design(game, "Rust Rooster").cost == 3


def test_an_unknown_version_names_the_versions_this_robotable_replays() -> None:
    game = robotable.load_game("rumblebots")
    record = robotable.make_record(game, 1, [])
    record["version"] = "0"
    with pytest.raises(
        RecordError,
        match=r"rules version 0, this robotable has version 5 and "
        r"replays 1, 2, 3, 4$",
    ):
        robotable.replay_record(record)
