"""Stak Bots decisions: one small frozen dataclass per kind (SB-3, SB-4, SB-6).

Cards are named by their id in the deck (`card`) plus their printed name (`name`), so records and
labels read well; the name must match the id or the action is not legal. Choices an entry effect
asks for are separate decisions (Target, ChoosePlayer, Discard), never folded into Play.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from robotable.core.protocol import Action


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Play a hand card face-up onto your own stak (SB-4.1)."""

    kind: ClassVar[str] = "play"
    card: int
    name: str

    def label(self) -> str:
        return f"play {self.name} (#{self.card}) onto your stak"


@dataclass(frozen=True, slots=True)
class Scrap(Action):
    """Scrap your own top card or a card from your hand (SB-4.2)."""

    kind: ClassVar[str] = "scrap"
    card: int
    name: str
    from_hand: bool

    def label(self) -> str:
        where = "from your hand" if self.from_hand else "from the top of your stak"
        return f"scrap {self.name} (#{self.card}) {where}"


@dataclass(frozen=True, slots=True)
class Attack(Action):
    """Your top card attacks the top card of `target`'s stak (SB-4.3, SB-5)."""

    kind: ClassVar[str] = "attack"
    target: int

    def label(self) -> str:
        return f"attack seat {self.target}'s stak"


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    """End the turn once the scrapheap has been fed (SB-3.3, SB-3.4)."""

    kind: ClassVar[str] = "end_turn"

    def label(self) -> str:
        return "end the turn"


@dataclass(frozen=True, slots=True)
class Target(Action):
    """An entry effect's choice of a card in a stak: `seat`'s stak, `depth` cards below the top
    (0 = the top card). Shot, Reaper, Begone, Trip and Pit choose depth 0; Tranq any depth."""

    kind: ClassVar[str] = "target"
    seat: int
    depth: int
    name: str

    def label(self) -> str:
        where = "top card" if self.depth == 0 else f"card {self.depth} below the top"
        return f"choose {self.name}, the {where} of seat {self.seat}'s stak"


@dataclass(frozen=True, slots=True)
class ChoosePlayer(Action):
    """An Expel Bot's choice of a player (SB-8.12)."""

    kind: ClassVar[str] = "choose_player"
    seat: int

    def label(self) -> str:
        return f"choose seat {self.seat}"


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """The expelled player's choice of the hand card to scrap (SB-8.12)."""

    kind: ClassVar[str] = "discard"
    card: int
    name: str

    def label(self) -> str:
        return f"discard {self.name} (#{self.card}) from your hand"


ACTION_CLASSES: tuple[type[Action], ...] = (
    Play,
    Scrap,
    Attack,
    EndTurn,
    Target,
    ChoosePlayer,
    Discard,
)
END_TURN = EndTurn()
