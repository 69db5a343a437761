"""Iotabots card pool and deck lists: TOML and plain text validated at the edge (IB-9, IB-10).

A card file holds `[[cards]]` tables; each card's abilities are `[[cards.effects]]` tables written
in a small vocabulary (kinds, trigger moments, costs, conditions, operations) that `effects.py`
interprets. Validation happens once here; the engine only ever sees the frozen dataclasses below,
shared by every state.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from robotable.core.content import (
    MAX_ENTRIES,
    CardName,
    CardRef,
    CardText,
    card_name,
    read_text,
    read_toml,
    short_repr,
    validate_entries,
)
from robotable.core.errors import ContentError
from robotable.core.options import INLINE, content_files_allowed

PACKAGE = "robotable.games.iotabots"
DECK_SIZE = 33
MAX_COPIES = 3
ZONE_SIZE = 5  # IB-5.1: the Bot Zone's five spaces


class CardType(enum.IntEnum):
    BOT = 0
    BUZZ = 1
    TOKEN = 2


class EffectKind(enum.IntEnum):
    CONTINUOUS = 0
    IGNITION = 1
    TRIGGER = 2
    PLAY = 3  # a Buzz card's effect, resolved when it is activated


class When(enum.IntEnum):
    NONE = 0
    ON_SUMMON = 1
    ON_STANDBY = 2
    ON_BATTLE_DESTROYED = 3
    AFTER_DAMAGE = 4


class Op(enum.IntEnum):
    # one-shot operations (ignition, trigger, play)
    DRAW = 0
    DISCARD = 1
    HEAL = 2
    DAMAGE = 3
    ADD_MANA = 4
    MODIFY = 5
    DESTROY = 6
    BOUNCE = 7
    TOKEN = 8
    CONTROL = 9
    JUNK_TO_HAND = 10
    PROTECT = 11
    COUNTER = 12
    WIN_IF_COUNTERS = 13
    # costs, turned into steps that run before the operations
    COST_DISCARD = 14
    COST_TRIBUTE = 15
    # continuous operations (only in continuous effects)
    STATIC_STAT = 16
    UNTARGETABLE_IF_OTHER = 17
    NO_DIRECT_ATTACK = 18


class Target(enum.IntEnum):
    NONE = 0
    SELF = 1
    OWN = 2  # one Bot the effect's controller controls, chosen
    OWN_OTHER = 3  # as OWN but not the source Bot
    ENEMY = 4  # one Bot the opponent controls, chosen
    ANY = 5  # any Bot on the field, chosen
    ALL_OWN = 6
    ALL_ENEMY = 7
    ALL = 8
    BATTLED = 9  # the Bot the source Bot just battled
    OTHERS_OWN = 10  # continuous: every other Bot its controller controls


CHOSEN_TARGETS = frozenset({Target.OWN, Target.OWN_OTHER, Target.ENEMY, Target.ANY})


class CondKind(enum.IntEnum):
    NONE = 0
    CARD_PRESENT = 1  # a card of the given name is in the given zones of its controller
    CONTROLS_OTHER_BOT = 2


# The members the forward model tests on every step, trigger and summon, as plain module names
# (OP_DRAW is Op.DRAW): in Python 3.11 reading `Op.DRAW` goes through the enum metaclass's
# __getattr__ hook, several times the cost of a global, in both engines.
TYPE_BUZZ = CardType.BUZZ
TYPE_TOKEN = CardType.TOKEN
WHEN_ON_SUMMON = When.ON_SUMMON
WHEN_ON_STANDBY = When.ON_STANDBY
WHEN_ON_BATTLE_DESTROYED = When.ON_BATTLE_DESTROYED
WHEN_AFTER_DAMAGE = When.AFTER_DAMAGE
OP_DRAW = Op.DRAW
OP_DISCARD = Op.DISCARD
OP_HEAL = Op.HEAL
OP_DAMAGE = Op.DAMAGE
OP_ADD_MANA = Op.ADD_MANA
OP_MODIFY = Op.MODIFY
OP_DESTROY = Op.DESTROY
OP_BOUNCE = Op.BOUNCE
OP_TOKEN = Op.TOKEN
OP_CONTROL = Op.CONTROL
OP_JUNK_TO_HAND = Op.JUNK_TO_HAND
OP_PROTECT = Op.PROTECT
OP_COUNTER = Op.COUNTER
OP_WIN_IF_COUNTERS = Op.WIN_IF_COUNTERS
OP_COST_DISCARD = Op.COST_DISCARD
OP_COST_TRIBUTE = Op.COST_TRIBUTE
TARGET_SELF = Target.SELF
TARGET_OWN = Target.OWN
TARGET_OWN_OTHER = Target.OWN_OTHER
TARGET_ENEMY = Target.ENEMY
TARGET_ALL_OWN = Target.ALL_OWN
TARGET_ALL_ENEMY = Target.ALL_ENEMY
TARGET_BATTLED = Target.BATTLED
COND_NONE = CondKind.NONE
COND_CARD_PRESENT = CondKind.CARD_PRESENT


@dataclass(frozen=True, slots=True)
class Condition:
    kind: CondKind = CondKind.NONE
    card: str = ""
    in_junk: bool = False
    on_field: bool = False


NO_CONDITION = Condition()


@dataclass(frozen=True, slots=True)
class Step:
    """One operation of an effect, with every parameter an op may take."""

    op: Op
    n: int = 1
    atk: int = 0
    def_: int = 0
    set_stats: bool = False
    target: Target = Target.NONE
    max_atk: int = 99
    max_def: int = 99
    token: int = -1  # card index of the token (TOKEN)
    permanent: bool = False  # CONTROL: no return at the end of the turn
    may_attack: bool = False  # CONTROL: the Bot may attack this turn
    bot_only: bool = True  # JUNK_TO_HAND: only Bot cards


@dataclass(frozen=True, slots=True)
class Effect:
    kind: EffectKind
    when: When
    condition: Condition
    steps: tuple[Step, ...]  # costs first, then operations
    text: str


@dataclass(frozen=True, slots=True)
class Card:
    index: int
    name: str
    type: CardType
    mana: int
    atk: int
    def_: int
    attacks: int
    origin: str  # "known" (a public source) or "robotable" (our design)
    text: str
    effects: tuple[Effect, ...]

    @property
    def is_bot(self) -> bool:
        return self.type != CardType.BUZZ

    def to_view(self) -> dict:
        data: dict = {
            "name": self.name,
            "type": self.type.name.lower(),
            "mana": self.mana,
            "text": self.text,
            "origin": self.origin,
        }
        if self.is_bot:
            data["atk"] = self.atk
            data["def"] = self.def_
            data["attacks"] = self.attacks
        return data


@dataclass(frozen=True, slots=True)
class Pool:
    """The card pool: cards by index and name, plus the forbidden/limited list."""

    cards: tuple[Card, ...]
    by_name: dict[str, int]
    limits: dict[str, int]
    source: str

    def card(self, name: str) -> Card:
        return self.cards[self.by_name[name]]


# -- pydantic models (validation only; never used in the hot path) ----------------------------


class _ConditionModel(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["card_present", "controls_other_bot"]
    card: CardRef = ""
    zones: list[Literal["junk", "field"]] = Field(default_factory=list)


class _CostModel(BaseModel):
    model_config = ConfigDict(extra="forbid")
    discard: int = Field(default=0, ge=0, le=3)
    tribute: int = Field(default=0, ge=0, le=2)
    tribute_self: bool = False


_OP_NAMES = Literal[
    "draw",
    "discard",
    "heal",
    "damage",
    "add_mana",
    "modify",
    "destroy",
    "bounce",
    "token",
    "control",
    "junk_to_hand",
    "protect",
    "counter",
    "win_if_counters",
    "static_stat",
    "untargetable_if_other",
    "no_direct_attack",
]
_TARGET_NAMES = Literal[
    "self",
    "own",
    "own_other",
    "enemy",
    "any",
    "all_own",
    "all_enemy",
    "all",
    "battled",
    "others_own",
]
_CONTINUOUS_OPS = {"static_stat", "untargetable_if_other", "no_direct_attack"}
_TARGETED_OPS = {"modify", "destroy", "bounce", "control"}


class _OpModel(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    op: _OP_NAMES
    n: int = Field(default=1, ge=0, le=20)
    atk: int = Field(default=0, ge=-10, le=10)
    def_: int = Field(default=0, ge=-10, le=10, alias="def")
    set: bool = False
    target: _TARGET_NAMES | None = None
    max_atk: int = Field(default=99, ge=0, le=99)
    max_def: int = Field(default=99, ge=0, le=99)
    token: CardRef = ""
    until: Literal["end_of_turn", "permanent"] = "end_of_turn"
    may_attack: bool = False

    @model_validator(mode="after")
    def _targets(self) -> _OpModel:
        if self.op in _TARGETED_OPS and self.target is None:
            raise ValueError(f"op '{self.op}' needs a target")
        if self.op == "token" and not self.token:
            raise ValueError("op 'token' needs the token's name")
        if self.op == "static_stat" and self.target not in (None, "self", "others_own"):
            raise ValueError("op 'static_stat' takes target 'self' or 'others_own'")
        return self


class _EffectModel(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Literal["continuous", "ignition", "trigger", "play"]
    when: Literal["on_summon", "on_standby", "on_battle_destroyed", "after_damage"] | None = None
    condition: _ConditionModel | None = None
    cost: _CostModel = Field(default_factory=_CostModel)
    ops: list[_OpModel] = Field(min_length=1)

    @model_validator(mode="after")
    def _shape(self) -> _EffectModel:
        if (self.kind == "trigger") != (self.when is not None):
            raise ValueError("'when' is required for trigger effects and only for them")
        continuous_ops = [o.op for o in self.ops if o.op in _CONTINUOUS_OPS]
        if self.kind == "continuous" and len(continuous_ops) != len(self.ops):
            raise ValueError("continuous effects take only continuous ops")
        if self.kind != "continuous" and continuous_ops:
            raise ValueError(f"op '{continuous_ops[0]}' is only for continuous effects")
        if self.kind in ("continuous", "trigger") and (
            self.cost.discard or self.cost.tribute or self.cost.tribute_self
        ):
            raise ValueError(f"{self.kind} effects have no cost")
        return self


class _CardModel(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    name: CardName = Field(min_length=1, max_length=40)
    type: Literal["bot", "buzz", "token"]
    mana: int = Field(ge=0, le=10)
    atk: int = Field(default=0, ge=0, le=20)
    def_: int = Field(default=0, ge=0, le=20, alias="def")
    attacks: int = Field(default=1, ge=0, le=3)
    origin: Literal["known", "robotable"] = "robotable"
    text: CardText = ""
    effects: list[_EffectModel] = Field(default_factory=list)

    @field_validator("name")
    @classmethod
    def _clean(cls, value: str) -> str:
        if value != value.strip() or value[0].isdigit():
            raise ValueError("a card name must not start with a digit or blank")
        return value

    @model_validator(mode="after")
    def _buzz(self) -> _CardModel:
        kinds = {e.kind for e in self.effects}
        if self.type == "buzz":
            if kinds != {"play"} or len(self.effects) != 1:
                raise ValueError("a buzz card has exactly one effect, of kind 'play'")
        elif "play" in kinds:
            raise ValueError("only buzz cards have 'play' effects")
        return self


# -- building the frozen pool -----------------------------------------------------------------


def _condition(model: _ConditionModel | None) -> Condition:
    if model is None:
        return NO_CONDITION
    if model.kind == "card_present":
        if not model.card or not model.zones:
            raise ValueError("condition 'card_present' needs 'card' and 'zones'")
        return Condition(
            CondKind.CARD_PRESENT, model.card, "junk" in model.zones, "field" in model.zones
        )
    return Condition(CondKind.CONTROLS_OTHER_BOT)


def _steps(effect: _EffectModel, names: dict[str, int]) -> tuple[Step, ...]:
    steps: list[Step] = []
    if effect.cost.tribute_self:
        steps.append(Step(Op.COST_TRIBUTE, target=Target.SELF))
    steps.extend(Step(Op.COST_TRIBUTE, target=Target.OWN_OTHER) for _ in range(effect.cost.tribute))
    steps.extend(Step(Op.COST_DISCARD) for _ in range(effect.cost.discard))
    for op in effect.ops:
        kind = Op[op.op.upper()]
        target = Target[op.target.upper()] if op.target else Target.NONE
        if kind == Op.STATIC_STAT and target == Target.NONE:
            target = Target.SELF
        token = -1
        if kind == Op.TOKEN:
            if op.token not in names:
                raise ValueError(f"token '{op.token}' is not a card of this file")
            token = names[op.token]
        if kind == Op.DISCARD:
            # "discard n" is n single choices (IB-7.4: one choice at a time)
            steps.extend(Step(Op.DISCARD) for _ in range(op.n))
            continue
        steps.append(
            Step(
                kind,
                n=op.n,
                atk=op.atk,
                def_=op.def_,
                set_stats=op.set,
                target=target,
                max_atk=op.max_atk,
                max_def=op.max_def,
                token=token,
                permanent=op.until == "permanent",
                may_attack=op.may_attack,
            )
        )
    return tuple(steps)


def build_pool(file_name: str, models: list[_CardModel], limits: dict[str, int]) -> Pool:
    names: dict[str, int] = {}
    for i, m in enumerate(models):
        if m.name in names:
            raise ContentError(f"content file {file_name}, card '{m.name}': duplicate name")
        names[m.name] = i
    cards = []
    for i, m in enumerate(models):
        effects = []
        for j, e in enumerate(m.effects, start=1):
            try:
                cond = _condition(e.condition)
                if cond.kind == CondKind.CARD_PRESENT and cond.card not in names:
                    raise ValueError(f"condition names unknown card '{cond.card}'")
                steps = _steps(e, names)
            except ValueError as exc:
                raise ContentError(
                    f"content file {file_name}, card '{m.name}': effects.{j}: {exc}"
                ) from None
            effects.append(
                Effect(
                    EffectKind[e.kind.upper()],
                    When[e.when.upper()] if e.when else When.NONE,
                    cond,
                    steps,
                    m.text,
                )
            )
        ctype = CardType[m.type.upper()]
        cards.append(
            Card(
                i,
                m.name,
                ctype,
                m.mana,
                m.atk if ctype != CardType.BUZZ else 0,
                m.def_ if ctype != CardType.BUZZ else 0,
                m.attacks if ctype != CardType.BUZZ else 0,
                m.origin,
                m.text,
                tuple(effects),
            )
        )
    for name in limits:
        if name not in names:
            raise ContentError(f"limits: unknown card '{name}'")
    return Pool(tuple(cards), names, dict(limits), file_name)


def _read_limits(source: str) -> dict[str, int]:
    """The bundled list ("") or a user's (inline or a path)."""
    if source:
        name, data = read_toml(source)
    else:
        name, data = read_toml("data/limits.toml", package=PACKAGE)
    table = data.get("limits", {})
    if not isinstance(table, dict):
        raise ContentError(f"content file {name}: 'limits' must be a table of card = copies")
    if len(table) > MAX_ENTRIES:
        raise ContentError(f"content file {name}: {len(table)} limits, at most {MAX_ENTRIES}")
    out = {}
    for card, copies in table.items():
        card = card_name(card)  # the name as the pool holds it (core/content.py)
        if not isinstance(copies, int) or isinstance(copies, bool) or not 0 <= copies <= 3:
            raise ContentError(
                f"content file {name}, limits '{card}': copies must be 0..3, "
                f"got {short_repr(copies)}"
            )
        out[card] = copies
    return out


