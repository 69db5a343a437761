"""Stak Bots in words: every event as a game host would say it, and every choice as its seat
reads it (docs/rules/stakbots.md, SB-x.y).

Cards are named by what they are ("Bo's Core Bot (power 5)"), never by a place in a list; the
reader's own seat is "you". Front ends call this; the engine never does (apply_action only
builds the event dicts these functions read).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from robotable.core.narration import Line, Voice, narrate_with, plural, sentence

from .actions import (
    Attack,
    ChoosePlayer,
    Discard,
    EndTurn,
    LetThrough,
    Play,
    React,
    Recycle,
    Scrap,
    Target,
)
from .board import power, stak_of, top_stak
from .content import Bot
from .effects import SHOT_DAMAGE
from .modes import ORDINAL
from .rules import MAX_TURN_EFFECTS, game_over_event, winning_seats
from .state import UP, StakBotsState

if TYPE_CHECKING:
    from robotable.core.events import Event


# -- small words ----------------------------------------------------------------------------------
def _power(value: Any) -> str:
    return f"power {value}"


def _card(name: str, value: Any = None, damage: int = 0) -> str:
    """A card in words: "Core Bot (power 5)", "Core Bot (power 5, 2 damage)" or its name."""
    if value is None:
        return name
    extra = f", {damage} damage" if damage else ""
    return f"{name} ({_power(value)}{extra})"


def _their(voice: Voice, seat: int) -> str:
    """The possessive for a seat already named in the sentence: "your" or "their"."""
    return "your" if voice.is_you(seat) else "their"


def _stak(e: Event, whose: str, key: str = "stak") -> str:
    """A stak after its possessive: "Ada's stak", or with several staks per seat (SB-11.12)
    "Ada's second stak" (the event names which under `key`)."""
    j = e.get(key)
    return f"{whose} {ORDINAL[j]} stak" if isinstance(j, int) else f"{whose} stak"


def _subject(voice: Voice, seat: int, verb: str) -> str:
    """A seat and its verb inside a sentence: "you choose", "Ada chooses"."""
    return f"{voice.who(seat)} {voice.verb(seat, verb)}"


_ORDINALS = ("top", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth")


def _from_top(depth: int, size: int) -> str:
    """Where a card sits in its stak, in words (never a number after a place word)."""
    if depth == 0:
        return "the top card"
    if depth == size - 1:
        return "the bottom card"
    if depth < len(_ORDINALS):
        return f"the {_ORDINALS[depth]} card from the top"
    return f"{depth} cards below the top"


def _on_top(e: Event, v: Voice, seat: int, moved: str) -> str:
    """The words "; Ada's Core Bot (power 3) is on top now" when the event uncovered a face-up
    card ("Ada's other Trip Bot" when it bears the name of the card that `moved` away)."""
    if "top_card" not in e:
        return ""
    other = "other " if e["top_card"] == moved else ""
    return f"; {v.whose(seat)} {other}{_card(e['top_card'], e.get('top_power'))} is on top now"


# What an entry effect does, said when it fires (SB-8): seat -> words after the colon.
def _entry_words(bot: str, seat: int, voice: Voice) -> str:
    whose = voice.whose(seat)
    words = {
        "Clumsy": f"the bottom card of {whose} stak is scrapped",
        "Shot": _subject(voice, seat, f"chooses a top card to take {SHOT_DAMAGE} damage"),
        "Reaper": _subject(voice, seat, "chooses another top card to scrap"),
        "Sidekick": "it swaps places with the card beneath it",
        "Bountiful": "its owner draws a card from the supply",
        "Expel": _subject(voice, seat, "chooses a player, who must scrap a card from their hand"),
        "Tranq": _subject(voice, seat, "chooses another face-up card to reset (turn face-down)"),
        "Begone": _subject(voice, seat, "chooses another top card to send back to a hand"),
        "Trip": _subject(voice, seat, "chooses a top card to drop one place"),
        "Pit": _subject(voice, seat, "chooses a top card to move to the bottom of its stak"),
    }
    return words.get(bot, "it fires")


# -- one line per event ---------------------------------------------------------------------------
def _turn_started(e: Event, v: Voice) -> str:
    return sentence(f"Turn {e['turn']}: {v.whose(e['seat'])} turn")


def _turn_ended(e: Event, v: Voice) -> str:
    seat = e["seat"]
    if e.get("out"):
        text = f"{v.Whose(seat)} turn ends, as {v.who(seat)} {v.verb(seat, 'is')} out"
    else:
        text = v.does(seat, "ends the turn")
    repaired = e.get("repaired", 0)
    if repaired == 1:
        text += "; the damaged card is repaired"
    elif repaired:
        text += f"; all {repaired} damaged cards are repaired"
    return sentence(text)


def _card_drawn(e: Event, v: Voice) -> str:
    return sentence(v.does(e["seat"], f"draws {_card(e['card'], e.get('power'))}"))


def _drew(e: Event, v: Voice) -> str:
    seat = e["seat"]
    held = plural(e["hand_size"], "card")
    if v.is_you(seat):  # the private line just named the card
        return sentence(f"You now hold {held}")
    return sentence(f"{v.name(seat)} draws a card and now holds {held}")


def _draw_skipped(e: Event, v: Voice) -> str:
    if e.get("why") == "first_turn":
        return sentence(v.does(e["seat"], "draws nothing: the first player skips the first draw"))
    return sentence(v.does(e["seat"], "draws nothing: the supply and the scrapheap are both empty"))


def _reshuffled(e: Event, v: Voice) -> str:
    cards = plural(e["cards"], "card")
    verb = "is" if e["cards"] == 1 else "are"
    return sentence(
        f"The supply is empty: the scrapheap's {cards} {verb} shuffled into a new supply"
    )


def _played(e: Event, v: Voice) -> str:
    seat = e["seat"]
    card = _card(e["card"], e.get("power"))
    if e.get("reaction"):
        onto = _stak(e, _their(v, seat))
        return sentence(v.does(seat, f"reacts, playing {card} onto {onto}: the attack is off"))
    onto = _their(v, seat) if "onto" not in e else v.whose(e["onto"])
    return sentence(v.does(seat, f"plays {card} onto {_stak(e, onto)}"))


def _recycled(e: Event, v: Voice) -> str:
    seat = e["seat"]
    return sentence(
        v.does(
            seat,
            f"recycles: {_their(v, seat)} top card and a card from {_their(v, seat)} hand go to "
            "the scrapheap, for a card from the supply",
        )
    )


def _setup_effects(e: Event, v: Voice) -> str:
    n = e["cards"]
    effects = "entry effect resolves" if n == 1 else f"{n} entry effects resolve"
    return sentence(f"Before the first draw, the starting top cards' {effects}, in turn order")


def _attack_declared(e: Event, v: Voice) -> str:
    seat, target = e["seat"], e["target"]
    att = f"{v.Whose(seat)} {_card(e['card'], e['power'])}"
    dfn = f"{v.whose(target)} {_card(e['target_card'], e['target_power'])}"
    return sentence(
        f"{att} moves to attack {dfn}; {_subject(v, target, 'may')} react by playing a card onto "
        f"{_their(v, target)} stak"
    )


def _scrapped(e: Event, v: Voice) -> str:
    seat = e["seat"]
    card = _card(e["card"], e.get("power"))
    reason = e.get("reason")
    source = e.get("from")
    whose = v.whose(seat)
    top = _on_top(e, v, seat, e["card"])
    if reason == "scrap":
        if source == "hand":
            return sentence(v.does(seat, f"scraps {card} from {_their(v, seat)} hand"))
        if "stak" in e:
            where = f"the top card of {_stak(e, _their(v, seat))}"
            return sentence(v.does(seat, f"scraps {where}, {card}") + top)
        return sentence(v.does(seat, f"scraps {_their(v, seat)} top card, {card}") + top)
    if reason == "recycled":
        if source == "hand":
            return sentence(f"{card} goes from {whose} hand to the scrapheap")
        return sentence(f"{v.Whose(seat)} top card, {card}, goes to the scrapheap{top}")
    if reason == "expelled":
        return sentence(v.does(seat, f"scraps {card} from {_their(v, seat)} hand"))
    if reason == "out":
        return sentence(f"{card} goes from {whose} hand to the scrapheap")
    if reason == "Clumsy Bot":
        down = "a face-down " if source == "stak_face_down" else ""
        return sentence(f"The bottom card of {_stak(e, whose)}, {down}{card}, is scrapped")
    down = "face-down " if source == "stak_face_down" else ""
    if reason == "damage":
        return sentence(
            f"{v.Whose(seat)} {down}{card} is scrapped: its damage reached its power{top}"
        )
    return sentence(f"{v.Whose(seat)} {down}{card} is scrapped{top}")


def _returned(e: Event, v: Voice) -> str:
    card = _card(e["card"], e.get("power"))
    seat = e["seat"]
    return sentence(
        f"{card} goes back to {v.whose(seat)} hand, seen by everyone{_on_top(e, v, seat, e['card'])}"
    )


def _reset(e: Event, v: Voice) -> str:
    seat = e["seat"]
    card = _card(e["card"], e.get("power"), e.get("damage", 0))
    what = "it turns face-down" + (" and its damage is cleared" if e.get("damage") else "")
    if "by_seat" in e:
        by = f"{v.Whose(e['by_seat'])} {e['by_card']}"
        return sentence(f"{by} resets {v.whose(seat)} {card}: {what}")
    return sentence(f"{v.Whose(seat)} {card} is reset: {what}")


def _flipped(e: Event, v: Voice) -> str:
    card = _card(e["card"], e.get("power"))
    if "stak" in e:
        return sentence(f"The top card of {_stak(e, v.whose(e['seat']))} turns face-up: {card}")
    return sentence(f"{v.Whose(e['seat'])} top card turns face-up: {card}")


def _entry_effect(e: Event, v: Voice) -> str:
    seat = e["seat"]
    what = _entry_words(e.get("bot", ""), seat, v)
    return sentence(f"Entry effect of {v.whose(seat)} {e['card']}: {what}")


def _ability(e: Event, v: Voice) -> str:
    seat, target = e["seat"], e["target_seat"]
    own = f"{v.Whose(seat)} {e['card']}"
    hit = f"{v.whose(target)} {e.get('hit_card', e['target_card'])}"
    kind = e.get("ability")
    if kind == "fatal":
        return sentence(f"{own} is fatal: {hit} will be scrapped, whatever its power")
    if kind == "spike":
        return sentence(f"{own} damaged {hit}, so the card beneath it will be scrapped")
    if kind == "bash":
        bottom = _stak(e, v.whose(target), "target_stak")
        return sentence(f"{own} damaged {hit}, so the bottom card of {bottom} will be scrapped")
    return sentence(f"{own} uses its ability on {hit}")


def _attack(e: Event, v: Voice) -> str:
    seat, target = e["seat"], e["target"]
    dealt, taken = e["power"], e["target_power"]
    att = f"{v.Whose(seat)} {_card(e['card'], dealt)}"
    dfn = f"{v.whose(target)} {_card(e['target_card'], taken)}"
    if "stak" in e:  # SB-11.12: which staks fight
        att += f" from {_stak(e, _their(v, seat))}"
    if "target_stak" in e:
        dfn += f" on {_stak(e, _their(v, target), 'target_stak')}"
    if e.get("forced"):
        verb = "keeps attacking"
    elif e.get("again"):
        verb = "attacks again, now"
    else:
        verb = "attacks"
    parts = []
    if dealt > 0:
        total = e.get("target_damage", dealt)
        parts.append(f"deals {dealt} damage" + (f" ({total} in all)" if total > dealt else ""))
    else:
        parts.append("deals no damage")
    if taken > 0:
        total = e.get("damage", taken)
        parts.append(f"takes {taken}" + (f" ({total} in all)" if total > taken else ""))
    else:
        parts.append("takes none")
    return sentence(f"{att} {verb} {dfn}: it {parts[0]} and {parts[1]}")


def _target(e: Event, v: Voice) -> str:
    """The chosen card of a top-card effect; "itself" when it is the effect's own card (the only
    top card of the chooser's own stak, SB-6.9)."""
    if e["target_seat"] == e["seat"] and e["target_card"] == e["card"]:
        return "itself"
    return f"{v.whose(e['target_seat'])} {_card(e['target_card'], e.get('target_power'))}"


