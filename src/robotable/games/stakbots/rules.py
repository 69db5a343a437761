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

from . import drone
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
from .board import mark, power, printed, stak_of, top_stak
from .content import BOT_STOMP
from .effects import (
    add_damage,
    choices,
    damage_ability,
    draw,
    fire,
    resolve_player,
    resolve_target,
    scrap_from_hand,
    scrap_from_stak,
    shuffle,
    take_top,
)
from .state import D_REACT, KNOWN, UP, StakBotsState

try:
    import cython
except ImportError:  # no Cython: its declarations do nothing
    from robotable.core import cython_shim as cython

# SB-3.6: free actions (play, scrap, attack) a turn may hold before only feeding and ending remain.
MAX_TURN_ACTIONS = 60
# SB-6.8: entry effects that may resolve in one turn; later triggers that turn lapse.
MAX_TURN_EFFECTS = 40


# -- settling the board -----------------------------------------------------------------------
@cython.locals(st=StakBotsState)
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
    g = st.game
    bots = g.bot
    entry = g.entry
    batch = []
    for s in g.stak_order[st.active]:
        stak = staks[s]
        if stak and vis[stak[-1]] != UP:
            c = stak[-1]
            vis[c] = UP
            if not st.quiet:
                event = {
                    "type": "flipped",
                    "seat": g.owner[s],
                    "card": g.names[c],
                    "id": c,
                    "power": p if (p := g.base_power[c]) >= 0 else power(st, c),
                }
                if g.several[s]:
                    event["stak"] = g.local[s]
                events.append(event)
            if bots[c] in entry:
                batch.append(c)
    if batch:
        # SB-6.3/6.4: a new batch goes on top of the waiting ones; its first card resolves first.
        batch.reverse()
        st.pending.extend(batch)


# -- turn flow --------------------------------------------------------------------------------
@cython.locals(st=StakBotsState)
def setup(st: StakBotsState, seed: int) -> None:
    """SB-2: deal the staks face-down, turn each top card up (no entry effects), deal hands."""
    g = st.game
    st.rng = GameRng(seed)
    deck = list(range(len(g.deck)))
    shuffle(st.rng, deck)
    size = g.options["stak_size"]
    for s in range(len(st.staks)):
        st.staks[s] = [deck.pop() for _ in range(size)]
        st.vis[st.staks[s][-1]] = UP
    for s in range(g.num_players):
        st.hands[s] = [deck.pop() for _ in range(g.options["hand_size"])]
    st.supply = deck
    st.active = 0  # SB-2.6
    opening: list = []
    tops = [st.staks[s][-1] for s in g.stak_order[0]]
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


@cython.locals(st=StakBotsState)
def start_turn(st: StakBotsState, events: list) -> None:
    st.fed = False
    k = len(st.staks)
    st.attacker = [-1] * k
    st.stopped = [False] * k
    st.stomp = -1
    st.stomp_from = -1
    st.n_actions = 0
    st.n_effects = 0
    st.n_attacks = 0
    if not st.quiet:
        events.append({"type": "turn_started", "seat": st.active, "turn": st.turn})
    if st.active == st.game.num_players:
        drone_turn(st, events)
    elif st.turn == 1 and st.game.options["skip_first_draw"]:
        if not st.quiet:
            events.append(
                {"type": "draw_skipped", "seat": st.active, "why": "first_turn"}
            )  # SB-11.3
    else:
        draw(st, st.active, events)


