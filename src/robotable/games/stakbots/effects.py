"""Card abilities (SB-5.4, SB-5.6) and entry effects (SB-6, SB-8).

An entry effect that needs a choice does not resolve here at once: `fire` sets the state's
`decision` (kind, card, chooser) and the chooser, the owner of the stak the card sits on (SB-6.7),
answers with a Target / ChoosePlayer / Discard action, which `resolve_*` applies.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import rules as R
from .actions import Target
from .content import Bot

if TYPE_CHECKING:
    from .state import StakBotsState

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


def damage_ability(
    st: StakBotsState, src: int, src_seat: int, hit: int, hit_seat: int, doomed: set, events: list
) -> None:
    """SB-5.4: the `*` ability of a card that just dealt damage to `hit` (attacking or not)."""
    bot = st.game.bot[src]
    if bot == Bot.FATAL:
        doomed.add(hit)  # SB-8.8
        victim = hit
    elif bot == Bot.SPIKE:
        stak = st.staks[hit_seat]  # SB-8.4: the card directly beneath the damaged one
        i = stak.index(hit)
        if i == 0:
            return
        victim = stak[i - 1]
        doomed.add(victim)
    elif bot == Bot.BASH:
        victim = st.staks[hit_seat][0]  # SB-8.3: the bottom card, the damaged one if alone
        doomed.add(victim)
    else:
        return
    names = st.game.names
    events.append(
        {
            "type": "ability",
            "seat": src_seat,
            "card": names[src],
            "ability": bot.name.lower(),
            "target_seat": hit_seat,
            "target_card": names[victim],
            "hit_card": names[hit],
        }
    )


def fire(st: StakBotsState, c: int, owner: int, events: list) -> None:
    """Resolve the entry effect of `c`, the face-up top card of `owner`'s stak (SB-8)."""
    g = st.game
    bot = g.bot[c]
    name = g.names[c]
    events.append(
        {"type": "entry_effect", "seat": owner, "card": name, "id": c, "bot": TITLES[bot]}
    )
    if bot == Bot.CLUMSY:  # SB-8.5
        R.scrap_from_stak(st, owner, st.staks[owner][0], events, "Clumsy Bot")
    elif bot == Bot.SIDEKICK:  # SB-8.9
        stak = st.staks[owner]
        if len(stak) >= 2:
            stak[-1], stak[-2] = stak[-2], stak[-1]
            event = {"type": "moved", "seat": owner, "card": name, "position": "second from top"}
            R.uncovered(st, owner, event)
            events.append(event)
    elif bot == Bot.BOUNTIFUL:  # SB-8.11
        R.draw(st, owner, events)
    elif bot in TOP_CHOICE:
        if TOP_CHOICE[bot] or any(s and s[-1] != c for s in st.staks):
            st.decision = (R.D_TOP, c, owner)
        else:
            events.append(_fizzled(owner, name, bot, "no_target"))
    elif bot == Bot.TRANQ:  # SB-8.13
        vis = st.vis
        if any(x != c and vis[x] == R.UP for s in st.staks for x in s):
            st.decision = (R.D_FACEUP, c, owner)
        else:
            events.append(_fizzled(owner, name, bot, "no_target"))
    elif bot == Bot.EXPEL:  # SB-8.12
        st.decision = (R.D_PLAYER, c, owner)


def _fizzled(owner: int, name: str, bot: Bot, why: str) -> dict:
    return {"type": "effect_fizzled", "seat": owner, "card": name, "bot": TITLES[bot], "why": why}


