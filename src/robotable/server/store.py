"""The web table's store: a table is its record (game, options, seed, actions) plus seats, in
SQLite (the default) or PostgreSQL (database.py holds what differs between the two).

Writes go through one writer thread that commits whatever is queued in a single transaction
(group commit), so a move is durable before it is acknowledged while hundreds of tables share one
fsync. If a batch fails, it is redone with a savepoint per write: one failing write fails only its
caller. Reads use per-thread connections, beside the writer (SQLite's WAL, PostgreSQL's MVCC).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import queue
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from .database import PostgreSQL, SQLite, is_postgres_url

log = logging.getLogger("robotable.server")

CHAT_KEPT = 50  # chat lines a table keeps, and sends a newcomer
CHANNEL = "robotable"  # the PostgreSQL channel on which server processes announce changes


def hash_token(token: str) -> str:
    """Seat tokens are stored hashed: a copy of the database does not hand out seats."""
    return hashlib.sha256(token.encode()).hexdigest()


def hash_address(address: str) -> str:
    """A client address as the store keeps it (what the per-address cap counts): hashed, so the
    table list of a database is not a list of addresses. An IPv4 address can still be found
    from its hash by trying them all; the hash keeps it out of sight, not secret."""
    return hashlib.sha256(f"robotable address {address}".encode()).hexdigest()[:32]


@dataclass(slots=True)
class SeatRow:
    kind: str  # "human" or "ai"
    name: str
    ai: str | None = None
    token_hash: str | None = None
    open: bool = False  # not taken yet: anyone may claim it from the lobby

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "name": self.name,
            "ai": self.ai,
            "token_hash": self.token_hash,
            "open": self.open,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SeatRow:
        return cls(
            data["kind"],
            data["name"],
            data.get("ai"),
            data.get("token_hash"),
            data.get("open", False),
        )


@dataclass(slots=True)
class TableRow:
    id: str
    game: str
    version: str
    num_players: int
    options: dict[str, Any]
    seed: int
    seats: list[SeatRow]
    created: float
    updated: float
    result: dict[str, Any] | None
    actions: list[dict[str, Any]] = field(default_factory=list)
    reseeds: list[dict[str, int]] = field(default_factory=list)  # the record's "reseeds"
    abandoned: float | None = None  # when an unfinished table was given up for want of moves
    rematch: str | None = None  # the table its seats moved on to
    clock: dict[str, Any] | None = None  # see server/clocks.py
    hints: bool = True  # may a player ask for a hint (never at a table with a clock)
    chat: list[dict[str, Any]] = field(default_factory=list)  # the latest lines, oldest first
    creator: str | None = None  # the creating client's address, hashed (hash_address)
    joined: float | None = None  # when a person first connected to a seat or took one
    seeded: bool = False  # the creator chose the seed (allowed with no open seat; shown to all)
    guided: bool = False  # a guided first game (server/coach.py): the page shows the coach


class StoreError(RuntimeError):
    """A write that the database refused; the message names the table."""


class Store:
    def __init__(
        self, path: str | Path, synchronous: str = "FULL", clock: Callable[[], float] = time.time
    ) -> None:
        """`path`: an SQLite file, or a `postgresql://` URL."""
        self.dialect: Any = PostgreSQL(path) if is_postgres_url(path) else SQLite(path, synchronous)
        self.errors = self.dialect.errors
        self.clock = clock  # when tables were last played (idle expiry reads it)
        self._local = threading.local()
        # Every thread's reader connection, so that close() closes them all: SQLite removes its
        # -wal and -shm files only when the last connection to the database closes.
        self._readers: list[Any] = []
        self._readers_lock = threading.Lock()
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._writer_conn = self._connect()
        self.dialect.prepare(self._writer_conn)
        self._thread = threading.Thread(target=self._write_loop, name="robotable-db", daemon=True)
        self._thread.start()
        self.commits = 0  # transactions committed (for the load benchmark)
        # Several server processes may share a PostgreSQL database: each change to a table is
        # announced to the others (NOTIFY, delivered at commit), tagged with who made it.
        self.instance = secrets.token_hex(8)
        self._stop_listening = threading.Event()
        self._listener: threading.Thread | None = None

    def _connect(self) -> Any:
        return self.dialect.connect()

    def close(self) -> None:
        self._stop_listening.set()
        if self._listener is not None:
            self._listener.join(timeout=10)
        self._queue.put(None)
        self._thread.join(timeout=10)
        with self._readers_lock:
            readers, self._readers = self._readers, []
        for conn in readers:
            with contextlib.suppress(Exception):  # a reader's thread may be gone already
                conn.close()
        self._writer_conn.close()

    # -- other processes ----------------------------------------------------------------------
    @property
    def shared(self) -> bool:
        """Whether other server processes may write to this database (PostgreSQL)."""
        return self.dialect.shared

    def listen(self, on_change: Callable[[str], None]) -> None:
        """Call `on_change(table_id)` (from a thread) whenever another process changes a table."""
        if not self.shared or self._listener is not None:
            return
        self._listener = threading.Thread(
            target=self._listen_loop, args=(on_change,), name="robotable-db-listen", daemon=True
        )
        self._listener.start()

    def _listen_loop(self, on_change: Callable[[str], None]) -> None:
        conn = self.dialect.connect()
        try:
            conn.execute(f"LISTEN {CHANNEL}")
            while not self._stop_listening.is_set():
                for note in conn.raw.notifies(timeout=0.5):
                    sender, _, table_id = note.payload.partition(":")
                    if sender != self.instance:
                        on_change(table_id)
        except self.errors as exc:
            if not self._stop_listening.is_set():
                log.error("stopped listening for other servers' changes: %s", exc)
        finally:
            with contextlib.suppress(Exception):
                conn.close()

    # -- writes -------------------------------------------------------------------------------
    def _write_loop(self) -> None:
        conn = self._writer_conn
        while True:
            item = self._queue.get()
            batch = [item]
            while True:
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            stop = None in batch
            batch = [b for b in batch if b is not None]
            if batch:
                self._commit_batch(conn, batch)
            if stop:
                return

    def _commit_batch(self, conn: Any, batch: list) -> None:
        # Writes almost never fail, so first try the whole batch plainly (no savepoints: three
        # statements fewer per write); only if one fails, redo it with a savepoint per write so
        # that the failing write fails alone.
        try:
            conn.execute(self.dialect.begin)
            for fn, _ in batch:
                fn(conn)
            conn.execute("COMMIT")
            self.commits += 1
        except self.errors:
            if self.dialect.in_transaction(conn):
                conn.execute("ROLLBACK")
            self._commit_each(conn, batch)
            return
        _settle_all([(waiter, None) for _, waiter in batch])

    def _commit_each(self, conn: Any, batch: list) -> None:
        outcomes: list[tuple[tuple, BaseException | None]] = []
        try:
            conn.execute(self.dialect.begin)
            for fn, done in batch:
                conn.execute("SAVEPOINT item")
                try:
                    fn(conn)
                    conn.execute("RELEASE item")
                    outcomes.append((done, None))
                except self.errors as exc:
                    conn.execute("ROLLBACK TO item")
                    conn.execute("RELEASE item")
                    outcomes.append((done, StoreError(f"database write refused: {exc}")))
            conn.execute("COMMIT")
            self.commits += 1
        except self.errors as exc:
            if self.dialect.in_transaction(conn):
                conn.execute("ROLLBACK")
            outcomes = [(done, StoreError(f"database commit failed: {exc}")) for _, done in batch]
        _settle_all(outcomes)

    async def _submit(self, fn: Callable[[Any], None], changed: str | None = None) -> None:
        """Queue a write; returns once it is committed (raises StoreError if it was refused).
        `changed`: the table it changes, announced to other server processes on commit."""
        if changed is not None and self.shared:
            write, payload = fn, f"{self.instance}:{changed}"

            def fn(conn: Any) -> None:
                write(conn)
                conn.execute(f"SELECT pg_notify('{CHANNEL}', ?)", (payload,))

        loop = asyncio.get_running_loop()
        future: asyncio.Future = loop.create_future()
        self._queue.put((fn, (loop, future)))
        await future

    async def create_table(self, row: TableRow, rematch_of: str | None = None) -> None:
        """Store a new table; `rematch_of`: the finished table whose seats it continues."""

        def write(conn: Any) -> None:
            _insert_table(conn, row)
            if rematch_of is not None:
                conn.execute("UPDATE tables SET rematch = ? WHERE id = ?", (row.id, rematch_of))

        await self._submit(write, changed=rematch_of)

    async def set_seats(self, table_id: str, seats: list[SeatRow]) -> None:
        text = json.dumps([s.to_json() for s in seats])
        await self._submit(
            lambda conn: conn.execute("UPDATE tables SET seats = ? WHERE id = ?", (text, table_id)),
            changed=table_id,
        )

    async def add_chat(self, table_id: str, seat: int, text: str, at: float) -> None:
        """A line of a table's chat; lines older than its last CHAT_KEPT are deleted."""
        row_id = self.dialect.row_id

        def write(conn: Any) -> None:
            conn.execute(
                "INSERT INTO chat (table_id, at, seat, text) VALUES (?, ?, ?, ?)",
                (table_id, at, seat, text),
            )
            conn.execute(
                f"DELETE FROM chat WHERE table_id = ? AND {row_id} NOT IN"
                f" (SELECT {row_id} FROM chat WHERE table_id = ? ORDER BY at DESC LIMIT ?)",
                (table_id, table_id, CHAT_KEPT),
            )

        await self._submit(write, changed=table_id)

    async def append_action(
        self,
        table_id: str,
        step: int,
        seat: int,
        action: dict[str, Any],
        result: dict | None,
        clock: dict[str, Any] | None = None,
    ) -> None:
        """Store the action numbered `step` (1-based); `result` set when it ended the game;
        `clock` the table's clock after it (players' time left)."""
        # orjson: a move's one write, on the event loop (the same JSON as the standard
        # library's, with text outside ASCII kept as UTF-8 rather than escaped).
        text = orjson.dumps(action).decode()
        clock_text = None if clock is None else orjson.dumps(clock).decode()
        result_text = None if result is None else orjson.dumps(result).decode()
        now = self.clock()

        def write(conn: Any) -> None:
            conn.execute(
                "INSERT INTO actions (table_id, step, seat, action) VALUES (?, ?, ?, ?)",
                (table_id, step, seat, text),
            )
            conn.execute(
                "UPDATE tables SET updated = ?, result = ?, clock = coalesce(?, clock) WHERE id = ?",
                (now, result_text, clock_text, table_id),
            )

        await self._submit(write, changed=table_id)

    async def truncate(self, table_id: str, keep: int, reseed: tuple[int, int]) -> None:
        """Keep only the first `keep` actions of a table (undo), and record that chance was drawn
        afresh there for `reseed` = (seat, secret)."""
        seat, secret = reseed

        def write(conn: Any) -> None:
            conn.execute("DELETE FROM actions WHERE table_id = ? AND step > ?", (table_id, keep))
            conn.execute(
                "DELETE FROM reseeds WHERE table_id = ? AND after_step >= ?", (table_id, keep)
            )
            conn.execute(
                "INSERT INTO reseeds (table_id, after_step, seat, secret) VALUES (?, ?, ?, ?)",
                (table_id, keep, seat, secret),
            )
            conn.execute(
                "UPDATE tables SET updated = ?, result = NULL WHERE id = ?",
                (self.clock(), table_id),
            )

        await self._submit(write, changed=table_id)

    # -- reads --------------------------------------------------------------------------------
    def _reader(self) -> Any:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._local.conn = self._connect()
            with self._readers_lock:
                self._readers.append(conn)
        return conn

    def load_table(self, table_id: str, after: int = 0) -> TableRow | None:
        """A table with its actions (only those after step `after` when given: a process that
        has the first `after` catches up with the rest), chat and reseeds."""
        conn = self._reader()
        row = conn.execute(_SELECT + " WHERE id = ?", (table_id,)).fetchone()
        if row is None:
            return None
        table = _table_from_row(row)
        table.actions = [
            json.loads(text)
            for (text,) in conn.execute(
                "SELECT action FROM actions WHERE table_id = ? AND step > ? ORDER BY step",
                (table_id, after),
            )
        ]
        table.chat = [
            {"at": at, "seat": seat, "text": text}
            for at, seat, text in reversed(
                conn.execute(
                    "SELECT at, seat, text FROM chat WHERE table_id = ? ORDER BY at DESC LIMIT ?",
                    (table_id, CHAT_KEPT),
                ).fetchall()
            )
        ]
        table.reseeds = [
            {"after": after, "seat": seat, "secret": secret}
            for after, seat, secret in conn.execute(
                "SELECT after_step, seat, secret FROM reseeds WHERE table_id = ? ORDER BY after_step",
                (table_id,),
            )
        ]
        return table

    async def set_ai_error(self, table_id: str, error: str | None) -> None:
        """Keep why a table's AI seat stopped (None: it plays again), so that a restart does not
        set it thinking on the same position again, and again."""
        await self._submit(
            lambda conn: conn.execute(
                "UPDATE tables SET ai_error = ? WHERE id = ?", (error, table_id)
            ),
            changed=table_id,
        )

    def ai_error(self, table_id: str) -> str | None:
        """Why the table's AI seat stopped, if it did (set_ai_error)."""
        row = (
            self._reader()
            .execute("SELECT ai_error FROM tables WHERE id = ?", (table_id,))
            .fetchone()
        )
        return None if row is None else row[0]

    def unfinished_ids(self) -> list[str]:
        """Tables to resume at start: unfinished and not abandoned."""
        rows = self._reader().execute(
            "SELECT id FROM tables WHERE result IS NULL AND abandoned IS NULL ORDER BY created"
        )
        return [r[0] for r in rows]

    def count_open(self, creator: str | None = None) -> int:
        """Unfinished tables that are not abandoned (what `max_tables` counts); with `creator`,
        those created from that (hashed) address (what `max_open_per_address` counts)."""
        sql = "SELECT COUNT(*) FROM tables WHERE result IS NULL AND abandoned IS NULL"
        params: tuple = ()
        if creator is not None:
            sql, params = sql + " AND creator = ?", (creator,)
        (count,) = self._reader().execute(sql, params).fetchone()
        return count

    async def mark_joined(self, table_id: str, at: float) -> None:
        """A person connected to a seat of the table or took one: it is no longer empty."""
        await self._submit(
            lambda conn: conn.execute(
                "UPDATE tables SET joined = ? WHERE id = ? AND joined IS NULL", (at, table_id)
            )
        )

    async def abandon_idle(
        self, cutoff: float, now: float, empty_cutoff: float | None = None
    ) -> list[str]:
        """Mark unfinished tables without a move since `cutoff` abandoned and delete their
        chat (a given-up table keeps its game, not what strangers said); returns their ids.
        With `empty_cutoff`, also those created before it that no person ever joined."""
        ids: list[str] = []
        idle, params = "updated < ?", (now, cutoff)
        if empty_cutoff is not None:
            idle = "(updated < ? OR (joined IS NULL AND created < ?))"
            params = (now, cutoff, empty_cutoff)

        def write(conn: Any) -> None:
            given_up = [
                row[0]
                for row in conn.execute(
                    "UPDATE tables SET abandoned = ? WHERE result IS NULL AND abandoned IS NULL"
                    f" AND {idle} RETURNING id",
                    params,
                ).fetchall()
            ]
            for table_id in given_up:
                conn.execute("DELETE FROM chat WHERE table_id = ?", (table_id,))
            ids[:] = given_up  # a batch redone after a failure runs this again

        await self._submit(write)
        return ids

    def list_tables(self, finished: bool, limit: int = 50) -> list[tuple[TableRow, int]]:
        """Tables with their action counts, most recently active first."""
        where = "result IS NOT NULL" if finished else "result IS NULL AND abandoned IS NULL"
        rows = self._reader().execute(
            "SELECT t.id, t.game, t.version, t.num_players, t.options, t.seed, t.seats,"
            " t.created, t.updated, t.result,"
            " (SELECT COUNT(*) FROM actions a WHERE a.table_id = t.id), t.seeded"
            f" FROM tables t WHERE {where} ORDER BY t.updated DESC LIMIT ?",
            (limit,),
        )
        listed = []
        for r in rows:
            table = _table_from_row(r[:10])
            table.seeded = bool(r[11])
            listed.append((table, r[10]))
        return listed

    # -- the studio's studies (server/studio.py) ---------------------------------------------
    async def save_study(
        self, study_id: str, game: str, seed: int, state: str, inputs: dict, result: dict | None
    ) -> None:
        """Store a finished (or cancelled) study, its inputs and its result."""
        values = (
            study_id,
            self.clock(),
            game,
            str(seed),
            state,
            json.dumps(inputs),
            None if result is None else json.dumps(result),
        )
        await self._submit(
            lambda conn: conn.execute(
                "INSERT INTO studies (id, created, game, seed, state, inputs, result)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                values,
            )
        )

    def load_study(self, study_id: str) -> dict[str, Any] | None:
        """A stored study: id, created, game, seed, state, inputs and result."""
        row = (
            self._reader()
            .execute(
                "SELECT id, created, game, seed, state, inputs, result FROM studies WHERE id = ?",
                (study_id,),
            )
            .fetchone()
        )
        if row is None:
            return None
        return {
            "id": row[0],
            "created": row[1],
            "game": row[2],
            "seed": int(row[3]),
            "state": row[4],
            "inputs": json.loads(row[5]),
            "result": None if row[6] is None else json.loads(row[6]),
        }