@cython.locals(st=StakBotsState)
def end_turn(st: StakBotsState, events: list) -> None:
    """SB-3.4: repair every card; SB-3.7: the turn cap; then the next seat still in starts."""
    dmg = st.dmg
    repaired = len(st.damaged)
    for c in st.damaged:
        dmg[c] = 0
    st.damaged = []
    g = st.game
    n = g.num_players
    drone = st.active == n  # the Drone's turn ends (SB-11.14)
    if not st.quiet:
        events.append(
            {
                "type": "turn_ended",
                "seat": st.active,
                "turn": st.turn,
                "repaired": repaired,
                "out": not drone and not st.alive[st.active],
            }
        )
    if st.turn >= g.options["max_turns"]:
        if g.drones:  # SB-11.14: the Drone not cleared in time is a draw
            finish(st, [], "turn_cap", events, share=0.5)
            return
        alive = [s for s in range(n) if st.alive[s]]
        finish(st, with_teammates(st, alive), "turn_cap", events)
        return
    st.turn += 1
    if g.drones and not drone:
        st.active = n
        start_turn(st, events)
        return
    nxt = 0 if drone else (st.active + 1) % n
    while not st.alive[nxt]:
        nxt = (nxt + 1) % n
    st.active = nxt
    start_turn(st, events)


@cython.locals(st=StakBotsState)
def finish(
    st: StakBotsState, winners: list[int], reason: str, events: list, share: float = -1.0
) -> None:
    """SB-7.3/7.4/3.7: winners share the win (a draw when several). Drone Mode (SB-11.14)
    gives its one seat `share` when it neither won nor lost."""
    n = st.game.num_players
    if share < 0:
        share = 1.0 / len(winners) if winners else 0.0
        st.result = [share if s in winners else 0.0 for s in range(n)]
    else:
        st.result = [share] * n
    st.end_reason = reason
    st.stomp = -1
    st.decision = None
    st.pending = []
    if not st.quiet:
        events.append(game_over_event(st, winners))


@cython.locals(st=StakBotsState)
def game_over_event(st: StakBotsState, winners: list[int]) -> dict:
    """The event that tells how a finished game ended (the log words it; so does the board)."""
    event = {
        "type": "game_over",
        "reason": st.end_reason,
        "returns": list(st.result),
        "winners": list(winners),
        "turn": st.turn,
    }
    if st.game.options["teams"] and st.end_reason != "wipe_out_draw" and winners:
        event["team"] = True  # SB-11.10: one team wins, both its seats
    return event


@cython.locals(st=StakBotsState)
def winning_seats(st: StakBotsState) -> list[int]:
    """The seats that won a finished game; none in Drone Mode's draws, which give the one seat
    half a point without a winner (SB-11.14)."""
    if st.game.drones and st.result == [0.5]:
        return []
    return [s for s, r in enumerate(st.result) if r > 0]


@cython.locals(st=StakBotsState)
def with_teammates(st: StakBotsState, seats: list[int]) -> list[int]:
    """`seats` and their teammates (SB-11.10: a team wins or draws together); `seats` alone
    without teams."""
    team = st.game.team
    teams = {team[s] for s in seats}
    return [s for s in range(st.game.num_players) if team[s] in teams]


# after_chain's rarer tests, apart: a generator is a closure, which a cpdef cannot hold.
@cython.locals(st=StakBotsState)
def _emptied(st: StakBotsState) -> tuple[list[int], bool]:
    """The live seats whose every stak is empty, and whether the Drone's staks are (SB-11.14)."""
    g = st.game
    n = g.num_players
    staks = st.staks
    staks_of = g.staks_of
    out = [s for s in range(n) if st.alive[s] and not any(staks[k] for k in staks_of[s])]
    return out, g.drones > 0 and not any(staks[k] for k in staks_of[n])


def _one_team(team: list[int], alive: list[int]) -> bool:
    return all(team[s] == team[alive[0]] for s in alive)


