"""The forward model: setup, legal actions, the Build Phase, the automatic Battle Phase.

Rule numbers (RB-x.y) refer to docs/rules/rumblebots.md. The battle runs by itself inside
`advance_battle` and stops only at a pending decision (faction, Contraption, target) or its end.
Card abilities and the helpers they share with this module are in effects.py. A state reaches
`legal_actions` and `apply_action` through its game (`RumblebotsGame.rules`, taken when the state
is built): state.py cannot import this.
"""

from __future__ import annotations

from typing import Any

from robotable.core.protocol import Action
from robotable.core.rng import GameRng

from .actions import (
    BuildLab,
    BuildScanned,
    ChooseFaction,
    ChooseTarget,
    EndTurn,
    EnergizeCryo,
    EnergizeScan,
    EnergizeScrap,
    PassContraption,
    Recycle,
    Upgrade,
    UseContraption,
)
from .content import (
    CHALLENGER_CONTRAPTION,
    CHAMPION_CONTRAPTION,
    EF_DEFEAT_DEFENDER,
    EF_REVIVE,
    FACTION_BIT,
    FACTIONS,
    KW_CRYSTALS,
    KW_ENTER,
    KW_REBOOT,
    KW_RIPENING,
    KW_TRANSFORMATION,
    Effect,
)
from .effects import (
    beats,
    check_dominance,
    clash_numbers,
    create_crystals,
    distinct_names,
    finish,
    first_named,
    reboot,
    refill_defense,
    resolve_target,
    reveal_effect,
)
from .state import (
    BATTLE,
    BUILD,
    OVER,
    P_ATTACK_WINDOW,
    P_DEFEND_WINDOW,
    P_FACTION,
    P_TARGET_DEFEAT,
    ROW_SIZE,
    SHOWDOWN,
    SRC_BOT,
    SRC_CONTRAPTION,
    SRC_REBOOT,
    RumblebotsState,
)

try:
    import cython
except ImportError:  # no Cython: its declarations do nothing
    from robotable.core import cython_shim as cython

UPGRADE_COST = 3
MAX_TIER = 4
SCAN_SIZE = 2

# Battle steps (the `bstep` field: where the automaton resumes after a decision).
BS_NEXT, BS_REVEAL, BS_CHECK, BS_ATTACK, BS_DEFEND, BS_WIN = range(6)

_END_TURN = EndTurn()
_UPGRADE = Upgrade()
_ENERGIZE_SCRAP = EnergizeScrap()
_ENERGIZE_CRYO = EnergizeCryo()
_PASS = PassContraption()
_SCANS = (None, EnergizeScan(1), EnergizeScan(2), EnergizeScan(3), EnergizeScan(4))
_FACTION_ACTS = {f: ChooseFaction(f) for f in FACTIONS}
_NAMED: dict[tuple[type, str], Action] = {}
_LAB_ACTS: dict[tuple[int, int, str], Action] = {}


def named(cls: type, name: str) -> Action:
    """Shared action objects: building frozen dataclasses is the slow part of legal_actions."""
    key = (cls, name)
    act = _NAMED.get(key)
    if act is None:
        act = _NAMED[key] = cls(name)
    return act


def lab_action(tier: int, slot: int, name: str) -> Action:
    key = (tier, slot, name)
    act = _LAB_ACTS.get(key)
    if act is None:
        act = _LAB_ACTS[key] = BuildLab(tier, slot, name)
    return act


