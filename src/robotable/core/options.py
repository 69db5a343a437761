"""Declared, validated game options."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import OptionError


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

    def default_for(self, num_players: int) -> Any:
        return self.default_by_players.get(num_players, self.default)

    def coerce(self, game: str, value: Any) -> Any:
        """Turn a value (possibly the string typed on a command line) into the option's type."""
        where = f"game {game}, option '{self.name}'"
        want = self.type
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
            raise OptionError(f"{where}: expected {want.__name__}, got {value!r}") from None
        if want in (tuple, list):
            if not isinstance(value, tuple):
                raise OptionError(f"{where}: expected a list, got {value!r}")
        elif not isinstance(value, want) or (want is int and isinstance(value, bool)):
            raise OptionError(f"{where}: expected {want.__name__}, got {value!r}")
        if self.choices and value not in self.choices:
            allowed = ", ".join(map(str, self.choices))
            raise OptionError(f"{where}: must be one of {allowed}, got {value!r}")
        if self.minimum is not None and value < self.minimum:
            raise OptionError(f"{where}: must be >= {self.minimum}, got {value!r}")
        if self.maximum is not None and value > self.maximum:
            raise OptionError(f"{where}: must be <= {self.maximum}, got {value!r}")
        return value


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
    return resolved
