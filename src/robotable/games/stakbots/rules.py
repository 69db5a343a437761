"""Stak Bots forward model: setup, legal actions, apply. No I/O.

Each function enforcing a numbered rule of docs/rules/stakbots.md cites it. The board is kept
valid by `settle` after every atomic step: SB-5.3 (damage check, Leaders re-read) then SB-7.1
(every top card face-up; a flipped card's entry effect joins the pending stack as one batch in
turn order from the active seat, SB-6.3). Eliminations (SB-7.2) wait until a chain is over
(SB-6.6), in `after_chain`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from robotable.core.rng import GameRng

from . import effects
from .actions import Attack, ChoosePlayer, Discard, EndTurn, Play, Scrap, Target
from .content import Bot

if TYPE_CHECKING:
    from .state import StakBotsState

# What the table knows of a card (SB-9), per card id in `state.vis`.
HIDDEN = 0  # face-down in a stak, in the supply (nobody), or in a hand (only its holder)
UP = 1  # face-up in a stak or on the scrapheap (everybody)
KNOWN = 2  # face-down in a stak after a reset, or in a hand after Begone: everybody saw it

# Kinds of pending decision (SB-6.7), the first item of `state.decision`.
D_TOP = 1  # choose a top card (Shot, Reaper, Begone, Trip, Pit)
D_FACEUP = 2  # choose a face-up card anywhere (Tranq)
D_PLAYER = 3  # choose a player (Expel)
D_DISCARD = 4  # the chosen player picks a hand card to scrap (Expel)
DECISION_NAMES = {D_TOP: "top", D_FACEUP: "face_up", D_PLAYER: "player", D_DISCARD: "discard"}

# SB-3.6: free actions (play, scrap, attack) a turn may hold before only feeding and ending remain.
MAX_TURN_ACTIONS = 60
# SB-6.8: entry effects that may resolve in one turn; later triggers that turn lapse.
MAX_TURN_EFFECTS = 40
SHOT_DAMAGE = 4


# -- reading the board ------------------------------------------------------------------------
def printed(st: StakBotsState, c: int) -> int | str:
    """A card's printed power for events: a number, or "X" for a Leader Bot (SB-8.10)."""
    p = st.game.base_power[c]
    return p if p >= 0 else "X"


def power_now(st: StakBotsState, c: int) -> int:
    """`power`, with the common case (a printed number) read without a call."""
    p = st.game.base_power[c]
    return p if p >= 0 else power(st, c)


def power(st: StakBotsState, c: int) -> int:
    """A card's current power (SB-1.2); a Leader Bot's X counted live (SB-8.10)."""
    p = st.game.base_power[c]
    if p >= 0:
        return p
    vis = st.vis
    for stak in st.staks:
        if c in stak:
            if vis[c] != UP:
                return 0
            i = stak.index(c)
            lo = i
            while lo > 0 and vis[stak[lo - 1]] == UP:
                lo -= 1
            hi = i
            top = len(stak) - 1
            while hi < top and vis[stak[hi + 1]] == UP:
                hi += 1
            return hi - lo + 1
    return 0


def stak_of(st: StakBotsState, c: int) -> int:
    for s, stak in enumerate(st.staks):
        if c in stak:
            return s
    return -1


def top_owner(st: StakBotsState, c: int) -> int:
    """The seat whose face-up top card `c` is, else -1 (SB-6.5)."""
    if st.vis[c] != UP:
        return -1
    for s, stak in enumerate(st.staks):
        if stak and stak[-1] == c:
            return s
    return -1


def shuffle(rng: GameRng, items: list) -> None:
    """Fisher-Yates driven by the state's GameRng, four 16-bit draws per 64-bit number.

    Unbiased (a draw past the largest multiple of the range is thrown away) and about four
    times cheaper than one `below()` call per card; setup and reshuffles use it.
    """
    bits = 0
    left = 0
    next64 = rng.next64
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        limit = 65536 - 65536 % n
        while True:
            if not left:
                bits = next64()
                left = 4
            x = bits & 0xFFFF
            bits >>= 16
            left -= 1
            if x < limit:
                break
        j = x % n
        items[i], items[j] = items[j], items[i]


