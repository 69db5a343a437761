"""The moves both the turn flow and the card effects make: draws, Bots in and out, a duel's end."""

from __future__ import annotations

try:
    import cython
except ImportError:  # no Cython: its declarations do nothing
    from robotable.core import cython_shim as cython

from .content import (
    TYPE_TOKEN,
)
from .state import DRAW, ORDER, OVER, Bot, IotabotsState

# -- match (IB-1) -----------------------------------------------------------------------------


@cython.locals(state=IotabotsState)
def setup_match(state: IotabotsState, events: list[dict] | None = None) -> None:
    """IB-1.3: a coin toss decides who chooses to go first or second."""
    state.chooser = state.rng.below(2)
    state.phase = ORDER
    if events is not None and not state.quiet:
        events.append(
            {"type": "coin_toss", "winner": state.chooser, "duel": len(state.results) + 1}
        )


@cython.locals(state=IotabotsState)
def end_duel(state: IotabotsState, result: int, reason: str, events: list[dict]) -> None:
    """IB-1.1/1.2: record the duel; end the match or prepare the next duel's first-player pick."""
    state.results.append(result)
    state.reasons.append(reason)
    state.frames = []
    state.choice = None
    if state.resolving >= 0:
        state.junk[state.active].append(state.resolving)
        state.resolving = -1
    if not state.quiet:
        events.append(
            {
                "type": "duel_end",
                "duel": len(state.results),
                "winner": None if result == DRAW else result,
                "reason": reason,
                "life": state.life[:],
                "wins": [state.results.count(0), state.results.count(1)],
            }
        )
    wins = (state.results.count(0), state.results.count(1))
    if max(wins) >= 2 or len(state.results) == 3:
        state.phase = OVER
        if not state.quiet:
            events.append(
                {
                    "type": "match_end",
                    "returns": state.returns(),
                    "wins": list(wins),
                    "draws": state.results.count(DRAW),
                }
            )
        return
    if result == DRAW:
        setup_match(state, events)  # IB-1.3: a re-toss after a drawn duel
    else:
        state.chooser = 1 - result  # IB-1.3: the loser of the previous duel picks
        state.phase = ORDER


def check_life(state: IotabotsState, reason: str, events: list[dict]) -> bool:
    """IB-1.1: 0 or less Life Points loses; both at once is a drawn duel. True if it ended."""
    dead0 = state.life[0] <= 0
    dead1 = state.life[1] <= 0
    if not (dead0 or dead1):
        return False
    if dead0 and dead1:
        end_duel(state, DRAW, reason + " (both at 0)", events)
    else:
        end_duel(state, 1 if dead0 else 0, reason, events)
    return True


# -- cards and Bots moving ----------------------------------------------------------------------


@cython.locals(deck=list, hand=list, drawn=list, c=cython.long)
def draw(
    state: IotabotsState, seat: int, n: int, events: list[dict], by: str | None = None
) -> bool:
    """Draw n cards; IB-4.1: a player who must draw from an empty deck loses. True if all drawn.
    `by` names the card whose effect draws (for the narration)."""
    deck = state.deck[seat]
    hand = state.hand[seat]
    names = state.game.names
    drawn = []
    for _ in range(n):
        if not deck:
            if drawn and not state.quiet:
                events.append({"type": "drew", "seat": seat, "cards": drawn, "to": [seat]})
            end_duel(state, 1 - seat, "deck out", events)
            return False
        c = deck.pop()
        hand.append(c)
        drawn.append(names[c])
    if not state.quiet:
        event = {"type": "draw", "seat": seat, "count": n, "deck_count": len(deck)}
        if by is not None:
            event["by"] = by
        events.append(event)
    if not state.quiet:
        events.append({"type": "drew", "seat": seat, "cards": drawn, "to": [seat]})
    return True


def leave_hand(state: IotabotsState, seat: int, card: int) -> None:
    """A card leaves the hand face up (summoned, activated, discarded): it is no longer a
    publicly known card of that hand (IB-11.1)."""
    state.hand[seat].remove(card)
    known = state.known[seat]
    if card in known:
        known.remove(card)


@cython.locals(bot=Bot)
def new_bot(state: IotabotsState, card: int, seat: int) -> Bot:
    bot = Bot(state.next_uid, card, seat, state.turn)
    state.next_uid += 1
    return bot


@cython.locals(bot=Bot)
def remove_bot(state: IotabotsState, seat: int, slot: int, to_hand: bool = False) -> Bot:
    """Take a Bot off the field: a card goes to its OWNER's Junk Zone (or hand), a token leaves
    the game (IB-7.3, IB-8.7)."""
    bot = state.field[seat].pop(slot)
    if state.game.cards[bot.card].type != TYPE_TOKEN:
        if to_hand:
            state.hand[bot.owner].append(bot.card)
            state.known[bot.owner].append(bot.card)  # IB-11.1: a public return to the hand
        else:
            state.junk[bot.owner].append(bot.card)
    return bot
