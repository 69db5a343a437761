"""Stak Bots forward model: setup, legal actions, apply. No I/O.

The atomic moves and the card effects it drives are in effects.py, the board's readers (power,
whose top card) in board.py; both sit below this file.

Each function enforcing a numbered rule of docs/rules/stakbots.md cites it. The board is kept
valid by `settle` after every atomic step: SB-5.3 (damage check, Leaders re-read) then SB-7.1
(every top card face-up; a flipped card's entry effect joins the pending stack as one batch in
turn order from the active seat, SB-6.3). Eliminations (SB-7.2) wait until a chain is over
(SB-6.6), in `after_chain`.
"""

from __future__ import annotations

from typing import Any

from robotable.core.rng import GameRng

from . import effects
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
from .board import power, stak_of, top_owner
from .content import Bot
from .effects import add_damage, draw, scrap_from_hand, scrap_from_stak, shuffle
from .state import D_REACT, KNOWN, UP, StakBotsState

# SB-3.6: free actions (play, scrap, attack) a turn may hold before only feeding and ending remain.
MAX_TURN_ACTIONS = 60
# SB-6.8: entry effects that may resolve in one turn; later triggers that turn lapse.
MAX_TURN_EFFECTS = 40


# -- settling the board -----------------------------------------------------------------------
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
    entry = st.game.entry
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
            if bots[c] in entry:
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
    opening: list = []
    tops = [st.staks[s][-1] for s in range(g.num_players)]
    batch = [c for c in tops if g.bot[c] in g.entry] if g.options["setup_effects"] else []
    if batch:
        # SB-11.2: the starting tops' entry effects resolve as one batch in turn order from the
        # first player, before the first draw; turn 0 is that chain, and its end starts turn 1.
        st.turn = 0
        opening.append({"type": "setup_effects", "cards": len(batch)})
        batch.reverse()
        st.pending.extend(batch)
        run(st, opening)
    else:
        st.turn = 1
        start_turn(st, opening)
    st.opening = opening  # what happened before the first decision, for the front ends' log


def start_turn(st: StakBotsState, events: list) -> None:
    st.fed = False
    st.attacker = -1
    st.stopped = False
    st.stomp = -1
    st.n_actions = 0
    st.n_effects = 0
    st.n_attacks = 0
    events.append({"type": "turn_started", "seat": st.active, "turn": st.turn})
    if st.turn == 1 and st.game.options["skip_first_draw"]:
        events.append({"type": "draw_skipped", "seat": st.active, "why": "first_turn"})  # SB-11.3
    else:
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
        finish(st, with_teammates(st, alive), "turn_cap", events)
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
    event = {
        "type": "game_over",
        "reason": reason,
        "returns": list(st.result),
        "winners": list(winners),
        "turn": st.turn,
    }
    if st.game.options["teams"] and reason != "wipe_out_draw" and winners:
        event["team"] = True  # SB-11.10: one team wins, both its seats
    events.append(event)


def with_teammates(st: StakBotsState, seats: list[int]) -> list[int]:
    """`seats` and their teammates (SB-11.10: a team wins or draws together); `seats` alone
    without teams."""
    team = st.game.team
    teams = {team[s] for s in seats}
    return [s for s in range(st.game.num_players) if team[s] in teams]