# ----------------------------------------------------------------------------- setup / rounds
@cython.locals(s=RumblebotsState)
def setup(s: RumblebotsState, seed: int) -> list:
    """RB-2: starters dealt, tier decks shuffled, crystals on the round spaces, the Champion
    token drawn (or given), its Cryo-cell crystals (RB-2.5), the tier 1 row revealed; then round 1
    begins. Returns the events."""
    game = s.game
    content = game.content
    opts = game.options
    n = game.num_players
    s.rng = GameRng(seed)
    first = opts["first_champion"]
    s.champion = s.rng.below(n) if first < 0 else first
    s.first_champion = s.champion
    for copies in content.starters:
        for i, cid in enumerate(copies):
            if i < n:
                s.collection[i].append(cid)
            else:
                s.reserve.append(cid)
    for t in range(1, 5):
        deck = list(content.tier_decks[t])
        s.rng.shuffle(deck)
        s.decks[t] = deck
    s.transform_deck = list(content.transformation)
    s.spaces = list(opts["round_crystals"])
    s.supply = opts["total_crystals"] - sum(s.spaces)
    ev: list = []
    # RB-2.5 ruling: crystals the first Champion may start with in its Cryo-cell, none by
    # default since `hard` searches by its values (docs/rules/rumblebots.md). -1 is the earlier
    # default, two in a two-seat game, kept so that the records made with it replay.
    bonus = opts["first_champion_cryo"]
    if bonus < 0:
        bonus = 2 if n == 2 else 0
    bonus = min(bonus, s.supply)
    if bonus:
        s.supply -= bonus
        s.cryo[s.champion] += bonus
        if not s.quiet:
            ev.append(
                {
                    "type": "crystals_gained",
                    "seat": s.champion,
                    "count": bonus,
                    "from": "first champion",
                    "total": bonus,
                }
            )
    reveal_row(s, 1, ev)
    start_round(s, ev)
    return ev


@cython.locals(s=RumblebotsState, n=cython.long, i=cython.long)
def start_round(s: RumblebotsState, ev: list) -> None:
    """RB-3.1/3.2: the Champion-token holder starts; odd rounds clockwise, even counter."""
    s.direction = 1 if s.round % 2 == 1 else -1
    n = s.game.num_players
    s.order = [(s.champion + s.direction * i) % n for i in range(n)]
    s.turn_pos = 0
    s.phase = BUILD
    if not s.quiet:
        ev.append({"type": "round_started", "round": s.round, "order": list(s.order)})
    begin_turn(s, ev)


@cython.locals(s=RumblebotsState)
def crystals_of(s: RumblebotsState, seat: int) -> int:
    """RB-6.1: a player's crystals are Storage + Reactor + Cryo-cell."""
    return s.storage[seat] + s.reactor[seat] + s.cryo[seat]


def paid_in_round(extra: Any, number: int) -> int:
    """RB-2.5: a head start's scraps in round `number` (from 1); none past the list's end."""
    return extra[number - 1] if number <= len(extra) else 0


@cython.locals(
    s=RumblebotsState,
    seat=cython.long,
    income=cython.long,
    top=cython.long,
    p=cython.long,
    beside=cython.long,
    head_start=cython.long,
    neighbour=cython.long,
)
def begin_turn(s: RumblebotsState, ev: list) -> None:
    """RB-4.1 income: scraps = the round number (6 in the Showdown), +1 underdog from round 2."""
    seat = s.order[s.turn_pos]
    s.turns += 1
    income = s.round
    underdog = False
    if s.round >= 2:
        # the most crystals of any seat, by a loop: a generator cannot read C locals
        top = crystals_of(s, 0)
        for p in range(1, s.game.num_players):
            top = max(top, crystals_of(s, p))
        if top - crystals_of(s, seat) >= 2:
            income += 1
            underdog = True
    # RB-2.5: a head start, round by round, for the first Champion, for the other seats, and
    # for the two seats beside the first Champion (the next and the previous in seat order)
    if seat == s.first_champion:
        extra = s.game.options["first_champion_scraps"]
    else:
        extra = s.game.options["first_challengers_scraps"]
    head_start = paid_in_round(extra, s.round)
    beside = (seat - s.first_champion) % s.game.num_players
    neighbour = 0
    if beside == 1 or beside == s.game.num_players - 1:
        neighbour = paid_in_round(s.game.options["first_neighbours_scraps"], s.round)
    income += head_start + neighbour
    s.scraps[seat] = income
    s.builds = s.upgrades = s.energizes = 0
    if not s.quiet:
        ev.append({"type": "income", "seat": seat, "scraps": income, "underdog": underdog})
        if head_start:
            ev[-1]["head_start"] = head_start
            if seat != s.first_champion:
                ev[-1]["first_challenger"] = True
        if neighbour:
            ev[-1]["beside_first_champion"] = neighbour


