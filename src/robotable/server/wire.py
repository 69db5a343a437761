"""Frames on the wire: JSON text, encoded and decoded with orjson.

Encoding the seats' frames is the largest share of the server's CPU per move after the game
itself; orjson does it several times faster than the standard library, with the same output
for the plain dicts, lists, strings, numbers and booleans that views and events hold.
"""

from __future__ import annotations

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


class TooDeep(ValueError):
    """A client's JSON nests deeper than the server takes."""


def depth_of(value: Any) -> int:
    """How deeply a parsed JSON value nests (a scalar 0, `[]` 1, `{"a": [1]}` 2), walked with a
    stack of its own: the work is one step per array or object, and no input can exhaust
    Python's recursion."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return deepest


def loads_limited(data: bytes, max_depth: int) -> Any:
    """A client's JSON text parsed, refused when it nests deeper than `max_depth`.

    The text is parsed first and measured after, because both steps are linear in its size:
    orjson is a one-pass C parser that stops at 1,024 levels by itself, and `depth_of` visits
    each container once. (A regular expression skipping strings before parsing backtracked
    quadratically on a string of escaped quotes and froze the server for minutes.) Callers
    bound the size before calling. Raises TooDeep, or ValueError when the text is not JSON.
    """
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        if str(exc).startswith("depth limit exceeded"):
            raise TooDeep(f"nested deeper than {max_depth} levels") from None
        raise
    if depth_of(value) > max_depth:
        raise TooDeep(f"nested deeper than {max_depth} levels")
    return value
