"""Iotabots in words: every event as a game host would say it, and every choice as the deciding
seat reads it (the rulebook's words: Bot Zone, Junk Zone, Buzz card, Life Points, mana).

Things are named by what they are, never by a position: a Bot by its card name, whose it is (and
who controls it, when someone borrowed it) and, where it matters, its current ATK and DEF. Only
front ends call this module (`Game.narrate`, `State.describe_action`), never the engine.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from robotable.core.events import Event
from robotable.core.narration import Line, Voice, join_words, narrate_with, plural, sentence

from . import effects
from .actions import (
    LIFE_POINTS,
    Activate,
    Attack,
    ChooseBot,
    ChooseCard,
    ChooseOrder,
    EndBattle,
    EndTurn,
    EnterBattle,
    Mulligan,
    PlayBuzz,
    Summon,
)
from .content import CardType, Op
from .rules import HAND_LIMIT, HAND_SIZE, MAX_MULLIGANS, START_LIFE, opening_hand
from .state import DRAW

if TYPE_CHECKING:
    from robotable.core.protocol import Action

    from .state import IotabotsState

_ORDINALS = ("first", "second", "third", "fourth", "fifth")


# -- small phrases -----------------------------------------------------------------------------


def stats(atk: int, dfn: int) -> str:
    return f"ATK {atk}, DEF {dfn}"


def bot_name(
    voice: Voice,
    name: str,
    controller: int,
    owner: int | None = None,
    shown: tuple[int, int] | str | None = None,
    now: bool = False,
) -> str:
    """ "Ada's Range Bot", "your Range Bot (ATK 3, DEF 1)", "Bo's Loaded Bot (ATK 4, DEF 2,
    under Ada's control)": whose it is, who controls it when someone borrowed it, and the
    `shown` (ATK, DEF) when given ("now ATK 4, DEF 4" with `now`), or a note of its own."""
    notes = []
    if isinstance(shown, str):
        notes.append(shown)
    elif shown is not None:
        notes.append(("now " if now else "") + stats(*shown))
    if owner is None or owner == controller:
        head = f"{voice.whose(controller)} {name}"
    else:
        head = f"{voice.whose(owner)} {name}"
        notes.append(f"under {voice.whose(controller)} control")
    return f"{head} ({', '.join(notes)})" if notes else head


def life_points(count: int) -> str:
    return plural(count, "Life Point")


def _loses(voice: Voice, seat: int, amount: int, left: int | None) -> str:
    """ "Bo loses 3 Life Points (17 left)"; the clause of a longer sentence."""
    if left is None:
        rest = ""
    else:
        rest = f" ({left} left)" if left > 0 else " (none left)"
    return f"{voice.who(seat)} {voice.verb(seat, 'loses')} {life_points(amount)}{rest}"


def _change(atk: int, dfn: int) -> str:
    """ "ATK +2", "DEF +2", "ATK +1 and DEF -1"."""
    parts = [f"{label} {value:+d}" for label, value in (("ATK", atk), ("DEF", dfn)) if value]
    return join_words(parts) if parts else "no change"


def _life(event: Event, seat: int) -> int | None:
    life = event.get("life")
    if isinstance(life, list) and 0 <= seat < len(life):
        return life[seat]
    return None


# -- the battle (IB-6.4), shared by the log and the choices --------------------------------------


def battle_outcome(
    voice: Voice,
    attacker: str,
    defender: str,
    seat: int,
    defender_diff: int,
    attacker_diff: int,
    life: list[int] | None = None,
) -> str:
    """What a battle does: "Bo's Loaded Bot is destroyed and Bo loses 1 Life Point (19 left)".
    `attacker` and `defender` name the two Bots; `seat` attacks, its opponent defends."""
    other = 1 - seat

    def left(s: int) -> int | None:
        return life[s] if life is not None else None

    def side(name: str, diff: int, loser: int) -> str:
        if diff > 0:
            return ""
        text = f"{name} is destroyed"
        if diff < 0:
            text += f" and {_loses(voice, loser, -diff, left(loser))}"
        return text

    both = defender_diff <= 0 and attacker_diff <= 0
    if defender_diff > 0 and attacker_diff > 0:
        return "neither Bot is destroyed"
    if both and defender_diff == 0 and attacker_diff == 0:
        return "both Bots are destroyed"
    parts = [side(defender, defender_diff, other), side(attacker, attacker_diff, seat)]
    return "; ".join(p for p in parts if p)


# -- event lines -------------------------------------------------------------------------------


def _coin_toss(e: Event, v: Voice) -> str:
    return sentence(
        f"{v.does(e['winner'], 'wins')} the coin toss and {v.verb(e['winner'], 'chooses')} "
        f"who goes first in duel {e.get('duel', 1)}"
    )


def _choose_order(e: Event, v: Voice) -> str:
    seat = e["seat"]
    order = "first" if e["go_first"] else "second"
    why = e.get("why")
    if why == "coin toss":
        return sentence(
            f"{v.does(seat, 'wins')} the coin toss and {v.verb(seat, 'chooses')} to go {order}"
        )
    if why == "lost":
        return sentence(
            f"having lost duel {e['duel'] - 1}, {v.who(seat)} {v.verb(seat, 'chooses')} "
            f"to go {order}"
        )
    return sentence(f"{v.does(seat, 'chooses')} to go {order}")


def _duel_start(e: Event, v: Voice) -> str:
    return sentence(
        f"Duel {e['duel']} begins: {v.who(e['first'])} {v.verb(e['first'], 'goes')} first. "
        f"Both decks are shuffled and both duelists start at {START_LIFE} Life Points"
    )


def _draw(e: Event, v: Voice) -> str:
    seat = e["seat"]
    count = e["count"]
    what = "a card" if count == 1 else plural(count, "card")
    text = f"{v.does(seat, 'draws')} {what}"
    if e.get("by"):
        text += f" ({e['by']})"
    left = e.get("deck_count")
    if isinstance(left, int) and left <= 5:
        text += f"; {plural(left, 'card')} left in {v.whose(seat)} deck"
    return sentence(text)


def _drew(e: Event, v: Voice) -> str:
    cards = list(e.get("cards") or [])
    if not cards:
        return ""
    whose = v.Whose(e["seat"])
    if len(cards) == 1:
        return sentence(f"{whose} new card is {cards[0]}")
    return sentence(f"{whose} new cards are {join_words(cards)}")


def _mulligan(e: Event, v: Voice) -> str:
    seat = e["seat"]
    n = e["count"]
    nth = _ORDINALS[n - 1] if 0 < n <= len(_ORDINALS) else str(n)
    text = (
        f"{v.does(seat, 'takes')} a mulligan (the {nth} of {MAX_MULLIGANS}): "
        f"the hand is shuffled back into the deck for {e.get('hand_size', HAND_SIZE)} new cards"
    )
    if n >= MAX_MULLIGANS:
        text += ", which must be kept"
    return sentence(text)


def _keep(e: Event, v: Voice) -> str:
    return sentence(f"{v.does(e['seat'], 'keeps')} this hand")


def _turn(e: Event, v: Voice) -> str:
    seat = e["seat"]
    text = f"Turn {e['turn']}: {v.whose(seat)} turn"
    if "mana" in e:
        text += f", with {e['mana']} mana to spend"
        if e.get("going_second"):
            text += " (one extra for going second)"
    text = sentence(text)
    if e.get("protect_ends"):
        text += " " + sentence(f"{v.Whose(seat)} Bot Protect ends")
    return text


def _summon(e: Event, v: Voice) -> str:
    text = f"{v.does(e['seat'], 'summons')} {e['card']}"
    if "atk" in e:
        text += f" ({stats(e['atk'], e['def'])})"
    if "mana" in e:
        text += " for free" if e["mana"] == 0 else f" for {e['mana']} mana"
    return sentence(text)


def _play_buzz(e: Event, v: Voice) -> str:
    text = f"{v.does(e['seat'], 'activates')} the Buzz card {e['card']}"
    if "mana" in e:
        text += " for free" if e["mana"] == 0 else f" for {e['mana']} mana"
    return sentence(text)


def _activate(e: Event, v: Voice) -> str:
    return sentence(f"{v.does(e['seat'], 'uses')} the ignition effect of {e['card']}")


def _battle_phase(e: Event, v: Voice) -> str:
    return sentence(f"{v.does(e['seat'], 'enters')} the Battle Phase")


def _main_phase_2(e: Event, v: Voice) -> str:
    seat = e["seat"]
    return sentence(
        f"{v.does(seat, 'ends')} the Battle Phase and {v.verb(seat, 'goes')} to Main Phase 2"
    )


def _end_turn(e: Event, v: Voice) -> str:
    return sentence(f"{v.does(e['seat'], 'ends')} the turn")


def _discard(e: Event, v: Voice) -> str:
    seat = e["seat"]
    by = e.get("by")
    text = f"{v.does(seat, 'discards')} {e['card']}"
    if by == "hand limit":
        text += f" (at the end of a turn a hand holds at most {HAND_LIMIT} cards)"
    elif by and e.get("cost"):
        text += f" to pay for {by}"
    elif by:
        text = f"{by}: {v.who(seat)} {v.verb(seat, 'discards')} {e['card']}"
    return sentence(text)


def _attack(e: Event, v: Voice) -> str:
    seat = e["seat"]
    other = 1 - seat
    attacker = bot_name(v, e["card"], seat, e.get("owner"))
    if e["target"] == "life points":
        damage = e["damage"]
        head = f"{bot_name(v, e['card'], seat, e.get('owner'), f'ATK {damage}')} attacks "
        head += f"{v.who(other)} directly"
        if damage <= 0:
            return sentence(f"{head}, but with ATK 0 it does no damage")
        return sentence(f"{head}: {_loses(v, other, damage, _life(e, other))}")
    defender = bot_name(v, e["target"], other, e.get("target_owner"))
    head = (
        f"{bot_name(v, e['card'], seat, e.get('owner'), _shown(e, ''))} attacks "
        f"{bot_name(v, e['target'], other, e.get('target_owner'), _shown(e, 'target_'))}"
    )
    life = e.get("life") if isinstance(e.get("life"), list) else None
    outcome = battle_outcome(
        v, attacker, defender, seat, e["defender_diff"], e["attacker_diff"], life
    )
    return sentence(f"{head}: {outcome}")


def _shown(e: Event, prefix: str) -> tuple[int, int] | None:
    """The event's (ATK, DEF) under `prefix` ("" or "target_"), when it carries them."""
    atk, dfn = e.get(prefix + "atk"), e.get(prefix + "def")
    return (atk, dfn) if isinstance(atk, int) and isinstance(dfn, int) else None


