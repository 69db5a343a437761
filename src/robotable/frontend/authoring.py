"""Commands for a game's author: `robotable new-game` writes a working game package from the
template in robotable/templates/newgame, and `robotable check` runs the conformance checker on
any game (docs/your-own-game.md)."""

from __future__ import annotations

import importlib
import importlib.util
import keyword
import re
import sys
from importlib import resources
from pathlib import Path
from string import Template
from types import ModuleType
from typing import Annotated

import typer

from ..core.errors import OptionError
from ..core.protocol import Game
from ..core.registry import ENTRY_POINT_GROUP, bundled_game_names, game_class, game_names
from .common import guard, parse_options

NAME = re.compile(r"[a-z][a-z0-9_]{1,30}")
TEMPLATE = ("templates", "newgame")


def register(app: typer.Typer) -> None:
    app.command("new-game")(new_game_command)
    app.command("check")(check_command)


@guard
def new_game_command(
    name: Annotated[
        str, typer.Argument(help="The game's name: lower case, a Python package name.")
    ],
    directory: Annotated[
        Path | None,
        typer.Option("--dir", help="Where to write the package (default: ./NAME; must be empty)."),
    ] = None,
    title: Annotated[
        str | None, typer.Option(help="The game's title as people read it (default: from NAME).")
    ] = None,
) -> None:
    """Write a new game as its own package, ready to play: a pyproject.toml whose entry point
    robotable finds, the game's modules, its guide and a test.

    Example: `robotable new-game mygame --dir ~/mygame`, then `pip install -e ~/mygame`,
    `robotable play mygame --seats human,medium` and `robotable check mygame`.
    """
    check_new_name(name)
    target = directory if directory is not None else Path(name)
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise OptionError(f"new-game --dir {target}: exists and is not an empty directory")
    words = {
        "name": name,
        "title": title or name.replace("_", " ").title(),
        "cls": "".join(part.title() for part in name.split("_")),
    }
    written = write_template(target, name, words)
    print(f"wrote {len(written)} files of the game '{name}' into {target}:")
    for path in written:
        print(f"  {path.relative_to(target)}")
    print(
        "next: pip install -e "
        f"{target}, then robotable play {name} --seats human,medium and robotable check {name} "
        "(docs/your-own-game.md walks through the rest)"
    )


def check_new_name(name: str) -> None:
    """A name a new game may take: a lower-case package name no game or module has yet."""
    if not NAME.fullmatch(name) or keyword.iskeyword(name):
        raise OptionError(
            f"new-game '{name}': a name is 2-31 lower-case letters, digits and '_', "
            "starting with a letter (it is the game's package name)"
        )
    if name in game_names():
        raise OptionError(f"new-game '{name}': a game of that name exists already")
    try:
        taken = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        taken = None
    if taken is not None:
        where = taken.origin or "a namespace package"
        raise OptionError(f"new-game '{name}': a module of that name exists already ({where})")


def write_template(target: Path, name: str, words: dict[str, str]) -> list[Path]:
    """Copy the template, its `package` folder renamed to `name` and `.txt` dropped from each
    file's name, with ${name}, ${title} and ${cls} filled in."""
    root = resources.files("robotable").joinpath(*TEMPLATE)
    written: list[Path] = []

    def copy(source, into: Path) -> None:
        for entry in sorted(source.iterdir(), key=lambda e: e.name):
            if entry.name.startswith((".", "__pycache__")):
                continue
            if entry.is_dir():
                copy(entry, into / (name if entry.name == "package" else entry.name))
                continue
            file_name = entry.name.removesuffix(".txt").replace("test_game", f"test_{name}")
            path = into / file_name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(Template(entry.read_text("utf-8")).substitute(words), "utf-8")
            written.append(path)

    copy(root, target)
    return written


