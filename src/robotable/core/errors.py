"""Errors raised across robotable. Each message names what is wrong and where, on one line."""

from __future__ import annotations


class RobotableError(Exception):
    """Base class: every robotable error carries a one-line message fit for a user."""


class IllegalAction(RobotableError, ValueError):
    """An action that is not legal in the current state, or not an action at all.

    The state it was offered to is left exactly as it was.
    """


class OptionError(RobotableError, ValueError):
    """An unknown game, option or seat count, or an option value out of range."""


class ContentError(RobotableError, ValueError):
    """A malformed content file: the message names the file, the entry and the field."""


class RecordError(RobotableError, ValueError):
    """A game record that is malformed or does not replay; names the step when there is one."""

    def __init__(self, message: str, step: int | None = None) -> None:
        super().__init__(message)
        self.step = step


def validation_words(error: dict) -> str:
    """One pydantic error's message as a person reads it: pydantic writes a validator's own
    sentence after "Value error, " (or "Assertion failed, "), which says nothing to a player
    or a designer."""
    message = str(error.get("msg", "invalid"))
    for prefix in ("Value error, ", "Assertion failed, "):
        if message.startswith(prefix):
            return message[len(prefix) :]
    return message
