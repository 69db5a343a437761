"""Rumblebots in words: every event as a game host would say it, and every choice as its seat
reads it (see robotable.core.narration and docs/rules/rumblebots.md).

Events name seats through the reader's `Voice` ("you" for the reader, names for the others),
bots by their printed names with the numbers that matter (cost, attack against defense, crits
against the crits needed, crystals), and never a position in a row or a list. Choice labels are
addressed to the deciding seat ("your Workshop"); the only other seat a choice concerns is the
Champion, named by that role (a state does not know people's names, and "Seat 2" would read as a
position). Nothing here runs inside `apply_action`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from robotable.core.narration import (
    Line,
    Voice,
    join_words,
    narrate_with,
    plural,
    result_by_score,
    sentence,
)

from .content import FACTION_BIT, Keyword
from .effects import gang_totals
from .rules import SCAN_SIZE, UPGRADE_COST
from .state import P_FACTION, P_TARGET_DEFEAT, SHOWDOWN, RumblebotsState

if TYPE_CHECKING:
    from robotable.core.events import Event
    from robotable.core.protocol import Action

    from .content import CardDef


# -- small pieces of wording -------------------------------------------------------------------
def scraps(count: int) -> str:
    return plural(count, "scrap")


def crystals(count: int) -> str:
    return plural(count, "crystal")


def article(word: str) -> str:
    return "an" if word[:1].upper() in "AEIOU" else "a"


def numbers(
    attack: int | None = None,
    defense: int | None = None,
    crits: int = 0,
    barriers: int = 0,
) -> str:
    """ "attack 3, defense 2, 1 crit": attack and defense when given, crits and barriers when
    there are any."""
    parts = []
    if attack is not None:
        parts.append(f"attack {attack}")
    if defense is not None:
        parts.append(f"defense {defense}")
    if crits:
        parts.append(plural(crits, "crit"))
    if barriers:
        parts.append(plural(barriers, "barrier"))
    return ", ".join(parts)


def round_name(number: int) -> str:
    return "the Showdown" if number >= SHOWDOWN else f"round {number}"


def _gang(names: list[str]) -> str:
    return join_words(list(names)) if names else "no bot"


def boost(effect: str, amount: int, gang_owner: str) -> str | None:
    """What a boost does, e.g. "Ada's attacking gang gets +2 attack this clash" (None: not a
    boost)."""
    if effect == "boost_attack":
        return f"{gang_owner} attacking gang gets +{amount} attack this clash"
    if effect == "boost_crits":
        return f"{gang_owner} attacking gang gets +{plural(amount, 'crit')} this clash"
    if effect == "boost_defense":
        return f"{gang_owner} defense gang gets +{amount} defense this clash"
    if effect == "boost_barriers":
        return f"{gang_owner} defense gang gets +{plural(amount, 'barrier')} this clash"
    return None


_KEYWORD_WORD = {
    "enter": "Enter",
    "reboot": "Reboot",
    "crystals": "Creating Crystals",
    "transformation": "Transformation",
    "ripening": "Ripening",
    "swarm": "Swarm",
    "finale": "Finale",
    "energized": "Energized",
    "buddy": "Buddy",
}


# -- the Build Phase ---------------------------------------------------------------------------
def _round_started(e: Event, v: Voice) -> str:
    order = list(e.get("order", []))
    number = e["round"]
    head = "The Showdown (round 6) begins" if number >= SHOWDOWN else f"Round {number} begins"
    if not order:
        return sentence(head)
    first = v.does(order[0], "builds first")
    rest = order[1:]
    then = f", then {v.seats(rest)}" if rest else ""
    return sentence(f"{head}. {first}{then}")


def _income(e: Event, v: Voice) -> str:
    text = v.does(e["seat"], f"gets {scraps(e['scraps'])} of income")
    if e.get("underdog"):
        text += " (1 extra as the underdog, 2 or more crystals behind the leader)"
    if e.get("head_start"):
        if e.get("first_challenger"):
            why = "for not holding the Champion token in round 1"
        else:
            why = "as the first Champion"
        text += f" ({e['head_start']} extra {why})"
    if e.get("beside_first_champion"):
        extra = e["beside_first_champion"]
        text += f" ({extra} extra for sitting beside the first Champion)"
    return sentence(text)


def _built(e: Event, v: Voice) -> str:
    where = (
        "from the Laboratory"
        if e.get("from") == "laboratory"
        else f"from the cards {v.who(e['seat'])} scanned"
    )
    name = e["card"]
    if e.get("contraption"):
        what = f"the Contraption {name}"
    elif "attack" in e:
        factions = "/".join(e.get("factions", []))
        stats = numbers(e["attack"], e.get("defense", 0), e.get("crits", 0), e.get("barriers", 0))
        what = f"{name} ({factions + ', ' if factions else ''}{stats})"
    else:
        what = name
    return sentence(v.does(e["seat"], f"builds {what} {where} for {scraps(e['cost'])}"))


def _lab_refilled(e: Event, v: Voice) -> str:
    cost = f" (cost {e['cost']})" if "cost" in e else ""
    return sentence(
        f"{e['card']}{cost} takes the free place in the tier {e['tier']} Laboratory row"
    )


def _lab_emptied(e: Event, v: Voice) -> str:
    return sentence(
        f"The tier {e['tier']} deck is out of cards, so that place in the Laboratory row stays "
        "empty"
    )


def _row_revealed(e: Event, v: Voice) -> str:
    return sentence(
        f"The tier {e['tier']} Laboratory row opens with {join_words(list(e['cards']))}"
    )


def _recycled(e: Event, v: Voice) -> str:
    return sentence(v.does(e["seat"], f"recycles {e['card']} for {scraps(e['scraps'])}"))


def _upgraded(e: Event, v: Voice) -> str:
    return sentence(
        v.does(
            e["seat"],
            f"upgrades the Workshop to tier {e['tier']} for {scraps(UPGRADE_COST)}",
        )
    )


def _energizes(v: Voice, seat: int) -> str:
    return v.does(seat, "energizes")


def _energized(e: Event, v: Voice) -> str:
    seat = e["seat"]
    if e.get("from") == "cryo":
        return sentence(
            f"{_energizes(v, seat)} a Cryo-cell crystal into the Reactor"
            f" for {scraps(e.get('scraps', 1))}"
        )
    text = f"{_energizes(v, seat)} a crystal from Storage into the Reactor"
    if "scan" in e:
        count = e.get("count", SCAN_SIZE)
        return sentence(f"{text} to scan {plural(count, 'card')} of the tier {e['scan']} deck")
    return sentence(f"{text} for {scraps(e.get('scraps', 1))}")


def _scanned(e: Event, v: Voice) -> str:
    cards = list(e.get("cards", []))
    what = join_words(cards) if cards else "nothing"
    return sentence(v.does(e["seat"], f"scans {what} from the tier {e['tier']} deck"))


def _scan_returned(e: Event, v: Voice) -> str:
    count = e["count"]
    cards = "card goes" if count == 1 else "cards go"
    return sentence(
        f"{v.Whose(e['seat'])} {count} unbuilt scanned {cards} back under the tier {e['tier']} deck"
    )


def _build_ended(e: Event, v: Voice) -> str:
    text = v.does(e["seat"], "ends the Build Phase")
    unspent = e.get("unspent", 0)
    if unspent:
        text += f" ({plural(unspent, 'unspent scrap')} {'is' if unspent == 1 else 'are'} lost)"
    return sentence(text)


# -- the Battle Phase --------------------------------------------------------------------------
def _battle_started(e: Event, v: Voice) -> str:
    number = e["round"]
    which = "The Showdown battle" if number >= SHOWDOWN else f"The battle of round {number}"
    champ = e["champion"]
    return sentence(
        f"{which} begins: {v.who(champ)} {v.verb(champ, 'holds')} the Champion token and "
        f"{v.verb(champ, 'defends')} first"
    )


def _defense_revealed(e: Event, v: Voice) -> str:
    stats = numbers(None, e["defense"], 0, e.get("barriers", 0)) if "defense" in e else ""
    what = f"{e['card']} ({stats})" if stats else e["card"]
    return sentence(
        v.does(e["seat"], f"reveals {what} from the top of the deck as the defense gang")
    )


def _undefended(e: Event, v: Voice) -> str:
    return sentence(v.does(e["seat"], "has no bot left to defend with"))


def _clash_started(e: Event, v: Voice) -> str:
    champ = e["champion"]
    return sentence(v.does(e["challenger"], f"challenges {v.who(champ)}, the Champion"))


def _bot_revealed(e: Event, v: Voice) -> str:
    stats = numbers(e["attack"], None, e.get("crits", 0)) if "attack" in e else ""
    what = f"{e['card']} ({stats})" if stats else e["card"]
    return sentence(v.does(e["seat"], f"reveals {what}"))


def _clash_score(e: Event, v: Voice) -> str:
    ch, champ = e["challenger"], e["champion"]
    attack = f"{v.Whose(ch)} attack {e['attack']}"
    if e.get("crits"):
        attack += f", with {plural(e['crits'], 'crit')} of the {e['crits_needed']} needed,"
    breaks = e.get("breaks")
    if breaks == "undefended":
        return sentence(f"{attack} against no defense at all: the defense falls")
    if breaks == "crits":
        verdict = "enough crits to break through"
    elif breaks:
        verdict = "enough to break the defense"
    elif e["attack"] == e["defense"]:
        verdict = "not enough yet (a tie does not break it)"
    else:
        verdict = "not enough yet"
    return sentence(f"{attack} against {v.whose(champ)} defense {e['defense']}: {verdict}")


def _rebooted(e: Event, v: Voice) -> str:
    return sentence(
        f"{e['card']} reboots: it goes face down under {v.whose(e['seat'])} deck instead of "
        "joining the gang"
    )


def _ability(e: Event, v: Voice) -> str:
    seat = e["seat"]
    keyword = e.get("keyword", "")
    what = boost(e.get("effect", ""), e.get("amount", 0), v.whose(seat))
    if keyword == "contraption":
        source = f"The {e['card']}"
    elif keyword in _KEYWORD_WORD:
        source = f"{e['card']}'s {_KEYWORD_WORD[keyword]} ability"
    else:
        source = f"{e['card']}'s ability"
    if what is None:
        return sentence(f"{source} takes effect")
    return sentence(f"{source}: {what}")


def _ability_fizzled(e: Event, v: Voice) -> str:
    if e.get("effect") == "revive":
        missing = f"no bot in {v.whose(e['seat'])} discard pile to bring back"
    else:
        missing = "no defending bot to defeat"
    return sentence(f"{e['card']}'s ability finds {missing}")


def _bot_defeated(e: Event, v: Voice) -> str:
    return sentence(
        f"{v.Whose(e['seat'])} {e['card']} defeats {v.whose(e['owner'])} defending "
        f"{e['target']}, which goes to the discard pile"
    )


def _bot_revived(e: Event, v: Voice) -> str:
    whose = v.whose(e["seat"])
    return sentence(
        f"{v.Whose(e['seat'])} {e['card']} brings {e['target']} back from the discard pile "
        f"onto the top of {whose} deck"
    )


def _contraption_used(e: Event, v: Voice) -> str:
    return sentence(v.does(e["seat"], f"uses the Contraption {e['card']}"))


def _contraption_passed(e: Event, v: Voice) -> str:
    return sentence(v.does(e["seat"], "uses no Contraption this time"))


def _clash_won(e: Event, v: Voice) -> str:
    seat, old = e["seat"], e["against"]
    if e.get("undefended"):
        return sentence(v.does(seat, f"beats {v.who(old)}, who had nothing left to defend with"))
    head = v.does(seat, f"breaks {v.whose(old)} defense")
    return sentence(f"{head}; the defeated gang goes to {v.whose(old)} discard pile")


def _transformed(e: Event, v: Voice) -> str:
    return sentence(f"{v.Whose(e['seat'])} {e['card']} transforms into {e['into']}")


def _champion(e: Event, v: Voice) -> str:
    seat = e["seat"]
    faction = e.get("faction", "")
    gang = list(e.get("gang", []))
    if faction and gang:
        stats = numbers(None, e["defense"], 0, e.get("barriers", 0)) if "defense" in e else ""
        what = f"{article(faction)} {faction} defense gang: {_gang(gang)}"
        if stats:
            what += f" ({stats})"
    else:
        what = "no defense gang"
    text = v.does(seat, f"becomes the Champion with {what}")
    rest = list(e.get("discarded", []))
    if rest:
        goes = "goes" if len(rest) == 1 else "go"
        text += f"; {join_words(rest)} {goes} to {v.whose(seat)} discard pile"
    return sentence(text)


def _surrendered(e: Event, v: Voice) -> str:
    seat = e["seat"]
    why = e.get("why", "")
    out = f"{v.verb(seat, 'surrenders')} (out of this battle)"
    if why == "failed":
        head = v.does(seat, "runs out of bots without breaking the defense")
        lost = list(e.get("discarded", []))
        if not lost:
            return sentence(f"{head} and {out}")
        goes = "goes" if len(lost) == 1 else "go"
        return sentence(
            f"{head} and {out}; {join_words(lost)} {goes} to {v.whose(seat)} discard pile"
        )
    if why == "no_bots":
        return sentence(v.does(seat, f"has no bot left to challenge with and {out}"))
    if why == "lost_title":
        return sentence(v.does(seat, f"has no bot left in the deck and {out}"))
    return sentence(f"{v.Who(seat)} {out}")


def _battle_capped(e: Event, v: Voice) -> str:
    champ = e["champion"]
    return sentence(
        f"The battle reaches its limit of reveals: {v.who(champ)}, the Champion, "
        f"{v.verb(champ, 'wins')} it"
    )


def _battle_won(e: Event, v: Voice) -> str:
    seat = e["seat"]
    which = "the Showdown battle" if e["round"] >= SHOWDOWN else f"the battle of round {e['round']}"
    return sentence(
        v.does(seat, "is the last Champion standing") + f" and {v.verb(seat, 'wins')} {which}"
    )


def _crystals_gained(e: Event, v: Voice) -> str:
    seat = e["seat"]
    total = f" ({e['total']} in all)" if "total" in e else ""
    if e.get("from") == "first champion":
        return sentence(
            v.does(seat, f"starts with {crystals(e['count'])} in the Cryo-cell")
            + ", to make up for defending first as the first Champion"
        )
    if e.get("from") == "round space":
        return sentence(
            v.does(seat, f"takes the {crystals(e['count'])} of the round space into Storage")
            + total
        )
    source = e.get("card") or "An ability"
    return sentence(
        f"{source} creates {crystals(e['count'])} from the supply for {v.who(seat)}{total}"
    )


def _game_over(e: Event, v: Voice) -> str:
    winner = e["winner"]
    if e.get("reason") == "dominance":
        how = v.does(winner, "wins the game by a Dominance Victory")
    else:
        how = v.does(winner, "is the Champion at the end of the Showdown") + (
            f" and {v.verb(winner, 'wins')} the game"
        )
    totals = e.get("crystals")
    if totals:
        board = ", ".join(f"{v.name(p)} {n}" for p, n in enumerate(totals))
        how += f" (crystals: {board})"
    return sentence(how)


LINES: dict[str, Line | None] = {
    "round_started": _round_started,
    "income": _income,
    "built": _built,
    "lab_refilled": _lab_refilled,
    "lab_emptied": _lab_emptied,
    "row_revealed": _row_revealed,
    "recycled": _recycled,
    "workshop_upgraded": _upgraded,
    "energized": _energized,
    "scanned": _scanned,
    "scan_returned": _scan_returned,
    "build_ended": _build_ended,
    "battle_started": _battle_started,
    "defense_revealed": _defense_revealed,
    "undefended": _undefended,
    "clash_started": _clash_started,
    "bot_revealed": _bot_revealed,
    "clash_score": _clash_score,
    "rebooted": _rebooted,
    "ability": _ability,
    "ability_fizzled": _ability_fizzled,
    "bot_defeated": _bot_defeated,
    "bot_revived": _bot_revived,
    "contraption_used": _contraption_used,
    "contraption_passed": _contraption_passed,
    "clash_won": _clash_won,
    "transformed": _transformed,
    "champion": _champion,
    "surrendered": _surrendered,
    "battle_capped": _battle_capped,
    "battle_won": _battle_won,
    "crystals_gained": _crystals_gained,
    "game_over": _game_over,
}


def narrate_event(event: Event, voice: Voice) -> str | None:
    return narrate_with(LINES, event, voice)


# -- choices, as the deciding seat reads them ----------------------------------------------------
def card_words(d: CardDef) -> tuple[str, str]:
    """A card's name and what matters when choosing it: ("Piston Pup", "Steam/Animal, attack
    2, defense 2; Swarm: +2 attack in a gang of 3 or more bots"), or ("the Contraption
    Overclocker", "once per battle, while you challenge: your attacking gang gets ...")."""
    text = d.text.strip().rstrip(".")
    if d.contraption:
        if text.startswith("Contraption (") and "): " in text:
            when, _, what = text[len("Contraption (") :].partition("): ")
            text = f"{when}: {what}"
        return f"the Contraption {d.name}", text
    stats = numbers(d.attack, d.defense, d.crits, d.barriers)
    factions = "/".join(d.factions)
    details = f"{factions}, {stats}" if factions else stats
    if text:
        details += f"; {text}"
    return d.name, details


