"""The effect interpreter (IB-8): continuous stats, activation requirements, the resolution stack.

Card abilities are data (`content.Effect` = costs and operations as `Step`s). An activated or
triggered effect becomes a frame `(card, effect, step, controller, source uid, battled uid)` on
the state's stack; `resolve` runs the top frame step by step. A step that needs a choice with
more than one option stops the loop with `state.choice` set (the pending decision); the chosen
action resumes it through `resume`.
"""

from __future__ import annotations

try:
    import cython
except ImportError:  # no Cython: its declarations do nothing
    from robotable.core import cython_shim as cython

from .actions import ChooseBot, ChooseCard
from .board import check_life, draw, end_duel, leave_hand, new_bot, remove_bot
from .content import (
    CHOSEN_TARGETS,
    COND_CARD_PRESENT,
    COND_NONE,
    OP_ADD_MANA,
    OP_BOUNCE,
    OP_CONTROL,
    OP_COST_DISCARD,
    OP_COST_TRIBUTE,
    OP_COUNTER,
    OP_DAMAGE,
    OP_DESTROY,
    OP_DISCARD,
    OP_DRAW,
    OP_HEAL,
    OP_JUNK_TO_HAND,
    OP_MODIFY,
    OP_PROTECT,
    OP_TOKEN,
    OP_WIN_IF_COUNTERS,
    TARGET_ALL_ENEMY,
    TARGET_ALL_OWN,
    TARGET_BATTLED,
    TARGET_ENEMY,
    TARGET_OWN,
    TARGET_OWN_OTHER,
    TARGET_SELF,
    TYPE_BUZZ,
    TYPE_TOKEN,
    WHEN_AFTER_DAMAGE,
    ZONE_SIZE,
    Condition,
    EffectKind,
    Step,
)
from .state import Bot, IotabotsState, IotabotsTables

BUZZ_SOURCE = -1  # a frame's source uid when the effect is a Buzz card's

# Steps whose resolution asks the controller to choose (IB-8.4), by the kind of choice.
_BOT_CHOICE_OPS = frozenset({OP_MODIFY, OP_DESTROY, OP_BOUNCE, OP_CONTROL, OP_COST_TRIBUTE})
_HAND_CHOICE_OPS = frozenset({OP_DISCARD, OP_COST_DISCARD})


def choice_kind(step: Step) -> int:
    """-1: no choice; else a state.Choice value (0 bot, 1 hand card, 2 junk card)."""
    op = step.op
    if op in _BOT_CHOICE_OPS:
        return 0 if step.target in CHOSEN_TARGETS else -1
    if op in _HAND_CHOICE_OPS:
        return 1
    if op == OP_JUNK_TO_HAND:
        return 2
    return -1


# -- continuous effects (IB-8.2): recomputed every time, never stored --------------------------


# (Lists or loops rather than any(...) over a generator: compiled, a generator cannot read
# C-typed locals, here and below.)
@cython.locals(idx=cython.long, b=Bot)
def condition_holds(state: IotabotsState, seat: int, cond: Condition, source_uid: int) -> bool:
    kind = cond.kind
    if kind == COND_NONE:
        return True
    if kind == COND_CARD_PRESENT:
        idx = state.game.pool.by_name[cond.card]
        if cond.in_junk and idx in state.junk[seat]:
            return True
        return cond.on_field and idx in [b.card for b in state.field[seat]]
    # CONTROLS_OTHER_BOT
    return any([b.uid != source_uid for b in state.field[seat]])


@cython.locals(g=IotabotsTables, c=cython.long, atk=cython.long, dfn=cython.long, other=Bot)
def stats(state: IotabotsState, seat: int, bot: Bot) -> tuple[int, int]:
    """(ATK, DEF) of `bot` controlled by `seat`: printed, then continuous effects, then
    until-end-of-turn modifiers (IB-8.2, IB-8.6)."""
    g = state.game
    c = bot.card
    atk = g.base_atk[c]
    dfn = g.base_def[c]
    statics = g.static_self[c]
    if not statics and not g.has_aura:
        atk += bot.atk_mod
        dfn += bot.def_mod
        return (atk if atk > 0 else 0, dfn if dfn > 0 else 0)
    for cond, step in statics:
        if condition_holds(state, seat, cond, bot.uid):
            if step.set_stats:
                atk = step.atk if step.atk else atk
                dfn = step.def_ if step.def_ else dfn
            else:
                atk += step.atk
                dfn += step.def_
    if g.has_aura:
        for other in state.field[seat]:
            if other.uid != bot.uid:
                for cond, step in g.aura[other.card]:
                    if condition_holds(state, seat, cond, other.uid):
                        atk += step.atk
                        dfn += step.def_
    atk += bot.atk_mod
    dfn += bot.def_mod
    return (atk if atk > 0 else 0, dfn if dfn > 0 else 0)