@cython.locals(st=StakBotsState)
def after_chain(st: StakBotsState, events: list) -> None:
    """SB-7.2 (eliminations once the chain is over), SB-7.3/7.4 (the end), SB-7.5, SB-5.6,
    SB-11.2 (the setup chain's end starts turn 1), SB-11.12 (out when every stak is empty)."""
    staks = st.staks
    out = None
    for stak in staks:
        if not stak:
            break
    else:
        out = ()  # the common case: nobody is at zero
    g = st.game
    n = g.num_players
    cleared = False
    if out is None:
        out, cleared = _emptied(st)
    for s in out:
        st.alive[s] = False
        if not st.quiet:
            event = {"type": "seat_out", "seat": s, "hand_size": len(st.hands[s])}
            if g.several[g.staks_of[s][0]]:
                event["staks"] = len(g.staks_of[s])
            events.append(event)
        for c in st.hands[s][:]:
            scrap_from_hand(st, s, c, events, "out")
    if g.drones and (out or cleared):  # SB-11.14
        if out and cleared:
            finish(st, [], "wipe_out_draw", events, share=0.5)
        elif out:
            finish(st, [], "drone_wins", events)
        else:
            finish(st, [0], "drone_cleared", events)
        return
    if out:
        alive = [s for s in range(n) if st.alive[s]]
        team = g.team
        if alive and _one_team(team, alive):
            finish(st, with_teammates(st, alive), "last_stak", events)
            return
        if not alive:
            finish(st, with_teammates(st, out), "wipe_out_draw", events)
            return
        if st.active < n and not st.alive[st.active] and st.turn > 0:
            end_turn(st, events)
            return
    if st.turn == 0:
        while not st.alive[st.active]:
            st.active = (st.active + 1) % n
        st.turn = 1
        start_turn(st, events)
        return
    if st.stomp >= 0:
        k = st.stomp_from
        src = staks[k]
        top = src[-1] if src else -1
        t = st.stomp
        if top != st.attacker[k] or st.stopped[k] or not staks[t] or power(st, top) == 0:
            st.stomp = -1
    if st.active == n and st.decision is None:
        drone_step(st, events)  # SB-11.14: the Drone's turn goes on


@cython.locals(st=StakBotsState)
def drone_turn(st: StakBotsState, events: list) -> None:
    """SB-11.14: the Drone's turn begins: it turns the supply's top card face-up onto its
    shortest stak still in play (the card's entry effect fires, its choices by the fixed rule),
    then its staks attack in order (`drone_step`)."""
    g = st.game
    st.drone_next = 0
    live = [k for k in g.staks_of[g.num_players] if st.staks[k]]
    c = take_top(st, g.num_players, events) if live else -1
    if c < 0:
        drone_step(st, events)
        return
    staks = st.staks  # a lambda over the typed `st` does not compile (Cython 3.3)
    k = min(live, key=lambda k: len(staks[k]))
    staks[k].append(c)
    st.vis[c] = UP
    st.counts[1] += 1
    if not st.quiet:
        events.append(
            mark(st, {"type": "played", "card": g.names[c], "id": c, "power": printed(st, c)}, k)
        )
    if g.bot[c] in g.entry:
        st.pending.append(c)
    run(st, events)  # its chain's end resumes the turn (after_chain)


@cython.locals(st=StakBotsState)
def drone_step(st: StakBotsState, events: list) -> None:
    """SB-11.14: the Drone's next attack (its Stomp Bot's forced one first), or the end of
    its turn once every Drone stak has attacked. A choice the player must make on the way
    (an entry effect, a reaction) pauses the turn; the chain's end resumes it."""
    g = st.game
    if st.stomp >= 0:
        attack(st, st.stomp_from, st.stomp, events)
        run(st, events)
        return
    own = g.staks_of[g.num_players]
    while st.drone_next < len(own):
        k = own[st.drone_next]
        st.drone_next += 1
        if not st.staks[k]:
            continue
        t = drone.weakest_top(st)
        top = st.staks[k][-1]
        if t < 0 or power(st, top) == 0 and power(st, st.staks[t][-1]) == 0:
            continue  # SB-4.5
        if declare(st, k, t, events):
            return
        attack(st, k, t, events)
        run(st, events)
        return
    end_turn(st, events)