def _shot(e: Event, v: Voice) -> str:
    own = f"{v.Whose(e['seat'])} {e['card']}"
    damage = e["damage"]
    total = e.get("target_damage", damage)
    more = f" ({total} in all)" if total > damage else ""
    return sentence(f"{own} shoots {_target(e, v)}: {damage} damage{more}")


def _reaped(e: Event, v: Voice) -> str:
    return sentence(f"{v.Whose(e['seat'])} {e['card']} reaps {_target(e, v)}")


def _begone(e: Event, v: Voice) -> str:
    return sentence(f"{v.Whose(e['seat'])} {e['card']} sends away {_target(e, v)}")


def _tripped(e: Event, v: Voice) -> str:
    what = "it is alone in its stak, so nothing moves" if e.get("alone") else "it drops one place"
    what += _on_top(e, v, e["target_seat"], e["target_card"])
    return sentence(f"{v.Whose(e['seat'])} {e['card']} trips {_target(e, v)}: {what}")


def _pitted(e: Event, v: Voice) -> str:
    if e.get("alone"):
        what = "it is alone in its stak, so nothing moves"
    else:
        what = (
            f"it goes face-up to the bottom of {_stak(e, v.whose(e['target_seat']), 'target_stak')}"
        )
    what += _on_top(e, v, e["target_seat"], e["target_card"])
    return sentence(f"{v.Whose(e['seat'])} {e['card']} pits {_target(e, v)}: {what}")


