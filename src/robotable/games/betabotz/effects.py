"""Code card effects, Limit Breaches, mission resolution and the end-game bonuses.

Every change to a seat's Bitz outside the auction is one of: a `reward`, `consequence` or `bonus`
event carrying the signed change in "bitz" (BZ-11.1), or a `bitz_stolen` transfer between seats.
Auction payments move Bitz from a seat to the bank (`bank`), so bank + seats only changes by the
three logged kinds.
"""

from __future__ import annotations

try:
    import cython
except ImportError:  # no Cython: its declarations do nothing
    from robotable.core import cython_shim as cython

from .content import ATTRS, GROUNDS, BreachEffect, CodeOp
from .state import (
    BREACH_VALUE,
    HAND_LIMIT,
    PK_BREACH,
    PK_DISCARD_CODE,
    PK_DISCARD_COMP,
    ST_MISSION,
    BetabotzState,
    BetabotzTables,
)

Events = list[dict]

# The words of Code card effects and Limit Breach effects in events (for the narration).
OP_NAMES = tuple(op.name.lower() for op in CodeOp)
EFFECT_NAMES = tuple(effect.name.lower() for effect in BreachEffect)

# The one breach effect read in every unit's values, as a C constant in the compiled engine (an
# IntEnum member is a class attribute lookup and a Python comparison per breach otherwise).
MISSION_BONUS = cython.declare(cython.long, BreachEffect.MISSION_BONUS)


# -- seats and their values --------------------------------------------------------------------
@cython.locals(s=BetabotzState, n=cython.long, i=cython.long)
def chip_order(s: BetabotzState) -> list[int]:
    """Seats starting from the Starter Chip, clockwise (BZ-2.4)."""
    n = s.n
    return [(s.chip + i) % n for i in range(n)]


@cython.locals(
    s=BetabotzState, g=BetabotzTables, seat=cython.long, b=cython.long, vals=list, d=list, m=list
)
def recompute_perm(s: BetabotzState, seat: int) -> None:
    """Permanent value = Betabot base + equipped components + permanent damage (BZ-5.1)."""
    g = s.game
    b = s.bot[seat]
    vals = g.bot_attrs[b][:] if b >= 0 else [0, 0, 0, 0]
    for cid in s.comps[seat]:
        m = g.comp_mods[cid]
        vals[0] += m[0]
        vals[1] += m[1]
        vals[2] += m[2]
        vals[3] += m[3]
    d = s.damage[seat]
    s.perm[seat] = [vals[0] - d[0], vals[1] - d[1], vals[2] - d[2], vals[3] - d[3]]


@cython.locals(s=BetabotzState, seat=cython.long, events=list, b=cython.long, h=cython.long)
def perm_changed(s: BetabotzState, seat: int, events: Events) -> None:
    """Recompute a seat's permanent values; a breach below 13 goes back at once (BZ-5.5)."""
    recompute_perm(s, seat)
    for b, h in enumerate(s.holder):
        if h == seat and s.perm[seat][s.game.breach_attr[b]] < BREACH_VALUE:
            s.holder[b] = -1
            if not s.quiet:
                events.append(breach_event("breach_lost", s, seat, b))


@cython.locals(s=BetabotzState, seat=cython.long, b=cython.long)
def breach_event(kind: str, s: BetabotzState, seat: int, b: int) -> dict:
    """A `breach_taken` or `breach_lost` event: the breach, its attribute, the seat's value of
    that attribute now, and what the breach does (effect and amount)."""
    br = s.content.breaches[b]
    return {
        "type": kind,
        "seat": seat,
        "card": br.name,
        "attribute": ATTRS[br.attr],
        "value": s.perm[seat][br.attr],
        "effect": EFFECT_NAMES[br.effect],
        "amount": br.amount,
    }


