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

M = TypeVar("M", bound=BaseModel)


def read_toml(path: str | Path, package: str | None = None) -> tuple[str, dict[str, Any]]:
    """Read a user's file by path, or a bundled one (`package` = the game's data package)."""
    if package is not None and not Path(path).is_absolute() and not Path(path).exists():
        ref = resources.files(package).joinpath(str(path))
        name = Path(str(path)).name
        try:
            text = ref.read_text(encoding="utf-8")
        except (FileNotFoundError, OSError):
            raise ContentError(f"content file {path}: no such bundled file") from None
    else:
        name = str(path)
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise ContentError(f"content file {path}: cannot read it ({exc.strerror})") from None
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
