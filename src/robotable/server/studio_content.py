"""The studio's card sets: the bundled ones, a draft read into rows of fields with their lines,
and a content error placed at its line and field.

A draft is TOML text, the one source of truth: the page's table of cards is drawn from the rows
`read_draft` returns (each field with the line it sits on), and an edit in a cell rewrites that
line of the text. Validation is the game's own loader (`load_game` with the draft inline, no file
ever opened); its one-line error names the entry and the field, which `place_error` turns into a
line of the text.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from importlib import resources
from typing import Any

from ..core.errors import RobotableError
from ..core.options import INLINE, MAX_INLINE, no_content_files
from ..core.registry import game_class, load_game


@dataclass(frozen=True, slots=True)
class CardSets:
    """Where a game's card set lives: the option that takes it, the bundled files by name, and
    the arrays of entries in its TOML with the word its errors use for one entry."""

    option: str
    bundled: tuple[tuple[str, str], ...]  # (name shown, file in the game's package)
    sections: tuple[tuple[str, str], ...]  # (TOML array, the loader's word for one entry)


CARD_SETS: dict[str, CardSets] = {
    "stakbots": CardSets(
        "cards", (("Stak Bots' own 60 cards", "data/base_proposed.toml"),), (("cards", "card"),)
    ),
    "breadwinner": CardSets(
        "crop_file", (("The crop chips in the box", "data/crop_chips.toml"),), (("chip", "chip"),)
    ),
    "iotabots": CardSets(
        "cards", (("The Iotabots card pool", "data/cards.toml"),), (("cards", "card"),)
    ),
    "betabotz": CardSets(
        "content",
        (("The Betabotz set", "data/content.toml"),),
        (
            ("betabot", "betabot"),
            ("component", "component"),
            ("code", "code card"),
            ("breach", "limit breach"),
            ("mission", "mission"),
        ),
    ),
    "rumblebots": CardSets(
        "cards",
        (
            ("The Rumblebots set", "data/cards.toml"),
            ("First version", "data/cards_v1.toml"),
            ("Second version", "data/cards_v2.toml"),
            ("Third version", "data/cards_v3.toml"),
            ("Fourth version", "data/cards_v4.toml"),
        ),
        (("bots", "card"),),
    ),
}


class DraftError(RobotableError):
    """A draft the game refuses, with where in the text: `line` (from 1) and `field`, or None
    when the problem is the set as a whole."""

    def __init__(self, message: str, line: int | None = None, field: str | None = None) -> None:
        super().__init__(message)
        self.line = line
        self.field = field

    def to_json(self) -> dict[str, Any]:
        return {"message": str(self), "line": self.line, "field": self.field}


def card_sets(game: str) -> CardSets:
    sets = CARD_SETS.get(game)
    if sets is None:
        raise RobotableError(f"the studio has no card sets for game '{game}'")
    return sets


def bundled_text(game: str, index: int) -> str:
    """The text of a game's bundled set number `index` (from 0, in CardSets.bundled's order)."""
    sets = card_sets(game)
    if not 0 <= index < len(sets.bundled):
        raise RobotableError(f"{game_class(game).title} has {len(sets.bundled)} bundled sets")
    package = game_class(game).__module__
    return resources.files(package).joinpath(sets.bundled[index][1]).read_text(encoding="utf-8")


# -- rows and lines ---------------------------------------------------------------------------

_HEADER = re.compile(r"^\s*\[\[\s*([A-Za-z0-9_.-]+)\s*\]\]")
_SUBTABLE = re.compile(r"^\s*\[\s*([A-Za-z0-9_.-]+)\s*\]")
_TABLE = re.compile(r"^\s*\[")
_KEY = re.compile(r"^\s*([A-Za-z0-9_-]+)\s*=")


def read_draft(game: str, text: str) -> list[dict[str, Any]]:
    """The draft's entries as rows: {section, kind, number, line, fields: {name: {value, line,
    editable}}}; `line` is the entry's [[header]] line, each field's the line of its `name =`.
    A field is editable in a cell when its value is a plain number, text or yes/no written on
    one line. Raises DraftError (with the line) when the text is not TOML."""
    data = parse_toml(text)
    sets = card_sets(game)
    kinds = dict(sets.sections)
    headers: dict[str, list[tuple[int, dict[str, int], dict[str, list]]]] = {k: [] for k in kinds}
    current: dict[str, int] | None = None  # where the `name =` lines below go
    entry: tuple[str, dict[str, list]] | None = None  # the entry's section and its sub-tables
    for number, line in enumerate(text.splitlines(), start=1):
        header = _HEADER.match(line) or _SUBTABLE.match(line)
        name = header.group(1) if header else ""
        section, _, sub = name.partition(".")
        if header and name in kinds:
            current, subs = {}, {}
            entry = (name, subs)
            headers[name].append((number, current, subs))
        elif header and entry is not None and section == entry[0] and sub and "." not in sub:
            # A sub-table of the entry ([[cards.effects]]): its lines, for its errors.
            current = {}
            entry[1].setdefault(sub, []).append({"line": number, "fields": current})
        elif _TABLE.match(line):
            current, entry = None, None  # another table
        elif current is not None and (key := _KEY.match(line)):
            current.setdefault(key.group(1), number)
    lines = text.splitlines()
    rows = []
    for key, kind in sets.sections:
        entries = data.get(key)
        if not isinstance(entries, list):
            continue
        for index, (raw, (line, fields, subs)) in enumerate(zip(entries, headers[key]), start=1):
            if not isinstance(raw, dict):
                continue
            cells = {}
            for name, value in raw.items():
                at = fields.get(name)
                cells[name] = {
                    "value": value if _plain(value) else _shown(value),
                    "line": at,
                    "editable": at is not None and _plain(value) and _one_line(lines[at - 1]),
                }
            rows.append(
                {
                    "section": key,
                    "kind": kind,
                    "number": index,
                    "line": line,
                    **_label(raw),
                    "fields": cells,
                    "parts": subs,
                }
            )
    return rows


def _plain(value: Any) -> bool:
    return isinstance(value, str | int | float | bool)


def _one_line(line: str) -> bool:
    try:
        return len(tomllib.loads(line)) == 1
    except (tomllib.TOMLDecodeError, ValueError, RecursionError):
        return False


def _shown(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(_shown(v) for v in value)
    if isinstance(value, dict):
        return "; ".join(f"{k} {_shown(v)}" for k, v in value.items())
    return str(value)


def _label(entry: dict[str, Any]) -> dict[str, str]:
    name = entry.get("name")
    if not isinstance(name, str) and isinstance(entry.get("bot"), str):
        name = f"{entry['bot']} Bot"  # a Stak Bots card is named by its bot unless given a name
    return {"label": name if isinstance(name, str) else ""}


def parse_toml(text: str) -> dict[str, Any]:
    if len(text) > MAX_INLINE:
        raise DraftError(f"the card set is over {MAX_INLINE} characters")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r"line (\d+)", str(exc))
        reason = re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)", "", str(exc))
        line = int(found.group(1)) if found else None
        raise DraftError(f"not valid TOML: {reason}", line) from None
    except (ValueError, RecursionError):
        raise DraftError("not valid TOML: a number too long or tables nested too deeply") from None


# -- checking ---------------------------------------------------------------------------------


def check_draft(game: str, num_players: int, text: str, options: dict[str, Any]) -> dict[str, Any]:
    """The game's options with the draft inline, once the game has loaded with them; a refusal
    is a DraftError placed at its line and field."""
    rows = read_draft(game, text)
    given = {**options, card_sets(game).option: INLINE + text}
    try:
        with no_content_files():
            load_game(game, num_players=num_players, **given)
    except RobotableError as exc:
        raise place_error(str(exc), rows, text) from None
    return given


_WHERE = re.compile(r"(?:content|card) file inline content, ([a-z ]+?) (#(\d+)|'([^']*)')(: |, )")
_NUMBERED = re.compile(r"^(.*) #(\d+)$")


def place_error(message: str, rows: list[dict[str, Any]], text: str = "") -> DraftError:
    """A loader's error line as a DraftError at the line of the entry and field it names."""
    where = _WHERE.search(message)
    if where is None:
        # The set as a whole: the file's name, which is no file here, is left out.
        words = re.sub(r"(content|card) file inline content[:,] ", "", message)
        return DraftError(words, _table_line(message, rows, text))
    kind = where.group(1)
    shown = message[where.start(1) :].rstrip(".")
    row = _find_row(rows, kind, where.group(3), where.group(4))
    if row is None:
        return DraftError(shown)
    rest = message[where.end() :]
    line, field = _field_line(rest, row)
    return DraftError(shown, line or row["line"], field)


