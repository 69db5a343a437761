"""What a seat sees and reads: the view (RB-9), the prompt, the battle log and the end-of-game
stats, which a state reaches as `game.views` (state.py cannot import this module). Seats count
from 1 ("Seat 1"), as everywhere people read them.
"""

from __future__ import annotations

from typing import Any

from robotable.core.narration import plural

from .effects import clash_numbers
from .state import (
    BATTLE,
    BUILD,
    OVER,
    P_ATTACK_WINDOW,
    P_DEFEND_WINDOW,
    P_FACTION,
    P_TARGET_DEFEAT,
    PENDING_NAMES,
    SHOWDOWN,
    RumblebotsState,
)


def _as_json(s: RumblebotsState, cid: int) -> dict[str, Any]:
    return s.game.content.cards[cid].as_json()


def view(s: RumblebotsState, seat: int | None, words: bool = True) -> dict[str, Any]:
    """What `seat` sees (None: a spectator), by the visibility model of state.py (RB-9); without
    `words`, its "legal_actions" and "battle_log" are left empty (`observation_view`)."""
    content = s.game.content
    cards = content.cards
    n = s.game.num_players
    player = s.current_player()
    showdown = s.round == SHOWDOWN
    seats = []
    for p in range(n):
        building = s.phase == BUILD and not s.pending and p == player
        info: dict[str, Any] = {
            "seat": p,
            "workshop_tier": s.tier[p],
            "scraps": s.scraps[p],
            "crystals": {
                "storage": s.storage[p],
                "reactor": s.reactor[p],
                "cryo_cell": s.cryo[p],
                "total": s.storage[p] + s.reactor[p] + s.cryo[p],
            },
            "champion": p == s.champion,
            "bots": [_as_json(s, c) for c in s.collection[p] if not cards[c].contraption],
            "contraptions": [
                {**_as_json(s, c), "upright": c not in s.used[p]}
                for c in s.collection[p]
                if cards[c].contraption
            ],
            "built_this_phase": [_as_json(s, c) for c in s.fresh[p]],
            "hand_count": len(s.hand[p]),
            "hand_tiers": sorted(cards[c].tier for c in s.hand[p]),
        }
        if seat == p:
            info["hand"] = [_as_json(s, c) for c in s.hand[p]]
        if building:
            info["actions_used"] = {
                "builds": s.builds,
                "build_limit": 3 if showdown else 2,
                "upgrades": s.upgrades,
                "upgrade_limit": None if showdown else 1,
                "energized": s.energizes,
                "energize_limit": None if showdown else 3,
            }
        if s.phase == BATTLE:
            deck = s.bdeck[p]
            kb, kt = s.known_bottom[p], s.known_top[p]
            info["battle"] = {
                "active": s.active[p],
                "deck_count": len(deck),
                "deck_contents": sorted(cards[c].name for c in deck),
                "deck_top_known": [cards[c].name for c in reversed(deck[len(deck) - kt :])],
                "deck_bottom_known": [cards[c].name for c in deck[:kb]],
                "discard": [_as_json(s, c) for c in s.discard[p]],
            }
        seats.append(info)
    rows = []
    for t in range(1, 5):
        rows.append(
            {
                "tier": t,
                "open": s.lab_open[t],
                "deck_count": len(s.decks[t]),
                "slots": [_as_json(s, c) if c >= 0 else None for c in s.lab[t]]
                if s.lab_open[t]
                else [],
            }
        )
    battle = None
    if s.phase == BATTLE:
        atk, crit, dfn, bar, thr = clash_numbers(s)
        battle = {
            "champion": s.champion,
            "challenger": s.challenger if s.challenger >= 0 else None,
            "defense_gang": [_as_json(s, c) for c in s.defense],
            "attack_gang": [_as_json(s, c) for c in s.attack],
            "attack": atk,
            "crits": crit,
            "defense": dfn,
            "barriers": bar,
            "crits_needed": thr,
            "modifiers": {
                "attack": s.atk_mod,
                "crits": s.crit_mod,
                "defense": s.def_mod,
                "barriers": s.bar_mod,
            },
        }
    pending = None
    if s.pending:
        kind, pseat, source, _ = s.pending[-1]
        pending = {
            "kind": PENDING_NAMES[kind],
            "seat": pseat,
            "source": cards[source].name if source >= 0 else None,
        }
    return {
        "game": s.game.name,
        "seat": seat,
        "current_player": player,
        "turn": s.turns,
        "prompt": prompt(s),
        "terminal": s.is_terminal(),
        "returns": s.returns() if s.is_terminal() else None,
        "legal_actions": s.legal_action_entries(seat) if words else [],
        "round": s.round,
        "showdown": showdown,
        "phase": ("build", "battle", "over")[s.phase],
        "direction": "clockwise" if s.direction == 1 else "counter-clockwise",
        "turn_order": list(s.order),
        "champion": s.champion,
        "crystal_supply": s.supply,
        "round_spaces": list(s.spaces),
        "laboratory": {
            "rows": rows,
            "transformation_deck": [cards[c].name for c in s.transform_deck],
            "recycling_area": [cards[c].name for c in s.recycled],
        },
        "seats": seats,
        "battle": battle,
        "battle_number": s.battle_no,
        "battle_log": battle_log(s) if words else [],
        "pending": pending,
        "winner": s.winner if s.phase == OVER else None,
        "end_reason": s.end_reason or None,
    }


