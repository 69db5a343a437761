"""Security on the wire: input checks in linear time, a rate per websocket, the hello deadline,
watchers counted from acceptance, connections per client address (behind a trusted proxy too),
deadlines on unfinished requests, and refusal of cross-site writes and unknown Host names."""

from __future__ import annotations

import asyncio
import re
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient, WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect
from typer.testing import CliRunner

from robotable.server import wire
from robotable.server.app import create_app
from robotable.server.commands import served_hosts
from robotable.server.guard import guarded_http_protocol, same_origin
from robotable.server.limits import ServerLimits
from robotable.server.wire import TooDeep, depth_of, loads_limited

from .conftest import SeatClient

HUMANS = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}]
BODY = {"game": "countdown", "num_players": 2, "seats": HUMANS, "seed": 1}
AS_JSON = {"content-type": "application/json"}
WEB = Path(__file__).resolve().parents[2] / "src" / "robotable" / "web"


def _app(tmp_path, allowed_hosts=None, forwarded_allow_ips=None, **limits):
    limits.setdefault("creates_per_minute", 1_000_000)
    return create_app(
        tmp_path / "t.sqlite3",
        ai_delay=0,
        synchronous="NORMAL",
        limits=ServerLimits(**limits),
        allowed_hosts=allowed_hosts,
        forwarded_allow_ips=forwarded_allow_ips,
    )


def _open(client) -> list[str]:
    return [t["id"] for t in client.get("/api/tables").json()["playing"]]


# -- linear input checks ------------------------------------------------------------------------
def _reference_depth(value) -> int:
    """Nesting depth by plain recursion over the value a test made (not the parsed one)."""
    if isinstance(value, dict):
        return 1 + max((_reference_depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_reference_depth(v) for v in value), default=0)
    return 0


_SCALARS = st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(max_size=8)
# Strings full of what nesting is written with, so that brackets inside strings are tried.
_TRICKY = st.text(alphabet='[]{}"\\,:', max_size=12)
JSON = st.recursive(
    _SCALARS | _TRICKY,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TRICKY, inner, max_size=4),
    max_leaves=40,
)


@settings(max_examples=300, deadline=None)
@given(value=JSON, limit=st.integers(0, 8))
def test_the_depth_check_agrees_with_a_recursive_reference(value, limit):
    text = orjson.dumps(value)
    depth = _reference_depth(value)
    if depth > limit:
        with pytest.raises(TooDeep, match=f"nested deeper than {limit} levels"):
            loads_limited(text, limit)
    else:
        assert loads_limited(text, limit) == value
        assert depth_of(loads_limited(text, limit)) == depth


def test_the_depth_walk_needs_no_recursion():
    value: list = []
    for _ in range(100_000):  # far past Python's recursion limit
        value = [value]
    assert depth_of(value) == 100_001


ADVERSARIAL = {
    # What froze the server for 397 s: a string of escaped quotes that never closes.
    "escaped quotes": b'"' + b'\\"' * 131_072,
    "escaped quotes in an object": b'{"a": "' + b'\\"' * 131_000,
    "backslashes": b'"' + b"\\" * 262_143,
    "open brackets": b"[" * 262_144,
    "brackets in a string": b'"' + b"[" * 262_142 + b'"',
}


@pytest.mark.timeout(60)  # a hang guard: the old check took minutes on these
@pytest.mark.parametrize("name", sorted(ADVERSARIAL))
def test_adversarial_texts_are_refused_or_read_by_a_check_without_regular_expressions(name):
    text = ADVERSARIAL[name]
    assert len(text) >= 262_000
    if name == "brackets in a string":
        assert loads_limited(text, 16) == "[" * 262_142
    else:
        with pytest.raises(ValueError):  # TooDeep is a ValueError too
            loads_limited(text, 16)
    # The check is a parser and a walk, with no backtracking pattern anywhere in the module.
    assert not any(isinstance(v, re.Pattern) for v in vars(wire).values())