def _find_row(
    rows: list[dict[str, Any]], kind: str, number: str | None, label: str | None
) -> dict[str, Any] | None:
    of_kind = [r for r in rows if r["kind"] == kind]
    if number is not None:
        index = int(number)
        return of_kind[index - 1] if 0 < index <= len(of_kind) else None
    named = [r for r in of_kind if r["label"] == label]
    if named:
        return named[0]
    numbered = _NUMBERED.match(label or "")
    if numbered is None:
        return None
    # Stak Bots counts the copies of a name: 'Core Bot #3' is the entry holding its third copy.
    name, copy = numbered.group(1), int(numbered.group(2))
    seen = 0
    for row in of_kind:
        if row["label"] != name:
            continue
        copies = row["fields"].get("copies", {}).get("value", 1)
        seen += copies if isinstance(copies, int) and copies > 0 else 1
        if seen >= copy:
            return row
    return None


def _field_line(rest: str, row: dict[str, Any]) -> tuple[int | None, str | None]:
    """(line, field) of the field an entry's error names: the first word after the entry
    (`power must be...`, or pydantic's `effects.0.kind: ...`), an unknown field's name, or else
    the first of the entry's fields the sentence mentions."""
    fields = row["fields"]
    unknown = re.match(r"unknown field '([^']+)'", rest)
    first = re.match(r"([A-Za-z0-9_.-]+)", rest)
    path = (unknown or first).group(1).split(".") if (unknown or first) else []
    if path and path[0] in fields:
        parts = row["parts"].get(path[0]) or []
        if len(path) >= 3 and path[1].isdigit() and int(path[1]) < len(parts):
            part = parts[int(path[1])]
            named = f"{path[0]} {int(path[1]) + 1}, {path[2]}"
            return part["fields"].get(path[2], part["line"]), named
        return fields[path[0]]["line"], path[0]
    for word in re.findall(r"[A-Za-z_]+", rest):
        if word in fields:
            return fields[word]["line"], word
    return None, None


def _table_line(message: str, rows: list[dict[str, Any]], text: str) -> int | None:
    """The line of what a whole-set error names: an entry by its label (a card a deck or a
    mission refers to), or a table by its name; else None."""
    for quoted in re.findall(r"'([^']+)'", message):
        for row in rows:
            if row["label"] == quoted:
                return row["line"]
        for number, line in enumerate(text.splitlines(), start=1):
            header = _HEADER.match(line) or _SUBTABLE.match(line)
            if header and header.group(1) == quoted:
                return number
    return None