def battle_log(s: RumblebotsState) -> list[str]:
    """The current (or last) battle, one readable line per step."""
    cards = s.game.content.cards

    told: set[int] = set()  # cards whose text the log has given once already

    def stats(cid: int) -> str:
        d = cards[cid]
        text = ""
        if d.text and cid not in told:
            told.add(cid)
            text = f" ({d.text.rstrip('.')})"
        return (
            f"{d.name} [{'/'.join(d.factions)}] attack {d.attack}, {plural(d.crits, 'crit')}, "
            f"defense {d.defense}, {plural(d.barriers, 'barrier')}{text}"
        )

    def who(seat: int) -> str:  # seats count from 1 for people
        return f"Seat {seat + 1}"

    lines = []
    for e in s.log_entries():
        k = e[0]
        if k == "battle":
            lines.append(f"Battle of round {e[1]}: {who(e[2])} holds the Champion token.")
        elif k == "defense":
            lines.append(f"{who(e[1])} reveals the defense gang: {stats(e[2])}.")
        elif k == "undefended":
            lines.append(f"{who(e[1])} has no bot left to defend with.")
        elif k == "clash":
            lines.append(f"Clash: {who(e[1])} challenges Champion {who(e[2])}.")
        elif k == "reveal":
            lines.append(f"  {who(e[1])} reveals {stats(e[2])}")
        elif k == "totals":
            lines.append(f"    attack {e[1]} vs defense {e[3]}; crits {e[2]} of {e[5]} needed")
        elif k == "ability":
            lines.append(f"    {cards[e[2]].name}: {e[3]}")
        elif k == "reboot":
            lines.append(f"    {cards[e[2]].name} reboots under {who(e[1])}'s deck")
        elif k == "defeat":
            lines.append(f"    {cards[e[2]].name} defeats the defender {cards[e[3]].name}")
        elif k == "revive":
            lines.append(f"    {cards[e[2]].name} puts {cards[e[3]].name} back on top of the deck")
        elif k == "fizzle":
            lines.append(f"    {cards[e[2]].name}: {e[3]}")
        elif k == "contraption":
            lines.append(f"    {who(e[1])} uses the Contraption {cards[e[2]].name}")
        elif k == "won":
            lines.append(f"  {who(e[1])} breaks {who(e[2])}'s defense!")
        elif k == "transform":
            lines.append(f"    {cards[e[2]].name} transforms into {cards[e[3]].name}")
        elif k == "gang":
            article = "an" if e[2][:1] in "AEIOU" else "a"
            what = f"{article} {e[2]} defense gang" if e[2] else "no defense gang"
            lines.append(f"  {who(e[1])} is the new Champion with {what}")
        elif k == "failed":
            lines.append(f"  {who(e[1])} runs out of bots without breaking the defense")
        elif k == "surrender":
            lines.append(f"  {who(e[1])} surrenders and leaves the battle")
        elif k == "crystals":
            lines.append(f"  {who(e[1])} takes {e[2]} crystal(s) into Storage")
        elif k == "cap":
            lines.append(f"  the battle reaches its step limit; {who(e[1])} keeps the title")
        elif k == "battle_won":
            lines.append(f"{who(e[1])} is the last Champion standing and wins the battle.")
        elif k == "game_won":
            lines.append(f"{who(e[1])} wins the game ({e[2]}).")
    return lines


def prompt(s: RumblebotsState) -> str:
    """Why the deciding seat is deciding, in words."""
    if s.phase == OVER:
        how = "Dominance Victory" if s.end_reason == "dominance" else "the Showdown"
        return f"game over: Seat {s.winner + 1} wins by {how}"
    if s.pending:
        kind, seat, source, _ = s.pending[-1]
        cards = s.game.content.cards
        atk, crit, dfn, _, thr = clash_numbers(s)
        score = f"attack {atk} vs defense {dfn}, crits {crit}/{thr}"
        if kind == P_FACTION:
            return f"Seat {seat + 1} broke the defense: choose the faction of the new defense gang"
        if kind == P_ATTACK_WINDOW:
            return f"Seat {seat + 1} challenges ({score}): use a Contraption?"
        if kind == P_DEFEND_WINDOW:
            return f"Seat {seat + 1}'s defense is about to fall ({score}): use a Contraption?"
        what = (
            "a defending bot to defeat"
            if kind == P_TARGET_DEFEAT
            else "a bot of your discard pile to put on top of your deck"
        )
        return f"{cards[source].name} (Seat {seat + 1}): choose {what}"
    seat = s.order[s.turn_pos]
    sd = s.round == SHOWDOWN
    title = "Showdown" if sd else f"round {s.round}"
    return (
        f"{title} Build Phase: Seat {seat + 1} builds with {s.scraps[seat]} "
        f"scrap{'' if s.scraps[seat] == 1 else 's'} "
        f"(builds {s.builds}/{3 if sd else 2}, upgrades {s.upgrades}/"
        f"{'any' if sd else 1}, energized {s.energizes}/{'any' if sd else 3})"
    )


def stats(s: RumblebotsState) -> dict[str, Any]:
    """Per-game extras for the balance lab: how the game ended, crystals and workshops."""
    n = s.game.num_players
    return {
        "end_reason": s.end_reason,
        "winner": s.winner,
        "rounds": s.round,
        "battles": s.battle_no,
        "clashes": s.clashes,
        "crystals": [s.storage[p] + s.reactor[p] + s.cryo[p] for p in range(n)],
        "workshop_tiers": s.tier[:],
        "collection_sizes": [len(s.collection[p]) for p in range(n)],
    }