@lru_cache(maxsize=16)  # bounded: inline content from strangers must not grow it for ever
def load_pool(cards: str = "", proposed_texts: bool = False, limits: str = "") -> Pool:
    """The pool from the bundled `data/cards.toml` or a user's file; cached (parsed once).

    `proposed_texts` overlays `data/proposed_texts.toml` (rules notes' designs for known Bots
    whose printed text is unknown) onto the pool; `limits` names a forbidden/limited list file.
    """
    if cards:
        name, data = read_toml(cards)
    else:
        name, data = read_toml("data/cards.toml", package=PACKAGE)
    raw = data.get("cards")
    models = validate_entries(name, raw, _CardModel)
    if proposed_texts:
        oname, odata = read_toml("data/proposed_texts.toml", package=PACKAGE)
        overlay = validate_entries(oname, odata.get("cards"), _CardModel)
        by_name = {m.name: i for i, m in enumerate(models)}
        for m in overlay:
            if m.name in by_name:
                base = models[by_name[m.name]]
                models[by_name[m.name]] = base.model_copy(
                    update={"effects": m.effects, "text": m.text}
                )
    lim = _read_limits(limits)
    try:
        return build_pool(name, models, lim)
    except ContentError:
        raise
    except ValueError as exc:
        raise ContentError(f"content file {name}: {exc}") from None