# -- atomic moves -----------------------------------------------------------------------------
def _to_heap(st: StakBotsState, c: int) -> None:
    st.vis[c] = UP
    if st.dmg[c]:
        st.dmg[c] = 0
        st.damaged.remove(c)
    st.scrapheap.append(c)
    st.fed = True  # SB-3.3: any route to the scrapheap feeds it
    st.counts[2] += 1
    if c == st.attacker:
        st.stopped = True  # SB-4.4


def uncovered(st: StakBotsState, s: int, event: dict) -> None:
    """Name the card now on top of `s`'s stak in `event` when it was already face-up (a
    face-down one is named by its `flipped` event), for the words (narration.py)."""
    stak = st.staks[s]
    if stak and st.vis[stak[-1]] == UP:
        top = stak[-1]
        event["top_card"] = st.game.names[top]
        p = st.game.base_power[top]
        event["top_power"] = p if p >= 0 else power(st, top)


def scrap_from_stak(st: StakBotsState, s: int, c: int, events: list, reason: str) -> None:
    stak = st.staks[s]
    vis = st.vis
    was_hidden = vis[c] != UP
    g = st.game
    p = g.base_power[c]
    if p < 0:  # a Leader Bot: its live X while face-up in the stak (SB-8.10)
        p = "X" if was_hidden else power(st, c)
    event = {
        "type": "scrapped",
        "seat": s,
        "card": g.names[c],
        "id": c,
        "power": p,
        "from": "stak_face_down" if was_hidden else "stak",
        "reason": reason,
    }
    if stak[-1] == c:
        stak.pop()
        if stak and vis[top := stak[-1]] == UP:  # an already face-up card is on top now
            event["top_card"] = g.names[top]
            p = g.base_power[top]
            event["top_power"] = p if p >= 0 else power(st, top)
    else:
        stak.remove(c)
    _to_heap(st, c)
    events.append(event)


def scrap_from_hand(st: StakBotsState, s: int, c: int, events: list, reason: str) -> None:
    st.hands[s].remove(c)
    _to_heap(st, c)
    events.append(
        {
            "type": "scrapped",
            "seat": s,
            "card": st.game.names[c],
            "id": c,
            "power": p if (p := st.game.base_power[c]) >= 0 else "X",
            "from": "hand",
            "reason": reason,
        }
    )


def add_damage(st: StakBotsState, c: int, amount: int) -> None:
    if amount <= 0:
        return
    if not st.dmg[c]:
        st.damaged.append(c)
    st.dmg[c] += amount


def return_to_hand(st: StakBotsState, s: int, c: int, events: list) -> None:
    """SB-8.14: the card goes to the hand of its stak's owner; everybody saw which card."""
    st.staks[s].remove(c)
    st.hands[s].append(c)
    st.vis[c] = KNOWN
    if st.dmg[c]:
        st.dmg[c] = 0
        st.damaged.remove(c)
    if c == st.attacker:
        st.stopped = True  # SB-4.4
    event = {"type": "returned", "seat": s, "card": st.game.names[c], "id": c}
    event["power"] = printed(st, c)
    uncovered(st, s, event)
    events.append(event)


def reset(st: StakBotsState, s: int, c: int, events: list, by_seat: int = -1, by: int = -1) -> None:
    """SB-8.13: turned face-down, damage cleared; a waiting effect of it lapses (SB-6.5).
    `by_seat`'s card `by` (the Tranq Bot) did it."""
    event = {"type": "reset", "seat": s, "card": st.game.names[c], "id": c}
    event["power"] = power(st, c)
    event["damage"] = st.dmg[c]
    event["top"] = st.staks[s][-1] == c
    if by >= 0:
        event["by_seat"] = by_seat
        event["by_card"] = st.game.names[by]
    st.vis[c] = KNOWN
    if st.dmg[c]:
        st.dmg[c] = 0
        st.damaged.remove(c)
    if c == st.attacker:
        st.stopped = True  # SB-4.4
    if c in st.pending:
        st.pending = [p for p in st.pending if p != c]
    events.append(event)


def draw(st: StakBotsState, seat: int, events: list) -> None:
    """SB-3.1: draw the supply's top card; an empty supply is the reshuffled scrapheap."""
    if not st.supply:
        if not st.scrapheap:
            events.append({"type": "draw_skipped", "seat": seat})
            return
        st.supply = st.scrapheap
        st.scrapheap = []
        vis = st.vis
        for c in st.supply:
            vis[c] = HIDDEN
        shuffle(st.rng, st.supply)
        st.counts[4] += 1
        events.append({"type": "reshuffled", "cards": len(st.supply)})
    c = st.supply.pop()
    st.hands[seat].append(c)
    events.append(
        {
            "type": "card_drawn",
            "seat": seat,
            "card": st.game.names[c],
            "id": c,
            "power": p if (p := st.game.base_power[c]) >= 0 else "X",
            "to": [seat],
        }
    )
    events.append({"type": "drew", "seat": seat, "hand_size": len(st.hands[seat])})