@cython.locals(s=RumblebotsState, seat=cython.long, t=cython.long, hand=list, group=list)
def end_turn(s: RumblebotsState, ev: list) -> None:
    """RB-4.7 clean-up: scanned cards under their decks in random order, new bots join the
    collection, scraps back to 0; then the next seat, or the battle."""
    seat = s.order[s.turn_pos]
    cards = s.game.cards
    hand = s.hand[seat]
    if hand:
        for t in range(1, 5):
            group = [c for c in hand if cards[c].tier == t]
            if group:
                s.rng.shuffle(group)
                s.decks[t][0:0] = group
                if not s.quiet:
                    ev.append(
                        {"type": "scan_returned", "seat": seat, "tier": t, "count": len(group)}
                    )
        s.hand[seat] = []
    s.collection[seat].extend(s.fresh[seat])
    s.fresh[seat] = []
    unspent = s.scraps[seat]
    s.scraps[seat] = 0
    if not s.quiet:
        ev.append({"type": "build_ended", "seat": seat, "unspent": unspent})
    s.turn_pos += 1
    if s.turn_pos < len(s.order):
        begin_turn(s, ev)
    else:
        start_battle(s, ev)


# ----------------------------------------------------------------------------- build phase
def card_tables(content: Any) -> tuple:
    """Per card id: cost, name, whether it fights (not a Contraption), its recycle and
    build-from-hand actions, its Laboratory builds by tier and slot (filled as first met), and
    a number the cards of one name share (the first such card's id).
    Built once per game, which holds them (`game.tables`): build_legal runs for every
    decision of the build phase, and reading the card definitions there was most of its cost."""
    cards = content.cards
    first_of: dict[str, int] = {}
    return (
        [d.cost for d in cards],
        [d.name for d in cards],
        [not d.contraption for d in cards],
        [named(Recycle, d.name) for d in cards],
        [named(BuildScanned, d.name) for d in cards],
        [[None] * (5 * ROW_SIZE) for _ in cards],
        [first_of.setdefault(d.name, i) for i, d in enumerate(cards)],  # same name, same number
    )


@cython.locals(given=cython.Py_ssize_t, i=cython.Py_ssize_t)
def _append_once(acts: list, given: int, act: Action) -> None:
    """Append `act` unless it is already among `acts[given:]` (by identity: the cards of one
    name share their action object)."""
    for i in range(given, len(acts)):
        if acts[i] is act:
            return
    acts.append(act)


@cython.locals(
    s=RumblebotsState,
    seat=cython.long,
    costs=list,
    names=list,
    fights=list,
    recycles=list,
    scanned=list,
    labs=list,
    same_name=list,
    lab_builds=list,
    row=list,
    showdown=cython.bint,
    sc=cython.long,
    tier=cython.long,
    acts=list,
    t=cython.long,
    slot=cython.long,
    j=cython.long,
    cid=cython.long,
    other=cython.long,
    c=cython.long,
    fighters=cython.long,
    given=cython.Py_ssize_t,
    repeated=cython.bint,
    owned=list,
    fresh=list,
)
def build_legal(s: RumblebotsState) -> list[Action]:
    # Each name is offered once per row, once from the hand and once to recycle. Cards of one
    # name share a number (`same_name`) and their Recycle and BuildScanned actions, so a repeat is
    # found by comparing small ints or by identity among the few actions given so far, not with
    # a set of names built at every decision.
    seat = s.order[s.turn_pos]
    costs, names, fights, recycles, scanned, labs, same_name = s.game.tables
    showdown = s.round == SHOWDOWN
    sc = s.scraps[seat]
    tier = s.tier[seat]
    acts: list[Action] = []
    if s.builds < (3 if showdown else 2):
        for t in range(1, tier + 1):
            row = s.lab[t]
            for slot in range(len(row)):
                cid = row[slot]
                if cid >= 0 and costs[cid] <= sc:
                    repeated = False
                    for j in range(slot):
                        other = row[j]
                        if other >= 0 and costs[other] <= sc and same_name[other] == same_name[cid]:
                            repeated = True
                            break
                    if not repeated:
                        lab_builds = labs[cid]  # this card's BuildLab actions, by tier and slot
                        act = lab_builds[t * ROW_SIZE + slot]
                        if act is None:
                            act = lab_builds[t * ROW_SIZE + slot] = lab_action(t, slot, names[cid])
                        acts.append(act)
        given = len(acts)
        for cid in s.hand[seat]:
            if costs[cid] <= sc:
                _append_once(acts, given, scanned[cid])
    owned = s.collection[seat]
    fresh = s.fresh[seat]
    if len(owned) + len(fresh) > 1:
        fighters = 0
        for c in owned:
            if fights[c]:
                fighters += 1
        for c in fresh:
            if fights[c]:
                fighters += 1
        given = len(acts)
        for cid in owned:
            # RB-4.4: never the only bot, never leave a deck of only Contraptions
            if fighters >= 2 or not fights[cid]:
                _append_once(acts, given, recycles[cid])
    if (showdown or s.upgrades == 0) and tier < MAX_TIER and sc >= UPGRADE_COST:
        acts.append(_UPGRADE)
    if (showdown or s.energizes < 3) and s.storage[seat] > 0:
        acts.append(_ENERGIZE_SCRAP)
        for t in range(1, tier + 1):
            if s.decks[t]:
                acts.append(_SCANS[t])
    if showdown and s.cryo[seat] > 0:
        acts.append(_ENERGIZE_CRYO)
    acts.append(_END_TURN)
    return acts


