"""Atomic moves on the board (scrap, return, reset, damage, draw) and the card abilities
(SB-5.4, SB-5.6) and entry effects (SB-6, SB-8) made of them.

The moves live here, not in rules.py, because both the effects and the turn flow need them:
rules.py imports this file and never the other way round.

An entry effect that needs a choice does not resolve here at once: `fire` sets the state's
`decision` (kind, card, chooser) and the chooser, the owner of the stak the card sits on (SB-6.7),
answers with a Target / ChoosePlayer / Discard action, which `resolve_*` applies.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import LET_THROUGH, Target
from .board import mark, power, power_now, printed, top_stak
from .content import (
    BOT_BASH,
    BOT_BEGONE,
    BOT_BOUNTIFUL,
    BOT_CLUMSY,
    BOT_EXPEL,
    BOT_FATAL,
    BOT_PIT,
    BOT_REAPER,
    BOT_SHOT,
    BOT_SIDEKICK,
    BOT_SPIKE,
    BOT_TRANQ,
    BOT_TRIP,
    Bot,
)
from .state import D_DISCARD, D_FACEUP, D_PLAYER, D_REACT, D_TOP, HIDDEN, KNOWN, UP, StakBotsState

try:
    import cython
except ImportError:  # no Cython: its declarations do nothing
    from robotable.core import cython_shim as cython

if TYPE_CHECKING:
    from robotable.core.rng import GameRng


ENTRY = frozenset(
    {
        Bot.CLUMSY,
        Bot.SHOT,
        Bot.REAPER,
        Bot.SIDEKICK,
        Bot.BOUNTIFUL,
        Bot.EXPEL,
        Bot.TRANQ,
        Bot.BEGONE,
        Bot.TRIP,
        Bot.PIT,
    }
)
TITLES = tuple(b.title for b in Bot)  # "Shot" for Bot.SHOT, read without the enum's lookups
# Top-card choices; True when the card itself may be chosen ("a top card" vs "another", SB-6.9).
TOP_CHOICE = {Bot.SHOT: True, Bot.TRIP: True, Bot.PIT: True, Bot.REAPER: False, Bot.BEGONE: False}
SHOT_DAMAGE = 4  # SB-8.6


# -- atomic moves -----------------------------------------------------------------------------
@cython.locals(
    bits=cython.ulonglong,
    left=cython.int,
    i=cython.Py_ssize_t,
    n=cython.Py_ssize_t,
    limit=cython.Py_ssize_t,
    x=cython.Py_ssize_t,
    j=cython.Py_ssize_t,
)
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


@cython.locals(st=StakBotsState)
def _to_heap(st: StakBotsState, c: int) -> None:
    st.vis[c] = UP
    if st.dmg[c]:
        st.dmg[c] = 0
        st.damaged.remove(c)
    st.scrapheap.append(c)
    st.fed = True  # SB-3.3: any route to the scrapheap feeds it
    st.counts[2] += 1
    if c in st.attacker:  # SB-4.4 (inline test: this runs for every scrapped card)
        stopped(st, c)


@cython.locals(st=StakBotsState)
def stopped(st: StakBotsState, c: int) -> None:
    """SB-4.4: an attacking card turned face-down, returned or scrapped stops attacking."""
    if c in st.attacker:
        st.stopped[st.attacker.index(c)] = True


@cython.locals(st=StakBotsState)
def uncovered(st: StakBotsState, s: int, event: dict) -> None:
    """Name the card now on top of stak `s` in `event` when it was already face-up (a
    face-down one is named by its `flipped` event), for the words (narration.py)."""
    stak = st.staks[s]
    if stak and st.vis[stak[-1]] == UP:
        top = stak[-1]
        event["top_card"] = st.game.names[top]
        p = st.game.base_power[top]
        event["top_power"] = p if p >= 0 else power(st, top)


@cython.locals(st=StakBotsState)
def scrap_from_stak(st: StakBotsState, s: int, c: int, events: list, reason: str) -> None:
    stak = st.staks[s]
    vis = st.vis
    g = st.game
    if not st.quiet:
        was_hidden = vis[c] != UP
        p = g.base_power[c]
        if p < 0:  # a Leader Bot: its live X while face-up in the stak (SB-8.10)
            p = "X" if was_hidden else power(st, c)
        event = {
            "type": "scrapped",
            "seat": g.owner[s],
            "card": g.names[c],
            "id": c,
            "power": p,
            "from": "stak_face_down" if was_hidden else "stak",
            "reason": reason,
        }
        if g.several[s]:
            event["stak"] = g.local[s]
    if stak[-1] == c:
        stak.pop()
        if not st.quiet:
            top = stak[-1] if stak else -1  # (an assignment expression: Cython 3.3 refuses it)
            if top >= 0 and vis[top] == UP:  # an already face-up card is on top now
                event["top_card"] = g.names[top]
                p = g.base_power[top]
                event["top_power"] = p if p >= 0 else power(st, top)
    else:
        stak.remove(c)
    _to_heap(st, c)
    if not st.quiet:
        events.append(event)


@cython.locals(st=StakBotsState)
def scrap_from_hand(st: StakBotsState, s: int, c: int, events: list, reason: str) -> None:
    st.hands[s].remove(c)
    _to_heap(st, c)
    if not st.quiet:
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


@cython.locals(st=StakBotsState)
def add_damage(st: StakBotsState, c: int, amount: int) -> None:
    if amount <= 0:
        return
    if not st.dmg[c]:
        st.damaged.append(c)
    st.dmg[c] += amount


@cython.locals(st=StakBotsState)
def return_to_hand(st: StakBotsState, s: int, c: int, events: list) -> None:
    """SB-8.14: the card goes to the hand of its stak's owner; everybody saw which card."""
    st.staks[s].remove(c)
    st.hands[st.game.owner[s]].append(c)
    st.vis[c] = KNOWN
    if st.dmg[c]:
        st.dmg[c] = 0
        st.damaged.remove(c)
    stopped(st, c)
    if not st.quiet:
        event = mark(st, {"type": "returned", "card": st.game.names[c], "id": c}, s)
        event["power"] = printed(st, c)
        uncovered(st, s, event)
        events.append(event)


