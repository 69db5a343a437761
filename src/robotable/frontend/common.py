"""Pieces the command-line front ends share: option parsing, error exits."""

from __future__ import annotations

import sys
from typing import Any, NoReturn

import typer

from ..core.content import embed_files
from ..core.errors import OptionError, RobotableError
from ..core.protocol import Game
from ..core.registry import game_class, load_game
from ..core.text import clean_text

MESSAGE_LENGTH = 1000  # characters of one error line


def fail(message: str, code: int = 2) -> NoReturn:
    """Print one line to stderr and exit: the shape of every user-facing error. The message may
    quote a file's text (a record's option name): shown on one line, without control characters,
    and cut at a length a terminal can show."""
    print(f"error: {clean_text(message, MESSAGE_LENGTH)}", file=sys.stderr)
    raise typer.Exit(code)


def parse_options(pairs: list[str] | None, where: str = "--option") -> dict[str, Any]:
    """['stak_size=5', 'cards=my.toml'] -> {'stak_size': '5', 'cards': 'my.toml'}; the game coerces."""
    options: dict[str, Any] = {}
    for pair in pairs or []:
        key, eq, value = pair.partition("=")
        if not eq or not key.strip():
            raise OptionError(f"{where} '{pair}': expected NAME=VALUE")
        options[key.strip()] = value.strip()
    return options


def build_game(
    name: str,
    players: int | None,
    options: dict[str, Any],
    decks: list[str] | None = None,
    cards: str | None = None,
) -> Game:
    """Load a game from command-line pieces; `--deck` fills deck0, deck1... and `--cards` the
    game's card-file option, when the game has them."""
    cls = game_class(name)
    spec_names = {spec.name for spec in cls.option_specs}
    for index, deck in enumerate(decks or []):
        key = f"deck{index}"
        if key not in spec_names:
            raise OptionError(f"game {name}: --deck given {index + 1} times but takes no {key}")
        options[key] = deck
    if cards is not None:
        key = next((k for k in ("cards", "content") if k in spec_names), None)
        if key is None:
            raise OptionError(f"game {name}: has no card file option for --cards")
        options[key] = cards
    # A user's file goes into the game (and its record) as inline content.
    options = embed_files(name, cls.option_specs, options)
    return load_game(name, num_players=players, **options)


def guard(func):
    """Turn robotable's errors into one-line messages with exit code 2."""
    import functools

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except RobotableError as exc:
            fail(str(exc))

    return wrapper