def breach_names(s: BetabotzState, seat: int, effect: BreachEffect) -> list[str]:
    """The names of the breaches of this effect that `seat` holds (for the words of events)."""
    return [
        s.content.breaches[b].name
        for b, h in enumerate(s.holder)
        if h == seat and s.content.breaches[b].effect == effect
    ]


@cython.locals(
    s=BetabotzState,
    g=BetabotzTables,
    seat=cython.long,
    effect=cython.long,
    b=cython.long,
    h=cython.long,
    e=cython.long,
    amount=cython.long,
    total=cython.long,
)
def has_breach_effect(s: BetabotzState, seat: int, effect: BreachEffect) -> int:
    """The summed amount (or 1 for a flag) of the breaches of this effect that `seat` holds."""
    g = s.game
    total = 0
    for b, h in enumerate(s.holder):
        if h == seat:
            e = g.breach_effect[b]
            if e == effect:
                amount = g.breach_amount[b]
                total += amount if amount else 1
    return total


@cython.locals(
    s=BetabotzState,
    g=BetabotzTables,
    seat=cython.long,
    a=cython.long,
    v=cython.long,
    b=cython.long,
    h=cython.long,
    e=cython.long,
    attr=cython.long,
)
def mission_value(s: BetabotzState, seat: int, a: int) -> int:
    """Value used in a mission: permanent + this mission's Code changes + breach bonuses."""
    g = s.game
    v = s.perm[seat][a] + s.temp[seat][a]
    for b, h in enumerate(s.holder):
        if h == seat:
            e = g.breach_effect[b]
            attr = g.breach_attr[b]
            if e == MISSION_BONUS and attr == a:
                v += g.breach_amount[b]
    return v


@cython.locals(s=BetabotzState, out=list, seat=cython.long, t=cython.long)
def units(s: BetabotzState) -> list[list[int]]:
    """Solo seats and teams, each a list of seats in chip order (BZ-6.1)."""
    out: list[list[int]] = []
    seen: dict[int, list[int]] = {}
    for seat in chip_order(s):
        t = s.team_of[seat]
        if t < 0:
            out.append([seat])
        elif t in seen:
            seen[t].append(seat)
        else:
            seen[t] = [seat]
            out.append(seen[t])
    return out


@cython.locals(values=list, require=tuple, a=cython.long)
def meets(values: list[int], require: tuple[int, int, int, int]) -> bool:
    """Whether `values` reach every attribute a mission requires (BZ-8.1). A loop, not `all()`
    over a generator: compiled, a generator cannot read C-typed locals."""
    for a in range(4):  # noqa: SIM110 (see the docstring)
        if require[a] and values[a] < require[a]:
            return False
    return True


@cython.locals(
    s=BetabotzState,
    g=BetabotzTables,
    members=list,
    values=list,
    perm=list,
    temp=list,
    a=cython.long,
    b=cython.long,
    h=cython.long,
    e=cython.long,
)
def unit_values(s: BetabotzState, members: list[int]) -> list[int]:
    """Per attribute, the sum of `mission_value` over the members, in one pass over the
    breaches instead of one per member and attribute (the heuristic asks for every unit)."""
    values = [0, 0, 0, 0]
    for m in members:
        perm = s.perm[m]
        temp = s.temp[m]
        for a in range(4):
            values[a] += perm[a] + temp[a]
    g = s.game
    for b, h in enumerate(s.holder):
        if h >= 0 and h in members:
            e = g.breach_effect[b]
            if e == MISSION_BONUS:
                values[g.breach_attr[b]] += g.breach_amount[b]
    return values


