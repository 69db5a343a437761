"""Betabotz heuristic: projected final Bitz per seat from public information (BZ-13).

projected = Bitz now
          - the active bid it will pay, + the lot it will get (auctions)
          + expected value of the open mission for its unit (success share or the consequences)
          + for each mission still face down, the expected value over that ground's missions:
            the reward if the bot meets the requirements alone, half of it if it does with the
            best solo partner, else minus the consequences (attribute loss priced in Bitz)
          + end bonuses it leads for now + Code cards in hand.
The value for a seat is its softmax share of the projected totals (temperature TEMP Bitz), so it
sits in [0, 1]. Only public information is used (hand counts for other seats, grounds for
face-down missions), so it never peeks at what a determinized state resampled.

`policy(state)` is a one-step rule agent on the same ideas (bidding and team choice).
"""

from __future__ import annotations

import math

try:
    import cython
except ImportError:  # no Cython: its declarations do nothing
    from robotable.core import cython_shim as cython

if not cython.compiled:
    # Compiled, exp is C's (heuristic.pxd): the same libm function math.exp calls.
    from math import exp

from . import effects as fx
from .actions import Accept, Bid, ChooseLot, DrawCode, Pass, PlayCode, ProposeTeam, Reject
from .content import CodeOp, Content
from .state import (
    PK_BID,
    PK_TEAM_ANSWER,
    ST_AUCTION,
    ST_MISSION,
    ST_OVER,
    BetabotzState,
    BetabotzTables,
)

TEMP = 7.0
CODE_VALUE = 2.0
DAMAGE_PRICE = 2.0

_cache: dict[tuple, float] = {}


def _mission_ev(content: Content, ground: int, mine: tuple, partner: tuple) -> float:
    """Expected Bitz from one face-down mission of `ground` for a bot with values `mine`."""
    key = (id(content), ground, mine, partner)
    v = _cache.get(key)
    if v is not None:
        return v
    total = 0.0
    ids = content.missions_by_ground[ground]
    for mid in ids:
        m = content.missions[mid]
        req = m.require
        if all(mine[a] >= req[a] for a in range(4) if req[a]):
            total += m.reward
        elif all(mine[a] + partner[a] >= req[a] for a in range(4) if req[a]):
            total += m.reward / 2
        else:
            total -= m.lose_bitz + DAMAGE_PRICE * sum(m.damage) + (3 if m.discard_component else 0)
    v = total / len(ids)
    if len(_cache) > 200_000:
        _cache.clear()
    _cache[key] = v
    return v


@cython.locals(
    s=BetabotzState,
    g=BetabotzTables,
    perms=list,
    pay=list,
    m=list,
    bot_attrs=list,
    seat=cython.long,
    slot=cython.long,
    card=cython.long,
)
def _projected_perms(s: BetabotzState) -> tuple[list[list[int]], list[float]]:
    """Values each seat will have after the open auction, and the Bitz it will pay."""
    g = s.game
    perms = [p[:] for p in s.perm]
    pay = [0.0] * s.n
    if s.stage == ST_AUCTION or (s.pending and s.pending[0][0] == PK_BID):
        bot_attrs = g.bot_attrs
        for seat in range(s.n):
            slot = s.seat_lot[seat]
            if slot >= 0:
                pay[seat] = s.lot_bid[slot]
                card = s.lots[slot]
                if s.phase == 0:
                    perms[seat] = bot_attrs[card][:]
                else:
                    m = g.comp_mods[card]
                    perms[seat] = [perms[seat][a] + m[a] for a in range(4)]
                    pay[seat] += g.comp_acquire[card]
        if s.phase == 0:
            # Seats still without a bid will get some Betabot: use the table's average.
            avg = [
                round(sum([bot_attrs[b][a] for b in s.lots]) / max(1, len(s.lots)))
                for a in range(4)
            ]
            for seat in range(s.n):
                if s.seat_lot[seat] < 0:
                    perms[seat] = avg[:]
                    pay[seat] = 6.0
    return perms, pay


