"""Fixed-size encodings for the RL adapters (layout in docs/rules/stakbots.md, "Decisions,
views and encodings").

Action indices, with N = cards in the deck and P = seats:
  0                      end_turn
  1 .. N                 play card id
  N+1 .. 2N              scrap card id (top card or hand card: one card is never both)
  2N+1 .. 2N+P           attack seat
  2N+P+1 .. 2N+P+P*N     target (seat, depth)
  .. + P                 choose_player seat
  .. + N                 discard card id
  .. + N                 recycle card id (SB-11.4)
  .. + N                 react with card id (SB-11.5)
  .. + 1                 let the attack through (SB-11.5)
  .. + P*N               play card id onto seat's stak (SB-11.6, SB-11.8)
The SB-11 actions come last, so the base game's indices are those of earlier versions; with
several staks per seat (SB-11.12) the actions on staks after the first follow (`_multi_index`).
Observation: what a seat's view shows, seats relative to the viewer (slot 0 = the viewer);
`encode_observation` reads it from the view, `encode_state` from the state, field by field as
view.py shows it (several times faster: no view dicts), and both fill the layout through
`_side` and `_table`. tests/envs/test_envs_encode_state.py holds the two to the same floats.
"""

from __future__ import annotations

from typing import Any

from .actions import (
    Attack,
    ChoosePlayer,
    Discard,
    EndTurn,
    LetThrough,
    Play,
    React,
    Recycle,
    Scrap,
    Target,
)
from .board import power
from .content import Bot
from .state import DECISION_NAMES, KNOWN, UP, StakBotsState, StakBotsTables

try:
    import cython
except ImportError:  # no Cython: its declarations do nothing
    from robotable.core import cython_shim as cython

SLOTS = 4
BOTS = len(Bot)
BOT_INDEX = {b.title: int(b) for b in Bot}
PER_SEAT = 4 + 4 + (BOTS + 3) + BOTS + BOTS
DECISIONS = {None: 0, "top": 1, "face_up": 2, "player": 3, "discard": 4, "react": 5}
GLOBAL = (BOTS + 1) + (BOTS + 1) + 1 + (len(DECISIONS) + BOTS) + (3 + SLOTS) + 3


def _per(game: Any) -> int:
    """Staks per side in the layout: a seat's (SB-11.12) or the Drone's (SB-11.14)."""
    return max(game.options["staks"], game.drones)


def _base_size(n: int, p: int) -> int:
    """The one-stak-per-seat layout's size (every block up to the plays onto seats' staks)."""
    return 2 + 5 * n + 2 * p + 2 * p * n


def num_distinct_actions(game: Any) -> int:
    n = len(game.deck)
    p = game.num_players + (1 if game.drones else 0)  # the Drone as a seat (SB-11.14)
    extra = _per(game) - 1  # SB-11.12: the blocks for staks after the first
    if not extra:
        return _base_size(n, p)
    per = extra + 1
    return _base_size(n, p) + extra * n + p * extra * n + p * per * per + p * extra * n + extra * n


def action_index(game: Any, action: Any) -> int:
    n = len(game.deck)
    p = game.num_players + (1 if game.drones else 0)  # the Drone as a seat (SB-11.14)
    cls = type(action)
    stak = getattr(action, "stak", 0)
    if cls is Attack and (action.target_stak or action.own_stak):
        stak = 1  # any attack but first stak against first stak is in the several-staks block
    if stak:
        return _multi_index(game, action, n, p)
    if cls is EndTurn:
        return 0
    if cls is Play:
        if action.seat >= 0:
            return 1 + 5 * n + 2 * p + p * n + 1 + action.seat * n + action.card
        return 1 + action.card
    if cls is Scrap:
        return 1 + n + action.card
    if cls is Attack:
        return 1 + 2 * n + action.target
    if cls is Target:
        return 1 + 2 * n + p + action.seat * n + action.depth
    if cls is ChoosePlayer:
        return 1 + 2 * n + p + p * n + action.seat
    if cls is Discard:
        return 1 + 2 * n + 2 * p + p * n + action.card
    if cls is Recycle:
        return 1 + 3 * n + 2 * p + p * n + action.card
    if cls is React:
        return 1 + 4 * n + 2 * p + p * n + action.card
    if cls is LetThrough:
        return 1 + 5 * n + 2 * p + p * n
    raise ValueError(f"game stakbots: {action!r} is not a Stak Bots action")