@cython.locals(g=IotabotsTables, b=Bot)
def attackable(state: IotabotsState, seat: int, bot: Bot) -> bool:
    """May `bot` (controlled by `seat`) be chosen as an attack target? (Bot Protect, IB-8.2)"""
    if state.protect[seat]:
        return False
    g = state.game
    if g.any_untargetable and g.untargetable[bot.card]:
        for b in state.field[seat]:
            if b.uid != bot.uid:
                return False
    return True


@cython.locals(g=IotabotsTables, field=list, no_direct=list, b=Bot)
def direct_attack_allowed(state: IotabotsState, seat: int) -> bool:
    """May the opponent of `seat` attack `seat`'s Life Points? (IB-6.2, Wall Bot proposal)"""
    field = state.field[seat]
    if not field:
        return True
    g = state.game
    if g.direct_requires_empty:
        return False
    if not g.any_no_direct:
        return True
    no_direct = g.no_direct
    return not any([no_direct[b.card] for b in field])


# -- finding things ----------------------------------------------------------------------------


@cython.locals(seat=cython.long, slot=cython.Py_ssize_t, b=Bot)
def find_bot(state: IotabotsState, uid: int) -> tuple[int, int]:
    """(controller seat, slot) of the Bot with this uid, or (-1, -1) if it left the field."""
    for seat in (0, 1):
        for slot, b in enumerate(state.field[seat]):
            if b.uid == uid:
                return seat, slot
    return -1, -1


@cython.locals(
    filtered=cython.bint,
    seat=cython.long,
    slot=cython.Py_ssize_t,
    b=Bot,
    atk=cython.long,
    dfn=cython.long,
    cache=list,
    out=list,
)
def bot_options(
    state: IotabotsState, step: Step, controller: int, source_uid: int
) -> list[ChooseBot]:
    """The Bots a chosen-target step may pick, as actions (IB-8.4)."""
    target = step.target
    if step.op == OP_CONTROL and len(state.field[controller]) >= ZONE_SIZE:
        return []  # IB-8.7: no control change into a full Bot Zone
    seats: tuple[int, ...]
    if target in (TARGET_OWN, TARGET_OWN_OTHER):
        seats = (controller,)
    elif target == TARGET_ENEMY:
        seats = (1 - controller,)
    else:
        seats = (controller, 1 - controller)
    filtered = step.max_atk < 99 or step.max_def < 99
    cache = state.game.choose_bot_actions
    out = []
    for seat in seats:
        for slot, b in enumerate(state.field[seat]):
            if target == TARGET_OWN_OTHER and b.uid == source_uid:
                continue
            if filtered:
                atk, dfn = stats(state, seat, b)
                if atk > step.max_atk or dfn > step.max_def:
                    continue
            out.append(cache[seat][slot])
    return out


@cython.locals(g=IotabotsTables, zone=list, seen=set, out=list, c=cython.long)
def card_options(state: IotabotsState, seat: int, kind: int) -> list[ChooseCard]:
    """Distinct cards of `seat`'s hand (kind 1) or Bot cards of its Junk Zone (kind 2)."""
    g = state.game
    zone = state.hand[seat] if kind == 1 else state.junk[seat]
    seen: set[int] = set()
    out = []
    for c in zone:
        if c in seen:
            continue
        seen.add(c)
        if kind == 2 and g.cards[c].type == TYPE_BUZZ:
            continue
        out.append(g.choose_card_actions[c])
    return out


@cython.locals(
    state=IotabotsState, card=cython.long, eff=cython.long, step_i=cython.long, ctrl=cython.long
)
def options_for(state: IotabotsState) -> list:
    """Legal actions of the pending effect decision on top of the stack."""
    card, eff, step_i, ctrl, src, _battled = state.frames[-1]
    step = state.game.cards[card].effects[eff].steps[step_i]
    kind = choice_kind(step)
    if kind == 0:
        return bot_options(state, step, ctrl, src)
    return card_options(state, ctrl, kind)


