"""The Iotabots forward model: duels, turn flow, battle (IB-1 .. IB-7), legal actions, apply.

Functions over the plain data of `state.IotabotsState`; no I/O. Card effects are interpreted by
`effects.py`; the moves both share (draw, a duel's end, Bots in and out) are in `board.py`.
`IotabotsGame.rules` is this module: the state reaches it there. Rule numbers refer to
docs/rules/iotabots.md.
"""

from __future__ import annotations

from robotable.core.protocol import Action

try:
    import cython
except ImportError:  # no Cython: its declarations do nothing
    from robotable.core import cython_shim as cython

from . import effects
from .actions import (
    LIFE_POINTS,
    Activate,
    Attack,
    ChooseCard,
    ChooseOrder,
    EndBattle,
    EndTurn,
    EnterBattle,
    Mulligan,
    PlayBuzz,
    Summon,
)
from .board import check_life, draw, end_duel, leave_hand, new_bot, remove_bot
from .content import (
    TYPE_TOKEN,
    WHEN_AFTER_DAMAGE,
    WHEN_ON_BATTLE_DESTROYED,
    WHEN_ON_STANDBY,
    WHEN_ON_SUMMON,
    ZONE_SIZE,
)
from .effects import (
    BUZZ_SOURCE,
    attackable,
    can_activate,
    direct_attack_allowed,
    options_for,
    push,
    push_triggers,
    resolve,
    resume,
    stats,
)
from .state import (
    BATTLE,
    DRAW,
    END,
    MAIN1,
    MAIN2,
    MULLIGAN,
    ORDER,
    Bot,
    IotabotsState,
    IotabotsTables,
    mulligan_seat,
)

START_LIFE = 20
HAND_SIZE = 3
HAND_LIMIT = 5
MANA_CAP = 6
MAX_MULLIGANS = 2


# -- duel (IB-3) ------------------------------------------------------------------------------


@cython.locals(state=IotabotsState, seat=cython.long)
def opening_hand(state: IotabotsState, seat: int) -> int:
    """IB-3.1: 3 cards; IB-4.8 ruling (second_player_bonus=card or both): one more for the second
    player."""
    bonus = seat != state.first and state.game.options["second_player_bonus"] in ("card", "both")
    return HAND_SIZE + 1 if bonus else HAND_SIZE


@cython.locals(state=IotabotsState, first=cython.long, s=cython.long)
def start_duel(state: IotabotsState, first: int, events: list[dict]) -> None:
    """IB-3.1: both decks shuffled, 20 Life Points, 3 cards each; then the mulligans."""
    g = state.game
    state.first = first
    state.firsts.append(first)
    state.active = first
    state.turn = 0
    for s in (0, 1):
        deck = list(g.decks[s])
        state.rng.shuffle(deck)
        state.deck[s] = deck
        state.hand[s] = []
        state.known[s] = []
        state.junk[s] = []
        state.field[s] = []
        state.life[s] = START_LIFE
        state.mana[s] = 0
        state.mana_max[s] = 0
        state.mulligans[s] = 0
        state.protect[s] = False
    state.kept = [False, False]
    state.resolving = -1
    state.frames = []
    state.choice = None
    if not state.quiet:
        events.append({"type": "duel_start", "duel": len(state.results) + 1, "first": first})
    for s in (0, 1):
        draw(state, s, opening_hand(state, s), events)
    state.phase = MULLIGAN


# -- turn flow (IB-4) -------------------------------------------------------------------------


