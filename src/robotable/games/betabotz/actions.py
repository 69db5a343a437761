"""Betabotz decisions: one small frozen dataclass per kind (see docs/rules/betabotz.md, BZ-9).

Card-bearing actions carry the card's `name` as well as its id, so that `str(action)` reads well
in a log; the name always follows from the id, so it never widens the action space.
"""

from __future__ import annotations

from robotable.core.protocol import Action, action

from .content import ATTRS


@action("choose_lot", "bid on {name} (slot {slot})")
class ChooseLot(Action):
    """Auction turn, first step: the Betabot or Component (by table slot) to bid on (BZ-3.3)."""

    slot: int
    name: str


@action("bid", "bid {amount} Bitz")
class Bid(Action):
    """Auction turn, second step: how many Bitz to stack on the chosen lot (BZ-3.3, BZ-3.4)."""

    amount: int


@action("draw_code", "draw a Code card and leave the auction")
class DrawCode(Action):
    """Phase 1: draw one Code card and leave this auction (BZ-4.2)."""


@action("pass", "pass")
class Pass(Action):
    """Mission phase: pass priority to the next seat (BZ-6.3)."""


@action("play_code", "play {name}")
class PlayCode(Action):
    """Mission phase: play a Code card of this kind from hand (BZ-7.1)."""

    code: int
    name: str


@action("choose_seat", "target seat {seat}")
class ChooseSeat(Action):
    """Pending step: the player a Code card targets (BZ-7.2)."""

    seat: int


@action("choose_attribute")
class ChooseAttribute(Action):
    """Pending step: the attribute a Code card changes (BZ-7.2)."""

    attribute: int

    def label(self) -> str:
        name = ATTRS[self.attribute] if 0 <= self.attribute < 4 else str(self.attribute)
        return f"choose {name}"


@action("propose_team", "propose a team")
class ProposeTeam(Action):
    """Mission phase: start a team proposal (BZ-6.4); members and split follow as steps."""


@action("invite", "invite seat {seat}")
class Invite(Action):
    """Proposal step: add a solo seat to the proposed team."""

    seat: int


@action("finish_invites", "done inviting")
class FinishInvites(Action):
    """Proposal step: the member list is complete; choose the split next."""


@action("set_share", "keep {share} Bitz of the reward")
class SetShare(Action):
    """Proposal step: the proposer's own share of the reward; the rest is split equally (BZ-6.5)."""

    share: int


@action("accept", "accept the team")
class Accept(Action):
    """Answer to a proposal addressed to this seat (BZ-6.6)."""


@action("reject")
class Reject(Action):
    def label(self) -> str:
        return "reject the team"


@action("discard_component", "discard {name}")
class DiscardComponent(Action):
    """Choose an equipped component to discard (over the limit BZ-5.2, or a consequence BZ-8.3)."""

    card: int
    name: str


@action("discard_code", "discard Code card {name}")
class DiscardCode(Action):
    """Over the hand limit: discard a Code card of this kind (BZ-5.3)."""

    code: int
    name: str


@action("take_breach", "take Limit Breach {name}")
class TakeBreach(Action):
    """Choose one of the free Limit Breaches of an attribute that reached 13 (BZ-5.4)."""

    breach: int
    name: str


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
