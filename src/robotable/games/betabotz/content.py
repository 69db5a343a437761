"""Betabotz content: Betabots, Components, Code cards, Limit Breaches and Missions.

The bundled `data/content.toml` is robotable's own design (no official card list is public).
A user's file with the same schema replaces it through the game option `content=path.toml`.
Everything is validated here, at the edge, by pydantic models, then frozen into dataclasses that
every state shares; nothing in this module runs in the hot path.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from robotable.core.content import CardName, CardText, read_toml, validate_entries
from robotable.core.errors import ContentError

ATTRS = ("agility", "firepower", "structure", "processor")
ATTR_SHORT = ("AGI", "FIR", "STR", "PRO")
GROUNDS = ("comptown", "rustland", "chiptropolis")
BUNDLED = "data/content.toml"

# Bounds that keep the RL action encoding fixed (see encoding.py); checked on load.
MAX_CODE_KINDS = 32
MAX_COMPONENTS = 128
MAX_BREACHES = 16
MAX_REWARD = 99

# The box (rulebook, BOX CONTENTS); only the bundled file must match it exactly.
BOX_COUNTS = {"betabot": 9, "component": 64, "code": 50, "breach": 8, "mission": 40}
BOX_GROUNDS = {"comptown": 14, "rustland": 14, "chiptropolis": 12}


class CodeOp(enum.IntEnum):
    """The Code card effect vocabulary."""

    MOD = 0  # add `amount` to an attribute (or all) of the target for this mission
    ROLL = 1  # roll the die, add the result to one attribute of the player for this mission
    CANCEL = 2  # undo the most recent attribute change made by a Code card still in force
    SHIELD = 3  # the player ignores this mission's consequences
    BOUNTY = 4  # +amount Bitz if the player's unit completes the mission
    DRAW = 5  # draw `amount` Code cards
    STEAL = 6  # take `amount` Bitz from the target


class Target(enum.IntEnum):
    SELF = 0  # no choice: the player who plays it
    OTHER = 1  # choose another player
    ANY = 2  # choose any player, yourself included


class BreachEffect(enum.IntEnum):
    HALVE_LOSS = 0  # Bitz consequences halved, rounded down
    MISSION_BONUS = 1  # +amount to the breach's attribute during missions
    SUCCESS_BONUS = 2  # +amount Bitz whenever the unit completes a mission
    IMMUNE_DAMAGE = 3  # no attribute penalties, no component discards from consequences
    DRAW_EACH_MISSION = 4  # draw `amount` Code cards when a mission is flipped
    WARD = 5  # other players' Code cards targeting this player have no effect
    # `amount` Code cards when the second, fourth, sixth... mission is flipped: half a Compiler,
    # for a designer who finds drawing at every mission too strong (docs/balancing.md)
    DRAW_EVERY_SECOND_MISSION = 6


# -- validation models (edge only) ------------------------------------------------------------
class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


AttrInt = Field(default=0, ge=-20, le=20)


class BetabotModel(_Strict):
    name: CardName = Field(min_length=1, max_length=60)
    min_bid: int = Field(ge=0, le=99)
    agility: int = Field(ge=-20, le=30)
    firepower: int = Field(ge=-20, le=30)
    structure: int = Field(ge=-20, le=30)
    processor: int = Field(ge=-20, le=30)


class ComponentModel(_Strict):
    name: CardName = Field(min_length=1, max_length=60)
    min_bid: int = Field(ge=0, le=99)
    agility: int = AttrInt
    firepower: int = AttrInt
    structure: int = AttrInt
    processor: int = AttrInt
    gold: bool = False
    green: bool = False  # outside the five-component limit
    acquire_cost: int = Field(default=0, ge=0, le=99)  # extra Bitz paid to the bank on winning


class CodeModel(_Strict):
    name: CardName = Field(min_length=1, max_length=60)
    count: int = Field(ge=1, le=50)
    gold: bool = False
    op: Literal["mod", "roll", "cancel", "shield", "bounty", "draw", "steal"]
    target: Literal["self", "other", "any"] = "self"
    attribute: Literal["choose", "all", "none", "agility", "firepower", "structure", "processor"]
    amount: int = Field(default=0, ge=-20, le=20)
    text: CardText = Field(min_length=1)

    @model_validator(mode="after")
    def _coherent(self) -> CodeModel:
        if self.op in ("mod", "roll") and self.attribute == "none":
            raise ValueError(f"op '{self.op}' needs an attribute (choose, all or a name)")
        if self.op == "roll" and self.amount < 1:
            raise ValueError("op 'roll' needs amount = the die's sides (>= 1)")
        if self.op == "steal" and self.target == "self":
            raise ValueError("op 'steal' needs target 'other' or 'any'")
        if self.op in ("bounty", "draw", "steal") and self.amount < 1:
            raise ValueError(f"op '{self.op}' needs amount >= 1")
        return self


# The breach effects whose amount counts (the others are flags).
COUNTED_EFFECTS = ("success_bonus", "draw_each_mission", "draw_every_second_mission")


class BreachModel(_Strict):
    name: CardName = Field(min_length=1, max_length=60)
    attribute: Literal["agility", "firepower", "structure", "processor"]
    effect: Literal[
        "halve_loss",
        "mission_bonus",
        "success_bonus",
        "immune_damage",
        "draw_each_mission",
        "ward",
        "draw_every_second_mission",
    ]
    amount: int = Field(default=0, ge=0, le=20)
    text: CardText = Field(min_length=1)

    @model_validator(mode="after")
    def _counted(self) -> BreachModel:
        # A flag effect's amount is unused (the rules count a held flag as 1), so a counted
        # effect with amount 0 would act once, not never: refused, as a Code card's draw is.
        if self.effect in COUNTED_EFFECTS and self.amount < 1:
            raise ValueError(f"effect '{self.effect}' needs amount >= 1")
        return self


class Requirements(_Strict):
    agility: int = Field(default=0, ge=0, le=99)
    firepower: int = Field(default=0, ge=0, le=99)
    structure: int = Field(default=0, ge=0, le=99)
    processor: int = Field(default=0, ge=0, le=99)


class Damage(_Strict):
    agility: int = Field(default=0, ge=0, le=20)
    firepower: int = Field(default=0, ge=0, le=20)
    structure: int = Field(default=0, ge=0, le=20)
    processor: int = Field(default=0, ge=0, le=20)


class MissionModel(_Strict):
    name: CardName = Field(min_length=1, max_length=60)
    ground: Literal["comptown", "rustland", "chiptropolis"]
    reward: int = Field(ge=0, le=MAX_REWARD)
    require: Requirements
    lose_bitz: int = Field(default=0, ge=0, le=99)
    damage: Damage = Damage()
    discard_component: bool = False
    discard_code: bool = False

    @model_validator(mode="after")
    def _one_or_two(self) -> MissionModel:
        n = sum(1 for a in ATTRS if getattr(self.require, a) > 0)
        if not 1 <= n <= 2:
            raise ValueError(f"a mission requires one or two attributes, got {n}")
        return self


# -- frozen definitions shared by every state -------------------------------------------------
@dataclass(frozen=True, slots=True)
class Betabot:
    id: int
    name: str
    min_bid: int
    attrs: tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class Component:
    id: int
    name: str
    min_bid: int
    mods: tuple[int, int, int, int]
    gold: bool
    green: bool
    acquire_cost: int


@dataclass(frozen=True, slots=True)
class CodeKind:
    id: int
    name: str
    count: int
    gold: bool
    op: CodeOp
    target: Target
    attr: int  # 0-3 a fixed attribute, -1 the player chooses, -2 every attribute, -3 none
    amount: int
    text: str

    @property
    def hostile(self) -> bool:
        """Aimed at another player to hurt them (the Firewall breach stops these)."""
        return self.op == CodeOp.STEAL or (self.op == CodeOp.MOD and self.amount < 0)


@dataclass(frozen=True, slots=True)
class Breach:
    id: int
    name: str
    attr: int
    effect: BreachEffect
    amount: int
    text: str


@dataclass(frozen=True, slots=True)
class Mission:
    id: int
    name: str
    ground: int  # index in GROUNDS
    reward: int
    require: tuple[int, int, int, int]
    lose_bitz: int
    damage: tuple[int, int, int, int]
    discard_component: bool
    discard_code: bool
    # The consequences in words, worked out once (events and views show them at every flip).
    consequence: str = field(default="", compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "consequence", self._consequence_words())

    def consequence_text(self) -> str:
        return self.consequence

    def _consequence_words(self) -> str:
        parts = []
        if self.lose_bitz:
            parts.append(f"lose {self.lose_bitz} Bitz")
        for a, d in enumerate(self.damage):
            if d:
                parts.append(f"-{d} {ATTRS[a]} (permanent)")
        if self.discard_component:
            parts.append("discard a component")
        if self.discard_code:
            parts.append("discard a random Code card")
        return ", ".join(parts) or "none"

    def requirement_text(self) -> str:
        return ", ".join(f"{ATTRS[a]} {v}" for a, v in enumerate(self.require) if v)


@dataclass(frozen=True, slots=True)
class Content:
    source: str
    betabots: tuple[Betabot, ...]
    components: tuple[Component, ...]
    codes: tuple[CodeKind, ...]
    breaches: tuple[Breach, ...]
    missions: tuple[Mission, ...]
    code_card_kind: tuple[int, ...]  # code card instance id -> CodeKind id
    missions_by_ground: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]

    def check_seats(self, num_players: int, layout: tuple[int, int, int]) -> None:
        """A content set must be able to run a game of `num_players` seats."""
        where = f"content file {self.source}"
        if len(self.betabots) < num_players:
            raise ContentError(
                f"{where}: {num_players} seats need {num_players} Betabots, "
                f"the file has {len(self.betabots)}"
            )
        for g, need in enumerate(layout):
            have = len(self.missions_by_ground[g])
            if have < need:
                raise ContentError(
                    f"{where}: {num_players} seats need {need} {GROUNDS[g]} missions, "
                    f"the file has {have}"
                )
        if len(self.code_card_kind) < 3 * num_players:
            raise ContentError(
                f"{where}: {num_players} seats need at least {3 * num_players} Code cards "
                f"to deal 3 each, the file has {len(self.code_card_kind)}"
            )


def _section(data: dict, key: str, name: str) -> list:
    if key not in data:
        raise ContentError(f"content file {name}: missing the [[{key}]] entries")
    return data[key]


def _attr_index(text: str) -> int:
    return {"choose": -1, "all": -2, "none": -3}.get(
        text, ATTRS.index(text) if text in ATTRS else -3
    )


def parse_content(name: str, data: dict) -> Content:
    """Validate a parsed TOML document into a Content (errors name file, entry, field)."""
    unknown = sorted(set(data) - {"betabot", "component", "code", "breach", "mission"})
    if unknown:
        raise ContentError(f"content file {name}: unknown section '{unknown[0]}'")
    bots = validate_entries(name, _section(data, "betabot", name), BetabotModel, "betabot")
    comps = validate_entries(name, _section(data, "component", name), ComponentModel, "component")
    codes = validate_entries(name, _section(data, "code", name), CodeModel, "code card")
    breaches = validate_entries(name, _section(data, "breach", name), BreachModel, "limit breach")
    missions = validate_entries(name, _section(data, "mission", name), MissionModel, "mission")
    for kind, entries in (
        ("betabot", bots),
        ("component", comps),
        ("code card", codes),
        ("limit breach", breaches),
        ("mission", missions),
    ):
        seen: set[str] = set()
        for e in entries:
            if e.name in seen:
                raise ContentError(f"content file {name}, {kind} '{e.name}': name used twice")
            seen.add(e.name)
    if len(comps) > MAX_COMPONENTS:
        raise ContentError(f"content file {name}: at most {MAX_COMPONENTS} components")
    if len(codes) > MAX_CODE_KINDS:
        raise ContentError(f"content file {name}: at most {MAX_CODE_KINDS} kinds of Code card")
    if len(breaches) > MAX_BREACHES:
        raise ContentError(f"content file {name}: at most {MAX_BREACHES} limit breaches")
    for attr in ATTRS:
        n = sum(1 for b in breaches if b.attribute == attr)
        if n > 2:
            raise ContentError(
                f"content file {name}: at most 2 limit breaches per attribute, {attr} has {n}"
            )

    betabots = tuple(
        Betabot(i, b.name, b.min_bid, (b.agility, b.firepower, b.structure, b.processor))
        for i, b in enumerate(bots)
    )
    components = tuple(
        Component(
            i,
            c.name,
            c.min_bid,
            (c.agility, c.firepower, c.structure, c.processor),
            c.gold,
            c.green,
            c.acquire_cost,
        )
        for i, c in enumerate(comps)
    )
    ops = {op.name.lower(): op for op in CodeOp}
    kinds = tuple(
        CodeKind(
            i,
            c.name,
            c.count,
            c.gold,
            ops[c.op],
            Target[c.target.upper()],
            _attr_index(c.attribute),
            c.amount,
            c.text,
        )
        for i, c in enumerate(codes)
    )
    effects = {e.name.lower(): e for e in BreachEffect}
    brs = tuple(
        Breach(i, b.name, ATTRS.index(b.attribute), effects[b.effect], b.amount, b.text)
        for i, b in enumerate(breaches)
    )
    mis = tuple(
        Mission(
            i,
            m.name,
            GROUNDS.index(m.ground),
            m.reward,
            tuple(getattr(m.require, a) for a in ATTRS),
            m.lose_bitz,
            tuple(getattr(m.damage, a) for a in ATTRS),
            m.discard_component,
            m.discard_code,
        )
        for i, m in enumerate(missions)
    )
    card_kind = tuple(k.id for k in kinds for _ in range(k.count))
    by_ground = tuple(tuple(m.id for m in mis if m.ground == g) for g in range(3))
    return Content(name, betabots, components, kinds, brs, mis, card_kind, by_ground)  # type: ignore[arg-type]


@lru_cache(maxsize=16)  # bounded: inline content from strangers must not grow it for ever
def load_content(path: str = "") -> Content:
    """The bundled set (path "") or a user's file, parsed once per process."""
    if path:
        name, data = read_toml(path)
    else:
        name, data = read_toml(BUNDLED, package="robotable.games.betabotz")
    return parse_content(name, data)


def box_count_problems(content: Content) -> list[str]:
    """How a content set differs from the box (empty for the bundled set)."""
    have = {
        "betabot": len(content.betabots),
        "component": len(content.components),
        "code": len(content.code_card_kind),
        "breach": len(content.breaches),
        "mission": len(content.missions),
    }
    out = [f"{k}: {have[k]} (box: {v})" for k, v in BOX_COUNTS.items() if have[k] != v]
    for g, ground in enumerate(GROUNDS):
        n = len(content.missions_by_ground[g])
        if n != BOX_GROUNDS[ground]:
            out.append(f"{ground} missions: {n} (box: {BOX_GROUNDS[ground]})")
    return out
