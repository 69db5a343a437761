"""Bread Winner in words: every event as a game host says it, and every choice as the deciding
seat reads it.

Things are named by what they are and whose they are: "Ada's Harvester", "Bo's Delivery tile",
"factory 3", "the 2-loaf crop chip". Land tiles keep the names the board prints on them (L1a,
L1b, L2a, L2b: map locations, see the guide's terms); a Delivery tile is named by its owner.
Front ends call these functions; the engine never does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from robotable.core.narration import (
    Line,
    Voice,
    join_words,
    narrate_with,
    result_by_score,
    sentence,
)

from .actions import Act, Build, Deactivate, Deploy, EndPhase, Hold, Move, Research
from .board import DELIVERY, DICE_PER_SEAT, NUM_LOAVES, TILE_INDEX

if TYPE_CHECKING:
    from robotable.core.events import Event

    from .state import BreadWinnerState

# The die letter of a bot ("A3") tells its owner: A is the first seat, B the second.
_OWNER = {"A": 0, "B": 1}


# -- words for things ----------------------------------------------------------------------------
def owner_of(die: Any) -> int | None:
    """The seat owning a die named like "B4"."""
    if isinstance(die, str) and die[:1] in _OWNER:
        return _OWNER[die[:1]]
    return None


def place(tile: Any, voice: Voice, *, land: str = "Land tile ") -> str:
    """A map tile in words: "Ada's Delivery tile", "your Delivery tile", "Land tile L1a"; a
    factory ("factory 3") stays as it is."""
    index = TILE_INDEX.get(tile) if isinstance(tile, str) else None
    if index is None:
        return str(tile)
    if index in DELIVERY:
        return f"{voice.whose(DELIVERY.index(index))} Delivery tile"
    return f"{land}{tile}"


def two_places(first: Any, second: Any, voice: Voice) -> tuple[str, str]:
    """Two tiles in one sentence: "Land tile" is said once ("Land tile L2a", "L1a")."""
    one = place(first, voice)
    return one, place(second, voice, land="" if one.startswith("Land") else "Land tile ")


def bot(kind: Any, seat: int | None, voice: Voice, *, capital: bool = False) -> str:
    """ "Ada's Harvester", "your Drone" (or "a Harvester" when its owner is unknown)."""
    if seat is None:
        return f"{'A' if capital else 'a'} {kind}"
    return f"{voice.Whose(seat) if capital else voice.whose(seat)} {kind}"


def chip(value: Any) -> str:
    """ "the 3-loaf crop chip"."""
    return f"the {value}-loaf crop chip"


def loaves(count: int) -> str:
    return f"{count} loaf" if count == 1 else f"{count} loaves"


def a_bot(kind: str) -> str:
    """ "a Harvester", "an R&D"."""
    return f"{'an' if kind == 'R&D' else 'a'} {kind}"


def bots(kind: str, count: int) -> str:
    """ "a Drone", "2 Drones", "3 R&D"."""
    if count == 1:
        return a_bot(kind)
    return f"{count} {kind if kind == 'R&D' else kind + 's'}"


def pile(seat: int, voice: Voice) -> str:
    return f"{voice.whose(seat)} dice pile"


# -- events --------------------------------------------------------------------------------------
def _dice_rolled(e: Event, v: Voice) -> str:
    faces = e.get("faces") or {}
    total = sum(faces.values())
    rolled = join_words([bots(kind, n) for kind, n in faces.items() if n])
    head = v.does(e["seat"], f"rolls {total} {'die' if total == 1 else 'dice'}")
    return sentence(f"{head} to build from: {rolled}")


def _bot_built(e: Event, v: Voice) -> str:
    seat, kind = e["seat"], e["card"]
    if e.get("research"):
        return sentence(
            v.does(seat, f"spends three R&D to build {a_bot(kind)} on factory {e['factory']}")
        )
    return sentence(v.does(seat, f"builds {a_bot(kind)} on factory {e['factory']}"))


def _bot_deployed(e: Event, v: Voice) -> str:
    seat = e["seat"]
    return sentence(
        v.does(seat, f"deploys {a_bot(e['card'])} from factory {e['factory']} ")
        + f"to {place(e['to_tile'], v)}"
    )


def _bot_moved(e: Event, v: Voice) -> str:
    seat = e["seat"]
    frm, to = two_places(e["from_tile"], e["to_tile"], v)
    text = f"{bot(e['card'], seat, v, capital=True)} moves from {frm} to {to}"
    if e.get("carrying"):
        text += f", carrying {chip(e['carrying'])}"
    return sentence(text)


def _bot_held(e: Event, v: Voice) -> str:
    return sentence(
        f"{bot(e['card'], e['seat'], v, capital=True)} stays on {place(e['tile'], v)} "
        "without acting"
    )


_STEP_DONE = {
    "map": "is done with the bots on the map",
    "deploy": "is done deploying",
    "build": "is done building",
}


def _step_done(e: Event, v: Voice) -> str:
    return sentence(v.does(e["seat"], _STEP_DONE.get(e.get("step"), "ends a step")))


def _turn_ended(e: Event, v: Voice) -> str:
    return sentence(v.does(e["seat"], f"ends turn {e['turn']}"))


def _bot_deactivated(e: Event, v: Voice) -> str:
    seat = e["seat"]
    return sentence(
        v.does(seat, f"deactivates {a_bot(e['card'])} on {place(e['at'], v)}")
        + f": it goes back to {pile(seat, v)}"
    )


def _plant(e: Event, v: Voice) -> str:
    seat = e["seat"]
    return sentence(
        f"{bot(e['card'], seat, v, capital=True)} plants a crop chip face down on "
        f"{place(e['tile'], v)} and goes back to {pile(seat, v)}"
    )


def _restore(e: Event, v: Voice) -> str:
    seat = e["seat"]
    return sentence(
        f"{bot(e['card'], seat, v, capital=True)} restores the soil of {place(e['tile'], v)} "
        f"(the poison chip goes back to the supply) and goes back to {pile(seat, v)}"
    )


def _harvest(e: Event, v: Voice) -> str:
    return sentence(
        f"{bot(e['card'], e['seat'], v, capital=True)} harvests the crop chip on "
        f"{place(e['tile'], v)}: turned face up, it is worth {loaves(e['value'])}"
    )


def _steal(e: Event, v: Voice) -> str:
    seat = e["seat"]
    victim = owner_of(e.get("target"))
    return sentence(
        f"{bot(e['card'], seat, v, capital=True)} steals {chip(e['value'])} from "
        f"{bot('Harvester', victim, v)} on {place(e['tile'], v)}"
    )


def _unload(e: Event, v: Voice) -> str:
    seat = e["seat"]
    rival = 1 - seat
    taken = []
    if e.get("from_centre"):
        taken.append(f"{loaves(e['from_centre'])} from the centre")
    if e.get("from_rival"):
        taken.append(f"{loaves(e['from_rival'])} from {v.who(rival)}")
    head = (
        f"{bot(e['card'], seat, v, capital=True)} unloads {chip(e['value'])} on "
        f"{place(e['tile'], v)}"
    )
    if not taken:
        return sentence(f"{head}, but there is no bread left to take")
    text = f"{head}: {v.who(seat)} {v.verb(seat, 'takes')} {join_words(taken)}"
    held = e.get("loaves")
    if isinstance(held, int):
        if held >= NUM_LOAVES:
            text += f" and {v.verb(seat, 'holds')} all {NUM_LOAVES} loaves"
        else:
            left = NUM_LOAVES - held
            text += f" and {v.verb(seat, 'holds')} {loaves(held)}, {left} short of all {NUM_LOAVES}"
    return sentence(text)


def _poison(e: Event, v: Voice) -> str:
    seat = e["seat"]
    text = f"{bot(e['card'], seat, v, capital=True)} poisons {place(e['tile'], v)}"
    if e.get("discarded_value"):
        return sentence(
            f"{text}, spoiling the face-down crop chip there (a {e['discarded_value']}-loaf "
            f"chip, now in the Discarded Harvest), and goes back to {pile(seat, v)}"
        )
    return sentence(f"{text} and goes back to {pile(seat, v)}")


def _meltdown(e: Event, v: Voice) -> str:
    seat = e["seat"]
    victim = owner_of(e.get("target"))
    text = (
        f"{bot(e['card'], seat, v, capital=True)} melts down {bot('Harvester', victim, v)} on "
        f"{place(e['tile'], v)}"
    )
    if e.get("discarded_value"):
        text += f" and its harvest ({chip(e['discarded_value'])} goes to the Discarded Harvest)"
    return sentence(f"{text}: both bots go back to their dice piles")


def _pulse(e: Event, v: Voice) -> str:
    seat = e["seat"]
    victim = owner_of(e.get("target"))
    target = bot(e.get("target_card", "bot"), victim, v)
    here, there = two_places(e["tile"], e.get("target_tile", e["tile"]), v)
    text = f"{bot(e['card'], seat, v, capital=True)} on {here} fires a pulse at {target}"
    if e.get("target_tile") and e["target_tile"] != e["tile"]:
        text += f" on {there}"
    else:
        text += " on the same tile"
    if e.get("target_card") == "Shield":
        text += ", which absorbs it"
    return sentence(f"{text}: both bots go back to their dice piles")


def _harvest_dropped(e: Event, v: Voice) -> str:
    owner = e.get("owner")
    return sentence(
        f"{bot('Harvester', owner, v, capital=True)} leaves its harvest, {chip(e['value'])}, "
        f"face down on {place(e['tile'], v)}, its value known to all"
    )


def _harvest_discarded(e: Event, v: Voice) -> str:
    owner = e.get("owner")
    carrier = bot("Harvester", owner, v) if owner is not None else "the Harvester"
    return sentence(f"{chip(e['value'])}, which {carrier} carried, goes to the Discarded Harvest")


def _crops_reshuffled(e: Event, v: Voice) -> str:
    n = e.get("chips", 0)
    return sentence(
        f"The crop pile is empty: the Discarded Harvest ({n} {'chip' if n == 1 else 'chips'}) "
        "is shuffled back into it"
    )


def _head_start(e: Event, v: Voice) -> str:
    return sentence(
        v.does(
            e["seat"],
            f"takes {loaves(e['loaves'])} from the centre for moving second "
            f"({loaves(e['centre'])} left there)",
        )
    )


def _first_turn_limit(e: Event, v: Voice) -> str:
    count = e["bots"]
    return sentence(
        v.does(
            e["seat"],
            f"may build at most {count} {'bot' if count == 1 else 'bots'} on this first turn, "
            "for moving first",
        )
    )


def _game_over(e: Event, v: Voice) -> str:
    winner = e.get("winner", -1)
    reason = e.get("reason", "")
    held = e.get("loaves") or [0, 0]
    if reason == "all_loaves" and isinstance(winner, int) and winner >= 0:
        return f"The game is over: {v.who(winner)} {v.verb(winner, 'is')} the Bread Winner!"
    cap = e.get("max_turns")
    head = "The turn limit is reached" + (f" ({cap} turns each, {2 * cap} in all)" if cap else "")
    if isinstance(winner, int) and winner >= 0:
        loser = 1 - winner
        return (
            f"{head}: {v.who(winner)} {v.verb(winner, 'wins')} with {loaves(held[winner])} "
            f"to {v.whose(loser)} {held[loser]}, and {v.verb(winner, 'is')} the Bread Winner!"
        )
    if held[0] == held[1]:
        return f"{head}: the game is a draw, {loaves(held[0])} each."
    return (
        f"{head}: the game is a draw by the table's rule "
        f"({v.name(0)} {loaves(held[0])}, {v.name(1)} {loaves(held[1])})."
    )


LINES: dict[str, Line | None] = {
    "dice_rolled": _dice_rolled,
    "bot_built": _bot_built,
    "bot_deployed": _bot_deployed,
    "bot_moved": _bot_moved,
    "bot_held": _bot_held,
    "step_done": _step_done,
    "turn_ended": _turn_ended,
    "bot_deactivated": _bot_deactivated,
    "plant": _plant,
    "restore": _restore,
    "harvest": _harvest,
    "steal": _steal,
    "unload": _unload,
    "poison": _poison,
    "meltdown": _meltdown,
    "pulse": _pulse,
    "harvest_dropped": _harvest_dropped,
    "harvest_discarded": _harvest_discarded,
    "crops_reshuffled": _crops_reshuffled,
    "head_start": _head_start,
    "first_turn_limit": _first_turn_limit,
    "game_over": _game_over,
}


def narrate_event(event: Event, voice: Voice) -> str | None:
    return narrate_with(LINES, event, voice)


# -- choices -------------------------------------------------------------------------------------
def _yours(st: BreadWinnerState, die: int, kind: str, voice: Voice) -> str:
    """ "your Harvester", "your Harvester carrying the 3-loaf crop chip"."""
    carried = st.carry[die]
    text = f"{voice.whose(die // DICE_PER_SEAT)} {kind}"
    if carried >= 0:
        text += f" carrying {chip(st.game.crop_values[carried])}"
    return text


def _theirs(st: BreadWinnerState, die: int, kind: str) -> str:
    """ "the rival's Harvester (carrying the 3-loaf crop chip)"."""
    carried = st.carry[die]
    text = f"the rival's {kind}"
    if carried >= 0:
        text += f" carrying {chip(st.game.crop_values[carried])}"
    return text


def _spot(tile: str, st: BreadWinnerState, seat: int, voice: Voice) -> str:
    """A tile as the deciding seat reads it: "L1a", "your Delivery tile", "the rival's ..."."""
    index = TILE_INDEX.get(tile)
    if index is not None and index in DELIVERY and DELIVERY.index(index) != seat:
        return "the rival's Delivery tile"
    return place(tile, voice, land="")


_END = {
    "map": "done with the bots on the map (go on to deploying)",
    "deploy": "done deploying (go on to building)",
    "build": "done building (go on to deactivating)",
    "turn": "end the turn",
}


def describe_action(st: BreadWinnerState, action: Any) -> str:
    """The choice in words for the seat deciding now: its bots are "your", the other seat's are
    "the rival's", tiles carry the board's names."""
    seat = st.seat
    voice = Voice.of(st.game.num_players, viewer=seat)
    cls = type(action)
    if cls is Move:
        return (
            f"move {_yours(st, action.die, action.bot, voice)} from "
            f"{_spot(action.frm, st, seat, voice)} to {_spot(action.to, st, seat, voice)}"
        )
    if cls is Act:
        return _describe_act(st, action, seat, voice)
    if cls is Hold:
        return (
            f"leave {_yours(st, action.die, action.bot, voice)} on "
            f"{_spot(action.at, st, seat, voice)} without acting"
        )
    if cls is Deploy:
        return (
            f"deploy {_yours(st, action.die, action.bot, voice)} from factory {action.factory} "
            f"to {_spot(action.to, st, seat, voice)}"
        )
    if cls is Build:
        return f"build {a_bot(action.bot)} on factory {action.factory}"
    if cls is Research:
        return f"spend three R&D to build {a_bot(action.bot)} on factory {action.factory}"
    if cls is Deactivate:
        return (
            f"deactivate {_yours(st, action.die, action.bot, voice)} on "
            f"{_spot(action.at, st, seat, voice)} (back to your dice pile)"
        )
    if cls is EndPhase:
        if action.phase == "turn" and st.turn <= 2:
            return "end the turn (the first turn is building only)"
        return _END.get(action.phase, f"end {action.phase}")
    return action.label()


