"""Security: deals nobody can search or choose for others, and a lobby one address cannot fill.

Issue 77, round two. Table seeds were 31 bits and the deal a function of the seed: from its first
view alone a seat searched every seed in 82 s on two cores, left four candidates, and read the
opponent's hand and the supply order from them. A host could also choose the seed of a table
with an open seat and know a stranger's hand. And one address could hold `--max-tables` for
72 hours with tables nobody ever joined.

How long a search takes now. A table seed has 128 random bits (`secrets`), and the deal depends
on it through the 64-bit state of the game's GameRng, which every bit of the seed reaches
(`fold_seed`: the XOR of its 64-bit words, uniform when the words are). A seat that searches
for the deals fitting what it sees must try the states, not the seeds: 2**64 = 1.8e19 of them.
The measured rate of the attack was 26 million setups a second on two cores, so
1.8e19 / 2.6e7 = 7.1e11 s, about 22,500 years (and 2**128 seeds would be 4e23 years). The
undo's reseed secrets are 63 bits: 2**63 determinizations, about 11,000 years at that rate.
"""

from __future__ import annotations

import json
import sqlite3

import pytest
from starlette.testclient import TestClient

from robotable.core.registry import bundled_game_names, load_game
from robotable.core.rng import GameRng, fold_seed
from robotable.server.app import create_app
from robotable.server.limits import ServerLimits
from robotable.server.rooms import TABLE_SEED_BITS
from robotable.server.store import Store, hash_address

from .conftest import SeatClient
from .test_security_limits import Clock