@cython.locals(s=RumblebotsState, slot=cython.long)
def reveal_row(s: RumblebotsState, tier: int, ev: list) -> None:
    """RB-4.5: the first seat to reach a tier reveals four bots of it."""
    s.lab_open[tier] = True
    deck = s.decks[tier]
    row = s.lab[tier]
    for slot in range(ROW_SIZE):
        row[slot] = deck.pop() if deck else -1
    if not s.quiet:
        names = [s.game.cards[c].name for c in row if c >= 0]
        ev.append({"type": "row_revealed", "tier": tier, "cards": names})


@cython.locals(s=RumblebotsState, seat=cython.long, showdown=cython.bint, gain=cython.long)
def apply_build(s: RumblebotsState, action: Action, ev: list) -> None:
    seat = s.order[s.turn_pos]
    cards = s.game.cards
    kind = action.kind
    showdown = s.round == SHOWDOWN
    if kind == "build_lab":
        row = s.lab[action.tier]
        cid = row[action.slot]
        deck = s.decks[action.tier]
        row[action.slot] = deck.pop() if deck else -1
        _built(s, seat, cid, "laboratory", ev)
        if row[action.slot] >= 0:
            if not s.quiet:
                ev.append(
                    {
                        "type": "lab_refilled",
                        "tier": action.tier,
                        "slot": action.slot,
                        "card": cards[row[action.slot]].name,
                        "cost": cards[row[action.slot]].cost,
                    }
                )
        else:
            if not s.quiet:
                ev.append({"type": "lab_emptied", "tier": action.tier, "slot": action.slot})
    elif kind == "build_scanned":
        hand = s.hand[seat]
        cid = first_named(hand, s.game.tables[1], action.name)
        hand.remove(cid)
        _built(s, seat, cid, "hand", ev)
    elif kind == "recycle":
        owned = s.collection[seat]
        cid = first_named(owned, s.game.tables[1], action.name)
        owned.remove(cid)
        d = cards[cid]
        gain = d.scrap + (s.tier[seat] if d.keyword is KW_RIPENING else 0)
        s.scraps[seat] += gain
        s.recycled.append(cid)
        if not s.quiet:
            ev.append({"type": "recycled", "seat": seat, "card": d.name, "scraps": gain})
    elif kind == "upgrade":
        s.scraps[seat] -= UPGRADE_COST
        s.tier[seat] += 1
        s.upgrades += 1
        t = s.tier[seat]
        if not s.quiet:
            ev.append({"type": "workshop_upgraded", "seat": seat, "tier": t})
        if not s.lab_open[t]:
            reveal_row(s, t, ev)
    elif kind == "energize_scrap":
        s.storage[seat] -= 1
        s.reactor[seat] += 1
        s.energizes += 1
        gain = 2 if showdown else 1
        s.scraps[seat] += gain
        if not s.quiet:
            ev.append({"type": "energized", "seat": seat, "from": "storage", "scraps": gain})
    elif kind == "energize_scan":
        s.storage[seat] -= 1
        s.reactor[seat] += 1
        s.energizes += 1
        deck = s.decks[action.tier]
        drawn = [deck.pop() for _ in range(min(SCAN_SIZE, len(deck)))]
        s.hand[seat].extend(drawn)
        if not s.quiet:
            ev.append(
                {
                    "type": "energized",
                    "seat": seat,
                    "from": "storage",
                    "scan": action.tier,
                    "count": len(drawn),
                }
            )
        if not s.quiet:
            ev.append(
                {
                    "type": "scanned",
                    "seat": seat,
                    "tier": action.tier,
                    "to": [seat],
                    "cards": [cards[c].name for c in drawn],
                }
            )
    elif kind == "energize_cryo":
        s.cryo[seat] -= 1
        s.reactor[seat] += 1
        s.energizes += 1
        s.scraps[seat] += 1
        if not s.quiet:
            ev.append({"type": "energized", "seat": seat, "from": "cryo", "scraps": 1})
    else:  # end_turn
        end_turn(s, ev)


