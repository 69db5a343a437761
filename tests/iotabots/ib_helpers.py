"""Helpers that build Iotabots positions for the rule and card tests."""

from __future__ import annotations

import robotable
from robotable.games.iotabots.actions import ChooseOrder, Mulligan
from robotable.games.iotabots.board import new_bot
from robotable.games.iotabots.state import IotabotsState


def game(**options):
    return robotable.load_game("iotabots", **options)


def start(seed: int = 1, **options) -> IotabotsState:
    """A match whose first duel is at seat 0's Main Phase 1 of turn 1 (seat 0 goes first)."""
    g = game(**options)
    s = g.new_initial_state(seed)
    s.apply_action(ChooseOrder(s.chooser == 0))
    s.apply_action(Mulligan(False))
    s.apply_action(Mulligan(False))
    assert s.active == 0 and s.turn == 1
    return s


def blank(seed: int = 1, turn: int = 3, **options) -> IotabotsState:
    """Seat 0's Main Phase 1 on a later turn, with empty hands and fields and 6 mana each."""
    s = start(seed, **options)
    for seat in (0, 1):
        s.deck[seat].extend(s.hand[seat])
        s.hand[seat] = []
        s.field[seat] = []
        s.mana[seat] = s.mana_max[seat] = 6
    s.turn = turn
    s._legal = None
    return s


def idx(s: IotabotsState, name: str) -> int:
    return s.game.by_name[name]


def give(s: IotabotsState, seat: int, *names: str) -> None:
    """Move cards into a hand (from the deck when there, else created, keeping the count fair)."""
    for name in names:
        c = idx(s, name)
        if c in s.deck[seat]:
            s.deck[seat].remove(c)
        s.hand[seat].append(c)
    s._legal = None


def put(s: IotabotsState, seat: int, name: str, *, ready: bool = True, owner: int | None = None):
    """Put a Bot on `seat`'s field; ready=True means it arrived on an earlier turn."""
    c = idx(s, name)
    own = seat if owner is None else owner
    if c in s.deck[own]:
        s.deck[own].remove(c)
    bot = new_bot(s, c, own)
    bot.entered = s.turn - 1 if ready else s.turn
    s.field[seat].append(bot)
    s._legal = None
    return bot


def names(s: IotabotsState, zone: list[int]) -> list[str]:
    return [s.game.names[c] for c in zone]


def field_names(s: IotabotsState, seat: int) -> list[str]:
    return [s.game.names[b.card] for b in s.field[seat]]


def labels(s: IotabotsState) -> list[str]:
    return [str(a) for a in s.legal_actions()]
