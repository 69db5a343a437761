"""What stands between strangers and the web table before a request reaches it: deadlines for
requests that never finish, connections per client address, and refusals of cross-site writes.

Two layers, because some of it can only be seen below ASGI:

- `guarded_http_protocol` is uvicorn's httptools protocol with deadlines on each request's
  headers and body, and a cap on the connections one peer address holds open. uvicorn arms its
  keep-alive timer only after a response, so a connection whose headers never finish was held
  for ever, and its `limit_concurrency` then answered everyone else 503.
- The ASGI middleware counts requests and websockets per *client* address (after
  X-Forwarded-For from a trusted proxy, whose own address stands for many clients), and refuses
  writes from other sites: an Origin that is not this server's, or a body that is not JSON.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from urllib.parse import urlsplit

import orjson
from starlette._utils import parse_host_header
from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send


def _one_line_response(status: int, reason: str, message: str) -> bytes:
    body = orjson.dumps({"error": message})
    return (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    ).encode() + body


def guarded_http_protocol(
    *,
    header_seconds: float,
    body_seconds: float,
    max_per_address: int,
    trusted_proxies: str | list[str] = "127.0.0.1",
) -> type[asyncio.Protocol]:
    """uvicorn's httptools protocol class (pass it as `uvicorn.Config(http=...)`) with:

    - a deadline of `header_seconds` from a connection's opening, and from each later request's
      first byte, to the end of that request's headers: past it, 408 and the connection closes;
    - a deadline of `body_seconds` (plus a second, so that the app, which reads bodies under the
      same limit, answers first) from the end of the headers to the end of the body, which also
      covers bodies nobody reads: past it, the connection closes;
    - at most `max_per_address` open connections (websockets included) from one peer address,
      except peers in `trusted_proxies` (uvicorn's `--forwarded-allow-ips` syntax), whose
      clients the ASGI middleware counts one by one: past it, 503 and the connection closes.

    Each call makes a new class with its own count of connections, so servers do not share one.
    """
    from uvicorn.middleware.proxy_headers import _TrustedHosts
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    trusted = _TrustedHosts(trusted_proxies)
    # Peer address -> its open transports. A transport outlives this protocol when it becomes a
    # websocket (uvicorn hands it to another protocol), so closed ones are pruned: a peer's when
    # it reaches the cap (not at each connection: that walked all of the peer's connections
    # every time, O(n) a connection), every peer's when the map has doubled. Both amortized O(1).
    peers: dict[str, set[asyncio.BaseTransport]] = {}
    sweep_at = [1024]

    def _prune(address: str) -> set[asyncio.BaseTransport]:
        held = peers.get(address, ())
        GuardedHttpProtocol.walked += len(held)
        open_ = {t for t in held if not t.is_closing()}
        if open_:
            peers[address] = open_
        else:
            peers.pop(address, None)
        return open_

    class GuardedHttpProtocol(HttpToolsProtocol):
        _deadline: asyncio.TimerHandle | None = None
        _peer: str | None = None
        walked = 0  # transports the per-peer bookkeeping has looked at, in all (tests read it)

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            peer = self.client[0] if self.client else None
            if peer is not None and peer not in trusted:
                if len(peers) >= sweep_at[0]:
                    for address in list(peers):
                        _prune(address)
                    sweep_at[0] = max(1024, 2 * len(peers))
                held = peers.get(peer, ())
                if len(held) >= max_per_address and len(_prune(peer)) >= max_per_address:
                    self._refuse(
                        503,
                        "Service Unavailable",
                        f"too many connections from this address (limit {max_per_address})",
                    )
                    return
                peers.setdefault(peer, set()).add(transport)
                self._peer = peer
            self._arm(header_seconds, self._headers_late)

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            if self._peer is not None and self._peer in peers:
                peers[self._peer].discard(self.transport)
                if not peers[self._peer]:
                    del peers[self._peer]
            super().connection_lost(exc)

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._arm(header_seconds, self._headers_late)

        def on_headers_complete(self) -> None:
            super().on_headers_complete()
            self._arm(body_seconds + 1.0, self._body_late)

        def on_message_complete(self) -> None:
            super().on_message_complete()
            self._disarm()

        def handle_websocket_upgrade(self) -> None:
            self._disarm()  # the websocket has its own pings and the app its hello deadline
            super().handle_websocket_upgrade()

        def _arm(self, seconds: float, late: Callable[[], None]) -> None:
            self._disarm()
            self._deadline = self.loop.call_later(seconds, late)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _headers_late(self) -> None:
            self._deadline = None
            self._refuse(
                408,
                "Request Timeout",
                f"request headers not received within {header_seconds:g} s",
            )

        def _body_late(self) -> None:
            # The app may be writing a response: only closing is safe here.
            self._deadline = None
            if not self.transport.is_closing():
                self.transport.close()

        def _refuse(self, status: int, reason: str, message: str) -> None:
            if not self.transport.is_closing():
                self.transport.write(_one_line_response(status, reason, message))
                self.transport.close()

    return GuardedHttpProtocol


def _client(scope: Scope) -> str:
    client = scope.get("client")
    return client[0] if client else "unknown"


async def _refuse(scope: Scope, receive: Receive, send: Send, status: int, message: str) -> None:
    """A one-line JSON refusal, as an HTTP response or a websocket's denial."""
    denials = scope.get("extensions") or {}
    if scope["type"] == "websocket" and "websocket.http.response" not in denials:
        await send({"type": "websocket.close", "code": 1008, "reason": message[:120]})
        return
    await JSONResponse({"error": message}, status_code=status)(scope, receive, send)


class ClientConnections:
    """At most `limit` requests and websockets at once from one client address.

    The address is the ASGI scope's client, which uvicorn's ProxyHeadersMiddleware (placed
    outside this) has taken from X-Forwarded-For when, and only when, the peer is a trusted
    proxy: so the limit holds per client behind a proxy and cannot be dodged by a forged header
    sent directly."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit
        self.open: dict[str, int] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        client = _client(scope)
        if self.open.get(client, 0) >= self.limit:
            message = f"too many connections from this address (limit {self.limit})"
            await _refuse(scope, receive, send, 503, message)
            return
        self.open[client] = self.open.get(client, 0) + 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.open[client] -= 1
            if not self.open[client]:
                del self.open[client]


WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def same_origin(origin: str, host: str | None) -> bool:
    """Whether an Origin header names the server the request's Host header names: the same
    host and port (a scheme's default port written or not). "null" and anything unparsable is
    another origin."""
    parsed_host = parse_host_header(host)
    try:
        parts = urlsplit(origin)
        origin_port = parts.port
    except ValueError:
        return False
    if parsed_host is None or parts.scheme not in _DEFAULT_PORTS or not parts.hostname:
        return False
    if origin_port is None:
        origin_port = _DEFAULT_PORTS[parts.scheme]
    host_name = parsed_host.host.lower().strip("[]")
    host_port = None if parsed_host.port is None else int(parsed_host.port)
    if host_port is None:
        # A browser omits the port from both headers exactly when it is the scheme's default.
        return host_name == parts.hostname and origin_port == _DEFAULT_PORTS[parts.scheme]
    return host_name == parts.hostname and host_port == origin_port


class SameSiteWrites:
    """Refuses what a page on another site could make a visitor's browser send:

    - a write (POST, ...) or a websocket whose Origin is present and not this server's: 403;
    - a write whose body is not declared JSON: 415. A browser sends `text/plain`, form and
      multipart bodies to other sites without asking; `application/json` it sends only after a
      CORS preflight, which this server never grants.

    Requests without an Origin (curl, scripts, websocket libraries) are not from a browser page
    and pass; the Host check (TrustedHostMiddleware) keeps DNS rebinding out, since a rebound
    page's Origin matches its Host."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        write = scope["type"] == "websocket" or scope["method"] in WRITES
        origin = headers.get("origin")
        if write and origin is not None and not same_origin(origin, headers.get("host")):
            await _refuse(scope, receive, send, 403, "cross-site request refused")
            return
        if scope["type"] == "http" and scope["method"] in WRITES:
            media_type = headers.get("content-type", "").split(";")[0].strip().lower()
            if media_type != "application/json":
                message = "a request body must be JSON (content-type: application/json)"
                await _refuse(scope, receive, send, 415, message)
                return
        await self.app(scope, receive, send)