@cython.locals(s=RumblebotsState)
def _built(s: RumblebotsState, seat: int, cid: int, source: str, ev: list) -> None:
    d = s.game.cards[cid]
    s.scraps[seat] -= d.cost
    s.builds += 1
    s.fresh[seat].append(cid)
    if not s.quiet:
        ev.append(
            {
                "type": "built",
                "seat": seat,
                "card": d.name,
                "from": source,
                "cost": d.cost,
                "tier": d.tier,
                "factions": list(d.factions),
                "attack": d.attack,
                "crits": d.crits,
                "defense": d.defense,
                "barriers": d.barriers,
                "contraption": d.contraption,
            }
        )


# ----------------------------------------------------------------------------- battle phase
@cython.locals(s=RumblebotsState, n=cython.long, p=cython.long)
def start_battle(s: RumblebotsState, ev: list) -> None:
    """RB-5.1: every seat shuffles its bots (not Contraptions) into a battle deck; the Champion
    reveals the top bot as the first defense gang (no Enter on defense, ruling RB-5.9)."""
    s.phase = BATTLE
    n = s.game.num_players
    cards = s.game.cards
    s.battle_no += 1
    s.log = None
    s.add_log(("battle", s.round, s.champion))
    for p in range(n):
        deck = [c for c in s.collection[p] if not cards[c].contraption]
        s.rng.shuffle(deck)
        s.bdeck[p] = deck
        s.known_top[p] = s.known_bottom[p] = 0
        s.discard[p] = []
        s.used[p] = []
        s.active[p] = True
    s.attack = []
    s.defense = []
    s.challenger = -1
    s.last_challenger = s.champion
    s.reveals = 0
    s.forced = False
    if not s.quiet:
        ev.append({"type": "battle_started", "round": s.round, "champion": s.champion})
    refill_defense(s, ev)
    s.bstep = BS_NEXT
    advance_battle(s, ev)


@cython.locals(s=RumblebotsState, n=cython.long, p=cython.long, active=list)
def _next_active(s: RumblebotsState, after: int) -> int:
    n = s.game.num_players
    p = after
    active = s.active
    for _ in range(n):
        p = (p + s.direction) % n
        if active[p] and p != s.champion:
            return p
    return -1


@cython.locals(s=RumblebotsState)
def _surrender(
    s: RumblebotsState, seat: int, why: str, ev: list, discarded: list[str] | None = None
) -> None:
    """RB-5.7: out of this Battle Phase. `why`: "failed" (ran out of bots without breaking the
    defense), "no_bots" (an empty deck when called to challenge), "lost_title" (a fallen
    Champion with an empty deck); `discarded`: the attacking bots a failed Challenger loses."""
    s.active[seat] = False
    s.add_log(("surrender", seat))
    if not s.quiet:
        ev.append({"type": "surrendered", "seat": seat, "why": why, "discarded": discarded or []})


