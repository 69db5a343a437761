"""Position evaluation for agents: a duel estimate from public information, folded into the
match score (IB-1.2). Uses only what `seat` may know: life, mana, the field, hand/deck counts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import cache

try:
    import cython
except ImportError:  # no Cython: its declarations do nothing
    from robotable.core import cython_shim as cython

from .effects import direct_attack_allowed, stats
from .state import DRAW, MULLIGAN, ORDER, Bot, IotabotsState


@dataclass(frozen=True, slots=True)
class Weights:
    """The duel estimate's numbers, in logits of the duel's odds. Agents use DEFAULT;
    `robotable tune iotabots --config iotabots-weights` varies them."""

    life: float = 0.12  # a point of life ahead
    board: float = 0.22  # a point of board strength ahead
    hand: float = 0.18  # a card in hand ahead
    mana: float = 0.05  # a point of maximum mana ahead
    deck_out: float = 1.0  # fewer than 3 cards left: running out loses the duel (IB-4.1)
    attack: float = 0.6  # board strength: a Bot's attack, per attack it makes a turn
    defence: float = 0.4  # ... its defence
    presence: float = 0.5  # ... a Bot at all (a blocker, a body for effects)
    beacon: float = 0.9  # ... each beacon counter (a quarter of a beacon win)
    clock: float = 0.3  # a turn sooner than the rival to take its Life Points by attacks (a race)
    lethal: float = 1.0  # the Bots on the field can take all of the rival's Life Points in a turn


DEFAULT = Weights()

# The same estimate with its numbers fitted to the duels of 224 games between two `hard` searches
# (`scripts/fit_heuristic.py iotabots`: the log loss of each position's estimate against who
# won that duel, a fifth of the games held out, a pull towards DEFAULT). A hand counts for less
# and the race for more than in DEFAULT, which greedy was tuned with. Offered to the search as
# `leaf=fitted` (docs/ai.md has what it measured); no named strength uses it.
FITTED = replace(
    DEFAULT,
    life=0.1106,
    board=0.1051,
    hand=0.0706,
    mana=0.0488,
    attack=0.6648,
    defence=0.3343,
    presence=0.3149,
    clock=0.3762,
    lethal=0.6674,
)


@cache
def match_value(wins: int, losses: int, played: int) -> float:
    """Match score for a seat with these duel results, future duels taken as coin flips."""
    if wins >= 2 or losses >= 2 or played >= 3:
        return 1.0 if wins > losses else 0.0 if losses > wins else 0.5
    return 0.5 * match_value(wins + 1, losses, played + 1) + 0.5 * match_value(
        wins, losses + 1, played + 1
    )


@cython.locals(
    state=IotabotsState,
    seat=cython.long,
    b=Bot,
    atk=cython.long,
    dfn=cython.long,
    damage=cython.long,
)
def field_totals(state: IotabotsState, seat: int, w: Weights = DEFAULT) -> tuple[float, int]:
    """(board strength, damage a turn of attacks deals) of the Bots `seat` controls: one pass
    over the field, one `stats` per Bot, for both terms of the estimate."""
    total = 0.0
    damage = 0
    for b in state.field[seat]:
        atk, dfn = stats(state, seat, b)
        card = state.game.cards[b.card]
        total += w.attack * atk * card.attacks + w.defence * dfn + w.presence
        damage += atk * card.attacks
        if b.counters:
            total += w.beacon * b.counters / 0.25
    return total, damage


def board_strength(state: IotabotsState, seat: int, w: Weights = DEFAULT) -> float:
    return field_totals(state, seat, w)[0]


@cython.locals(state=IotabotsState, seat=cython.long)
def damage_per_turn(state: IotabotsState, seat: int) -> int:
    """Life Points the Bots `seat` controls take in one turn of attacks on Life Points (none
    while the rival's field forbids them, IB-6.2)."""
    if not direct_attack_allowed(state, 1 - seat):
        return 0
    return field_totals(state, seat)[1]


@cython.locals(damage=cython.long, life=cython.long, turns=cython.long)
def turns_to_win(damage: int, life: int) -> int:
    """Turns of attacks that take `life`, at most 6 (a race further off is no race)."""
    if damage <= 0:
        return 6
    turns = (life + damage - 1) // damage
    return turns if turns < 6 else 6


@cython.locals(
    state=IotabotsState,
    seat=cython.long,
    o=cython.long,
    mine=cython.long,
    theirs=cython.long,
    strength=cython.double,
    rival_strength=cython.double,
)
def duel_estimate(state: IotabotsState, seat: int, w: Weights = DEFAULT) -> float:
    """Probability-like estimate that `seat` wins the current duel."""
    o = 1 - seat
    strength, mine = field_totals(state, seat, w)
    rival_strength, theirs = field_totals(state, o, w)
    x = w.life * (state.life[seat] - state.life[o])
    x += w.board * (strength - rival_strength)
    x += w.hand * (len(state.hand[seat]) - len(state.hand[o]))
    x += w.mana * (state.mana_max[seat] - state.mana_max[o])
    if w.clock or w.lethal:
        if not direct_attack_allowed(state, o):
            mine = 0
        if not direct_attack_allowed(state, seat):
            theirs = 0
        # Without blockers a duel is a race: the side that needs fewer turns of attacks to
        # take the other's Life Points is ahead by more than the Life and board terms say,
        # and a board that takes the rest this turn all but wins it.
        x += w.clock * (turns_to_win(theirs, state.life[seat]) - turns_to_win(mine, state.life[o]))
        if mine >= state.life[o] > 0:
            x += w.lethal
        if theirs >= state.life[seat] > 0:
            x -= w.lethal
    if len(state.deck[seat]) < 3:
        x -= w.deck_out
    if len(state.deck[o]) < 3:
        x += w.deck_out
    return 1.0 / (1.0 + math.exp(-x))


@cython.locals(state=IotabotsState)
def evaluate(state: IotabotsState, seat: int, w: Weights = DEFAULT) -> float:
    if state.is_terminal():
        return state.returns()[seat]
    results = state.results
    wins = results.count(seat)
    losses = results.count(1 - seat)
    played = len(results) - results.count(DRAW) + results.count(DRAW)
    in_duel = state.phase not in (ORDER, MULLIGAN)
    p = duel_estimate(state, seat, w) if in_duel else 0.5
    return p * match_value(wins + 1, losses, played + 1) + (1 - p) * match_value(
        wins, losses + 1, played + 1
    )


@cython.locals(state=IotabotsState)
def evaluate_all(state: IotabotsState, w: Weights = DEFAULT) -> list[float]:
    """`evaluate` for both seats, with the numbers `w` (scripts/fit_heuristic.py searches with
    other numbers through it)."""
    return [evaluate(state, 0, w), evaluate(state, 1, w)]


def evaluate_all_fitted(state: IotabotsState) -> list[float]:
    """`evaluate_all` with the FITTED numbers: a search's leaf values (`leaf=fitted`)."""
    return evaluate_all(state, FITTED)


# The leaf values a search may ask for by name (`mcts:...,leaf=fitted`; Game.leaf_evaluations).
LEAF_EVALUATIONS = {"fitted": evaluate_all_fitted}