def choices(st: StakBotsState, d: tuple[int, int, int]) -> list:
    """The legal answers to a pending decision, in seat order then from the top down."""
    kind, c, chooser = d
    g = st.game
    names = g.names
    out: list = []
    if kind == R.D_TOP:
        self_ok = TOP_CHOICE[g.bot[c]]
        for s, stak in enumerate(st.staks):
            if stak and (self_ok or stak[-1] != c):
                out.append(Target(s, 0, names[stak[-1]]))
    elif kind == R.D_FACEUP:
        vis = st.vis
        for s, stak in enumerate(st.staks):
            top = len(stak) - 1
            for i in range(top, -1, -1):
                x = stak[i]
                if x != c and vis[x] == R.UP:
                    out.append(Target(s, top - i, names[x]))
    elif kind == R.D_PLAYER:
        out = [g.player_a[s] for s in range(g.num_players) if st.alive[s]]
    else:
        seen = 0
        for x in st.hands[chooser]:
            bit = 1 << g.defkey[x]
            if not seen & bit:
                seen |= bit
                out.append(g.discard_a[x])
    return out


def resolve_target(
    st: StakBotsState, c: int, chooser: int, seat: int, depth: int, events: list
) -> None:
    g = st.game
    bot = g.bot[c]
    stak = st.staks[seat]
    x = stak[len(stak) - 1 - depth]
    if bot == Bot.TRANQ:  # SB-8.13
        R.reset(st, seat, x, events, chooser, c)
        return
    base = {
        "seat": chooser,
        "card": g.names[c],
        "target_seat": seat,
        "target_card": g.names[x],
        "target_power": R.power_now(st, x),
    }
    if bot == Bot.SHOT:  # SB-8.6
        R.add_damage(st, x, R.SHOT_DAMAGE)
        events.append({"type": "shot", **base, "damage": R.SHOT_DAMAGE, "target_damage": st.dmg[x]})
    elif bot == Bot.REAPER:  # SB-8.7
        events.append({"type": "reaped", **base})
        R.scrap_from_stak(st, seat, x, events, "Reaper Bot")
    elif bot == Bot.BEGONE:  # SB-8.14
        events.append({"type": "begone", **base})
        R.return_to_hand(st, seat, x, events)
    elif bot == Bot.TRIP:  # SB-8.15
        event = {"type": "tripped", **base, "alone": len(stak) < 2}
        if len(stak) >= 2:
            stak[-1], stak[-2] = stak[-2], stak[-1]
            R.uncovered(st, seat, event)
        events.append(event)
    elif bot == Bot.PIT:  # SB-8.16
        event = {"type": "pitted", **base, "alone": len(stak) < 2}
        if len(stak) >= 2:
            stak.insert(0, stak.pop())
            R.uncovered(st, seat, event)
        events.append(event)


def resolve_player(st: StakBotsState, c: int, chooser: int, seat: int, events: list) -> None:
    """SB-8.12: the chosen player discards a card of their choice, if they hold any."""
    g = st.game
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
        st.decision = (R.D_DISCARD, c, seat)
    else:
        event = _fizzled(chooser, g.names[c], Bot.EXPEL, "empty_hand")
        event["target_seat"] = seat
        events.append(event)


def describe(st: StakBotsState, d: tuple[int, int, int]) -> str:
    """Why the deciding seat decides (the prompt), from public information only; seats are
    "Seat 1", "Seat 2"... as the narration names them when nobody gave names."""
    kind, c, chooser = d
    name = st.game.names[c]
    bot = st.game.bot[c]
    if kind == R.D_TOP:
        what = {
            Bot.SHOT: "choose a top card to take 4 damage",
            Bot.REAPER: "choose another top card to scrap",
            Bot.BEGONE: "choose another top card to return to its owner's hand",
            Bot.TRIP: "choose a top card to drop one place",
            Bot.PIT: "choose a top card to move to the bottom of its stak",
        }[bot]
    elif kind == R.D_FACEUP:
        what = "choose another face-up card to reset (turn face-down)"
    elif kind == R.D_PLAYER:
        what = "choose a player who must discard a hand card"
    else:
        owner = R.top_owner(st, c)
        by = f"Seat {owner + 1}'s " if owner >= 0 else ""
        return f"Seat {chooser + 1}: {by}{name} expelled you: discard a card from your hand"
    return f"Seat {chooser + 1}: your {name} entered: {what}"
