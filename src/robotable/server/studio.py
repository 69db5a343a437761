"""The designer's studio (`robotable serve --studio`, docs/studio.md): a page where a card set is
edited, a study is run on it, and the answer comes back in words, then in plots.

Everything here is under /studio and exists only when the server was started with --studio. A
server that listens beyond this machine asks for the studio key (printed at start, or read from
--studio-key-file), sent by the page in a header and a cookie and compared in constant time: a
study costs CPU. A study's share link (/studio/s/<id>) shows its stored answer to anyone.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import math
import secrets
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..core.errors import RobotableError
from ..core.options import MAX_INLINE
from ..core.registry import game_class
from ..sim.runner import available_cores
from .schemas import describe_error
from .store import Store
from .studio_content import (
    CARD_SETS,
    DraftError,
    bundled_text,
    card_sets,
    check_draft,
    parse_toml,
    read_draft,
)
from .studio_runs import (
    LEVELS,
    MAX_GAMES,
    MAX_QUEUED,
    QUESTIONS,
    Study,
    StudyQueue,
    StudyRefused,
    build_spec,
)
from .studio_view import study_view

log = logging.getLogger("robotable.server")
WEB_DIR = Path(__file__).resolve().parent.parent / "web"
KEY_HEADER = "x-studio-key"
KEY_COOKIE = "robotable_studio_key"
MAX_BODY = 3 * (2 * MAX_INLINE + 4096)  # two card sets as UTF-8, with their options
MAX_OPTIONS = 2000  # characters of one side's options text


@dataclass(frozen=True, slots=True)
class StudioSettings:
    """How `serve --studio` runs studies. `key`: None on a server only this machine reaches
    (no key asked), else the key a request must carry."""

    key: str | None = None
    workers: int = 0  # worker processes per study; 0: the cores this process may use
    ray_address: str | None = None
    max_games: int = MAX_GAMES
    max_queued: int = MAX_QUEUED


def new_key() -> str:
    return secrets.token_urlsafe(18)


def read_key_file(path: str | Path) -> str:
    """The studio key from the first line of `path`; one line naming the file when it cannot."""
    try:
        with Path(path).open(encoding="utf-8") as handle:
            key = handle.read(1024).strip().splitlines()
    except OSError as exc:
        raise RobotableError(f"--studio-key-file {path}: cannot read it ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise RobotableError(f"--studio-key-file {path}: not UTF-8 text") from None
    if not key or len(key[0].strip()) < 12:
        raise RobotableError(f"--studio-key-file {path}: the key must be 12 characters or more")
    return key[0].strip()


# -- requests ---------------------------------------------------------------------------------

Text = Field(default="", max_length=MAX_INLINE)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", str_max_length=MAX_INLINE)


class Side(_Strict):
    cards: str = Text
    options: str = Field(default="", max_length=MAX_OPTIONS)


class CheckRequest(Side):
    game: str = Field(max_length=40)
    seats: int = Field(ge=1, le=8)


class StudyRequest(_Strict):
    game: str = Field(max_length=40)
    seats: int = Field(ge=1, le=8)
    question: Literal["fair", "cards", "length", "compare"]
    level: Literal["random", "easy", "medium", "hard"]
    games: int = Field(ge=1, le=1_000_000)
    seed: int | None = Field(default=None, ge=0, lt=2**63)
    a: Side
    b: Side | None = None


class RequestError(Exception):
    def __init__(self, status: int, message: str, extra: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.extra = extra or {}


def _error(status: int, message: str, **extra: Any) -> Response:
    return JSONResponse({"error": message, **extra}, status_code=status)


# -- the studio -------------------------------------------------------------------------------


class Studio:
    """The studio's state in a running app: its settings and its queue of studies."""

    def __init__(self, settings: StudioSettings) -> None:
        self.settings = settings
        self.store: Store | None = None
        self.queue: StudyQueue | None = None

    async def start(self, store: Store) -> None:
        self.store = store
        workers = self.settings.workers or max(2, available_cores())
        self.queue = StudyQueue(
            self._save,
            workers=workers,
            ray_address=self.settings.ray_address,
            max_games=self.settings.max_games,
            max_queued=self.settings.max_queued,
        )
        await self.queue.start()

    async def aclose(self) -> None:
        if self.queue is not None:
            await self.queue.aclose()

    async def _save(self, study: Study) -> None:
        assert self.store is not None
        state = "cancelled" if study.result and study.result.get("interrupted") else "done"
        await self.store.save_study(
            study.id, study.inputs["game"], study.inputs["seed"], state, study.inputs, study.result
        )

    # -- the key --------------------------------------------------------------------------
    def holder(self, conn: Request | WebSocket) -> str | None:
        """Whose queue a request is in: "local" on a server that asks no key, a hash of the key
        when the request carries it, None when it does not."""
        key = self.settings.key
        if key is None:
            return "local"
        given = conn.headers.get(KEY_HEADER) or conn.cookies.get(KEY_COOKIE) or ""
        if hmac.compare_digest(given.encode(), key.encode()):
            return hashlib.sha256(key.encode()).hexdigest()[:16]
        return None

    def need_key(self, request: Request) -> str:
        who = self.holder(request)
        if who is None:
            raise RequestError(
                401,
                "This studio needs its key: ask whoever started the server for it.",
                {"key": True},
            )
        return who


