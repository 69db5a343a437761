"""One live table: the authoritative game state, its seats, its log and what each watcher sees.

A watcher holding a seat receives `view(seat)` and the events it may see
(`seat_events`), worded for it by the game's narration; spectators receive the public view.
The label of an action (which may name a hidden card, and is worded for the seat that chose
it) is shown only to that seat. The registry that changes tables is `rooms.Tables`; who moves
when nobody clicks (AI seats, clocks) is `turns.Turns`.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from ..core.errors import IllegalAction, RecordError
from ..core.events import Event, visible_events
from ..core.options import no_content_files
from ..core.plans import plans_for
from ..core.protocol import Action, Game, State
from ..core.records import reseed_chance, reseeds_by_step
from ..core.registry import game_class, load_game, load_recorded_game
from .clocks import Clock
from .connections import Watcher
from .errors import Refused
from .store import TableRow, hash_token
from .wire import dumps as _dumps

log = logging.getLogger("robotable.server")


@dataclass(slots=True)
class Step:
    """One accepted action and what it caused."""

    seat: int
    action: Action
    events: list[Event]
    timed_out: bool = False  # played for a person whose clock ran out
    label: str = ""  # the choice as its seat read it when choosing (State.describe_action)


class Table:
    def __init__(
        self,
        row: TableRow,
        game: Game,
        state: State,
        steps: list[Step],
        opening: list[Event] | None = None,
    ) -> None:
        self.row = row
        self.id = row.id
        self.game = game
        self.state = state
        self.steps = steps
        self.lock = asyncio.Lock()
        self.watchers: set[Watcher] = set()
        self.generation = 0  # bumped by undo so AI moves computed for an older position are dropped
        self.ai_task: asyncio.Task | None = None
        self.ai_error: str | None = None
        self.clock = Clock.from_json(row.clock)
        self.clock_task: asyncio.Task | None = None
        self.clock_position: tuple[int, int] | None = None  # (steps, generation) it runs for
        self.decision_started: float | None = None  # loop time the timed decision began
        self.hinting = False  # a hint is being worked out (one at a time per table)
        self._opening = opening  # None: worked out when first asked (Table.opening)

    # -- what each seat sees ------------------------------------------------------------------
    @property
    def finished(self) -> bool:
        return self.state.is_terminal()

    def meta(self, connected: dict[int | None, int] | None = None) -> dict[str, Any]:
        seats = []
        for i, s in enumerate(self.row.seats):
            seat = {"seat": i, "kind": s.kind, "name": s.name, "ai": s.ai, "open": s.open}
            if connected is not None:
                seat["connected"] = connected.get(i, 0)
            seats.append(seat)
        return {
            "id": self.id,
            "game": self.game.name,
            "title": self.game.title or self.game.name,
            "num_players": self.game.num_players,
            "options": self.row.options,
            "seats": seats,
            "step": len(self.steps),
            "hints": self.row.hints,
            "guided": self.row.guided,  # a guided first game: the page shows the coach
            # A seed its creator chose is everyone's to see (as text: JavaScript numbers hold 53
            # bits); a drawn one is secret until the record, when the game is over.
            "seed": str(self.row.seed) if self.row.seeded else None,
            "finished": self.finished,
            "result": self.result() if self.finished else None,
            "record_url": f"/api/tables/{self.id}/record" if self.finished else None,
            "ai_error": self.ai_error,
            "abandoned": self.row.abandoned is not None,
            "rematch": self.row.rematch,
            "spectators": connected.get(None, 0) if connected is not None else None,
        }

    def result(self) -> dict[str, Any]:
        """A finished game's returns, and each seat's score where the game keeps one (its
        narration's `result_scores(state)`: {"unit": "loaves", "scores": [12, 9]}) for the end
        screen's table; a game without one is shown won or lost from the returns."""
        result: dict[str, Any] = {"returns": self.state.returns()}
        scores = getattr(self.game.narration, "result_scores", None)
        if scores is not None:
            try:
                result.update(scores(self.state))
            except Exception:  # a scoring bug must not stop the end frame (the returns stand)
                log.exception("%s: the end scores failed", self.game.name)
        return result

    def connected(self) -> dict[int | None, int]:
        counts: dict[int | None, int] = {}
        for w in self.watchers:
            counts[w.seat] = counts.get(w.seat, 0) + 1
        return counts

    def entry(self, number: int, step: Step, seat: int | None) -> dict[str, Any]:
        own = seat is not None and seat == step.seat
        events = seat_events(step.events, seat)
        return {
            "step": number,
            "seat": step.seat,
            "label": (step.label or str(step.action)) if own else None,
            "lines": self.game.narrate(events, seat, self.names),
            "events": events,
            "timeout": step.timed_out,
        }

    @property
    def opening(self) -> list[Event]:
        """What happened while the table was set (a first roll), worked out when first asked."""
        if self._opening is None:
            self._opening = self.game.new_initial_state(seed=self.row.seed).opening_events()
        return self._opening

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.row.seats]

    def timed_seat(self) -> int | None:
        """The person deciding now if the table has a clock (AI seats have none)."""
        if self.clock is None or self.finished or self.row.abandoned is not None:
            return None
        seat = self.state.current_player()
        return seat if self.row.seats[seat].kind == "human" else None

    def clock_view(self) -> dict[str, Any] | None:
        if self.clock is None:
            return None
        elapsed = 0.0
        if self.decision_started is not None:
            elapsed = asyncio.get_running_loop().time() - self.decision_started
        return self.clock.view(self.timed_seat(), elapsed)

    def full_frame(self, seat: int | None) -> dict[str, Any]:
        return {
            "type": "state",
            "table": self.meta(self.connected()),
            "you": seat,
            "step": len(self.steps),
            "view": self.state.view(seat),
            "plans": self.plans_view(seat),
            "log": [self.entry(i, s, seat) for i, s in enumerate(self.steps, start=1)],
            "opening": self.game.narrate(self.opening, seat, self.names),
            "can_undo": self.undo_point(seat) is not None,
            "thinking": self.ai_thinking(),
            "chat": self.row.chat,
            "clock": self.clock_view(),
            "result_words": self.result_words(seat),
        }

    def result_words(self, seat: int | None) -> str | None:
        """Who won and by how much, worded for `seat` ("Zed wins, 12 loaves to 9"; "You win the
        match, 2 duels to 0"): the game's own result sentence, the same the terminal's end screen
        says; None while the game goes on."""
        if not self.finished:
            return None
        try:
            return self.game.result_sentence(self.state, seat, self.names)
        except Exception:  # a wording bug must not stop the end frame (the page uses returns)
            log.exception("%s: wording the result failed", self.game.name)
            return None

    def plans_view(self, seat: int | None) -> list[dict[str, str]]:
        """The turn plans (core/plans.py) of the deciding seat, for its screen only: a key to
        send back ({"type": "act", "plan": key}) and the words."""
        if seat is None or self.state.is_terminal() or seat != self.state.current_player():
            return []
        return [plan.to_json() for plan in plans_for(self.state)]

    def refuse_if_abandoned(self) -> None:
        if self.row.abandoned is not None:
            raise Refused("this table was given up after a long time without a move")

    def ai_thinking(self) -> int | None:
        if self.finished or self.row.abandoned is not None:
            return None
        seat = self.state.current_player()
        return seat if self.row.seats[seat].kind == "ai" else None

    def seat_for_token(self, token: str | None) -> int | None:
        """The seat a token holds; None for no token. An unknown token is refused."""
        if token is None:
            return None
        digest = hash_token(token)
        for i, s in enumerate(self.row.seats):
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, digest):
                return i
        raise Refused("this seat link is not valid for this table")

    # -- undo ---------------------------------------------------------------------------------
    def undo_point(self, seat: int | None) -> int | None:
        """How many actions to keep to take back `seat`'s last decision, or None if not allowed.

        Allowed only to a human seat whose every opponent is an AI seat, before the game ends,
        and not past anything revealed privately to that seat since (a card drawn, a hand seen):
        taking back a move must not be a way to peek.
        """
        if seat is None or self.finished or self.row.seats[seat].kind != "human":
            return None
        if any(s.kind != "ai" for i, s in enumerate(self.row.seats) if i != seat):
            return None
        for index in range(len(self.steps) - 1, -1, -1):
            step = self.steps[index]
            if any("to" in e and _sent_to(e, seat) for e in step.events):
                return None
            if step.seat == seat:
                return index
        return None

    # -- broadcasting -------------------------------------------------------------------------
    def broadcast_step(self, number: int, step: Step) -> None:
        by_seat: dict[int | None, str] = {}
        thinking = self.ai_thinking()
        clock = self.clock_view()
        for w in self.watchers:
            frame = by_seat.get(w.seat)
            if frame is None:
                frame = by_seat[w.seat] = _dumps(
                    {
                        "type": "update",
                        "step": number,
                        "view": self.state.view(w.seat),
                        "plans": self.plans_view(w.seat),
                        "entry": self.entry(number, step, w.seat),
                        "can_undo": self.undo_point(w.seat) is not None,
                        "thinking": thinking,
                        "clock": clock,
                        "table": self.meta() if self.finished else None,
                        "result_words": self.result_words(w.seat),
                    }
                )
            w.push(frame)
        if self.finished:
            # The full log with every label is everyone's once the game is over.
            self.broadcast_state()

    def broadcast_state(self) -> None:
        frames: dict[int | None, str] = {}
        for w in self.watchers:
            if w.seat not in frames:
                frames[w.seat] = _dumps(self.full_frame(w.seat))
            w.push(frames[w.seat])

    def broadcast_presence(self) -> None:
        frame = _dumps({"type": "seats", "table": self.meta(self.connected())})
        for w in self.watchers:
            w.push(frame)


