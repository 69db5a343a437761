"""Stak Bots decisions: one small frozen dataclass per kind (SB-3, SB-4, SB-6).

Cards are named by their id in the deck (`card`) plus their printed name (`name`), so records and
labels read well; the name must match the id or the action is not legal. Choices an entry effect
asks for are separate decisions (Target, ChoosePlayer, Discard), never folded into Play.
"""

from __future__ import annotations

from robotable.core.protocol import Action, action


def _stak(seat: int, stak: int) -> str:
    """A stak in a label: "your stak", "seat 1's stak 2" (seats and staks as numbered in JSON)."""
    whose = "your" if seat < 0 else f"seat {seat}'s"
    return f"{whose} stak" + (f" {stak}" if stak else "")


@action("play")
class Play(Action):
    """Play a hand card face-up onto your own stak (SB-4.1), or onto `seat`'s stak where
    borderless play or the traitor variation allow it (SB-11.6, SB-11.8); -1 is your own.
    `stak` says which of that seat's staks when each has several (SB-11.12)."""

    card: int
    name: str
    seat: int = -1
    stak: int = 0

    def label(self) -> str:
        return f"play {self.name} (#{self.card}) onto {_stak(self.seat, self.stak)}"


@action("scrap")
class Scrap(Action):
    """Scrap your own top card or a card from your hand (SB-4.2)."""

    card: int
    name: str
    from_hand: bool

    def label(self) -> str:
        where = "from your hand" if self.from_hand else "from the top of your stak"
        return f"scrap {self.name} (#{self.card}) {where}"


@action("attack")
class Attack(Action):
    """Your top card attacks the top card of `target`'s stak (SB-4.3, SB-5); with several
    staks per seat (SB-11.12), the top card of your stak `own_stak` attacks `target`'s stak
    `target_stak`."""

    target: int
    target_stak: int = 0
    own_stak: int = 0

    def label(self) -> str:
        mine = f" from your stak {self.own_stak}" if self.own_stak else ""
        return f"attack {_stak(self.target, self.target_stak)}{mine}"


@action("end_turn", "end the turn")
class EndTurn(Action):
    """End the turn once the scrapheap has been fed (SB-3.3, SB-3.4)."""


@action("target")
class Target(Action):
    """An entry effect's choice of a card in a stak: `seat`'s stak, `depth` cards below the top
    (0 = the top card). Shot, Reaper, Begone, Trip and Pit choose depth 0; Tranq any depth."""

    seat: int
    depth: int
    name: str
    stak: int = 0

    def label(self) -> str:
        where = "top card" if self.depth == 0 else f"card {self.depth} below the top"
        return f"choose {self.name}, the {where} of {_stak(self.seat, self.stak)}"


@action("choose_player", "choose seat {seat}")
class ChoosePlayer(Action):
    """An Expel Bot's choice of a player (SB-8.12)."""

    seat: int


@action("discard", "discard {name} (#{card}) from your hand")
class Discard(Action):
    """The expelled player's choice of the hand card to scrap (SB-8.12)."""

    card: int
    name: str


@action("recycle")
class Recycle(Action):
    """Recycling (SB-11.4): scrap your top card (of your stak `stak`, SB-11.12) and this hand
    card together, then draw a card."""

    card: int
    name: str
    stak: int = 0

    def label(self) -> str:
        return f"recycle {self.name} (#{self.card}) with the top card of {_stak(-1, self.stak)}"


@action("react", "react: play {name} (#{card}) onto your attacked stak")
class React(Action):
    """Reactive play (SB-11.5): the attacked seat plays this hand card onto the defending stak,
    which cancels the attack."""

    card: int
    name: str


@action("let_through", "let the attack through")
class LetThrough(Action):
    """Reactive play (SB-11.5): the attacked seat does not react; the combat goes ahead."""


ACTION_CLASSES: tuple[type[Action], ...] = (
    Play,
    Scrap,
    Attack,
    EndTurn,
    Target,
    ChoosePlayer,
    Discard,
    Recycle,
    React,
    LetThrough,
)
END_TURN = EndTurn()
LET_THROUGH = LetThrough()