def _moved(e: Event, v: Voice) -> str:
    seat = e["seat"]
    return sentence(f"{v.Whose(seat)} {e['card']} drops one place{_on_top(e, v, seat, e['card'])}")


def _expel(e: Event, v: Voice) -> str:
    seat, target = e["seat"], e["target_seat"]
    whom = "its own owner" if target == seat else v.who(target)
    text = f"{v.Whose(seat)} {e['card']} expels {whom}"
    held = e.get("hand_size")
    if held == 1:
        text += f": {_subject(v, target, 'has')} to scrap {_their(v, target)} only hand card"
    elif held:
        text += (
            f": {_subject(v, target, 'has')} to scrap one of {_their(v, target)} {held} hand cards"
        )
    return sentence(text)


def _fizzled(e: Event, v: Voice) -> str:
    own = f"{v.whose(e['seat'])} {e['card']}"
    if e.get("why") == "empty_hand" and "target_seat" in e:
        target = e["target_seat"]
        return sentence(f"{_subject(v, target, 'has')} no card in hand, so nothing is scrapped")
    if e.get("why") == "no_hand":
        return sentence(f"The entry effect of {own} does nothing: the {DRONE} holds no hand")
    if e.get("bot") == "Tranq":
        return sentence(f"The entry effect of {own} does nothing: there is no other face-up card")
    if e.get("bot") in ("Reaper", "Begone"):
        return sentence(f"The entry effect of {own} does nothing: there is no other top card")
    return sentence(f"The entry effect of {own} does nothing")


