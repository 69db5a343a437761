"""Iotabots decisions: one small frozen dataclass per kind (IB-1 .. IB-7).

Bots are named by their position in a Bot Zone (`slot`, 0-based, as the terminal shows them);
cards in hand or in a Junk Zone by their name, since copies of a card are interchangeable.
"""

from __future__ import annotations

from robotable.core.protocol import Action, action

LIFE_POINTS = -1  # Attack.target meaning "the opponent's Life Points"


@action("choose_order")
class ChooseOrder(Action):
    """IB-1.3: the coin-toss winner (or the previous duel's loser) goes first or second."""

    go_first: bool

    def label(self) -> str:
        return "go first" if self.go_first else "go second"


@action("mulligan")
class Mulligan(Action):
    """IB-3.2: keep the opening hand, or put it back, shuffle and draw 3 again."""

    redraw: bool

    def label(self) -> str:
        return "mulligan: shuffle the hand back and draw 3" if self.redraw else "keep this hand"


@action("summon", "summon {card}")
class Summon(Action):
    """IB-5.1: summon a Bot from the hand, paying its mana."""

    card: str


@action("play_buzz", "activate {card}")
class PlayBuzz(Action):
    """IB-5.2: activate a Buzz card from the hand, paying its mana."""

    card: str


@action("activate")
class Activate(Action):
    """IB-8.3: declare the ignition effect of the Bot in your Bot Zone slot `slot`."""

    slot: int

    def label(self) -> str:
        return f"use the ignition effect of your bot {self.slot + 1}"


@action("enter_battle", "enter the Battle Phase")
class EnterBattle(Action):
    """IB-6.1: go from Main Phase 1 to the Battle Phase."""


@action("attack")
class Attack(Action):
    """IB-6.2: your Bot in `slot` attacks the enemy Bot in slot `target`, or the Life Points (-1)."""

    slot: int
    target: int

    def label(self) -> str:
        if self.target == LIFE_POINTS:
            return f"your bot {self.slot + 1} attacks the opponent's Life Points"
        return f"your bot {self.slot + 1} attacks enemy bot {self.target + 1}"


@action("end_battle", "end the Battle Phase")
class EndBattle(Action):
    """IB-6.5: end the Battle Phase and go to Main Phase 2."""


@action("end_turn", "end the turn")
class EndTurn(Action):
    """IB-4.6: end the turn (End Phase)."""


@action("choose_bot")
class ChooseBot(Action):
    """IB-8.4: choose a Bot on the field (for a cost or an effect): `seat`'s zone, `slot`."""

    seat: int
    slot: int

    def label(self) -> str:
        return f"choose seat {self.seat}'s bot {self.slot + 1}"


@action("choose_card", "choose {card}")
class ChooseCard(Action):
    """IB-8.4: choose a card by name from a hand or a Junk Zone (discards, Callback)."""

    card: str


ACTION_CLASSES: tuple[type[Action], ...] = (
    ChooseOrder,
    Mulligan,
    Summon,
    PlayBuzz,
    Activate,
    EnterBattle,
    Attack,
    EndBattle,
    EndTurn,
    ChooseBot,
    ChooseCard,
)
