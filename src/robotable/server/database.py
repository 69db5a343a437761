"""The two databases the web table's store runs on: SQLite (the embedded default) and
PostgreSQL (`serve --db postgresql://...`, through psycopg 3).

The store (store.py) writes its SQL once, with `?` parameter markers; a dialect connects, creates and
migrates its schema, opens write transactions and names the errors a write may raise. Both give
the same guarantee: a write the store acknowledges is committed.
"""

from __future__ import annotations

import sqlite3
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..core.errors import OptionError

SQLITE_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    version TEXT NOT NULL,
    num_players INTEGER NOT NULL,
    options TEXT NOT NULL,
    seed TEXT NOT NULL,
    seats TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    result TEXT,
    abandoned REAL,
    rematch TEXT,
    clock TEXT,
    hints INTEGER,
    creator TEXT,
    joined REAL,
    seeded INTEGER,
    guided INTEGER
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL REFERENCES tables(id),
    step INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (table_id, step)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS tables_by_result ON tables(result IS NULL, updated);
-- Chance drawn afresh at an undo (see robotable.core.records): after `after_step` actions,
-- everything `seat` cannot see was sampled again from `secret`.
CREATE TABLE IF NOT EXISTS reseeds (
    table_id TEXT NOT NULL REFERENCES tables(id),
    after_step INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    secret INTEGER NOT NULL,
    PRIMARY KEY (table_id, after_step)
) WITHOUT ROWID;
-- What the seats said at a table; kept with the table, never in the game record.
CREATE TABLE IF NOT EXISTS chat (
    table_id TEXT NOT NULL REFERENCES tables(id),
    at REAL NOT NULL,
    seat INTEGER NOT NULL,
    text TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS chat_by_table ON chat(table_id, at);
-- The studio's studies (server/studio.py): inputs and results as JSON, for their share links.
CREATE TABLE IF NOT EXISTS studies (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    game TEXT NOT NULL,
    seed TEXT NOT NULL,
    state TEXT NOT NULL,
    inputs TEXT NOT NULL,
    result TEXT
);
"""

# The same tables in PostgreSQL's types: seeds as decimal text (128 bits fit no integer type),
# 64-bit secrets, double-precision times (PostgreSQL's REAL is single precision).
POSTGRES_SCHEMA = [
    """CREATE TABLE IF NOT EXISTS tables (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        version TEXT NOT NULL,
        num_players INTEGER NOT NULL,
        options TEXT NOT NULL,
        seed TEXT NOT NULL,
        seats TEXT NOT NULL,
        created DOUBLE PRECISION NOT NULL,
        updated DOUBLE PRECISION NOT NULL,
        result TEXT,
        abandoned DOUBLE PRECISION,
        rematch TEXT,
        clock TEXT,
        hints INTEGER,
        creator TEXT,
        joined DOUBLE PRECISION,
        seeded INTEGER,
        guided INTEGER
    )""",
    """CREATE TABLE IF NOT EXISTS actions (
        table_id TEXT NOT NULL REFERENCES tables(id),
        step INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        action TEXT NOT NULL,
        PRIMARY KEY (table_id, step)
    )""",
    "CREATE INDEX IF NOT EXISTS tables_by_result ON tables((result IS NULL), updated)",
    """CREATE TABLE IF NOT EXISTS reseeds (
        table_id TEXT NOT NULL REFERENCES tables(id),
        after_step INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        secret BIGINT NOT NULL,
        PRIMARY KEY (table_id, after_step)
    )""",
    """CREATE TABLE IF NOT EXISTS chat (
        table_id TEXT NOT NULL REFERENCES tables(id),
        at DOUBLE PRECISION NOT NULL,
        seat INTEGER NOT NULL,
        text TEXT NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS chat_by_table ON chat(table_id, at)",
    """CREATE TABLE IF NOT EXISTS studies (
        id TEXT PRIMARY KEY,
        created DOUBLE PRECISION NOT NULL,
        game TEXT NOT NULL,
        seed TEXT NOT NULL,
        state TEXT NOT NULL,
        inputs TEXT NOT NULL,
        result TEXT
    )""",
]

# Columns added after the first release: (name, SQLite type, PostgreSQL type).
ADDED_COLUMNS = [
    ("abandoned", "REAL", "DOUBLE PRECISION"),
    ("rematch", "TEXT", "TEXT"),
    ("clock", "TEXT", "TEXT"),
    ("hints", "INTEGER", "INTEGER"),
    ("ai_error", "TEXT", "TEXT"),  # why an AI seat stopped (server/turns.py); NULL: it plays
    ("creator", "TEXT", "TEXT"),  # the creating client's address, hashed (store.hash_address)
    ("joined", "REAL", "DOUBLE PRECISION"),  # when a person first took a seat there
    ("seeded", "INTEGER", "INTEGER"),  # the seed was chosen by the creator, and is shown
    ("guided", "INTEGER", "INTEGER"),  # a guided first game (server/coach.py)
]
# What existing rows get when a column above is added to them: a table from before `joined`
# counts as joined (it keeps the idle hours of a started game, not the minutes of an empty one).
FILLED_WHEN_ADDED = {"joined": "created"}
# Indexes on added columns, made once the columns exist (both databases). A new table counts
# its creator's open tables (--max-open-per-address): by this index, the few of that address,
# not a walk over every open table.
ADDED_INDEXES = [
    "CREATE INDEX IF NOT EXISTS tables_open_by_creator ON tables(creator)"
    " WHERE result IS NULL AND abandoned IS NULL",
]


def is_postgres_url(db: str | Path) -> bool:
    return isinstance(db, str) and db.startswith(("postgresql://", "postgres://"))


def shown(db: str | Path) -> str:
    """The database as it may be printed: a URL without its password."""
    if not is_postgres_url(db):
        return str(db)
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(str(db))
    host = parts.hostname or ""
    user = f"{parts.username}@" if parts.username else ""
    port = f":{parts.port}" if parts.port else ""
    return urlunsplit((parts.scheme, f"{user}{host}{port}", parts.path, parts.query, ""))


def check_database(db: str | Path) -> None:
    """Open the database once (creating or migrating its schema), or raise OptionError with
    one line saying why not."""
    dialect = PostgreSQL(str(db)) if is_postgres_url(db) else SQLite(db)
    try:
        conn = dialect.connect()
        try:
            dialect.prepare(conn)
        finally:
            conn.close()
    except dialect.errors as exc:
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise OptionError(f"--db {shown(db)}: cannot open the database ({reason})") from None


class SQLite:
    """An SQLite file in WAL mode; `synchronous` FULL survives power loss, NORMAL a crash."""

    name = "sqlite"
    shared = False  # one server process owns the file
    errors: tuple[type[BaseException], ...] = (sqlite3.Error,)
    begin = "BEGIN IMMEDIATE"
    row_id = "rowid"  # a row's own id, for deleting all but some rows of a key

    def __init__(self, path: str | Path, synchronous: str = "FULL") -> None:
        self.path = str(path)
        self.synchronous = synchronous
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)

    def connect(self) -> Any:
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute(f"PRAGMA synchronous={self.synchronous}")
        conn.execute("PRAGMA busy_timeout=5000")
        return conn

    def prepare(self, conn: Any) -> None:
        conn.executescript(SQLITE_SCHEMA)
        info = list(conn.execute("PRAGMA table_info(tables)"))
        if any(row[1] == "seed" and row[2].upper() != "TEXT" for row in info):
            _sqlite_seed_as_text(conn, info)
            conn.executescript(SQLITE_SCHEMA)  # the indexes went with the old table
        columns = {row[1] for row in conn.execute("PRAGMA table_info(tables)")}
        for name, sqlite_type, _ in ADDED_COLUMNS:
            if name not in columns:
                conn.execute(f"ALTER TABLE tables ADD COLUMN {name} {sqlite_type}")
                if name in FILLED_WHEN_ADDED:
                    conn.execute(f"UPDATE tables SET {name} = {FILLED_WHEN_ADDED[name]}")
        for statement in ADDED_INDEXES:
            conn.execute(statement)

    @staticmethod
    def in_transaction(conn: Any) -> bool:
        return conn.in_transaction


