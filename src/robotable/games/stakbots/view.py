"""What a seat sees and reads (SB-9): the view, the prompt and the end-of-game stats.

`view` is the visibility model: a card's identity is shown only when it is face-up, on the
scrapheap, in the viewer's own hand, or publicly known (a reset card, a card returned to a hand
by Begone Bot). determinize (state.py) resamples exactly the cards shown as unknown here. A
state reaches this module as `game.views`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .board import power
from .effects import describe, seat_s
from .narration import ending
from .state import DECISION_NAMES, HIDDEN, KNOWN, UP, StakBotsState

try:
    import cython
except ImportError:  # no Cython: its declarations do nothing
    from robotable.core import cython_shim as cython

if TYPE_CHECKING:
    from .content import CardDef


def static_card_views(cards: tuple[CardDef, ...]) -> list[dict[str, Any]]:
    """What never changes of each card as a view shows it: built once per game, copied per view
    (views are built for every seat after every move, and the web server's time goes there)."""
    return [
        {
            "id": c,
            "name": d.name,
            "bot": d.bot.title,
            "power": "X" if d.power is None else d.power,
            "rank": d.rank,
            "text": d.text,
            "short": d.short,
        }
        for c, d in enumerate(cards)
    ]


def card_json(st: StakBotsState, c: int, live: bool = False) -> dict[str, Any]:
    """A card as the view shows it; `live` adds its current power and damage (in a stak)."""
    out = dict(st.game.card_views[c])
    if live:
        out["current_power"] = power(st, c)
        out["damage"] = st.dmg[c]
    return out


def _staks(st: StakBotsState, s: int) -> list[dict[str, Any]]:
    """Seat s's staks (or the Drone's, s = the seat count) as the view shows them."""
    g = st.game
    vis = st.vis
    out = []
    for k in g.staks_of[s]:
        cards = []
        for c in st.staks[k]:
            if vis[c] == UP:
                cards.append({"face_up": True, **card_json(st, c, live=True)})
            elif vis[c] == KNOWN:
                cards.append({"face_up": False, "known": card_json(st, c)})
            else:
                cards.append({"face_up": False})
        out.append(
            {
                "stak": g.local[k],
                "size": len(cards),
                "cards": cards,
                "top": cards[-1] if cards else None,
                "attacked": st.active == s and st.attacker[k] >= 0,
            }
        )
    return out


def view(st: StakBotsState, seat: int | None, words: bool = True) -> dict[str, Any]:
    """`seat`'s view; without `words`, its "legal_actions" are left empty (`observation_view`)."""
    g = st.game
    vis = st.vis
    deciding = st.current_player()
    legal = st.legal_action_entries(seat) if words else []
    seats = []
    for s in range(g.num_players):
        staks = _staks(st, s)
        first = staks[0]
        hand = st.hands[s]
        seats.append(
            {
                "seat": s,
                "team": g.team[s] if g.options["teams"] else None,  # SB-11.10
                "in_game": st.alive[s],
                # The seat's first stak (its only one unless SB-11.12); `staks` holds them all.
                "stak_size": first["size"],
                "stak": first["cards"],
                "top": first["top"],
                "staks": staks,
                "hand_size": len(hand),
                "hand": [card_json(st, c) for c in hand] if s == seat else None,
                "known_hand": [card_json(st, c) for c in hand if vis[c] == KNOWN],
            }
        )
    decision = None
    if st.decision is not None:
        kind, c, chooser = st.decision
        decision = {
            "kind": DECISION_NAMES[kind],
            "seat": chooser,
            "card": card_json(st, c),
            "why": prompt(st),
        }
    heap = st.scrapheap
    # The card that attacked this turn (the last to attack, with several staks): a scrapped
    # attacker may since have been reshuffled into the supply, a hidden card again, and then
    # only the fact that an attack happened stays public.
    mine = [k for k in g.staks_of[st.active] if st.attacker[k] >= 0]
    attacker = st.attacker[mine[-1]] if mine else -1
    n = g.num_players
    drone = None
    if g.drones:  # SB-11.14: the Drone's staks, all public as any stak is
        drone = {
            "seat": n,
            "in_game": any(st.staks[k] for k in g.staks_of[n]),
            "staks": _staks(st, n),
        }
    return {
        "game": g.name,
        "seat": seat,
        "current_player": deciding,
        "turn": st.turn,
        "prompt": prompt(st),
        "terminal": st.result is not None,
        "returns": list(st.result) if st.result is not None else None,
        "legal_actions": legal,
        "num_players": g.num_players,
        "options": dict(g.options),
        "active": st.active,
        "decision": decision,
        "seats": seats,
        "drone": drone,
        "supply_size": len(st.supply),
        "scrapheap": [card_json(st, c) for c in heap],
        "scrapheap_top": card_json(st, heap[-1]) if heap else None,
        "attacker": card_json(st, attacker) if attacker >= 0 and vis[attacker] != HIDDEN else None,
        "attacked_this_turn": attacker >= 0,
        "attacker_stopped": bool(mine) and st.stopped[mine[-1]],
        "scrapheap_fed": st.fed,
        "stomp_target": g.owner[st.stomp] if st.stomp >= 0 else None,
        "stomp_target_stak": g.local[st.stomp] if st.stomp >= 0 else None,
        "actions_this_turn": st.n_actions,
        "attacks_this_turn": st.n_attacks,
        "effects_this_turn": st.n_effects,
        "pending_effects": [card_json(st, c) for c in reversed(st.pending) if vis[c] != HIDDEN],
        "end_reason": st.end_reason or None,
    }


@cython.locals(st=StakBotsState)
def prompt(st: StakBotsState) -> str:
    """Why the deciding seat is deciding; a finished game in the log's own last sentence
    (narration.ending)."""
    if st.result is not None:
        return ending(st)
    g = st.game
    d = st.decision
    if d is not None:
        return describe(st, d)
    a = st.active
    if st.stomp >= 0:
        name = g.names[st.attacker[st.stomp_from]]
        whose = seat_s(st, g.owner[st.stomp])
        return f"Seat {a + 1}: your {name} must keep attacking {whose} {g.stak_word[st.stomp]}"
    limit = g.hand_limit
    if limit >= 0 and len(st.hands[a]) > limit:
        held = len(st.hands[a])
        feed = "feed the scrapheap and " if not st.fed else ""
        return (
            f"Seat {a + 1}, your turn: play, scrap or attack; {feed}play cards onto your "
            f"opponents' staks until you hold {limit} or fewer (you hold {held}) before you end it"
        )
    if not st.fed:
        return (
            f"Seat {a + 1}, your turn: play, scrap or attack; feed the scrapheap before you end it"
        )
    return f"Seat {a + 1}, your turn: play, scrap, attack or end the turn"


def stats(st: StakBotsState) -> dict[str, Any]:
    """Per-game extras for the balance lab: how the game ended and what was done in it."""
    return {
        "end_reason": st.end_reason,
        "turns": st.turn,
        "attacks": st.counts[0],
        "plays": st.counts[1],
        "scraps": st.counts[2],
        "entry_effects": st.counts[3],
        "reshuffles": st.counts[4],
        "stak_sizes": [len(s) for s in st.staks],  # per stak (SB-11.12)
    }