def _lapsed(e: Event, v: Voice) -> str:
    seat = e.get("seat")
    card = f"{v.whose(seat)} {e['card']}" if isinstance(seat, int) else e["card"]
    if e.get("why") == "turn limit":
        why = f"{MAX_TURN_EFFECTS} entry effects have already resolved this turn"
    else:
        why = {
            "stak": "it is no longer a top card",
            "hand": "it went back to a hand",
            "scrapheap": "it was scrapped",
        }.get(e.get("where", ""), "it left its stak")
    return sentence(f"The waiting entry effect of {card} is lost: {why}")


def _seat_out(e: Event, v: Voice) -> str:
    seat = e["seat"]
    staks = "staks are all empty" if e.get("staks", 1) > 1 else "stak is empty"
    text = f"{v.Who(seat)} {v.verb(seat, 'is')} out of the game: {v.whose(seat)} {staks}"
    if e.get("hand_size"):
        text += f", and {v.whose(seat)} hand goes to the scrapheap"
    return sentence(text)


def _game_over(e: Event, v: Voice) -> str:
    winners = e.get("winners")
    if winners is None:
        winners = [s for s, r in enumerate(e.get("returns", [])) if r > 0]
    reason = e.get("reason")
    if reason == "drone_wins":
        return sentence(f"The {DRONE} wins: {v.whose(0)} staks are all empty")
    if reason == "drone_cleared":
        return sentence(f"{v.does(0, 'wins')}: the {DRONE}'s staks are all empty")
    if reason == "turn_cap" and not winners and e.get("returns") and e["returns"][0] == 0.5:
        return sentence(
            f"Turn {e.get('turn', '')} was the last one allowed: the {DRONE} still has cards, "
            "and the game is a draw"
        )
    if e.get("team"):
        names = v.seats(winners)
        if reason == "turn_cap":
            return sentence(f"{names} win together: their team is the only one still in")
        return sentence(f"{names} win together: their team is the last with cards in a stak")
    if len(winners) == 1:
        w = winners[0]
        if reason == "turn_cap":
            return sentence(f"{v.does(w, 'wins')}: the only player still in at the turn limit")
        return sentence(f"{v.does(w, 'wins')}: the last player with cards in {_their(v, w)} stak")
    if not winners and reason == "wipe_out_draw":
        return sentence(f"The last staks emptied together: {v.who(0)} and the {DRONE} draw")
    if not winners:
        return "The game is over, and nobody wins."
    names = v.seats(winners)
    if reason == "turn_cap":
        return sentence(
            f"Turn {e.get('turn', '')} was the last one allowed: the game is a draw "
            f"between {names}, the players still in"
        )
    return sentence(f"The game is a draw between {names}: their last staks emptied together")