def _build_words(d: CardDef, where: str) -> str:
    name, details = card_words(d)
    text = f"build {name} for {scraps(d.cost)} {where}"
    return f"{text} ({details})" if details else text


def _contraption_words(d: CardDef, s: RumblebotsState, v: Voice) -> str:
    effect = d.effect.name.lower()
    seat = v.viewer if v.viewer is not None else s.current_player()
    what = boost(effect, d.amount, v.whose(seat))
    if what is None:
        if effect == "defeat_defender":
            what = "defeat one bot of the Champion's defense gang"
        elif effect == "revive":
            what = "put a bot from your discard pile on top of your deck"
        else:
            what = d.text.strip().rstrip(".") or "its effect"
    return what


def describe_action(s: RumblebotsState, action: Action) -> str:
    """The choice in words for the seat deciding now (see `RumblebotsState.describe_action`)."""
    game = s.game
    content = game.content
    seat = s.current_player()
    v = Voice.of(game.num_players, viewer=seat if seat >= 0 else None)
    kind = action.kind
    data: Any = action
    if kind == "build_lab":
        d = content.by_name.get(data.name)
        if d is None:
            return f"build {data.name} from the tier {data.tier} Laboratory row"
        return _build_words(d, f"from the tier {data.tier} Laboratory row")
    if kind == "build_scanned":
        d = content.by_name.get(data.name)
        if d is None:
            return f"build {data.name} from your scanned cards"
        return _build_words(d, "from your scanned cards")
    if kind == "recycle":
        d = content.by_name.get(data.name)
        if d is None:
            return f"recycle {data.name}"
        tier = s.tier[seat] if 0 <= seat < len(s.tier) else 1
        if d.keyword is Keyword.RIPENING:
            gain = d.scrap + tier
            return (
                f"recycle {data.name} for {scraps(gain)} "
                f"({d.scrap} plus {tier} for Ripening at Workshop tier {tier})"
            )
        return f"recycle {data.name} for {scraps(d.scrap)}"
    if kind == "upgrade":
        tier = s.tier[seat] + 1 if 0 <= seat < len(s.tier) else 2
        text = f"upgrade your Workshop to tier {tier} for {scraps(UPGRADE_COST)}"
        if 0 < tier < len(s.lab_open) and not s.lab_open[tier]:
            text += f", opening the tier {tier} Laboratory row"
        return text
    if kind == "energize_scrap":
        gain = 2 if s.round == SHOWDOWN else 1
        return f"energize a crystal from your Storage into your Reactor for {scraps(gain)}"
    if kind == "energize_scan":
        deck = s.decks[data.tier] if 0 < data.tier < len(s.decks) else []
        count = min(SCAN_SIZE, len(deck)) or SCAN_SIZE
        return (
            f"energize a crystal from your Storage into your Reactor to scan "
            f"{plural(count, 'card')} of the tier {data.tier} deck"
        )
    if kind == "energize_cryo":
        return f"energize a crystal from your Cryo-cell into your Reactor for {scraps(1)}"
    if kind == "end_turn":
        text = "end your Build Phase"
        left = s.scraps[seat] if 0 <= seat < len(s.scraps) else 0
        if left:
            text += f", losing your {plural(left, 'unspent scrap')}"
        return text
    if kind == "choose_faction":
        return _faction_words(s, data.faction, seat)
    if kind == "use_contraption":
        d = content.by_name.get(data.name)
        if d is None:
            return f"use your {data.name}"
        return f"use your {data.name}: {_contraption_words(d, s, v)}"
    if kind == "pass_contraption":
        return "use no Contraption now"
    if kind == "choose_target":
        d = content.by_name.get(data.name)
        pending = s.pending[-1][0] if s.pending else P_TARGET_DEFEAT
        if pending == P_TARGET_DEFEAT:
            stats = f" ({numbers(None, d.defense, 0, d.barriers)})" if d else ""
            return f"defeat the Champion's defending {data.name}{stats}"
        stats = f" ({numbers(d.attack, None, d.crits)})" if d else ""
        return f"put {data.name}{stats} from your discard pile on top of your deck"
    return action.label()


