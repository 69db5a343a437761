"""Processes robotable starts end with the one that started them.

Two helpers shared by the web server's AI workers and the simulator's pool: a child that ends
when its parent does (even a parent killed with SIGKILL, which closes nothing in time), and a
long run in the main process that treats SIGTERM as Ctrl-C, so it keeps what it finished and
stops its workers instead of dying with them still running.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator

PARENT_POLL_SECONDS = 0.5


def die_with_parent(parent: int) -> None:
    """End this process when `parent` ends: Linux delivers SIGTERM through
    prctl(PR_SET_PDEATHSIG); on every platform a watcher thread polls the parent's pid."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            pr_set_pdeathsig = 1
            libc.prctl(pr_set_pdeathsig, signal.SIGTERM)
        except (OSError, AttributeError):
            pass  # the watcher thread below still works
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(0)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="robotable-parent-watch", daemon=True).start()


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


@contextlib.contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """Within the block, SIGTERM raises KeyboardInterrupt in the main thread (as Ctrl-C does);
    elsewhere, or outside the block, nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