@guard
def check_command(
    game: Annotated[
        str,
        typer.Argument(
            help="A game's name (see robotable games), a module that holds a Game (mygame or "
            "mygame.rules), or the path of a game package's folder."
        ),
    ],
    games: Annotated[
        int, typer.Option("--games", min=1, max=10_000, help="Random games per seat count.")
    ] = 10,
    players: Annotated[
        int | None, typer.Option("--players", "-n", help="One seat count (default: every one).")
    ] = None,
    seed: Annotated[int, typer.Option(min=0, help="The first game's seed.")] = 1,
    max_steps: Annotated[
        int, typer.Option(min=1, max=1_000_000, help="Actions checked per game at most.")
    ] = 300,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="A game option NAME=VALUE.")
    ] = None,
) -> None:
    """Run the conformance checker on a game: random games at every seat count, every
    position checked (clone independence, JSON round trips, determinism, views and
    determinize, illegal actions, returns, events) and its guide. One line per broken
    property names what and where; exit 0 when every property holds, 1 when one fails, 2 for
    bad input.

    Example: `robotable check mygame`, `robotable check examples/dicerace/dicerace -n 2`.
    """
    from ..core.conformance import check_game

    cls = resolve_game(game)
    if players is not None and not cls.min_players <= players <= cls.max_players:
        raise OptionError(
            f"check --players {players}: game {cls.name} takes {cls.min_players} to "
            f"{cls.max_players} seats"
        )
    report = check_game(
        cls,
        [players] if players is not None else None,
        games=games,
        seed=seed,
        max_steps=max_steps,
        options=parse_options(option),
    )
    for failure in report.failures:
        print(f"FAIL {failure}")
    print(report.summary())
    raise typer.Exit(0 if report.ok else 1)


def resolve_game(spec: str) -> type[Game]:
    """The Game class `spec` names: a known game, a module path, or a package's folder."""
    if spec in game_names():
        if spec in bundled_game_names():
            _warn_shadowed(spec)
        return game_class(spec)
    path = Path(spec)
    if path.exists():
        module = _import_path(path)
    else:
        if not re.fullmatch(r"[A-Za-z_][\w.]*", spec):
            known = ", ".join(game_names())
            raise OptionError(f"check '{spec}': no such game ({known}), module or folder")
        try:
            module = importlib.import_module(spec)
        except ModuleNotFoundError as exc:
            # the module itself (or a package above it) is missing, not something it imports
            if exc.name and (spec == exc.name or spec.startswith(exc.name + ".")):
                known = ", ".join(game_names())
                raise OptionError(
                    f"check '{spec}': neither a game (known games: {known}) nor an importable "
                    f"module ({exc})"
                ) from None
            raise OptionError(f"check '{spec}': importing it failed: {exc}") from None
        except Exception as exc:
            raise OptionError(
                f"check '{spec}': importing it failed: {type(exc).__name__}: {exc}"
            ) from None
    return _game_in(module, spec)


def _import_path(path: Path) -> ModuleType:
    """Import a package's folder (or a .py file) by putting its parent on sys.path."""
    path = path.resolve()
    if path.is_dir() and not (path / "__init__.py").exists():
        raise OptionError(f"check {path}: a folder must be a Python package (no __init__.py)")
    if path.is_file() and path.suffix != ".py":
        raise OptionError(f"check {path}: not a Python file or package folder")
    name = path.stem if path.is_file() else path.name
    parent = str(path.parent)
    if parent not in sys.path:
        sys.path.insert(0, parent)
    try:
        return importlib.import_module(name)
    except Exception as exc:
        raise OptionError(
            f"check {path}: importing it failed: {type(exc).__name__}: {exc}"
        ) from None


def _game_in(module: ModuleType, spec: str) -> type[Game]:
    """The module's GAME (or its one Game class), else its package's: `mygame.rules` names
    the game of `mygame`."""
    found = getattr(module, "GAME", None)
    if isinstance(found, type) and issubclass(found, Game):
        return found
    classes = {
        obj
        for obj in vars(module).values()
        if isinstance(obj, type) and issubclass(obj, Game) and obj is not Game and obj.name
    }
    if len(classes) == 1:
        return classes.pop()
    parent = module.__name__.rpartition(".")[0]
    if not classes and parent:
        return _game_in(sys.modules[parent], spec)
    what = "several Game classes" if classes else "no Game class"
    raise OptionError(
        f"check '{spec}': the module {module.__name__} has {what}; set GAME = YourGame"
    )


def _warn_shadowed(name: str) -> None:
    """A bundled game keeps its name: say so when an installed package offers one too."""
    from importlib import metadata

    for entry in metadata.entry_points(group=ENTRY_POINT_GROUP):
        if entry.name == name:
            print(
                f"note: '{name}' is a bundled game; the entry point '{entry.value}' of the same "
                "name is not used (rename the game)",
                file=sys.stderr,
            )
