"""Bread Winner content: the crop chip values, read from data/crop_chips.toml (or a user's file).

The rulebook gives no chip values, so the bundled set is robotable's own ruling (BW-R6). A chip
set is a tuple of exactly ten positive integers, one per crop chip; chip id i has value
`values[i]`. Files are validated by pydantic once and cached; states only hold chip ids.
"""

from __future__ import annotations

from functools import lru_cache

from pydantic import BaseModel, ConfigDict, Field

from robotable.core.content import CardName, read_toml, validate_entries
from robotable.core.errors import ContentError

NUM_CROP_CHIPS = 10
BUNDLED_FILE = "data/crop_chips.toml"
PACKAGE = "robotable.games.breadwinner"


class _ChipEntry(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: CardName = Field(min_length=1, max_length=60)
    value: int = Field(ge=1, le=12)
    count: int = Field(ge=1, le=NUM_CROP_CHIPS)


@lru_cache(maxsize=16)  # bounded: inline content from strangers must not grow it for ever
def load_crop_values(source: str = "") -> tuple[int, ...]:
    """The ten chip values of the bundled chip file ("") or a user's (inline or a path), sorted;
    errors name the file, the entry and the field."""
    if source:
        name, data = read_toml(source)
    else:
        name, data = read_toml(BUNDLED_FILE, package=PACKAGE)
    extra = sorted(set(data) - {"chip"})
    if extra:
        raise ContentError(f"content file {name}: unknown table '{extra[0]}' (expected [[chip]])")
    entries = validate_entries(name, data.get("chip"), _ChipEntry, kind="chip")
    # Counted before any chip is made: many entries of ten chips each are refused, not built.
    total = sum(entry.count for entry in entries)
    if total != NUM_CROP_CHIPS:
        raise ContentError(
            f"content file {name}: the chip counts add up to {total}, "
            f"the game has {NUM_CROP_CHIPS} crop chips"
        )
    return tuple(sorted(entry.value for entry in entries for _ in range(entry.count)))


def check_crop_values(values: tuple, where: str) -> tuple[int, ...]:
    """Validate a `crop_values` option: ten positive integers (at most 12, the loaf count)."""
    if len(values) != NUM_CROP_CHIPS:
        raise ContentError(f"{where}: needs {NUM_CROP_CHIPS} values, got {len(values)}")
    for value in values:
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 12:
            raise ContentError(f"{where}: every value must be an integer 1-12, got {value!r}")
    return tuple(values)