@cython.locals(state=IotabotsState, a=cython.long, b=Bot)
def begin_turn(state: IotabotsState, events: list[dict]) -> None:
    """Draw Phase, Standby Phase, then Main Phase 1 (IB-4.1 .. IB-4.3)."""
    a = state.active
    state.phase = MAIN1
    # "protect_ends": Bot Protect ends in this Standby Phase; "mana" (set below): the refilled pool
    if not state.quiet:
        turn_event = {
            "type": "turn",
            "seat": a,
            "turn": state.turn,
            "protect_ends": state.protect[a],
        }
        events.append(turn_event)
    # IB-4.1 ruling: the starting player draws on turn 1 too (option first_turn_draw)
    draws = state.turn > 1 or state.game.options["first_turn_draw"]
    if draws and not draw(state, a, 1, events):
        return
    # Standby: mana grows by 1 up to 6 and is refilled; Bot Protect ends; per-turn counts reset
    state.mana_max[a] = min(MANA_CAP, state.mana_max[a] + 1)
    state.mana[a] = state.mana_max[a]
    if state.turn == 2 and state.game.options["second_player_bonus"] in ("mana", "both"):
        # IB-4.8 ruling: the second player's first pool holds one more mana, for that turn only.
        state.mana[a] += 1
        if not state.quiet:
            turn_event["going_second"] = True
    if not state.quiet:
        turn_event["mana"] = state.mana[a]
    state.protect[a] = False
    for b in state.field[a]:
        b.attacks = 0
        b.used = False
    triggers = state.game.triggers
    entries = [
        (b.card, eff, a, b.uid, -1)
        for b in state.field[a]
        for eff in triggers[b.card][WHEN_ON_STANDBY]
    ]
    if entries:
        push_triggers(state, entries)
        resolve(state, events)


@cython.locals(state=IotabotsState)
def end_turn(state: IotabotsState, events: list[dict]) -> None:
    """End Phase (IB-4.6): discard to 5 (a decision), then mana to 0, end-of-turn effects end."""
    state.phase = END
    if len(state.hand[state.active]) <= HAND_LIMIT:
        finish_turn(state, events)


@cython.locals(
    state=IotabotsState,
    a=cython.long,
    f=list,
    b=Bot,
    field=list,
    keep=list,
    back=list,
    home=cython.long,
    controlled=cython.bint,
)
def finish_turn(state: IotabotsState, events: list[dict]) -> None:
    a = state.active
    state.mana[a] = 0
    for f in state.field:
        for b in f:
            b.atk_mod = 0
            b.def_mod = 0
    # IB-8.7: control "until the end of the turn" ends; the Bot goes back to the zone it came
    # from, or to its owner's Junk Zone when that zone is full.
    field = state.field[a]
    # (A loop, not any(...) over a generator: compiled, a generator cannot read C-typed locals.)
    controlled = False
    for b in field:
        if b.home >= 0:
            controlled = True
            break
    if controlled:
        keep = []
        back = []
        for b in field:
            if b.home < 0:
                keep.append(b)
            else:
                back.append(b)
        state.field[a] = keep
        for b in back:
            home = b.home
            b.home = -1
            b.may_attack = False
            b.entered = state.turn
            if home == a:
                keep.append(b)
                where = "zone"
            elif len(state.field[home]) < ZONE_SIZE:
                state.field[home].append(b)
                where = "zone"
            elif state.game.cards[b.card].type != TYPE_TOKEN:
                state.junk[b.owner].append(b.card)
                where = "junk"
            else:
                where = "gone"
            if not state.quiet:
                events.append(
                    {
                        "type": "control_ends",
                        "seat": home,
                        "card": state.game.names[b.card],
                        "controller": a,
                        "owner": b.owner,
                        "where": where,  # back in a Bot Zone, in the owner's Junk Zone, or gone
                    }
                )
    for b in field:
        b.may_attack = False
    state.active = 1 - a
    state.turn += 1
    state.total_turns += 1
    if state.turn > state.game.options["max_turns"]:
        end_duel(state, DRAW, "turn cap", events)  # IB-4.7 ruling
        return
    begin_turn(state, events)


# -- legal actions ----------------------------------------------------------------------------


@cython.locals(state=IotabotsState, bot=Bot)
def can_attack(state: IotabotsState, bot: Bot) -> bool:
    """IB-6.3: not on the turn it arrived (unless its effect says so); its attacks per turn."""
    return (bot.entered < state.turn or bot.may_attack) and bot.attacks < state.game.attacks_of[
        bot.card
    ]


