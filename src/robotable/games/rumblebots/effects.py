"""Card abilities and what they set off in battle: gang totals with continuous abilities, reveal
effects and targets, Reboot (RB-8), an empty defense gang refilled (RB-5.3), Creating Crystals
and the victories it can bring (RB-8.7, RB-10).

Functions here read and change a `RumblebotsState`. rules.py imports this module, never the other way
round: what both need lives here or in state.py.
"""

from __future__ import annotations

from typing import Any

from .content import (
    EF_ATTACK,
    EF_BOOST_ATTACK,
    EF_BOOST_BARRIERS,
    EF_BOOST_CRITS,
    EF_BOOST_DEFENSE,
    EF_CREATE_CRYSTALS,
    EF_CRITS,
    EF_DEFEAT_DEFENDER,
    EF_DEFENSE,
    EF_REVIVE,
    KW_BUDDY,
    KW_ENERGIZED,
    KW_FINALE,
    KW_SWARM,
    Effect,
)
from .state import OVER, P_TARGET_DEFEAT, P_TARGET_REVIVE, SHOWDOWN, RumblebotsState

try:
    import cython
except ImportError:  # no Cython: its declarations do nothing
    from robotable.core import cython_shim as cython

_CONTINUOUS = (KW_SWARM, KW_FINALE, KW_ENERGIZED, KW_BUDDY)


def battle_tables(content: Any) -> tuple:
    """Per card id: attack, crits, defense, barriers and its continuous keyword (None without
    one). Built once per game (`game.battle`): `gang_totals` runs twice per reveal, and reading
    the card definitions there was most of its cost."""
    cards = content.cards
    return (
        [d.attack for d in cards],
        [d.crits for d in cards],
        [d.defense for d in cards],
        [d.barriers for d in cards],
        [d.keyword if d.keyword and d.keyword in _CONTINUOUS else None for d in cards],
    )


@cython.locals(
    s=RumblebotsState,
    cards=tuple,
    attack=list,
    crits=list,
    defense=list,
    barriers=list,
    continuous=list,
    cid=cython.long,
    atk=cython.long,
    crit=cython.long,
    dfn=cython.long,
    bar=cython.long,
    size=cython.Py_ssize_t,
    ok=cython.bint,
    bm=cython.long,
)
def gang_totals(s: RumblebotsState, gang: list[int], owner: int) -> tuple[int, int, int, int]:
    """(attack, crits, defense, barriers) of a gang, continuous abilities included (RB-8.2).

    A bot keeps its continuous abilities in defense position (ruling RB-5.9).
    """
    cards = s.game.cards
    attack, crits, defense, barriers, continuous = s.game.battle
    atk = crit = dfn = bar = 0
    size = len(gang)
    for cid in gang:
        atk += attack[cid]
        crit += crits[cid]
        dfn += defense[cid]
        bar += barriers[cid]
        kw = continuous[cid]
        if kw is not None:
            d = cards[cid]
            if kw is KW_SWARM:
                ok = size >= 3
            elif kw is KW_FINALE:
                ok = len(s.bdeck[owner]) <= 1
            elif kw is KW_ENERGIZED:
                ok = s.reactor[owner] > 0
            else:
                bm = d.buddy_mask
                # a loop, not any(...): a generator cannot read the compiled engine's C locals
                ok = False
                for o in gang:
                    if o != cid and (not bm or cards[o].mask & bm):
                        ok = True
                        break
            if ok:
                e = d.effect
                if e is EF_ATTACK:
                    atk += d.amount
                elif e is EF_DEFENSE:
                    dfn += d.amount
                elif e is EF_CRITS:
                    crit += d.amount
                else:
                    bar += d.amount
    return atk, crit, dfn, bar


@cython.locals(
    s=RumblebotsState, atk=cython.long, crit=cython.long, dfn=cython.long, bar=cython.long
)
def clash_numbers(s: RumblebotsState) -> tuple[int, int, int, int, int]:
    """ATK, CRIT, DEF, BAR and the crit threshold of the current clash, modifiers included."""
    atk, crit, _, _ = gang_totals(s, s.attack, s.challenger) if s.challenger >= 0 else (0, 0, 0, 0)
    _, _, dfn, bar = gang_totals(s, s.defense, s.champion)
    atk += s.atk_mod
    crit += s.crit_mod
    dfn += s.def_mod
    bar += s.bar_mod
    threshold = s.game.options["crit_threshold"] + bar
    return atk, crit, dfn, bar, threshold