LINES: dict[str, Line | None] = {
    "turn_started": _turn_started,
    "turn_ended": _turn_ended,
    "card_drawn": _card_drawn,
    "drew": _drew,
    "draw_skipped": _draw_skipped,
    "reshuffled": _reshuffled,
    "played": _played,
    "recycled": _recycled,
    "setup_effects": _setup_effects,
    "attack_declared": _attack_declared,
    "scrapped": _scrapped,
    "returned": _returned,
    "reset": _reset,
    "flipped": _flipped,
    "entry_effect": _entry_effect,
    "ability": _ability,
    "attack": _attack,
    "shot": _shot,
    "reaped": _reaped,
    "begone": _begone,
    "tripped": _tripped,
    "pitted": _pitted,
    "moved": _moved,
    "expel": _expel,
    "effect_fizzled": _fizzled,
    "effect_lapsed": _lapsed,
    "seat_out": _seat_out,
    "game_over": _game_over,
}


def narrate_event(event: Event, voice: Voice) -> str | None:
    return narrate_with(LINES, event, voice)


# -- choices, as the deciding seat reads them -----------------------------------------------------
DRONE = "Drone"  # what the automated side of Drone Mode is called (SB-11.14)


def table_voice(
    num_players: int, viewer: int | None, names: list[str] | None, drones: int
) -> Voice:
    """The table's voice: the seats by their names, and with Drone Mode the Drone."""
    voice = Voice.of(num_players, viewer, names)
    return Voice(viewer, (*voice.names, DRONE)) if drones else voice


def ending(st: StakBotsState) -> str:
    """How a finished game ended, as the log's last line says it to a spectator ("Seat 2 wins:
    the last player with cards in their stak."): a table that knows the names puts them in."""
    event = game_over_event(st, winning_seats(st))
    return _game_over(event, table_voice(st.game.num_players, None, None, st.game.drones))