@cython.locals(
    s=RumblebotsState,
    step=cython.long,
    ch=cython.long,
    cid=cython.long,
    deck=list,
    atk=cython.long,
    crit=cython.long,
    dfn=cython.long,
    bar=cython.long,
    thr=cython.long,
    wins=cython.bint,
)
def advance_battle(s: RumblebotsState, ev: list) -> None:
    """Run the battle until a decision is needed or the battle (or game) ends."""
    cards = s.game.cards
    while not s.pending and s.phase == BATTLE:
        step = s.bstep
        if step == BS_NEXT:
            if sum(s.active) == 1:
                end_battle(s, ev)
                return
            ch = _next_active(s, s.last_challenger)
            s.challenger = ch
            s.attack = []
            s.atk_mod = s.crit_mod = s.def_mod = s.bar_mod = 0
            s.reboots = 0
            s.forced = False
            s.offered = False
            s.clashes += 1
            s.add_log(("clash", ch, s.champion))
            if not s.quiet:
                ev.append({"type": "clash_started", "challenger": ch, "champion": s.champion})
            if not s.bdeck[ch]:
                # ruling RB-5.7: an empty deck when called to challenge surrenders at once
                _surrender(s, ch, "no_bots", ev)
                s.last_challenger = ch
                s.challenger = -1
                continue
            if not s.defense:
                refill_defense(s, ev)  # may set forced: the Champion cannot defend
            s.bstep = BS_REVEAL
        elif step == BS_REVEAL:
            ch = s.challenger
            deck = s.bdeck[ch]
            if s.reveals >= s.game.options["battle_reveal_cap"]:
                # ruling RB-5.11: the battle stops; the current Champion wins it
                s.add_log(("cap", s.champion))
                if not s.quiet:
                    ev.append({"type": "battle_capped", "champion": s.champion})
                end_battle(s, ev)
                return
            if len(deck) <= s.reboots:
                # RB-5.5: the challenger failed to break the defense; out of this battle
                lost = [cards[c].name for c in s.attack]
                s.discard[ch].extend(s.attack)
                s.attack = []
                s.add_log(("failed", ch))
                _surrender(s, ch, "failed", ev, lost)
                s.last_challenger = ch
                s.challenger = -1
                s.bstep = BS_NEXT
                continue
            cid = deck.pop()
            if s.known_top[ch]:
                s.known_top[ch] -= 1
            elif s.known_bottom[ch] > len(deck):
                s.known_bottom[ch] = len(deck)
            s.reveals += 1
            s.offered = False
            s.bstep = BS_CHECK
            d = cards[cid]
            if not s.quiet:
                ev.append(
                    {
                        "type": "bot_revealed",
                        "seat": ch,
                        "card": d.name,
                        "attack": d.attack,
                        "crits": d.crits,
                    }
                )
            if d.keyword is KW_REBOOT:
                # RB-8.3: it goes under the deck at once (adding nothing), then its effect
                s.add_log(("reveal", ch, cid))
                reboot(s, ch, cid, ev)
                reveal_effect(s, ch, cid, d.effect, d.amount, SRC_REBOOT, ev)
            else:
                s.attack.append(cid)
                s.add_log(("reveal", ch, cid))
                if d.keyword is KW_ENTER:
                    reveal_effect(s, ch, cid, d.effect, d.amount, SRC_BOT, ev)
        elif step == BS_CHECK:
            atk, crit, dfn, bar, thr = clash_numbers(s)
            s.add_log(("totals", atk, crit, dfn, bar, thr))
            wins = beats(s, atk, crit, dfn, thr)
            # the totals after a reveal or a Contraption, for the people watching; "breaks":
            # "" (not yet), "attack", "crits" or "undefended" (nothing was defending)
            if not s.quiet:
                ev.append(
                    {
                        "type": "clash_score",
                        "challenger": s.challenger,
                        "champion": s.champion,
                        "attack": atk,
                        "crits": crit,
                        "defense": dfn,
                        "crits_needed": thr,
                        "breaks": (
                            ("undefended" if s.forced else "crits" if crit >= thr else "attack")
                            if wins
                            else ""
                        ),
                    }
                )
            s.bstep = BS_DEFEND if wins else BS_ATTACK
        elif step == BS_ATTACK:
            s.bstep = BS_REVEAL
            if not s.offered and usable_contraptions(s, s.challenger, CHALLENGER_CONTRAPTION):
                s.pending.append((P_ATTACK_WINDOW, s.challenger, -1, 0))
                return
        elif step == BS_DEFEND:
            s.bstep = BS_WIN
            if not s.forced and usable_contraptions(s, s.champion, CHAMPION_CONTRAPTION):
                s.pending.append((P_DEFEND_WINDOW, s.champion, -1, 0))
                return
        elif step == BS_WIN:
            challenger_wins(s, ev)