# -- activation requirements (IB-8.3) ---------------------------------------------------------


@cython.locals(
    hand_size=cython.long,
    discards=cython.long,
    tributes=cython.long,
    free=cython.long,
    others=cython.long,
    b=Bot,
)
def can_activate(
    state: IotabotsState, seat: int, card: int, eff: int, source_uid: int, from_hand: bool
) -> bool:
    """Costs payable and the effect's first chosen target present when it is declared."""
    effect = state.game.cards[card].effects[eff]
    if not condition_holds(state, seat, effect.condition, source_uid):
        return False
    hand_size = len(state.hand[seat]) - (1 if from_hand else 0)
    discards = 0
    tributes = 0
    free = ZONE_SIZE - len(state.field[seat])
    for step in effect.steps:
        op = step.op
        if op == OP_COST_DISCARD:
            discards += 1
            if discards > hand_size:
                return False
        elif op == OP_COST_TRIBUTE:
            tributes += 1
            if step.target == TARGET_SELF:
                continue
            others = 0
            for b in state.field[seat]:
                if b.uid != source_uid:
                    others += 1
            if tributes > others:
                return False
        elif op == OP_TOKEN:
            if free + tributes <= 0:
                return False
        elif op == OP_CONTROL:
            if free + tributes <= 0 or not bot_options(state, step, seat, source_uid):
                return False
            break
        elif op == OP_JUNK_TO_HAND:
            if not card_options(state, seat, 2):
                return False
            break
        elif op in (OP_MODIFY, OP_DESTROY, OP_BOUNCE) and step.target in CHOSEN_TARGETS:
            if not bot_options(state, step, seat, source_uid):
                return False
            break
    return True


# -- the resolution stack (IB-8.5) ------------------------------------------------------------


def push(
    state: IotabotsState, card: int, eff: int, controller: int, source_uid: int, battled: int = -1
) -> None:
    state.frames.append((card, eff, 0, controller, source_uid, battled))


@cython.locals(state=IotabotsState)
def push_triggers(state: IotabotsState, entries: list[tuple[int, int, int, int, int]]) -> None:
    """Push triggered effects so that the first entry resolves first (IB-8.5 order)."""
    for card, eff, ctrl, uid, battled in reversed(entries):
        state.frames.append((card, eff, 0, ctrl, uid, battled))


@cython.locals(
    state=IotabotsState,
    frames=list,
    duel=cython.Py_ssize_t,
    card=cython.long,
    eff=cython.long,
    step_i=cython.long,
    ctrl=cython.long,
    src=cython.long,
    battled=cython.long,
    kind=cython.long,
    opts=list,
)
def resolve(state: IotabotsState, events: list[dict]) -> None:
    """Run the stack until it is empty, a choice is pending, or the duel ends."""
    frames = state.frames
    cards = state.game.cards
    duel = len(state.results)
    while frames and state.choice is None:
        card, eff, step_i, ctrl, src, battled = frames[-1]
        effect = cards[card].effects[eff]
        steps = effect.steps
        if step_i == 0 and effect.when == WHEN_AFTER_DAMAGE and find_bot(state, src)[0] < 0:
            frames.pop()  # "if it is still on the field": an earlier trigger removed it
            continue
        if step_i >= len(steps):
            frames.pop()
            if src == BUZZ_SOURCE:
                # IB-5.2: a Buzz card goes to the Junk Zone once its effect is resolved
                state.junk[ctrl].append(state.resolving)
                state.resolving = -1
            continue
        step = steps[step_i]
        kind = choice_kind(step)
        if kind >= 0:
            opts = (
                bot_options(state, step, ctrl, src)
                if kind == 0
                else card_options(state, ctrl, kind)
            )
            if not opts:
                # IB-8.4: nothing to choose (a trigger's target is gone): the step does nothing
                frames[-1] = (card, eff, step_i + 1, ctrl, src, battled)
                continue
            if len(opts) > 1:
                state.choice = (kind, ctrl)
                return
            frames[-1] = (card, eff, step_i + 1, ctrl, src, battled)
            do_step(state, step, card, ctrl, src, battled, opts[0], events)
        else:
            frames[-1] = (card, eff, step_i + 1, ctrl, src, battled)
            do_step(state, step, card, ctrl, src, battled, None, events)
        if len(state.results) != duel:
            return  # the duel ended inside the effect