def chooser_voice(st: StakBotsState) -> Voice:
    """The deciding seat is "you"; the others are named by where they sit in turn order from it
    ("your opponent"; with more seats "the next player", "the opposite player", "the previous
    player"): a state knows no people's names, and "Seat 2" would name a seat by its number."""
    n = st.game.num_players
    me = st.current_player()
    if me < 0:
        return Voice.of(n)
    if n == 2:
        after = {1: "your opponent"}
    elif n == 3:
        after = {1: "the next player", 2: "the previous player"}
    else:
        after = {1: "the next player", 2: "the opposite player", 3: "the previous player"}
    names = [after.get((s - me) % n, "another player") for s in range(n)]
    if st.game.drones:
        names.append(DRONE)
    return Voice(me, tuple(names))


def _live(st: StakBotsState, c: int) -> str:
    """A card where it lies now, with its current power and damage."""
    return _card(st.game.names[c], power(st, c), st.dmg[c])


def _printed(st: StakBotsState, c: int) -> str:
    p = st.game.base_power[c]
    return _card(st.game.names[c], p if p >= 0 else "X")


def _leader_on_top(st: StakBotsState, k: int) -> int:
    """A Leader Bot's power once played on stak k: itself plus the face-up run below."""
    run = 1
    for c in reversed(st.staks[k]):
        if st.vis[c] != UP:
            break
        run += 1
    return run


def _summary(g: Any, card: int) -> str:
    """What a card does, after its name in a choice: " (entry effect: ...)".
    Nothing for a card without an ability."""
    text = g.deck.cards[card].text
    if text.startswith("> ") and not g.entry:
        return ""  # SB-11.9: in Quickfire Mode entry effects do nothing
    if text.startswith("> "):
        return f" (entry effect: {text[2].lower()}{text[3:].rstrip('.')})"
    if text.startswith("* "):
        return f" ({text[2].lower()}{text[3:].rstrip('.')})"
    if text == "No ability.":
        return ""
    # The Leader's "Power X = ..." in words (no symbols in a sentence a player reads).
    text = text.replace("Power X = the face-up cards", "its power is the count of face-up cards")
    return f" ({text[0].lower()}{text[1:].rstrip('.')})"


def _where(st: StakBotsState, whose: str, k: int) -> str:
    """Stak k after its possessive in a choice: "your stak", "your second stak" (SB-11.12)."""
    return f"{whose} {st.game.stak_word[k]}"


def describe_action(st: StakBotsState, action: Any) -> str:
    """The choice in words for the deciding seat ("attack your opponent's Core Bot (power 2)
    with your Shot Bot (power 5)"), naming cards and seats, never positions."""
    g = st.game
    v = chooser_voice(st)
    me = st.current_player()
    cls = type(action)
    several = g.several
    if cls is Play or cls is React:
        c = action.card
        if cls is React:
            k = st.declared
        else:
            k = g.staks_of[me if action.seat < 0 else action.seat][action.stak]
        if g.base_power[c] < 0:
            card = f"{g.names[c]} (power X, {_leader_on_top(st, k)} once played)"
        else:
            card = _printed(st, c)
        onto = _where(st, "your" if g.owner[k] == me else v.whose(g.owner[k]), k)
        if cls is React:
            attacker = f"{v.whose(st.active)} {_live(st, st.decision[1])}"  # type: ignore[index]
            return f"react: play {card} onto {onto}, so {attacker} does not attack"
        return f"play {card} onto {onto}{_summary(g, c)}"
    if cls is Recycle:
        k = g.staks_of[me][action.stak]
        top = _live(st, st.staks[k][-1])
        card = _printed(st, action.card)
        where = f"the top card of {_where(st, 'your', k)}" if several[k] else "your top card"
        return f"recycle: scrap {where}, {top}, and {card} from your hand, then draw a card"
    if cls is LetThrough:
        attacker = f"{v.whose(st.active)} {_live(st, st.decision[1])}"  # type: ignore[index]
        k = st.declared
        mine = f"your {_live(st, st.staks[k][-1])}"
        if several[k]:
            mine += f" on {_where(st, 'your', k)}"
        return f"let the attack through: {attacker} attacks {mine}"
    if cls is Scrap:
        if action.from_hand:
            return f"scrap {_printed(st, action.card)} from your hand{_summary(g, action.card)}"
        k = stak_of(st, action.card)
        if several[k]:
            return f"scrap the top card of {_where(st, 'your', k)}, {_live(st, action.card)}"
        return f"scrap your top card, {_live(st, action.card)}"
    if cls is Attack:
        t = g.staks_of[action.target][action.target_stak]
        k = g.staks_of[me][action.own_stak]
        target = f"{v.whose(action.target)} {_live(st, st.staks[t][-1])}"
        mine = f"your {_live(st, st.staks[k][-1])}"
        if several[t]:
            target += f" on {_where(st, _their(v, action.target), t)}"
        if several[k]:
            mine += f" from {_where(st, 'your', k)}"
        if st.stomp >= 0:
            return f"keep attacking: attack {target} with {mine} again"
        return f"attack {target} with {mine}"
    if cls is EndTurn:
        return "end your turn"
    if cls is Discard:
        card = _printed(st, action.card)
        if st.decision is not None:
            effect = st.decision[1]
            k = top_stak(st, effect)
            by = f"{v.whose(g.owner[k])} " if k >= 0 else ""
            return f"scrap {card} from your hand, as {by}{g.names[effect]} demands"
        return f"scrap {card} from your hand"
    if cls is ChoosePlayer:
        s = action.seat
        held = len(st.hands[s])
        if s == me:
            holds = f"you hold {plural(held, 'card')}" if held else "you hold no card"
            return f"expel yourself: scrap a card from your hand ({holds})"
        holds = f"they hold {plural(held, 'card')}" if held else "they hold none: nothing happens"
        return f"expel {v.who(s)}, who scraps a card from their hand ({holds})"
    if cls is Target and st.decision is not None:
        return _describe_target(st, v, action)
    return action.label()