# One-entry memo: agents evaluate the same state for every seat in a row (max^n backups). The
# key holds the state itself (so its id cannot be reused) and a fingerprint of what changes.
_memo: list = [None, None, None]


@cython.locals(s=BetabotzState)
def _memo_key(s: BetabotzState) -> tuple:
    return (s.turn, s.rng.state, tuple(s.bitz), len(s.pending), s.stage)


@cython.locals(s=BetabotzState, seat_view=cython.long, out=list, hand=list, gold=list)
def projected(s: BetabotzState, seat_view: int) -> list[float]:
    """Projected final Bitz of every seat, as `seat_view` can estimate them."""
    key = _memo_key(s)
    if _memo[0] is s and _memo[1] == key:
        public = _memo[2]
    else:
        public = _public_projection(s)
        _memo[0], _memo[1], _memo[2] = s, key, public
    out = public[:]
    if 0 <= seat_view < s.n:
        gold = s.game.card_gold
        hand = s.hand[seat_view]
        out[seat_view] += sum([CODE_VALUE + (4 if gold[x] else 0) for x in hand])
        out[seat_view] -= CODE_VALUE * len(hand) * 1.3
    return out


@cython.locals(
    s=BetabotzState,
    tables=BetabotzTables,
    n=cython.long,
    out=list,
    perms=list,
    pay=list,
    i=cython.long,
    j=cython.long,
    g=cython.long,
    start=cython.long,
    grounds=list,
    ground_of=list,
    tup=list,
    sums=list,
    tops=list,
    golds=list,
    comp_gold=list,
)
def _public_projection(s: BetabotzState) -> list[float]:
    c = s.content
    tables = s.game
    n = s.n
    perms, pay = _projected_perms(s)
    out = [float(s.bitz[i]) - pay[i] for i in range(n)]
    # The open mission.
    if s.stage == ST_MISSION:
        m = c.missions[s.mission_order[s.revealed - 1]]
        for u in fx.units(s):
            vals = fx.unit_values(s, u)
            ok = fx.meets(vals, m.require)
            for i in u:
                if ok:
                    out[i] += (m.reward if len(u) == 1 else s.share[i]) + s.bounty[i]
                elif not s.shield[i]:
                    out[i] -= min(s.bitz[i], m.lose_bitz) + DAMAGE_PRICE * sum(m.damage)
    # Face-down missions by ground (public), valued with the best possible solo partner.
    start = s.revealed
    grounds = [0, 0, 0]
    ground_of = tables.mission_ground
    for mid in s.mission_order[start:]:
        grounds[ground_of[mid]] += 1
    if any(grounds):
        tup = [tuple(p) for p in perms]
        sums = [sum(p) for p in perms]
        for i in range(n):
            # The first other seat with the largest sum (what max() over them picks).
            best_partner = (0, 0, 0, 0)
            best_sum = None
            for j in range(n):
                if j != i and (best_sum is None or sums[j] > best_sum):
                    best_partner, best_sum = tup[j], sums[j]
            for g in range(3):
                if grounds[g]:
                    out[i] += grounds[g] * _mission_ev(c, g, tup[i], best_partner)
    # End bonuses as they stand, and cards in hand.
    tops = [max(p) for p in perms]
    hi = max(tops)
    comp_gold = tables.comp_gold
    golds = [sum([1 for x in s.comps[i] if comp_gold[x]]) for i in range(n)]
    gh = max(golds)
    for i in range(n):
        if tops[i] == hi:
            out[i] += 15 * (0.6 if s.stage != ST_OVER else 1.0)
        if gh > 0 and golds[i] == gh:
            out[i] += 15 * 0.6
        out[i] += CODE_VALUE * len(s.hand[i]) * 1.3  # by count: gold odds folded in
    return out