def _faction_words(s: RumblebotsState, faction: str, seat: int) -> str:
    cards = s.game.content.cards
    bit = FACTION_BIT.get(faction, 0)
    gang = [c for c in s.attack if cards[c].mask & bit]
    rest = [c for c in s.attack if not cards[c].mask & bit]
    if not gang or not s.pending or s.pending[-1][0] != P_FACTION:
        return f"form {article(faction)} {faction} defense gang"
    _, _, dfn, bar = gang_totals(s, gang, seat)
    text = (
        f"form {article(faction)} {faction} defense gang: "
        f"{_gang([cards[c].name for c in gang])} ({numbers(None, dfn, 0, bar)})"
    )
    if rest:
        goes = "goes" if len(rest) == 1 else "go"
        text += f"; {_gang([cards[c].name for c in rest])} {goes} to your discard pile"
    return text


def result_sentence(s: RumblebotsState, viewer: int | None = None, names: Any = None) -> str:
    """Who won a finished game and by how much in crystals: "Ada wins by a Dominance Victory,
    12 crystals to 9"; the winner is the last Champion, who may hold fewer crystals (RB-10)."""
    n = s.game.num_players
    voice = Voice.of(n, viewer, names)
    held = [s.storage[p] + s.reactor[p] + s.cryo[p] for p in range(n)]
    how = "by a Dominance Victory" if s.end_reason == "dominance" else "as the last Champion"
    return result_by_score(held, [s.winner], voice, crystals, how=how)


def result_scores(s: RumblebotsState) -> dict[str, Any]:
    """Each seat's score at the end, for the web table's end screen: the crystals it holds (the
    winner is the last Champion, who may hold fewer, RB-10)."""
    n = s.game.num_players
    return {
        "unit": "crystals",
        "scores": [s.storage[p] + s.reactor[p] + s.cryo[p] for p in range(n)],
    }