def settle(st: StakBotsState, events: list) -> None:
    """SB-5.3 then SB-7.1, after every atomic step."""
    dmg = st.dmg
    base = st.game.base_power
    while st.damaged:
        dead = [c for c in st.damaged if dmg[c] >= (base[c] if base[c] >= 0 else power(st, c))]
        if not dead:
            break
        for c in dead:
            scrap_from_stak(st, stak_of(st, c), c, events, "damage")
    vis = st.vis
    staks = st.staks
    for stak in staks:
        if stak and vis[stak[-1]] != UP:
            break
    else:
        return  # the common case: every top card is already face-up
    bots = st.game.bot
    batch = []
    n = len(staks)
    a = st.active
    for k in range(n):
        s = (a + k) % n
        stak = staks[s]
        if stak and vis[stak[-1]] != UP:
            c = stak[-1]
            vis[c] = UP
            events.append(
                {
                    "type": "flipped",
                    "seat": s,
                    "card": st.game.names[c],
                    "id": c,
                    "power": p if (p := st.game.base_power[c]) >= 0 else power(st, c),
                }
            )
            if bots[c] in effects.ENTRY:
                batch.append(c)
    if batch:
        # SB-6.3/6.4: a new batch goes on top of the waiting ones; its first card resolves first.
        batch.reverse()
        st.pending.extend(batch)


# -- turn flow --------------------------------------------------------------------------------
def setup(st: StakBotsState, seed: int) -> None:
    """SB-2: deal the staks face-down, turn each top card up (no entry effects), deal hands."""
    g = st.game
    st.rng = GameRng(seed)
    deck = list(range(len(g.deck)))
    shuffle(st.rng, deck)
    size = g.options["stak_size"]
    for s in range(g.num_players):
        st.staks[s] = [deck.pop() for _ in range(size)]
        st.vis[st.staks[s][-1]] = UP
    for s in range(g.num_players):
        st.hands[s] = [deck.pop() for _ in range(g.options["hand_size"])]
    st.supply = deck
    st.active = 0  # SB-2.6
    st.turn = 1
    opening: list = []
    start_turn(st, opening)
    st.opening = opening  # the first turn's start and draw, for the front ends' log


def start_turn(st: StakBotsState, events: list) -> None:
    st.fed = False
    st.attacker = -1
    st.stopped = False
    st.stomp = -1
    st.n_actions = 0
    st.n_effects = 0
    events.append({"type": "turn_started", "seat": st.active, "turn": st.turn})
    draw(st, st.active, events)


def end_turn(st: StakBotsState, events: list) -> None:
    """SB-3.4: repair every card; SB-3.7: the turn cap; then the next seat still in starts."""
    dmg = st.dmg
    repaired = len(st.damaged)
    for c in st.damaged:
        dmg[c] = 0
    st.damaged = []
    events.append(
        {
            "type": "turn_ended",
            "seat": st.active,
            "turn": st.turn,
            "repaired": repaired,
            "out": not st.alive[st.active],
        }
    )
    n = st.game.num_players
    if st.turn >= st.game.options["max_turns"]:
        alive = [s for s in range(n) if st.alive[s]]
        finish(st, alive, "turn_cap", events)
        return
    nxt = (st.active + 1) % n
    while not st.alive[nxt]:
        nxt = (nxt + 1) % n
    st.active = nxt
    st.turn += 1
    start_turn(st, events)


def finish(st: StakBotsState, winners: list[int], reason: str, events: list) -> None:
    """SB-7.3/7.4/3.7: winners share the win (a draw when several)."""
    n = st.game.num_players
    share = 1.0 / len(winners) if winners else 0.0
    st.result = [share if s in winners else 0.0 for s in range(n)]
    st.end_reason = reason
    st.stomp = -1
    st.decision = None
    st.pending = []
    events.append(
        {
            "type": "game_over",
            "reason": reason,
            "returns": list(st.result),
            "winners": list(winners),
            "turn": st.turn,
        }
    )