def _describe_target(st: StakBotsState, v: Voice, action: Target) -> str:
    _kind, effect, me = st.decision  # type: ignore[misc]
    g = st.game
    k = g.staks_of[action.seat][action.stak]
    stak = st.staks[k]
    x = stak[len(stak) - 1 - action.depth]
    their = _where(st, _their(v, action.seat), k)
    if x == effect:
        what = f"your {g.names[x]} itself"
    else:
        what = f"{v.whose(action.seat)} {_live(st, x)}"
    if action.depth:
        what += f", {_from_top(action.depth, len(stak))} of {their}"
    elif g.several[k] and x != effect:
        what += f" on {their}"
    bot = g.bot[effect]
    if bot == Bot.SHOT:
        return f"shoot {what} for {SHOT_DAMAGE} damage"
    if bot == Bot.REAPER:
        return f"reap {what}: it is scrapped"
    if bot == Bot.BEGONE:
        return f"send {what} back to {_their(v, action.seat)} hand"
    if bot == Bot.TRIP:
        return f"trip {what}: it drops one place"
    if bot == Bot.PIT:
        return f"pit {what}: it goes to the bottom of {their}"
    if bot == Bot.TRANQ:
        return f"reset {what}: it turns face-down"
    return f"choose {what}"


__all__ = ["LINES", "chooser_voice", "describe_action", "narrate_event"]


def result_sentence(st: StakBotsState, viewer: int | None = None, names: Any = None) -> str:
    """Who won a finished game and by how much: "Ada wins: the last player with cards in their
    stak (4 cards left)"; team wins, draws and Drone Mode as the log's last line says them."""
    voice = table_voice(st.game.num_players, viewer, names, st.game.drones)
    winners = winning_seats(st)
    text = _game_over(game_over_event(st, winners), voice)
    left = sum(len(st.staks[k]) for w in winners for k in st.game.staks_of[w])
    if winners and left and text.endswith("."):
        text = f"{text[:-1]} ({plural(left, 'card')} left)."
    return text


def result_scores(st: StakBotsState) -> dict[str, Any]:
    """Each seat's score at the end, for the web table's end screen: the cards left in its
    staks (the winner is the last player with any)."""
    staks = st.game.staks_of
    return {
        "unit": "cards left",
        "scores": [sum(len(st.staks[k]) for k in staks[s]) for s in range(st.game.num_players)],
    }