ADA, BO = {"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}
OPEN = {"kind": "human", "open": True}
AI = {"kind": "ai", "ai": "random"}
GAMES = bundled_game_names()
BIG_SEED = (1 << 127) + 0x1234_5678_9ABC_DEF0_0FED_CBA9_8765_4321


def _app(db, clock=None, **limits):
    limits.setdefault("creates_per_minute", 1_000_000)
    return create_app(
        db, ai_delay=0, synchronous="NORMAL", limits=ServerLimits(**limits), clock=clock or Clock()
    )


def _body(seats, **extra):
    return {"game": "countdown", "num_players": len(seats), "seats": seats, **extra}


def _listed(client, table_id):
    return next(t for t in client.get("/api/tables").json()["playing"] if t["id"] == table_id)


# -- deals nobody can search --------------------------------------------------------------------
def test_table_seeds_are_128_random_bits_and_secret(tmp_path):
    """31-bit seeds no more. Eight drawn seeds all of at most 120 bits would happen once in
    2**64 tries with 128 random bits, and always with 31 or 63."""
    assert TABLE_SEED_BITS >= 128
    with TestClient(_app(tmp_path / "t.sqlite3")) as client:
        ids = [client.post("/api/tables", json=_body([ADA, BO])).json()["id"] for _ in range(8)]
        store = client.app.state.tables.store
        seeds = [store.load_table(table_id).seed for table_id in ids]
        assert len(set(seeds)) == 8 and all(0 <= s < 2**128 for s in seeds)
        assert max(s.bit_length() for s in seeds) > 120
        # The store keeps them whole, and nobody is told a drawn seed before the game is over.
        assert [client.app.state.tables.live[i].row.seed for i in ids] == seeds
        assert client.get(f"/api/tables/{ids[0]}").json()["seed"] is None
        assert _listed(client, ids[0])["seeded"] is False
        ada = SeatClient(client, ids[0], None)
        assert str(seeds[0]) not in json.dumps(ada.state)
        ada.close()


@pytest.mark.parametrize("game", GAMES)
def test_every_bit_of_a_seed_reaches_the_deal(game):
    """Seeds that differ only above bit 64 give different GameRng states and different first
    views: a search must cover all 2**64 states."""
    rules = load_game(game)
    differ = 0
    for x in range(4):
        seed = BIG_SEED + 7919 * x
        for bit in (64, 100, 127):
            twin = seed ^ (1 << bit)
            assert GameRng(seed).state != GameRng(twin).state
        first = rules.new_initial_state(seed=seed).view(0)
        other = rules.new_initial_state(seed=seed ^ (1 << 100)).view(0)
        differ += json.dumps(first, sort_keys=True) != json.dumps(other, sort_keys=True)
    assert differ >= 1


def test_seeds_below_2_64_keep_their_state_so_old_records_replay():
    for seed in (0, 1, 7, 2**31 - 1, 2**63 + 5, 2**64 - 1):
        assert GameRng(seed).state == seed == fold_seed(seed)
    assert GameRng(-1).state == 2**64 - 1  # as `seed & MASK` always gave
    assert fold_seed((3 << 64) | 5) == 3 ^ 5
    assert fold_seed((1 << 128) | (2 << 64) | 4) == 1 ^ 2 ^ 4


# -- the host does not choose the deal of a stranger -------------------------------------------
def test_a_chosen_seed_is_refused_with_an_open_seat(tmp_path):
    with TestClient(_app(tmp_path / "t.sqlite3")) as client:
        refused = client.post("/api/tables", json=_body([ADA, OPEN], seed=5))
        assert refused.status_code == 400
        error = refused.json()["error"]
        assert "\n" not in error and "seed" in error and "seat 2 is open" in error
        assert client.get("/api/tables").json()["playing"] == []


def test_a_chosen_seed_is_accepted_with_every_seat_held_and_shown_to_all(tmp_path):
    with TestClient(_app(tmp_path / "t.sqlite3")) as client:
        table = client.post("/api/tables", json=_body([ADA, BO], seed=BIG_SEED)).json()
        meta = client.get(f"/api/tables/{table['id']}").json()
        assert meta["seed"] == str(BIG_SEED)  # as text: exact in a browser too
        assert _listed(client, table["id"])["seeded"] is True
        for seat in table["seats"]:
            watcher = SeatClient(client, table["id"], seat["token"])
            assert watcher.state["table"]["seed"] == str(BIG_SEED)
            watcher.close()
        assert client.app.state.tables.store.load_table(table["id"]).seed == BIG_SEED
        with_ai = client.post("/api/tables", json=_body([ADA, AI], seed=3))
        assert with_ai.status_code == 201
        assert _listed(client, with_ai.json()["id"])["seeded"] is True


# -- the lobby: a cap per address, empty tables given up in minutes ----------------------------
def test_one_address_may_hold_only_so_many_open_tables(tmp_path):
    clock = Clock()
    app = _app(tmp_path / "t.sqlite3", clock, max_open_per_address=3, max_tables=100)
    with TestClient(app, client=("203.0.113.7", 5000)) as client:
        made = [client.post("/api/tables", json=_body([ADA, BO])) for _ in range(3)]
        assert [response.status_code for response in made] == [201, 201, 201]
        refused = client.post("/api/tables", json=_body([ADA, BO]))
        assert refused.status_code == 429
        assert refused.json()["error"] == (
            "this address has its most open tables (3); try again when some have finished"
        )
        # Another address is not held back by this one.
        other = TestClient(app, client=("198.51.100.9", 5000))
        assert other.post("/api/tables", json=_body([ADA, BO])).status_code == 201
        store = client.app.state.tables.store
        assert store.count_open(hash_address("203.0.113.7")) == 3
        # The address is stored hashed, never as it is.
        creator = store.load_table(made[0].json()["id"]).creator
        assert creator == hash_address("203.0.113.7") and "203.0.113" not in creator
        # Empty tables are given up after minutes, and then no longer count.
        clock.now += 11 * 60
        assert len(client.portal.call(client.app.state.tables.expire_idle)) == 4
        assert client.post("/api/tables", json=_body([ADA, BO])).status_code == 201


def test_empty_tables_are_given_up_after_minutes_and_started_ones_are_not(tmp_path):
    clock = Clock()
    db = tmp_path / "t.sqlite3"
    with TestClient(_app(db, clock, empty_minutes=10, idle_hours=72)) as client:
        tables = client.app.state.tables
        empty = client.post("/api/tables", json=_body([ADA, BO])).json()
        unclaimed = client.post("/api/tables", json=_body([ADA, OPEN])).json()
        connected = client.post("/api/tables", json=_body([ADA, BO])).json()
        claimed = client.post("/api/tables", json=_body([ADA, OPEN])).json()
        started = client.post("/api/tables", json=_body([ADA, BO])).json()
        SeatClient(client, connected["id"], connected["seats"][0]["token"]).close()
        spectator = SeatClient(client, empty["id"], None)  # watching is not joining
        spectator.close()
        taken = client.post(f"/api/tables/{claimed['id']}/seats/2/claim", json={"name": "Cy"})
        assert taken.status_code == 201
        ada = SeatClient(client, started["id"], started["seats"][0]["token"])
        ada.send({"type": "act", "id": 1, "index": 0, "step": 0})
        assert ada.until(lambda f: f["type"] in ("ack", "error"))["type"] == "ack"
        ada.close()
        clock.now += 9 * 60
        assert client.portal.call(tables.expire_idle) == []
        clock.now += 2 * 60
        assert sorted(client.portal.call(tables.expire_idle)) == sorted(
            [empty["id"], unclaimed["id"]]
        )
        assert client.get(f"/api/tables/{empty['id']}").json()["abandoned"] is True
        kept = {t["id"] for t in client.get("/api/tables").json()["playing"]}
        assert kept == {connected["id"], claimed["id"], started["id"]}
        # A table someone joined keeps the idle hours of a game in play.
        clock.now += 71 * 3600
        assert client.portal.call(tables.expire_idle) == []
        clock.now += 2 * 3600
        assert len(client.portal.call(tables.expire_idle)) == 3
    # AI seats alone wait for nobody: a table of them is never an empty one.
    with TestClient(_app(db, clock)) as client:
        robots = client.post("/api/tables", json=_body([AI, AI])).json()
        assert client.app.state.tables.store.load_table(robots["id"]).joined == clock.now
    # The joining is stored: a restart does not take a joined table for an empty one.
    with TestClient(_app(db, clock)) as client:
        assert client.app.state.tables.store.load_table(connected["id"]).joined is not None


# -- the store keeps 128-bit seeds, and migrates databases from before them ---------------------
def _old_sqlite(db) -> None:
    """The tables table as it was before 128-bit seeds: an INTEGER seed, no creator/joined."""
    conn = sqlite3.connect(db)
    conn.execute(
        "CREATE TABLE tables (id TEXT PRIMARY KEY, game TEXT NOT NULL, version TEXT NOT NULL,"
        " num_players INTEGER NOT NULL, options TEXT NOT NULL, seed INTEGER NOT NULL,"
        " seats TEXT NOT NULL, created REAL NOT NULL, updated REAL NOT NULL, result TEXT,"
        " abandoned REAL, rematch TEXT, clock TEXT, hints INTEGER)"
    )
    conn.execute("CREATE INDEX tables_by_result ON tables(result IS NULL, updated)")
    seats = json.dumps([{"kind": "human", "name": n, "ai": None, "token_hash": None} for n in "AB"])
    conn.execute(
        "INSERT INTO tables VALUES ('old', 'countdown', '1', 2, '{\"pile\": 21}', ?, ?, 1,"
        " 999999, NULL, NULL, NULL, NULL, 1)",
        (2**63 - 7, seats),
    )
    conn.commit()
    conn.close()


def test_an_sqlite_database_with_integer_seeds_is_migrated(tmp_path):
    db = tmp_path / "t.sqlite3"
    _old_sqlite(db)
    clock = Clock()
    with TestClient(_app(db, clock)) as client:
        tables = client.app.state.tables
        old = tables.store.load_table("old")
        assert old.seed == 2**63 - 7 and old.joined == 1  # a table from before counts as joined
        assert "old" in tables.live  # resumed, not taken for an empty table
        clock.now += 3600
        assert client.portal.call(tables.expire_idle) == []
        table = client.post("/api/tables", json=_body([ADA, BO], seed=BIG_SEED)).json()
    conn = sqlite3.connect(db)
    types = {row[1]: row[2] for row in conn.execute("PRAGMA table_info(tables)")}
    stored = conn.execute("SELECT seed, typeof(seed) FROM tables WHERE id = ?", (table["id"],))
    indexes = [row[1] for row in conn.execute("PRAGMA index_list(tables)")]
    assert types["seed"] == "TEXT" and stored.fetchone() == (str(BIG_SEED), "text")
    assert "tables_by_result" in indexes
    conn.close()
    store = Store(db, synchronous="NORMAL")  # a second start finds nothing left to migrate
    try:
        assert store.load_table(table["id"]).seed == BIG_SEED
        assert store.load_table("old").seed == 2**63 - 7
    finally:
        store.close()


def test_postgresql_keeps_128_bit_seeds_and_migrates_bigint_ones(postgres_url):
    import psycopg

    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute(
            "CREATE TABLE tables (id TEXT PRIMARY KEY, game TEXT NOT NULL, version TEXT NOT NULL,"
            " num_players INTEGER NOT NULL, options TEXT NOT NULL, seed BIGINT NOT NULL,"
            " seats TEXT NOT NULL, created DOUBLE PRECISION NOT NULL,"
            " updated DOUBLE PRECISION NOT NULL, result TEXT, abandoned DOUBLE PRECISION,"
            " rematch TEXT, clock TEXT, hints INTEGER)"
        )
        seats = json.dumps([{"kind": "human", "name": n, "ai": None} for n in "AB"])
        conn.execute(
            "INSERT INTO tables VALUES ('old', 'countdown', '1', 2, '{\"pile\": 21}', %s, %s,"
            " 1, 999999, NULL, NULL, NULL, NULL, 1)",
            (2**63 - 7, seats),
        )
    clock = Clock()
    limits = ServerLimits(max_open_per_address=2)
    app = create_app(postgres_url, ai_delay=0, limits=limits, clock=clock)
    with TestClient(app) as client:
        tables = client.app.state.tables
        old = tables.store.load_table("old")
        assert old.seed == 2**63 - 7 and old.joined == 1
        table = client.post("/api/tables", json=_body([ADA, BO], seed=BIG_SEED)).json()
        assert tables.store.load_table(table["id"]).seed == BIG_SEED
        assert client.get(f"/api/tables/{table['id']}").json()["seed"] == str(BIG_SEED)
        assert _listed(client, table["id"])["seeded"] is True
        drawn = client.post("/api/tables", json=_body([ADA, BO])).json()
        assert client.post("/api/tables", json=_body([ADA, BO])).status_code == 429
        clock.now += 11 * 60
        assert sorted(client.portal.call(tables.expire_idle)) == sorted([table["id"], drawn["id"]])
    with psycopg.connect(postgres_url) as conn:
        (seed_type,) = conn.execute(
            "SELECT data_type FROM information_schema.columns"
            " WHERE table_name = 'tables' AND column_name = 'seed'"
        ).fetchone()
    assert seed_type == "text"