def _replay(game: Game, row: TableRow, actions: list[Action]) -> tuple[State, list[Step]]:
    """The table's state after `actions` from its seed, with its reseeds applied where they fall
    (the same replay as `robotable.core.records.replay_record`)."""
    state = game.new_initial_state(seed=row.seed)
    reseeds = reseeds_by_step(row.reseeds)
    steps = []
    for number, action in enumerate(actions):
        if number in reseeds:
            state = reseed_chance(state, *reseeds[number])
        seat = state.current_player()
        try:
            label = _label(state, action)
            steps.append(Step(seat, action, state.apply_action(action), label=label))
        except IllegalAction as exc:
            raise RecordError(f"step {number + 1} does not replay: {exc}") from None
    if len(actions) in reseeds:
        state = reseed_chance(state, *reseeds[len(actions)])
    return state, steps


def _label(state: State, action: Action) -> str:
    """The choice in the words its seat read (worded only for a legal action: the game's
    wording may assume it); a wording that fails must not stop a move."""
    if action not in state.legal_actions():
        return ""
    try:
        return state.describe_action(action)
    except Exception:
        log.exception("%s: wording %s failed", state.game.name, action)
        return str(action)


def load_table_game(
    name: str, num_players: int, options: dict[str, Any], version: str | None = None
) -> Game:
    """A game configured from a request or a stored table (made with rules `version`). Content
    options take bundled names and inline content only: nothing a client sends can make the
    server open a file. Tables of the same game share it (TableGames)."""
    key = TABLE_GAMES.key(name, num_players, options, version)
    game = TABLE_GAMES.get(key)
    if game is None:
        with no_content_files():
            if version is None:
                game = load_game(name, num_players=num_players, **options)
            else:
                game = load_recorded_game(name, version, num_players, **options)
        game = TABLE_GAMES.put(key, game)
    return game