def after_chain(st: StakBotsState, events: list) -> None:
    """SB-7.2 (eliminations once the chain is over), SB-7.3/7.4 (the end), SB-7.5, SB-5.6,
    SB-11.2 (the setup chain's end starts turn 1)."""
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
        team = st.game.team
        if alive and all(team[s] == team[alive[0]] for s in alive):
            finish(st, with_teammates(st, alive), "last_stak", events)
            return
        if not alive:
            finish(st, with_teammates(st, out), "wipe_out_draw", events)
            return
        if not st.alive[st.active] and st.turn > 0:
            end_turn(st, events)
            return
    if st.turn == 0:
        while not st.alive[st.active]:
            st.active = (st.active + 1) % n
        st.turn = 1
        start_turn(st, events)
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
    if st.stomp != target:
        st.n_attacks += 1  # SB-11.7: a Stomp Bot's forced attacks belong to the one it began
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
    limit = g.hand_limit
    can_end = st.fed and (limit < 0 or len(hand) <= limit)  # SB-3.3, SB-11.8
    if st.n_actions >= MAX_TURN_ACTIONS:
        if can_end:
            return [g.end_a]
        out = []
        if not st.fed:
            out.append(g.scrap_top_a[top])
        seen = 0
        for c in hand:
            bit = 1 << g.defkey[c]
            if not seen & bit:
                seen |= bit
                if limit < 0 and not st.fed:
                    out.append(g.scrap_hand_a[c])
                elif limit >= 0 and len(hand) > limit:
                    out += [g.play_onto[t][c] for t in play_seats(st, a)]
        return out
    # One pass over the hand: plays first, then scraps (interchangeable copies appear once).
    out = []
    scraps = [g.scrap_top_a[top]]
    if hand:
        defkey = g.defkey
        play_a = g.play_a
        scrap_hand_a = g.scrap_hand_a
        onto = play_seats(st, a) if g.options["borderless"] != "off" or limit >= 0 else None
        recycle = g.options["recycling"]
        seen = 0
        for c in hand:
            bit = 1 << defkey[c]
            if not seen & bit:
                seen |= bit
                if onto is None:
                    out.append(play_a[c])
                else:
                    out += [play_a[c] if t == a else g.play_onto[t][c] for t in onto]
                if limit < 0:
                    scraps.append(scrap_hand_a[c])
                if recycle:
                    scraps.append(g.recycle_a[c])
    out += scraps
    tally = g.tally
    if st.n_attacks < tally if tally else st.attacker < 0 or st.attacker == top and not st.stopped:
        p_top = -1
        n = g.num_players
        team = g.team
        for k in range(1, n):
            t = (a + k) % n
            ts = st.staks[t]
            if not ts or team[t] == team[a]:
                continue  # SB-11.10: teammates' staks are not attacked
            if p_top < 0:
                p_top = power(st, top)
            if p_top == 0 and power(st, ts[-1]) == 0:
                continue  # SB-4.5: an attack that deals no damage at all is not offered
            out.append(g.attack_a[t])
    if can_end:
        out.append(g.end_a)
    return out


def play_seats(st: StakBotsState, a: int) -> list[int]:
    """The seats whose staks `a` may play onto (SB-11.6 borderless, SB-11.8 traitor): own
    first, then in turn order; only seats still in."""
    g = st.game
    n = g.num_players
    team = g.team
    mode = g.options["borderless"]
    if g.hand_limit >= 0:  # traitor: opponents' staks only
        return [t for k in range(1, n) if st.alive[t := (a + k) % n] and team[t] != team[a]]
    seats = [a]
    for k in range(1, n):
        t = (a + k) % n
        if st.alive[t] and (mode == "on" or team[t] == team[a]):
            seats.append(t)
    return seats


# -- apply ------------------------------------------------------------------------------------
def apply(st: StakBotsState, action: Any) -> list:
    events: list = []
    g = st.game
    cls = type(action)
    a = st.active
    if cls is Play:
        c = action.card
        t = a if action.seat < 0 else action.seat
        st.n_actions += 1
        play_card(st, a, t, c, False, events)
        run(st, events)
    elif cls is Recycle:
        st.n_actions += 1
        events.append({"type": "recycled", "seat": a})  # SB-11.4
        scrap_from_stak(st, a, st.staks[a][-1], events, "recycled")
        settle(st, events)
        scrap_from_hand(st, a, action.card, events, "recycled")
        draw(st, a, events)
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
        t = action.target
        if g.options["reactive"] and st.hands[t]:
            # SB-11.5: the attacked seat may react before the combat.
            top = st.staks[a][-1]
            dfn = st.staks[t][-1]
            events.append(
                {
                    "type": "attack_declared",
                    "seat": a,
                    "card": g.names[top],
                    "power": power(st, top),
                    "target": t,
                    "target_card": g.names[dfn],
                    "target_power": power(st, dfn),
                }
            )
            st.decision = (D_REACT, top, t)
        else:
            attack(st, t, events)
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
        elif cls is React:
            play_card(st, chooser, chooser, action.card, True, events)
        elif cls is LetThrough:
            attack(st, chooser, events)
        settle(st, events)
        run(st, events)
    return events


def play_card(
    st: StakBotsState, seat: int, onto: int, c: int, reaction: bool, events: list
) -> None:
    """`seat` plays hand card `c` face-up onto `onto`'s stak (SB-4.1, SB-11.5, SB-11.6); its
    entry effect waits to resolve, steered by that stak's owner (SB-6.7)."""
    g = st.game
    st.hands[seat].remove(c)
    st.staks[onto].append(c)
    st.vis[c] = UP
    st.counts[1] += 1
    p = g.base_power[c]
    event = {
        "type": "played",
        "seat": seat,
        "card": g.names[c],
        "id": c,
        "power": p if p >= 0 else power(st, c),
    }
    if onto != seat:
        event["onto"] = onto
    if reaction:
        event["reaction"] = True
    events.append(event)
    if g.bot[c] in g.entry:
        st.pending.append(c)  # SB-6.1


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