def _target(e: Event, v: Voice) -> str:
    """The Bot an effect took: "Bo's Loaded Bot", "Ada's Scrap Bot token", "Bo's Tri Bot (under
    Ada's control)", with its ATK and DEF when the event carries them."""
    controller = e.get("target_controller", e.get("target_owner", e["seat"]))
    name = e["target"] + (" token" if e.get("token") else "")
    return bot_name(v, name, controller, e.get("target_owner"), _shown(e, "target_"))


def _tribute(e: Event, v: Voice) -> str:
    seat = e["seat"]
    target = _target(e, v)
    if e.get("target_owner", seat) == seat and e.get("target_controller", seat) == seat:
        target = target.removeprefix(f"{v.whose(seat)} ")  # "Ada tributes Drone Bot"
    return sentence(f"{v.does(seat, 'tributes')} {target} to pay for {e['card']}")


def _destroy(e: Event, v: Voice) -> str:
    text = f"{e['card']} destroys {_target(e, v)}"
    if e.get("token"):
        text += ", which leaves the game"
    return sentence(text)


def _bounce(e: Event, v: Voice) -> str:
    if e.get("token"):
        return sentence(f"{e['card']} removes {_target(e, v)} from the game")
    owner = e.get("target_owner", e["seat"])
    return sentence(f"{e['card']} returns {_target(e, v)} to {v.whose(owner)} hand")


