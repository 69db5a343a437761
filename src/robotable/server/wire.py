"""Frames on the wire: JSON text, encoded and decoded with orjson.

Encoding the seats' frames is the largest share of the server's CPU per move after the game
itself; orjson does it several times faster than the standard library, with the same output
for the plain dicts, lists, strings, numbers and booleans that views and events hold.
"""

from __future__ import annotations

import re
from typing import Any

import orjson

# Views key some maps by card or seat number; orjson wants a flag to write non-string keys.
_OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(frame: Any) -> str:
    """Compact JSON text of a frame."""
    return orjson.dumps(frame, option=_OPTIONS).decode()


def loads(text: str | bytes) -> Any:
    """A client's JSON message; raises ValueError (orjson.JSONDecodeError) when malformed."""
    return orjson.loads(text)


# A JSON string (skipped whole) or a bracket: what nesting depth is made of.
_STRUCTURE = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def nesting_depth(data: bytes) -> int:
    """How deeply a JSON text nests, found by a regular expression (C speed) without parsing:
    strings are skipped whole, so brackets inside inline content do not count."""
    depth = deepest = 0
    for match in _STRUCTURE.finditer(data):
        token = match.group()
        if token in (b"[", b"{"):
            depth += 1
            if depth > deepest:
                deepest = depth
        elif token in (b"]", b"}"):
            depth -= 1
    return deepest
