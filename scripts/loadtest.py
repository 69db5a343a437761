"""Load benchmark of the web table (a benchmark, not a test).

Starts one `robotable serve` process on a fresh database, opens N tables whose every seat is a
bot client on a websocket, and plays them all at once to the end. A bot picks a random legal
action from its own view (no thinking), so the time from sending an action to its acknowledgement
is the server's move latency alone: schema check, legality, apply, SQLite commit (synchronous
FULL, group commit), and the frames to every seat. Reports p50/p90/p99/max latency, errors,
throughput and the server's memory.

    .venv/bin/python scripts/loadtest.py --tables 200 --game stakbots
    .venv/bin/python scripts/loadtest.py --tables 1000 --compare a324f5a   # before and after
    .venv/bin/python scripts/loadtest.py --tables 1000 --compare 257454c,HEAD  # two references

`--compare REF` first runs the server of an older commit (from a temporary git worktree) with
the same bots, then this checkout's, so both figures come from one run on one machine; several
references (`--compare A,B`, or the flag twice) run in the order given, and a last table sets
each run's figures beside the first reference's. Each run's bots are a fresh process.
`--backend sqlite,postgres --processes 1,2` runs each combination in turn in one run (PostgreSQL:
a throw-away cluster of Debian's postgresql, as the tests start; several processes share its
database, each table's seats spread over them):

    .venv/bin/python scripts/loadtest.py --tables 200 --backend sqlite,postgres --processes 1,2
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import contextlib
import gc
import json
import multiprocessing
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import orjson
from websockets.asyncio.client import connect


def start_server(db: Path, extra: list[str], src: Path | None) -> tuple[subprocess.Popen, str]:
    """`robotable serve` on a free port; `src`: run the robotable found there instead."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    if src is not None:
        env["PYTHONPATH"] = str(src)
    proc = subprocess.Popen(
        [sys.executable, "-m", "robotable.cli", "serve", "--port", "0", "--db", str(db)]
        + ["--ai-delay", "0", *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    for line in proc.stdout:
        if line.startswith("Open http://"):
            return proc, line.split()[1].rstrip("/")
    raise SystemExit("the server exited before listening")


def serve_flags(src: Path | None) -> set[str]:
    """The options `robotable serve` takes in this checkout, or in the one at `src`."""
    env = {**os.environ, "COLUMNS": "300"}
    if src is not None:
        env["PYTHONPATH"] = str(src)
    help_text = subprocess.run(
        [sys.executable, "-m", "robotable.cli", "serve", "--help"],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    ).stdout
    return set(re.findall(r"--[a-z][a-z-]+", help_text))


def memory_kib(pid: int) -> dict[str, int]:
    """Resident and peak resident memory of a process, from /proc (Linux)."""
    out = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                out[key] = int(value.split()[0])
    return out


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used, from /proc (Linux)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextlib.contextmanager
def reference_checkout(ref: str) -> Iterator[Path]:
    """The `src` folder of commit `ref` in a temporary git worktree, removed afterwards."""
    root = Path(__file__).resolve().parents[1]
    folder = Path(tempfile.mkdtemp(prefix="robotable-ref-"))
    subprocess.run(
        ["git", "-C", str(root), "worktree", "add", "--detach", "-q", str(folder), ref], check=True
    )
    try:
        yield folder / "src"
    finally:
        subprocess.run(["git", "-C", str(root), "worktree", "remove", "--force", str(folder)])


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.when: list[float] = []  # perf_counter at each acknowledgement (for --timeline)
        self.errors: list[str] = []
        self.finished = 0
        self.moves = 0


async def seat_bot(
    base: str, table_id: str, token: str, seed: int, stats: Stats, think: float
) -> None:
    rng = random.Random(seed)
    url = base.replace("http://", "ws://") + f"/ws/tables/{table_id}"
    async with connect(url, max_size=None, open_timeout=60) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        view: dict | None = None
        step = 0
        sent_at: float | None = None
        async for text in ws:
            frame = orjson.loads(text)
            kind = frame["type"]
            if kind in ("state", "update"):
                view, step = frame["view"], frame["step"]
            elif kind == "ack":
                now = time.perf_counter()
                stats.latencies.append(now - sent_at)
                stats.when.append(now)
                stats.moves += 1
                sent_at = None
            elif kind == "error":
                stats.errors.append(frame["message"])
                sent_at = None
            else:
                continue
            if view is None:
                continue
            if view["terminal"]:
                if kind == "state":  # the full frame that follows the last update
                    stats.finished += 1
                    return
                continue
            legal = view["legal_actions"]
            if legal and sent_at is None:
                choice = rng.randrange(len(legal))
                if think > 0:
                    # The AI's thinking and the streaming pause: outside the measured latency.
                    await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "index": choice, "step": step}))


