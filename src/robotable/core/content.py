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
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from .errors import ContentError
from .options import INLINE, content_files_allowed

M = TypeVar("M", bound=BaseModel)


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
        return text, Path(source).read_text(encoding="utf-8")
    except OSError as exc:
        raise ContentError(f"content file {source}: cannot read it ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise ContentError(f"content file {source}: not UTF-8 text") from None


def read_toml(source: str | Path, package: str | None = None) -> tuple[str, dict[str, Any]]:
    """`read_text`, parsed as TOML; errors name the file (or "inline content")."""
    name, text = read_text(source, package)
    try:
        return name, tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ContentError(f"content file {name}: not valid TOML ({exc})") from None


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
    out: list[M] = []
    for index, raw in enumerate(entries, start=1):
        label = raw.get(label_field) if isinstance(raw, dict) else None
        where = f"{kind} '{label}'" if label else f"{kind} #{index}"
        try:
            out.append(model.model_validate(raw))
        except ValidationError as exc:
            err = exc.errors()[0]
            field = ".".join(str(p) for p in err["loc"]) or "(entry)"
            got = err.get("input")
            got_text = "" if isinstance(got, dict) else f", got {got!r}"
            raise ContentError(
                f"content file {file_name}, {where}: {field}: {err['msg']}{got_text}"
            ) from None
    return out