@pytest.mark.timeout(60)
def test_an_adversarial_body_and_message_are_refused_and_the_server_answers_on(client):
    body = b'{"game": "' + b'\\"' * 130_000
    response = client.post("/api/tables", content=body, headers=AS_JSON)
    assert response.status_code == 400 and "\n" not in response.json()["error"]
    table = client.post("/api/tables", json=BODY).json()
    ada = SeatClient(client, table["id"], table["seats"][0]["token"])
    ada.ws.send_text('{"type": "chat", "text": "' + '\\"' * 8_000)
    assert "JSON object" in ada.until(lambda f: f["type"] == "error")["message"]
    ada.ws.send_json({"type": "act", "index": 0, "step": 0, "id": 1})
    assert ada.until(lambda f: f["type"] == "ack")["step"] == 1
    ada.close()


# -- websockets: rate, hello deadline, watchers from acceptance -----------------------------------
def test_a_spectator_over_the_message_rate_is_told_then_closed(tmp_path):
    # A rate that does not refill within the test: the burst is all there is.
    limits = {"ws_messages_per_minute": 0.001, "ws_message_burst": 3, "ws_strikes": 3}
    with TestClient(_app(tmp_path, **limits)) as client:
        table = client.post("/api/tables", json=BODY).json()
        spectator = SeatClient(client, table["id"], None)
        for n in range(3):
            spectator.send({"type": "sync", "id": n})
            spectator.until(lambda f: f["type"] == "state")
        spectator.send({"type": "sync", "id": 3})
        error = spectator.until(lambda f: f["type"] == "error")["message"]
        assert error.startswith("too many messages on this connection") and "\n" not in error
        spectator.send({"type": "sync", "id": 4})
        spectator.until(lambda f: f["type"] == "error")
        spectator.send({"type": "sync", "id": 5})  # the third strike in a row
        assert "too many messages" in spectator.until(lambda f: f["type"] == "error")["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            spectator.next()
        assert closed.value.code == 4429
        spectator.close()
        # Another watcher of the table is not affected.
        other = SeatClient(client, table["id"], None)
        other.send({"type": "sync", "id": 1})
        other.until(lambda f: f["type"] == "state")
        other.close()


def test_a_websocket_has_a_byte_rate_too(tmp_path):
    limits = {"ws_bytes_per_minute": 0.001, "ws_byte_burst": 1_000}
    with TestClient(_app(tmp_path, **limits)) as client:
        table = client.post("/api/tables", json=BODY).json()
        ada = SeatClient(client, table["id"], table["seats"][0]["token"])
        ada.ws.send_text("x" * 600)
        assert "JSON object" in ada.until(lambda f: f["type"] == "error")["message"]
        ada.ws.send_text("x" * 600)  # 1,200 bytes in all, past the 1,000 at once
        assert "too many messages" in ada.until(lambda f: f["type"] == "error")["message"]
        ada.close()


def test_a_websocket_that_does_not_say_hello_in_time_is_closed(tmp_path):
    with TestClient(_app(tmp_path, hello_seconds=0.05)) as client:
        table = client.post("/api/tables", json=BODY).json()
        with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
            # Nothing is sent: the server's deadline, not the test, ends the wait.
            assert ws.receive_json()["message"] == "no hello within 0.05 s; closing"
            assert ws.receive()["code"] == 4408


def test_websockets_count_against_max_watchers_before_their_hello(tmp_path):
    with TestClient(_app(tmp_path, max_watchers=2, hello_seconds=120)) as client:
        table = client.post("/api/tables", json=BODY).json()
        url = f"/ws/tables/{table['id']}"
        with client.websocket_connect(url), client.websocket_connect(url) as second:
            # Two silent sockets hold both places: a third is refused before saying anything.
            with client.websocket_connect(url) as third:
                assert "as many watchers" in third.receive_json()["message"]
                assert third.receive()["code"] == 4429
            second.close()
            # A place came free: a watcher gets in.
            SeatClient(client, table["id"], None).close()


# -- connections per client address (ASGI) ------------------------------------------------------
def test_connections_per_address_are_bounded(tmp_path):
    app = _app(tmp_path, max_per_address=2, hello_seconds=120)
    with TestClient(app) as client:
        table = client.post("/api/tables", json=BODY).json()
        url = f"/ws/tables/{table['id']}"
        with client.websocket_connect(url), client.websocket_connect(url):
            response = client.get("/api/games")
            assert response.status_code == 503
            assert response.json()["error"] == "too many connections from this address (limit 2)"
            with pytest.raises(WebSocketDenialResponse) as denied:
                client.websocket_connect(url).__enter__()
            assert denied.value.status_code == 503
            # Without a trusted proxy, X-Forwarded-For is the client's word and changes nothing.
            forged = client.get("/api/games", headers={"x-forwarded-for": "203.0.113.9"})
            assert forged.status_code == 503
        assert client.get("/api/games").status_code == 200


def test_connections_per_address_hold_per_client_behind_a_trusted_proxy(tmp_path):
    # The TestClient's peer address is "testclient": here it is the trusted proxy.
    app = _app(tmp_path, forwarded_allow_ips="testclient", max_per_address=2, hello_seconds=120)
    with TestClient(app) as client:
        table = client.post("/api/tables", json=BODY).json()
        url = f"/ws/tables/{table['id']}"
        ada = {"x-forwarded-for": "203.0.113.1"}
        bo = {"x-forwarded-for": "203.0.113.2"}
        with client.websocket_connect(url, headers=ada), client.websocket_connect(url, headers=ada):
            assert client.get("/api/games", headers=ada).status_code == 503
            assert client.get("/api/games", headers=bo).status_code == 200
            # A proxy's chain: the client is the last address the trusted proxy did not add.
            chained = {"x-forwarded-for": "203.0.113.2, 203.0.113.1"}
            assert client.get("/api/games", headers=chained).status_code == 503


# -- deadlines and the cap per peer, below ASGI (a real uvicorn) ----------------------------------
class Served:
    """The app behind uvicorn with the guarded protocol, on a free port, in a thread."""

    def __init__(self, app, **guard) -> None:
        import uvicorn

        started = threading.Event()

        class Server(uvicorn.Server):
            async def startup(self, sockets=None) -> None:
                await super().startup(sockets)
                started.set()

        config = uvicorn.Config(
            app, host="127.0.0.1", port=0, log_level="warning", http=guarded_http_protocol(**guard)
        )
        self.server = Server(config)
        self.thread = threading.Thread(target=lambda: asyncio.run(self.server.serve()), daemon=True)
        self.thread.start()
        assert started.wait(timeout=30), "the server did not start"
        self.port = self.server.servers[0].sockets[0].getsockname()[1]

    def connect(self, first: bytes = b"") -> socket.socket:
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=30)
        if first:
            sock.sendall(first)
        return sock

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)