@cython.locals(
    state=IotabotsState,
    duel=cython.Py_ssize_t,
    card=cython.long,
    eff=cython.long,
    step_i=cython.long,
    ctrl=cython.long,
    src=cython.long,
    battled=cython.long,
)
def resume(state: IotabotsState, action, events: list[dict]) -> None:
    """Apply the chosen option of the pending decision, then keep resolving."""
    card, eff, step_i, ctrl, src, battled = state.frames[-1]
    step = state.game.cards[card].effects[eff].steps[step_i]
    state.choice = None
    state.frames[-1] = (card, eff, step_i + 1, ctrl, src, battled)
    duel = len(state.results)
    do_step(state, step, card, ctrl, src, battled, action, events)
    if len(state.results) == duel:
        resolve(state, events)


# -- operations (IB-8.6) ----------------------------------------------------------------------


@cython.locals(state=IotabotsState, g=IotabotsTables)
def do_step(
    state: IotabotsState,
    step: Step,
    card: int,
    ctrl: int,
    src: int,
    battled: int,
    chosen,
    events: list[dict],
) -> None:
    g = state.game
    op = step.op
    name = g.cards[card].name
    if op in (OP_COST_TRIBUTE, OP_DESTROY, OP_BOUNCE):
        targets: list[tuple[int, int]] = []
        if chosen is not None:
            targets.append((chosen.seat, chosen.slot))
        elif step.target in (TARGET_SELF, TARGET_BATTLED):
            seat, slot = find_bot(state, src if step.target == TARGET_SELF else battled)
            if seat >= 0:
                targets.append((seat, slot))
        else:
            seats = {TARGET_ALL_OWN: (ctrl,), TARGET_ALL_ENEMY: (1 - ctrl,)}.get(
                step.target, (0, 1)
            )
            for seat in seats:
                for slot, b in enumerate(state.field[seat]):
                    atk, dfn = stats(state, seat, b)
                    if atk <= step.max_atk and dfn <= step.max_def:
                        targets.append((seat, slot))
        # remove from the highest slot down so earlier slot numbers stay valid
        kind = {OP_COST_TRIBUTE: "tribute", OP_DESTROY: "destroy", OP_BOUNCE: "bounce"}[op]
        for seat, slot in sorted(targets, key=lambda t: (t[0], -t[1])):
            bot = remove_bot(state, seat, slot, to_hand=op == OP_BOUNCE)
            if not state.quiet:
                events.append(
                    {
                        "type": kind,
                        "seat": ctrl,
                        "card": name,
                        "target": g.cards[bot.card].name,
                        "target_owner": bot.owner,
                        "target_controller": seat,
                        "token": g.cards[bot.card].type == TYPE_TOKEN,
                    }
                )
    elif op in (OP_COST_DISCARD, OP_DISCARD):
        c = g.by_name[chosen.card]
        leave_hand(state, ctrl, c)
        state.junk[ctrl].append(c)
        if not state.quiet:
            events.append(
                {
                    "type": "discard",
                    "seat": ctrl,
                    "card": chosen.card,
                    "by": name,
                    "cost": op == OP_COST_DISCARD,
                }
            )
    elif op == OP_DRAW:
        if not state.quiet:
            events.append({"type": "effect_draw", "seat": ctrl, "card": name, "count": step.n})
        draw(state, ctrl, step.n, events, by=name)
    elif op == OP_HEAL:
        state.life[ctrl] += step.n
        if not state.quiet:
            events.append(
                {
                    "type": "heal",
                    "seat": ctrl,
                    "card": name,
                    "amount": step.n,
                    "life": state.life[ctrl],
                }
            )
    elif op == OP_DAMAGE:
        state.life[1 - ctrl] -= step.n
        if not state.quiet:
            events.append(
                {
                    "type": "damage",
                    "seat": ctrl,
                    "card": name,
                    "amount": step.n,
                    "life": state.life[1 - ctrl],
                }
            )
        check_life(state, "life points", events)
    elif op == OP_ADD_MANA:
        state.mana[ctrl] += step.n  # IB-4.2 ruling: effects may exceed the cap of 6
        if not state.quiet:
            events.append(
                {
                    "type": "add_mana",
                    "seat": ctrl,
                    "card": name,
                    "amount": step.n,
                    "mana": state.mana[ctrl],
                }
            )
    elif op == OP_MODIFY:
        # (controller, Bot) pairs
        if chosen is not None:
            bots = [(chosen.seat, state.field[chosen.seat][chosen.slot])]
        elif step.target == TARGET_SELF:
            seat, slot = find_bot(state, src)
            bots = [(seat, state.field[seat][slot])] if seat >= 0 else []
        elif step.target == TARGET_ALL_OWN:
            bots = [(ctrl, b) for b in state.field[ctrl]]
        elif step.target == TARGET_ALL_ENEMY:
            bots = [(1 - ctrl, b) for b in state.field[1 - ctrl]]
        else:
            bots = [(seat, b) for seat in (0, 1) for b in state.field[seat]]
        for _seat, b in bots:
            b.atk_mod += step.atk
            b.def_mod += step.def_
        if not state.quiet:
            events.append(
                {
                    "type": "modify",
                    "seat": ctrl,
                    "card": name,
                    "targets": [g.cards[b.card].name for _seat, b in bots],
                    "atk": step.atk,
                    "def": step.def_,
                    "controllers": [seat for seat, _b in bots],
                    "owners": [b.owner for _seat, b in bots],
                    "stats": [list(stats(state, seat, b)) for seat, b in bots],  # after the change
                }
            )
    elif op == OP_TOKEN:
        made = 0
        atk, dfn = g.base_atk[step.token], g.base_def[step.token]
        bot = None
        for _ in range(step.n):
            if len(state.field[ctrl]) >= ZONE_SIZE:
                break  # IB-7.2: tokens count toward the 5-Bot limit
            bot = new_bot(state, step.token, ctrl)
            state.field[ctrl].append(bot)
            made += 1
        if bot is not None:  # the tokens' stats as they arrive (all alike)
            atk, dfn = stats(state, ctrl, bot)
        if not state.quiet:
            events.append(
                {
                    "type": "token",
                    "seat": ctrl,
                    "card": name,
                    "token": g.cards[step.token].name,
                    "count": made,
                    "asked": step.n,
                    "atk": atk,
                    "def": dfn,
                }
            )
    elif op == OP_CONTROL:
        bot = state.field[chosen.seat].pop(chosen.slot)
        bot.entered = state.turn
        bot.attacks = 0
        bot.may_attack = step.may_attack
        # IB-8.7: temporary control ends by going back to the zone the Bot came from
        bot.home = -1 if step.permanent else chosen.seat
        state.field[ctrl].append(bot)
        atk, dfn = stats(state, ctrl, bot)
        if not state.quiet:
            events.append(
                {
                    "type": "control",
                    "seat": ctrl,
                    "card": name,
                    "target": g.cards[bot.card].name,
                    "permanent": step.permanent,
                    "target_owner": bot.owner,
                    "target_controller": chosen.seat,  # its controller before the change
                    "may_attack": step.may_attack,
                    "target_atk": atk,
                    "target_def": dfn,
                }
            )
    elif op == OP_JUNK_TO_HAND:
        c = g.by_name[chosen.card]
        state.junk[ctrl].remove(c)
        state.hand[ctrl].append(c)
        state.known[ctrl].append(c)  # IB-11.1: everybody saw which card was taken
        if not state.quiet:
            events.append(
                {"type": "junk_to_hand", "seat": ctrl, "card": name, "target": chosen.card}
            )
    elif op == OP_PROTECT:
        state.protect[ctrl] = True
        if not state.quiet:
            events.append({"type": "protect", "seat": ctrl, "card": name})
    elif op == OP_COUNTER:
        seat, slot = find_bot(state, src)
        if seat >= 0:
            state.field[seat][slot].counters += step.n
            if not state.quiet:
                events.append(
                    {
                        "type": "counter",
                        "seat": ctrl,
                        "card": name,
                        "counters": state.field[seat][slot].counters,
                    }
                )
    elif op == OP_WIN_IF_COUNTERS:
        seat, slot = find_bot(state, src)
        if seat >= 0 and state.field[seat][slot].counters >= step.n:
            if not state.quiet:
                events.append(
                    {
                        "type": "win_condition",
                        "seat": ctrl,
                        "card": name,
                        "counters": state.field[seat][slot].counters,
                    }
                )
            end_duel(state, ctrl, f"win condition ({name})", events)
    else:  # pragma: no cover - content validation keeps continuous ops out of frames
        raise AssertionError(f"op {op.name} cannot resolve")


def effect_kind(state: IotabotsState, card: int, eff: int) -> EffectKind:
    return state.game.cards[card].effects[eff].kind
