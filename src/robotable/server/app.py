"""The web table as an ASGI app: lobby and play pages, a small JSON API and one websocket per
watcher of a table. `create_app` is what `robotable serve` runs and what the tests drive."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import json
import logging
import math
import time
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..core.errors import RobotableError
from ..core.registry import game_names, load_game
from .ai import AiLimits, AiRunner, check_agent_spec
from .coach import CoachError, coached_games, load_coach
from .errors import Busy
from .guard import ClientConnections, SameSiteWrites
from .limits import RateLimiter, ServerLimits, SocketRate, TooMany
from .rooms import Refused, Table, Tables, Watcher
from .schemas import (
    MAX_CREATE_BODY,
    MAX_FRAME,
    Claim,
    CreateTable,
    Envelope,
    Hello,
    describe_error,
)
from .store import Store, StoreError, hash_address
from .studio import Studio, StudioSettings, studio_routes
from .wire import TooDeep, loads_limited
from .wire import dumps as _dumps

log = logging.getLogger("robotable.server")

WEB_DIR = Path(__file__).resolve().parent.parent / "web"

# The names a browser on this machine reaches the server by. Any other Host is refused: a page
# on another site whose name is rebound to this machine's address (DNS rebinding) sends its own.
DEFAULT_HOSTS = ("localhost", "127.0.0.1", "[::1]")


SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        b"img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]


class SecurityHeaders:
    """Pages may load only what this server ships (nothing from the network)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                message["headers"] = list(message["headers"]) + SECURITY_HEADERS
            await send(message)

        await self.app(scope, receive, send_with_headers)


