"""Text that strangers write (seat names, chat, card names and card text) made safe to show.

Such text reaches every viewer of a table, the terminal and records. Control characters (NUL,
ESC and the rest of Unicode's Cc class, which terminals act on), lone surrogates (which no
encoding can write) and the bidirectional embeddings, overrides and isolates (U+202A-U+202E,
U+2066-U+2069, which mirror the text around them for every viewer) are removed, runs of
whitespace become one space, and the result is capped in length. Letters of every script, emoji
and ordinary punctuation pass unchanged.
"""

from __future__ import annotations

import unicodedata

NAME_LENGTH = 40  # characters in a seat's name
CHAT_LENGTH = 200  # characters in one line of chat

# Bidi embeddings, overrides and isolates, and the implicit marks that can be abused the same way.
BIDI_CONTROLS = frozenset(
    "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
)


def _shown(char: str) -> bool:
    if char in BIDI_CONTROLS:
        return False
    # Cc: C0 and C1 controls (NUL, ESC, DEL...); Cs: a lone surrogate half.
    return unicodedata.category(char) not in ("Cc", "Cs")


def clean_text(text: str, max_length: int = 200) -> str:
    """`text` on one line, without control characters or bidi overrides, at most `max_length`
    characters (cut, not refused: a long name is still a name).

    Whitespace controls (tab, line breaks) become spaces first; hidden characters are removed
    before runs of spaces are joined, so cleaning twice changes nothing."""
    kept = "".join(char for char in text if char.isspace() or _shown(char))
    return " ".join(kept.split())[:max_length].rstrip()


def clean_block(text: str, max_length: int = 2000) -> str:
    """Like clean_text, but keeps line breaks (card rules text may have several lines)."""
    lines = (clean_text(line, max_length) for line in text.splitlines())
    return "\n".join(line for line in lines if line)[:max_length].rstrip()


def printable(text: str) -> str:
    """`text` as a terminal may print it: line breaks, tabs and spacing kept (a board has a
    layout), control characters and bidi overrides removed, nothing cut."""
    return "".join(char for char in text if char in "\n\t" or _shown(char))