@cython.locals(
    state=IotabotsState, a=cython.long, o=cython.long, targets=list, slot=cython.Py_ssize_t, b=Bot
)
def attack_targets(state: IotabotsState) -> list[int]:
    a = state.active
    o = 1 - a
    targets = []
    for slot, b in enumerate(state.field[o]):
        if attackable(state, o, b):
            targets.append(slot)
    if direct_attack_allowed(state, o):
        targets.append(LIFE_POINTS)
    return targets


@cython.locals(
    state=IotabotsState,
    g=IotabotsTables,
    out=list,
    targets=list,
    cache=list,
    row=list,
    slot=cython.Py_ssize_t,
    b=Bot,
    s=cython.long,
)
def legal_actions(state: IotabotsState) -> list[Action]:
    g = state.game
    phase = state.phase
    if state.choice is not None:
        return list(options_for(state))
    if phase in (MAIN1, MAIN2):
        return main_actions(state)
    if phase == BATTLE:
        out: list[Action] = []
        targets = attack_targets(state)
        if targets:
            cache = g.attack_actions
            for slot, b in enumerate(state.field[state.active]):
                if can_attack(state, b):
                    row = cache[slot]
                    out.extend([row[t] for t in targets])
        out.append(g.end_battle)
        return out
    if phase == END:
        return list(effects.card_options(state, state.active, 1))
    if phase == ORDER:
        return [g.order_actions[1], g.order_actions[0]]
    if phase == MULLIGAN:
        s = mulligan_seat(state)
        if state.mulligans[s] < MAX_MULLIGANS:
            return [g.mulligan_actions[0], g.mulligan_actions[1]]
        return [g.mulligan_actions[0]]
    return []


@cython.locals(
    state=IotabotsState,
    g=IotabotsTables,
    a=cython.long,
    mana=cython.long,
    card_mana=list,
    is_buzz=list,
    out=list,
    room=cython.bint,
    c=cython.long,
    ignition=list,
    slot=cython.Py_ssize_t,
    b=Bot,
    eff=cython.long,
    attacker=cython.bint,
)
def main_actions(state: IotabotsState) -> list[Action]:
    g = state.game
    a = state.active
    mana = state.mana[a]
    card_mana = g.card_mana
    is_buzz = g.card_is_buzz
    out: list[Action] = []
    room = len(state.field[a]) < ZONE_SIZE
    for c in dict.fromkeys(state.hand[a]):  # distinct cards, in hand order
        if card_mana[c] > mana:
            continue
        if is_buzz[c]:
            if g.buzz_free[c] or can_activate(state, a, c, 0, BUZZ_SOURCE, True):
                out.append(g.play_actions[c])
        elif room:
            out.append(g.summon_actions[c])
    ignition = g.ignition
    for slot, b in enumerate(state.field[a]):
        eff = ignition[b.card]
        if eff >= 0 and not b.used and can_activate(state, a, b.card, eff, b.uid, False):
            out.append(g.activate_actions[slot])
    # IB-6.1: the starting player has no Battle Phase on the first turn; offered only when
    # some Bot could attack, since an empty Battle Phase changes nothing.
    if state.phase == MAIN1 and state.turn > 1:
        # (A loop, not any(...) over a generator: compiled, a generator cannot read C-typed
        # locals.)
        attacker = False
        for b in state.field[a]:
            if can_attack(state, b):
                attacker = True
                break
        if attacker and attack_targets(state):
            out.append(g.enter_battle)
    out.append(g.end_turn)
    return out


# -- applying actions -------------------------------------------------------------------------