@cython.locals(st=StakBotsState)
def reset(st: StakBotsState, s: int, c: int, events: list, by_seat: int = -1, by: int = -1) -> None:
    """SB-8.13: turned face-down, damage cleared; a waiting effect of it lapses (SB-6.5).
    `by_seat`'s card `by` (the Tranq Bot) did it."""
    if not st.quiet:  # (what the card was, before it is turned)
        event = mark(st, {"type": "reset", "card": st.game.names[c], "id": c}, s)
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
    stopped(st, c)
    if c in st.pending:
        st.pending = [p for p in st.pending if p != c]
    if not st.quiet:
        events.append(event)


@cython.locals(st=StakBotsState)
def take_top(st: StakBotsState, seat: int, events: list) -> int:
    """SB-3.1: the supply's top card, taken (an empty supply is the reshuffled scrapheap);
    -1 when both are empty."""
    if not st.supply:
        if not st.scrapheap:
            if not st.quiet:
                events.append({"type": "draw_skipped", "seat": seat})
            return -1
        st.supply = st.scrapheap
        st.scrapheap = []
        vis = st.vis
        for c in st.supply:
            vis[c] = HIDDEN
        shuffle(st.rng, st.supply)
        st.counts[4] += 1
        if not st.quiet:
            events.append({"type": "reshuffled", "cards": len(st.supply)})
    return st.supply.pop()


@cython.locals(st=StakBotsState)
def draw(st: StakBotsState, seat: int, events: list) -> None:
    """SB-3.1: draw the supply's top card into `seat`'s hand."""
    c = take_top(st, seat, events)
    if c < 0:
        return
    st.hands[seat].append(c)
    if not st.quiet:
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
    if not st.quiet:
        events.append({"type": "drew", "seat": seat, "hand_size": len(st.hands[seat])})


# -- card abilities and entry effects ---------------------------------------------------------


@cython.locals(st=StakBotsState)
def damage_ability(
    st: StakBotsState, src: int, src_seat: int, hit: int, hit_seat: int, doomed: set, events: list
) -> None:
    """SB-5.4: the `*` ability of a card that just dealt damage to `hit` (attacking or not);
    `src_seat` and `hit_seat` are the staks the two cards sit on."""
    bot = st.game.bot[src]
    if bot == BOT_FATAL:
        doomed.add(hit)  # SB-8.8
        victim = hit
    elif bot == BOT_SPIKE:
        stak = st.staks[hit_seat]  # SB-8.4: the card directly beneath the damaged one
        i = stak.index(hit)
        if i == 0:
            return
        victim = stak[i - 1]
        doomed.add(victim)
    elif bot == BOT_BASH:
        victim = st.staks[hit_seat][0]  # SB-8.3: the bottom card, the damaged one if alone
        doomed.add(victim)
    else:
        return
    if not st.quiet:
        names = st.game.names
        event = {
            "type": "ability",
            "card": names[src],
            "ability": bot.name.lower(),
            "target_card": names[victim],
            "hit_card": names[hit],
        }
        mark(st, event, src_seat)
        events.append(mark(st, event, hit_seat, "target_seat"))


