"""Which toggles, variations and modes (SB-11) may be played together, and their fixed numbers.

A combination the rules do not allow is refused when the game is built, with one line naming
the options and why, before any card is dealt.
"""

from __future__ import annotations

from typing import Any

from robotable.core.errors import OptionError

TRAITOR_HAND = 3  # SB-11.8: the traitor's starting hand and the most a turn may end holding
QUICKFIRE_STAK = 5  # SB-11.9: Quickfire's stak size unless one is given
ORDINAL = ("first", "second", "third")  # a seat's staks in words (SB-11.12)


def multi_stak_size(num_players: int, staks: int, hand_size: int, deck_size: int) -> int:
    """SB-11.12: the stak size with several staks per seat, unless one is given: 9 for two
    seats, 5 for three or four, fewer when the deck cannot deal that many."""
    wanted = 9 if num_players == 2 else 5
    return max(1, min(wanted, (deck_size - num_players * hand_size) // (num_players * staks)))


def check_modes(game: str, num_players: int, opts: dict[str, Any]) -> None:
    """Raise OptionError for the first combination SB-11 refuses."""

    def refuse(names: str, why: str) -> None:
        raise OptionError(f"game {game}, options {names}: {why}")

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
