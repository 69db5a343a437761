"""Declared, validated game options."""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from .errors import OptionError

# A content option's value is "" (the bundled default), a bundled name, inline content (this
# prefix followed by the file's text) or, on the command line and in the library, a file path.
INLINE = "inline:"
MAX_INLINE = 65_536  # characters of inline content in one option
MAX_TEXT = 200  # characters of any other text option
MAX_ITEMS = 32  # values in a list option (the longest real one, crop_values, has 10)

# Whether content options may name files. The web server turns this off around everything it
# builds from a request or a stored table, so no request can make it open a file of its own.
_content_files: ContextVar[bool] = ContextVar("robotable_content_files", default=True)


def content_files_allowed() -> bool:
    return _content_files.get()


@contextmanager
def no_content_files() -> Iterator[None]:
    """Within this block (and threads started from it), content options take only bundled
    names and inline content; a value that would be a file path is refused without looking."""
    token = _content_files.set(False)
    try:
        yield
    finally:
        _content_files.reset(token)


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option a game accepts: its type, default, allowed values and a line of help."""

    name: str
    type: type
    default: Any
    help: str
    choices: tuple = ()
    minimum: float | None = None
    maximum: float | None = None
    # Some defaults depend on the seat count (a stak size for 5 seats); None means "use default".
    default_by_players: dict[int, Any] = field(default_factory=dict)
    # What a record or a stored table that does not name this option plays with: for an option
    # added with a default that changes play, the value the games made before it had (None: the
    # default, as for any option left out).
    recorded_absent: Any = None
    # Content options (a card file, a deck): what the content is called ("card set", "deck") and
    # the names of the bundled ones; "" always means the bundled default.
    content: str = ""
    bundled: tuple[str, ...] = ()
    # A preset option (the `rules` switch): for a chosen value, the other options it sets where
    # the user did not set them, {value: {option: value}}; and the words a person reads for each
    # choice, {value: label} (a value without one reads as itself).
    presets: dict[Any, dict[str, Any]] = field(default_factory=dict)
    labels: dict[Any, str] = field(default_factory=dict)

    def default_for(self, num_players: int) -> Any:
        return self.default_by_players.get(num_players, self.default)

    def coerce(self, game: str, value: Any) -> Any:
        """Turn a value (possibly the string typed on a command line) into the option's type."""
        where = f"game {game}, option '{self.name}'"
        want = self.type
        if want in (tuple, list) and isinstance(value, str) and value.count(",") >= MAX_ITEMS:
            raise OptionError(f"{where}: at most {MAX_ITEMS} values")  # refused before the split
        try:
            if isinstance(value, str) and want is not str:
                if want is bool:
                    low = value.strip().lower()
                    if low not in ("true", "false", "1", "0", "yes", "no", "on", "off"):
                        raise ValueError(value)
                    value = low in ("true", "1", "yes", "on")
                elif want in (tuple, list):
                    value = tuple(_parse_scalar(p) for p in value.split(",") if p.strip())
                else:
                    value = want(value)
            elif want is float and isinstance(value, int) and not isinstance(value, bool):
                value = float(value)
            elif want in (tuple, list) and isinstance(value, list | tuple):
                value = tuple(value)
        except (TypeError, ValueError):
            raise OptionError(f"{where}: expected {want.__name__}, got {shown(value)}") from None
        if want in (tuple, list):
            if not isinstance(value, tuple):
                raise OptionError(f"{where}: expected a list, got {shown(value)}")
            # A list option holds plain values (from a record: JSON that may nest anything).
            if not all(isinstance(v, int | float | str) for v in value):
                raise OptionError(f"{where}: expected a list of numbers or names")
            if len(value) > MAX_ITEMS:
                raise OptionError(f"{where}: at most {MAX_ITEMS} values")
        elif not isinstance(value, want) or (want is int and isinstance(value, bool)):
            raise OptionError(f"{where}: expected {want.__name__}, got {shown(value)}")
        if want is str:
            self._check_text(where, value)
        if want is float and not math.isfinite(value):
            # nan passes every comparison with the bounds below, inf passes a minimum.
            raise OptionError(f"{where}: must be a finite number, got {shown(value)}")
        if self.choices and value not in self.choices:
            allowed = ", ".join(map(str, self.choices))
            raise OptionError(f"{where}: must be one of {allowed}, got {shown(value)}")
        if self.minimum is not None and value < self.minimum:
            raise OptionError(f"{where}: must be >= {self.minimum}, got {shown(value)}")
        if self.maximum is not None and value > self.maximum:
            raise OptionError(f"{where}: must be <= {self.maximum}, got {shown(value)}")
        return value

    def _check_text(self, where: str, value: str) -> None:
        if not self.content:
            if len(value) > MAX_TEXT:
                raise OptionError(f"{where}: at most {MAX_TEXT} characters")
            return
        if value.startswith(INLINE):
            if len(value) - len(INLINE) > MAX_INLINE:
                raise OptionError(f"{where}: inline {self.content} over {MAX_INLINE} characters")
            return
        if value == "" or value in self.bundled or content_files_allowed():
            return
        # The same answer whatever the value and whatever is on the disk: nothing was looked at.
        names = ", ".join(self.bundled) or "the default only"
        raise OptionError(
            f"{where}: not a bundled {self.content} (bundled: {names}); here a {self.content} "
            "is chosen by name or sent inline, never read from a file"
        )


def shown(value: Any) -> str:
    """An option's value in an error message, as a user would type it: a list as `0,0,1`
    (never Python's tuple syntax), anything else quoted as Python shows it."""
    if isinstance(value, tuple | list):
        return "'" + ",".join(str(v) for v in value) + "'"
    return repr(value)


def _parse_scalar(text: str) -> Any:
    text = text.strip()
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def resolve_options(
    game: str, specs: tuple[OptionSpec, ...], num_players: int, given: dict[str, Any]
) -> dict[str, Any]:
    """Defaults filled in, unknown names and bad values rejected with a one-line error."""
    by_name = {spec.name: spec for spec in specs}
    unknown = sorted(set(given) - set(by_name))
    if unknown:
        known = ", ".join(sorted(by_name)) or "none"
        raise OptionError(f"game {game}: unknown option '{unknown[0]}' (known options: {known})")
    resolved: dict[str, Any] = {}
    for spec in specs:
        if spec.name in given and given[spec.name] is not None:
            resolved[spec.name] = spec.coerce(game, given[spec.name])
        else:
            resolved[spec.name] = spec.default_for(num_players)
    # A preset fills in the options it names, except those the user set: an explicit option wins.
    for spec in specs:
        for name, value in spec.presets.get(resolved[spec.name], {}).items():
            if given.get(name) is None:
                resolved[name] = by_name[name].coerce(game, value)
    return resolved


# The rules switch every game offers: its measured fairness rulings, or the rulebook as written.
BALANCED, PRINTED = "balanced", "printed"


def rules_option(printed: dict[str, Any], help: str) -> OptionSpec:
    """The `rules` option: `balanced` (robotable's measured fairness rulings, the default) or
    `printed` (the rulebook as written, with rulings only where it is silent), which sets each
    fairness option in `printed` to its rulebook value unless the user set that option. Records
    and stored tables made before the switch existed played balanced, and replay so."""
    return OptionSpec(
        "rules",
        str,
        BALANCED,
        help,
        choices=(BALANCED, PRINTED),
        recorded_absent=BALANCED,
        presets={PRINTED: dict(printed)},
        labels={BALANCED: "balanced (recommended)", PRINTED: "as printed"},
    )