@cython.locals(st=StakBotsState)
def declare(st: StakBotsState, src: int, t: int, events: list) -> bool:
    """SB-11.5: with reactive play, an attack on a seat holding cards waits for its reaction
    (True); otherwise the combat goes ahead (False)."""
    g = st.game
    defender = g.owner[t]
    if not g.reactive or defender >= g.num_players or not st.hands[defender]:
        return False
    top = st.staks[src][-1]
    dfn = st.staks[t][-1]
    if not st.quiet:
        event = {
            "type": "attack_declared",
            "seat": g.owner[src],
            "card": g.names[top],
            "power": power(st, top),
            "target": defender,
            "target_card": g.names[dfn],
            "target_power": power(st, dfn),
        }
        if g.several[src]:
            event["stak"] = g.local[src]
        if g.several[t]:
            event["target_stak"] = g.local[t]
        events.append(event)
    st.declared = t
    st.decision = (D_REACT, top, defender)
    return True


@cython.locals(st=StakBotsState)
def run(st: StakBotsState, events: list) -> None:
    """Resolve pending entry effects until a choice is needed or the chain is over (SB-6)."""
    while st.decision is None and st.result is None:
        if not st.pending:
            after_chain(st, events)
            return
        pending = st.pending
        c = pending.pop()
        k = top_stak(st, c)
        if k < 0:
            if not st.quiet:
                events.append(_lapsed(st, c, "not on top"))
            continue
        if st.n_effects >= MAX_TURN_EFFECTS:
            if not st.quiet:
                events.append(_lapsed(st, c, "turn limit"))
            continue
        st.n_effects += 1
        st.counts[3] += 1
        fire(st, c, k, events)
        settle(st, events)
        d = st.decision
        if d is not None and d[2] == st.game.num_players:  # SB-11.14: the Drone's fixed choice
            answer(st, drone.pick(st, choices(st, d)), events)
            settle(st, events)


@cython.locals(st=StakBotsState)
def _lapsed(st: StakBotsState, c: int, why: str) -> dict[str, Any]:
    """SB-6.5/6.8: a waiting entry effect is lost; `seat` is whose stak or hand the card is in
    now (absent when it has left both: it was face-up, so naming it tells nobody a secret)."""
    event: dict[str, Any] = {"type": "effect_lapsed", "card": st.game.names[c], "id": c}
    event["why"] = why
    k = stak_of(st, c)
    if k >= 0:
        mark(st, event, k)
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


@cython.locals(st=StakBotsState)
def attack(st: StakBotsState, src: int, target: int, events: list) -> None:
    """SB-5: one combat between stak `src`'s top card (the active seat's) and stak `target`'s."""
    g = st.game
    sa = st.staks[src]
    sd = st.staks[target]
    att = sa[-1]
    dfn = sd[-1]
    again = st.attacker[src] == att
    st.attacker[src] = att
    pa = power(st, att)
    pd = power(st, dfn)
    forced = st.stomp == target and st.stomp_from == src
    if not st.quiet:
        event = {
            "type": "attack",
            "seat": g.owner[src],
            "card": g.names[att],
            "id": att,
            "target": g.owner[target],
            "target_card": g.names[dfn],
            "target_id": dfn,
            "power": pa,
            "target_power": pd,
            "forced": forced,
            "again": again,
        }
        if g.several[src]:
            event["stak"] = g.local[src]
        if g.several[target]:
            event["target_stak"] = g.local[target]
        events.append(event)
    st.counts[0] += 1
    if not forced:
        st.n_attacks += 1  # SB-11.7: a Stomp Bot's forced attacks belong to the one it began
    doomed: set[int] = set()
    if pa > 0:
        add_damage(st, dfn, pa)
        damage_ability(st, att, src, dfn, target, doomed, events)
    if pd > 0:
        add_damage(st, att, pd)
        damage_ability(st, dfn, target, att, src, doomed, events)
    dmg = st.dmg
    # The damage each card holds now, this combat's included (for the words, SB-5.2).
    if not st.quiet:
        event["damage"] = dmg[att]
        event["target_damage"] = dmg[dfn]
    for c in (att, dfn):
        if dmg[c] and dmg[c] >= power(st, c):
            doomed.add(c)
    # SB-5.4: everything doomed by this combat goes at once (attacker's stak first, top down).
    if doomed:
        for s in (src, target):
            stak = st.staks[s]
            victims = [c for c in doomed if c in stak]
            if len(victims) > 1:
                victims.sort(key=stak.index, reverse=True)
            for c in victims:
                scrap_from_stak(st, s, c, events, "combat")
    settle(st, events)
    if g.bot[att] == BOT_STOMP:
        st.stomp = target
        st.stomp_from = src
    else:
        st.stomp = -1


