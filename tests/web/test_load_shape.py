"""What keeps 1,000 tables from stalling, checked by counting, never by timing (issue 77 point 9).

The load test's p99 at 1,000 tables came from stop-the-world garbage collections, not from the
average move: every table built its own Game (a thousand objects each), so the first collection
of the younger generations during play walked a million objects while every table waited. These
tests fail if work that should be done once comes back per table, per watcher or per
connection: the same Game for tables configured alike, a step's frame built once per seat
whatever the watchers, limits whose bookkeeping does not grow with the clients.
"""

from __future__ import annotations

import asyncio
import gc
import sqlite3

import pytest

from robotable import load_game
from robotable.server.connections import OUTBOX_LIMIT, Watcher
from robotable.server.database import SQLite
from robotable.server.limits import RateLimiter, SocketRate
from robotable.server.table import TABLE_GAMES, load_table_game

from .conftest import create_table
from .test_security_wire import GAMES, Served, _app, _until_closed

HUMANS = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}]


def _live(client, table: dict):
    return client.app.state.tables.live[table["id"]]


# -- one Game for tables configured alike ---------------------------------------------------------
def test_tables_configured_alike_share_one_game(client):
    options = {"max_turns": 187}  # a configuration no other test builds: a fresh key
    built = TABLE_GAMES.built
    tables = [create_table(client, "stakbots", HUMANS, options=options) for _ in range(5)]
    games = {id(_live(client, t).game) for t in tables}
    assert len(games) == 1
    assert TABLE_GAMES.built == built + 1  # built for the first table only
    other = create_table(client, "stakbots", HUMANS, options={"max_turns": 188})
    assert id(_live(client, other).game) not in games
    # The game is the table's configuration: each table still has its own position.
    states = {id(_live(client, t).state) for t in tables}
    assert len(states) == len(tables)


def test_a_restarted_table_shares_the_game_of_the_new_ones():
    first = load_table_game("stakbots", 2, {"max_turns": 189}, "1")
    assert load_table_game("stakbots", 2, {"max_turns": 189}, "1") is first
    assert load_table_game("stakbots", 2, {"max_turns": 189}) is not first  # current version
    assert load_table_game("stakbots", 3, {"max_turns": 189}, "1") is not first


def test_the_shared_games_are_bounded():
    # Inline content from strangers makes a new configuration each time: the games kept are the
    # most recently used `kept`, never all of them.
    kept = TABLE_GAMES.kept
    for n in range(kept + 10):
        key = TABLE_GAMES.key("stakbots", 2, {"max_turns": 1000 + n})
        TABLE_GAMES.put(key, load_game("stakbots", num_players=2, max_turns=1000 + n))
    assert len(TABLE_GAMES._games) <= kept


def test_a_live_table_costs_the_collector_far_less_than_a_game(client):
    """What a garbage collection walks grows by a table's own objects (its position, seats, row,
    lock), not by a Game per table."""
    create_table(client, "stakbots", HUMANS, options={"max_turns": 190})  # the game, built once
    gc.collect()
    before = len(gc.get_objects())
    game = load_game("stakbots", num_players=2, max_turns=191)
    gc.collect()
    per_game = len(gc.get_objects()) - before
    del game
    gc.collect()
    before = len(gc.get_objects())
    count = 15  # within the open tables one address may have (20)
    for _ in range(count):
        create_table(client, "stakbots", HUMANS, options={"max_turns": 190})
    gc.collect()
    per_table = (len(gc.get_objects()) - before) / count
    assert per_table < per_game / 2, (per_table, per_game)