@cython.locals(s=RumblebotsState, used=list, names=list)
def usable_contraptions(s: RumblebotsState, seat: int, effects: tuple[Effect, ...]) -> list[str]:
    """RB-5.8: upright Contraptions of `seat` whose condition holds now (distinct names)."""
    cards = s.game.cards
    fights = s.game.tables[2]  # a bot, not a Contraption (read without the card's attributes)
    used = s.used[seat]
    names: list[str] = []
    for cid in s.collection[seat]:
        if fights[cid]:
            continue
        d = cards[cid]
        if cid in used or d.effect not in effects or d.name in names:
            continue
        if d.effect is EF_REVIVE and not s.discard[seat]:
            continue
        if d.effect is EF_DEFEAT_DEFENDER and not s.defense:
            continue
        names.append(d.name)
    return names


@cython.locals(s=RumblebotsState, ch=cython.long, old=cython.long, mask=cython.long)
def challenger_wins(s: RumblebotsState, ev: list) -> None:
    """RB-5.6: the old defense gang is defeated; Creating Crystals and Transformation trigger;
    the Challenger picks a faction of the attack for the new defense gang."""
    cards = s.game.cards
    ch = s.challenger
    old = s.champion
    s.discard[old].extend(s.defense)
    s.defense = []
    s.add_log(("won", ch, old))
    if not s.quiet:
        ev.append({"type": "clash_won", "seat": ch, "against": old, "undefended": s.forced})
    for cid in list(s.attack):
        d = cards[cid]
        if d.keyword is KW_CRYSTALS:
            s.add_log(("ability", ch, cid, d.text))
            create_crystals(s, ch, d.amount, ev, d.name)
            if s.phase == OVER:
                return
        elif d.keyword is KW_TRANSFORMATION:
            transform(s, ch, cid, ev)
    mask = 0
    for cid in s.attack:
        mask |= cards[cid].mask
    options = [f for f in FACTIONS if mask & FACTION_BIT[f]]
    s.bstep = BS_NEXT
    if len(options) > 1:
        s.pending.append((P_FACTION, ch, -1, 0))
        return
    form_gang(s, options[0] if options else "", ev)


@cython.locals(s=RumblebotsState)
def transform(s: RumblebotsState, seat: int, cid: int, ev: list) -> None:
    """RB-8.8: trash the bot, take its evolved version from the Transformation deck if there."""
    cards = s.game.cards
    into = cards[cid].into
    new = -1  # a loop, not next(...): a generator is a closure, which a cpdef cannot hold
    for c in s.transform_deck:
        if cards[c].index == into:
            new = c
            break
    if new < 0:
        return
    s.transform_deck.remove(new)
    s.attack[s.attack.index(cid)] = new
    owned = s.collection[seat]
    owned[owned.index(cid)] = new
    s.recycled.append(cid)
    s.add_log(("transform", seat, cid, new))
    if not s.quiet:
        ev.append(
            {"type": "transformed", "seat": seat, "card": cards[cid].name, "into": cards[new].name}
        )


@cython.locals(s=RumblebotsState, ch=cython.long, old=cython.long, bit=cython.long)
def form_gang(s: RumblebotsState, faction: str, ev: list) -> None:
    """RB-5.6: bots of the chosen faction turn sideways as the new defense gang; the other
    attackers go to the discard pile; the title passes; an old Champion with an empty deck
    surrenders."""
    cards = s.game.cards
    ch = s.challenger
    old = s.champion
    bit = FACTION_BIT.get(faction, 0)
    s.defense = [c for c in s.attack if cards[c].mask & bit]
    rest = [c for c in s.attack if not cards[c].mask & bit]
    s.discard[ch].extend(rest)
    s.attack = []
    s.champion = ch
    s.add_log(("gang", ch, faction))
    if not s.quiet:
        ev.append(
            {
                "type": "champion",
                "seat": ch,
                "faction": faction,
                "gang": [cards[c].name for c in s.defense],
                "discarded": [cards[c].name for c in rest],
            }
        )
    if not s.bdeck[old] and s.active[old]:
        _surrender(s, old, "lost_title", ev)
    s.last_challenger = ch
    s.challenger = -1
    s.bstep = BS_NEXT


