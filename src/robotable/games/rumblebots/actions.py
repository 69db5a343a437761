"""Rumblebots decisions: one small frozen dataclass per kind.

Cards in actions are named by their printed name (two copies of a design are interchangeable),
and Laboratory builds by row and slot, so the same action means the same thing in every
determinized copy of a position.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from robotable.core.protocol import Action


@dataclass(frozen=True, slots=True)
class BuildLab(Action):
    """RB-4.3: build the bot in slot `slot` of the tier `tier` Laboratory row."""

    kind: ClassVar[str] = "build_lab"
    tier: int
    slot: int
    name: str

    def label(self) -> str:
        return f"build {self.name} from the tier {self.tier} Laboratory row"


@dataclass(frozen=True, slots=True)
class BuildScanned(Action):
    """RB-4.3: build a bot from your scanned hand."""

    kind: ClassVar[str] = "build_scanned"
    name: str

    def label(self) -> str:
        return f"build {self.name} from your scanned hand"


@dataclass(frozen=True, slots=True)
class Recycle(Action):
    """RB-4.4: trash one of your bots (not built this phase) for its green scrap value."""

    kind: ClassVar[str] = "recycle"
    name: str

    def label(self) -> str:
        return f"recycle {self.name}"


@dataclass(frozen=True, slots=True)
class Upgrade(Action):
    """RB-4.5: pay 3 scraps, Workshop tier +1."""

    kind: ClassVar[str] = "upgrade"

    def label(self) -> str:
        return "upgrade the Workshop (3 scraps)"


@dataclass(frozen=True, slots=True)
class EnergizeScrap(Action):
    """RB-4.6: Storage crystal to the Reactor, gain scraps."""

    kind: ClassVar[str] = "energize_scrap"

    def label(self) -> str:
        return "energize a crystal for scraps"


@dataclass(frozen=True, slots=True)
class EnergizeScan(Action):
    """RB-4.6: Storage crystal to the Reactor, scan two cards of a tier deck."""

    kind: ClassVar[str] = "energize_scan"
    tier: int

    def label(self) -> str:
        return f"energize a crystal and scan the tier {self.tier} deck"


@dataclass(frozen=True, slots=True)
class EnergizeCryo(Action):
    """RB-7.4: in the Showdown, a Cryo-cell crystal to the Reactor for 1 scrap."""

    kind: ClassVar[str] = "energize_cryo"

    def label(self) -> str:
        return "energize a Cryo-cell crystal for 1 scrap"


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    """RB-4.7: end your Build Phase (clean-up follows)."""

    kind: ClassVar[str] = "end_turn"

    def label(self) -> str:
        return "end your Build Phase"


@dataclass(frozen=True, slots=True)
class ChooseFaction(Action):
    """RB-5.6: the winning Challenger picks the faction of the new defense gang."""

    kind: ClassVar[str] = "choose_faction"
    faction: str

    def label(self) -> str:
        return f"form a {self.faction} defense gang"


@dataclass(frozen=True, slots=True)
class UseContraption(Action):
    """RB-5.8: use an upright Contraption now."""

    kind: ClassVar[str] = "use_contraption"
    name: str

    def label(self) -> str:
        return f"use {self.name}"


@dataclass(frozen=True, slots=True)
class PassContraption(Action):
    """RB-5.8: use no Contraption now."""

    kind: ClassVar[str] = "pass_contraption"

    def label(self) -> str:
        return "use no Contraption"


@dataclass(frozen=True, slots=True)
class ChooseTarget(Action):
    """RB-8: the bot an ability acts on (a defending bot, or one of your defeated bots)."""

    kind: ClassVar[str] = "choose_target"
    name: str

    def label(self) -> str:
        return f"target {self.name}"


ACTION_CLASSES: tuple[type[Action], ...] = (
    BuildLab,
    BuildScanned,
    Recycle,
    Upgrade,
    EnergizeScrap,
    EnergizeScan,
    EnergizeCryo,
    EndTurn,
    ChooseFaction,
    UseContraption,
    PassContraption,
    ChooseTarget,
)
