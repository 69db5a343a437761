"""What a seat sees and reads (IB-11): the prompt, the view and the end-of-match stats. Hands
and deck order are secret; everything else is public. `IotabotsGame.views`."""

from __future__ import annotations

from typing import Any

from .content import TYPE_TOKEN
from .effects import stats as bot_stats
from .rules import HAND_LIMIT, MAX_MULLIGANS, can_attack
from .state import (
    BATTLE,
    DRAW,
    END,
    MAIN1,
    MAIN2,
    MULLIGAN,
    ORDER,
    OVER,
    Bot,
    IotabotsState,
)


def prompt(state: IotabotsState) -> str:
    g = state.game
    phase = state.phase
    if phase == OVER:
        return "the match is over"
    seat = state.current_player()
    if state.choice is not None:
        card, eff, step_i, ctrl, _src, _b = state.frames[-1]
        step = g.cards[card].effects[eff].steps[step_i]
        what = {
            "COST_DISCARD": "discard a card (cost)",
            "DISCARD": "discard a card",
            "COST_TRIBUTE": "tribute a Bot (cost)",
            "MODIFY": "choose a Bot to modify",
            "DESTROY": "choose a Bot to destroy",
            "BOUNCE": "choose a Bot to return to its owner's hand",
            "CONTROL": "choose an enemy Bot to take control of",
            "JUNK_TO_HAND": "choose a Bot in your Junk Zone to take into your hand",
        }.get(step.op.name, step.op.name.lower())
        return f"{g.names[card]}: {what}"
    if phase == ORDER:
        how = (
            "won the coin toss"
            if not state.results or state.results[-1] == DRAW
            else ("lost the previous duel")
        )
        return f"Seat {seat + 1} {how}: go first or second in duel {len(state.results) + 1}"
    if phase == MULLIGAN:
        return (
            f"keep this hand or mulligan ({MAX_MULLIGANS - state.mulligans[seat]} mulligans left)"
        )
    if phase == END:
        return f"End Phase: discard down to {HAND_LIMIT} cards"
    name = {MAIN1: "Main Phase 1", BATTLE: "Battle Phase", MAIN2: "Main Phase 2"}[int(phase)]
    return f"Seat {seat + 1}: {name} of turn {state.turn} (duel {len(state.results) + 1})"


def bot_view(state: IotabotsState, seat: int, slot: int, bot: Bot) -> dict[str, Any]:
    g = state.game
    card = g.cards[bot.card]
    atk, dfn = bot_stats(state, seat, bot)
    return {
        "slot": slot,
        "name": card.name,
        "token": card.type == TYPE_TOKEN,
        "owner": bot.owner,
        "controller": seat,
        "mana": card.mana,
        "atk": atk,
        "def": dfn,
        "base_atk": card.atk,
        "base_def": card.def_,
        "attacks_per_turn": card.attacks,
        "attacks_made": bot.attacks,
        "summoned_this_turn": bot.entered >= state.turn and not bot.may_attack,
        "can_attack_now": seat == state.active and state.phase == BATTLE and can_attack(state, bot),
        "control_ends_this_turn": bot.home >= 0,
        "counters": bot.counters,
        "ignition_used": bot.used,
        "has_ignition": g.ignition[bot.card] >= 0,
        "text": card.text,
        "origin": card.origin,
    }


def view(state: IotabotsState, seat: int | None, words: bool = True) -> dict[str, Any]:
    """`seat`'s view; without `words`, its "legal_actions" are left empty (`observation_view`)."""
    g = state.game
    terminal = state.phase == OVER
    current = state.current_player()
    legal = state.legal_action_entries(seat) if words else []
    players = []
    for s in (0, 1):
        players.append(
            {
                "seat": s,
                "deck_name": g.deck_names[s],
                "life": state.life[s],
                "mana": state.mana[s],
                "mana_max": state.mana_max[s],
                "deck_count": len(state.deck[s]),
                "hand_count": len(state.hand[s]),
                "known_hand": [g.names[c] for c in sorted(state.known[s])],
                "hand": [dict(g.card_views[c]) for c in sorted(state.hand[s])]
                if seat == s
                else None,
                "junk": [dict(g.card_views[c]) for c in state.junk[s]],
                "field": [bot_view(state, s, i, b) for i, b in enumerate(state.field[s])],
                "mulligans": state.mulligans[s],
                "bot_protect": state.protect[s],
                "duel_wins": state.results.count(s),
            }
        )
    pending = None
    if state.choice is not None:
        card, eff, _step, ctrl, _src, _b = state.frames[-1]
        pending = {
            "seat": ctrl,
            "card": g.names[card],
            "kind": ("bot", "hand", "junk")[state.choice[0]],
        }
    phase_names = ("order", "mulligan", "main1", "battle", "main2", "end", "over")
    return {
        "game": g.name,
        "seat": seat,
        "current_player": current,
        "turn": state.total_turns,
        "prompt": prompt(state),
        "terminal": terminal,
        "returns": state.returns() if terminal else None,
        "legal_actions": legal,
        "phase": phase_names[int(state.phase)],
        "duel": len(state.results) + (0 if terminal else 1),
        "duel_turn": state.turn,
        "max_turns": g.options["max_turns"],
        "active": state.active,
        "first": state.first,
        "chooser": state.chooser,
        "match": {
            "results": ["draw" if r == DRAW else f"Seat {r + 1}" for r in state.results],
            "reasons": list(state.reasons),
            "wins": [state.results.count(0), state.results.count(1)],
            "draws": state.results.count(DRAW),
        },
        "players": players,
        "resolving": dict(g.card_views[state.resolving]) if state.resolving >= 0 else None,
        "pending": pending,
    }


def stats(state: IotabotsState) -> dict[str, Any]:
    """Per-game extras for the balance lab: the duels, how each ended, who went first."""
    return {
        "duels": len(state.results),
        "duel_results": ["draw" if r == 2 else f"seat {r}" for r in state.results],
        "duel_end_reasons": list(state.reasons),
        "duel_first_players": list(state.firsts),
        "duels_won_by_first_player": sum(1 for r, f in zip(state.results, state.firsts) if r == f),
        "turns": state.total_turns,
        "decks": [state.game.deck_names[0], state.game.deck_names[1]],
    }