def _describe_act(st: BreadWinnerState, action: Act, seat: int, voice: Voice) -> str:
    mine = _yours(st, action.die, action.bot, voice)
    here = _spot(action.at, st, seat, voice)
    ability = action.ability
    tile = TILE_INDEX[action.at]
    if ability == "plant":
        return f"plant a crop chip face down on {here} with {mine}"
    if ability == "restore":
        return f"restore the soil of {here} with {mine} (removes the poison)"
    if ability == "harvest":
        crop = st.crop[tile]
        what = chip(st.game.crop_values[crop]) if crop >= 0 and st.known[tile] else "the crop chip"
        return f"harvest {what} on {here} with {mine}"
    if ability == "steal":
        loot = st.carry[action.target]
        what = chip(st.game.crop_values[loot]) if loot >= 0 else "the harvest"
        return f"steal {what} from the rival's Harvester on {here} with {mine}"
    if ability == "unload":
        value = st.game.crop_values[st.carry[action.die]]
        return f"unload {mine} on {here} for {loaves(value)}"
    if ability == "poison":
        spoil = ", spoiling the crop chip there" if st.crop[tile] >= 0 else ""
        return f"poison {here} with {mine}{spoil}"
    if ability == "meltdown":
        return f"melt down {_theirs(st, action.target, 'Harvester')} on {here} with {mine}"
    target = _theirs(st, action.target, action.target_bot)
    there = _spot(action.target_at, st, seat, voice)
    return f"pulse {target} on {there} with {mine} on {here}"


def result_sentence(st: BreadWinnerState, viewer: int | None = None, names: Any = None) -> str:
    """Who won a finished game and by how much: "Ada wins, 12 loaves to 9" (the terminal's and
    the web table's end screen)."""
    voice = Voice.of(2, viewer, names)
    held = list(st.loaves)
    if st.winner < 0 and held[0] != held[1]:  # a draw by the table's rule despite the loaves
        return sentence(
            f"The game is a draw by the table's rule ({voice.who(0)} {loaves(held[0])}, "
            f"{voice.who(1)} {loaves(held[1])})"
        )
    winners = [0, 1] if st.winner < 0 else [st.winner]
    return result_by_score(held, winners, voice, loaves)


def result_scores(st: BreadWinnerState) -> dict[str, Any]:
    """Each seat's score at the end, for the web table's end screen: the loaves it holds."""
    return {"unit": "loaves", "scores": list(st.loaves)}
