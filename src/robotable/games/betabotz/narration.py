"""Betabotz in words: every event as a game host would say it, and every choice as its seat
reads it (see robotable.core.narration and docs/rules/betabotz.md).

Events name seats through the reader's `Voice` ("you" for the reader, names for the others),
cards by their names, and give the numbers that matter (Bitz paid and left, attribute values
against what a mission needs). Choice labels are addressed to the deciding seat: its own things
are "your", another seat is named by its Betabot (every seat has one from the first auction on,
and the table shows it beside the seat). Nothing here runs inside `apply_action`.
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

from .actions import (
    Accept,
    Bid,
    ChooseAttribute,
    ChooseLot,
    ChooseSeat,
    DiscardCode,
    DiscardComponent,
    DrawCode,
    FinishInvites,
    Invite,
    Pass,
    PlayCode,
    ProposeTeam,
    Reject,
    SetShare,
    TakeBreach,
)
from .content import ATTRS, CodeOp
from .effects import mission_value, unit_values
from .rules import lot_min, team_split, winners
from .state import COMPONENT_LIMIT, HAND_LIMIT, PK_CODE_ATTR, PK_CODE_SEAT

if TYPE_CHECKING:
    from robotable.core.events import Event

    from .state import BetabotzState


# -- small pieces of wording -------------------------------------------------------------------
def bitz(amount: int) -> str:
    return f"{amount} Bitz"


def _signed(amount: int) -> str:
    return f"{amount:+d}"


def _attrs(values: dict[str, int]) -> str:
    """Attribute values in words: agility 10, firepower 4, structure 4 and processor 6."""
    return join_words([f"{a} {v}" for a, v in values.items()])


def _mods(mods: dict[str, int]) -> str:
    """Attribute changes in words: +2 agility, or +2 agility and -1 structure."""
    return join_words([f"{_signed(v)} {a}" for a, v in mods.items()]) if mods else "no change"


def _needs(require: dict[str, int], values: dict[str, int]) -> str:
    """Values against requirements: agility 12 of the 10 needed and firepower 9 of the 11."""
    return join_words([f"{a} {values.get(a, 0)} of the {n} needed" for a, n in require.items()])


_CAPITALISED = ("Bitz", "Code", "Limit", "Betabot")


def _first_lower(text: str) -> str:
    """A card's printed text to follow a colon: no full stop, a small first letter unless the
    first word is a name of the game (Bitz, Code card...)."""
    text = text.strip().rstrip(".")
    if text.split(" ", 1)[0] in _CAPITALISED:
        return text
    return text[:1].lower() + text[1:]


def _change(amount: int, attribute: str) -> str:
    """One Code card change: +2 firepower, or +1 to every attribute."""
    if attribute == "all":
        return f"{_signed(amount)} to every attribute"
    return f"{_signed(amount)} {attribute}"


def _lot(name: str, details: dict[str, Any]) -> str:
    """A lot of an auction: its name, minimum bid and what it gives."""
    if "min_bid" not in details:
        return name
    parts = [f"from {bitz(details['min_bid'])}"]
    if "attributes" in details:
        parts.append(_attrs(details["attributes"]))
    else:
        parts.append(_mods(details.get("mods", {})))
    if details.get("gold"):
        parts.append("gold")
    if details.get("green"):
        parts.append("green, outside the component limit")
    if details.get("acquire_cost"):
        parts.append(f"{bitz(details['acquire_cost'])} more to equip")
    return f"{name} ({'; '.join(parts)})"


def _drawn_whenever(amount: int, which: str) -> str:
    return f"{plural(max(amount, 1), 'Code card')} drawn whenever {which} is flipped"


BREACH_EFFECTS = {
    "halve_loss": lambda amount, attr: "Bitz lost to mission consequences are halved",
    "mission_bonus": lambda amount, attr: f"{_signed(amount)} {attr} in every mission",
    "success_bonus": lambda amount, attr: f"{bitz(amount)} more for every mission completed",
    "immune_damage": lambda amount, attr: (
        "mission consequences no longer lower attributes or take components"
    ),
    "draw_each_mission": lambda amount, attr: _drawn_whenever(amount, "a mission"),
    "ward": lambda amount, attr: "other players' Code cards against its holder have no effect",
    "draw_every_second_mission": lambda amount, attr: _drawn_whenever(
        amount, "the second, fourth, sixth... mission"
    ),
}

BONUS_WORDS = {
    "highest attribute": "the highest single attribute",
    "gold components": "the most gold components",
    "gold code cards": "the most gold Code cards in hand",
}


# -- the auctions ------------------------------------------------------------------------------
def _auction_opened(e: Event, v: Voice) -> str:
    lots = [_lot(name, d) for name, d in zip(e["lots"], e.get("details", [{}] * len(e["lots"])))]
    first = e.get("first")
    starts = "" if first is None else f" {v.does(first, 'goes first')}."
    if e["kind"] == "betabot":
        return sentence(
            f"The Betabot auction opens: {join_words(lots)}. Everyone must bid, and each player "
            f"ends with one Betabot for the whole game.{starts}"
        )
    before = f" before mission {e['next_mission']}" if "next_mission" in e else ""
    if not lots:
        return sentence(
            f"No components are left for the auction{before}: players can only draw Code cards"
        )
    return sentence(
        f"The component auction{before} opens: {join_words(lots)}. Instead of bidding, a player "
        f"may draw a Code card and leave the auction.{starts}"
    )


def _lot_chosen(e: Event, v: Voice) -> str:
    holder = e.get("bidder", -1)
    at_least = f"at least {bitz(e['minimum'])}" if "minimum" in e else "a higher bid"
    if isinstance(holder, int) and holder >= 0:
        return sentence(
            f"{v.does(e['seat'], 'goes after')} {e['card']}, held by {v.who(holder)} ({at_least})"
        )
    return sentence(f"{v.does(e['seat'], 'picks')} {e['card']} to bid on ({at_least})")


def _bid(e: Event, v: Voice) -> str:
    text = f"{v.does(e['seat'], 'bids')} {bitz(e['amount'])} on {e['card']}"
    if "outbid" in e:
        text += f", outbidding {v.who(e['outbid'])} ({bitz(e['previous'])})"
    return sentence(text)


def _auction_won(e: Event, v: Voice) -> str:
    seat = e["seat"]
    what = e["card"]
    if e.get("gold") and e.get("green"):
        what += ", a gold and green component,"
    elif e.get("gold"):
        what += ", a gold component,"
    elif e.get("green"):
        what += ", a green component outside the limit,"
    paid = f"for {bitz(e['paid'])}"
    if e.get("acquire_cost"):
        paid += f" plus {bitz(e['acquire_cost'])} to equip it"
    text = f"{v.does(seat, 'wins')} {what} {paid}"
    if "purse" in e:
        text += f" and {v.verb(seat, 'has')} {bitz(e['purse'])} left"
    if "attributes" in e:
        text += f": {v.whose(seat)} Betabot has {_attrs(e['attributes'])}"
    elif e.get("mods"):
        now = e.get("now", {})
        text += ": " + join_words(
            [
                f"{a} {_signed(d)}" + (f" (now {now[a]})" if a in now else "")
                for a, d in e["mods"].items()
            ]
        )
    return sentence(text)


def _component_unsold(e: Event, v: Voice) -> str:
    return sentence(f"Nobody bid on {e['card']}: it goes to the discard pile")


def _left_auction(e: Event, v: Voice) -> str:
    return sentence(v.does(e["seat"], "leaves this auction"))


def _chip_moved(e: Event, v: Voice) -> str:
    return sentence(f"The Starter Chip passes to {v.who(e['seat'])}")


# -- Code cards --------------------------------------------------------------------------------
def _code_drawn(e: Event, v: Voice) -> str:
    gold = " (gold)" if e.get("gold") else ""
    what = f": {_first_lower(e['text'])}" if e.get("text") else ""
    return sentence(f"{v.does(e['seat'], 'draws')} {e['card']}{gold}{what}")


def _codes_drawn(e: Event, v: Voice) -> str:
    seat, count = e["seat"], e["count"]
    hand = f" ({e['hand']} in hand)" if "hand" in e else ""
    because = f" thanks to {join_words(e['because'])}" if e.get("because") else ""
    if count == 0:
        return sentence(
            f"{v.does(seat, 'finds')} the Code deck empty and {v.verb(seat, 'draws')} nothing"
        )
    if v.is_you(seat) and "hand" in e:  # the cards themselves were named just before
        why = f" (drawn{because})" if because else ""
        return sentence(f"You now hold {plural(e['hand'], 'Code card')}{why}")
    what = "a Code card" if count == 1 else f"{count} Code cards"
    return sentence(f"{v.does(seat, 'draws')} {what}{because}{hand}")


def _code_deck_reshuffled(e: Event, v: Voice) -> str:
    return sentence(
        f"The Code deck has run out: the {plural(e['cards'], 'discarded card')} are shuffled "
        "into a new deck"
    )


def _code_played(e: Event, v: Voice) -> str:
    return sentence(f"{v.does(e['seat'], 'plays')} the Code card {e['card']}")


def _code_discarded(e: Event, v: Voice) -> str:
    return sentence(
        f"{v.does(e['seat'], 'is')} over the hand limit of {HAND_LIMIT} Code cards and "
        f"{v.verb(e['seat'], 'discards')} {e['card']}"
    )


def _code_resolved(e: Event, v: Voice) -> str | None:
    seat, card = e["seat"], e["card"]
    op = e.get("op")
    if "blocked_by" in e:
        target = e.get("target", seat)
        return sentence(
            f"{v.Whose(target)} {e['blocked_by']} blocks {v.whose(seat)} {card}: it has no effect"
        )
    if "cancelled" in e:
        now = f" ({e['attribute']} now {e['now']})" if "now" in e else ""
        if "attribute" in e:
            change = _change(e["amount"], e["attribute"])
            return sentence(
                f"{v.Whose(seat)} {card} undoes the {change} that {e['cancelled']} gave "
                f"{v.who(e['player'])}{now}"
            )
        return sentence(f"{v.Whose(seat)} {card} undoes {e['cancelled']} on {v.who(e['player'])}")
    if "amount" in e and "player" in e:  # an attribute change for this mission
        player = e["player"]
        change = _change(e["amount"], e["attribute"])
        now = f" ({e['attribute']} now {e['now']})" if "now" in e else ""
        rolled = f" rolls {e['roll']} and" if "roll" in e else ""
        return sentence(
            f"{v.Whose(seat)} {card}{rolled} gives {v.who(player)} {change} for this mission{now}"
        )
    if op == "shield":
        return sentence(f"{v.does(seat, 'is')} shielded by {card} from this mission's consequences")
    if op == "bounty":
        extra = bitz(e["amount"]) if "amount" in e else "extra Bitz"
        return sentence(
            f"{v.does(seat, 'will gain')} {extra} more if {v.whose(seat)} unit completes this "
            f"mission ({card})"
        )
    if op in ("draw", "steal"):
        return None  # the draw or the theft that follows says what happened
    return sentence(f"{v.Whose(seat)} {card} takes effect")


def _bitz_stolen(e: Event, v: Voice) -> str:
    seat, victim, amount = e["seat"], e["from"], e["bitz"]
    if amount == 0:
        return sentence(f"{v.does(seat, 'takes')} nothing from {v.who(victim)}, who has no Bitz")
    return sentence(f"{v.does(seat, 'takes')} {bitz(amount)} from {v.who(victim)}")


# -- Betabots, components, Limit Breaches ------------------------------------------------------
def _breach_effect(e: Event) -> str:
    word = BREACH_EFFECTS.get(e.get("effect", ""))
    return "" if word is None else f" ({word(e.get('amount', 0), e.get('attribute', ''))})"


def _breach_taken(e: Event, v: Voice) -> str:
    seat = e["seat"]
    reason = ""
    if "attribute" in e:
        reason = f"With {e['attribute']} {e['value']}, "
    return sentence(
        f"{reason}{v.who(seat) if reason else v.Who(seat)} {v.verb(seat, 'takes')} the Limit "
        f"Breach {e['card']}{_breach_effect(e)}"
    )


def _breach_lost(e: Event, v: Voice) -> str:
    seat = e["seat"]
    if "attribute" in e:
        return sentence(
            f"{v.Whose(seat)} {e['attribute']} falls to {e['value']}, below 13: "
            f"{v.who(seat)} {v.verb(seat, 'gives')} back the Limit Breach {e['card']}"
        )
    return sentence(f"{v.does(seat, 'gives')} back the Limit Breach {e['card']}")


def _component_discarded(e: Event, v: Voice) -> str:
    seat = e["seat"]
    now = e.get("now", {})
    lost = ""
    if e.get("mods"):
        lost = (
            " ("
            + join_words(
                [
                    f"{a} {_signed(-d)}" + (f", now {now[a]}" if a in now else "")
                    for a, d in e["mods"].items()
                ]
            )
            + ")"
        )
    if e.get("reason") == "limit":
        return sentence(
            f"{v.does(seat, 'is')} over the limit of {COMPONENT_LIMIT} components and "
            f"{v.verb(seat, 'discards')} {e['card']}{lost}"
        )
    return sentence(f"{v.does(seat, 'discards')} {e['card']} as a mission consequence{lost}")


# -- missions and teams ------------------------------------------------------------------------
def _mission_flipped(e: Event, v: Voice) -> str:
    of = f" of {e['total']}" if "total" in e else ""
    need = _attrs(e["require"])
    text = (
        f"Mission {e['number']}{of}: {e['mission']} in {e['ground'].capitalize()} needs {need}; "
        f"reward {bitz(e['reward'])}"
    )
    consequence = e.get("consequence")
    if consequence and consequence != "none":
        text += f"; if it fails: {consequence}"
    if "first" in e:
        text += f". {v.does(e['first'], 'has')} priority first"
    return sentence(text)


def _passed(e: Event, v: Voice) -> str:
    return sentence(v.does(e["seat"], "passes"))


def _team_started(e: Event, v: Voice) -> str:
    mission = f" for {e['mission']}" if "mission" in e else ""
    return sentence(f"{v.does(e['seat'], 'starts')} a team proposal{mission}")


def _team_invited(e: Event, v: Voice) -> str:
    return sentence(f"{v.does(e['seat'], 'invites')} {v.who(e['invitee'])} to the team")


def _team_invites_done(e: Event, v: Voice) -> str:
    return sentence(
        f"{v.does(e['seat'], 'closes')} the invitations: the team would be {v.seats(e['members'])}"
    )


def _shares(shares: dict[str, int], v: Voice) -> str:
    return join_words([f"{v.who(int(seat))} {amount}" for seat, amount in shares.items()])


def _team_proposed(e: Event, v: Voice) -> str:
    seat = e["seat"]
    if "shares" in e and "reward" in e:
        return sentence(
            f"{v.does(seat, 'proposes')} to split the {bitz(e['reward'])} reward for "
            f"{e['mission']} as {_shares(e['shares'], v)}; every invitee must accept"
        )
    return sentence(
        f"{v.does(seat, 'proposes')} a team of {v.seats(e['members'])}, keeping "
        f"{bitz(e['keeps'])} of the reward"
    )


def _team_accepted(e: Event, v: Voice) -> str:
    proposer = e.get("proposer")
    whose = "the" if proposer is None else v.whose(proposer)
    return sentence(f"{v.does(e['seat'], 'accepts')} {whose} team")


def _team_rejected(e: Event, v: Voice) -> str:
    return sentence(
        f"{v.does(e['seat'], 'rejects')} {v.whose(e['proposer'])} team: the proposal falls through"
    )


def _team_formed(e: Event, v: Voice) -> str:
    text = f"{v.seats(e['members'])} team up"
    if "mission" in e:
        text += f" for {e['mission']}"
    text += f", sharing the reward as {_shares(e['shares'], v)}"
    if "require" in e and "values" in e:
        they = "you" if v.viewer in e["members"] else "they"
        text += f"; together {they} have {_needs(e['require'], e['values'])}"
    return sentence(text)


def _mission_attempt(e: Event, v: Voice) -> str:
    members = sorted(e["members"])
    if len(members) == 1:
        who, verb_ok, verb_ko = v.Who(members[0]), "completes", "fails"
        if v.is_you(members[0]):
            verb_ok, verb_ko = "complete", "fail"
        who = f"{who}, alone,"
    else:
        who, verb_ok, verb_ko = f"The team of {v.seats(members)}", "completes", "fails"
    values = dict(zip(ATTRS, e["values"]))
    require = e.get("require") or {a: 0 for a in ATTRS}
    verb = verb_ok if e["success"] else verb_ko
    return sentence(f"{who} {verb} {e['mission']} with {_needs(require, values)}")


def _reward(e: Event, v: Voice) -> str:
    seat = e["seat"]
    parts = []
    if e.get("bounty") or e.get("breach"):
        parts.append(f"{e.get('share', 0)} of the reward")
        if e.get("bounty"):
            parts.append(f"{e['bounty']} bounty")
        if e.get("breach"):
            names = join_words(e.get("breaches", [])) if e.get("breaches") else "a Limit Breach"
            parts.append(f"{e['breach']} from {names}")
    detail = f" ({join_words(parts)})" if parts else ""
    text = f"{v.does(seat, 'gains')} {bitz(e['bitz'])}{detail}"
    if "purse" in e:
        text += f" and {v.verb(seat, 'has')} {e['purse']} now"
    return sentence(text)


def _consequence(e: Event, v: Voice) -> str:
    seat = e["seat"]
    failing = f"failing {e['mission']}" if "mission" in e else "failing the mission"
    if e.get("ignored"):
        return sentence(
            f"{v.Whose(seat)} {e['ignored']} spares {v.who(seat)} the consequences of {failing}"
        )
    parts = []
    if e.get("bitz"):
        notes = []
        if e.get("halved_by"):
            notes.append(f"halved by {join_words(e['halved_by'])}")
        if "purse" in e:
            notes.append(f"{e['purse']} left")
        parts.append(bitz(-e["bitz"]) + (f" ({'; '.join(notes)})" if notes else ""))
    now = e.get("now", {})
    for attr, d in e.get("damage", {}).items():
        point = "point" if d == -1 else "points"
        parts.append(
            f"{-d} {attr} {point} for good" + (f" (now {now[attr]})" if attr in now else "")
        )
    if e.get("discarded_code"):
        parts.append(f"{e['discarded_code']} (a Code card picked at random)")
    if e.get("discard_component"):
        parts.append(f"a component of {v.whose(seat)} choice")
    cost = join_words(parts) if parts else "nothing"
    if not parts and e.get("purse") == 0 and not e.get("protected_by"):
        cost += f": {v.who(seat)} {v.verb(seat, 'has')} no Bitz left to lose"
    text = f"{failing[0].upper()}{failing[1:]} costs {v.who(seat)} {cost}"
    spared = []
    if e.get("damage_ignored"):
        spared.append("the attribute damage")
    if e.get("discard_ignored"):
        spared.append("the component loss")
    if spared:
        names = join_words(e.get("protected_by") or ["a Limit Breach"])
        text += f"; {names} spares {v.who(seat)} {join_words(spared)}"
    return sentence(text)


# -- the end -----------------------------------------------------------------------------------
def _bonus(e: Event, v: Voice) -> str:
    seat = e["seat"]
    what = BONUS_WORDS.get(e["bonus"], e["bonus"])
    text = (
        f"End bonus: {v.who(seat)} {v.verb(seat, 'has')} {what} ({e['value']}) and "
        f"{v.verb(seat, 'gains')} {bitz(e['bitz'])}"
    )
    if "purse" in e:
        text += f" ({e['purse']} in all)"
    return sentence(text)


def _hand_revealed(e: Event, v: Voice) -> str:
    seat, cards = e["seat"], e["cards"]
    if not cards:
        return sentence(f"{v.Whose(seat)} hand is revealed: it is empty")
    return sentence(f"{v.Whose(seat)} hand is revealed: {join_words(cards)}")


def _game_over(e: Event, v: Voice) -> str:
    winners = e["winners"]
    purse = e["bitz"]
    if len(winners) == 1:
        w = winners[0]
        head = f"{v.who(w)} {v.verb(w, 'wins')} with {bitz(purse[w])}"
        if sum(1 for p in purse if p == purse[w]) > 1:
            head += ", ahead on combined attributes"
    else:
        head = f"{v.seats(winners)} share the win with {bitz(purse[winners[0]])} each"
    order = sorted(range(len(purse)), key=lambda s: -purse[s])
    table = join_words([f"{v.name(s)} {purse[s]}" for s in order])
    return sentence(f"Game over: {head}. Final Bitz: {table}")


LINES: dict[str, Line | None] = {
    "auction_opened": _auction_opened,
    "lot_chosen": _lot_chosen,
    "bid": _bid,
    "outbid": None,  # the bid that tops it names the outbid seat and its amount
    "left_auction": _left_auction,
    "auction_won": _auction_won,
    "component_unsold": _component_unsold,
    "chip_moved": _chip_moved,
    "code_drawn": _code_drawn,
    "codes_drawn": _codes_drawn,
    "code_deck_reshuffled": _code_deck_reshuffled,
    "code_played": _code_played,
    "code_resolved": _code_resolved,
    "code_discarded": _code_discarded,
    "bitz_stolen": _bitz_stolen,
    "breach_taken": _breach_taken,
    "breach_lost": _breach_lost,
    "component_discarded": _component_discarded,
    "mission_flipped": _mission_flipped,
    "passed": _passed,
    "team_started": _team_started,
    "team_invited": _team_invited,
    "team_invites_done": _team_invites_done,
    "team_proposed": _team_proposed,
    "team_accepted": _team_accepted,
    "team_rejected": _team_rejected,
    "team_formed": _team_formed,
    "mission_attempt": _mission_attempt,
    "reward": _reward,
    "consequence": _consequence,
    "bonus": _bonus,
    "hand_revealed": _hand_revealed,
    "game_over": _game_over,
}


def narrate_event(event: Event, voice: Voice) -> str | None:
    return narrate_with(LINES, event, voice)


# -- choices, as the deciding seat reads them ---------------------------------------------------
def _seat_ref(s: BetabotzState, voice: Voice, seat: int) -> str:
    """Another seat by its Betabot ("Glitch"), the decider as "yourself"."""
    if voice.is_you(seat):
        return "yourself"
    return voice.name(seat)


def _choice_voice(s: BetabotzState) -> Voice:
    """The decider is "you"; every other seat is called by its Betabot (or "Seat N" before the
    Betabot auction ends, when no choice names another seat)."""
    c = s.content
    names = [c.betabots[b].name if b >= 0 else "" for b in s.bot]
    return Voice.of(s.n, viewer=s.current_player(), names=names)


def _mission(s: BetabotzState):
    return s.content.missions[s.mission_order[s.revealed - 1]]


def _required_values(s: BetabotzState, members: list[int]) -> tuple[dict, dict]:
    mission = _mission(s)
    values = unit_values(s, sorted(members))
    require = {ATTRS[a]: n for a, n in enumerate(mission.require) if n}
    return require, {ATTRS[a]: values[a] for a, n in enumerate(mission.require) if n}


def describe_action(s: BetabotzState, action: Any) -> str:
    """The choice in words for the seat deciding now (see `State.describe_action`)."""
    c = s.content
    me = s.current_player()
    voice = _choice_voice(s)
    if isinstance(action, Bid):
        return f"bid {bitz(action.amount)}"
    if isinstance(action, ChooseLot):
        slot = action.slot
        card = s.lots[slot]
        if s.phase == 0:
            bot = c.betabots[card]
            what = _attrs(dict(zip(ATTRS, bot.attrs)))
        else:
            comp = c.components[card]
            what = _mods({ATTRS[a]: m for a, m in enumerate(comp.mods) if m})
            if comp.gold:
                what += ", gold"
            if comp.green:
                what += ", green"
            if comp.acquire_cost:
                what += f", {bitz(comp.acquire_cost)} more to equip"
        low = lot_min(s, slot, me)
        if s.lot_bidder[slot] >= 0:
            return f"outbid the {bitz(s.lot_bid[slot])} on {action.name} (from {bitz(low)}; {what})"
        return f"bid on {action.name} (from {bitz(low)}; {what})"
    if isinstance(action, DrawCode):
        return "draw a Code card and leave this auction"
    if isinstance(action, Pass):
        return "pass"
    if isinstance(action, PlayCode):
        return f"play {action.name}: {_first_lower(c.codes[action.code].text)}"
    if isinstance(action, ChooseSeat):
        target = _seat_ref(s, voice, action.seat)
        if not (s.pending and s.pending[-1][0] == PK_CODE_SEAT):
            return f"target {target}"
        kind = c.codes[s.pending[-1][2]]
        if kind.op == CodeOp.STEAL:
            return f"aim {kind.name} at {target} ({bitz(s.bitz[action.seat])})"
        return f"aim {kind.name} at {target}"
    if isinstance(action, ChooseAttribute):
        attr = ATTRS[action.attribute]
        if not (s.pending and s.pending[-1][0] == PK_CODE_ATTR):
            return f"choose {attr}"
        kind = c.codes[s.pending[-1][2]]
        target = s.cip[2] if s.cip and s.cip[2] >= 0 else me
        value = mission_value(s, target, action.attribute)
        who = _seat_ref(s, voice, target)
        if kind.op == CodeOp.ROLL:
            return f"roll for {attr} ({value} now, then 1 to {kind.amount} more)"
        return (
            f"give {who} {_signed(kind.amount)} {attr} ({value} now, {value + kind.amount} after)"
        )
    if isinstance(action, ProposeTeam):
        require, values = _required_values(s, [me])
        return f"propose a team for {_mission(s).name} (alone you have {_needs(require, values)})"
    if isinstance(action, Invite):
        require, values = _required_values(s, [action.seat])
        return f"invite {_seat_ref(s, voice, action.seat)} ({_attrs(values)} for this mission)"
    if isinstance(action, FinishInvites):
        require, values = _required_values(s, s.draft)
        return f"stop inviting: a team of {voice.seats(s.draft)} with {_needs(require, values)}"
    if isinstance(action, SetShare):
        reward = _mission(s).reward
        split = team_split(s, s.draft, action.share)
        others = join_words([f"{voice.who(m)} {v}" for m, v in split.items() if m != me])
        return f"keep {action.share} of the {bitz(reward)} reward ({others})"
    if isinstance(action, Accept | Reject) and s.draft:
        proposer = s.draft[0]
        if isinstance(action, Reject):
            return f"reject {voice.whose(proposer)} team"
        share = team_split(s, s.draft, s.draft_share).get(me, 0)
        require, values = _required_values(s, s.draft)
        return (
            f"accept {voice.whose(proposer)} team of {voice.seats(s.draft)}: your share is "
            f"{share} of the {bitz(_mission(s).reward)}, with {_needs(require, values)}"
        )
    if isinstance(action, DiscardComponent):
        comp = c.components[action.card]
        what = _mods({ATTRS[a]: m for a, m in enumerate(comp.mods) if m})
        if comp.gold:
            what += ", gold"
        return f"discard {action.name} ({what})"
    if isinstance(action, DiscardCode):
        return f"discard {action.name}: {_first_lower(c.codes[action.code].text)}"
    if isinstance(action, TakeBreach):
        return f"take {action.name}: {_first_lower(c.breaches[action.breach].text)}"
    if isinstance(action, Accept):
        return "accept the team"
    if isinstance(action, Reject):
        return "reject the team"
    return action.label()


__all__ = ["LINES", "describe_action", "narrate_event"]


def result_sentence(s: BetabotzState, viewer: int | None = None, names: Any = None) -> str:
    """Who won a finished game and by how much: "Ada wins with 45 Bitz, ahead of Bo (40) and
    Cy (31)"; level on Bitz, the higher combined attributes win (BZ-9.2)."""
    voice = Voice.of(s.n, viewer, names)
    return result_by_score(s.bitz[:], winners(s), voice, bitz, "on combined attributes")


def result_scores(s: BetabotzState) -> dict[str, Any]:
    """Each seat's score at the end, for the web table's end screen: its Bitz (level on Bitz,
    the higher combined attributes win, BZ-9.2)."""
    return {"unit": "Bitz", "scores": s.bitz[:]}