class PostgreSQL:
    """A PostgreSQL database by URL (`postgresql://user@host/dbname`), through psycopg 3."""

    name = "postgresql"
    shared = True  # several server processes may serve the same database
    begin = "BEGIN"
    row_id = "ctid"  # a row's own id, for deleting all but some rows of a key

    def __init__(self, url: str) -> None:
        try:
            import psycopg
        except ImportError:
            raise OptionError(
                "--db postgresql://...: needs psycopg (pip install 'robotable[postgres]')"
            ) from None
        self.url = url
        self._psycopg = psycopg
        self.errors = (psycopg.Error,)

    def connect(self) -> Any:
        conn = self._psycopg.connect(self.url, autocommit=True)
        return _Connection(conn)

    def prepare(self, conn: Any) -> None:
        # Several server processes may start at once: one creates, the others wait for it.
        conn.execute("SELECT pg_advisory_lock(7242351)")
        try:
            for statement in POSTGRES_SCHEMA:
                conn.execute(statement)
            types = dict(
                conn.execute(
                    "SELECT column_name, data_type FROM information_schema.columns"
                    " WHERE table_schema = current_schema() AND table_name = 'tables'"
                ).fetchall()
            )
            if types.get("seed") != "text":  # a BIGINT seed from before 128-bit seeds
                conn.execute("ALTER TABLE tables ALTER COLUMN seed TYPE TEXT USING seed::text")
            for name, _, pg_type in ADDED_COLUMNS:
                conn.execute(f"ALTER TABLE tables ADD COLUMN IF NOT EXISTS {name} {pg_type}")
                if name not in types and name in FILLED_WHEN_ADDED:
                    conn.execute(f"UPDATE tables SET {name} = {FILLED_WHEN_ADDED[name]}")
            for statement in ADDED_INDEXES:
                conn.execute(statement)
        finally:
            conn.execute("SELECT pg_advisory_unlock(7242351)")

    def in_transaction(self, conn: Any) -> bool:
        status = conn.raw.info.transaction_status
        return status != self._psycopg.pq.TransactionStatus.IDLE


