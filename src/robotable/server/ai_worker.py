"""An AI worker process: `python -m robotable.server.ai_worker PARENT_PID`.

Reads one JSON request per line on standard input (the game's configuration, the state, the
agent spec, a seed), answers one JSON line on standard output (`{"action": ...}` or
`{"error": "..."}`). It exits when its input closes (the server stopped it) and, because a
server killed with SIGKILL closes nothing in time, also when its parent dies: Linux delivers
SIGTERM through prctl(PR_SET_PDEATHSIG), and on every platform a watcher thread polls the parent
pid. Plain subprocesses and pipes: no multiprocessing machinery (or resource tracker) to outlive
the server.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from functools import lru_cache
from typing import Any

from ..core.processes import die_with_parent


@lru_cache(maxsize=8)  # bounded: tables with inline content must not grow it for ever
def _game(name: str, num_players: int, options_json: str):
    from ..core.options import no_content_files
    from ..core.registry import load_game

    with no_content_files():
        return load_game(name, num_players=num_players, **json.loads(options_json))


def think(request: dict[str, Any]) -> dict[str, Any]:
    from ..agents import make_agent

    game = _game(request["game"], request["num_players"], request["options"])
    state = game.state_from_json(request["state"])
    if request.get("kind") == "hint":
        from ..agents.hints import hint

        options = hint(state, request["spec"], request["seed"], names=request.get("names"))
        return {"hint": [option.to_json() for option in options]}
    action = make_agent(request["spec"], seed=request["seed"]).act(state)
    return {"action": action.to_json()}


def main() -> None:
    die_with_parent(int(sys.argv[1]))
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's to handle
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    import robotable.agents  # noqa: F401  (imported before the first request, not during it)

    out = sys.stdout
    for line in sys.stdin:
        try:
            answer = think(json.loads(line))
        except Exception as exc:  # one bad request fails that request, not the worker
            answer = {"error": f"{type(exc).__name__}: {exc}"[:300]}
        out.write(json.dumps(answer, separators=(",", ":")) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