@cython.locals(s=RumblebotsState)
def beats(s: RumblebotsState, atk: int, crit: int, dfn: int, threshold: int) -> bool:
    """RB-5.4: the attack beats the defense (strictly, by default) or enough crits get through;
    a Champion with nothing to defend with always falls (ruling RB-5.3)."""
    if s.forced or crit >= threshold:
        return True
    if s.game.options["attack_must_exceed"]:
        return atk > dfn
    return atk >= dfn


@cython.locals(s=RumblebotsState)
def challenger_winning(s: RumblebotsState) -> bool:
    atk, crit, dfn, _, threshold = clash_numbers(s)
    return beats(s, atk, crit, dfn, threshold)


@cython.locals(s=RumblebotsState, cards=tuple, seen=list)
def distinct_names(s: RumblebotsState, ids: list[int]) -> list[str]:
    cards = s.game.cards
    seen: list[str] = []
    for cid in ids:
        name = cards[cid].name
        if name not in seen:
            seen.append(name)
    return seen


@cython.locals(s=RumblebotsState)
def reveal_effect(
    s: RumblebotsState, seat: int, source: int, effect: Effect, amount: int, flag: int, ev: list
) -> None:
    """Resolve an Enter / Reboot / Contraption effect; a choice of target becomes a pending
    decision (RB-8.1). A Reboot bot is already under its owner's deck (RB-8.3)."""
    card = s.game.cards[source]
    if effect is EF_BOOST_ATTACK:
        s.atk_mod += amount
    elif effect is EF_BOOST_CRITS:
        s.crit_mod += amount
    elif effect is EF_BOOST_DEFENSE:
        s.def_mod += amount
    elif effect is EF_BOOST_BARRIERS:
        s.bar_mod += amount
    elif effect is EF_CREATE_CRYSTALS:
        s.add_log(("ability", seat, source, card.text))
        create_crystals(s, seat, amount, ev, card.name)
        if s.phase == OVER:  # a Dominance Victory ended the game
            return
    elif effect is EF_DEFEAT_DEFENDER or effect is EF_REVIVE:
        zone = s.defense if effect is EF_DEFEAT_DEFENDER else s.discard[seat]
        names = distinct_names(s, zone)
        if len(names) > 1:
            kind = P_TARGET_DEFEAT if effect is EF_DEFEAT_DEFENDER else P_TARGET_REVIVE
            s.pending.append((kind, seat, source, flag))
            return
        if names:
            resolve_target(s, effect, seat, source, names[0], ev)
        else:
            s.add_log(("fizzle", seat, source, "no bot to target"))
            if not s.quiet:
                ev.append(
                    {
                        "type": "ability_fizzled",
                        "seat": seat,
                        "card": card.name,
                        "effect": effect.name.lower(),
                    }
                )
    if effect is not EF_CREATE_CRYSTALS and effect not in (
        EF_DEFEAT_DEFENDER,
        EF_REVIVE,
    ):
        s.add_log(("ability", seat, source, card.text))
        if not s.quiet:
            ev.append(
                {
                    "type": "ability",
                    "seat": seat,
                    "card": card.name,
                    "text": card.text,
                    "keyword": card.keyword.name.lower(),
                    "effect": effect.name.lower(),
                    "amount": amount,
                }
            )


def first_named(ids: list[int], names: list[str], name: str) -> int:
    """The first id in `ids` of a card called `name` (copies of a design are interchangeable),
    by the card names of `game.tables`; a loop, which the compiled engine runs without
    allocating a generator."""
    for cid in ids:
        if names[cid] == name:
            return cid
    raise ValueError(f"no card called {name!r} among {ids}")


