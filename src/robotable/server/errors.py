"""Errors the web table turns into one-line answers for a client."""

from __future__ import annotations

from ..core.errors import RobotableError


class Refused(RobotableError):
    """A request the table turns down; the message is safe to show the client."""


class Busy(Refused):
    """A request the server could not finish in time (answered 503: try again later)."""