def evaluate(s: BetabotzState, seat: int) -> float:
    if s.stage == ST_OVER:
        return s.returns()[seat]
    proj = projected(s, seat)
    top = max(proj)
    weights = [math.exp((p - top) / TEMP) for p in proj]
    return weights[seat] / sum(weights)


@cython.locals(
    s=BetabotzState,
    n=cython.long,
    seat=cython.long,
    public=list,
    values=list,
    proj=list,
    hand=list,
    gold=list,
    weights=list,
    top=cython.double,
    p=cython.double,
    temp=cython.double,
)
def evaluate_all(s: BetabotzState) -> list[float]:
    """`[evaluate(s, seat) for every seat]` in one pass (MCTS values every leaf for every seat):
    the public projection once, then each seat's own hand and softmax, the same operations in
    the same order, so the same numbers."""
    n = s.n
    if s.stage == ST_OVER:
        returns = s.returns()
        return [returns[seat] for seat in range(n)]
    public = _public_projection(s)
    _memo[0], _memo[1], _memo[2] = s, _memo_key(s), public
    gold = s.game.card_gold
    temp = TEMP  # a C double, so the softmax below is C arithmetic and C's exp
    values = []
    for seat in range(n):
        proj = public[:]
        hand = s.hand[seat]
        proj[seat] += sum([CODE_VALUE + (4 if gold[x] else 0) for x in hand])
        proj[seat] -= CODE_VALUE * len(hand) * 1.3
        top = max(proj)
        weights = [exp((p - top) / temp) for p in proj]
        values.append(weights[seat] / sum(weights))
    return values


# -- a rule agent --------------------------------------------------------------------------------
def policy(s: BetabotzState):
    """A one-step rule player: value-for-money bids, useful teams, code cards that flip a result."""
    legal = s.legal_actions()
    seat = s.current_player()
    kinds = {a.kind for a in legal}
    if "choose_lot" in kinds or "draw_code" in kinds:
        base = projected(s, seat)[seat]
        best, best_gain = None, 1.0
        for a in legal:
            if isinstance(a, ChooseLot):
                trial = s.clone()
                trial.apply_action(a)
                amounts = trial.legal_actions()
                trial.apply_action(amounts[0])
                gain = projected(trial, seat)[seat] - base
                if gain > best_gain:
                    best, best_gain = a, gain
        if best is not None:
            return best
        return next((a for a in legal if isinstance(a, DrawCode)), legal[0])
    if "bid" in kinds:
        return min((a for a in legal if isinstance(a, Bid)), key=lambda a: a.amount)
    if "accept" in kinds:
        trial_a = s.clone()
        trial_a.apply_action(Accept())
        trial_r = s.clone()
        trial_r.apply_action(Reject())
        a = projected(trial_a, seat)[seat]
        r = projected(trial_r, seat)[seat]
        return Accept() if a >= r else Reject()
    if "pass" in kinds:
        base = projected(s, seat)[seat]
        for a in legal:
            if isinstance(a, PlayCode) and s.content.codes[a.code].op != CodeOp.CANCEL:
                trial = s.clone()
                trial.apply_action(a)
                while trial.current_player() == seat and trial.pending:
                    trial.apply_action(
                        max(trial.legal_actions(), key=lambda x: _score(trial, x, seat))
                    )
                if projected(trial, seat)[seat] > base + 3:
                    return a
        if any(isinstance(a, ProposeTeam) for a in legal) and s.team_of[seat] < 0:
            m = s.content.missions[s.mission_order[s.revealed - 1]]
            vals = fx.unit_values(s, [seat])
            if not all(vals[x] >= m.require[x] for x in range(4) if m.require[x]):
                return ProposeTeam()
        return Pass()
    return max(legal, key=lambda a: _score(s, a, seat))


def _score(s: BetabotzState, a, seat: int) -> float:
    trial = s.clone()
    trial.apply_action(a)
    if s.pending and s.pending[-1][0] == PK_TEAM_ANSWER:
        return projected(trial, seat)[seat]
    return evaluate(trial, seat)
