"""Limits a host sets so that strangers cannot fill the machine: open tables, in all and per
client address, table creation per client, idle and empty tables, watchers per table, and the
shape of what a client sends."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from .errors import Refused


@dataclass(frozen=True, slots=True)
class ServerLimits:
    max_tables: int = 1000  # open tables (unfinished and not abandoned)
    creates_per_minute: float = 6.0  # tables one client address may open, with a burst as large
    idle_hours: float = 72.0  # an unfinished table without a move this long is abandoned
    # A table no person ever joined (nobody connected to a seat or took one) is abandoned after
    # this many minutes: a table opened and left empty holds the lobby only briefly.
    empty_minutes: float = 10.0
    max_open_per_address: int = 20  # open tables created from one client address
    max_watchers: int = 32  # websocket connections to one table
    max_connections: int = 4000  # connections in all (uvicorn answers 503 past it)
    max_depth: int = 16  # JSON nesting in anything a client sends
    max_per_address: int = 64  # connections (requests and websockets) from one client address
    header_seconds: float = 10.0  # from a request's first byte to the end of its headers
    body_seconds: float = 10.0  # from the end of a request's headers to the end of its body
    hello_seconds: float = 5.0  # from a websocket's acceptance to its hello
    ws_messages_per_minute: float = 600.0  # messages one websocket may send ...
    ws_message_burst: int = 120  # ... with as many at once
    ws_bytes_per_minute: float = 1_048_576.0  # bytes one websocket may send ...
    ws_byte_burst: int = 262_144  # ... with as many at once
    ws_strikes: int = 20  # messages over the rate in a row before the socket is closed


class TooMany(Refused):
    """A request over a limit: answered 429, with how long to wait when that is known."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class RateLimiter:
    """A token bucket per key (a client address, a connection): `per_minute` tokens a minute,
    `burst` at once (as many as a minute's when not given).

    Keys that have refilled completely are forgotten, so the map holds only recent clients."""

    def __init__(
        self,
        per_minute: float,
        clock: Callable[[], float] = time.monotonic,
        max_keys: int = 100_000,
        burst: float | None = None,
    ) -> None:
        self.rate = per_minute / 60.0
        self.burst = max(1.0, per_minute if burst is None else burst)
        self.clock = clock
        self.max_keys = max_keys
        self._buckets: dict[str, tuple[float, float]] = {}  # key -> (tokens, when)

    def take(self, key: str, cost: float = 1.0) -> float | None:
        """Spend `cost` tokens (at most the burst) for `key`: None if allowed, else the seconds
        until they are available."""
        now = self.clock()
        cost = min(cost, self.burst)
        tokens, when = self._buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - when) * self.rate)
        if tokens < cost:
            self._buckets[key] = (tokens, now)
            return (cost - tokens) / self.rate
        self._buckets[key] = (tokens - cost, now)
        if len(self._buckets) > self.max_keys:
            self._forget_full(now)
        return None

    def _forget_full(self, now: float) -> None:
        full = [k for k, (t, w) in self._buckets.items() if t + (now - w) * self.rate >= self.burst]
        for key in full:
            del self._buckets[key]
