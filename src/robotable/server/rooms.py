"""The table registry: every live table of one server, backed by the store.

Every change to a table happens here, under its lock: check the seat, apply the action (the game
alone decides legality), commit it to the store, and only then acknowledge and tell every watcher
what they may see. A live table and what each seat sees is `table.Table`; client connections
are `connections.Watcher`; AI seats and clocks are `turns.Turns`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections.abc import Callable
from typing import Any

from ..core.errors import IllegalAction, RecordError, RobotableError
from ..core.plans import find_plan
from ..core.protocol import Action, Game, State
from ..core.records import make_record
from ..core.text import CHAT_LENGTH, NAME_LENGTH, clean_text
from .ai import AiFailed, AiRunner, agent_seed, check_agent_spec
from .clocks import Clock
from .connections import Watcher
from .errors import Busy, Refused
from .limits import ServerLimits, TooMany
from .store import CHAT_KEPT, SeatRow, Store, StoreError, TableRow, hash_token
from .table import Step, Table, _label, _replay, load_table_game, seat_events
from .turns import Turns
from .wire import dumps as _dumps

log = logging.getLogger("robotable.server")

DEFAULT_AI = "medium"  # an AI seat created without a strength
# Seconds a new table's game (options and content) and first position may take to build, in a
# worker thread: bounded content builds in milliseconds, so an overrun means a loaded server.
BUILD_SECONDS = 10.0
# Random bits in a table's seed. A seat sees part of the deal; searching every seed for the deals
# that fit what it sees cost 82 s with 31 bits. 128 bits give every 64-bit GameRng state (its
# seed folds into it whole), 2**64 deals to try: 22,000 years at 26 million setups a second.
TABLE_SEED_BITS = 128
CHAT_LINES, CHAT_WINDOW = 5, 10.0  # chat lines one seat may send in that many seconds
# Lines one client address may send in CHAT_WINDOW over all its seats and tables: two people on
# one home connection can both talk, one machine with many seats cannot flood.
CHAT_LINES_PER_ADDRESS = 10
# What an AI seat is called when its creator gave it no name. Robots at one table are told apart
# by name in the log and on the board ("Ada attacks Bo's Tri Bot"), so no two share one; a
# seat's strength is shown beside its name by the pages ("Ada · hard"), not in it, so the log
# reads like a game host talks. None of these is a card, unit or rules word in any game.
ROBOT_NAMES = (
    "Ada", "Bo", "Cy", "Dot", "Echo", "Flux", "Gizmo", "Hex", "Ion", "Jolt", "Kilo",
    "Lumen", "Mica", "Nix", "Ohm", "Pixel", "Quark", "Rusty", "Tesla", "Volt", "Widget", "Zed",
)  # fmt: skip

__all__ = ["Refused", "Table", "Tables", "Watcher", "seat_events"]


def robot_names(seats: list[dict[str, Any]], given: list[str], seed: int | None) -> list[str]:
    """Names for the AI seats among `seats` that were given none (`given[i]` empty), in seat
    order: each a robot's from ROBOT_NAMES, none twice at the table and none a name another seat
    has (compared ignoring case). Which robots sit down follows the table's seed where its
    creator chose one (the same seeded table seats the same robots), else it is drawn afresh."""
    wanted = sum(
        1 for spec, name in zip(seats, given, strict=True) if spec["kind"] == "ai" and not name
    )
    taken = {name.casefold() for name in given if name}
    free = [n for n in ROBOT_NAMES if n.casefold() not in taken]
    random.Random(secrets.randbits(64) if seed is None else seed).shuffle(free)
    names = free[:wanted]
    number = 2
    while len(names) < wanted:  # more unnamed robots than names: the names again, numbered
        names += [f"{n} {number}" for n in free if f"{n} {number}".casefold() not in taken]
        number += 1
    return names[:wanted]


class Tables:
    """All live tables of one server, backed by the store."""

    def __init__(
        self,
        store: Store,
        ai: AiRunner,
        ai_delay: float = 0.6,
        limits: ServerLimits | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.ai = ai
        self.ai_delay = ai_delay
        self.limits = limits or ServerLimits()
        self.clock = clock
        self._creating = asyncio.Lock()  # the open-table count is checked and raised as one step
        self.live: dict[str, Table] = {}
        self._loading: dict[str, asyncio.Future] = {}
        self._catching_up: set[asyncio.Task] = set()
        self.build_seconds = BUILD_SECONDS
        self.turns = Turns(ai, ai_delay, self._commit, self._ai_stopped)
        self.chat_rate = ChatRate()

    # -- lifecycle ----------------------------------------------------------------------------
    def resume_all_load(self) -> list[Table]:
        """Rebuild every unfinished table from the store (blocking: run it in a thread)."""
        loaded = []
        for table_id in self.store.unfinished_ids():
            table = self._load_sync(table_id)
            if table is not None:
                loaded.append(table)
        return loaded

    def start_resumed(self, loaded: list[Table]) -> None:
        """Put resumed tables live and let their AI seats continue (on the event loop)."""
        for table in loaded:
            self.live[table.id] = table
            self.schedule_ai(table)

    async def close(self) -> None:
        for table in list(self.live.values()):
            if table.clock_task is not None:
                table.clock_task.cancel()
            if table.ai_task is not None:
                table.ai_task.cancel()
                with contextlib.suppress(BaseException):
                    await table.ai_task

    def _load_sync(self, table_id: str) -> Table | None:
        """Rebuild a table by replaying its stored actions from its seed."""
        row = self.store.load_table(table_id)
        if row is None:
            return None
        try:
            game = load_table_game(row.game, row.num_players, row.options, row.version)
            actions = []
            for number, data in enumerate(row.actions, start=1):
                try:
                    actions.append(game.action_from_json(data))
                except IllegalAction as exc:
                    raise RecordError(f"step {number} does not replay: {exc}") from None
            state, steps = _replay(game, row, actions)
        except RobotableError as exc:
            log.error("table %s cannot be resumed: %s", table_id, exc)
            return None
        table = Table(row, game, state, steps)
        # An AI seat that stopped stays stopped across restarts (turns.Turns._stop).
        table.ai_error = self.store.ai_error(table_id)
        return table

    async def get(self, table_id: str) -> Table | None:
        table = self.live.get(table_id)
        if table is not None:
            return table
        pending = self._loading.get(table_id)
        if pending is None:
            pending = self._loading[table_id] = asyncio.ensure_future(
                asyncio.to_thread(self._load_sync, table_id)
            )
        try:
            table = await pending
        finally:
            self._loading.pop(table_id, None)
        if table is None:
            return None
        table = self.live.setdefault(table_id, table)
        self.schedule_ai(table)
        return table

    async def expire_idle(self) -> list[str]:
        """Give up unfinished tables without a move for `idle_hours`, and those no person ever
        joined (connected to a seat or took one) within `empty_minutes`: they are kept (and can
        still be looked at) but no longer played, resumed at start, or counted as open."""
        now = self.clock()
        ids = await self.store.abandon_idle(
            now - self.limits.idle_hours * 3600, now, now - self.limits.empty_minutes * 60
        )
        for table_id in ids:
            table = self.live.get(table_id)
            if table is None:
                continue
            table.row.abandoned = now
            table.row.chat = []  # the store deleted it with the table
            if table.ai_task is not None:
                table.ai_task.cancel()
            table.broadcast_state()
            if not table.watchers:
                del self.live[table_id]
        if ids:
            log.info("gave up %d idle tables", len(ids))
        return ids

    def forget_if_idle(self, table: Table) -> None:
        """Finished tables nobody watches leave memory; the store keeps them."""
        if table.finished and not table.watchers and self.live.get(table.id) is table:
            del self.live[table.id]

    # -- creating -----------------------------------------------------------------------------
    async def create(
        self,
        game_name: str,
        num_players: int,
        options: dict[str, Any],
        seats: list[dict[str, Any]],
        seed: int | None = None,
        clock: dict[str, Any] | None = None,
        hints: bool = True,
        creator: str | None = None,
        guided: bool = False,
    ) -> tuple[Table, list[str | None]]:
        """A new table; returns it and each seat's token (None for AI seats). `clock`:
        {"mode": "move" or "game", "seconds": ...} (see server/clocks.py). `seed`: only where
        the creator holds every seat (no open seat: nobody else plays a deal chosen for
        them), and then shown to all. `creator`: the creating address, hashed (hash_address),
        held to `max_open_per_address`. `guided`: a guided first game (server/coach.py)."""
        # In a worker thread under the deadline; a game configured like another table's is that
        # table's (table.TableGames), not built again.
        game = await self._built(load_table_game, game_name, num_players, options)
        if len(seats) != game.num_players:
            raise Refused(
                f"game {game.name}: {game.num_players} seats need {game.num_players} seat "
                f"descriptions, got {len(seats)}"
            )
        rows: list[SeatRow] = []
        tokens: list[str | None] = []
        given = [clean_text(spec.get("name") or "", NAME_LENGTH) for spec in seats]
        robots = iter(robot_names(seats, given, seed))
        for i, spec in enumerate(seats):
            name = given[i]
            if spec["kind"] == "ai":
                ai = spec.get("ai") or DEFAULT_AI
                check_agent_spec(ai, game.name, self.ai.limits, seat=i)
                rows.append(SeatRow("ai", name or next(robots), ai=ai))
                tokens.append(None)
            elif spec.get("open"):
                rows.append(SeatRow("human", name or f"Open seat {i + 1}", open=True))
                tokens.append(None)
            else:
                token = secrets.token_urlsafe(18)
                rows.append(
                    SeatRow("human", name or f"Player {i + 1}", token_hash=hash_token(token))
                )
                tokens.append(token)
        open_seat = next((i for i, row in enumerate(rows) if row.open), None)
        if seed is not None and open_seat is not None:
            raise Refused(
                f"a chosen seed needs every seat taken at creation; seat {open_seat + 1} is open"
            )
        timer = None if clock is None else Clock.new(clock["mode"], clock["seconds"], len(rows))
        # A timed table is a contest: nobody gets the AI's advice there.
        table = await self._open(
            game,
            rows,
            seed,
            clock=timer,
            hints=hints and timer is None,
            creator=creator,
            guided=guided,
        )
        return table, tokens

    async def _open(
        self,
        game: Game,
        rows: list[SeatRow],
        seed: int | None,
        rematch_of: str | None = None,
        clock: Clock | None = None,
        hints: bool = True,
        creator: str | None = None,
        guided: bool = False,
    ) -> Table:
        """Store a new table and put it live (within `max_tables`, and a new one, not a rematch,
        within `max_open_per_address` of its creator's). `seed` None: one drawn afresh."""
        seeded = seed is not None
        if seed is None:
            seed = secrets.randbits(TABLE_SEED_BITS)
        state, record, opening = await self._built(_first_position, game, seed)
        now = self.clock()
        row = TableRow(
            id=secrets.token_urlsafe(6).replace("-", "x").replace("_", "y"),
            game=game.name,
            version=str(game.version),
            num_players=game.num_players,
            options=record["options"],
            seed=seed,
            seats=rows,
            created=now,
            updated=now,
            result=None,
            clock=None if clock is None else clock.to_json(),
            hints=hints,
            creator=creator,
            seeded=seeded,
            guided=guided,
            # AI seats alone wait for nobody: such a table is never empty (empty_minutes).
            joined=now if all(r.kind == "ai" for r in rows) else None,
        )
        async with self._creating:
            if await asyncio.to_thread(self.store.count_open) >= self.limits.max_tables:
                raise TooMany(
                    f"this server has its most open tables ({self.limits.max_tables}); "
                    "try again when some have finished"
                )
            cap = self.limits.max_open_per_address
            new = creator is not None and rematch_of is None  # a rematch is never refused
            if new and await asyncio.to_thread(self.store.count_open, creator) >= cap:
                raise TooMany(
                    f"this address has its most open tables ({cap}); "
                    "try again when some have finished"
                )
            await self.store.create_table(row, rematch_of)
        table = Table(row, game, state, [], opening=opening)
        self.live[row.id] = table
        self.schedule_ai(table)
        return table

    async def _built(self, build: Callable[..., Any], *args: Any) -> Any:
        """`build(*args)` (loading a game with its options and content, a first position) in a
        worker thread, so that the event loop serves every other table meanwhile; refused in one
        line past `build_seconds` (the thread cannot be stopped, but content is bounded)."""
        try:
            async with asyncio.timeout(self.build_seconds):
                return await asyncio.to_thread(build, *args)
        except TimeoutError:
            raise Busy(
                f"setting up the table took over {self.build_seconds:g} s; try again shortly"
            ) from None

    async def _ai_stopped(self, table: Table) -> None:
        await self.store.set_ai_error(table.id, table.ai_error)

    async def claim(self, table: Table, seat: int, name: str | None) -> str:
        """Take an open seat; returns its token. Each open seat can be taken once."""
        async with table.lock:
            if not 0 <= seat < len(table.row.seats) or not table.row.seats[seat].open:
                raise Refused(f"seat {seat + 1} is not open")
            if table.finished or table.row.abandoned is not None:
                raise Refused("this game is over")
            token = secrets.token_urlsafe(18)
            old = table.row.seats[seat]
            name = clean_text(name or "", NAME_LENGTH)
            # Two seats of one name would read alike in the log and on the board.
            if name and any(
                s.name.casefold() == name.casefold()
                for i, s in enumerate(table.row.seats)
                if i != seat
            ):
                raise Refused(f"{name} already sits at this table; choose another name")
            taken = SeatRow("human", name or old.name, None, hash_token(token))
            seats = [*table.row.seats[:seat], taken, *table.row.seats[seat + 1 :]]
            await self.store.set_seats(table.id, seats)
            table.row.seats = seats
            await self._mark_joined(table)
            table.broadcast_presence()
        return token

    async def _mark_joined(self, table: Table) -> None:
        """A person took part (took a seat, or connected to one): the table is not empty, and
        keeps `idle_hours` instead of `empty_minutes`. Called with the table lock held."""
        if table.row.joined is None:
            now = self.clock()
            await self.store.mark_joined(table.id, now)
            table.row.joined = now

    async def hint(self, table: Table, seat: int | None) -> dict[str, Any]:
        """What the Hard AI would do for `seat`, deciding now, and why (agents/hints.py). Only
        where the table allows hints; one at a time per table, in the AI queue like any move."""
        if seat is None or table.row.seats[seat].kind != "human":
            raise Refused("only a player at this table can ask for a hint")
        if not table.row.hints:
            raise Refused("this table was opened without hints")
        table.refuse_if_abandoned()
        if table.finished or table.state.current_player() != seat:
            raise Refused("a hint is for your own decision")
        if table.hinting:
            raise Refused("a hint is already being worked out")
        step = len(table.steps)
        table.hinting = True
        try:
            options = await self.ai.hint(
                table.game,
                table.state.clone(),
                "hard",
                agent_seed(table.row.seed, seat, step),
                table.names,
            )
        except AiFailed as exc:
            raise Refused(f"no hint: {exc}") from None
        finally:
            table.hinting = False
        return {"step": step, "options": options}

    async def rematch(self, table: Table, seat: int | None) -> str:
        """The table's rematch, opened by the first seat that asks once the game is over: the
        same game, options and seats, the seat order turned by one so that someone else goes
        first, and every seat's link valid there too. Later asks get the same table."""
        if seat is None or table.row.seats[seat].kind != "human":
            raise Refused("only a player at this table can ask for a rematch")
        async with table.lock:
            if not table.finished:
                raise Refused("a rematch is for when the game is over")
            if table.row.rematch is None:
                seats = table.row.seats[1:] + table.row.seats[:1]
                rows = [SeatRow(s.kind, s.name, s.ai, s.token_hash, s.open) for s in seats]
                clock = table.clock and Clock.new(table.clock.mode, table.clock.seconds, len(rows))
                new = await self._open(
                    table.game,
                    rows,
                    None,
                    rematch_of=table.id,
                    clock=clock,
                    hints=table.row.hints,
                    creator=table.row.creator,
                )
                table.row.rematch = new.id
                frame = _dumps({"type": "rematch", "table": new.id})
                for w in table.watchers:
                    w.push(frame)
        return table.row.rematch

    async def chat(self, table: Table, watcher: Watcher, text: str) -> None:
        """A line said at the table, kept with it (not in the game record) and sent to all."""
        if watcher.seat is None:
            raise Refused("spectators read the chat; players write in it")
        # Control characters and bidi overrides would act on every reader's screen.
        text = clean_text(text, CHAT_LENGTH)
        if not text:
            raise Refused("say something")
        now = self.clock()
        # Per seat and per client address, not per connection: reconnecting does not reset it.
        refusal = self.chat_rate.take(
            now,
            (("seat", table.id, str(watcher.seat)), CHAT_LINES, "from one seat"),
            (("address", watcher.address), CHAT_LINES_PER_ADDRESS, "from one address"),
        )
        if refusal is not None:
            raise Refused(refusal)
        await self.store.add_chat(table.id, watcher.seat, text, now)
        line = {"at": now, "seat": watcher.seat, "text": text}
        table.row.chat = [*table.row.chat[-(CHAT_KEPT - 1) :], line]
        frame = _dumps({"type": "chat", **line})
        for w in table.watchers:
            w.push(frame)

    # -- playing ------------------------------------------------------------------------------
    async def play(
        self,
        table: Table,
        seat: int | None,
        *,
        index: int | None = None,
        action: dict[str, Any] | None = None,
        plan: str | None = None,
        expect_step: int | None = None,
    ) -> int:
        """Apply a seat's action, or each action of a turn plan in order (core/plans.py: every
        one stored and announced as an ordinary step, so the record and undo are unchanged);
        returns the new step number once it is committed."""
        async with table.lock:
            if seat is None:
                raise Refused("spectators cannot act; open a seat link to play")
            table.refuse_if_abandoned()
            state = table.state
            if state.is_terminal():
                raise Refused("the game is over")
            deciding = state.current_player()
            if deciding != seat:
                raise Refused(f"not your decision: seat {deciding + 1} decides now")
            if expect_step is not None and expect_step != len(table.steps):
                raise Refused("the table moved on since you chose; look again")
            if plan is not None:
                try:
                    chosen_plan = find_plan(state, plan)
                except IllegalAction as exc:
                    raise Refused(str(exc)) from None
                for planned in chosen_plan.actions:
                    number = await self._commit(table, seat, planned)
                    if table.state.is_terminal() or table.state.current_player() != seat:
                        break
                self.schedule_ai(table)
                return number
            if index is not None:
                legal = state.legal_actions()
                if not 0 <= index < len(legal):
                    raise Refused(f"no legal action number {index} (there are {len(legal)})")
                chosen = legal[index]
            else:
                try:
                    chosen = table.game.action_from_json(action)
                except IllegalAction as exc:
                    raise Refused(str(exc)) from None
            number = await self._commit(table, seat, chosen)
        self.schedule_ai(table)
        return number

    async def _commit(
        self, table: Table, seat: int, action: Action, timed_out: bool = False
    ) -> int:
        """Apply, store, then announce. Called with the table lock held."""
        clock = table.clock
        if clock is not None and table.decision_started is not None:
            # The person's time is spent whether or not the move stands; cheap to keep exact.
            elapsed = asyncio.get_running_loop().time() - table.decision_started
            clock.spend(seat, elapsed)
            table.decision_started = asyncio.get_running_loop().time()
        try:
            label = _label(table.state, action)
            events = table.state.apply_action(action)
        except IllegalAction as exc:
            raise Refused(str(exc)) from None
        except Exception:
            log.exception("table %s: the game failed applying %s", table.id, action)
            self._rebuild(table, len(table.steps))
            raise Refused("the game could not apply this action (server error logged)") from None
        number = len(table.steps) + 1
        result = {"returns": table.state.returns()} if table.state.is_terminal() else None
        try:
            await self.store.append_action(
                table.id,
                number,
                seat,
                action.to_json(),
                result,
                None if clock is None else clock.to_json(),
            )
        except StoreError:
            self._rebuild(table, len(table.steps))
            if self.store.shared:
                # Another server process most likely stored this step first (the step number
                # is the key): catch up with it once the lock is free, and say so.
                asyncio.get_running_loop().call_soon(self.changed_elsewhere, table.id)
                raise Refused("the table moved on since you chose; look again") from None
            raise
        step = Step(seat, action, events, timed_out, label)
        table.steps.append(step)
        table.decision_started = None  # the next decision's clock starts when it is scheduled
        if result is not None:
            table.row.result = result
        try:
            table.broadcast_step(number, step)
        except Exception:
            # The move is stored and applied; a view that fails to build must not undo that.
            # Watchers resynchronise on their next request.
            log.exception("table %s: announcing step %d failed", table.id, number)
        return number

    # -- other server processes (a shared PostgreSQL database) ---------------------------------
    def changed_elsewhere(self, table_id: str) -> None:
        """Another process changed a table: a live copy here catches up (in the event loop)."""
        table = self.live.get(table_id)
        if table is not None:
            task = asyncio.ensure_future(self.catch_up(table))
            self._catching_up.add(task)
            task.add_done_callback(self._catching_up.discard)

    async def catch_up(self, table: Table) -> None:
        """Bring a live table up to what the database holds: moves, an undo, seats, chat, a
        rematch made by another process, then tell this process's watchers."""
        known = len(table.steps)
        # Only the moves after those this process has: an undo elsewhere shows as a new reseed
        # (every undo writes one), and then the whole table is read again.
        row = await asyncio.to_thread(self.store.load_table, table.id, known)
        if row is None:
            return
        async with table.lock:
            extends = row.reseeds == table.row.reseeds and len(table.steps) == known
            if not extends:
                row = await asyncio.to_thread(self.store.load_table, table.id)
                if row is None:
                    return
            if extends and row.actions:
                for data in row.actions:
                    action = table.game.action_from_json(data)
                    seat = table.state.current_player()
                    label = _label(table.state, action)
                    step = Step(seat, action, table.state.apply_action(action), label=label)
                    table.steps.append(step)
                    table.broadcast_step(len(table.steps), step)
            elif not extends:
                table.row.reseeds = row.reseeds
                table.generation += 1  # AI moves thought about the old position are dropped
                table.state, table.steps = _replay(
                    table.game, table.row, [table.game.action_from_json(a) for a in row.actions]
                )
                table.broadcast_state()
            table.row.result, table.row.clock = row.result, row.clock
            seen = {(line["at"], line["seat"]) for line in table.row.chat}
            for line in row.chat:
                if (line["at"], line["seat"]) not in seen:
                    frame = _dumps({"type": "chat", **line})
                    for w in table.watchers:
                        w.push(frame)
            table.row.chat = row.chat
            if row.seats != table.row.seats:
                table.row.seats = row.seats
                table.broadcast_presence()
            if row.rematch and not table.row.rematch:
                table.row.rematch = row.rematch
                frame = _dumps({"type": "rematch", "table": row.rematch})
                for w in table.watchers:
                    w.push(frame)
        self.schedule_ai(table)

    def _rebuild(self, table: Table, keep: int) -> None:
        """Recompute the state from the seed, the first `keep` actions and the reseeds."""
        actions = [step.action for step in table.steps[:keep]]
        table.state, table.steps = _replay(table.game, table.row, actions)

    async def undo(self, table: Table, seat: int | None) -> int:
        async with table.lock:
            table.refuse_if_abandoned()
            keep = table.undo_point(seat)
            if keep is None:
                raise Refused(
                    "undo is only for a seat playing against AI seats, before the game ends, "
                    "and not past a private reveal"
                )
            # Chance the undone moves revealed (dice, a refilled row) is drawn afresh, so undo is
            # never a way to see the future; the secret is stored so the record replays exactly.
            secret = secrets.randbits(63)
            await self.store.truncate(table.id, keep, (seat, secret))
            row = table.row
            row.reseeds = [r for r in row.reseeds if r["after"] < keep]
            row.reseeds.append({"after": keep, "seat": seat, "secret": secret})
            table.generation += 1
            self._rebuild(table, keep)
            if table.ai_error is not None:
                table.ai_error = None  # the stopped AI seat tries again from here
                await self.store.set_ai_error(table.id, None)
            table.broadcast_state()
        self.schedule_ai(table)
        return keep

    def schedule_ai(self, table: Table) -> None:
        """Set the table going after any change (see turns.Turns)."""
        self.turns.schedule(table)

    # -- watchers -----------------------------------------------------------------------------
    async def attach(self, table: Table, watcher: Watcher) -> None:
        async with table.lock:
            if watcher.seat is not None:
                await self._mark_joined(table)
            table.watchers.add(watcher)
            watcher.push(_dumps(table.full_frame(watcher.seat)))
            table.broadcast_presence()

    def detach(self, table: Table, watcher: Watcher) -> None:
        table.watchers.discard(watcher)
        table.broadcast_presence()
        self.forget_if_idle(table)

    async def resync(self, table: Table, watcher: Watcher) -> None:
        async with table.lock:
            watcher.push(_dumps(table.full_frame(watcher.seat)))

    # -- lobby --------------------------------------------------------------------------------
    def record_of(self, row: TableRow) -> dict[str, Any]:
        return {
            "game": row.game,
            "version": row.version,
            "options": row.options,
            "num_players": row.num_players,
            "seed": row.seed,
            "actions": row.actions,
            "result": row.result,
            **({"reseeds": row.reseeds} if row.reseeds else {}),
        }


def _first_position(game: Game, seed: int) -> tuple[State, dict[str, Any], list[Any]]:
    """A new table's first state, record and opening events (built off the event loop,
    Tables._built; the opening is the first state's, not worked out again from the seed on the
    event loop when the first watcher comes)."""
    state = game.new_initial_state(seed=seed)
    return state, make_record(game, seed, []), state.opening_events()


class ChatRate:
    """When each seat and each client address last chatted, over the last CHAT_WINDOW seconds.

    Keys whose lines are all older than the window are forgotten (at most once a window), so
    the map holds only those who chatted recently."""

    def __init__(self) -> None:
        self._said: dict[tuple[str, ...], list[float]] = {}
        self._swept = float("-inf")

    def take(self, now: float, *limits: tuple[tuple[str, ...], int, str]) -> str | None:
        """One line at `now` for every key of `limits` ((key, lines, whose)); None if every
        key is within its limit (the line is then counted for each), else why not."""
        if now - self._swept >= CHAT_WINDOW:
            self._said = {k: t for k, t in self._said.items() if t and now - t[-1] < CHAT_WINDOW}
            self._swept = now
        recent = {}
        for key, lines, whose in limits:
            recent[key] = [t for t in self._said.get(key, ()) if now - t < CHAT_WINDOW]
            if len(recent[key]) >= lines:
                return f"at most {lines} lines every {CHAT_WINDOW:g} seconds {whose}"
        for key, times in recent.items():
            self._said[key] = [*times, now]
        return None