# -- legal actions ----------------------------------------------------------------------------
@cython.locals(st=StakBotsState)
def legal_actions(st: StakBotsState) -> list:
    d = st.decision
    if d is not None:
        return choices(st, d)
    g = st.game
    a = st.active
    if st.stomp >= 0:
        return [g.attack_ab[g.local[st.stomp_from]][st.stomp]]  # SB-5.6: the forced attack
    hand = st.hands[a]
    staks = st.staks
    own = g.staks_of[a]
    if g.multi:
        own = [k for k in own if staks[k]]  # SB-11.12: an emptied stak is out of play
    limit = g.hand_limit
    can_end = st.fed and (limit < 0 or len(hand) <= limit)  # SB-3.3, SB-11.8
    if st.n_actions >= MAX_TURN_ACTIONS:
        if can_end:
            return [g.end_a]
        out = []
        if not st.fed:
            out += [g.scrap_top_a[staks[k][-1]] for k in own]
        seen = 0
        for c in hand:
            bit = 1 << g.defkey[c]
            if not seen & bit:
                seen |= bit
                if limit < 0 and not st.fed:
                    out.append(g.scrap_hand_a[c])
                elif limit >= 0 and len(hand) > limit:
                    out += [g.plays_for[a][t][c] for t in play_staks(st, a)]
        return out
    # One pass over the hand: plays first, then scraps (interchangeable copies appear once).
    out = []
    if g.multi:
        scraps = [g.scrap_top_a[staks[k][-1]] for k in own]
    else:
        scraps = [g.scrap_top_a[staks[a][-1]]]
    if hand:
        defkey = g.defkey
        play_a = g.play_a
        scrap_hand_a = g.scrap_hand_a
        onto = None
        if g.play_anywhere:
            onto = play_staks(st, a)
            plays = g.plays_for[a]
        recycle = g.recycle_a if g.recycling else None
        seen = 0
        for c in hand:
            bit = 1 << defkey[c]
            if not seen & bit:
                seen |= bit
                if onto is None:
                    out.append(play_a[c])
                else:
                    out += [plays[t][c] for t in onto]
                if limit < 0:
                    scraps.append(scrap_hand_a[c])
                if recycle:
                    scraps += [recycle[g.local[k]][c] for k in own]
    out += scraps
    tally = g.tally
    if tally and st.n_attacks >= tally:
        own = ()  # SB-11.7: the turn's attacks are spent
    targets = g.targets[a]
    attacker = st.attacker
    for k in own:
        top = staks[k][-1]
        used = attacker[k]
        if not tally and used >= 0 and (used != top or st.stopped[k]):
            continue  # SB-4.3/4.4: this stak's one attacking card is another or was stopped
        p_top = -1
        attacks = g.attack_ab[g.local[k]]
        for t in targets:
            ts = staks[t]
            if not ts:
                continue
            if p_top < 0:
                p_top = power(st, top)
            if p_top == 0 and power(st, ts[-1]) == 0:
                continue  # SB-4.5: an attack that deals no damage at all is not offered
            out.append(attacks[t])
    if can_end:
        out.append(g.end_a)
    return out


