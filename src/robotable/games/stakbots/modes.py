"""Which toggles, variations and modes (SB-11) may be played together, and their fixed numbers.

A combination the rules do not allow is refused when the game is built, with one line naming
the options and why, before any card is dealt.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from robotable.core.errors import ContentError, OptionError

TRAITOR_HAND = 3  # SB-11.8: the traitor's starting hand and the most a turn may end holding
QUICKFIRE_STAK = 5  # SB-11.9: Quickfire's stak size unless one is given
ORDINAL = ("first", "second", "third")  # a seat's staks in words (SB-11.12)


def multi_stak_size(num_players: int, staks: int, hand_size: int, deck_size: int) -> int:
    """SB-11.12: the stak size with several staks per seat, unless one is given: 9 for two
    seats, 5 for three or four, fewer when the deck cannot deal that many."""
    wanted = 9 if num_players == 2 else 5
    return max(1, min(wanted, (deck_size - num_players * hand_size) // (num_players * staks)))


# SB-11.13: what the club tournament format fixes, and the deck-building limits it checks.
CLUB = {
    "staks": 2,
    "stak_size": 9,
    "hand_size": 3,
    "reactive": True,
    "setup_effects": True,
    "skip_first_draw": True,
    "borderless": "off",
    "attack_tally": 0,
    "recycling": False,
    "traitor": False,
    "quickfire": False,
    "teams": False,
    "drones": 0,
}
CLUB_PER_RANK = 10  # cards of each rank 1-6 in a club deck
CLUB_MAX_COPIES = 5  # copies of one card (same name, power and rank)


def apply_preset(
    game: str, num_players: int, opts: dict[str, Any], given: dict[str, Any], defaults: dict
) -> None:
    """SB-11.13: `preset=club` sets the club format's options; an option the user set to
    something other than its default and the format's is refused, naming it (a form that sends
    every option at its default, as the web lobby does, is not refused)."""
    if opts["preset"] != "club":
        return
    if num_players != 2:
        raise OptionError(
            f"game {game}, option 'preset=club': the club format is a duel, 2 seats, not "
            f"{num_players} (SB-11.13)"
        )
    for name, value in CLUB.items():
        if name in given and opts[name] != value and opts[name] != defaults[name]:
            raise OptionError(
                f"game {game}, option '{name}': the club format plays {name}={_word(value)} "
                f"(SB-11.13); leave it out or drop preset=club"
            )
        opts[name] = value


def _word(value: Any) -> str:
    """An option's value as typed on a command line ("true", not "True")."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def check_club_deck(deck: Any) -> None:
    """SB-11.13: a club deck holds 10 cards of each rank 1-6 and at most 5 copies of a card."""
    ranks = Counter(c.rank for c in deck.cards)
    for rank in range(1, 7):
        if ranks.get(rank, 0) != CLUB_PER_RANK:
            raise ContentError(
                f"card file {deck.source}: the club format needs {CLUB_PER_RANK} cards of each "
                f"rank 1-6, and rank {rank} has {ranks.get(rank, 0)} (SB-11.13)"
            )
    other = sorted(r for r in ranks if not 1 <= r <= 6)
    if other:
        raise ContentError(
            f"card file {deck.source}: the club format takes ranks 1-6 only, not rank "
            f"{other[0]} (SB-11.13)"
        )
    copies = Counter(c.key() for c in deck.cards)
    key, most = copies.most_common(1)[0]
    if most > CLUB_MAX_COPIES:
        raise ContentError(
            f"card file {deck.source}: the club format allows {CLUB_MAX_COPIES} copies of a "
            f"card, and {key[0]} (power {key[2] if key[2] is not None else 'X'}, rank {key[3]}) "
            f"has {most} (SB-11.13)"
        )


def check_modes(game: str, num_players: int, opts: dict[str, Any]) -> None:
    """Raise OptionError for the first combination SB-11 refuses."""

    def refuse(names: str, why: str) -> None:
        raise OptionError(f"game {game}, options {names}: {why}")

    if num_players == 1 and not opts["drones"]:
        refuse("'drones'", "one seat plays Drone Mode: drones must be 1 to 3 (SB-11.14)")
    if opts["drones"] and num_players != 1:
        refuse("'drones'", f"Drone Mode is solo: 1 seat, not {num_players} (SB-11.14)")
    if opts["drones"]:
        for name, off in (("borderless", "off"), ("traitor", False), ("preset", "none")):
            if opts[name] != off:
                refuse(f"'drones' and '{name}'", "Drone Mode plays the base rules (SB-11.14)")
    if opts["teams"] and num_players != 4:
        refuse("'teams'", f"teams need 4 seats (two teams of two), not {num_players} (SB-11.10)")
    if opts["borderless"] == "team" and not opts["teams"]:
        refuse("'borderless=team'", "playing onto teammates' staks needs teams=true (SB-11.6)")
    if opts["traitor"] and opts["recycling"]:
        refuse(
            "'traitor' and 'recycling'",
            "recycling discards a hand card, which the traitor variation forbids (SB-11.8)",
        )
    if opts["traitor"] and opts["borderless"] != "off":
        refuse(
            "'traitor' and 'borderless'",
            "the traitor variation already says where cards are played (SB-11.8)",
        )