@cython.locals(s=RumblebotsState)
def resolve_target(
    s: RumblebotsState, effect: Effect, seat: int, source: int, name: str, ev: list
) -> None:
    cards = s.game.cards
    src = cards[source].name
    if effect is EF_DEFEAT_DEFENDER:
        target = first_named(s.defense, s.game.tables[1], name)
        s.defense.remove(target)
        s.discard[s.champion].append(target)
        s.add_log(("defeat", seat, source, target))
        if not s.quiet:
            ev.append(
                {
                    "type": "bot_defeated",
                    "seat": seat,
                    "card": src,
                    "target": name,
                    "owner": s.champion,
                }
            )
        if not s.defense:
            refill_defense(s, ev)
    else:
        pile = s.discard[seat]
        target = next(c for c in reversed(pile) if cards[c].name == name)
        pile.remove(target)
        s.bdeck[seat].append(target)
        s.known_top[seat] += 1
        s.add_log(("revive", seat, source, target))
        if not s.quiet:
            ev.append({"type": "bot_revived", "seat": seat, "card": src, "target": name})


@cython.locals(s=RumblebotsState)
def reboot(s: RumblebotsState, seat: int, source: int, ev: list) -> None:
    """RB-8.3: the bot goes face down under its owner's deck and leaves the gang."""
    if source in s.attack:
        s.attack.remove(source)
    s.bdeck[seat].insert(0, source)
    s.known_bottom[seat] += 1
    s.reboots += 1
    s.add_log(("reboot", seat, source))
    if not s.quiet:
        ev.append({"type": "rebooted", "seat": seat, "card": s.game.cards[source].name})


@cython.locals(s=RumblebotsState, champ=cython.long)
def refill_defense(s: RumblebotsState, ev: list) -> None:
    """Ruling RB-5.3: an empty defense gang is refilled from the top of the Champion's
    deck (no Enter); with an empty deck the Champion falls to the current Challenger."""
    champ = s.champion
    if s.bdeck[champ]:
        cid = s.draw_top(champ)
        d = s.game.cards[cid]
        s.defense = [cid]
        s.add_log(("defense", champ, cid))
        if not s.quiet:
            ev.append(
                {
                    "type": "defense_revealed",
                    "seat": champ,
                    "card": d.name,
                    "defense": d.defense,
                    "barriers": d.barriers,
                }
            )
    else:
        s.forced = True
        s.add_log(("undefended", champ))
        if not s.quiet:
            ev.append({"type": "undefended", "seat": champ})


@cython.locals(s=RumblebotsState, take=cython.long)
def create_crystals(s: RumblebotsState, seat: int, amount: int, ev: list, card: str) -> None:
    """RB-8.7 Creating Crystals: from the supply into Storage, capped by the supply."""
    take = min(amount, s.supply)
    if take:
        s.supply -= take
        s.storage[seat] += take
        s.add_log(("crystals", seat, take))
        if not s.quiet:
            ev.append(
                {
                    "type": "crystals_gained",
                    "seat": seat,
                    "card": card,
                    "count": take,
                    "from": "supply",
                    "total": s.storage[seat] + s.reactor[seat] + s.cryo[seat],
                }
            )
    check_dominance(s, ev)


@cython.locals(
    s=RumblebotsState,
    n=cython.long,
    p=cython.long,
    q=cython.long,
    margin=cython.long,
    totals=list,
    leads=cython.bint,
)
def check_dominance(s: RumblebotsState, ev: list) -> bool:
    """RB-10.1: before the Showdown, 6+ crystals more than every other player wins now."""
    if s.phase == OVER:
        return True
    if s.round >= SHOWDOWN:
        return False
    n = s.game.num_players
    totals = [s.storage[p] + s.reactor[p] + s.cryo[p] for p in range(n)]
    margin = s.game.options["dominance_margin"]
    for p in range(n):
        # a loop, not all(...): a generator cannot read the compiled engine's C locals
        leads = True
        for q in range(n):
            if q != p and totals[p] - totals[q] < margin:
                leads = False
                break
        if leads:
            finish(s, p, "dominance", ev)
            return True
    return False


@cython.locals(s=RumblebotsState)
def finish(s: RumblebotsState, winner: int, reason: str, ev: list) -> None:
    """The game ends: `winner` wins by `reason` ("dominance" or "showdown", RB-10)."""
    s.phase = OVER
    s.winner = winner
    s.end_reason = reason
    s.pending = []
    s.add_log(("game_won", winner, reason))
    n = s.game.num_players
    if not s.quiet:
        ev.append(
            {
                "type": "game_over",
                "winner": winner,
                "reason": reason,
                "crystals": [s.storage[p] + s.reactor[p] + s.cryo[p] for p in range(n)],
            }
        )