def _multi_index(game: Any, action: Any, n: int, p: int) -> int:
    """SB-11.12's blocks, after the base layout: plays onto your own staks 2.., plays onto a
    seat's staks 2.., attacks (target seat, its stak, your stak), choices on staks 2..,
    recycling with staks 2..."""
    per = _per(game)
    extra = per - 1
    base = _base_size(n, p)
    cls = type(action)
    if cls is Play and action.seat < 0:
        return base + (action.stak - 1) * n + action.card
    base += extra * n
    if cls is Play:
        return base + (action.seat * extra + action.stak - 1) * n + action.card
    base += p * extra * n
    if cls is Attack:
        return base + (action.target * per + action.target_stak) * per + action.own_stak
    base += p * per * per
    if cls is Target:
        return base + (action.seat * extra + action.stak - 1) * n + action.depth
    base += p * extra * n
    if cls is Recycle:
        return base + (action.stak - 1) * n + action.card
    raise ValueError(f"game stakbots: {action!r} is not a Stak Bots action")


def observation_size(game: Any) -> int:
    return SLOTS * PER_SEAT + GLOBAL


# Where each part of the layout starts: in a side's block (PER_SEAT floats, SLOTS of them from
# the viewer's on), and in the table's block after the sides.
_TOP = 8  # the top card's type (one-hot), then its current power, damage and rank
_UP = _TOP + BOTS + 3  # the face-up cards' types
_KNOWN = _UP + BOTS  # the types of the hand cards everybody saw
_OWN = SLOTS * PER_SEAT  # the viewer's hand's types, then its printed power
_HEAP = _OWN + BOTS + 1  # the scrapheap's types, its size, the supply's size
_DECISION = _HEAP + BOTS + 2  # the decision's kind (one-hot), then its card's type
_TURN = _DECISION + len(DECISIONS) + BOTS  # attacked, stopped, fed, the Stomp slot, the clock


@cython.locals(obs=list, at=cython.Py_ssize_t, b=cython.Py_ssize_t)
def _count(obs: list[float], at: int, bots: list[int]) -> None:
    """A quarter for each card, by its type, in the BOTS floats from obs[at]."""
    for b in bots:
        obs[at + b] += 0.25


@cython.locals(obs=list, at=cython.Py_ssize_t, stak_size=cython.long, up=cython.long)
def _side(
    obs: list[float],
    at: int,
    in_game: bool,
    active: bool,
    deciding: bool,
    stak_size: int,
    hand_size: int,
    up_bots: list[int],
    top: tuple[int, int, int, int] | None,
    known_bots: list[int],
) -> None:
    """One side's PER_SEAT floats from obs[at]: its staks read as one (SB-11.12: their cards
    together, the top of the first stak in play), `up_bots` the types of their face-up cards,
    `top` that top card's (type, current power, damage, rank) when it is face-up, `known_bots`
    the types of its hand cards everybody saw."""
    up = len(up_bots)
    obs[at] = 1.0
    obs[at + 1] = 1.0 if in_game else 0.0
    obs[at + 2] = 1.0 if active else 0.0
    obs[at + 3] = 1.0 if deciding else 0.0
    obs[at + 4] = stak_size / 20
    obs[at + 5] = hand_size / 10
    obs[at + 6] = up / 20
    obs[at + 7] = (stak_size - up) / 20
    if top is not None:
        bot, current_power, damage, rank = top
        obs[at + _TOP + bot] = 1.0
        obs[at + _TOP + BOTS] = current_power / 8
        obs[at + _TOP + BOTS + 1] = damage / 8
        obs[at + _TOP + BOTS + 2] = rank / 6
    _count(obs, at + _UP, up_bots)
    _count(obs, at + _KNOWN, known_bots)


@cython.locals(obs=list)
def _table(
    obs: list[float],
    own_bots: list[int],
    own_power: int,
    heap_bots: list[int],
    supply_size: int,
    decision: tuple[int, int] | None,
    attacked: bool,
    stopped: bool,
    fed: bool,
    stomp_slot: int | None,
    turn: float,
    actions: int,
    terminal: bool,
) -> None:
    """The GLOBAL floats after the sides: the viewer's own hand (types, printed power), the
    scrapheap, the supply, the decision (kind, its card's type), the turn's attack, the Stomp
    Bot's target (a slot) and the clock (`turn`: the share of max_turns played)."""
    _count(obs, _OWN, own_bots)
    obs[_OWN + BOTS] = own_power / 20
    _count(obs, _HEAP, heap_bots)
    obs[_HEAP + BOTS] = len(heap_bots) / 60
    obs[_HEAP + BOTS + 1] = supply_size / 60
    if decision is None:
        obs[_DECISION] = 1.0  # DECISIONS[None]
    else:
        obs[_DECISION + decision[0]] = 1.0
        obs[_DECISION + len(DECISIONS) + decision[1]] = 1.0
    obs[_TURN] = 1.0 if attacked else 0.0
    obs[_TURN + 1] = 1.0 if stopped else 0.0
    obs[_TURN + 2] = 1.0 if fed else 0.0
    if stomp_slot is not None:
        obs[_TURN + 3 + stomp_slot] = 1.0
    obs[_TURN + 3 + SLOTS] = turn
    obs[_TURN + 4 + SLOTS] = actions / 60
    obs[_TURN + 5 + SLOTS] = 1.0 if terminal else 0.0


