"""Which games exist. A game package registers itself by being a sub-package of
`robotable.games` that exposes `GAME` (its Game subclass), or, kept outside robotable, by an
entry point in the group `robotable.games` (`mygame = "mygame:GAME"` in its pyproject.toml, see
docs/your-own-game.md); nothing is imported until asked for."""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from types import ModuleType
from typing import TYPE_CHECKING, Any

from .content import read_text
from .errors import OptionError, RecordError
from .options import INLINE
from .protocol import Game

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint


@cache
def bundled_game_names() -> list[str]:
    """The games shipped inside robotable (sub-packages of robotable.games)."""
    import robotable.games as games_pkg

    return sorted(
        m.name for m in pkgutil.iter_modules(games_pkg.__path__) if m.ispkg and m.name[0] != "_"
    )


ENTRY_POINT_GROUP = "robotable.games"


@cache
def installed_games() -> dict[str, EntryPoint]:
    """The games installed as other packages: name -> its entry point in the group
    `robotable.games`. A bundled game keeps its name: an entry point of the same name is not
    used (`robotable check NAME` says so)."""
    from importlib import metadata

    bundled = set(bundled_game_names())
    found: dict[str, EntryPoint] = {}
    for entry in metadata.entry_points(group=ENTRY_POINT_GROUP):
        if entry.name not in bundled:
            found.setdefault(entry.name, entry)
    return found


@cache
def game_names() -> list[str]:
    """Every loadable game: the bundled ones, the installed ones (entry points) and any added
    with register_game."""
    return sorted(set(bundled_game_names()) | set(installed_games()) | set(_extra))


def rescan_games() -> None:
    """Forget what was found, so that the next question looks again (after a package with a
    game was installed in this process, or entry points were changed in a test)."""
    installed_games.cache_clear()
    game_names.cache_clear()
    _loaded.clear()


def game_class(name: str) -> type[Game]:
    if name not in game_names():
        known = ", ".join(game_names())
        raise OptionError(f"unknown game '{name}' (known games: {known})")
    if name in _extra:
        return _extra[name]
    if name in _loaded:
        return _loaded[name]
    installed = installed_games().get(name)
    if installed is None:
        module = importlib.import_module(f"robotable.games.{name}")
        return module.GAME
    _loaded[name] = cls = _entry_point_game(name, installed)
    return cls


def _entry_point_game(name: str, entry: EntryPoint) -> type[Game]:
    """The Game class an entry point names: `pkg:GAME`, or a module `pkg` exposing `GAME`."""
    where = f"game '{name}' (entry point '{entry.name} = {entry.value}' in {ENTRY_POINT_GROUP})"
    try:
        found = entry.load()
    except Exception as exc:  # the user's package: any error on import is theirs to see
        raise OptionError(f"{where}: does not import: {type(exc).__name__}: {exc}") from None
    if isinstance(found, ModuleType):
        found = getattr(found, "GAME", None)
        if found is None:
            raise OptionError(f"{where}: the module has no GAME (its Game subclass)")
    if not (isinstance(found, type) and issubclass(found, Game)):
        raise OptionError(f"{where}: names {found!r}, not a subclass of robotable.Game")
    if found.name != name:
        raise OptionError(
            f"{where}: the class's name is '{found.name}'; the entry point must be named after it"
        )
    return found


def load_game(name: str, num_players: int | None = None, **options: Any) -> Game:
    """A configured game; unknown games, seat counts and options raise OptionError."""
    return game_class(name)(num_players=num_players, **options)


def recorded_absent_options(name: str) -> dict[str, Any]:
    """What a record (or a stored table, or a results file) means by an option it does not name:
    the options added after records were made, each with its `recorded_absent` value, the value
    the games played as before it existed."""
    specs = game_class(name).option_specs
    return {spec.name: spec.recorded_absent for spec in specs if spec.recorded_absent is not None}


def load_recorded_game(
    name: str, version: str, num_players: int | None = None, **options: Any
) -> Game:
    """The game a record or a stored table was played in: `load_game`, with the bundled content
    of the rules version it was made with. A content option left at a bundled value then reads
    that version's file (as inline content, so every copy of the game, an AI worker's too, plays
    the same cards); a user's own content is kept. An option the record does not name takes its
    `recorded_absent` value where it has one. A version this robotable does not know raises
    RecordError."""
    cls = game_class(name)
    for option, value in recorded_absent_options(name).items():
        # a record made before the option existed played without it, whatever today's default
        options.setdefault(option, value)
    version = str(version)
    if version == cls.version:
        return cls(num_players=num_players, **options)
    former = cls.former_content.get(version)
    if former is None:
        kept = ", ".join(sorted(cls.former_content))
        raise RecordError(
            f"recorded with {name} rules version {version}, this robotable has version "
            f"{cls.version}" + (f" and replays {kept}" if kept else "")
        )
    defaults = {spec.name: spec.default for spec in cls.option_specs}
    package = cls.__module__
    for option, files in former.items():
        value = options.get(option, defaults[option])
        if value in files:
            options[option] = INLINE + read_text(files[value], package=package)[1]
    game = cls(num_players=num_players, **options)
    game.version = version  # what a record written from this game must say
    return game


def register_game(cls: type[Game]) -> type[Game]:
    """Make a game outside `robotable.games` loadable by name (a user's own game, a test game)."""
    _extra[cls.name] = cls
    game_names.cache_clear()
    return cls


_extra: dict[str, type[Game]] = {}
_loaded: dict[str, type[Game]] = {}  # installed games already imported, by name
