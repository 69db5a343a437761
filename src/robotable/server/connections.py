"""Client connections: one websocket watching a table, as a seat or a spectator.

A connection's frames go through its own bounded outbox, so a client that does not read can
never hold a table up: past `OUTBOX_LIMIT` queued frames it is dropped (it may reconnect and
resync).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

OUTBOX_LIMIT = 256  # frames queued for one slow watcher before it is dropped (it can resync)


@dataclass(eq=False, slots=True)
class Watcher:
    """One websocket connection watching a table, as a seat or a spectator (seat None)."""

    seat: int | None
    send: Callable[[str], Any]  # async callable taking a text frame
    outbox: asyncio.Queue = field(default_factory=lambda: asyncio.Queue(OUTBOX_LIMIT))
    task: asyncio.Task | None = None
    dropped: bool = False
    address: str = ""  # the client's address (chat is limited per seat and per address)

    def push(self, frame: str) -> None:
        if self.dropped:
            return
        try:
            self.outbox.put_nowait(frame)
        except asyncio.QueueFull:
            # A client that does not read its frames must not hold the table up: forget what is
            # queued and tell the pump to stop (the connection is closed; a new one resyncs).
            self.dropped = True
            while not self.outbox.empty():
                self.outbox.get_nowait()
            self.outbox.put_nowait(None)

    async def pump(self) -> None:
        while True:
            frame = await self.outbox.get()
            if frame is None:
                return
            await self.send(frame)
