"""What a seat sees and reads: the view (DR-4), the prompt and the end-of-race stats.

`DiceRaceGame` names this module as its `views`; the state's `view`, `observation_view`,
`prompt` and `stats` answer with it, so state.py imports nothing above it.
"""

from __future__ import annotations

from typing import Any

from .state import DiceRaceState


def view(state: DiceRaceState, seat: int | None, words: bool = True) -> dict[str, Any]:
    """DR-4: squares, hand sizes and the pile's size are public; a hand is its owner's. Without
    `words` (`observation_view`, what a learner encodes) the worded choices are left empty."""
    game = state.game
    return {
        "game": game.name,
        "seat": seat,
        "current_player": state.current_player(),
        "turn": state.turn,
        "prompt": prompt(state),
        "terminal": state.is_terminal(),
        "returns": state.returns() if state.winners else None,
        "legal_actions": state.legal_action_entries(seat) if words else [],
        "length": game.options["length"],
        "turns_left": game.options["turns"] * game.num_players - state.turn,
        "squares": list(state.squares),
        "hand": sorted(state.hands[seat]) if seat is not None else None,
        "hand_sizes": [len(h) for h in state.hands],
        "pile_size": len(state.pile),
    }


def prompt(state: DiceRaceState) -> str:
    """Why the deciding seat is deciding, in words."""
    if state.winners:
        return ""
    return "roll the die or play a boost card"


def stats(state: DiceRaceState) -> dict[str, Any]:
    """Extras for the balance lab at the end of a race: where each racer stopped."""
    return {"squares": list(state.squares)}