# fire's target tests, apart: a generator is a closure, which a cpdef cannot hold.
@cython.locals(st=StakBotsState)
def _other_top(st: StakBotsState, c: int) -> bool:
    """A stak whose top card is not `c`."""
    return any(s and s[-1] != c for s in st.staks)


@cython.locals(st=StakBotsState)
def _other_face_up(st: StakBotsState, c: int) -> bool:
    """A face-up card other than `c` in any stak."""
    vis = st.vis
    return any(x != c and vis[x] == UP for s in st.staks for x in s)


@cython.locals(st=StakBotsState)
def fire(st: StakBotsState, c: int, k: int, events: list) -> None:
    """Resolve the entry effect of `c`, the face-up top card of stak k (SB-8); its choices are
    its owner's (SB-6.7)."""
    g = st.game
    bot = g.bot[c]
    name = g.names[c]
    owner = g.owner[k]
    if not st.quiet:
        event = {"type": "entry_effect", "seat": owner, "card": name, "id": c, "bot": TITLES[bot]}
        if g.several[k]:
            event["stak"] = g.local[k]
        events.append(event)
    if bot == BOT_CLUMSY:  # SB-8.5
        scrap_from_stak(st, k, st.staks[k][0], events, "Clumsy Bot")
    elif bot == BOT_SIDEKICK:  # SB-8.9
        stak = st.staks[k]
        if len(stak) >= 2:
            stak[-1], stak[-2] = stak[-2], stak[-1]
            if not st.quiet:
                event = mark(st, {"type": "moved", "card": name, "position": "second from top"}, k)
                uncovered(st, k, event)
                events.append(event)
    elif bot == BOT_BOUNTIFUL:  # SB-8.11
        if owner < g.num_players:
            draw(st, owner, events)
        else:  # SB-11.14: the Drone holds no hand
            if not st.quiet:
                events.append(_fizzled(owner, name, bot, "no_hand"))
    elif bot in TOP_CHOICE:
        if TOP_CHOICE[bot] or _other_top(st, c):
            st.decision = (D_TOP, c, owner)
        else:
            if not st.quiet:
                events.append(_fizzled(owner, name, bot, "no_target"))
    elif bot == BOT_TRANQ:  # SB-8.13
        if _other_face_up(st, c):
            st.decision = (D_FACEUP, c, owner)
        else:
            if not st.quiet:
                events.append(_fizzled(owner, name, bot, "no_target"))
    elif bot == BOT_EXPEL:  # SB-8.12
        st.decision = (D_PLAYER, c, owner)


def _fizzled(owner: int, name: str, bot: Bot, why: str) -> dict:
    return {"type": "effect_fizzled", "seat": owner, "card": name, "bot": TITLES[bot], "why": why}


@cython.locals(st=StakBotsState)
def choices(st: StakBotsState, d: tuple[int, int, int]) -> list:
    """The legal answers to a pending decision, in seat order then from the top down."""
    kind, c, chooser = d
    g = st.game
    names = g.names
    out: list = []
    owner = g.owner
    local = g.local
    if kind == D_TOP:
        top_targets = g.top_target_a
        self_ok = TOP_CHOICE[g.bot[c]]
        for s, stak in enumerate(st.staks):
            if stak and (self_ok or stak[-1] != c):
                out.append(top_targets[s][stak[-1]])
    elif kind == D_FACEUP:
        vis = st.vis
        for s, stak in enumerate(st.staks):
            top = len(stak) - 1
            for i in range(top, -1, -1):
                x = stak[i]
                if x != c and vis[x] == UP:
                    out.append(Target(owner[s], top - i, names[x], local[s]))
    elif kind == D_PLAYER:
        out = [g.player_a[s] for s in range(g.num_players) if st.alive[s]]
    elif kind == D_REACT:  # SB-11.5: a hand card onto the attacked stak, or no reaction
        out = [g.react_a[x] for x in distinct(st, st.hands[chooser])]
        out.append(LET_THROUGH)
    else:
        out = [g.discard_a[x] for x in distinct(st, st.hands[chooser])]
    return out


@cython.locals(st=StakBotsState)
def distinct(st: StakBotsState, hand: list[int]) -> list[int]:
    """The hand's cards with interchangeable copies (same name, power, rank) given once."""
    defkey = st.game.defkey
    out = []
    seen = 0
    for x in hand:
        bit = 1 << defkey[x]
        if not seen & bit:
            seen |= bit
            out.append(x)
    return out