def _heal(e: Event, v: Voice) -> str:
    seat = e["seat"]
    text = f"{e['card']}: {v.who(seat)} {v.verb(seat, 'gains')} {life_points(e['amount'])}"
    if "life" in e:
        text += f" (now {e['life']})"
    return sentence(text)


def _damage(e: Event, v: Voice) -> str:
    other = 1 - e["seat"]
    return sentence(f"{e['card']}: {_loses(v, other, e['amount'], e.get('life'))}")


def _add_mana(e: Event, v: Voice) -> str:
    seat = e["seat"]
    text = f"{e['card']}: {v.who(seat)} {v.verb(seat, 'gets')} {e['amount']} more mana this turn"
    if "mana" in e:
        text += f" (now {e['mana']})"
    return sentence(text)


def _modify(e: Event, v: Voice) -> str:
    names = list(e.get("targets") or [])
    change = _change(e.get("atk", 0), e.get("def", 0))
    if not names:
        return sentence(f"{e['card']}: there is no Bot to get {change}")
    controllers = e.get("controllers") or [e["seat"]] * len(names)
    owners = e.get("owners") or controllers
    now = e.get("stats") or []
    bots = []
    for i, name in enumerate(names):
        shown = (now[i][0], now[i][1]) if i < len(now) else None
        bots.append(bot_name(v, name, controllers[i], owners[i], shown, now=True))
    if len(bots) == 1:
        return sentence(f"{e['card']}: {bots[0]} gets {change} until the end of the turn")
    return sentence(f"{e['card']} gives {change} until the end of the turn to {join_words(bots)}")