def studio_routes(studio: Studio) -> list[BaseRoute]:
    """The studio's pages, API and websocket, for create_app's routes."""

    def guarded(handler):
        async def endpoint(request: Request) -> Response:
            try:
                return await handler(request)
            except RequestError as exc:
                return _error(exc.status, str(exc), **exc.extra)

        return endpoint

    async def page(request: Request) -> Response:
        return FileResponse(WEB_DIR / "studio.html")

    async def setup(request: Request) -> Response:
        studio.need_key(request)
        return JSONResponse(
            {
                "games": [entry for name in CARD_SETS if (entry := _game_entry(name))],
                "questions": [{"id": k, "label": v} for k, v in QUESTIONS.items()],
                "levels": [{"id": k, "label": v} for k, v in LEVELS.items()],
                "max_games": studio.settings.max_games,
            }
        )

    async def bundled(request: Request) -> Response:
        studio.need_key(request)
        game = request.path_params["game"]
        if game not in CARD_SETS:
            return _error(404, "no such game in the studio")
        try:
            text = bundled_text(game, request.path_params["index"])
        except RobotableError as exc:
            return _error(404, str(exc))
        return JSONResponse({"text": text, "rows": read_draft(game, text)})

    async def check(request: Request) -> Response:
        studio.need_key(request)
        body = await _body(request, CheckRequest)
        if body.game not in CARD_SETS:
            return _error(400, f"the studio has no game '{body.game}'")
        # Loading the game with the draft takes tens of milliseconds: off the event loop.
        return JSONResponse(await asyncio.to_thread(_check, body))

    async def estimate(request: Request) -> Response:
        studio.need_key(request)
        body = await _body(request, StudyRequest)
        try:
            inputs, spec = await asyncio.to_thread(_study_spec, body, studio.settings.max_games)
        except RequestError as exc:
            # No time for a study that cannot run: why, in the estimate's place (the draft may
            # have changed since the page asked).
            return JSONResponse({"seconds": None, "words": None, "error": str(exc)})
        assert studio.queue is not None
        seconds = await studio.queue.estimate(spec)
        return JSONResponse({"seconds": seconds, "words": about(seconds), "error": None})

    async def create(request: Request) -> Response:
        who = studio.need_key(request)
        body = await _body(request, StudyRequest)
        inputs, spec = await asyncio.to_thread(_study_spec, body, studio.settings.max_games)
        assert studio.queue is not None
        try:
            study = studio.queue.submit(who, inputs, spec)
        except StudyRefused as exc:
            return _error(429, str(exc))
        return JSONResponse(study.status(), status_code=201)

    async def show(request: Request) -> Response:
        study_id = request.path_params["study_id"]
        assert studio.queue is not None and studio.store is not None
        live = studio.queue.studies.get(study_id)
        if live is not None and live.state in ("queued", "running", "failed"):
            studio.need_key(request)
            return JSONResponse({**live.status(), "inputs": live.inputs})
        stored = await asyncio.to_thread(studio.store.load_study, study_id)
        if stored is None:
            return _error(404, "no such study")
        return JSONResponse(study_view(stored))

    async def cancel(request: Request) -> Response:
        studio.need_key(request)
        assert studio.queue is not None
        study = studio.queue.studies.get(request.path_params["study_id"])
        if study is None:
            return _error(404, "no such study playing")
        studio.queue.cancel(study)
        return JSONResponse(study.status())

    async def progress(websocket: WebSocket) -> None:
        assert studio.queue is not None
        study = studio.queue.studies.get(websocket.path_params["study_id"])
        if studio.holder(websocket) is None or study is None:
            await websocket.close(code=4404)
            return
        await websocket.accept()
        seen = -1
        with contextlib.suppress(WebSocketDisconnect, RuntimeError):
            while True:
                seen = study.version
                await websocket.send_json({"type": "progress", **study.status()})
                if study.state in ("done", "cancelled", "failed"):
                    break
                await studio.queue.wait_change(study, seen)
            await websocket.close()

    return [
        Route("/studio", page),
        Route("/studio/s/{study_id}", page),
        Route("/studio/api/setup", guarded(setup)),
        Route("/studio/api/sets/{game}/{index:int}", guarded(bundled)),
        Route("/studio/api/check", guarded(check), methods=["POST"]),
        Route("/studio/api/estimate", guarded(estimate), methods=["POST"]),
        Route("/studio/api/studies", guarded(create), methods=["POST"]),
        Route("/studio/api/studies/{study_id}", guarded(show)),
        Route("/studio/api/studies/{study_id}/cancel", guarded(cancel), methods=["POST"]),
        WebSocketRoute("/studio/ws/studies/{study_id}", progress),
    ]


def about(seconds: float) -> str:
    """'about 12 seconds', 'about 3 minutes'."""
    if seconds < 1.5:
        return "about 1 second"
    if seconds < 90:
        return f"about {round(seconds)} seconds"
    return f"about {math.ceil(seconds / 60)} minutes"