# -- Code cards --------------------------------------------------------------------------------
@cython.locals(
    s=BetabotzState,
    seat=cython.long,
    count=cython.long,
    events=list,
    got=cython.long,
    card=cython.long,
    excess=cython.long,
)
def draw_codes(s: BetabotzState, seat: int, count: int, events: Events) -> None:
    """Draw up to `count` cards (BZ-7.6).

    An empty deck is refilled from the shuffled discard pile, except during a mission phase
    (ruling: otherwise draw cards could cycle the pile forever and the phase might never close).
    """
    got = 0
    for _ in range(count):
        if not s.code_deck and s.code_discard and s.stage != ST_MISSION:
            s.code_deck = s.code_discard
            s.code_discard = []
            s.rng.shuffle(s.code_deck)
            if not s.quiet:
                events.append({"type": "code_deck_reshuffled", "cards": len(s.code_deck)})
        if not s.code_deck:
            break
        card = s.code_deck.pop()
        s.hand[seat].append(card)
        got += 1
        kind = s.content.codes[s.content.code_card_kind[card]]
        drawn = {"type": "code_drawn", "seat": seat, "card": kind.name, "text": kind.text}
        if kind.gold:
            drawn["gold"] = True
        drawn["to"] = [seat]
        if not s.quiet:
            events.append(drawn)
    if not s.quiet:
        events.append(
            {"type": "codes_drawn", "seat": seat, "count": got, "hand": len(s.hand[seat])}
        )
    excess = len(s.hand[seat]) - HAND_LIMIT
    for _ in range(excess):
        s.pending.append((PK_DISCARD_CODE, seat, 0))


@cython.locals(
    s=BetabotzState, seat=cython.long, kind=cython.long, hand=list, i=cython.long, ck=list
)
def remove_code_of_kind(s: BetabotzState, seat: int, kind: int) -> int:
    hand = s.hand[seat]
    ck = s.game.code_kind
    for i, card in enumerate(hand):
        if ck[card] == kind:
            del hand[i]
            return card
    raise ValueError(f"seat {seat} holds no Code card of kind {kind}")


@cython.locals(
    s=BetabotzState,
    seat=cython.long,
    kind_id=cython.long,
    target=cython.long,
    attr=cython.long,
    who=cython.long,
    t=list,
)
def resolve_code(s: BetabotzState, seat: int, kind_id: int, target: int, attr: int) -> Events:
    """Apply a Code card whose choices are all made (BZ-7.3 to BZ-7.5)."""
    kind = s.content.codes[kind_id]
    ev: dict = {
        "type": "code_resolved",
        "seat": seat,
        "card": kind.name,
        "op": OP_NAMES[kind.op],
    }
    events: Events = [] if s.quiet else [ev]
    if target >= 0 and target != seat:
        ev["target"] = target
        if kind.hostile and has_breach_effect(s, target, BreachEffect.WARD):
            ev["blocked_by"] = "Firewall"  # BZ-5.6: the ward breach
            return events
    op = kind.op
    if op == CodeOp.MOD or op == CodeOp.ROLL:
        who = target if target >= 0 else seat
        amount = kind.amount
        if op == CodeOp.ROLL:
            amount = s.rng.randint(1, kind.amount)
            ev["roll"] = amount
        t = s.temp[who]
        if attr == -2:
            for a in range(4):
                t[a] += amount
        else:
            t[attr] += amount
        ev["attribute"] = "all" if attr == -2 else ATTRS[attr]
        ev["amount"] = amount
        ev["player"] = who
        s.code_log.extend((who, attr, amount, kind_id))
        if attr >= 0:
            ev["now"] = mission_value(s, who, attr)
    elif op == CodeOp.CANCEL:
        who, a, amount, undone = s.code_log[-4:]
        del s.code_log[-4:]
        t = s.temp[who]
        if a == -2:
            for i in range(4):
                t[i] -= amount
        else:
            t[a] -= amount
        ev["cancelled"] = s.content.codes[undone].name
        ev["player"] = who
        ev["attribute"] = "all" if a == -2 else ATTRS[a]
        ev["amount"] = amount
        if a >= 0:
            ev["now"] = mission_value(s, who, a)
    elif op == CodeOp.SHIELD:
        s.shield[seat] = 1
    elif op == CodeOp.BOUNTY:
        s.bounty[seat] += kind.amount
        ev["amount"] = kind.amount
    elif op == CodeOp.DRAW:
        draw_codes(s, seat, kind.amount, events)
    elif op == CodeOp.STEAL:
        taken = min(kind.amount, s.bitz[target])
        s.bitz[target] -= taken
        s.bitz[seat] += taken
        if not s.quiet:
            events.append({"type": "bitz_stolen", "seat": seat, "from": target, "bitz": taken})
    return events