def _token(e: Event, v: Voice) -> str:
    seat = e["seat"]
    count = e["count"]
    token = e["token"]
    if count == 0:
        return sentence(
            f"{e['card']}: {v.whose(seat)} Bot Zone is full, so no {token} token is created"
        )
    made = f"a {token} token" if count == 1 else f"{count} {token} tokens"
    text = f"{e['card']}: {v.who(seat)} {v.verb(seat, 'creates')} {made}"
    if "atk" in e:
        text += f" ({stats(e['atk'], e['def'])}{' each' if count > 1 else ''})"
    if e.get("asked", count) > count:
        text += f"; {v.whose(seat)} Bot Zone has no room for more"
    return sentence(text)


def _control(e: Event, v: Voice) -> str:
    seat = e["seat"]
    owner = e.get("target_owner", 1 - seat)
    before = e.get("target_controller", owner)
    bot = bot_name(v, e["target"], before, owner, _shown(e, "target_"))
    text = f"{e['card']}: {v.who(seat)} {v.verb(seat, 'takes')} control of {bot}"
    if e.get("permanent"):
        text += " for the rest of the duel"
    else:
        text += " until the end of the turn"
    if e.get("may_attack"):
        text += "; it may attack this turn"
    return sentence(text)


def _control_ends(e: Event, v: Voice) -> str:
    home = e["seat"]
    controller = e.get("controller", 1 - home)
    owner = e.get("owner", home)
    bot = f"{v.whose(owner)} {e['card']}"
    where = e.get("where", "zone")
    if where == "junk":
        rest = f"{v.whose(home)} Bot Zone is full, so it goes to {v.whose(owner)} Junk Zone"
    elif where == "gone":
        rest = f"{v.whose(home)} Bot Zone is full, so the token leaves the game"
    else:
        rest = f"it goes back to {v.whose(home)} Bot Zone"
    return sentence(f"{v.Whose(controller)} control of {bot} ends: {rest}")


def _junk_to_hand(e: Event, v: Voice) -> str:
    seat = e["seat"]
    return sentence(
        f"{e['card']}: {e['target']} goes from {v.whose(seat)} Junk Zone back to "
        f"{v.whose(seat)} hand"
    )


def _protect(e: Event, v: Voice) -> str:
    seat = e["seat"]
    return sentence(
        f"{e['card']}: {v.whose(seat)} Bots cannot be chosen as attack targets until "
        f"{v.whose(seat)} next Standby Phase"
    )


def _counter(e: Event, v: Voice) -> str:
    return sentence(
        f"{v.Whose(e['seat'])} {e['card']} gets a counter ({plural(e['counters'], 'counter')} "
        "on it now)"
    )


def _win_condition(e: Event, v: Voice) -> str:
    text = f"{v.Whose(e['seat'])} {e['card']}"
    if "counters" in e:
        text += f" has {plural(e['counters'], 'counter')}"
    return sentence(f"{text}: its win condition is met")


_WIN_BY = re.compile(r"win condition \((.+)\)")


def _duel_end(e: Event, v: Voice) -> str:
    duel = e["duel"]
    winner = e.get("winner")
    reason = str(e.get("reason", ""))
    if winner is None:
        if "both at 0" in reason:
            text = sentence(f"both duelists run out of Life Points at once: duel {duel} is a draw")
        elif reason == "turn cap":
            text = sentence(f"duel {duel} reaches the turn limit and is a draw")
        else:
            text = sentence(f"duel {duel} is a draw")
    else:
        loser = 1 - winner
        won = f"{v.who(winner)} {v.verb(winner, 'wins')} duel {duel}"
        found = _WIN_BY.match(reason)
        if reason in ("life points", "battle damage"):
            text = sentence(f"{v.who(loser)} {v.verb(loser, 'has')} no Life Points left: {won}")
        elif reason == "deck out":
            text = sentence(
                f"{v.who(loser)} {v.verb(loser, 'has')} to draw from an empty deck: {won}"
            )
        elif found:
            text = sentence(f"{won} by {found.group(1)}'s win condition")
        else:
            text = sentence(won)
    wins = e.get("wins")
    if isinstance(wins, list) and len(wins) == 2:
        text += f" Duels won so far: {v.who(0)} {wins[0]}, {v.who(1)} {wins[1]}."
    return text