_SELECT = (
    "SELECT id, game, version, num_players, options, seed, seats, created, updated, result,"
    " abandoned, rematch, clock, hints, creator, joined, seeded, guided FROM tables"
)


def _settle_all(outcomes: list[tuple[tuple, BaseException | None]]) -> None:
    """Wake the writers of a batch: one wake-up per event loop, not one per write."""
    by_loop: dict[asyncio.AbstractEventLoop, list] = {}
    for (loop, future), error in outcomes:
        by_loop.setdefault(loop, []).append((future, error))
    for loop, settled in by_loop.items():
        # RuntimeError: that event loop has closed, nobody waits any more.
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(_settle, settled)


def _settle(settled: list[tuple[asyncio.Future, BaseException | None]]) -> None:
    for future, error in settled:
        if future.done():
            continue
        if error is None:
            future.set_result(None)
        else:
            future.set_exception(error)


def _insert_table(conn: Any, row: TableRow) -> None:
    conn.execute(
        "INSERT INTO tables (id, game, version, num_players, options, seed, seats, created,"
        " updated, result, clock, hints, creator, joined, seeded, guided)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            row.id,
            row.game,
            row.version,
            row.num_players,
            json.dumps(row.options),
            str(row.seed),  # decimal text: a 128-bit seed fits no SQL integer type
            json.dumps([s.to_json() for s in row.seats]),
            row.created,
            row.updated,
            None if row.result is None else json.dumps(row.result),
            None if row.clock is None else json.dumps(row.clock),
            int(row.hints),
            row.creator,
            row.joined,
            int(row.seeded),
            int(row.guided),
        ),
    )


def _table_from_row(row: tuple) -> TableRow:
    return TableRow(
        id=row[0],
        game=row[1],
        version=row[2],
        num_players=row[3],
        options=json.loads(row[4]),
        seed=int(row[5]),  # stored as text; a table from before 128-bit seeds, as an integer
        seats=[SeatRow.from_json(s) for s in json.loads(row[6])],
        created=row[7],
        updated=row[8],
        result=None if row[9] is None else json.loads(row[9]),
        abandoned=row[10] if len(row) > 10 else None,
        rematch=row[11] if len(row) > 11 else None,
        clock=json.loads(row[12]) if len(row) > 12 and row[12] else None,
        hints=len(row) <= 13 or row[13] is None or bool(row[13]),
        creator=row[14] if len(row) > 14 else None,
        joined=row[15] if len(row) > 15 else None,
        seeded=len(row) > 16 and bool(row[16]),
        guided=len(row) > 17 and bool(row[17]),
    )
