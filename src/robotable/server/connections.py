"""Client connections: one websocket watching a table, as a seat or a spectator.

A connection's frames go through its own bounded outbox, so a client that does not read can
never hold a table up: past `OUTBOX_LIMIT` queued frames it is dropped (it may reconnect and
resync).
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

OUTBOX_LIMIT = 256  # frames queued for one slow watcher before it is dropped (it can resync)


@dataclass(eq=False, slots=True)
class Watcher:
    """One websocket connection watching a table, as a seat or a spectator (seat None).

    Its pump sends what `push` queues, in order. The outbox is a plain deque and an idle pump
    waits on one future: a server holds thousands of idle watchers, and each object one keeps
    while waiting is one more for every collection of the garbage collector's youngest
    generation to walk (an asyncio.Queue kept its getter's coroutine, future and wrappers)."""

    seat: int | None
    send: Callable[[str], Any]  # async callable taking a text frame
    outbox: deque[str] = field(default_factory=deque)
    task: asyncio.Task | None = None
    dropped: bool = False
    address: str = ""  # the client's address (chat is limited per seat and per address)
    _wake: asyncio.Future | None = None  # what the idle pump waits on

    def push(self, frame: str) -> None:
        if self.dropped:
            return
        if len(self.outbox) >= OUTBOX_LIMIT:
            # A client that does not read its frames must not hold the table up: forget what is
            # queued and tell the pump to stop (the connection is closed; a new one resyncs).
            self.dropped = True
            self.outbox.clear()
        else:
            self.outbox.append(frame)
        wake = self._wake
        if wake is not None and not wake.done():
            wake.set_result(None)

    async def pump(self) -> None:
        outbox = self.outbox
        while not self.dropped:
            if not outbox:
                self._wake = asyncio.get_running_loop().create_future()
                try:
                    await self._wake
                finally:
                    self._wake = None
                continue
            await self.send(outbox.popleft())