async def _body(request: Request, model: type[BaseModel]) -> Any:
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise RequestError(413, f"the request is too large (at most {MAX_BODY} bytes)")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        chunks.append(chunk)
        size += len(chunk)
        if size > MAX_BODY:
            raise RequestError(413, f"the request is too large (at most {MAX_BODY} bytes)")
    try:
        return model.model_validate_json(b"".join(chunks))
    except ValidationError as exc:
        raise RequestError(400, describe_error(exc)) from None


class OptionsError(DraftError):
    """A problem in a side's options text (not its card set)."""


def _where(exc: DraftError, part: str) -> dict[str, Any]:
    return {**exc.to_json(), "part": part}


def read_options(game: str, text: str) -> dict[str, Any]:
    """A side's options text (`name = value` lines, TOML) as the game's options; a card set
    option is refused here, since the card set is the draft."""
    try:
        given = parse_toml(text)
    except DraftError as exc:
        raise OptionsError(str(exc), exc.line) from None
    content = {spec.name for spec in game_class(game).option_specs if spec.content}
    for name, value in given.items():
        if name in content:
            raise OptionsError(
                f"'{name}' is the card set: edit it above, not here", _line_of(text, name), name
            )
        plain = (str, int, float, bool)
        if not isinstance(value, plain) and not (
            isinstance(value, list) and all(isinstance(v, plain) for v in value)
        ):
            raise OptionsError(
                f"option '{name}': expected a number, a word, yes/no or a list",
                _line_of(text, name),
                name,
            )
    return given


def _line_of(text: str, name: str) -> int | None:
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip().startswith(name) and "=" in line:
            return number
    return None


def _checked_side(game: str, seats: int, side: Side) -> dict[str, Any]:
    """The side's options with its card set inline, once the game loads with them."""
    options = read_options(game, side.options)
    try:
        return check_draft(game, seats, side.cards, options)
    except DraftError as exc:
        # A problem with an option names it: place it in the options text instead.
        for name in options:
            if f"option '{name}'" in str(exc):
                raise OptionsError(str(exc), _line_of(side.options, name), name) from None
        raise


def _check(body: CheckRequest) -> dict[str, Any]:
    """The check's answer: the draft's rows, the rules read, and the first error placed."""
    rows: list[dict[str, Any]] = []
    try:
        rows = read_draft(body.game, body.cards)
        options = _checked_side(body.game, body.seats, body)
    except OptionsError as exc:
        return {"rows": rows, "error": _where(exc, "options")}
    except DraftError as exc:
        return {"rows": rows, "error": _where(exc, "cards")}
    options.pop(card_sets(body.game).option, None)
    return {"rows": rows, "error": None, "options": options}


def _study_spec(body: StudyRequest, max_games: int):
    if body.game not in CARD_SETS:
        raise RequestError(400, f"the studio has no game '{body.game}'")
    cls = game_class(body.game)
    if not cls.min_players <= body.seats <= cls.max_players:
        raise RequestError(
            400, f"{cls.title} is played by {cls.min_players} to {cls.max_players} players"
        )
    sides = [body.a] + ([body.b] if body.question == "compare" else [])
    if body.question == "compare" and body.b is None:
        raise RequestError(400, "a comparison needs a set B")
    total = body.games * len(sides)
    if total > max_games:
        raise RequestError(
            400, f"{total} games is more than a study may play here (at most {max_games})"
        )
    checked = []
    for label, side in zip("AB", sides):
        try:
            checked.append(_checked_side(body.game, body.seats, side))
        except OptionsError as exc:
            where = _where(exc, "options")
            raise RequestError(400, f"set {label}, options: {exc}", {"where": where}) from None
        except DraftError as exc:
            where = _where(exc, "cards")
            raise RequestError(400, f"set {label}: {exc}", {"where": where}) from None
    seed = body.seed if body.seed is not None else secrets.randbelow(2**31)
    inputs = {
        "game": body.game,
        "seats": body.seats,
        "question": body.question,
        "level": body.level,
        "games": body.games,
        "seed": seed,
        "agents": [body.level],
        "sides": [{"cards": s.cards, "options": s.options} for s in sides],
    }
    return inputs, replace(build_spec(inputs, checked), error_dir=_error_dir())


def _error_dir() -> str:
    # Records of games that raise, kept out of the server's working directory.
    return str(Path(tempfile.gettempdir()) / "robotable-studio-errors")


def _game_entry(name: str) -> dict[str, Any] | None:
    try:
        cls = game_class(name)
    except Exception:
        # A game package that does not load is left out of the studio, not fatal.
        log.warning("game %s does not load; left out of the studio", name, exc_info=True)
        return None
    sets = card_sets(name)
    return {
        "name": name,
        "title": cls.title or name,
        "min_players": cls.min_players,
        "max_players": cls.max_players,
        "default_players": getattr(cls, "default_players", None) or max(2, cls.min_players),
        "option": sets.option,
        "sets": [label for label, _ in sets.bundled],
    }