def create_app(
    db_path: str | Path,
    *,
    ai_workers: int = 0,
    ai_limits: AiLimits | None = None,
    ai_delay: float = 0.6,
    synchronous: str = "FULL",
    tune_gc: bool = False,
    limits: ServerLimits | None = None,
    clock: Callable[[], float] = time.time,
    allowed_hosts: Sequence[str] | None = None,
    forwarded_allow_ips: str | Sequence[str] | None = None,
    studio: StudioSettings | None = None,
) -> Starlette:
    """The web table over the SQLite database at `db_path` (created when missing), or the
    PostgreSQL database at a `postgresql://` URL.

    `tune_gc` (what `robotable serve` does) sets the process's garbage collector for a server;
    it is process-wide, so tests that run the app inside a test process leave it off.
    `limits` are what a host allows strangers (see ServerLimits); `clock` tells table ages.
    `allowed_hosts` are the Host names served (TrustedHostMiddleware patterns; DEFAULT_HOSTS
    when None). With `forwarded_allow_ips` (uvicorn's syntax), the client address is taken from
    X-Forwarded-For when the peer is one of those proxies (uvicorn's ProxyHeadersMiddleware);
    without, the peer's address is the client's. `studio`: the designer's studio under /studio
    (server/studio.py), off when None."""
    limits = limits or ServerLimits()
    creations = RateLimiter(limits.creates_per_minute, clock=clock)
    sockets: dict[str, int] = {}  # table id -> websockets open on it, from their acceptance
    the_studio = Studio(studio) if studio is not None else None

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = Store(db_path, synchronous=synchronous, clock=clock)
        ai = AiRunner(ai_workers, ai_limits)
        await ai.start()
        tables = Tables(store, ai, ai_delay=ai_delay, limits=limits, clock=clock)
        app.state.tables = tables
        if the_studio is not None:
            await the_studio.start(store)
        # Idle tables are given up before anything is resumed: they are not replayed.
        await tables.expire_idle()
        expiry = asyncio.ensure_future(_expire_periodically(tables))
        resumed = await asyncio.to_thread(tables.resume_all_load)
        tables.start_resumed(resumed)
        # With PostgreSQL, other server processes may change the same tables: hear about it.
        loop = asyncio.get_running_loop()
        store.listen(lambda table_id: loop.call_soon_threadsafe(tables.changed_elsewhere, table_id))
        if resumed:
            log.info("resumed %d unfinished tables", len(resumed))
        if tune_gc:
            _tune_garbage_collector()
        try:
            yield
        finally:
            expiry.cancel()
            if the_studio is not None:
                await the_studio.aclose()  # its running study stops, its workers exit
            await tables.close()
            await ai.aclose()
            store.close()  # the writer commits everything queued before it stops

    def tables_of(request: Request | WebSocket) -> Tables:
        return request.app.state.tables

    # -- pages --------------------------------------------------------------------------------
    async def lobby_page(request: Request) -> Response:
        return FileResponse(WEB_DIR / "index.html")

    async def play_page(request: Request) -> Response:
        return FileResponse(WEB_DIR / "play.html")

    # -- JSON API -----------------------------------------------------------------------------
    async def api_games(request: Request) -> Response:
        limits = tables_of(request).ai.limits
        return JSONResponse(
            {
                "games": _game_infos(),
                "ai_levels": _ai_levels(limits),
                "guided": coached_games(),  # the games with a guided first game (coach.py)
            }
        )

    async def api_guide(request: Request) -> Response:
        name = request.path_params["game"]
        if name not in game_names():
            return _error(404, "no such game")
        return JSONResponse(_guide(name))

    async def api_coach(request: Request) -> Response:
        try:
            coach = load_coach(request.path_params["game"])
        except CoachError as exc:
            return _error(404, str(exc))
        return JSONResponse(coach.to_json())

    async def api_create(request: Request) -> Response:
        client = request.client.host if request.client else "unknown"
        wait = creations.take(client)
        if wait is not None:
            return _error(
                429,
                f"too many new tables from this address; try again in {math.ceil(wait)} s",
                headers={"retry-after": str(math.ceil(wait))},
            )
        body = await _read_body(request, MAX_CREATE_BODY, limits.body_seconds)
        try:
            loads_limited(body, limits.max_depth)
        except TooDeep as exc:
            return _error(400, f"request {exc}")
        except ValueError:
            pass  # the schema's own parser says what is wrong with it
        try:
            spec = CreateTable.model_validate_json(body)
        except ValidationError as exc:
            return _error(400, describe_error(exc))
        try:
            if spec.guided:
                table, tokens = await _create_guided(tables_of(request), spec, client)
            else:
                table, tokens = await tables_of(request).create(
                    spec.game,
                    spec.num_players,
                    dict(spec.options),
                    [s.model_dump() for s in spec.seats],
                    spec.seed,
                    None if spec.clock is None else spec.clock.model_dump(),
                    hints=spec.hints,
                    creator=hash_address(client),
                )
        except TooMany as exc:
            return _error(429, str(exc))
        except Busy as exc:
            return _error(503, str(exc))
        except (RobotableError, Refused) as exc:
            return _error(400, str(exc))
        seats = []
        for i, token in enumerate(tokens):
            row = table.row.seats[i]
            seat = {"seat": i, "kind": row.kind, "name": row.name, "open": row.open}
            if token is not None:
                seat["token"] = token
                seat["join_url"] = f"/table/{table.id}#seat={token}"
            seats.append(seat)
        return JSONResponse(
            {"id": table.id, "url": f"/table/{table.id}", "seats": seats}, status_code=201
        )

    async def api_claim(request: Request) -> Response:
        body = await _read_body(request, MAX_FRAME, limits.body_seconds)
        try:
            claim = Claim.model_validate_json(body or b"{}")
        except ValidationError as exc:
            return _error(400, describe_error(exc))
        table = await tables_of(request).get(request.path_params["table_id"])
        if table is None:
            return _error(404, "no such table")
        seat = request.path_params["seat"] - 1
        try:
            token = await tables_of(request).claim(table, seat, claim.name)
        except Refused as exc:
            return _error(409, str(exc))
        url = f"/table/{table.id}#seat={token}"
        return JSONResponse({"seat": seat, "token": token, "join_url": url}, status_code=201)

    async def api_tables(request: Request) -> Response:
        store = tables_of(request).store
        playing = await asyncio.to_thread(store.list_tables, False)
        finished = await asyncio.to_thread(store.list_tables, True)
        return JSONResponse(
            {
                "playing": [_summary(row, n) for row, n in playing],
                "finished": [_summary(row, n) for row, n in finished],
            }
        )

    async def api_table(request: Request) -> Response:
        table = await tables_of(request).get(request.path_params["table_id"])
        if table is None:
            return _error(404, "no such table")
        return JSONResponse(table.meta(table.connected()))

    async def api_record(request: Request) -> Response:
        tables = tables_of(request)
        table_id = request.path_params["table_id"]
        row = await asyncio.to_thread(tables.store.load_table, table_id)
        if row is None:
            return _error(404, "no such table")
        if row.result is None:
            return _error(409, "the game is not over; its record is downloadable when it ends")
        return Response(
            json.dumps(tables.record_of(row), indent=1) + "\n",
            media_type="application/json",
            headers={
                "content-disposition": f'attachment; filename="robotable-{row.game}-{row.id}.json"'
            },
        )

    # -- websocket ----------------------------------------------------------------------------
    async def ws_table(websocket: WebSocket) -> None:
        await websocket.accept()
        tables = tables_of(websocket)
        table = await tables.get(websocket.path_params["table_id"])
        if table is None:
            await _send_error(websocket, None, "no such table")
            await websocket.close(code=4404)
            return
        # A socket counts against the table's watchers from its acceptance, not its hello: one
        # that never says hello still holds a place (until its deadline).
        if sockets.get(table.id, 0) >= limits.max_watchers:
            await _send_error(websocket, None, "this table has as many watchers as it takes")
            await websocket.close(code=4429)
            return
        sockets[table.id] = sockets.get(table.id, 0) + 1
        try:
            await _watch(websocket, tables, table)
        finally:
            sockets[table.id] -= 1
            if not sockets[table.id]:
                del sockets[table.id]

    async def _watch(websocket: WebSocket, tables: Tables, table: Table) -> None:
        try:
            async with asyncio.timeout(limits.hello_seconds):
                seat = await _handshake(websocket, table, limits.max_depth)
        except TimeoutError:
            await _send_error(
                websocket, None, f"no hello within {limits.hello_seconds:g} s; closing"
            )
            await websocket.close(code=4408)
            return
        if seat is False:
            return
        # Every socket, a spectator's too, has a rate of messages and of bytes; a client that
        # keeps on past it after being told is closed.
        rate = SocketRate(
            limits.ws_messages_per_minute,
            limits.ws_message_burst,
            limits.ws_bytes_per_minute,
            limits.ws_byte_burst,
        )
        strikes = 0
        address = websocket.client.host if websocket.client else "unknown"
        watcher = Watcher(seat, websocket.send_text, address=address)
        watcher.task = asyncio.ensure_future(_pump(watcher, websocket))
        await tables.attach(table, watcher)
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                data = (message.get("bytes") or b"") if text is None else text.encode()
                if not rate.take(len(data)):
                    strikes += 1
                    if strikes >= limits.ws_strikes:
                        await _send_error(websocket, None, "too many messages; closing")
                        await websocket.close(code=4429)
                        break
                    watcher.push(_dumps({"type": "error", "id": None, "message": _SLOW_DOWN}))
                    continue
                strikes = 0
                await _handle(tables, table, watcher, data, limits.max_depth)
        except WebSocketDisconnect:
            pass
        finally:
            tables.detach(table, watcher)
            watcher.task.cancel()
            with contextlib.suppress(BaseException):
                await watcher.task

    hosts = list(DEFAULT_HOSTS if allowed_hosts is None else allowed_hosts)
    # Outermost first: the client's address is settled before anything counts it, and every
    # answer, refusals included, carries the security headers.
    middleware = [
        Middleware(SecurityHeaders),
        Middleware(ClientConnections, limit=limits.max_per_address),
        Middleware(TrustedHostMiddleware, allowed_hosts=hosts, www_redirect=False),
        Middleware(SameSiteWrites),
    ]
    if forwarded_allow_ips is not None:
        from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

        trusted = forwarded_allow_ips
        if not isinstance(trusted, str):
            trusted = list(trusted)
        middleware.insert(0, Middleware(ProxyHeadersMiddleware, trusted_hosts=trusted))
    return Starlette(
        routes=[
            Route("/", lobby_page),
            Route("/table/{table_id}", play_page),
            Route("/api/games", api_games),
            Route("/api/games/{game}/guide", api_guide),
            Route("/api/games/{game}/coach", api_coach),
            Route("/api/tables", api_tables, methods=["GET"]),
            Route("/api/tables", api_create, methods=["POST"]),
            Route("/api/tables/{table_id}", api_table),
            Route("/api/tables/{table_id}/record", api_record),
            Route("/api/tables/{table_id}/seats/{seat:int}/claim", api_claim, methods=["POST"]),
            WebSocketRoute("/ws/tables/{table_id}", ws_table),
            # The pages' scripts and styles, compressed (a phone on a slow network: issue 79
            # point 8); the API's answers, which carry seat tokens, are not.
            Mount("/static", GZipMiddleware(StaticFiles(directory=WEB_DIR)), name="static"),
            *(studio_routes(the_studio) if the_studio is not None else []),
        ],
        lifespan=lifespan,
        middleware=middleware,
        exception_handlers={HTTPException: _http_error},
    )


