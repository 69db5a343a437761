"""Betabotz decisions: one small frozen dataclass per kind (see docs/rules/betabotz.md, BZ-9).

Card-bearing actions carry the card's `name` as well as its id, so that `str(action)` reads well
in a log; the name always follows from the id, so it never widens the action space.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from robotable.core.protocol import Action

from .content import ATTRS


@dataclass(frozen=True, slots=True)
class ChooseLot(Action):
    """Auction turn, first step: the Betabot or Component (by table slot) to bid on (BZ-3.3)."""

    kind: ClassVar[str] = "choose_lot"
    slot: int
    name: str

    def label(self) -> str:
        return f"bid on {self.name} (slot {self.slot})"


@dataclass(frozen=True, slots=True)
class Bid(Action):
    """Auction turn, second step: how many Bitz to stack on the chosen lot (BZ-3.3, BZ-3.4)."""

    kind: ClassVar[str] = "bid"
    amount: int

    def label(self) -> str:
        return f"bid {self.amount} Bitz"


@dataclass(frozen=True, slots=True)
class DrawCode(Action):
    """Phase 1: draw one Code card and leave this auction (BZ-4.2)."""

    kind: ClassVar[str] = "draw_code"

    def label(self) -> str:
        return "draw a Code card and leave the auction"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Mission phase: pass priority to the next seat (BZ-6.3)."""

    kind: ClassVar[str] = "pass"

    def label(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class PlayCode(Action):
    """Mission phase: play a Code card of this kind from hand (BZ-7.1)."""

    kind: ClassVar[str] = "play_code"
    code: int
    name: str

    def label(self) -> str:
        return f"play {self.name}"


@dataclass(frozen=True, slots=True)
class ChooseSeat(Action):
    """Pending step: the player a Code card targets (BZ-7.2)."""

    kind: ClassVar[str] = "choose_seat"
    seat: int

    def label(self) -> str:
        return f"target seat {self.seat}"


@dataclass(frozen=True, slots=True)
class ChooseAttribute(Action):
    """Pending step: the attribute a Code card changes (BZ-7.2)."""

    kind: ClassVar[str] = "choose_attribute"
    attribute: int

    def label(self) -> str:
        name = ATTRS[self.attribute] if 0 <= self.attribute < 4 else str(self.attribute)
        return f"choose {name}"


@dataclass(frozen=True, slots=True)
class ProposeTeam(Action):
    """Mission phase: start a team proposal (BZ-6.4); members and split follow as steps."""

    kind: ClassVar[str] = "propose_team"

    def label(self) -> str:
        return "propose a team"


@dataclass(frozen=True, slots=True)
class Invite(Action):
    """Proposal step: add a solo seat to the proposed team."""

    kind: ClassVar[str] = "invite"
    seat: int

    def label(self) -> str:
        return f"invite seat {self.seat}"


@dataclass(frozen=True, slots=True)
class FinishInvites(Action):
    """Proposal step: the member list is complete; choose the split next."""

    kind: ClassVar[str] = "finish_invites"

    def label(self) -> str:
        return "done inviting"


@dataclass(frozen=True, slots=True)
class SetShare(Action):
    """Proposal step: the proposer's own share of the reward; the rest is split equally (BZ-6.5)."""

    kind: ClassVar[str] = "set_share"
    share: int

    def label(self) -> str:
        return f"keep {self.share} Bitz of the reward"


@dataclass(frozen=True, slots=True)
class Accept(Action):
    """Answer to a proposal addressed to this seat (BZ-6.6)."""

    kind: ClassVar[str] = "accept"

    def label(self) -> str:
        return "accept the team"


@dataclass(frozen=True, slots=True)
class Reject(Action):
    kind: ClassVar[str] = "reject"

    def label(self) -> str:
        return "reject the team"


@dataclass(frozen=True, slots=True)
class DiscardComponent(Action):
    """Choose an equipped component to discard (over the limit BZ-5.2, or a consequence BZ-8.3)."""

    kind: ClassVar[str] = "discard_component"
    card: int
    name: str

    def label(self) -> str:
        return f"discard {self.name}"


@dataclass(frozen=True, slots=True)
class DiscardCode(Action):
    """Over the hand limit: discard a Code card of this kind (BZ-5.3)."""

    kind: ClassVar[str] = "discard_code"
    code: int
    name: str

    def label(self) -> str:
        return f"discard Code card {self.name}"


@dataclass(frozen=True, slots=True)
class TakeBreach(Action):
    """Choose one of the free Limit Breaches of an attribute that reached 13 (BZ-5.4)."""

    kind: ClassVar[str] = "take_breach"
    breach: int
    name: str

    def label(self) -> str:
        return f"take Limit Breach {self.name}"


ACTION_CLASSES: tuple[type[Action], ...] = (
    ChooseLot,
    Bid,
    DrawCode,
    Pass,
    PlayCode,
    ChooseSeat,
    ChooseAttribute,
    ProposeTeam,
    Invite,
    FinishInvites,
    SetShare,
    Accept,
    Reject,
    DiscardComponent,
    DiscardCode,
    TakeBreach,
)