# -- Limit Breaches ----------------------------------------------------------------------------
@cython.locals(
    s=BetabotzState,
    events=list,
    battr=list,
    b=cython.long,
    h=cython.long,
    a=cython.long,
    seat=cython.long,
    o=cython.long,
    v=cython.long,
    best=cython.long,
    order=list,
    free=list,
)
def check_breaches(s: BetabotzState, events: Events) -> bool:
    """Return breaches below 13, then offer free ones (BZ-5.4). True when a choice was pushed.

    Called again after each choice until it pushes nothing: candidates are recomputed each time,
    ordered by the attribute value (highest first) then seat order from the Starter Chip.
    """
    battr = s.game.breach_attr
    for b, h in enumerate(s.holder):
        if h >= 0 and s.perm[h][battr[b]] < BREACH_VALUE:
            s.holder[b] = -1
            if not s.quiet:
                events.append(breach_event("breach_lost", s, h, b))
    order = chip_order(s)
    for a in range(4):
        free = [b for b in range(len(battr)) if battr[b] == a and s.holder[b] < 0]
        if not free:
            continue
        held = {s.holder[b] for b in range(len(battr)) if battr[b] == a}
        # The candidate with the highest value, the first from the chip among equals (a loop,
        # not a sort with a key: a compiled closure cannot read C-typed locals).
        seat = -1
        best = 0
        for o in order:
            v = s.perm[o][a]
            if v >= BREACH_VALUE and o not in held and (seat < 0 or v > best):
                seat = o
                best = v
        if seat < 0:
            continue
        if len(free) == 1:
            s.holder[free[0]] = seat
            if not s.quiet:
                events.append(breach_event("breach_taken", s, seat, free[0]))
            return check_breaches(s, events)
        s.pending.append((PK_BREACH, seat, a))
        return True
    return False


# -- missions ----------------------------------------------------------------------------------
@cython.locals(s=BetabotzState, members=list, vals=list, m=cython.long)
def resolve_mission(s: BetabotzState, events: Events) -> None:
    """Every unit at once against the open mission (BZ-8)."""
    content = s.content
    mission = content.missions[s.mission_order[s.revealed - 1]]
    pushes: list[tuple[int, int, int]] = []
    require = {ATTRS[a]: v for a, v in enumerate(mission.require) if v}
    for members in units(s):
        vals = unit_values(s, members)
        ok = meets(vals, mission.require)
        s.ground_tally[2 * mission.ground] += 1
        s.ground_tally[2 * mission.ground + 1] += ok
        if not s.quiet:
            events.append(
                {
                    "type": "mission_attempt",
                    "mission": mission.name,
                    "ground": GROUNDS[mission.ground],
                    "members": members,
                    "values": vals,
                    "success": ok,
                    "require": require,
                }
            )
        for m in members:
            if ok:
                gain = mission.reward if len(members) == 1 else s.share[m]
                parts = {"share": gain}
                if s.bounty[m]:
                    parts["bounty"] = s.bounty[m]
                    gain += s.bounty[m]
                over = has_breach_effect(s, m, BreachEffect.SUCCESS_BONUS)
                if over:
                    parts["breach"] = over
                    parts["breaches"] = breach_names(s, m, BreachEffect.SUCCESS_BONUS)
                    gain += over
                s.bitz[m] += gain
                if not s.quiet:
                    events.append(
                        {
                            "type": "reward",
                            "seat": m,
                            "mission": mission.name,
                            "bitz": gain,
                            **parts,
                            "purse": s.bitz[m],
                        }
                    )
            else:
                _consequences(s, m, mission, events, pushes)
    # Component discards are choices; the first seat from the chip chooses first.
    for p in reversed(pushes):
        s.pending.append(p)


