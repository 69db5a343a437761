"""Stak Bots content: the 16 bot types and the card files that say which cards make up a deck.

A card file is TOML with one `[[cards]]` table per card (or per group of identical cards):

    [[cards]]
    bot = "Shot"        # one of the 16 bot types (BOTS below); "Shot Bot" is accepted too
    power = 0           # an integer >= 0; a Leader Bot's power is always "X" (SB-8.10)
    rank = 4            # an integer >= 1 (it normally has no effect on play, SB-1.3)
    copies = 1          # optional, default 1
    name = "Shot Bot"   # optional, default "<bot> Bot"

The file is validated once at the edge (here) and turned into frozen `CardDef`s shared by every
state; errors name the file, the card and the field on one line. The rulebook gives no card list
and no powers: the bundled `base_proposed.toml` is robotable's own 60-card design (SB-1.4).
"""

from __future__ import annotations

import enum
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from robotable.core.content import card_name, read_toml, short_repr
from robotable.core.errors import ContentError
from robotable.core.options import INLINE

PACKAGE = "robotable.games.stakbots"
BUNDLED = "base_proposed"
MAX_DECK = 200  # bounds the encodings; determinize packs ids in 8 bits, so keep it < 256
# A card's power and rank are C longs in the compiled engine and small numbers in any real set.
MAX_NUMBER = 99


class Bot(enum.IntEnum):
    """The 16 bot types of the base game (SB-8)."""

    CORE = 0
    STOMP = 1
    BASH = 2
    SPIKE = 3
    CLUMSY = 4
    SHOT = 5
    REAPER = 6
    FATAL = 7
    SIDEKICK = 8
    LEADER = 9
    BOUNTIFUL = 10
    EXPEL = 11
    TRANQ = 12
    BEGONE = 13
    TRIP = 14
    PIT = 15

    @property
    def title(self) -> str:
        return self.name.capitalize()


# The types the rules test on every entry effect and attack, as plain module names (BOT_SHOT is
# Bot.SHOT): in Python 3.11 reading `Bot.SHOT` goes through the enum metaclass's __getattr__
# hook, several times the cost of a global, in both engines.
BOT_BASH = Bot.BASH
BOT_BEGONE = Bot.BEGONE
BOT_BOUNTIFUL = Bot.BOUNTIFUL
BOT_CLUMSY = Bot.CLUMSY
BOT_EXPEL = Bot.EXPEL
BOT_FATAL = Bot.FATAL
BOT_PIT = Bot.PIT
BOT_REAPER = Bot.REAPER
BOT_SHOT = Bot.SHOT
BOT_SIDEKICK = Bot.SIDEKICK
BOT_SPIKE = Bot.SPIKE
BOT_STOMP = Bot.STOMP
BOT_TRANQ = Bot.TRANQ
BOT_TRIP = Bot.TRIP

# What each type does, in the words the view and the renderer show (full text, short text).
TEXT: dict[Bot, tuple[str, str]] = {
    Bot.CORE: ("No ability.", ""),
    Bot.STOMP: (
        "Once it attacks a stak it must keep attacking that stak until it is stopped.",
        "keeps attacking",
    ),
    Bot.BASH: (
        "* When it damages a card, scrap the bottom card of that card's stak.",
        "*scrap bottom",
    ),
    Bot.SPIKE: (
        "* When it damages a card, scrap the card directly beneath that card.",
        "*scrap beneath",
    ),
    Bot.CLUMSY: ("> Scrap the bottom card of its own stak.", ">scrap own bottom"),
    Bot.SHOT: ("> Choose a top card: it takes 4 damage.", ">4 dmg to a top"),
    Bot.REAPER: ("> Choose another top card: scrap it.", ">scrap a top"),
    Bot.FATAL: ("* Any card it damages is scrapped.", "*kills what it hits"),
    Bot.SIDEKICK: ("> It swaps places with the card beneath it.", ">drops one place"),
    Bot.LEADER: (
        "Power X = the face-up cards in an unbroken run with it, itself included.",
        "X=face-up run",
    ),
    Bot.BOUNTIFUL: ("> Its owner draws a card from the supply.", ">draw 1"),
    Bot.EXPEL: (
        "> Choose a player: they scrap a card of their choice from their hand.",
        ">a player discards",
    ),
    Bot.TRANQ: (
        "> Choose another face-up card in any stak: turn it face-down (reset).",
        ">reset a card",
    ),
    Bot.BEGONE: (
        "> Choose another top card: it returns to its stak owner's hand.",
        ">return a top",
    ),
    Bot.TRIP: ("> Choose a top card: it swaps places with the card beneath it.", ">trip a top"),
    Bot.PIT: ("> Choose a top card: move it face-up to the bottom of its stak.", ">pit a top"),
}

_BOT_BY_NAME = {b.title.lower(): b for b in Bot} | {f"{b.title.lower()} bot": b for b in Bot}


@dataclass(frozen=True, slots=True)
class CardDef:
    """One physical card of the deck. `power` is None for a Leader Bot (X, counted live)."""

    id: int
    name: str
    bot: Bot
    power: int | None
    rank: int

    @property
    def power_text(self) -> str:
        return "X" if self.power is None else str(self.power)

    @property
    def text(self) -> str:
        return TEXT[self.bot][0]

    @property
    def short(self) -> str:
        return TEXT[self.bot][1]

    def key(self) -> tuple[str, int, int | None, int]:
        """Cards with the same key are interchangeable (one legal action stands for all)."""
        return (self.name, int(self.bot), self.power, self.rank)