async def run(
    args: argparse.Namespace,
    src: Path | None = None,
    label: str = "",
    db: str | None = None,
    processes: int = 1,
) -> dict[str, float]:
    # The bot clients' own garbage collections would stall every bot at once and count as
    # server latency; collect rarely here, as the server does (robotable serve tunes its GC).
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)
    tmp = Path(tempfile.mkdtemp(prefix="robotable-load-"))
    extra = ["--ai-workers", "0"] + ([] if args.fsync else ["--no-fsync"])
    # Every bot connects from this machine's one address: lift the limits a host sets on one
    # address, each only where the server being measured has it (an older commit may not).
    lifted = {
        "--creates-per-minute": "1000000",
        "--max-tables": "1000000",
        "--max-open-per-address": "1000000",
        "--max-per-address": "1000000",
        "--max-connections": "1000000",
    }
    known = serve_flags(src)
    extra += [part for flag, value in lifted.items() if flag in known for part in (flag, value)]
    servers = [start_server(db or tmp / "tables.sqlite3", extra, src) for _ in range(processes)]
    proc, base = servers[0]
    bases = [b for _, b in servers]
    try:
        async with httpx.AsyncClient(base_url=base, timeout=60) as http:
            info = next(
                g for g in (await http.get("/api/games")).json()["games"] if g["name"] == args.game
            )
            seats = args.seats or info["min_players"]
            tables = []
            for i in range(args.tables):
                response = await http.post(
                    "/api/tables",
                    json={
                        "game": args.game,
                        "num_players": seats,
                        "seats": [{"kind": "human", "name": f"bot {s}"} for s in range(seats)],
                        "seed": args.seed + i,
                    },
                )
                response.raise_for_status()
                tables.append(response.json())
        stats = Stats()
        before = memory_kib(proc.pid)
        cpu_before = sum(cpu_seconds(p.pid) for p, _ in servers)
        client_before = cpu_seconds(os.getpid())
        started = time.perf_counter()
        # With several processes, a table's seats talk to different ones: every move crosses.
        bots = [
            seat_bot(
                bases[(i + s["seat"]) % len(bases)],
                t["id"],
                s["token"],
                args.seed * 1000 + i * 10 + s["seat"],
                stats,
                args.think,
            )
            for i, t in enumerate(tables)
            for s in t["seats"]
        ]
        results = await asyncio.gather(*bots, return_exceptions=True)
        elapsed = time.perf_counter() - started
        failures = [r for r in results if isinstance(r, BaseException)]
        after = memory_kib(proc.pid)
        server_cpu = sum(cpu_seconds(p.pid) for p, _ in servers) - cpu_before
        client_cpu = cpu_seconds(os.getpid()) - client_before
        load = os.getloadavg()[0]
    finally:
        for server, _ in servers:
            server.send_signal(signal.SIGTERM)
        for server, _ in servers:
            server.wait(timeout=30)
        shutil.rmtree(tmp, ignore_errors=True)
    lat = sorted(stats.latencies)

    def pct(p: float) -> float:
        return lat[min(len(lat) - 1, int(p / 100 * len(lat)))] * 1000 if lat else float("nan")

    print(
        f"{label}game {args.game}, {args.tables} tables x {seats} seats, "
        f"{processes} server process{'es' if processes > 1 else ''}, "
        f"think {args.think} s, fsync {'on' if args.fsync else 'off'}"
    )
    print(f"tables finished: {stats.finished // seats}/{args.tables}, moves: {stats.moves}")
    print(f"wall time {elapsed:.1f} s, {stats.moves / elapsed:.0f} moves/s")
    print(
        f"move latency ms: p50 {pct(50):.1f}  p90 {pct(90):.1f}  p99 {pct(99):.1f}  "
        f"max {lat[-1] * 1000 if lat else float('nan'):.1f}  mean "
        f"{statistics.fmean(lat) * 1000 if lat else float('nan'):.1f}"
    )
    print(
        f"server CPU {server_cpu:.1f} s = {server_cpu / max(1, stats.moves) * 1000:.2f} ms per move; "
        f"bot clients {client_cpu:.1f} s; host load average {load:.1f} on {os.cpu_count()} cores"
    )
    if args.timeline:
        print("p99 by 5 s window (from the first bot's start):")
        windows: dict[int, list[float]] = {}
        for at, latency in zip(stats.when, stats.latencies):
            windows.setdefault(int((at - started) // 5), []).append(latency)
        for window, values in sorted(windows.items()):
            values.sort()
            p99 = values[min(len(values) - 1, int(0.99 * len(values)))] * 1000
            print(
                f"  {window * 5:4d}-{window * 5 + 5:<4d} s  moves {len(values):6d}  p99 {p99:7.1f} ms"
            )
    print(f"errors: {len(stats.errors)} refused requests, {len(failures)} failed connections")
    for message in sorted(set(stats.errors))[:5]:
        print(f"  refused: {message}")
    for failure in failures[:5]:
        print(f"  failed: {failure!r}")
    print(
        f"server memory: RSS {before.get('VmRSS', 0) / 1024:.0f} MiB with tables created, "
        f"{after.get('VmRSS', 0) / 1024:.0f} MiB after play, peak {after.get('VmHWM', 0) / 1024:.0f} MiB"
    )
    return {
        "moves": stats.moves,
        "p50": pct(50),
        "p99": pct(99),
        "cpu": server_cpu / max(1, stats.moves) * 1000,
        "rss": after.get("VmRSS", 0) / 1024,
        "errors": len(stats.errors) + len(failures),
    }


def measure(
    args: argparse.Namespace,
    src: Path | None = None,
    label: str = "",
    db: str | None = None,
    processes: int = 1,
) -> dict[str, float]:
    """One run, its bots in a fresh process: nothing of an earlier run (the garbage its
    gc.freeze kept, a grown heap) weighs on the next run's client. The disk first writes out
    what came before (a reference's checkout, the last run's database), which would otherwise
    slow the first fsyncs of the run."""
    os.sync()
    spawn = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(1, mp_context=spawn) as pool:
        return pool.submit(_run_here, args, src, label, db, processes).result()


def _run_here(
    args: argparse.Namespace, src: Path | None, label: str, db: str | None, processes: int
) -> dict[str, float]:
    figures = asyncio.run(run(args, src, label, db, processes))
    sys.stdout.flush()
    return figures


def print_comparison(results: list[tuple[str, dict[str, float]]]) -> None:
    """Each run's figures beside the first one's (the first reference), as ratios."""
    base_label, base = results[0]
    print(f"against {base_label}:")
    print(f"  {'server':<16} {'p50 ms':>14} {'p99 ms':>16} {'CPU/move ms':>16} {'errors':>7}")
    for label, r in results:

        def ratio(key: str, digits: int, r: dict[str, float] = r) -> str:
            shown = f"{r[key]:.{digits}f}"
            return f"{shown} ({r[key] / base[key]:.2f}x)" if base[key] else shown

        print(
            f"  {label:<16} {ratio('p50', 1):>14} {ratio('p99', 1):>16} {ratio('cpu', 2):>16} "
            f"{r['errors']:>7.0f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--game", default="stakbots")
    parser.add_argument("--seats", type=int, default=0, help="seats per table (0: the minimum)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--think",
        type=float,
        default=0.6,
        help="mean seconds a bot waits before each move, like the server's AI pause (0: none)",
    )
    parser.add_argument("--timeline", action="store_true", help="p99 per 5-second window")
    parser.add_argument(
        "--compare",
        metavar="REF",
        action="append",
        default=[],
        help="first run the server of this git commit (a temporary worktree), then this one; "
        "several: A,B or the flag again (run in that order)",
    )
    parser.add_argument("--no-fsync", dest="fsync", action="store_false", help="serve --no-fsync")
    parser.add_argument(
        "--backend", default="sqlite", help="sqlite, postgres, or both: sqlite,postgres"
    )
    parser.add_argument(
        "--processes", default="1", help="server processes (PostgreSQL only above 1), e.g. 1,2"
    )
    args = parser.parse_args()
    refs = [ref.strip() for value in args.compare for ref in value.split(",") if ref.strip()]
    results: list[tuple[str, dict[str, float]]] = []
    for ref in refs:
        with reference_checkout(ref) as src:
            results.append((ref, measure(args, src, label=f"[{ref}] ")))
        print(flush=True)
    backends = [b.strip() for b in args.backend.split(",")]
    counts = [int(n) for n in args.processes.split(",")]
    cluster = None
    if "postgres" in backends:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "web"))
        from postgres_cluster import Cluster, find_binaries

        binaries = find_binaries()
        if binaries is None:
            raise SystemExit("PostgreSQL is not installed (Debian's postgresql package)")
        cluster = Cluster(binaries, fsync=args.fsync)
    try:
        runs = [(b, n) for b in backends for n in counts if b == "postgres" or n == 1]
        for backend, processes in runs:
            db = cluster.new_database() if backend == "postgres" and cluster else None
            label = "[this checkout] " if refs else f"[{backend}, {processes}] "
            figures = measure(args, label=label, db=db, processes=processes)
            results.append((label.strip(" []"), figures))
            print(flush=True)
    finally:
        if cluster is not None:
            cluster.stop()
    if refs:
        print_comparison(results)


if __name__ == "__main__":
    main()