@cython.locals(
    state=IotabotsState,
    g=IotabotsTables,
    a=cython.long,
    c=cython.long,
    bot=Bot,
    other=Bot,
    atk=cython.long,
    dfn=cython.long,
    s=cython.long,
)
def apply_action(state: IotabotsState, action: Action) -> list[dict]:
    events: list[dict] = []
    g = state.game
    a = state.active
    kind = type(action)
    if state.choice is not None:
        resume(state, action, events)
    elif kind is Summon:
        c = g.by_name[action.card]
        leave_hand(state, a, c)
        state.mana[a] -= g.cards[c].mana
        bot = new_bot(state, c, a)
        state.field[a].append(bot)
        # its stats as it arrives (for the narration): printed, unless a continuous effect of
        # its own or of another Bot on its side changes them
        atk, dfn = g.base_atk[c], g.base_def[c]
        if g.static_self[c]:
            atk, dfn = stats(state, a, bot)
        elif g.has_aura:
            aura = g.aura
            for other in state.field[a]:
                if aura[other.card]:
                    atk, dfn = stats(state, a, bot)
                    break
        if not state.quiet:
            events.append(
                {
                    "type": "summon",
                    "seat": a,
                    "card": action.card,
                    "mana": g.cards[c].mana,
                    "atk": atk,
                    "def": dfn,
                }
            )
        entries = [(c, eff, a, bot.uid, -1) for eff in g.triggers[c][WHEN_ON_SUMMON]]
        if entries:
            push_triggers(state, entries)
            resolve(state, events)
    elif kind is PlayBuzz:
        c = g.by_name[action.card]
        leave_hand(state, a, c)
        state.mana[a] -= g.cards[c].mana
        state.resolving = c
        if not state.quiet:
            events.append(
                {"type": "play_buzz", "seat": a, "card": action.card, "mana": g.cards[c].mana}
            )
        push(state, c, 0, a, BUZZ_SOURCE)
        resolve(state, events)
    elif kind is Activate:
        bot = state.field[a][action.slot]
        bot.used = True
        if not state.quiet:
            events.append({"type": "activate", "seat": a, "card": g.names[bot.card]})
        push(state, bot.card, g.ignition[bot.card], a, bot.uid)
        resolve(state, events)
    elif kind is Attack:
        battle(state, action.slot, action.target, events)
    elif kind is EnterBattle:
        state.phase = BATTLE
        if not state.quiet:
            events.append({"type": "battle_phase", "seat": a})
    elif kind is EndBattle:
        state.phase = MAIN2
        if not state.quiet:
            events.append({"type": "main_phase_2", "seat": a})
    elif kind is EndTurn:
        if not state.quiet:
            events.append({"type": "end_turn", "seat": a})
        end_turn(state, events)
    elif kind is ChooseCard:  # End Phase discard (IB-4.6)
        c = g.by_name[action.card]
        leave_hand(state, a, c)
        state.junk[a].append(c)
        if not state.quiet:
            events.append({"type": "discard", "seat": a, "card": action.card, "by": "hand limit"})
        if len(state.hand[a]) <= HAND_LIMIT:
            finish_turn(state, events)
    elif kind is ChooseOrder:
        first = state.chooser if action.go_first else 1 - state.chooser
        if not state.quiet:
            events.append(
                {
                    "type": "choose_order",
                    "seat": state.chooser,
                    "go_first": action.go_first,
                    "duel": len(state.results) + 1,
                    # why this seat chooses (IB-1.3): the first coin toss, a re-toss after a drawn
                    # duel (its own coin_toss event), or the loss of the previous duel
                    "why": "coin toss"
                    if not state.results
                    else ("retoss" if state.results[-1] == DRAW else "lost"),
                }
            )
        start_duel(state, first, events)
    elif kind is Mulligan:
        s = mulligan_seat(state)
        if action.redraw:
            state.mulligans[s] += 1
            state.deck[s].extend(state.hand[s])
            state.hand[s] = []
            state.rng.shuffle(state.deck[s])
            hand_size = opening_hand(state, s)
            if not state.quiet:
                events.append(
                    {
                        "type": "mulligan",
                        "seat": s,
                        "count": state.mulligans[s],
                        "hand_size": hand_size,
                    }
                )
            draw(state, s, hand_size, events)
            if state.mulligans[s] >= MAX_MULLIGANS:
                state.kept[s] = True  # IB-3.2: after two mulligans the hand is kept
        else:
            state.kept[s] = True
            if not state.quiet:
                events.append({"type": "keep", "seat": s})
        if state.kept[0] and state.kept[1]:
            state.turn = 1
            state.total_turns += 1
            begin_turn(state, events)
    else:  # pragma: no cover - apply_action only passes legal actions
        raise AssertionError(f"unexpected action {action}")
    return events