def _match_end(e: Event, v: Voice) -> str:
    returns = e.get("returns") or [0.5, 0.5]
    wins = e.get("wins")
    draws = e.get("draws", 0)
    drawn = f" ({plural(draws, 'duel')} drawn)" if draws else ""
    if returns[0] == returns[1]:
        if not wins:
            return sentence("The match is a draw")
        drawn = f"; {plural(draws, 'duel')} drawn" if draws else ""
        return sentence(
            f"The match is a draw (duels won: {v.who(0)} {wins[0]}, {v.who(1)} {wins[1]}{drawn})"
        )
    winner = 0 if returns[0] > returns[1] else 1
    text = f"{v.does(winner, 'wins')} the match"
    if wins:
        text += f", {plural(wins[winner], 'duel')} to {wins[1 - winner]}{drawn}"
    return sentence(text)


LINES: dict[str, Line | None] = {
    "coin_toss": _coin_toss,
    "choose_order": _choose_order,
    "duel_start": _duel_start,
    "draw": _draw,
    "drew": _drew,
    "mulligan": _mulligan,
    "keep": _keep,
    "turn": _turn,
    "summon": _summon,
    "play_buzz": _play_buzz,
    "activate": _activate,
    "battle_phase": _battle_phase,
    "main_phase_2": _main_phase_2,
    "end_turn": _end_turn,
    "discard": _discard,
    "attack": _attack,
    # the attack's line already says which Bots the battle destroyed
    "destroyed_in_battle": None,
    "tribute": _tribute,
    "destroy": _destroy,
    "bounce": _bounce,
    # the draw that follows names the card that draws
    "effect_draw": None,
    "heal": _heal,
    "damage": _damage,
    "add_mana": _add_mana,
    "modify": _modify,
    "token": _token,
    "control": _control,
    "control_ends": _control_ends,
    "junk_to_hand": _junk_to_hand,
    "protect": _protect,
    "counter": _counter,
    "win_condition": _win_condition,
    "duel_end": _duel_end,
    "match_end": _match_end,
}


def narrate_event(event: Event, voice: Voice) -> str | None:
    return narrate_with(LINES, event, voice)


# -- choices (State.describe_action) -------------------------------------------------------------


def _chooser_voice(state: IotabotsState) -> Voice:
    """The deciding seat is "you", the other one "your opponent" (a state knows no names)."""
    seat = state.current_player()
    names = ["you", "you"]
    names[1 - seat] = "your opponent"
    return Voice.of(2, viewer=seat, names=names)


def _field_bot(state: IotabotsState, voice: Voice, seat: int, slot: int) -> str:
    """A Bot on the field by name, whose it is and its stats; copies of one card on a side are
    told apart as "the first", "the second" ... (left to right, as the Bot Zone is laid out)."""
    field = state.field[seat]
    bot = field[slot]
    g = state.game
    name = g.names[bot.card]
    same = [i for i, b in enumerate(field) if b.card == bot.card]
    if len(same) > 1:
        name = f"{_ORDINALS[same.index(slot)]} {name}"
    return bot_name(voice, name, seat, bot.owner, effects.stats(state, seat, bot))


def _pending(state: IotabotsState) -> tuple[str, Any] | None:
    """(the effect's card name, its step) of the pending effect decision, if any."""
    if state.choice is None or not state.frames:
        return None
    card, eff, step_i, _ctrl, _src, _battled = state.frames[-1]
    g = state.game
    return g.names[card], g.cards[card].effects[eff].steps[step_i]