# -- a step's frames: once per seat, whatever the watchers ----------------------------------------
def test_a_steps_frames_are_built_once_per_seat_whatever_the_watchers(client, monkeypatch):
    """Counted at the server's own seams (the frame's serialization and its worded entry), not
    on the game's state: the compiled engine's types cannot be patched."""
    from robotable.server import table as table_module

    table = create_table(client, "stakbots", HUMANS, options={"max_turns": 190})
    live = _live(client, table)
    serialized: list[str] = []
    worded: list[int | None] = []
    dumps, entry = table_module._dumps, type(live).entry

    def counting_dumps(frame):
        text = dumps(frame)
        if isinstance(frame, dict) and frame.get("type") == "update":
            serialized.append(text)
        return text

    def counting_entry(self, number, step, seat):
        worded.append(seat)
        return entry(self, number, step, seat)

    watchers = [Watcher(seat, None) for seat in (0, 1, 0, 1, None, None, None, None, None, None)]
    live.watchers.update(watchers)  # both seats in two tabs each, and six spectators
    monkeypatch.setattr(table_module, "_dumps", counting_dumps)
    monkeypatch.setattr(type(live), "entry", counting_entry)

    async def move() -> None:
        seat = live.state.current_player()
        await client.app.state.tables.play(live, seat, index=0)

    client.portal.call(move)
    assert len(serialized) == 3  # one frame for each seat and one for the spectators
    assert sorted(worded, key=str) == sorted([0, 1, None], key=str)
    assert all(len(w.outbox) == 1 for w in watchers)  # every watcher has its frame
    by_seat = {w.seat: w.outbox[0] for w in watchers}
    assert all(w.outbox[0] is by_seat[w.seat] for w in watchers)  # the same frame, shared
    live.watchers.difference_update(watchers)


# -- limits whose bookkeeping does not grow with the clients -------------------------------------
def test_the_rate_limiters_sweep_is_amortized_over_its_clients(monkeypatch):
    """Past `max_keys` clients that have not refilled, a sweep at every request walked every
    client every time: O(clients) a request. Sweeps now come each time the map has doubled."""
    now = [0.0]
    limiter = RateLimiter(6, clock=lambda: now[0], max_keys=100)
    sweeps = []
    forget = limiter._forget_full

    def counting(at: float) -> None:
        sweeps.append(len(limiter._buckets))
        forget(at)

    monkeypatch.setattr(limiter, "_forget_full", counting)
    clients = 10_000
    for n in range(clients):
        assert limiter.take(f"10.{n // 65536}.{n // 256 % 256}.{n % 256}") is None
    assert len(sweeps) <= 8  # log2(10,000 / 100) + 1, not 9,900
    assert sum(sweeps) <= 4 * clients  # the keys walked, in all: O(1) a request
    now[0] += 3600  # every client refilled: the next sweep forgets them all
    for n in range(2 * len(limiter._buckets)):
        limiter.take(f"192.168.{n // 256}.{n % 256}")
    assert len(limiter._buckets) <= 2 * clients


def test_a_websockets_rates_are_one_small_object():
    """Every socket has its rates: two numbers a bucket, no map of keys per socket."""
    now = [0.0]
    rate = SocketRate(60, 3, 600, 100, clock=lambda: now[0])
    assert not hasattr(rate, "__dict__")
    assert [rate.take(10) for _ in range(4)] == [True, True, True, False]  # the message burst
    now[0] += 1.0  # one message a second comes back
    assert rate.take(10) and not rate.take(10)
    now[0] += 60.0
    assert rate.take(100) and not rate.take(1)  # the byte burst, spent at once
    now[0] += 0.1  # 1 byte back: not enough for 5, nothing spent
    assert not rate.take(5)
    now[0] += 0.4  # 5 bytes back in all
    assert rate.take(5)


def test_an_addresss_open_tables_are_counted_by_an_index(tmp_path):
    """Each new table counts its creator's open tables (--max-open-per-address): by an index,
    not by walking every open table."""
    dialect = SQLite(tmp_path / "tables.sqlite3")
    conn = dialect.connect()
    try:
        dialect.prepare(conn)
        plan = conn.execute(
            "EXPLAIN QUERY PLAN SELECT COUNT(*) FROM tables"
            " WHERE result IS NULL AND abandoned IS NULL AND creator = ?",
            ("x",),
        ).fetchall()
    finally:
        conn.close()
    assert any("USING INDEX tables_open_by_creator (creator=?)" in row[-1] for row in plan), plan