@cython.locals(st=StakBotsState)
def play_staks(st: StakBotsState, a: int) -> list[int]:
    """The staks `a` may play onto: own (in play), then with borderless play (SB-11.6) others'
    or teammates' in turn order; in the traitor variation (SB-11.8) only opponents'."""
    g = st.game
    team = g.team
    owner = g.owner
    mode = g.options["borderless"]
    traitor = g.hand_limit >= 0
    out = []
    for k in g.stak_order[a]:
        if not st.staks[k]:
            continue
        s = owner[k]
        if traitor:
            if team[s] != team[a]:
                out.append(k)
        elif s == a or mode == "on" or mode == "team" and team[s] == team[a]:
            out.append(k)
    return out


# -- apply ------------------------------------------------------------------------------------
@cython.locals(st=StakBotsState)
def apply_action(st: StakBotsState, action: Any) -> list:
    events: list = []
    g = st.game
    cls = type(action)
    a = st.active
    if cls is Play:
        c = action.card
        k = g.staks_of[a if action.seat < 0 else action.seat][action.stak]
        st.n_actions += 1
        play_card(st, a, k, c, False, events)
        run(st, events)
    elif cls is Recycle:
        st.n_actions += 1
        k = g.staks_of[a][action.stak]
        if not st.quiet:
            events.append(mark(st, {"type": "recycled"}, k))  # SB-11.4
        scrap_from_stak(st, k, st.staks[k][-1], events, "recycled")
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
            scrap_from_stak(st, stak_of(st, c) if g.multi else a, c, events, "scrap")
            settle(st, events)
        run(st, events)
    elif cls is Attack:
        st.n_actions += 1
        src = g.staks_of[a][action.own_stak]
        t = g.staks_of[action.target][action.target_stak]
        if not declare(st, src, t, events):
            attack(st, src, t, events)
            run(st, events)
    elif cls is EndTurn:
        end_turn(st, events)
    else:
        answer(st, action, events)
        settle(st, events)
        run(st, events)
    return events


@cython.locals(st=StakBotsState)
def answer(st: StakBotsState, action: Any, events: list) -> None:
    """Apply the answer to the pending decision (an effect's choice, a discard, a reaction)."""
    g = st.game
    cls = type(action)
    kind, c, chooser = st.decision  # type: ignore[misc]
    st.decision = None
    if cls is Target:
        k = g.staks_of[action.seat][action.stak]
        resolve_target(st, c, chooser, k, action.depth, events)
    elif cls is ChoosePlayer:
        resolve_player(st, c, chooser, action.seat, events)
    elif cls is Discard:
        scrap_from_hand(st, chooser, action.card, events, "expelled")
    elif cls is React:
        play_card(st, chooser, st.declared, action.card, True, events)
        st.declared = -1
    elif cls is LetThrough:
        t = st.declared
        st.declared = -1
        attack(st, stak_of(st, c), t, events)


@cython.locals(st=StakBotsState)
def play_card(st: StakBotsState, seat: int, k: int, c: int, reaction: bool, events: list) -> None:
    """`seat` plays hand card `c` face-up onto stak k (SB-4.1, SB-11.5, SB-11.6); its entry
    effect waits to resolve, steered by that stak's owner (SB-6.7)."""
    g = st.game
    st.hands[seat].remove(c)
    st.staks[k].append(c)
    st.vis[c] = UP
    st.counts[1] += 1
    p = g.base_power[c]
    if not st.quiet:
        event = {
            "type": "played",
            "seat": seat,
            "card": g.names[c],
            "id": c,
            "power": p if p >= 0 else power(st, c),
        }
        if g.owner[k] != seat:
            event["onto"] = g.owner[k]
        if g.several[k]:
            event["stak"] = g.local[k]
        if reaction:
            event["reaction"] = True
        events.append(event)
    if g.bot[c] in g.entry:
        st.pending.append(c)  # SB-6.1
