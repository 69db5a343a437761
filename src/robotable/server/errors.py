"""Errors the web table turns into one-line answers for a client."""

from __future__ import annotations

from ..core.errors import RobotableError


class Refused(RobotableError):
    """A request the table turns down; the message is safe to show the client."""