def _sqlite_seed_as_text(conn: Any, info: list[tuple]) -> None:
    """Make the tables table's seed column TEXT, keeping every row and column. SQLite cannot
    change a column's type, and an INTEGER column turns a 128-bit seed into a float: so a new
    table with the same columns is made, filled, and renamed in place of the old one, in one
    transaction (SQLite's documented way to change a table's shape)."""
    columns, names, values = [], [], []
    for _, name, sql_type, notnull, default, primary in info:
        parts = [name, "TEXT" if name == "seed" else sql_type]
        parts += ["PRIMARY KEY"] if primary else []
        parts += ["NOT NULL"] if notnull else []
        parts += [f"DEFAULT {default}"] if default is not None else []
        columns.append(" ".join(parts))
        names.append(name)
        values.append("CAST(seed AS TEXT)" if name == "seed" else name)
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute(f"CREATE TABLE tables_seed_text ({', '.join(columns)})")
        conn.execute(
            f"INSERT INTO tables_seed_text ({', '.join(names)})"
            f" SELECT {', '.join(values)} FROM tables"
        )
        conn.execute("DROP TABLE tables")
        conn.execute("ALTER TABLE tables_seed_text RENAME TO tables")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


@lru_cache(maxsize=256)
def _psycopg_style(sql: str) -> str:
    """The store's `?` parameter markers as psycopg's `%s` (no `?` appears in its SQL
    otherwise; a literal `%` is doubled)."""
    return sql.replace("%", "%%").replace("?", "%s")


class _Connection:
    """A psycopg connection that takes the store's SQL as written for SQLite."""

    __slots__ = ("raw",)

    def __init__(self, raw: Any) -> None:
        self.raw = raw

    def execute(self, sql: str, params: tuple | list = ()) -> Any:
        return self.raw.execute(_psycopg_style(sql), params)

    def close(self) -> None:
        self.raw.close()