@cython.locals(s=RumblebotsState, winner=cython.long, n=cython.long, p=cython.long)
def end_battle(s: RumblebotsState, ev: list) -> None:
    """RB-5.10 / RB-6.2 / RB-6.3: the Champion wins the round and its crystals; end of round."""
    winner = s.champion
    s.add_log(("battle_won", winner))
    if not s.quiet:
        ev.append({"type": "battle_won", "seat": winner, "round": s.round})
    s.challenger = -1
    opts = s.game.options
    if s.round < SHOWDOWN or opts["showdown_crystals"]:
        space = min(s.round, len(s.spaces)) - 1
        gain = s.spaces[space] if space >= 0 else 0
        if gain:
            s.spaces[space] = 0
            s.storage[winner] += gain
            s.add_log(("crystals", winner, gain))
            if not s.quiet:
                ev.append(
                    {
                        "type": "crystals_gained",
                        "seat": winner,
                        "count": gain,
                        "from": "round space",
                        "total": crystals_of(s, winner),
                    }
                )
            if check_dominance(s, ev):
                return
    if s.round == SHOWDOWN:
        finish(s, winner, "showdown", ev)
        return
    # RB-6.4: Reactor crystals go to the Cryo-cell; zones return to their owners
    n = s.game.num_players
    if opts["reactor_to_cryo"]:
        for p in range(n):
            s.cryo[p] += s.reactor[p]
            s.reactor[p] = 0
    for p in range(n):
        s.bdeck[p] = []
        s.discard[p] = []
        s.known_top[p] = s.known_bottom[p] = 0
        s.used[p] = []
    s.defense = []
    s.attack = []
    if check_dominance(s, ev):
        return
    s.round += 1
    start_round(s, ev)


# ----------------------------------------------------------------------------- decisions
@cython.locals(s=RumblebotsState)
def pending_legal(s: RumblebotsState) -> list[Action]:
    kind, seat, source, _ = s.pending[-1]
    cards = s.game.cards
    if kind == P_FACTION:
        mask = 0
        for cid in s.attack:
            mask |= cards[cid].mask
        return [_FACTION_ACTS[f] for f in FACTIONS if mask & FACTION_BIT[f]]
    if kind == P_ATTACK_WINDOW:
        acts = [
            named(UseContraption, n) for n in usable_contraptions(s, seat, CHALLENGER_CONTRAPTION)
        ]
        acts.append(_PASS)
        return acts
    if kind == P_DEFEND_WINDOW:
        acts = [
            named(UseContraption, n) for n in usable_contraptions(s, seat, CHAMPION_CONTRAPTION)
        ]
        acts.append(_PASS)
        return acts
    zone = s.defense if kind == P_TARGET_DEFEAT else s.discard[seat]
    return [named(ChooseTarget, n) for n in distinct_names(s, zone)]


@cython.locals(s=RumblebotsState)
def apply_pending(s: RumblebotsState, action: Action, ev: list) -> None:
    kind, seat, source, _ = s.pending.pop()
    cards = s.game.cards
    if kind == P_FACTION:
        form_gang(s, action.faction, ev)
    elif kind in (P_ATTACK_WINDOW, P_DEFEND_WINDOW):
        if action.kind == "pass_contraption":
            if kind == P_ATTACK_WINDOW:
                s.offered = True
            if not s.quiet:
                ev.append({"type": "contraption_passed", "seat": seat})
        else:
            # the first upright copy, by a loop: a generator cannot read the typed `s`
            used = s.used[seat]
            for cid in s.collection[seat]:
                if cards[cid].name == action.name and cid not in used:
                    break
            used.append(cid)
            d = cards[cid]
            s.add_log(("contraption", seat, cid))
            if not s.quiet:
                ev.append({"type": "contraption_used", "seat": seat, "card": d.name})
            s.bstep = BS_CHECK
            reveal_effect(s, seat, cid, d.effect, d.amount, SRC_CONTRAPTION, ev)
    else:
        effect = EF_DEFEAT_DEFENDER if kind == P_TARGET_DEFEAT else EF_REVIVE
        resolve_target(s, effect, seat, source, action.name, ev)
    if s.phase == BATTLE:
        advance_battle(s, ev)


@cython.locals(s=RumblebotsState)
def legal_actions(s: RumblebotsState) -> list[Action]:
    if s.pending:
        return pending_legal(s)
    return build_legal(s)


@cython.locals(s=RumblebotsState)
def apply_action(s: RumblebotsState, action: Action) -> list:
    ev: list = []
    if s.pending:
        apply_pending(s, action, ev)
    else:
        apply_build(s, action, ev)
    return ev
