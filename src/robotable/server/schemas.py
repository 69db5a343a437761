"""What clients may send, checked by pydantic before anything else looks at it."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    StringConstraints,
    model_validator,
)

from ..core.errors import validation_words
from ..core.options import INLINE, MAX_INLINE

MAX_FRAME = 16_384  # bytes in one websocket message or HTTP body from a client
MAX_CREATE_BODY = 262_144  # bytes in a table creation request (it may carry inline content)
MAX_SEATS = 8

# Strict: JSON true stays a bool and 1 stays an int (the game's OptionSpec does the coercing).
Scalar = StrictBool | StrictInt | StrictFloat | StrictStr
# An option's text may be inline content (a card file sent as text); the game's OptionSpec
# holds every other text option to 200 characters.
OptionText = Annotated[StrictStr, StringConstraints(max_length=len(INLINE) + MAX_INLINE)]
OptionValue = StrictBool | StrictInt | StrictFloat | OptionText | list[Scalar]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", str_max_length=200)


class SeatSpec(_Strict):
    kind: Literal["human", "ai"]
    name: str | None = Field(default=None, max_length=40)
    ai: str | None = Field(default=None, max_length=60)
    open: bool = False  # a person's seat anyone may take from the lobby


class Claim(_Strict):
    name: str | None = Field(default=None, max_length=40)


class ClockSpec(_Strict):
    mode: Literal["move", "game"]
    seconds: float = Field(ge=1, le=86_400)


class CreateTable(_Strict):
    game: str = Field(max_length=40)
    # A guided first game (server/coach.py) takes its seats and deal from the game's coach
    # script: it needs neither (a first seat's name is kept).
    num_players: int | None = Field(default=None, ge=1, le=MAX_SEATS)
    options: dict[str, OptionValue] = Field(default_factory=dict, max_length=32)
    seats: list[SeatSpec] | None = Field(default=None, min_length=1, max_length=MAX_SEATS)
    # A chosen deal: only with no open seat, and shown to every player (Tables.create).
    seed: int | None = Field(default=None, ge=0, lt=2**128)
    clock: ClockSpec | None = None
    hints: bool = True  # players may ask what the Hard AI would do (never with a clock)
    guided: bool = False  # the game's guided first game: its fixed deal against an easy AI

    @model_validator(mode="after")
    def _seated(self) -> CreateTable:
        if not self.guided and (self.num_players is None or self.seats is None):
            raise ValueError("give num_players and seats (or guided: true)")
        return self


class Hello(_Strict):
    type: Literal["hello"]
    token: str | None = Field(default=None, max_length=100)


class Act(_Strict):
    type: Literal["act"]
    id: int | None = None
    step: int | None = Field(default=None, ge=0)
    index: int | None = Field(default=None, ge=0, le=100_000)
    action: dict[str, Any] | None = None
    # A turn plan's key (the frame's "plans", core/plans.py): several actions as one decision.
    plan: str | None = Field(default=None, min_length=1, max_length=40)

    @model_validator(mode="after")
    def _one_choice(self) -> Act:
        if sum(x is not None for x in (self.index, self.action, self.plan)) != 1:
            raise ValueError("give exactly one of 'index' (into legal_actions), 'action' or 'plan'")
        return self


class Undo(_Strict):
    type: Literal["undo"]
    id: int | None = None


class Sync(_Strict):
    type: Literal["sync"]
    id: int | None = None


class Chat(_Strict):
    type: Literal["chat"]
    id: int | None = None
    text: str = Field(min_length=1, max_length=200)


class Rematch(_Strict):
    type: Literal["rematch"]
    id: int | None = None


class Hint(_Strict):
    type: Literal["hint"]
    id: int | None = None


ClientMessage = Annotated[
    Hello | Act | Undo | Sync | Chat | Rematch | Hint, Field(discriminator="type")
]


class Envelope(BaseModel):
    message: ClientMessage


def describe_error(exc: Exception) -> str:
    """A one-line description of a pydantic validation error, without echoing large input."""
    errors = getattr(exc, "errors", None)
    if errors is None:
        return "malformed message"
    parts = []
    for err in errors()[:3]:
        where = ".".join(str(p) for p in err.get("loc", ()) if p != "message")
        parts.append(f"{where}: {validation_words(err)}" if where else validation_words(err))
    return "; ".join(parts)
