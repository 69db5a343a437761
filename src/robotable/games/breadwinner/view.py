"""What a seat sees and reads (BW-8): the view, the prompt and the end-of-game stats; the
state answers `view`, `observation_view`, `prompt` and `stats` with them (`game.views`)."""

from __future__ import annotations

from typing import Any

from .board import (
    ADJACENT,
    BOT_ABILITIES,
    BOT_NAMES,
    DELIVERY,
    DICE_PER_SEAT,
    FACTORY_LOC0,
    IS_LAND,
    LOC_PILE,
    NUM_DICE,
    NUM_POISON_CHIPS,
    NUM_TILES,
    SEAT_LETTERS,
    TILE_NAMES,
    die_name,
    where_name,
)
from .state import (
    NUM_TALLY,
    P_FOLLOW,
    P_OVER,
    PHASE_NAMES,
    STEP_TEXT,
    TALLY,
    BreadWinnerState,
    Phase,
)


def chip_value(st: BreadWinnerState, chip: int) -> int:
    return st.game.crop_values[chip]


def bot_view(st: BreadWinnerState, die: int) -> dict[str, Any]:
    chip = st.carry[die]
    face = st.face[die]
    return {
        "id": die,
        "name": die_name(die),
        "owner": die // DICE_PER_SEAT,
        "type": BOT_NAMES[face],
        "face": face,
        "where": where_name(st.loc[die]),
        "carrying": None if chip < 0 else chip_value(st, chip),
        "used": st.used[die],
    }


def view(st: BreadWinnerState, seat: int | None, words: bool = True) -> dict[str, Any]:
    """`seat`'s view; without `words`, its "legal_actions" are left empty (`observation_view`)."""
    terminal = st.phase == P_OVER
    deciding = st.current_player()
    legal = st.legal_action_entries(seat) if words else []
    tiles = []
    for t in range(NUM_TILES):
        chip = st.crop[t]
        crop = None
        if chip >= 0:
            # BW-8: a face-down chip shows its value only if everybody has seen it.
            crop = {
                "face_down": True,
                "value": chip_value(st, chip) if st.known[t] else None,
            }
        tiles.append(
            {
                "id": TILE_NAMES[t],
                "kind": "land" if IS_LAND[t] else "delivery",
                "owner": DELIVERY.index(t) if t in DELIVERY else None,
                "crop": crop,
                "poisoned": st.poison[t],
                "bots": [bot_view(st, d) for d in range(NUM_DICE) if st.loc[d] == t],
            }
        )
    seats = []
    for s in range(2):
        dice = range(s * DICE_PER_SEAT, (s + 1) * DICE_PER_SEAT)
        factories = []
        for number in (1, 2, 3, 4):
            bot = None
            for d in dice:
                if st.loc[d] == FACTORY_LOC0 + number:
                    bot = bot_view(st, d)
                    break
            factories.append({"number": number, "bot": bot})
        seats.append(
            {
                "seat": s,
                "letter": SEAT_LETTERS[s],
                "delivery": TILE_NAMES[DELIVERY[s]],
                "loaves": st.loaves[s],
                "pile": sum([1 for d in dice if st.loc[d] == LOC_PILE]),
                "factories": factories,
                "map_bots": sum([1 for d in dice if 0 <= st.loc[d] < NUM_TILES]),
            }
        )
    roll = None
    if st.roll is not None:
        roll = {BOT_NAMES[i + 1]: n for i, n in enumerate(st.roll)}
    return {
        "game": st.game.name,
        "seat": seat,
        "current_player": deciding,
        "turn": st.turn,
        "prompt": prompt(st),
        "terminal": terminal,
        "returns": st.returns() if terminal else None,
        "legal_actions": legal,
        "to_move": st.seat,
        "first_player": st.first,
        "phase": PHASE_NAMES[Phase(st.phase)],
        "follow_up": None if st.follow < 0 else die_name(st.follow),
        "max_turns": st.game.max_turns,
        "tiles": tiles,
        "adjacency": {
            TILE_NAMES[t]: [TILE_NAMES[n] for n in ADJACENT[t]] for t in range(NUM_TILES)
        },
        "seats": seats,
        "loaves_centre": st.centre,
        "crop_pile": len(st.pile),
        "crop_values": sorted(st.game.crop_values),
        "discarded_harvest": [chip_value(st, c) for c in st.discards],
        "poison_supply": NUM_POISON_CHIPS - sum(st.poison),
        "roll": roll,
        "winner": st.winner if terminal else None,
        "end_reason": st.reason or None,
        "bot_types": [
            {"face": f, "name": BOT_NAMES[f], "ability": BOT_ABILITIES[BOT_NAMES[f]]}
            for f in range(1, 7)
        ],
    }


def prompt(st: BreadWinnerState) -> str:
    """Why the deciding seat is deciding, in words."""
    if st.phase == P_OVER:
        if st.winner < 0:
            return "the game is over: a draw at the turn limit"  # BW-R14's only draw
        return f"the game is over: Seat {st.winner + 1} is the Bread Winner"
    who = f"Seat {st.seat + 1}, turn {st.turn}"
    if st.phase == P_FOLLOW:
        die = st.follow
        kind = BOT_NAMES[st.face[die]]
        then = "may unload now" if kind == "Harvester" else "may still take an offensive action"
        return f"{who}: {kind} {die_name(die)} moved to {TILE_NAMES[st.loc[die]]} and {then}"
    if st.turn <= 2:
        return f"{who} (first turn, building only): {STEP_TEXT[st.phase][8:]}"
    return f"{who}, {STEP_TEXT[st.phase]}"


def stats(st: BreadWinnerState) -> dict[str, Any]:
    """Per-game extras for the balance lab: how the game ended and each seat's tally."""
    per_seat = {name: [st.tally[i], st.tally[NUM_TALLY + i]] for i, name in enumerate(TALLY)}
    return {
        "end_reason": st.reason or None,
        "winner": st.winner if st.phase == P_OVER else None,
        "turns": st.turn,
        "first_player": st.first,
        "loaves": st.loaves[:],
        "loaves_centre": st.centre,
        **per_seat,
    }
