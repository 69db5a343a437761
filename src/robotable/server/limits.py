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

    Keys that have refilled completely are forgotten, so the map holds only recent clients:
    when it holds more than `max_keys`, and then again only once it has doubled, so that the
    sweep costs O(1) a request however many clients are refilling (sweeping at every request
    past `max_keys` cost O(keys) each)."""

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
        self._sweep_at = max_keys  # how many keys make the next sweep
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
        if len(self._buckets) > self._sweep_at:
            self._forget_full(now)
        return None

    def _forget_full(self, now: float) -> None:
        full = [k for k, (t, w) in self._buckets.items() if t + (now - w) * self.rate >= self.burst]
        for key in full:
            del self._buckets[key]
        self._sweep_at = max(self.max_keys, 2 * len(self._buckets))


class SocketRate:
    """One websocket's rates of messages and of bytes: two token buckets in one small object,
    O(1) a message (every socket, a spectator's too, has one: the server holds thousands)."""

    __slots__ = (
        "_bytes",
        "_byte_burst",
        "_byte_rate",
        "_clock",
        "_burst",
        "_rate",
        "_tokens",
        "_when",
    )

    def __init__(
        self,
        messages_per_minute: float,
        message_burst: float,
        bytes_per_minute: float,
        byte_burst: float,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._rate = messages_per_minute / 60.0
        self._burst = max(1.0, message_burst)
        self._byte_rate = bytes_per_minute / 60.0
        self._byte_burst = max(1.0, byte_burst)
        self._clock = clock
        self._tokens = self._burst
        self._bytes = self._byte_burst
        self._when = clock()

    def take(self, size: int) -> bool:
        """Count one message of `size` bytes: True if both rates allow it (it is then spent
        from both), False if either is exhausted (nothing is spent)."""
        now = self._clock()
        elapsed = now - self._when
        self._when = now
        tokens = min(self._burst, self._tokens + elapsed * self._rate)
        volume = min(self._byte_burst, self._bytes + elapsed * self._byte_rate)
        cost = min(float(size), self._byte_burst)
        if tokens < 1.0 or volume < cost:
            self._tokens, self._bytes = tokens, volume
            return False
        self._tokens, self._bytes = tokens - 1.0, volume - cost
        return True