@cython.locals(st=StakBotsState)
def resolve_target(
    st: StakBotsState, c: int, chooser: int, k: int, depth: int, events: list
) -> None:
    """Apply `chooser`'s choice for `c`'s effect: the card `depth` below the top of stak k."""
    g = st.game
    bot = g.bot[c]
    stak = st.staks[k]
    x = stak[len(stak) - 1 - depth]
    if bot == BOT_TRANQ:  # SB-8.13
        reset(st, k, x, events, chooser, c)
        return
    if not st.quiet:  # (the target as it was)
        base = {
            "seat": chooser,
            "card": g.names[c],
            "target_card": g.names[x],
            "target_power": power_now(st, x),
        }
        mark(st, base, k, "target_seat")
    if bot == BOT_SHOT:  # SB-8.6
        add_damage(st, x, SHOT_DAMAGE)
        if not st.quiet:
            events.append(
                {"type": "shot", **base, "damage": SHOT_DAMAGE, "target_damage": st.dmg[x]}
            )
    elif bot == BOT_REAPER:  # SB-8.7
        if not st.quiet:
            events.append({"type": "reaped", **base})
        scrap_from_stak(st, k, x, events, "Reaper Bot")
    elif bot == BOT_BEGONE:  # SB-8.14
        if not st.quiet:
            events.append({"type": "begone", **base})
        if g.owner[k] < g.num_players:
            return_to_hand(st, k, x, events)
        else:  # SB-11.14: the Drone holds no hand, so its card is scrapped
            scrap_from_stak(st, k, x, events, "Begone Bot")
    elif bot == BOT_TRIP:  # SB-8.15
        if len(stak) >= 2:
            stak[-1], stak[-2] = stak[-2], stak[-1]
        if not st.quiet:  # (the stak's length is the same after the move)
            event = {"type": "tripped", **base, "alone": len(stak) < 2}
            if len(stak) >= 2:
                uncovered(st, k, event)
            events.append(event)
    elif bot == BOT_PIT:  # SB-8.16
        if len(stak) >= 2:
            stak.insert(0, stak.pop())
        if not st.quiet:
            event = {"type": "pitted", **base, "alone": len(stak) < 2}
            if len(stak) >= 2:
                uncovered(st, k, event)
            events.append(event)


@cython.locals(st=StakBotsState)
def resolve_player(st: StakBotsState, c: int, chooser: int, seat: int, events: list) -> None:
    """SB-8.12: the chosen player discards a card of their choice, if they hold any."""
    g = st.game
    if not st.quiet:
        events.append(
            {
                "type": "expel",
                "seat": chooser,
                "card": g.names[c],
                "target_seat": seat,
                "hand_size": len(st.hands[seat]),
            }
        )
    if st.hands[seat]:
        st.decision = (D_DISCARD, c, seat)
    else:
        if not st.quiet:
            event = _fizzled(chooser, g.names[c], BOT_EXPEL, "empty_hand")
            event["target_seat"] = seat
            events.append(event)


@cython.locals(st=StakBotsState)
def describe(st: StakBotsState, d: tuple[int, int, int]) -> str:
    """Why the deciding seat decides (the prompt), from public information only; seats are
    "Seat 1", "Seat 2"... as the narration names them when nobody gave names."""
    kind, c, chooser = d
    name = st.game.names[c]
    bot = st.game.bot[c]
    if kind == D_TOP:
        what = {
            BOT_SHOT: "choose a top card to take 4 damage",
            BOT_REAPER: "choose another top card to scrap",
            BOT_BEGONE: "choose another top card to return to its owner's hand",
            BOT_TRIP: "choose a top card to drop one place",
            BOT_PIT: "choose a top card to move to the bottom of its stak",
        }[bot]
    elif kind == D_FACEUP:
        what = "choose another face-up card to reset (turn face-down)"
    elif kind == D_PLAYER:
        what = "choose a player who must discard a hand card"
    elif kind == D_REACT:
        return (
            f"Seat {chooser + 1}: {seat_s(st, st.active)} {name} attacks your stak: play a card "
            f"onto it to cancel the attack, or let the attack through"
        )
    else:
        k = top_stak(st, c)
        by = f"{seat_s(st, st.game.owner[k])} " if k >= 0 else ""
        return f"Seat {chooser + 1}: {by}{name} expelled you: discard a card from your hand"
    return f"Seat {chooser + 1}: your {name} entered: {what}"


@cython.locals(st=StakBotsState)
def seat_s(st: StakBotsState, seat: int) -> str:
    """ "Seat 2's", or "the Drone's" for Drone Mode's automated side (SB-11.14)."""
    return "the Drone's" if seat == st.game.num_players else f"Seat {seat + 1}'s"