def after_chain(st: StakBotsState, events: list) -> None:
    """SB-7.2 (eliminations once the chain is over), SB-7.3/7.4 (the end), SB-7.5, SB-5.6."""
    staks = st.staks
    out = None
    for stak in staks:
        if not stak:
            break
    else:
        out = ()  # the common case: nobody is at zero
    n = st.game.num_players
    if out is None:
        out = [s for s in range(n) if st.alive[s] and not staks[s]]
    for s in out:
        st.alive[s] = False
        events.append({"type": "seat_out", "seat": s, "hand_size": len(st.hands[s])})
        for c in st.hands[s][:]:
            scrap_from_hand(st, s, c, events, "out")
    if out:
        alive = [s for s in range(n) if st.alive[s]]
        if len(alive) == 1:
            finish(st, alive, "last_stak", events)
            return
        if not alive:
            finish(st, out, "wipe_out_draw", events)
            return
        if not st.alive[st.active]:
            end_turn(st, events)
            return
    if st.stomp >= 0:
        top = st.staks[st.active][-1]
        t = st.stomp
        if top != st.attacker or st.stopped or not st.staks[t] or power(st, top) == 0:
            st.stomp = -1


def run(st: StakBotsState, events: list) -> None:
    """Resolve pending entry effects until a choice is needed or the chain is over (SB-6)."""
    while st.decision is None and st.result is None:
        if not st.pending:
            after_chain(st, events)
            return
        pending = st.pending
        c = pending.pop()
        s = top_owner(st, c)
        if s < 0:
            events.append(_lapsed(st, c, "not on top"))
            continue
        if st.n_effects >= MAX_TURN_EFFECTS:
            events.append(_lapsed(st, c, "turn limit"))
            continue
        st.n_effects += 1
        st.counts[3] += 1
        effects.fire(st, c, s, events)
        settle(st, events)


def _lapsed(st: StakBotsState, c: int, why: str) -> dict[str, Any]:
    """SB-6.5/6.8: a waiting entry effect is lost; `seat` is whose stak or hand the card is in
    now (absent when it has left both: it was face-up, so naming it tells nobody a secret)."""
    event: dict[str, Any] = {"type": "effect_lapsed", "card": st.game.names[c], "id": c}
    event["why"] = why
    s = stak_of(st, c)
    if s >= 0:
        event["seat"] = s
        event["where"] = "stak"
    elif c in st.scrapheap:
        event["where"] = "scrapheap"
    else:
        # In a hand: named only when everybody saw it go there (Begone Bot); a card drawn after
        # a reshuffle is a secret of its holder, and so is where it went.
        for h, hand in enumerate(st.hands):
            if c in hand and st.vis[c] == KNOWN:
                event["seat"] = h
                event["where"] = "hand"
                break
        else:
            event["where"] = "elsewhere"
    return event


def attack(st: StakBotsState, target: int, events: list) -> None:
    """SB-5: one combat between the active top card and `target`'s top card."""
    g = st.game
    a = st.active
    sa = st.staks[a]
    sd = st.staks[target]
    att = sa[-1]
    dfn = sd[-1]
    again = st.attacker == att
    st.attacker = att
    pa = power(st, att)
    pd = power(st, dfn)
    event = {
        "type": "attack",
        "seat": a,
        "card": g.names[att],
        "id": att,
        "target": target,
        "target_card": g.names[dfn],
        "target_id": dfn,
        "power": pa,
        "target_power": pd,
        "forced": st.stomp == target,
        "again": again,
    }
    events.append(event)
    st.counts[0] += 1
    doomed: set[int] = set()
    if pa > 0:
        add_damage(st, dfn, pa)
        effects.damage_ability(st, att, a, dfn, target, doomed, events)
    if pd > 0:
        add_damage(st, att, pd)
        effects.damage_ability(st, dfn, target, att, a, doomed, events)
    dmg = st.dmg
    # The damage each card holds now, this combat's included (for the words, SB-5.2).
    event["damage"] = dmg[att]
    event["target_damage"] = dmg[dfn]
    for c in (att, dfn):
        if dmg[c] and dmg[c] >= power(st, c):
            doomed.add(c)
    # SB-5.4: everything doomed by this combat goes at once (attacker's stak first, top down).
    if doomed:
        for s in (a, target):
            stak = st.staks[s]
            victims = [c for c in doomed if c in stak]
            if len(victims) > 1:
                victims.sort(key=stak.index, reverse=True)
            for c in victims:
                scrap_from_stak(st, s, c, events, "combat")
    settle(st, events)
    st.stomp = target if g.bot[att] == Bot.STOMP else -1