def _until_closed(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (the socket's timeout is a
    hang guard: a server that never closes fails the test)."""
    chunks = []
    while chunk := sock.recv(65536):
        chunks.append(chunk)
    sock.close()
    return b"".join(chunks)


@pytest.fixture
def served(tmp_path) -> Iterator:
    servers = []

    def serve(**guard) -> Served:
        app = _app(tmp_path, allowed_hosts=["127.0.0.1"], body_seconds=0.05)
        servers.append(Served(app, **guard))
        return servers[-1]

    yield serve
    for server in servers:
        server.stop()


QUICK = {"header_seconds": 0.05, "body_seconds": 0.05, "max_per_address": 50, "trusted_proxies": []}
GAMES = b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"


def test_a_request_whose_headers_never_finish_is_answered_408_and_closed(served):
    server = served(**QUICK)
    silent = server.connect()
    partial = server.connect(b"GET /api/games HTTP/1.1\r\nHost: 127.0")
    for sock in (silent, partial):
        answer = _until_closed(sock)
        assert answer.startswith(b"HTTP/1.1 408 ")
        assert answer.endswith(b'{"error":"request headers not received within 0.05 s"}')
    # A kept-alive connection's next request is held to the same deadline.
    kept = server.connect(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /api/ga")
    answer = _until_closed(kept)
    assert answer.startswith(b"HTTP/1.1 200 ") and b"HTTP/1.1 408 " in answer


def test_a_body_that_never_finishes_is_answered_408_and_closed(served):
    server = served(**QUICK)
    head = (
        b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\n"
        b"content-length: 100\r\n\r\n"
    )
    answer = _until_closed(server.connect(head + b'{"game": '))
    assert answer.startswith(b"HTTP/1.1 408 ")
    assert answer.endswith(b'{"error":"request body not received within 0.05 s"}')
    # A body nobody reads (the route answered without it) is cut off by the protocol.
    unread = head.replace(b"/api/tables", b"/api/games")
    answer = _until_closed(server.connect(unread + b'{"game": '))
    assert answer.startswith(b"HTTP/1.1 405 ")


def test_one_peer_may_hold_only_so_many_connections(served):
    server = served(header_seconds=30, body_seconds=30, max_per_address=2, trusted_proxies=[])
    held = [server.connect(b"GET /api/games HTTP/1.1\r\nHost: 127.0") for _ in range(2)]
    answer = _until_closed(server.connect())
    assert answer.startswith(b"HTTP/1.1 503 ")
    assert answer.endswith(b'{"error":"too many connections from this address (limit 2)"}')
    # One held request finishes and its connection closes: the place is free again.
    held[0].sendall(b".0.1\r\nConnection: close\r\n\r\n")
    assert _until_closed(held[0]).startswith(b"HTTP/1.1 200 ")
    assert _until_closed(server.connect(GAMES)).startswith(b"HTTP/1.1 200 ")
    held[1].close()


def test_a_trusted_proxy_is_not_capped_as_one_client(served):
    server = served(
        header_seconds=30, body_seconds=30, max_per_address=2, trusted_proxies="127.0.0.1"
    )
    held = [server.connect(b"GET /api/games HTTP/1.1\r\nHost: 127.0") for _ in range(3)]
    assert _until_closed(server.connect(GAMES)).startswith(b"HTTP/1.1 200 ")
    for sock in held:
        sock.close()


# -- cross-site requests and Host names ---------------------------------------------------------
@pytest.fixture
def strict(tmp_path) -> Iterator[TestClient]:
    with TestClient(_app(tmp_path, allowed_hosts=["testserver"])) as client:
        yield client


def test_a_write_from_another_origin_is_refused(strict):
    evil = strict.post("/api/tables", json=BODY, headers={"origin": "http://evil.example"})
    assert evil.status_code == 403
    assert evil.json() == {"error": "cross-site request refused"}
    for origin in ("null", "http://testserver.evil.example", "http://testserver:8000"):
        assert strict.post("/api/tables", json=BODY, headers={"origin": origin}).status_code == 403
    assert _open(strict) == []
    own = strict.post("/api/tables", json=BODY, headers={"origin": "http://testserver"})
    assert own.status_code == 201
    # Reading is not refused: a GET changes nothing.
    assert strict.get("/api/tables", headers={"origin": "http://evil.example"}).status_code == 200


def test_a_seat_cannot_be_taken_from_another_site(strict):
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "human", "open": True}]
    body = {"game": "countdown", "num_players": 2, "seats": seats}  # no seed with an open seat
    table = strict.post("/api/tables", json=body).json()
    claim = f"/api/tables/{table['id']}/seats/2/claim"
    refused = strict.post(claim, json={"name": "Eve"}, headers={"origin": "http://evil.example"})
    assert refused.status_code == 403
    form = strict.post(claim, content=b"", headers={"content-type": "text/plain"})
    assert form.status_code == 415
    assert strict.get(f"/api/tables/{table['id']}").json()["seats"][1]["open"] is True


def test_a_write_that_is_not_json_is_refused_415(strict):
    body = orjson.dumps(BODY)
    for content_type in ("text/plain", "application/x-www-form-urlencoded", None):
        headers = {"content-type": content_type} if content_type else {}
        response = strict.post("/api/tables", content=body, headers=headers)
        assert response.status_code == 415
        assert "content-type: application/json" in response.json()["error"]
    assert _open(strict) == []
    charset = {"content-type": "application/json; charset=utf-8"}
    assert strict.post("/api/tables", content=body, headers=charset).status_code == 201


def test_a_websocket_from_another_origin_is_refused(strict):
    table = strict.post("/api/tables", json=BODY).json()
    url = f"/ws/tables/{table['id']}"
    with pytest.raises(WebSocketDenialResponse) as denied:
        strict.websocket_connect(url, headers={"origin": "http://evil.example"}).__enter__()
    assert denied.value.status_code == 403
    with strict.websocket_connect(url, headers={"origin": "http://testserver"}) as ws:
        ws.send_json({"type": "hello", "token": None})
        assert ws.receive_json()["type"] == "state"


def test_a_host_the_server_does_not_serve_is_refused(strict):
    for host in ("evil.example", "rebound.attacker.example:80"):
        assert strict.get("/api/tables", headers={"host": host}).status_code == 400
        refused = strict.post("/api/tables", json=BODY, headers={"host": host})
        assert refused.status_code == 400
    assert _open(strict) == []


def test_the_default_hosts_are_the_local_names(tmp_path, monkeypatch):
    from robotable.server import app as app_module

    monkeypatch.setattr(app_module, "DEFAULT_HOSTS", ("localhost", "127.0.0.1", "[::1]"))
    with TestClient(_app(tmp_path)) as client:
        for host in ("localhost:8000", "127.0.0.1", "[::1]:8000"):
            assert client.get("/api/games", headers={"host": host}).status_code == 200
        for host in ("testserver", "evil.example", "192.168.1.9"):
            assert client.get("/api/games", headers={"host": host}).status_code == 400


@pytest.mark.parametrize(
    ("origin", "host", "same"),
    [
        ("http://localhost:8000", "localhost:8000", True),
        ("https://games.example.org", "games.example.org", True),
        ("http://[::1]:8000", "[::1]:8000", True),
        ("http://LOCALHOST:8000", "localhost:8000", True),
        ("http://localhost:8001", "localhost:8000", False),
        ("http://localhost", "localhost:8000", False),
        ("http://evil.example", "games.example.org", False),
        ("null", "localhost:8000", False),
        ("http://localhost:99999", "localhost:8000", False),
        ("file://", "localhost", False),
    ],
)
def test_same_origin(origin, host, same):
    assert same_origin(origin, host) is same


def test_serve_names_its_hosts(monkeypatch):
    from robotable.server import app as app_module

    monkeypatch.setattr(app_module, "DEFAULT_HOSTS", ("localhost", "127.0.0.1", "[::1]"))
    assert served_hosts("127.0.0.1", None) == ["localhost", "127.0.0.1", "[::1]"]
    assert served_hosts("192.168.1.20", None)[-1] == "192.168.1.20"
    assert served_hosts("::1", None) == ["localhost", "127.0.0.1", "[::1]"]
    named = served_hosts("0.0.0.0", "Games.example.org, *.lan")
    assert named[-2:] == ["games.example.org", "*.lan"]


def test_serve_on_every_interface_wants_allowed_hosts(tmp_path):
    from robotable.cli import _register_all, app

    _register_all()
    args = ["serve", "--host", "0.0.0.0", "--db", str(tmp_path / "t.sqlite3")]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    assert "--allowed-hosts" in result.output and "every interface" in result.output
    result = CliRunner().invoke(app, [*args, "--allowed-hosts", "*.ex*ample.org"])
    assert result.exit_code == 2 and "not a host name" in result.output


def test_the_pages_send_json_on_every_write():
    for path in sorted(WEB.glob("*.js")):
        source = path.read_text()
        for match in re.finditer(r'method:\s*"(POST|PUT|PATCH|DELETE)"', source):
            call = source[match.start() : source.find("}", match.end()) + 1]
            assert '"content-type": "application/json"' in call, f"{path.name}: {call}"
