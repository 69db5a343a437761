"""The forward model of Dice Race: setup, legal actions, apply. No I/O, no printing."""

from __future__ import annotations

from typing import Any

from robotable.core.rng import GameRng

from .actions import Boost, Roll
from .state import DiceRaceState

BOOST_VALUES = (1, 2, 3)
COPIES = 4  # of each boost value in the draw pile
HAND = 2  # boost cards dealt to each racer


def setup(game: Any, seed: int) -> DiceRaceState:
    """DR-1: every racer on the start; the boost cards shuffled; two dealt to each racer."""
    state = DiceRaceState(game)
    state.rng = GameRng(seed)
    state.pile = [v for v in BOOST_VALUES for _ in range(COPIES)]
    state.rng.shuffle(state.pile)
    for hand in state.hands:
        hand.extend(state.pile.pop() for _ in range(HAND))
    return state


def legal_actions(state: DiceRaceState) -> list[Any]:
    """DR-2: roll, or play any boost card in hand (one choice per value)."""
    return [Roll(), *(Boost(v) for v in sorted(set(state.hands[state.to_move])))]


def apply(state: DiceRaceState, action: Any) -> list[dict[str, Any]]:
    seat = state.to_move
    length = state.game.options["length"]
    events: list[dict[str, Any]] = []
    if isinstance(action, Boost):
        # DR-2.2: a boost card moves exactly its value; past the finish it stops on it
        state.hands[seat].remove(action.value)
        state.squares[seat] = min(length, state.squares[seat] + action.value)
        events.append(
            {"type": "boosted", "seat": seat, "value": action.value, "square": state.squares[seat]}
        )
        if state.pile:
            card = state.pile.pop()
            state.hands[seat].append(card)
            events.append({"type": "drew", "seat": seat, "card": card, "to": [seat]})
    else:
        # DR-2.1: a roll past the finish is wasted (the racer stays)
        die = state.rng.below(6) + 1
        wasted = state.squares[seat] + die > length
        if not wasted:
            state.squares[seat] += die
        events.append(
            {
                "type": "rolled",
                "seat": seat,
                "die": die,
                "square": state.squares[seat],
                "wasted": wasted,
            }
        )
    state.turn += 1
    if state.squares[seat] == length:
        state.winners = [seat]  # DR-3.1: the first racer on the finish wins
        events.append({"type": "finished", "seat": seat})
    elif state.turn >= state.game.options["turns"] * state.game.num_players:
        # DR-3.2: out of turns, the racers furthest ahead share the win
        best = max(state.squares)
        state.winners = [s for s, square in enumerate(state.squares) if square == best]
        events.append({"type": "time_up", "leaders": list(state.winners), "square": best})
    else:
        state.to_move = (seat + 1) % state.game.num_players
    return events