def _consequences(s, m, mission, events, pushes) -> None:
    if s.shield[m]:
        if not s.quiet:
            events.append(
                {
                    "type": "consequence",
                    "seat": m,
                    "bitz": 0,
                    "ignored": "Failsafe",
                    "mission": mission.name,
                    "purse": s.bitz[m],
                }
            )
        return
    content = s.content
    loss = mission.lose_bitz
    halved = None
    if loss and has_breach_effect(s, m, BreachEffect.HALVE_LOSS):
        loss //= 2
        halved = breach_names(s, m, BreachEffect.HALVE_LOSS)
    loss = min(loss, s.bitz[m])  # never below 0 Bitz
    s.bitz[m] -= loss
    ev = {"type": "consequence", "seat": m, "mission": mission.name, "bitz": -loss}
    ev["purse"] = s.bitz[m]
    if halved:
        ev["halved_by"] = halved
    immune = has_breach_effect(s, m, BreachEffect.IMMUNE_DAMAGE)
    lost: Events = []
    if any(mission.damage):
        if immune:
            ev["damage_ignored"] = True
        else:
            for a in range(4):
                s.damage[m][a] += mission.damage[a]
            perm_changed(s, m, lost)
            ev["damage"] = {ATTRS[a]: -d for a, d in enumerate(mission.damage) if d}
            ev["now"] = {ATTRS[a]: s.perm[m][a] for a, d in enumerate(mission.damage) if d}
    if mission.discard_code and s.hand[m]:
        i = s.rng.below(len(s.hand[m]))
        card = s.hand[m].pop(i)
        s.code_discard.append(card)
        ev["discarded_code"] = content.codes[content.code_card_kind[card]].name
    if not s.quiet:
        events.append(ev)
    if not s.quiet:
        events.extend(lost)  # a Limit Breach lost to the damage comes after the consequence
    if mission.discard_component and s.comps[m]:
        if immune:
            ev["discard_ignored"] = True
        else:
            pushes.append((PK_DISCARD_COMP, m, 1))
            ev["discard_component"] = True
    if ev.get("damage_ignored") or ev.get("discard_ignored"):
        ev["protected_by"] = breach_names(s, m, BreachEffect.IMMUNE_DAMAGE)


def end_bonuses(s: BetabotzState, events: Events) -> None:
    """The three end-game bonuses; ties all receive; 0 gold cards earn nothing (BZ-9.1)."""
    content = s.content
    n = s.n
    best = [max(s.perm[seat]) for seat in range(n)]
    golds = [sum(1 for c in s.comps[seat] if content.components[c].gold) for seat in range(n)]
    codes = [
        sum(1 for c in s.hand[seat] if content.codes[content.code_card_kind[c]].gold)
        for seat in range(n)
    ]
    for name, scores, amount, need in (
        ("highest attribute", best, 15, None),
        ("gold components", golds, 15, 1),
        ("gold code cards", codes, 10, 1),
    ):
        hi = max(scores)
        if need is not None and hi < need:
            continue
        for seat in range(n):
            if scores[seat] == hi:
                s.bitz[seat] += amount
                if not s.quiet:
                    events.append(
                        {
                            "type": "bonus",
                            "seat": seat,
                            "bonus": name,
                            "value": hi,
                            "bitz": amount,
                            "purse": s.bitz[seat],
                        }
                    )
    # Hands are revealed at the end (the gold count is scored from them).
    for seat in range(n):
        names = [content.codes[content.code_card_kind[c]].name for c in s.hand[seat]]
        if not s.quiet:
            events.append({"type": "hand_revealed", "seat": seat, "cards": names})