# -- deck lists -------------------------------------------------------------------------------


# The deck lists in data/*.txt (a test keeps this in step with the folder).
BUNDLED_DECKS = ("assembly_line", "beacon", "heavy_metal", "hijack")


def bundled_deck_names() -> list[str]:
    return list(BUNDLED_DECKS)


def read_deck_text(spec: str) -> tuple[str, str]:
    """(file name for errors, text) of a bundled deck name, inline content or a deck file path."""
    if spec in BUNDLED_DECKS:
        return read_text(f"data/{spec}.txt", package=PACKAGE)
    if not spec.startswith(INLINE) and content_files_allowed() and not Path(spec).exists():
        known = ", ".join(BUNDLED_DECKS)
        raise ContentError(f"deck {spec!r}: neither a bundled deck ({known}) nor an existing file")
    return read_text(spec)


def parse_deck(file_name: str, text: str, pool: Pool) -> tuple[int, ...]:
    """IB-2.1/2.2: a legal deck as card indices, sorted. Errors name the file and the line."""
    counts: dict[int, int] = {}
    first_line: dict[int, int] = {}
    last_line = 0
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        last_line = lineno
        where = f"deck file {file_name}, line {lineno}"
        head, _, rest = line.partition(" ")
        # ASCII digits only ('²' is a digit to str.isdigit, not to int), and a short number:
        # every count is checked against the card's cap below before the deck is built.
        if not (head.isascii() and head.isdigit()) or not rest.strip():
            raise ContentError(
                f"{where}: expected '<copies> <card name>', got {short_repr(raw.strip())}"
            )
        name = card_name(" ".join(rest.split()))
        if len(head) > 3:
            raise ContentError(f"{where}: copies of '{name}' must be at most {MAX_COPIES}")
        copies = int(head)
        if name not in pool.by_name:
            raise ContentError(f"{where}: unknown card '{name}'")
        card = pool.card(name)
        if card.type == CardType.TOKEN:
            raise ContentError(f"{where}: '{name}' is a token and cannot be in a deck")
        if copies < 1:
            raise ContentError(f"{where}: copies must be at least 1, got {copies}")
        total = counts.get(card.index, 0) + copies
        cap = pool.limits.get(name, MAX_COPIES)
        if total > cap:
            which = "limited list allows" if name in pool.limits else "a deck holds at most"
            raise ContentError(f"{where}: {total} copies of '{name}' but the {which} {cap}")
        counts[card.index] = total
        first_line.setdefault(card.index, lineno)
    size = sum(counts.values())
    if size != DECK_SIZE:
        raise ContentError(
            f"deck file {file_name}, line {last_line}: the deck holds {size} cards, "
            f"it must hold exactly {DECK_SIZE}"
        )
    deck: list[int] = []
    for index in sorted(counts):
        deck.extend([index] * counts[index])
    return tuple(deck)


def load_deck(spec: str, pool: Pool) -> tuple[str, tuple[int, ...]]:
    """(display name, cards) of a bundled deck name, inline content or a deck file path."""
    file_name, text = read_deck_text(spec)
    name = "custom deck" if spec.startswith(INLINE) else Path(file_name).name
    if name.endswith(".txt"):
        name = name[:-4]
    return name, parse_deck(file_name, text, pool)