def test_the_index_is_made_on_a_database_from_before_the_creator_column(tmp_path):
    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path)
    old.execute(
        "CREATE TABLE tables (id TEXT PRIMARY KEY, game TEXT NOT NULL, version TEXT NOT NULL,"
        " num_players INTEGER NOT NULL, options TEXT NOT NULL, seed TEXT NOT NULL,"
        " seats TEXT NOT NULL, created REAL NOT NULL, updated REAL NOT NULL, result TEXT)"
    )
    old.commit()
    old.close()
    dialect = SQLite(path)
    conn = dialect.connect()
    try:
        dialect.prepare(conn)
        indexes = {row[1] for row in conn.execute("PRAGMA index_list(tables)")}
    finally:
        conn.close()
    assert "tables_open_by_creator" in indexes


def test_a_peers_connections_are_not_walked_at_each_connection(served):
    """The cap per peer address looks at a peer's connections only when it reaches the cap
    (pruning the closed ones), not at each new connection: that was O(connections) each."""
    server = served(header_seconds=30, body_seconds=30, max_per_address=1000, trusted_proxies=[])
    protocol = server.server.config.http_protocol_class
    held = [server.connect(b"GET /api/games HTTP/1.1\r\nHost: 127.0") for _ in range(30)]
    assert _until_closed(server.connect(GAMES)).startswith(b"HTTP/1.1 200 ")
    assert protocol.walked == 0
    for sock in held:
        sock.close()


def test_a_peer_at_its_cap_is_pruned_then_refused(served):
    server = served(header_seconds=30, body_seconds=30, max_per_address=3, trusted_proxies=[])
    protocol = server.server.config.http_protocol_class
    held = [server.connect(b"GET /api/games HTTP/1.1\r\nHost: 127.0") for _ in range(3)]
    answer = _until_closed(server.connect())
    assert answer.startswith(b"HTTP/1.1 503 ")
    assert 3 <= protocol.walked <= 4  # the peer's connections, looked at once
    for sock in held:
        sock.close()


# -- a watcher's outbox ---------------------------------------------------------------------------
def test_a_watchers_frames_go_out_in_order_and_an_idle_one_waits_on_one_future():
    async def scenario() -> tuple[list[str], bool]:
        sent: list[str] = []

        async def send(frame: str) -> None:
            sent.append(frame)

        watcher = Watcher(0, send)
        task = asyncio.ensure_future(watcher.pump())
        for i in range(3):
            watcher.push(f"frame {i}")
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        idle = isinstance(watcher._wake, asyncio.Future) and not watcher.outbox
        watcher.push("frame 3")
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        task.cancel()
        return sent, idle

    sent, idle = asyncio.run(scenario())
    assert sent == [f"frame {i}" for i in range(4)]
    assert idle


def test_a_watcher_past_its_outbox_is_dropped_and_its_pump_ends():
    async def scenario() -> list[str]:
        sent: list[str] = []

        async def send(frame: str) -> None:
            sent.append(frame)

        watcher = Watcher(0, send)
        task = asyncio.ensure_future(watcher.pump())
        await asyncio.sleep(0)  # the pump waits
        for i in range(OUTBOX_LIMIT + 1):
            watcher.push(f"frame {i}")
        await asyncio.wait_for(task, timeout=5)  # the overflow told it to stop
        watcher.push("after")  # ignored: the connection is being closed
        return sent

    assert asyncio.run(scenario()) == []


@pytest.fixture
def served(tmp_path):
    servers = []

    def serve(**guard):
        app = _app(tmp_path, allowed_hosts=["127.0.0.1"], body_seconds=0.05)
        servers.append(Served(app, **guard))
        return servers[-1]

    yield serve
    for server in servers:
        server.stop()
