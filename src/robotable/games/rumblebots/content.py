"""Rumblebots content: the card file, its ability vocabulary and the immutable card table.

A card file (TOML, `[[bots]]` tables) is validated by pydantic at load time; the result is a
`Content` of frozen `CardDef`s shared by every state. Physical cards are numbered: card id `i` is
one printed copy, `content.cards[i]` its definition. Loaded content is cached per file.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from robotable.core.content import CardName, CardRef, CardText, read_toml, validate_entries
from robotable.core.errors import ContentError

PACKAGE = "robotable.games.rumblebots"
BUNDLED = "data/cards.toml"
# Physical cards in one set (the bundled set has 98): checked on the copy counts, before any
# copy is numbered.
MAX_CARDS = 400

FACTIONS = ("Animal", "Appliances", "Bio", "Steam", "Mech", "Warfare")
FACTION_BIT = {name: 1 << i for i, name in enumerate(FACTIONS)}


class Keyword(enum.IntEnum):
    """The ability keywords of the rules notes (RB-8), plus `none` and `contraption`."""

    NONE = 0
    ENTER = 1
    REBOOT = 2
    SWARM = 3
    FINALE = 4
    ENERGIZED = 5
    BUDDY = 6
    CRYSTALS = 7
    TRANSFORMATION = 8
    RIPENING = 9
    CONTRAPTION = 10


class Effect(enum.IntEnum):
    NONE = 0
    ATTACK = 1  # continuous stat bonuses while the condition holds
    DEFENSE = 2
    CRITS = 3
    BARRIERS = 4
    BOOST_ATTACK = 5  # the gang's attack this clash
    BOOST_CRITS = 6
    BOOST_DEFENSE = 7  # the defending gang's defense this clash (Contraption)
    BOOST_BARRIERS = 8
    CREATE_CRYSTALS = 9
    DEFEAT_DEFENDER = 10  # a target: one bot of the defense gang
    REVIVE = 11  # a target: one bot of your discard pile, onto your deck
    TRANSFORM = 12
    RECYCLE_BONUS = 13


# The members the forward model tests on every build and clash, as plain module names (KW_SWARM
# is Keyword.SWARM): in Python 3.11 reading `Keyword.SWARM` goes through the enum metaclass's
# __getattr__ hook, several times the cost of a global, in both engines.
KW_BUDDY = Keyword.BUDDY
KW_CRYSTALS = Keyword.CRYSTALS
KW_ENERGIZED = Keyword.ENERGIZED
KW_ENTER = Keyword.ENTER
KW_FINALE = Keyword.FINALE
KW_REBOOT = Keyword.REBOOT
KW_RIPENING = Keyword.RIPENING
KW_SWARM = Keyword.SWARM
KW_TRANSFORMATION = Keyword.TRANSFORMATION
EF_ATTACK = Effect.ATTACK
EF_BOOST_ATTACK = Effect.BOOST_ATTACK
EF_BOOST_BARRIERS = Effect.BOOST_BARRIERS
EF_BOOST_CRITS = Effect.BOOST_CRITS
EF_BOOST_DEFENSE = Effect.BOOST_DEFENSE
EF_CREATE_CRYSTALS = Effect.CREATE_CRYSTALS
EF_CRITS = Effect.CRITS
EF_DEFEAT_DEFENDER = Effect.DEFEAT_DEFENDER
EF_DEFENSE = Effect.DEFENSE
EF_REVIVE = Effect.REVIVE

STAT_EFFECTS = (Effect.ATTACK, Effect.DEFENSE, Effect.CRITS, Effect.BARRIERS)
REVEAL_EFFECTS = (
    Effect.BOOST_ATTACK,
    Effect.BOOST_CRITS,
    Effect.CREATE_CRYSTALS,
    Effect.DEFEAT_DEFENDER,
    Effect.REVIVE,
)
CHALLENGER_CONTRAPTION = (
    Effect.BOOST_ATTACK,
    Effect.BOOST_CRITS,
    Effect.DEFEAT_DEFENDER,
    Effect.REVIVE,
)
CHAMPION_CONTRAPTION = (Effect.BOOST_DEFENSE, Effect.BOOST_BARRIERS)

# The ability vocabulary: which effects each keyword may carry.
VOCABULARY: dict[Keyword, tuple[Effect, ...]] = {
    Keyword.NONE: (Effect.NONE,),
    Keyword.ENTER: REVEAL_EFFECTS,
    Keyword.REBOOT: REVEAL_EFFECTS,
    Keyword.SWARM: STAT_EFFECTS,
    Keyword.FINALE: STAT_EFFECTS,
    Keyword.ENERGIZED: STAT_EFFECTS,
    Keyword.BUDDY: STAT_EFFECTS,
    Keyword.CRYSTALS: (Effect.CREATE_CRYSTALS,),
    Keyword.TRANSFORMATION: (Effect.TRANSFORM,),
    Keyword.RIPENING: (Effect.RECYCLE_BONUS,),
    Keyword.CONTRAPTION: CHALLENGER_CONTRAPTION + CHAMPION_CONTRAPTION,
}
# Effects whose number matters (validated >= 1).
NEEDS_AMOUNT = (
    *STAT_EFFECTS,
    Effect.BOOST_ATTACK,
    Effect.BOOST_CRITS,
    Effect.BOOST_DEFENSE,
    Effect.BOOST_BARRIERS,
    Effect.CREATE_CRYSTALS,
)

_STAT_WORD = {
    Effect.ATTACK: "attack",
    Effect.DEFENSE: "defense",
    Effect.CRITS: "crits",
    Effect.BARRIERS: "barriers",
}


class AbilityModel(BaseModel):
    model_config = ConfigDict(extra="forbid")
    keyword: str
    effect: str = "none"
    amount: int = Field(default=0, ge=0, le=20)
    faction: str | None = None
    into: CardRef | None = None

    @field_validator("keyword")
    @classmethod
    def _keyword(cls, v: str) -> str:
        names = [k.name.lower() for k in Keyword]
        if v not in names:
            raise ValueError(f"unknown keyword {v!r} (known: {', '.join(names)})")
        return v

    @field_validator("effect")
    @classmethod
    def _effect(cls, v: str) -> str:
        names = [e.name.lower() for e in Effect]
        if v not in names:
            raise ValueError(f"unknown effect {v!r} (known: {', '.join(names)})")
        return v

    @field_validator("faction")
    @classmethod
    def _faction(cls, v: str | None) -> str | None:
        if v is not None and v not in FACTIONS:
            raise ValueError(f"unknown faction {v!r} (known: {', '.join(FACTIONS)})")
        return v


class BotModel(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: CardName = Field(min_length=1, max_length=40)
    tier: int = Field(ge=0, le=4)
    factions: list[str] = Field(default_factory=list, max_length=2)
    attack: int = Field(default=0, ge=0, le=30)
    crits: int = Field(default=0, ge=0, le=10)
    defense: int = Field(default=0, ge=0, le=30)
    barriers: int = Field(default=0, ge=0, le=10)
    cost: int = Field(default=0, ge=0, le=20)
    scrap: int = Field(default=0, ge=0, le=20)
    copies: int = Field(default=1, ge=1, le=12)
    contraption: bool = False
    transformation: bool = False
    ability: AbilityModel | None = None
    text: CardText | None = None

    @field_validator("factions")
    @classmethod
    def _factions(cls, v: list[str]) -> list[str]:
        for f in v:
            if f not in FACTIONS:
                raise ValueError(f"unknown faction {f!r} (known: {', '.join(FACTIONS)})")
        if len(set(v)) != len(v):
            raise ValueError("a faction is listed twice")
        return v


@dataclass(frozen=True, slots=True)
class CardDef:
    """One printed design (shared by all its copies and by every state)."""

    index: int  # design number in the file
    name: str
    tier: int
    factions: tuple[str, ...]
    mask: int  # faction bits, for fast gang tests
    attack: int
    crits: int
    defense: int
    barriers: int
    cost: int
    scrap: int
    copies: int
    contraption: bool
    transformation: bool
    keyword: Keyword
    effect: Effect
    amount: int
    buddy_mask: int  # 0: any other bot is a buddy
    into: int  # design index of the evolved version, -1 if none
    text: str
    json: dict[str, Any] = field(compare=False, hash=False)

    def as_json(self) -> dict[str, Any]:
        return dict(self.json)


@dataclass(frozen=True, slots=True)
class Content:
    """The whole card set: designs, physical copies and the starting zones."""

    source: str
    designs: tuple[CardDef, ...]
    cards: tuple[CardDef, ...]  # by physical card id
    by_name: dict[str, CardDef]
    starters: tuple[tuple[int, ...], ...]  # per starter design, its copy ids
    tier_decks: tuple[tuple[int, ...], ...]  # index 1..4 used; index 0 empty
    transformation: tuple[int, ...]  # physical ids of the Transformation deck

    @property
    def num_cards(self) -> int:
        return len(self.cards)


def ability_text(
    keyword: Keyword, effect: Effect, amount: int, faction: str | None, into: str | None
) -> str:
    """The card text written from the vocabulary (RB-8)."""
    if keyword is Keyword.NONE:
        return ""
    if effect in _STAT_WORD:
        bonus = f"+{amount} {_STAT_WORD[effect]}"
        return {
            Keyword.SWARM: f"Swarm: {bonus} in a gang of 3 or more bots.",
            Keyword.FINALE: f"Finale: {bonus} while your deck holds 0-1 cards.",
            Keyword.ENERGIZED: f"Energized: {bonus} while your Reactor holds crystals.",
            Keyword.BUDDY: f"Buddy: {bonus} with another {faction + ' ' if faction else ''}"
            "bot in the gang.",
        }[keyword]
    what = {
        Effect.BOOST_ATTACK: f"your attacking gang gets +{amount} attack this clash",
        Effect.BOOST_CRITS: f"your attacking gang gets +{amount} crits this clash",
        Effect.BOOST_DEFENSE: f"your defense gang gets +{amount} defense this clash",
        Effect.BOOST_BARRIERS: f"your defense gang gets +{amount} barriers this clash",
        Effect.CREATE_CRYSTALS: f"create {amount} crystal{'s' if amount != 1 else ''}",
        Effect.DEFEAT_DEFENDER: "defeat one bot of the defense gang",
        Effect.REVIVE: "put a bot from your discard pile on top of your deck",
    }
    if keyword is Keyword.ENTER:
        return f"Enter: {what[effect]}."
    if keyword is Keyword.REBOOT:
        return f"Reboot: this bot goes face down under your deck; {what[effect]}."
    if keyword is Keyword.CRYSTALS:
        return f"Creating Crystals: when its attacking gang wins a clash, {what[effect]}."
    if keyword is Keyword.TRANSFORMATION:
        return f"Transformation: when its attacking gang wins a clash, it becomes {into}."
    if keyword is Keyword.RIPENING:
        return "Ripening: recycling it also pays scraps equal to your Workshop tier."
    # Contraption
    when = (
        "once per battle, while you challenge"
        if effect in CHALLENGER_CONTRAPTION
        else "once per battle, when your defense is about to fall"
    )
    return f"Contraption ({when}): {what[effect]}."


def build_content(models: list[BotModel], source: str) -> Content:
    """Check the cross-entry rules and number the physical copies."""
    where = f"content file {source}"
    names = [m.name for m in models]
    for m in models:
        if names.count(m.name) > 1:
            raise ContentError(f"{where}, card '{m.name}': the name is used twice")
    by_model = {m.name: m for m in models}
    designs: list[CardDef] = []
    for index, m in enumerate(models):
        here = f"{where}, card '{m.name}'"
        ab = m.ability
        keyword = Keyword[ab.keyword.upper()] if ab else Keyword.NONE
        effect = Effect[ab.effect.upper()] if ab else Effect.NONE
        amount = ab.amount if ab else 0
        if keyword is not Keyword.NONE and effect not in VOCABULARY[keyword]:
            allowed = ", ".join(e.name.lower() for e in VOCABULARY[keyword])
            raise ContentError(
                f"{here}: ability.effect: keyword '{keyword.name.lower()}' takes one of "
                f"{allowed}, got '{effect.name.lower()}'"
            )
        if effect in NEEDS_AMOUNT and amount < 1:
            raise ContentError(f"{here}: ability.amount: must be >= 1 for '{ab.effect}'")
        if ab and ab.faction and keyword is not Keyword.BUDDY:
            raise ContentError(f"{here}: ability.faction: only a Buddy ability names a faction")
        if m.contraption:
            if m.factions or m.attack or m.crits or m.defense or m.barriers:
                raise ContentError(
                    f"{here}: a Contraption has no factions, attack, crits, defense or barriers"
                )
            if keyword is not Keyword.CONTRAPTION:
                raise ContentError(f"{here}: ability.keyword: a Contraption needs 'contraption'")
            if m.tier == 0 or m.transformation:
                raise ContentError(f"{here}: a Contraption belongs to a tier 1-4 deck")
        else:
            if not m.factions:
                raise ContentError(f"{here}: factions: a bot needs one or two factions")
            if keyword is Keyword.CONTRAPTION:
                raise ContentError(f"{here}: ability.keyword: only a Contraption uses it")
        into = -1
        if keyword is Keyword.TRANSFORMATION:
            target = by_model.get(ab.into or "")
            if target is None or not target.transformation:
                raise ContentError(
                    f"{here}: ability.into: must name a Transformation card, got {ab.into!r}"
                )
            into = names.index(target.name)
        elif ab and ab.into:
            raise ContentError(f"{here}: ability.into: only a Transformation ability has it")
        if m.transformation and keyword is Keyword.TRANSFORMATION:
            raise ContentError(f"{here}: a Transformation card does not transform again")
        text = (
            m.text
            if m.text is not None
            else ability_text(
                keyword, effect, amount, ab.faction if ab else None, ab.into if ab else None
            )
        )
        mask = 0
        for f in m.factions:
            mask |= FACTION_BIT[f]
        data = {
            "name": m.name,
            "tier": m.tier,
            "factions": list(m.factions),
            "attack": m.attack,
            "crits": m.crits,
            "defense": m.defense,
            "barriers": m.barriers,
            "cost": m.cost,
            "scrap": m.scrap,
            "keyword": keyword.name.lower(),
            "text": text,
            "contraption": m.contraption,
            "transformation": m.transformation,
        }
        designs.append(
            CardDef(
                index=index,
                name=m.name,
                tier=m.tier,
                factions=tuple(m.factions),
                mask=mask,
                attack=m.attack,
                crits=m.crits,
                defense=m.defense,
                barriers=m.barriers,
                cost=m.cost,
                scrap=m.scrap,
                copies=m.copies,
                contraption=m.contraption,
                transformation=m.transformation,
                keyword=keyword,
                effect=effect,
                amount=amount,
                buddy_mask=FACTION_BIT[ab.faction] if ab and ab.faction else 0,
                into=into,
                text=text,
                json=data,
            )
        )
    cards: list[CardDef] = []
    starters: list[tuple[int, ...]] = []
    decks: list[list[int]] = [[] for _ in range(5)]
    transformation: list[int] = []
    copies_of: dict[int, list[int]] = {}
    for d in designs:
        ids = list(range(len(cards), len(cards) + d.copies))
        cards.extend([d] * d.copies)
        copies_of[d.index] = ids
        if d.transformation:
            transformation.extend(ids)
        elif d.tier == 0:
            starters.append(tuple(ids))
        else:
            decks[d.tier].extend(ids)
    if not starters:
        raise ContentError(f"{where}: no tier-0 starter bots")
    for s in starters:
        if len(s) < 4:
            raise ContentError(
                f"{where}, card '{cards[s[0]].name}': a starter needs 4 copies (one per seat)"
            )
        if cards[s[0]].contraption:
            raise ContentError(f"{where}, card '{cards[s[0]].name}': a starter cannot be one")
    for t in range(1, 5):
        if not decks[t]:
            raise ContentError(f"{where}: the tier {t} deck is empty")
    return Content(
        source=source,
        designs=tuple(designs),
        cards=tuple(cards),
        by_name={d.name: d for d in designs},
        starters=tuple(starters),
        tier_decks=tuple(tuple(d) for d in decks),
        transformation=tuple(transformation),
    )


@lru_cache(maxsize=16)  # bounded: inline content from strangers must not grow it for ever
def load_content(path: str = "") -> Content:
    """The bundled set (path "") or a user's card file; parsed once per path."""
    name, data = read_toml(path or BUNDLED, package=None if path else PACKAGE)
    if not isinstance(data, dict) or "bots" not in data:
        raise ContentError(f"content file {name}: expected [[bots]] tables")
    extra = sorted(set(data) - {"bots"})
    if extra:
        raise ContentError(f"content file {name}: unknown table '{extra[0]}'")
    models = validate_entries(name, data["bots"], BotModel, kind="card")
    total = sum(m.copies for m in models)
    if total > MAX_CARDS:
        raise ContentError(
            f"content file {name}: the copies add up to {total} cards, at most {MAX_CARDS}"
        )
    return build_content(models, name)