@cython.locals(
    state=IotabotsState,
    g=IotabotsTables,
    slot=cython.long,
    target=cython.long,
    a=cython.long,
    o=cython.long,
    attacker=Bot,
    defender=Bot,
    att_atk=cython.long,
    att_def=cython.long,
    def_atk=cython.long,
    def_def=cython.long,
    d_def=cython.long,
    d_att=cython.long,
    gone=cython.bint,
)
def battle(state: IotabotsState, slot: int, target: int, events: list[dict]) -> None:
    """Battle and Damage Steps (IB-6.2 .. IB-6.4)."""
    g = state.game
    a = state.active
    o = 1 - a
    attacker = state.field[a][slot]
    attacker.attacks += 1
    att_atk, att_def = stats(state, a, attacker)
    name = g.names[attacker.card]
    if target == LIFE_POINTS:
        state.life[o] -= att_atk
        if not state.quiet:
            events.append(
                {
                    "type": "attack",
                    "seat": a,
                    "card": name,
                    "target": "life points",
                    "damage": att_atk,
                    "owner": attacker.owner,
                    "life": state.life[:],
                }
            )
        if check_life(state, "life points", events):
            return
        entries = [
            (attacker.card, eff, a, attacker.uid, -1)
            for eff in g.triggers[attacker.card][WHEN_AFTER_DAMAGE]
        ]
        if entries:
            push_triggers(state, entries)
            resolve(state, events)
        return
    defender = state.field[o][target]
    def_atk, def_def = stats(state, o, defender)
    # IB-6.4: both differences at once; <= 0 destroys, a negative one also costs Life Points
    d_def = def_def - att_atk
    d_att = att_def - def_atk
    if not state.quiet:
        events.append(
            {
                "type": "attack",
                "seat": a,
                "card": name,
                "target": g.names[defender.card],
                "defender_diff": d_def,
                "attacker_diff": d_att,
                "owner": attacker.owner,
                "target_owner": defender.owner,
                "atk": att_atk,
                "def": att_def,
                "target_atk": def_atk,
                "target_def": def_def,
            }
        )
    if d_def < 0:
        state.life[o] += d_def
    if d_att < 0:
        state.life[a] += d_att
    if not state.quiet:
        events[-1]["life"] = state.life[:]
    destroyed = []
    if d_def <= 0:
        destroyed.append((o, defender))
    if d_att <= 0:
        destroyed.append((a, attacker))
    for seat, bot in destroyed:
        remove_bot(state, seat, state.field[seat].index(bot))
        if not state.quiet:
            events.append(
                {
                    "type": "destroyed_in_battle",
                    "seat": seat,
                    "card": g.names[bot.card],
                    "owner": bot.owner,
                }
            )
    if check_life(state, "battle damage", events):
        return
    # Triggers right after damage calculation, the turn player's first (IB-8.5)
    entries = []
    for seat, bot, other in ((a, attacker, defender), (o, defender, attacker)):
        gone = d_att <= 0 if bot is attacker else d_def <= 0
        trig = g.triggers[bot.card]
        # (Indexed in each branch: a `when` variable as the index crashes Cython 3.3's compiler.)
        for eff in trig[WHEN_ON_BATTLE_DESTROYED] if gone else trig[WHEN_AFTER_DAMAGE]:
            entries.append((bot.card, eff, seat, bot.uid, other.uid))
    if entries:
        push_triggers(state, entries)
        resolve(state, events)
