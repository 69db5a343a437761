"""The two decisions of Dice Race (DR-2): roll the die, or play a boost card."""

from __future__ import annotations

from robotable.core.protocol import Action, action


@action("roll", "roll the die")
class Roll(Action):
    """DR-2.1: move the die's number of squares forward (a roll past the finish is wasted)."""


@action("boost", "play boost card {value}")
class Boost(Action):
    """DR-2.2: move exactly the card's value, then draw a replacement from the draw pile."""

    value: int


ACTION_CLASSES = (Roll, Boost)