# -- helpers --------------------------------------------------------------------------------------
def _tune_garbage_collector() -> None:
    """Fewer, cheaper collections: a move allocates many short-lived dicts (views, frames), so
    the default thresholds run a collection every few moves, and the full collections that
    follow walk every live table and stalled all tables for hundreds of milliseconds under
    load. What exists at start-up (modules, content, resumed tables) is frozen out of them."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)


async def _expire_periodically(tables: Tables) -> None:
    """Give up idle and empty tables now and then (the work is one indexed query, whatever the
    load); an empty table goes within a third more than `empty_minutes`."""
    limits = tables.limits
    period = max(60.0, min(600.0, limits.idle_hours * 3600 / 20, limits.empty_minutes * 60 / 3))
    while True:
        await asyncio.sleep(period)
        try:
            await tables.expire_idle()
        except Exception:
            log.exception("giving up idle tables failed; trying again later")


_SLOW_DOWN = "too many messages on this connection; wait a moment before sending more"


def _check_shape(data: bytes, max_depth: int) -> Any:
    """A client's message (its UTF-8 bytes) parsed, refused when too large (before parsing) or
    too deep. Raises Refused, or ValueError when it is not JSON."""
    if len(data) > MAX_FRAME:
        raise Refused(f"message too large (limit {MAX_FRAME} bytes)")
    try:
        return loads_limited(data, max_depth)
    except TooDeep as exc:
        raise Refused(f"message {exc}") from None


async def _handshake(websocket: WebSocket, table: Table, max_depth: int) -> int | None | bool:
    """The first frame says who is watching: a seat token or none (a spectator).

    Returns the seat (None for a spectator) or False when the connection was refused.
    """
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        return False
    text = message.get("text") or ""
    try:
        hello = Envelope.model_validate({"message": _check_shape(text.encode(), max_depth)}).message
        if not isinstance(hello, Hello):
            raise Refused('the first message must be {"type": "hello", "token": ...}')
        return table.seat_for_token(hello.token)
    except (ValueError, ValidationError, Refused) as exc:
        why = describe_error(exc) if isinstance(exc, ValidationError) else str(exc)
        if isinstance(exc, ValueError) and not isinstance(exc, ValidationError):
            why = "a message must be a JSON object"
        await _send_error(websocket, None, why)
        await websocket.close(code=4403)
        return False


async def _handle(
    tables: Tables, table: Table, watcher: Watcher, message_bytes: bytes, max_depth: int
) -> None:
    """One client request (the message's bytes); whatever is wrong with it fails this request
    only."""
    request_id = None
    try:
        try:
            data = _check_shape(message_bytes, max_depth)
        except Refused:
            raise
        except ValueError:
            raise Refused("a message must be a JSON object") from None
        if isinstance(data, dict) and isinstance(data.get("id"), int):
            request_id = data["id"]
        try:
            message = Envelope.model_validate({"message": data}).message
        except ValidationError as exc:
            raise Refused(describe_error(exc)) from None
        kind = message.type
        if kind == "act":
            # Shielded: a client that disconnects mid-move does not cancel a half-made commit.
            step = await asyncio.shield(
                asyncio.ensure_future(
                    tables.play(
                        table,
                        watcher.seat,
                        index=message.index,
                        action=message.action,
                        plan=message.plan,
                        expect_step=message.step,
                    )
                )
            )
            watcher.push(_dumps({"type": "ack", "id": request_id, "step": step}))
        elif kind == "undo":
            step = await asyncio.shield(asyncio.ensure_future(tables.undo(table, watcher.seat)))
            watcher.push(_dumps({"type": "ack", "id": request_id, "step": step}))
        elif kind == "sync":
            await tables.resync(table, watcher)
        elif kind == "chat":
            await tables.chat(table, watcher, message.text)
            watcher.push(_dumps({"type": "ack", "id": request_id, "step": len(table.steps)}))
        elif kind == "rematch":
            new_id = await tables.rematch(table, watcher.seat)
            watcher.push(_dumps({"type": "ack", "id": request_id, "table": new_id}))
        elif kind == "hint":
            found = await tables.hint(table, watcher.seat)
            watcher.push(_dumps({"type": "hint", "id": request_id, **found}))
        else:
            raise Refused("already introduced; send act, undo, sync, chat, rematch or hint")
    except Refused as exc:
        watcher.push(_dumps({"type": "error", "id": request_id, "message": str(exc)}))
    except StoreError:
        log.exception("table %s: store refused a write", table.id)
        watcher.push(
            _dumps({"type": "error", "id": request_id, "message": "the move could not be saved"})
        )
    except Exception:
        log.exception("table %s: request failed", table.id)
        watcher.push(_dumps({"type": "error", "id": request_id, "message": "internal error"}))


async def _pump(watcher: Watcher, websocket: WebSocket) -> None:
    with contextlib.suppress(Exception):
        await watcher.pump()
        if watcher.dropped:
            await websocket.close(code=4408)


async def _send_error(websocket: WebSocket, request_id: int | None, message: str) -> None:
    with contextlib.suppress(Exception):
        await websocket.send_text(_dumps({"type": "error", "id": request_id, "message": message}))


async def _create_guided(
    tables: Tables, spec: CreateTable, client: str
) -> tuple[Table, list[str | None]]:
    """A guided first game (issue 79 point 7): the game's coach script sets the seats (the
    creator, easy AIs), the deal (the server's own seed: every seat is the creator's or an AI's)
    and allows hints; a seat's name and nothing else is taken from the request."""
    try:
        coach = load_coach(spec.game)
    except CoachError as exc:
        raise Refused(str(exc)) from None
    name = spec.seats[0].name if spec.seats else None
    return await tables.create(
        spec.game,
        coach.seats,
        {},
        coach.seat_specs(name),
        coach.seed,
        None,
        hints=True,
        creator=hash_address(client),
        guided=True,
    )


def _error(status: int, message: str, headers: dict[str, str] | None = None) -> Response:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return _error(exc.status_code, str(exc.detail), headers=exc.headers)


async def _read_body(request: Request, limit: int, seconds: float) -> bytes:
    """The request's body, refused past `limit` bytes (413) or `seconds` (408: a client that
    sends a byte now and then must not hold a connection for ever). Either way the connection
    closes, since the rest of the body is not read."""
    length = request.headers.get("content-length")
    too_large = HTTPException(
        413, f"request body too large (limit {limit} bytes)", headers={"connection": "close"}
    )
    if length is not None and (not length.isdigit() or int(length) > limit):
        raise too_large
    chunks: list[bytes] = []
    size = 0
    try:
        async with asyncio.timeout(seconds):
            async for chunk in request.stream():
                chunks.append(chunk)
                size += len(chunk)
                if size > limit:
                    raise too_large
    except TimeoutError:
        raise HTTPException(
            408, f"request body not received within {seconds:g} s", headers={"connection": "close"}
        ) from None
    return b"".join(chunks)


def _ai_levels(limits: AiLimits) -> list[dict[str, Any]]:
    """The named strengths the lobby offers: those within this server's limits in every game
    (the API takes any agent spec within them too, e.g. 'mcts:time=0.5')."""
    from ..agents.strengths import LABELS, STRENGTHS

    levels = []
    for strength in STRENGTHS:
        try:
            for name in game_names():
                check_agent_spec(strength, name, limits)
        except RobotableError:
            continue
        levels.append({"spec": strength, "label": LABELS[strength]})
    return levels


def _game_infos() -> list[dict[str, Any]]:
    """Every game that loads, with its seat range, options and description."""
    infos = []
    for name in game_names():
        try:
            infos.append(load_game(name).info())
        except Exception:
            # A game package that does not load is left out of the lobby, not fatal.
            log.warning("game %s does not load; left out of the lobby", name, exc_info=True)
    return infos


@functools.lru_cache(maxsize=16)
def _guide(name: str) -> dict[str, Any]:
    """How to play, as HTML for the play page's panel (the same text as `robotable rules`).
    The guide is the game package's own Markdown; raw HTML in it is not passed through."""
    from markdown_it import MarkdownIt  # comes with rich

    game = load_game(name)
    html = MarkdownIt("commonmark", {"html": False}).render(game.guide())
    return {"game": name, "title": game.title or name, "html": html, "terms": game.glossary()}


def _summary(row: Any, steps: int) -> dict[str, Any]:
    return {
        "id": row.id,
        "game": row.game,
        "num_players": row.num_players,
        "seats": [{"kind": s.kind, "name": s.name, "ai": s.ai, "open": s.open} for s in row.seats],
        "step": steps,
        "updated": row.updated,
        "result": row.result,
        "url": f"/table/{row.id}",
        "record_url": f"/api/tables/{row.id}/record" if row.result is not None else None,
        "seeded": row.seeded,  # its creator chose the deal (and holds every seat)
    }