def describe_action(state: IotabotsState, action: Action) -> str:
    """The choice in words for the seat deciding now, naming cards, never positions."""
    g = state.game
    v = _chooser_voice(state)
    seat = state.current_player()
    kind = type(action)
    if kind is Summon:
        card = g.cards[g.by_name[action.card]]
        return f"summon {card.name} ({card.mana} mana, {stats(card.atk, card.def_)})"
    if kind is PlayBuzz:
        card = g.cards[g.by_name[action.card]]
        text = f"activate {card.name} ({card.mana} mana)"
        return f"{text}: {card.text.strip().rstrip('.')}" if card.text else text
    if kind is Activate:
        return f"use the ignition effect of {_field_bot(state, v, seat, action.slot)}"
    if kind is Attack:
        return _describe_attack(state, v, seat, action)
    if kind is ChooseBot:
        return _describe_choose_bot(state, v, action)
    if kind is ChooseCard:
        return _describe_choose_card(state, action)
    if kind is Mulligan:
        if not action.redraw:
            return "keep this hand"
        left = MAX_MULLIGANS - state.mulligans[seat] - 1
        after = (
            f"{plural(left, 'mulligan')} left after this one"
            if left > 0
            else "your last one: the new hand is kept"
        )
        return (
            f"mulligan: shuffle this hand back into your deck and draw "
            f"{opening_hand(state, seat)} new cards "
            f"({after})"
        )
    if kind is ChooseOrder:
        return f"go {'first' if action.go_first else 'second'} in duel {len(state.results) + 1}"
    if kind is EnterBattle:
        return "enter the Battle Phase"
    if kind is EndBattle:
        return "end the Battle Phase and go to Main Phase 2"
    if kind is EndTurn:
        return "end the turn"
    return action.label()


def _describe_attack(state: IotabotsState, v: Voice, seat: int, action: Attack) -> str:
    other = 1 - seat
    bot = state.field[seat][action.slot]
    atk, dfn = effects.stats(state, seat, bot)
    attacker = _field_bot(state, v, seat, action.slot)
    if action.target == LIFE_POINTS:
        return f"attack your opponent directly with {attacker}: {atk} damage to their Life Points"
    target = state.field[other][action.target]
    t_atk, t_def = effects.stats(state, other, target)
    defender = _field_bot(state, v, other, action.target)
    # the same arithmetic as rules.battle (IB-6.4), worded as what would happen
    d_def = t_def - atk
    d_att = dfn - t_atk
    outcome = battle_outcome(v, "your Bot", "their Bot", seat, d_def, d_att)
    return f"attack {defender} with {attacker}: {outcome}"


def _describe_choose_bot(state: IotabotsState, v: Voice, action: ChooseBot) -> str:
    bot = _field_bot(state, v, action.seat, action.slot)
    pending = _pending(state)
    if pending is None:
        return f"choose {bot}"
    card, step = pending
    op = step.op
    if op == Op.COST_TRIBUTE:
        return f"tribute {bot} to pay for {card}"
    if op == Op.DESTROY:
        return f"{card}: destroy {bot}"
    if op == Op.BOUNCE:
        owner = state.field[action.seat][action.slot].owner
        return f"{card}: return {bot} to {v.whose(owner)} hand"
    if op == Op.CONTROL:
        return f"{card}: take control of {bot}"
    if op == Op.MODIFY:
        return f"{card}: give {bot} {_change(step.atk, step.def_)} until the end of the turn"
    return f"{card}: choose {bot}"


def _describe_choose_card(state: IotabotsState, action: ChooseCard) -> str:
    g = state.game
    card = g.cards[g.by_name[action.card]]
    what = card.name
    if card.type != CardType.BUZZ:
        what += f" ({card.mana} mana, {stats(card.atk, card.def_)})"
    else:
        what += f" (Buzz card, {card.mana} mana)"
    pending = _pending(state)
    if pending is None:  # the End Phase discard (IB-4.6)
        return f"discard {what}, down to the hand limit of {HAND_LIMIT} cards"
    source, step = pending
    if step.op == Op.COST_DISCARD:
        return f"discard {what} to pay for {source}"
    if step.op == Op.JUNK_TO_HAND:
        return f"{source}: take {what} from your Junk Zone into your hand"
    return f"{source}: discard {what}"


def result_sentence(st: IotabotsState, viewer: int | None = None, names: Any = None) -> str:
    """Who won a finished match and by how much: "Ada wins the match, 2 duels to 1"."""
    wins = [st.results.count(0), st.results.count(1)]
    event = {"returns": st.returns(), "wins": wins, "draws": st.results.count(DRAW)}
    return _match_end(event, Voice.of(2, viewer, names))


def result_scores(st: IotabotsState) -> dict[str, Any]:
    """Each seat's score at the end, for the web table's end screen: the duels it won."""
    return {"unit": "duels won", "scores": [st.results.count(0), st.results.count(1)]}