def encode_observation(game: Any, view: dict[str, Any]) -> list[float]:
    sides = list(view["seats"])
    drone = view.get("drone")
    if drone:  # SB-11.14: the Drone fills the slot after the seats, with no hand
        sides.append({**drone, "hand_size": 0, "known_hand": []})
    p = len(sides)
    me = view["seat"] if view["seat"] is not None else 0
    obs = [0.0] * observation_size(game)
    for k in range(min(p, SLOTS)):
        sv = sides[(me + k) % p]
        stak = [c for z in sv["staks"] for c in z["cards"]]
        top = next((z["top"] for z in sv["staks"] if z["top"]), None)
        _side(
            obs,
            k * PER_SEAT,
            sv["in_game"],
            view["active"] == sv["seat"],
            view["current_player"] == sv["seat"],
            len(stak),
            sv["hand_size"],
            [BOT_INDEX[c["bot"]] for c in stak if c["face_up"]],
            (BOT_INDEX[top["bot"]], top["current_power"], top["damage"], top["rank"])
            if top and top["face_up"]
            else None,
            [BOT_INDEX[c["bot"]] for c in sv["known_hand"]],
        )
    own = (view["seats"][me]["hand"] if view["seat"] is not None else None) or []
    d = view["decision"]
    stomp = view["stomp_target"]
    _table(
        obs,
        [BOT_INDEX[c["bot"]] for c in own],
        sum(c["power"] for c in own if c["power"] != "X"),
        [BOT_INDEX[c["bot"]] for c in view["scrapheap"]],
        view["supply_size"],
        (DECISIONS[d["kind"]], BOT_INDEX[d["card"]["bot"]]) if d else None,
        view["attacked_this_turn"],
        view["attacker_stopped"],
        view["scrapheap_fed"],
        (stomp - me) % p if stomp is not None else None,
        view["turn"] / view["options"]["max_turns"],
        view["actions_this_turn"],
        view["terminal"],
    )
    return obs


@cython.locals(
    st=StakBotsState,
    g=StakBotsTables,
    vis=list,
    bot=list,
    staks=list,
    stak=list,
    hand=list,
    n=cython.long,
    p=cython.long,
    me=cython.long,
    k=cython.long,
    s=cython.long,
    j=cython.long,
    c=cython.long,
)
def encode_state(game: Any, st: StakBotsState, seat: int | None) -> list[float]:
    """`encode_observation(game, st.observation_view(seat))` read from the state: each value is
    the one view.py shows `seat` (a hand only to its holder, a card's type only where the
    view names it)."""
    g = st.game
    n = g.num_players
    p = n + (1 if g.drones else 0)  # SB-11.14: the Drone's side after the seats
    me = seat if seat is not None else 0
    vis = st.vis
    bot = g.bot
    staks = st.staks
    deciding = st.current_player()
    obs = [0.0] * (SLOTS * PER_SEAT + GLOBAL)
    for k in range(min(p, SLOTS)):
        s = (me + k) % p
        stak = []
        top = None  # the top card of the first stak in play, when it is face-up
        for j in g.staks_of[s]:
            if staks[j]:
                c = staks[j][-1]
                if not stak and vis[c] == UP:
                    top = (bot[c], power(st, c), st.dmg[c], g.deck.cards[c].rank)
                stak += staks[j]
        if s < n:
            in_game = st.alive[s]
            hand = st.hands[s]
            known = [bot[c] for c in hand if vis[c] == KNOWN]
        else:  # the Drone: in the game while a stak of it holds a card, and no hand
            in_game = bool(stak)
            hand = known = []
        up_bots = [bot[c] for c in stak if vis[c] == UP]
        _side(
            obs,
            k * PER_SEAT,
            in_game,
            st.active == s,
            deciding == s,
            len(stak),
            len(hand),
            up_bots,
            top,
            known,
        )
    own = st.hands[seat] if seat is not None else []
    base_power = g.base_power
    decision = None
    if st.decision is not None:
        kind, c, _ = st.decision
        decision = (DECISIONS[DECISION_NAMES[kind]], bot[c])
    # the active side's staks that attacked this turn, the last of them the one the view shows
    attacked = [j for j in g.staks_of[st.active] if st.attacker[j] >= 0]
    _table(
        obs,
        [bot[c] for c in own],
        sum([base_power[c] for c in own if base_power[c] >= 0]),
        [bot[c] for c in st.scrapheap],
        len(st.supply),
        decision,
        bool(attacked),
        bool(attacked) and st.stopped[attacked[-1]],
        st.fed,
        (g.owner[st.stomp] - me) % p if st.stomp >= 0 else None,
        st.turn / g.options["max_turns"],
        st.n_actions,
        st.result is not None,
    )
    return obs
