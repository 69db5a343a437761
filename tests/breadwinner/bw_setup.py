"""Building Bread Winner positions by hand for the rule tests."""

from __future__ import annotations

import robotable
from robotable.games.breadwinner import rules
from robotable.games.breadwinner.board import (
    BOT_FACE,
    DICE_PER_SEAT,
    FACTORY_LOC0,
    NUM_DICE,
    NUM_TILES,
    TILE_INDEX,
)
from robotable.games.breadwinner.rules import Phase
from robotable.games.breadwinner.state import BreadWinnerState


def die(name: str) -> int:
    """'A1' -> 0, 'B8' -> 15."""
    return "AB".index(name[0]) * DICE_PER_SEAT + int(name[1:]) - 1


def take_chip(st: BreadWinnerState, value: int) -> int:
    """Remove a chip of `value` from the crop pile and return its id."""
    for chip in st.pile:
        if st.game.crop_values[chip] == value:
            st.pile.remove(chip)
            return chip
    raise AssertionError(f"no chip of value {value} left in the pile")


def position(
    bots: tuple = (),
    crops: dict[str, int] | None = None,
    known: tuple[str, ...] = (),
    poison: tuple[str, ...] = (),
    loaves: tuple[int, int] = (0, 0),
    seat: int = 0,
    turn: int = 5,
    phase: Phase = Phase.MAP,
    roll: list[int] | None = None,
    seed: int = 1,
    **options,
) -> BreadWinnerState:
    """A state at `phase` of `seat`'s turn. bots: (name, type, where[, carried value]) with where
    a tile name or 'f1'-'f4'; crops: tile -> value of a face-down chip."""
    options.setdefault("first_player", "seat0")
    game = robotable.load_game("breadwinner", **options)
    st = game.new_initial_state(seed)
    st.turn, st.seat, st.phase, st.roll, st.follow = turn, seat, phase, roll, -1
    st.loc = [-1] * NUM_DICE
    st.face = [0] * NUM_DICE
    st.carry = [-1] * NUM_DICE
    st.used = [False] * NUM_DICE
    st.crop = [-1] * NUM_TILES
    st.known = [False] * NUM_TILES
    st.poison = [False] * NUM_TILES
    st.pile = list(range(len(game.crop_values)))
    st.discards = []
    st.loaves = list(loaves)
    st.centre = 12 - sum(loaves)
    for name, kind, where, *carried in bots:
        d = die(name)
        st.loc[d] = FACTORY_LOC0 + int(where[1]) if where[0] == "f" else TILE_INDEX[where]
        st.face[d] = BOT_FACE[kind]
        if carried:
            st.carry[d] = take_chip(st, carried[0])
    for tile, value in (crops or {}).items():
        st.crop[TILE_INDEX[tile]] = take_chip(st, value)
        st.known[TILE_INDEX[tile]] = tile in known
    for tile in poison:
        st.poison[TILE_INDEX[tile]] = True
    st._legal = None
    return st


def labels(st: BreadWinnerState) -> list[str]:
    return [str(a) for a in st.legal_actions()]


def play(st: BreadWinnerState, label: str) -> list[dict]:
    """Apply the legal action with this label."""
    for action in st.legal_actions():
        if str(action) == label:
            return st.apply_action(action)
    raise AssertionError(f"'{label}' is not legal; legal: {labels(st)}")


def where(st: BreadWinnerState, name: str) -> str:
    from robotable.games.breadwinner.board import where_name

    return where_name(st.loc[die(name)])


def advance(st: BreadWinnerState) -> None:
    rules.advance(st, [])
