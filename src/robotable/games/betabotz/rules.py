"""The Betabotz forward model: setup, legal actions, apply, the flow between phases (BZ-2..9).

No I/O here. Every public decision is an Action; multi-step decisions (bid amount, Code card
targets, team proposals, discards, breach choices) are pending entries on `state.pending`.
Code card effects, Limit Breaches and mission resolution are in effects.py (which this module
calls, never the reverse); what seats see and read is in view.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from robotable.core.rng import GameRng

try:
    import cython
except ImportError:  # no Cython: its declarations do nothing
    from robotable.core import cython_shim as cython

from . import effects as fx
from .actions import (
    Accept,
    Bid,
    ChooseAttribute,
    ChooseLot,
    ChooseSeat,
    DiscardCode,
    DiscardComponent,
    DrawCode,
    FinishInvites,
    Invite,
    Pass,
    PlayCode,
    ProposeTeam,
    Reject,
    SetShare,
    TakeBreach,
)
from .content import ATTRS, GROUNDS, CodeOp, Target
from .state import (
    COMPONENT_LIMIT,
    MAX_BID,
    MISSIONS,
    PK_BID,
    PK_BREACH,
    PK_CODE_ATTR,
    PK_CODE_SEAT,
    PK_DISCARD_CODE,
    PK_DISCARD_COMP,
    PK_TEAM_ANSWER,
    PK_TEAM_INVITE,
    PK_TEAM_SHARE,
    ST_AUCTION,
    ST_AUCTION_BREACH,
    ST_MISSION,
    ST_MISSION_BREACH,
    ST_OVER,
    BetabotzState,
    BetabotzTables,
)

if TYPE_CHECKING:
    from . import BetabotzGame

Events = list[dict]

# Mission decks by seat count, in play order Comptown, Rustland, Chiptropolis (BZ-2.1).
LAYOUT = {3: (5, 1, 4), 4: (4, 2, 4), 5: (3, 4, 3), 6: (3, 4, 3)}
START_BITZ = 40
START_CODES = 3

# Shared action objects: actions are immutable, so the hot path reuses them.
PASS = Pass()
DRAW = DrawCode()
PROPOSE = ProposeTeam()
FINISH = FinishInvites()
ACCEPT = Accept()
REJECT = Reject()
_BIDS: dict[int, Bid] = {}
_SHARES: dict[int, SetShare] = {}
# A lot or a Code card kind offered again is the same action: built once per slot and name, not
# at every auction or priority decision (a frozen dataclass's Python __init__ was some 6% of a
# six-seat random game's profile, compiled).
_LOTS: dict[tuple[int, str], ChooseLot] = {}
_CODES: dict[tuple[int, str], PlayCode] = {}
SEATS = tuple(ChooseSeat(i) for i in range(6))
INVITES = tuple(Invite(i) for i in range(6))
ATTR_CHOICES = tuple(ChooseAttribute(a) for a in range(4))
COARSE_STEPS = (0, 1, 2, 3, 5, 8, 12, 17, 23, 30)
EXACT_SPAN = 40  # "all" bids: every amount from the minimum up to +39 ...
MAX_BID_OPTIONS = 60  # ... then coarser steps up to the seat's Bitz, at most 60 amounts

# Code card kinds' operations and targets the rules test per decision, as C constants in the
# compiled engine (an IntEnum member is a class attribute lookup per use otherwise).
OP_MOD = cython.declare(cython.long, CodeOp.MOD)
OP_ROLL = cython.declare(cython.long, CodeOp.ROLL)
OP_CANCEL = cython.declare(cython.long, CodeOp.CANCEL)
TARGET_SELF = cython.declare(cython.long, Target.SELF)
TARGET_OTHER = cython.declare(cython.long, Target.OTHER)


@cython.locals(amount=cython.long)
def _bid(amount: int) -> Bid:
    b = _BIDS.get(amount)
    if b is None:
        b = _BIDS[amount] = Bid(amount)
    return b


@cython.locals(x=cython.long)
def _share(x: int) -> SetShare:
    a = _SHARES.get(x)
    if a is None:
        a = _SHARES[x] = SetShare(x)
    return a


@cython.locals(number=cython.long)
def _numbered(cache: dict, cls: type, number: int, name: str) -> Any:
    """`cls(number, name)`, built once (_LOTS' lots, _CODES' Code card kinds)."""
    key = (number, name)
    a = cache.get(key)
    if a is None:
        a = cache[key] = cls(number, name)
    return a


# -- setup -------------------------------------------------------------------------------------
def new_state(game: BetabotzGame, seed: int) -> BetabotzState:
    """BZ-2: missions by seat count, shuffled decks, 40 Bitz and 3 Code cards each, the chip."""
    s = BetabotzState(game)
    c = s.content
    n = s.n
    rng = s.rng = GameRng(seed)
    order: list[int] = []
    for g, k in enumerate(LAYOUT[n]):
        ids = list(c.missions_by_ground[g])
        rng.shuffle(ids)
        order.extend(ids[:k])
    s.mission_order = order
    s.bot_deck = list(range(len(c.betabots)))
    rng.shuffle(s.bot_deck)
    s.comp_deck = list(range(len(c.components)))
    rng.shuffle(s.comp_deck)
    s.code_deck = list(range(len(c.code_card_kind)))
    rng.shuffle(s.code_deck)
    s.code_discard = []
    s.comp_discard = []
    s.stage = ST_AUCTION
    s.phase = 0
    s.revealed = 0
    s.chip = rng.below(n)  # ruling BZ-2.4: the chip starts at a random seat
    s.bank = 0
    s.turn = 0
    s.bitz = [START_BITZ] * n
    s.bot = [-1] * n
    s.comps = [[] for _ in range(n)]
    s.damage = [[0, 0, 0, 0] for _ in range(n)]
    s.perm = [[0, 0, 0, 0] for _ in range(n)]
    s.temp = [[0, 0, 0, 0] for _ in range(n)]
    s.hand = [[s.code_deck.pop() for _ in range(START_CODES)] for _ in range(n)]
    s.holder = [-1] * len(c.breaches)
    s.lots = []
    s.lot_bid = []
    s.lot_bidder = []
    s.seat_lot = [-1] * n
    s.drew = [0] * n
    s.actor = s.chip
    s.turn_open = 0
    s.priority = s.chip
    s.streak = 0
    s.team_of = [-1] * n
    s.share = [0] * n
    s.shield = [0] * n
    s.bounty = [0] * n
    s.proposals_left = [0] * n
    s.code_log = []
    s.cip = []
    s.draft = []
    s.draft_share = 0
    s.pending = []
    s.final_bitz = []
    s.ground_tally = [0] * (2 * len(GROUNDS))
    _open_auction(s, 0, [])
    return s


# -- the auction (BZ-3, BZ-4) ------------------------------------------------------------------
@cython.locals(s=BetabotzState, phase=cython.long, n=cython.long, k=cython.long)
def _open_auction(s: BetabotzState, phase: int, events: Events) -> None:
    n = s.n
    s.stage = ST_AUCTION
    s.phase = phase
    if phase == 0:
        k = min(n, len(s.bot_deck))
        s.lots = [s.bot_deck.pop() for _ in range(k)]
        kind = "betabot"
        names = [s.content.betabots[b].name for b in s.lots]
    else:
        k = min(n - 1, len(s.comp_deck))  # ruling BZ-4.1: fewer when the deck runs short
        s.lots = [s.comp_deck.pop() for _ in range(k)]
        kind = "component"
        names = [s.content.components[x].name for x in s.lots]
    s.lot_bid = [0] * len(s.lots)
    s.lot_bidder = [-1] * len(s.lots)
    s.seat_lot = [-1] * n
    s.drew = [0] * n
    s.actor = s.chip
    s.turn_open = 0
    if not s.quiet:
        events.append(
            {
                "type": "auction_opened",
                "phase": phase,
                "kind": kind,
                "lots": names,
                "details": [_lot_details(s, card) for card in s.lots],
                "first": s.actor,
                "next_mission": s.revealed + 1,
            }
        )


def _lot_details(s: BetabotzState, card: int) -> dict[str, Any]:
    """What a lot is, for the words a front end shows (the card is public once revealed)."""
    c = s.content
    if s.phase == 0:
        bot = c.betabots[card]
        return {"min_bid": bot.min_bid, "attributes": dict(zip(ATTRS, bot.attrs))}
    comp = c.components[card]
    out: dict[str, Any] = {
        "min_bid": comp.min_bid,
        "mods": {ATTRS[a]: v for a, v in enumerate(comp.mods) if v},
    }
    if comp.gold:
        out["gold"] = True
    if comp.green:
        out["green"] = True
    if comp.acquire_cost:
        out["acquire_cost"] = comp.acquire_cost
    return out


@cython.locals(s=BetabotzState, slot=cython.long, seat=cython.long)
def lot_min(s: BetabotzState, slot: int, seat: int) -> int:
    """Smallest legal bid on a lot: its minimum bid, or one more than the active bid (BZ-3.4)."""
    if s.lot_bidder[slot] >= 0:
        return s.lot_bid[slot] + 1
    if s.phase == 0:
        # Ruling BZ-3.7: a seat that must bid but cannot afford a free Betabot bids all it has.
        return min(s.game.bot_min_bid[s.lots[slot]], s.bitz[seat])
    return s.game.comp_min_bid[s.lots[slot]]


@cython.locals(s=BetabotzState, slot=cython.long)
def lot_name(s: BetabotzState, slot: int) -> str:
    card = s.lots[slot]
    return (s.game.bot_name if s.phase == 0 else s.game.comp_name)[card]


@cython.locals(
    s=BetabotzState,
    seat=cython.long,
    slot=cython.long,
    lo=cython.long,
    hi=cython.long,
    step=cython.long,
    out=list,
)
def bid_amounts(s: BetabotzState, seat: int, slot: int) -> list[int]:
    """The amounts offered (BZ-3.5): exact near the minimum, coarser far above it."""
    lo = lot_min(s, slot, seat)
    hi = min(s.bitz[seat], MAX_BID)
    if lo > hi:
        return []
    if s.game.options["bid_amounts"] == "coarse":
        return [lo + d for d in COARSE_STEPS if lo + d <= hi]
    out = list(range(lo, min(hi, lo + EXACT_SPAN - 1) + 1))
    if hi > out[-1]:
        step = 5
        while True:
            start = (out[-1] // step + 1) * step
            extra = list(range(start, hi, step))
            if len(out) + len(extra) + 1 <= MAX_BID_OPTIONS:
                break
            step *= 2
        out.extend(extra)
        out.append(hi)  # all in
    return out


@cython.locals(s=BetabotzState, n=cython.long, i=cython.long, seat=cython.long)
def _next_actor(s: BetabotzState) -> bool:
    """Move to the next seat without an active bid that has not drawn; False when none."""
    n = s.n
    for i in range(1, n + 1):
        seat = (s.actor + i) % n
        if s.seat_lot[seat] < 0 and not s.drew[seat]:
            s.actor = seat
            return True
    return False


@cython.locals(
    s=BetabotzState,
    seat=cython.long,
    slot=cython.long,
    paid=cython.long,
    extra=cython.long,
    over=cython.long,
)
def _close_auction(s: BetabotzState, events: Events) -> None:
    """Winners pay the bank and take their lot; unbid components are discarded (BZ-3.6)."""
    c = s.content
    for seat in fx.chip_order(s):
        slot = s.seat_lot[seat]
        if slot < 0:
            continue
        card = s.lots[slot]
        paid = s.lot_bid[slot]
        s.bitz[seat] -= paid
        s.bank += paid
        # The event says what was won, the Bitz left and, for a component, the new values of
        # the attributes it changes (the narration's words).
        if s.phase == 0:
            s.bot[seat] = card
            bot = c.betabots[card]
            ev = {"type": "auction_won", "seat": seat, "card": bot.name, "paid": paid}
            if not s.quiet:
                events.append(ev)
            fx.perm_changed(s, seat, events)
            ev["kind"] = "betabot"
            ev["attributes"] = dict(zip(ATTRS, bot.attrs))
        else:
            comp = c.components[card]
            extra = min(comp.acquire_cost, s.bitz[seat])
            s.bitz[seat] -= extra
            s.bank += extra
            s.comps[seat].append(card)
            ev = {"type": "auction_won", "seat": seat, "card": comp.name, "paid": paid}
            if extra:
                ev["acquire_cost"] = extra
            if not s.quiet:
                events.append(ev)
            fx.perm_changed(s, seat, events)
            perm = s.perm[seat]
            ev["kind"] = "component"
            ev["mods"] = {ATTRS[a]: v for a, v in enumerate(comp.mods) if v}
            ev["now"] = {ATTRS[a]: perm[a] for a, v in enumerate(comp.mods) if v}
            if comp.gold:
                ev["gold"] = True
            if comp.green:
                ev["green"] = True
        ev["purse"] = s.bitz[seat]
    for slot, card in enumerate(s.lots):
        if s.lot_bidder[slot] < 0:
            s.comp_discard.append(card)
            if not s.quiet:
                events.append({"type": "component_unsold", "card": c.components[card].name})
    s.lots = []
    s.lot_bid = []
    s.lot_bidder = []
    # Over the component limit: choose a discard, the new one allowed (BZ-5.2).
    pushes = []
    for seat in fx.chip_order(s):
        over = component_count(s, seat) - COMPONENT_LIMIT
        for _ in range(over):
            pushes.append((PK_DISCARD_COMP, seat, 0))
    s.pending.extend(reversed(pushes))
    s.stage = ST_AUCTION_BREACH


@cython.locals(s=BetabotzState, seat=cython.long, green=list)
def component_count(s: BetabotzState, seat: int) -> int:
    """Components that count toward the limit (green ones do not, BZ-5.2)."""
    green = s.game.comp_green
    return sum([1 for c in s.comps[seat] if not green[c]])


# -- the mission phase (BZ-6..8) ---------------------------------------------------------------
@cython.locals(s=BetabotzState, n=cython.long, seat=cython.long)
def _open_mission(s: BetabotzState, events: Events) -> None:
    n = s.n
    c = s.content
    mission = c.missions[s.mission_order[s.revealed]]
    s.revealed += 1
    s.stage = ST_MISSION
    s.phase = 2
    s.temp = [[0, 0, 0, 0] for _ in range(n)]
    s.team_of = [-1] * n
    s.share = [0] * n
    s.shield = [0] * n
    s.bounty = [0] * n
    s.proposals_left = [s.game.options["proposals"]] * n
    s.code_log = []
    s.cip = []
    s.draft = []
    s.draft_share = 0
    s.priority = s.chip
    s.streak = 0
    s.turn_open = 0
    if not s.quiet:
        events.append(
            {
                "type": "mission_flipped",
                "number": s.revealed,
                "mission": mission.name,
                "ground": GROUNDS[mission.ground],
                "require": {ATTRS[a]: v for a, v in enumerate(mission.require) if v},
                "reward": mission.reward,
                "total": min(MISSIONS, len(s.mission_order)),
                "consequence": mission.consequence_text(),
                "first": s.priority,
            }
        )
    # Compiler-style breaches draw now, in chip order (BZ-5.6); the every-second-mission kind
    # on the second, fourth, sixth... mission flipped.
    effects = [fx.BreachEffect.DRAW_EACH_MISSION]
    if s.revealed % 2 == 0:
        effects.append(fx.BreachEffect.DRAW_EVERY_SECOND_MISSION)
    for seat in reversed(fx.chip_order(s)):
        k = sum([fx.has_breach_effect(s, seat, effect) for effect in effects])
        if k:
            fx.draw_codes(s, seat, k, events)
            # the draw's public event (the last one draw_codes adds) names the breaches behind it
            if not s.quiet:
                events[-1]["because"] = [
                    name for effect in effects for name in fx.breach_names(s, seat, effect)
                ]


def team_split(s: BetabotzState, members: list[int], keeps: int) -> dict[int, int]:
    """Each member's share of the open mission's reward when the proposer (the first member,
    `members` is the draft) keeps `keeps`: the rest equally, the remainder one Bitz each from
    the chip (BZ-6.5)."""
    reward = s.content.missions[s.mission_order[s.revealed - 1]].reward
    proposer = members[0]
    others = members[1:]  # the draft: the proposer, then the invitees
    each, extra = divmod(reward - keeps, len(others))
    out = {proposer: keeps}
    if not extra:
        for m in others:
            out[m] = each
        return out
    n, chip = s.n, s.chip
    for i, m in enumerate(sorted(others, key=lambda m: (m - chip) % n)):
        out[m] = each + 1 if i < extra else each
    return out


@cython.locals(s=BetabotzState, seat=cython.long, o=cython.long)
def _solo_others(s: BetabotzState, seat: int) -> list[int]:
    return [o for o in range(s.n) if o != seat and s.team_of[o] < 0]


def _form_team(s: BetabotzState, events: Events) -> None:
    """All invitees accepted: the team forms, locked for this mission, with its split (BZ-6.5)."""
    members = s.draft
    mission = s.content.missions[s.mission_order[s.revealed - 1]]
    proposer = members[0]
    for m, v in team_split(s, members, s.draft_share).items():
        s.share[m] = v
    for m in members:
        s.team_of[m] = proposer
    required = [a for a, v in enumerate(mission.require) if v]
    if not s.quiet:
        events.append(
            {
                "type": "team_formed",
                "seat": proposer,
                "members": sorted(members),
                "shares": {str(m): s.share[m] for m in sorted(members)},
                "mission": mission.name,
                "require": {ATTRS[a]: v for a, v in enumerate(mission.require) if v},
                "values": {
                    ATTRS[a]: sum(fx.mission_value(s, m, a) for m in members) for a in required
                },
            }
        )
    s.draft = []
    s.draft_share = 0


# -- legal actions -----------------------------------------------------------------------------
@cython.locals(
    s=BetabotzState,
    g=BetabotzTables,
    seat=cython.long,
    slot=cython.long,
    out=list,
    k=cython.long,
    op=cython.long,
)
def legal_actions(s: BetabotzState) -> list:
    if s.pending:
        return _pending_actions(s)
    if s.stage == ST_AUCTION:
        seat = s.actor
        out: list = []
        for slot in range(len(s.lots)):
            if s.lot_bidder[slot] != seat and lot_min(s, slot, seat) <= min(s.bitz[seat], MAX_BID):
                out.append(_numbered(_LOTS, ChooseLot, slot, lot_name(s, slot)))
        if s.phase == 1:
            out.append(DRAW)
        return out
    # mission priority
    seat = s.priority
    out = [PASS]
    g = s.game
    seen = set()
    for card in s.hand[seat]:
        k = g.code_kind[card]
        if k in seen:
            continue
        seen.add(k)
        op = g.kind_op[k]
        if op == OP_CANCEL and not s.code_log:
            continue  # nothing in force to undo
        out.append(_numbered(_CODES, PlayCode, k, g.kind_name[k]))
    if s.team_of[seat] < 0 and s.proposals_left[seat] > 0 and _solo_others(s, seat):
        out.append(PROPOSE)
    return out


@cython.locals(
    s=BetabotzState,
    g=BetabotzTables,
    kind=cython.long,
    seat=cython.long,
    x=cython.long,
    o=cython.long,
    v=cython.long,
    target=cython.long,
    reward=cython.long,
)
def _pending_actions(s: BetabotzState) -> list:
    kind, seat, x = s.pending[-1]
    g = s.game
    if kind == PK_BID:
        return [_bid(a) for a in bid_amounts(s, seat, x)]
    if kind == PK_DISCARD_COMP:
        comps = s.comps[seat]
        if x == 0:  # over the limit: only components that count toward it
            comps = [cid for cid in comps if not g.comp_green[cid]]
        return [DiscardComponent(cid, g.comp_name[cid]) for cid in comps]
    if kind == PK_DISCARD_CODE:
        kinds = sorted({g.code_kind[card] for card in s.hand[seat]})
        return [DiscardCode(k, g.kind_name[k]) for k in kinds]
    if kind == PK_BREACH:
        return [
            TakeBreach(b, br.name)
            for b, br in enumerate(s.content.breaches)
            if br.attr == x and s.holder[b] < 0
        ]
    if kind == PK_CODE_SEAT:
        target = g.kind_target[x]
        if target == TARGET_OTHER:
            return [SEATS[o] for o in range(s.n) if o != seat]
        return [SEATS[o] for o in range(s.n)]
    if kind == PK_CODE_ATTR:
        return list(ATTR_CHOICES)
    if kind == PK_TEAM_INVITE:
        out = [INVITES[o] for o in _solo_others(s, seat) if o not in s.draft]
        if len(s.draft) >= 2:
            out.append(FINISH)
        return out
    if kind == PK_TEAM_SHARE:
        reward = g.mission_reward[s.mission_order[s.revealed - 1]]
        return [_share(v) for v in range(reward + 1)]
    return [ACCEPT, REJECT]  # PK_TEAM_ANSWER


# -- apply -------------------------------------------------------------------------------------
@cython.locals(s=BetabotzState, seat=cython.long, events=list)
def apply_action(s: BetabotzState, action) -> Events:
    s.turn += 1
    events: Events = []
    seat = s.current_player()
    if s.pending:
        _apply_pending(s, action, seat, events)
    elif s.stage == ST_AUCTION:
        if action is DRAW or isinstance(action, DrawCode):
            s.drew[seat] = 1
            s.turn_open = 1
            fx.draw_codes(s, seat, 1, events)
            if not s.quiet:
                events.append({"type": "left_auction", "seat": seat})
        else:  # ChooseLot
            s.turn_open = 1
            s.pending.append((PK_BID, seat, action.slot))
            if not s.quiet:
                events.append(
                    {
                        "type": "lot_chosen",
                        "seat": seat,
                        "card": action.name,
                        "minimum": lot_min(s, action.slot, seat),
                        "bidder": s.lot_bidder[action.slot],
                    }
                )
    else:
        if isinstance(action, Pass):
            s.streak += 1
            if not s.quiet:
                events.append({"type": "passed", "seat": seat})
            if s.streak >= s.n:
                _close_mission(s, events)
            else:
                s.priority = (s.priority + 1) % s.n
        elif isinstance(action, PlayCode):
            s.turn_open = 1
            _start_code(s, seat, action.code, events)
        else:  # ProposeTeam
            s.turn_open = 1
            s.proposals_left[seat] -= 1
            s.draft = [seat]
            s.draft_share = 0
            s.pending.append((PK_TEAM_INVITE, seat, 0))
            if not s.quiet:
                events.append(
                    {
                        "type": "team_started",
                        "seat": seat,
                        "mission": s.content.missions[s.mission_order[s.revealed - 1]].name,
                    }
                )
    _advance(s, events)
    return events


@cython.locals(s=BetabotzState, g=BetabotzTables, seat=cython.long, kind_id=cython.long)
def _start_code(s: BetabotzState, seat: int, kind_id: int, events: Events) -> None:
    """BZ-7.1: the card leaves the hand face up; its choices follow as pending steps."""
    card = fx.remove_code_of_kind(s, seat, kind_id)
    s.code_discard.append(card)
    g = s.game
    if not s.quiet:
        events.append({"type": "code_played", "seat": seat, "card": g.kind_name[kind_id]})
    s.cip = [seat, kind_id, -1]
    if g.kind_target[kind_id] != TARGET_SELF:
        s.pending.append((PK_CODE_SEAT, seat, kind_id))
    elif g.kind_attr[kind_id] == -1:
        s.pending.append((PK_CODE_ATTR, seat, kind_id))
    else:
        _finish_code(s, events)


@cython.locals(s=BetabotzState, g=BetabotzTables, op=cython.long)
def _finish_code(s: BetabotzState, events: Events, attr: int | None = None) -> None:
    seat, kind_id, target = s.cip
    g = s.game
    if attr is None:
        attr = g.kind_attr[kind_id]
    op = g.kind_op[kind_id]
    if g.kind_target[kind_id] == TARGET_SELF and op in (OP_MOD, OP_ROLL):
        target = seat
    s.cip = []
    events.extend(fx.resolve_code(s, seat, kind_id, target, attr))


@cython.locals(
    s=BetabotzState,
    seat=cython.long,
    kind=cython.long,
    x=cython.long,
    slot=cython.long,
    prev=cython.long,
    events=list,
)
def _apply_pending(s: BetabotzState, action, seat: int, events: Events) -> None:
    kind, _, x = s.pending.pop()
    c = s.content
    if kind == PK_BID:
        slot = x
        prev = s.lot_bidder[slot]
        bid = {"type": "bid", "seat": seat, "card": lot_name(s, slot), "amount": action.amount}
        if prev >= 0:
            s.seat_lot[prev] = -1  # outbid: Bitz back, acts again on a later turn (BZ-3.4)
            if not s.quiet:
                events.append(
                    {
                        "type": "outbid",
                        "seat": prev,
                        "by": seat,
                        "card": lot_name(s, slot),
                        "amount": s.lot_bid[slot],
                    }
                )
            bid["outbid"] = prev
            bid["previous"] = s.lot_bid[slot]
        s.lot_bid[slot] = action.amount
        s.lot_bidder[slot] = seat
        s.seat_lot[seat] = slot
        if not s.quiet:
            events.append(bid)
    elif kind == PK_DISCARD_COMP:
        s.comps[seat].remove(action.card)
        s.comp_discard.append(action.card)
        discarded = {
            "type": "component_discarded",
            "seat": seat,
            "card": action.name,
            "reason": "limit" if x == 0 else "consequence",
        }
        lost: Events = []
        fx.perm_changed(s, seat, lost)
        mods = c.components[action.card].mods
        discarded["mods"] = {ATTRS[a]: v for a, v in enumerate(mods) if v}
        discarded["now"] = dict(zip(ATTRS, s.perm[seat]))
        if not s.quiet:
            events.append(discarded)
        if not s.quiet:
            events.extend(lost)  # a Limit Breach lost because of the discard comes after it
    elif kind == PK_DISCARD_CODE:
        card = fx.remove_code_of_kind(s, seat, action.code)
        s.code_discard.append(card)
        if not s.quiet:
            events.append(
                {
                    "type": "code_discarded",
                    "seat": seat,
                    "card": action.name,
                    "hand": len(s.hand[seat]),
                }
            )
    elif kind == PK_BREACH:
        s.holder[action.breach] = seat
        if not s.quiet:
            events.append(fx.breach_event("breach_taken", s, seat, action.breach))
    elif kind == PK_CODE_SEAT:
        s.cip[2] = action.seat
        if s.game.kind_attr[x] == -1:
            s.pending.append((PK_CODE_ATTR, seat, x))
        else:
            _finish_code(s, events)
    elif kind == PK_CODE_ATTR:
        _finish_code(s, events, action.attribute)
    elif kind == PK_TEAM_INVITE:
        if isinstance(action, Invite):
            s.draft.append(action.seat)
            s.pending.append((PK_TEAM_INVITE, seat, 0))
            if not s.quiet:
                events.append({"type": "team_invited", "seat": seat, "invitee": action.seat})
        else:
            s.pending.append((PK_TEAM_SHARE, seat, 0))
            if not s.quiet:
                events.append({"type": "team_invites_done", "seat": seat, "members": list(s.draft)})
    elif kind == PK_TEAM_SHARE:
        s.draft_share = action.share
        mission = c.missions[s.mission_order[s.revealed - 1]]
        if not s.quiet:
            events.append(
                {
                    "type": "team_proposed",
                    "seat": seat,
                    "members": sorted(s.draft),
                    "keeps": action.share,
                    "mission": mission.name,
                    "reward": mission.reward,
                    "shares": {str(m): v for m, v in team_split(s, s.draft, action.share).items()},
                }
            )
        invitees = s.draft[1:]
        for m in reversed(invitees):
            s.pending.append((PK_TEAM_ANSWER, m, 0))
    else:  # PK_TEAM_ANSWER
        if isinstance(action, Accept):
            if not s.quiet:
                events.append({"type": "team_accepted", "seat": seat, "proposer": s.draft[0]})
            if not s.pending or s.pending[-1][0] != PK_TEAM_ANSWER:
                _form_team(s, events)
        else:
            while s.pending and s.pending[-1][0] == PK_TEAM_ANSWER:
                s.pending.pop()
            if not s.quiet:
                events.append({"type": "team_rejected", "seat": seat, "proposer": s.draft[0]})
            s.draft = []
            s.draft_share = 0


@cython.locals(s=BetabotzState)
def _close_mission(s: BetabotzState, events: Events) -> None:
    fx.resolve_mission(s, events)
    s.temp = [[0, 0, 0, 0] for _ in range(s.n)]  # this mission's Code changes end (BZ-8.4)
    s.code_log = []
    s.stage = ST_MISSION_BREACH


# -- the flow ----------------------------------------------------------------------------------
@cython.locals(s=BetabotzState, st=cython.long, events=list)
def _advance(s: BetabotzState, events: Events) -> None:
    """Run automatic steps until a seat must decide (or the game is over)."""
    while not s.pending:
        st = s.stage
        if st == ST_AUCTION:
            if s.turn_open:
                s.turn_open = 0
                if not _next_actor(s):
                    _close_auction(s, events)
                    continue
            elif (s.seat_lot[s.actor] >= 0 or s.drew[s.actor]) and not _next_actor(s):
                _close_auction(s, events)
                continue
            return
        if st == ST_MISSION:
            if s.turn_open:
                s.turn_open = 0
                s.streak = 0
                s.priority = (s.priority + 1) % s.n
            return
        if st in (ST_AUCTION_BREACH, ST_MISSION_BREACH):
            if fx.check_breaches(s, events):
                return
            if st == ST_AUCTION_BREACH:
                s.chip = (s.chip + 1) % s.n  # BZ-3.8: the chip moves on after phases 0 and 1
                if not s.quiet:
                    events.append({"type": "chip_moved", "seat": s.chip})
                if s.phase == 0:
                    _open_auction(s, 1, events)
                else:
                    _open_mission(s, events)
            else:
                if s.revealed >= min(MISSIONS, len(s.mission_order)):
                    _end_game(s, events)
                    return
                _open_auction(s, 1, events)
            continue
        return


@cython.locals(s=BetabotzState)
def _end_game(s: BetabotzState, events: Events) -> None:
    fx.end_bonuses(s, events)
    s.stage = ST_OVER
    s.phase = 3
    s.final_bitz = s.bitz[:]
    won = winners(s)
    if not s.quiet:
        events.append({"type": "game_over", "winners": won, "bitz": s.bitz[:]})


@cython.locals(s=BetabotzState, i=cython.long)
def winners(s: BetabotzState) -> list[int]:
    """Most Bitz; tie: highest combined attributes; still tied: a shared win (BZ-9.2)."""
    key = [(s.bitz[i], sum(s.perm[i])) for i in range(s.n)]
    best = max(key)
    return [i for i in range(s.n) if key[i] == best]
