"""A throw-away PostgreSQL cluster for the tests: Debian's postgresql binaries, a data folder and
a socket folder in /tmp, listening on its Unix socket only; stopped and deleted afterwards.

PostgreSQL refuses to run as root, so as root the cluster runs as the `postgres` user that
Debian's package creates.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path


def find_binaries() -> Path | None:
    """The folder holding initdb and pg_ctl, or None when PostgreSQL is not installed."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(os.path.realpath(found)).parent
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if Path(folder, "initdb").exists() and Path(folder, "pg_ctl").exists():
            return Path(folder)
    return None


class Cluster:
    def __init__(self, binaries: Path, fsync: bool = False) -> None:
        """`fsync` off for the tests (a throw-away cluster need not survive a power cut); on
        for the load benchmark, to compare with SQLite's synchronous FULL."""
        self.binaries = binaries
        self.base = Path(tempfile.mkdtemp(prefix="robotable-pg-"))
        self.data = self.base / "data"
        self.socket = self.base / "socket"
        self.socket.mkdir()
        self.user: str | None = None
        if os.geteuid() == 0:
            self.user = "postgres"
            record = pwd.getpwnam(self.user)
            for path in (self.base, self.socket):
                os.chown(path, record.pw_uid, record.pw_gid)
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "robotable", "--no-sync")
        options = (
            f"-k {self.socket} -c listen_addresses='' -c fsync={'on' if fsync else 'off'}"
            " -c max_connections=200 -c synchronous_commit=on"
        )
        self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-o",
            options,
            "-w",
            "-l",
            str(self.base / "log"),
            "start",
        )
        self._databases = 0

    def _run(self, tool: str, *args: str) -> None:
        command = [str(self.binaries / tool), *args]
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        subprocess.run(command, check=True, capture_output=True, timeout=120)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://robotable@/{database}?host={self.socket}"

    def new_database(self) -> str:
        """A fresh, empty database; returns its URL."""
        import psycopg

        self._databases += 1
        name = f"t{self._databases}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.base, ignore_errors=True)