# -- legal actions ----------------------------------------------------------------------------
def legal_actions(st: StakBotsState) -> list:
    d = st.decision
    if d is not None:
        return effects.choices(st, d)
    g = st.game
    a = st.active
    if st.stomp >= 0:
        return [g.attack_a[st.stomp]]  # SB-5.6: the forced continuation
    hand = st.hands[a]
    top = st.staks[a][-1]
    limited = st.n_actions >= MAX_TURN_ACTIONS
    if limited:
        if st.fed:
            return [g.end_a]
        out = [g.scrap_top_a[top]]
        seen = 0
        for c in hand:
            bit = 1 << g.defkey[c]
            if not seen & bit:
                seen |= bit
                out.append(g.scrap_hand_a[c])
        return out
    # One pass over the hand: plays first, then scraps (interchangeable copies appear once).
    out = []
    scraps = [g.scrap_top_a[top]]
    if hand:
        defkey = g.defkey
        play_a = g.play_a
        scrap_hand_a = g.scrap_hand_a
        seen = 0
        for c in hand:
            bit = 1 << defkey[c]
            if not seen & bit:
                seen |= bit
                out.append(play_a[c])
                scraps.append(scrap_hand_a[c])
    out += scraps
    if st.attacker < 0 or (st.attacker == top and not st.stopped):
        p_top = -1
        n = g.num_players
        for k in range(1, n):
            t = (a + k) % n
            ts = st.staks[t]
            if not ts:
                continue
            if p_top < 0:
                p_top = power(st, top)
            if p_top == 0 and power(st, ts[-1]) == 0:
                continue  # SB-4.5: an attack that deals no damage at all is not offered
            out.append(g.attack_a[t])
    if st.fed:
        out.append(g.end_a)
    return out


# -- apply ------------------------------------------------------------------------------------
def apply(st: StakBotsState, action: Any) -> list:
    events: list = []
    g = st.game
    cls = type(action)
    a = st.active
    if cls is Play:
        c = action.card
        st.hands[a].remove(c)
        st.staks[a].append(c)
        st.vis[c] = UP
        st.n_actions += 1
        st.counts[1] += 1
        p = g.base_power[c]
        events.append(
            {
                "type": "played",
                "seat": a,
                "card": g.names[c],
                "id": c,
                "power": p if p >= 0 else power(st, c),
            }
        )
        if g.bot[c] in effects.ENTRY:
            st.pending.append(c)  # SB-6.1
        run(st, events)
    elif cls is Scrap:
        c = action.card
        st.n_actions += 1
        if action.from_hand:
            scrap_from_hand(st, a, c, events, "scrap")
        else:
            scrap_from_stak(st, a, c, events, "scrap")
            settle(st, events)
        run(st, events)
    elif cls is Attack:
        st.n_actions += 1
        attack(st, action.target, events)
        run(st, events)
    elif cls is EndTurn:
        end_turn(st, events)
    else:
        kind, c, chooser = st.decision  # type: ignore[misc]
        st.decision = None
        if cls is Target:
            effects.resolve_target(st, c, chooser, action.seat, action.depth, events)
        elif cls is ChoosePlayer:
            effects.resolve_player(st, c, chooser, action.seat, events)
        elif cls is Discard:
            scrap_from_hand(st, chooser, action.card, events, "expelled")
        settle(st, events)
        run(st, events)
    return events


# -- words ------------------------------------------------------------------------------------
def prompt(st: StakBotsState) -> str:
    g = st.game
    if st.result is not None:
        return f"game over ({st.end_reason.replace('_', ' ')})"
    d = st.decision
    if d is not None:
        return effects.describe(st, d)
    a = st.active
    if st.stomp >= 0:
        name = g.names[st.attacker]
        return f"Seat {a + 1}: your {name} must keep attacking Seat {st.stomp + 1}'s stak"
    if not st.fed:
        return (
            f"Seat {a + 1}, your turn: play, scrap or attack; feed the scrapheap before you end it"
        )
    return f"Seat {a + 1}, your turn: play, scrap, attack or end the turn"
