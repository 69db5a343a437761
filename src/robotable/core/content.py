"""Loading content files (TOML) with validation at the edge.

Games describe each entry with a pydantic model; `load_entries` reads the file, validates every
entry and turns the first problem into one line naming the file, the entry and the field. The
validated entries are then turned into frozen dataclasses by the game: validation never runs in
the hot path.
"""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, TypeVar

from pydantic import AfterValidator, BaseModel, ValidationError

from .errors import ContentError, validation_words
from .options import INLINE, MAX_INLINE, OptionError, OptionSpec, content_files_allowed
from .text import clean_block, clean_text

M = TypeVar("M", bound=BaseModel)

# A user's content file may be read from disk (the command line, the library) and is then not
# capped by the option check: no card file of any game comes near this many characters.
MAX_FILE = 16 * MAX_INLINE
# Entries of one kind in one file (cards, chips, missions...): every bundled set has under 100,
# and each entry costs validation and memory before a game's own totals can be checked.
MAX_ENTRIES = 500


def read_text(source: str | Path, package: str | None = None) -> tuple[str, str]:
    """(name for errors, text) of content: a bundled file of `package` (looked up in the
    package only, never the working directory), inline content, or a user's file by path."""
    if package is not None:
        ref = resources.files(package).joinpath(str(source))
        try:
            return Path(str(source)).name, ref.read_text(encoding="utf-8")
        except (FileNotFoundError, OSError):
            raise ContentError(f"content file {source}: no such bundled file") from None
    text = str(source)
    if text.startswith(INLINE):
        return "inline content", text[len(INLINE) :]
    if not content_files_allowed():
        # Defence in depth: option checking refuses these first; nothing here touches the disk.
        raise ContentError("content: file paths are not accepted here")
    try:
        with Path(source).open(encoding="utf-8") as handle:
            # Read one character past the cap, so a bigger file is refused without reading it all.
            body = handle.read(MAX_FILE + 1)
    except OSError as exc:
        raise ContentError(f"content file {source}: cannot read it ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise ContentError(f"content file {source}: not UTF-8 text") from None
    if len(body) > MAX_FILE:
        raise ContentError(f"content file {source}: over {MAX_FILE} characters")
    return text, body


def read_toml(source: str | Path, package: str | None = None) -> tuple[str, dict[str, Any]]:
    """`read_text`, parsed as TOML; errors name the file (or "inline content")."""
    name, text = read_text(source, package)
    try:
        return name, tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ContentError(f"content file {name}: not valid TOML ({exc})") from None
    except ValueError:
        # tomllib lets int()'s own refusal of a number of thousands of digits through.
        raise ContentError(f"content file {name}: a number too long to be a count") from None
    except RecursionError:
        raise ContentError(f"content file {name}: arrays or tables nested too deeply") from None


def check_count(where: str, field: str, value: Any, low: int, high: int) -> int:
    """`value` as a count from `low` to `high`, or one ContentError line naming `where` and
    `field`. Every count that sizes something (copies, a deck line) passes here before anything
    is built from it."""
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        got = "nothing" if value is None else short_repr(value)
        raise ContentError(f"{where}: {field} must be an integer from {low} to {high}, got {got}")
    return value


def card_name(value: str) -> str:
    """A card's name as every viewer sees it: one line, no control characters or bidi
    overrides (core/text.py)."""
    return clean_text(value, 80)


def card_text(value: str) -> str:
    """A card's rules text as every viewer sees it (several lines allowed)."""
    return clean_block(value, 1000)


def _visible_name(value: str) -> str:
    cleaned = card_name(value)
    if not cleaned:
        raise ValueError("a name needs a visible character")
    return cleaned


# Field types for content models: a card's name (cleaned, and refused when nothing visible is
# left), a reference to a card by name (cleaned the same way, so it still matches), rules text.
CardName = Annotated[str, AfterValidator(_visible_name)]
CardRef = Annotated[str, AfterValidator(card_name)]
CardText = Annotated[str, AfterValidator(card_text)]


def validate_entries(
    file_name: str,
    entries: Any,
    model: type[M],
    kind: str = "card",
    label_field: str = "name",
) -> list[M]:
    """Validate a list of tables; the error names file, entry (by its label or index), field."""
    if not isinstance(entries, list) or not entries:
        raise ContentError(f"content file {file_name}: expected a non-empty list of {kind}s")
    if len(entries) > MAX_ENTRIES:
        raise ContentError(
            f"content file {file_name}: {len(entries)} {kind}s, at most {MAX_ENTRIES} are accepted"
        )
    out: list[M] = []
    for index, raw in enumerate(entries, start=1):
        label = raw.get(label_field) if isinstance(raw, dict) else None
        label = card_name(label) if isinstance(label, str) else None
        where = f"{kind} '{label}'" if label else f"{kind} #{index}"
        try:
            out.append(model.model_validate(raw))
        except ValidationError as exc:
            err = exc.errors()[0]
            field = ".".join(str(p) for p in err["loc"]) or "(entry)"
            got = err.get("input")
            got_text = "" if isinstance(got, dict) else f", got {short_repr(got)}"
            raise ContentError(
                f"content file {file_name}, {where}: {field}: {validation_words(err)}{got_text}"
            ) from None
    return out


def short_repr(value: Any) -> str:
    """A value in an error line: its repr, cut (a stranger's value may be thousands long)."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def embed_files(game: str, specs: tuple[OptionSpec, ...], given: dict[str, Any]) -> dict[str, Any]:
    """`given` with each content option that names a user's file replaced by that file's text,
    inline: what the command line plays with, so that its records and results files carry the
    content itself and replay anywhere without opening a file (a record never names one).
    Bundled names, inline content and values that are not files are left to the game."""
    out = dict(given)
    for spec in specs:
        value = out.get(spec.name)
        if not spec.content or not isinstance(value, str):
            continue
        if value in ("", *spec.bundled) or value.startswith(INLINE):
            continue
        path = Path(value).expanduser()
        if not path.is_file():
            continue
        name, text = read_text(path)
        if len(text) > MAX_INLINE:
            raise OptionError(
                f"game {game}, option '{spec.name}': {spec.content} file {name} is over "
                f"{MAX_INLINE} characters, more than a record can carry"
            )
        out[spec.name] = INLINE + text
    return out