@dataclass(frozen=True, slots=True)
class Deck:
    """A validated card file: the cards by id, shared by every state of a game."""

    source: str
    cards: tuple[CardDef, ...]

    def __len__(self) -> int:
        return len(self.cards)


_FIELDS = ("bot", "power", "rank", "copies", "name")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_deck(file_name: str, data: dict[str, Any]) -> Deck:
    """Validate a card file's parsed TOML; the first problem raises one ContentError line."""
    where_file = f"card file {file_name}"
    unknown_top = sorted(set(data) - {"cards", "name", "description"})
    if unknown_top:
        raise ContentError(
            f"{where_file}: unknown top-level key '{unknown_top[0]}' (expected [[cards]] tables)"
        )
    entries = data.get("cards")
    if not isinstance(entries, list) or not entries:
        raise ContentError(f"{where_file}: expected a non-empty list of [[cards]] tables")
    cards: list[CardDef] = []
    seen_by_name: dict[str, int] = {}
    for index, raw in enumerate(entries, start=1):
        if not isinstance(raw, dict):
            raise ContentError(
                f"{where_file}, card #{index}: expected a table, got {short_repr(raw)}"
            )
        bot_raw = raw.get("bot")
        bot = _BOT_BY_NAME.get(bot_raw.strip().lower()) if isinstance(bot_raw, str) else None
        default_name = f"{bot.title} Bot" if bot is not None else None
        name = raw.get("name", default_name)
        if isinstance(name, str):
            # What viewers see: no control characters or bidi overrides (core/text.py).
            name = card_name(name)
        label_name = name if isinstance(name, str) and name else default_name
        number = seen_by_name.get(label_name or "", 0) + 1
        where = (
            f"{where_file}, card '{label_name} #{number}'"
            if label_name
            else f"{where_file}, card #{index}"
        )
        extra = sorted(set(raw) - set(_FIELDS))
        if extra:
            raise ContentError(f"{where}: unknown field '{extra[0]}' (known: {', '.join(_FIELDS)})")
        if bot is None:
            known = ", ".join(b.title for b in Bot)
            got = "nothing" if bot_raw is None else short_repr(bot_raw)
            raise ContentError(f"{where}: bot must be one of {known}, got {got}")
        if not isinstance(name, str) or not name.strip():
            raise ContentError(f"{where}: name must be a non-empty string, got {short_repr(name)}")
        power = raw.get("power")
        if bot is Bot.LEADER:
            if power != "X":
                raise ContentError(
                    f"{where}: power must be 'X' for a Leader Bot, got {short_repr(power)}"
                )
            power = None
        elif not _is_int(power) or power < 0:
            got = "nothing" if power is None else short_repr(power)
            raise ContentError(f"{where}: power must be an integer >= 0, got {got}")
        elif power > MAX_NUMBER:
            raise ContentError(
                f"{where}: power must be at most {MAX_NUMBER}, got {short_repr(power)}"
            )
        rank = raw.get("rank")
        if not _is_int(rank) or rank < 1:
            got = "nothing" if rank is None else short_repr(rank)
            raise ContentError(f"{where}: rank must be an integer >= 1, got {got}")
        if rank > MAX_NUMBER:
            raise ContentError(
                f"{where}: rank must be at most {MAX_NUMBER}, got {short_repr(rank)}"
            )
        # Checked against the room left in the deck before a single copy is made: a count of a
        # billion is refused here, never built.
        copies = raw.get("copies", 1)
        if not _is_int(copies) or copies < 1:
            raise ContentError(f"{where}: copies must be an integer >= 1, got {short_repr(copies)}")
        if copies > MAX_DECK - len(cards):
            raise ContentError(
                f"{where}: {short_repr(copies)} copies make more than {MAX_DECK} cards"
            )
        first = len(cards)
        cards.extend(CardDef(first + k, name, bot, power, rank) for k in range(copies))
        seen_by_name[label_name] = number - 1 + copies
    return Deck(file_name, tuple(cards))


@lru_cache(maxsize=16)
def _load(path: str, package: str | None, stamp: int) -> Deck:
    name, data = read_toml(path, package=package)
    # read_toml names the file as 'content file'; keep its message, it already says file and why.
    return parse_deck(name, data)


def load_deck(cards: str) -> Deck:
    """The deck named by the `cards` option: a bundled set's name, inline content, or a path to
    a user's file.

    Parsed once per file version (cached on path and modification time).
    """
    if cards.startswith(INLINE):
        return _load(cards, None, 0)
    if cards.endswith(".toml") or os.sep in cards or "/" in cards:
        path = Path(cards)
        try:
            stamp = path.stat().st_mtime_ns
        except OSError as exc:
            raise ContentError(f"card file {cards}: cannot read it ({exc.strerror})") from None
        return _load(str(path), None, stamp)
    if not cards.replace("_", "").isalnum():
        raise ContentError(f"card set '{cards}': not a bundled set name nor a .toml path")
    return _load(f"data/{cards}.toml", PACKAGE, 0)