class TableGames:
    """The games live tables play, one per game, seat count, options and rules version, shared
    by every table configured alike (the AI worker shares its games the same way).

    A Game is configuration: options, content and the per-card tables its rules read, read-only
    once built; what changes is each table's State. Built per table, a Stak Bots game held some
    800 objects for the garbage collector (a table's own state about 40): at 1,000 tables, the
    first collection of the younger generations during play walked a million objects and
    stalled every table for 0.2-0.3 s (issue 77 point 9). The most recently used `kept` are
    kept: inline content, which strangers send, cannot grow it."""

    def __init__(self, kept: int = 64) -> None:
        self.kept = kept
        self.built = 0  # games built (the others were shared)
        self._games: OrderedDict[tuple, Game] = OrderedDict()
        self._lock = threading.Lock()  # games are built in worker threads (Tables._built)

    @staticmethod
    def key(
        name: str, num_players: int, options: dict[str, Any], version: str | None = None
    ) -> tuple | None:
        """What makes two tables' games the same; None when the options are not plain JSON
        (such a game is built for its table alone)."""
        try:
            text = json.dumps(options, sort_keys=True)
        except (TypeError, ValueError):
            return None
        return (game_class(name), name, num_players, version, text)

    def get(self, key: tuple | None) -> Game | None:
        if key is None:
            return None
        with self._lock:
            game = self._games.get(key)
            if game is not None:
                self._games.move_to_end(key)
            return game

    def put(self, key: tuple | None, game: Game) -> Game:
        """Keep a game just built; returns the one to use (a game built meanwhile by another
        thread for the same key wins, so that the tables share it)."""
        with self._lock:
            self.built += 1
            if key is None:
                return game
            kept = self._games.setdefault(key, game)
            self._games.move_to_end(key)
            while len(self._games) > self.kept:
                self._games.popitem(last=False)
            return kept


TABLE_GAMES = TableGames()


def _sent_to(event: Event, seat: int) -> bool:
    to = event["to"]
    return isinstance(to, list | tuple) and seat in to


def seat_events(events: list[Event], seat: int | None) -> list[Event]:
    """`visible_events`, failing closed: an event whose "to" is not a list of seats (a game that
    used "to" for something else) is shown to nobody rather than guessed at."""
    if all("to" not in e or isinstance(e["to"], list | tuple) for e in events):
        return visible_events(events, seat)
    return [
        e
        for e in events
        if "to" not in e
        or (isinstance(e["to"], list | tuple) and seat is not None and seat in e["to"])
    ]
