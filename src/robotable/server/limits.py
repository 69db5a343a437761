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


class TooMany(Refused):
    """A request over a limit: answered 429, with how long to wait when that is known."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class RateLimiter:
    """A token bucket per key (a client address): `per_minute` tokens a minute, as many at once.

    Keys that have refilled completely are forgotten, so the map holds only recent clients."""

    def __init__(
        self,
        per_minute: float,
        clock: Callable[[], float] = time.monotonic,
        max_keys: int = 100_000,
    ) -> None:
        self.rate = per_minute / 60.0
        self.burst = max(1.0, per_minute)
        self.clock = clock
        self.max_keys = max_keys
        self._buckets: dict[str, tuple[float, float]] = {}  # key -> (tokens, when)

    def take(self, key: str) -> float | None:
        """Spend a token for `key`: None if allowed, else the seconds until one is available."""
        now = self.clock()
        tokens, when = self._buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - when) * self.rate)
        if tokens < 1.0:
            self._buckets[key] = (tokens, now)
            return (1.0 - tokens) / self.rate
        self._buckets[key] = (tokens - 1.0, now)
        if len(self._buckets) > self.max_keys:
            self._forget_full(now)
        return None

    def _forget_full(self, now: float) -> None:
        full = [k for k, (t, w) in self._buckets.items() if t + (now - w) * self.rate >= self.burst]
        for key in full:
            del self._buckets[key]
