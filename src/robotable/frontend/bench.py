"""`robotable bench`: how fast a game runs, measured rather than asserted.

Random playouts (games/s, actions/s on one core), MCTS iterations/s from a mid-game state, the
mean cost of clone(), apply_action(), legal_actions(), determinize() and evaluate_all(), the
events an action builds, and the bytes a state holds (shared content excluded).

Everything is timed in this process's CPU time: "per second on one core" is what is asked, and
on a shared machine wall-clock time would measure the other processes as much as the game.
"""

from __future__ import annotations

import random
import sys
import time
import timeit
from collections.abc import Callable
from typing import Any

from ..agents.mcts import MCTSAgent
from ..core.protocol import Game, State

_clock = time.process_time


def random_playouts(
    game: Game, seconds: float, seed: int, silenced: bool = True
) -> dict[str, float]:
    """Whole games of uniformly random moves. Silenced (State.silence) by default: the loop a
    search or a learner runs, which reads no events (OpenSpiel's games build none either)."""
    rng = random.Random(seed)
    games = actions = 0
    start = _clock()
    deadline = start + seconds
    while _clock() < deadline or games == 0:
        state = game.new_initial_state(seed=rng.getrandbits(32))
        if silenced:
            state.silence()
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            actions += 1
        games += 1
    elapsed = _clock() - start
    return {
        "random_games_per_s": games / elapsed,
        "random_actions_per_s": actions / elapsed,
        "mean_actions_per_game": actions / games,
    }


def mid_game_states(game: Game, count: int, seed: int) -> list[State]:
    """States from random games, taken about a third of the way through."""
    rng = random.Random(seed)
    states: list[State] = []
    while len(states) < count:
        state = game.new_initial_state(seed=rng.getrandbits(32))
        trail: list[State] = []
        while not state.is_terminal():
            trail.append(state.clone())
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
        if trail:
            states.append(trail[len(trail) // 3])
    return states


def clone_and_apply_cost(game: Game, seed: int, samples: int = 2000) -> dict[str, float]:
    rng = random.Random(seed)
    states = mid_game_states(game, 20, seed)
    pairs = []
    while len(pairs) < samples:
        state = states[len(pairs) % len(states)]
        walker = state.clone()
        for _ in range(rng.randrange(4)):
            if walker.is_terminal():
                break
            legal = walker.legal_actions()
            walker.apply_action(legal[rng.randrange(len(legal))])
        if not walker.is_terminal():
            legal = walker.legal_actions()
            pairs.append((walker, legal[rng.randrange(len(legal))]))

    def clone_all() -> None:
        for state, _ in pairs:
            state.clone()

    copies = [state.clone() for state, _ in pairs]
    for copy in copies:
        copy.legal_actions()  # the cache a real caller has already filled

    def apply_all() -> None:
        for copy, (_, action) in zip(copies, pairs):
            copy.apply_action(action)

    quiet = [state.clone().silence() for state, _ in pairs]
    for copy in quiet:
        copy.legal_actions()

    def apply_silenced() -> None:
        for copy, (_, action) in zip(quiet, pairs):
            copy.apply_action(action)

    fresh = [state.clone() for state, _ in pairs]
    for copy in fresh:
        copy._legal = None  # measure generation, not the cache a clone shares

    def legal_all() -> None:
        for copy in fresh:
            copy.legal_actions()

    # What every MCTS iteration pays once (a fresh sample of the hidden cards, a leaf's value).
    def determinize_all() -> None:
        for state, _ in pairs:
            state.determinize(state.current_player(), rng)

    evaluate_all = game.evaluate_all

    def evaluate_every() -> None:
        for state, _ in pairs:
            evaluate_all(state)

    clone_s, apply_s, quiet_s, legal_s, determinize_s, evaluate_s = (
        _mean_cost(run, len(pairs))
        for run in (
            clone_all,
            apply_all,
            apply_silenced,
            legal_all,
            determinize_all,
            evaluate_every,
        )
    )
    # How many event dicts an action builds, untimed: the share of apply they can cost.
    events = sum(len(state.clone().apply_action(action)) for state, action in pairs)
    return {
        "clone_us": clone_s * 1e6,
        "apply_us": apply_s * 1e6,
        "apply_silenced_us": quiet_s * 1e6,
        "legal_us": legal_s * 1e6,
        "determinize_us": determinize_s * 1e6,
        "evaluate_all_us": evaluate_s * 1e6,
        "events_per_action": events / len(pairs),
    }


def _mean_cost(run: Callable[[], None], count: int) -> float:
    """Seconds of CPU per item of one pass of `run` over `count` items, timed by `timeit`, which
    holds the cyclic garbage collector off while it times: the thousands of states made just
    before would otherwise bring a full collection into whichever loop comes next, and one
    collection of a large process (the command line's imports) cost about 25 µs an action,
    five times what Rumblebots' `apply_action` itself costs."""
    return timeit.Timer(run, timer=_clock).timeit(number=1) / count


def mcts_rate(game: Game, seed: int, seconds: float) -> float:
    state = next(s for s in mid_game_states(game, 5, seed) if len(s.legal_actions()) > 1)
    # A fixed iteration count timed in CPU time (the agent's own time budget is wall-clock).
    agent = MCTSAgent(seed=seed, iterations=200)
    start = _clock()
    agent.search(state)
    rate = agent.last_iterations / max(_clock() - start, 1e-9)
    agent = MCTSAgent(seed=seed, iterations=max(200, int(rate * seconds)))
    start = _clock()
    agent.search(state)
    return agent.last_iterations / max(_clock() - start, 1e-9)


def state_bytes(state: State) -> int:
    """Bytes the state owns: its object graph minus the shared game and content."""
    shared: set[int] = set()
    _walk(state.game, shared, None)
    owned: set[int] = set()
    return _walk(state, owned, shared)


def _walk(root: Any, seen: set[int], skip: set[int] | None) -> int:
    total = 0
    stack = [root]
    while stack:
        obj = stack.pop()
        key = id(obj)
        if key in seen or (skip is not None and key in skip):
            continue
        if (
            obj is None
            or isinstance(obj, bool | type)
            or (isinstance(obj, int) and -5 <= obj <= 256)
        ):
            continue
        seen.add(key)
        total += sys.getsizeof(obj)
        if isinstance(obj, dict):
            stack.extend(obj.keys())
            stack.extend(obj.values())
        elif isinstance(obj, list | tuple | set | frozenset):
            stack.extend(obj)
        elif not isinstance(obj, str | bytes | int | float):
            if hasattr(obj, "__dict__"):
                stack.append(vars(obj))
            for cls in type(obj).__mro__:
                for slot in getattr(cls, "__slots__", ()):
                    if hasattr(obj, slot):
                        stack.append(getattr(obj, slot))
    return total


def run_bench(game: Game, seconds: float, seed: int) -> dict[str, Any]:
    figures: dict[str, Any] = {
        "game": game.name,
        "num_players": game.num_players,
        "clock": "process CPU time, one core",
    }
    figures.update(random_playouts(game, seconds, seed))
    loud = random_playouts(game, seconds, seed, silenced=False)
    figures["random_actions_per_s_with_events"] = loud["random_actions_per_s"]
    figures["mcts_iterations_per_s"] = mcts_rate(game, seed, max(1.0, seconds / 2))
    figures.update(clone_and_apply_cost(game, seed))
    sizes = [state_bytes(s) for s in mid_game_states(game, 5, seed + 1)]
    figures["state_bytes"] = int(sum(sizes) / len(sizes))
    return figures


# The tables a whole-engine comparison runs (OpenSpiel's bench, scripts/search_ceiling.py): each
# game at two seats, and Stak Bots, Betabotz and Rumblebots at a count where their work per
# step differs (more staks, more bidders, more gangs).
BENCH_TABLES = (
    ("stakbots", 2),
    ("stakbots", 4),
    ("breadwinner", 2),
    ("iotabots", 2),
    ("betabotz", 3),
    ("betabotz", 6),
    ("rumblebots", 2),
    ("rumblebots", 4),
)


# -- both engines from one run (`robotable bench GAME --compare-pure`) ----------------------------
ENGINES = ("compiled", "pure")


def bench_in_subprocess(
    engine: str,
    game: str,
    players: int | None,
    options: list[str],
    seconds: float,
    seed: int,
) -> dict[str, Any]:
    """`robotable bench GAME --json` in a fresh process on one engine: "pure" sets
    ROBOTABLE_PURE=1, "compiled" runs whatever this process would (see robotable._engine)."""
    import json
    import os
    import subprocess

    from .. import _engine

    command = [sys.executable, "-m", "robotable.cli", "bench", game, "--seconds", str(seconds)]
    command += ["--seed", str(seed), "--json"]
    if players is not None:
        command += ["--players", str(players)]
    for option in options:
        command += ["--option", option]
    env = dict(os.environ)
    env.pop(_engine.PURE_VARIABLE, None)
    if engine == "pure":
        env[_engine.PURE_VARIABLE] = "1"
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"bench on the {engine} engine failed: {done.stderr.strip()}")
    figures = json.loads(done.stdout)
    figures["engine"] = engine
    return figures


def compare_engines(
    game: str,
    players: int | None,
    options: list[str],
    seconds: float,
    seed: int,
    rounds: int = 3,
) -> dict[str, Any]:
    """Both engines' bench figures from one run: each in its own process, alternating (the
    order flips every round, so a busy neighbour hurts both alike); per figure, the median over
    rounds and the compiled/pure ratio."""
    import statistics

    from .. import _engine

    samples: dict[str, list[dict[str, Any]]] = {engine: [] for engine in ENGINES}
    for number in range(rounds):
        order = ENGINES if number % 2 == 0 else ENGINES[::-1]
        for engine in order:
            samples[engine].append(
                bench_in_subprocess(engine, game, players, options, seconds, seed)
            )
    numeric = [k for k, v in samples["pure"][0].items() if isinstance(v, int | float)]
    medians = {
        engine: {k: statistics.median(run[k] for run in runs) for k in numeric}
        for engine, runs in samples.items()
    }
    first = samples["pure"][0]
    return {
        "game": first["game"],
        "num_players": first["num_players"],
        "rounds": rounds,
        "compiled_engine": _engine.describe(),
        "figures": medians,
        "speedup": {k: _speedup(k, medians["compiled"][k], medians["pure"][k]) for k in numeric},
    }


def _speedup(key: str, compiled: float, pure: float) -> float | None:
    """How many times faster the compiled engine is: a rate compiled/pure, a cost in
    microseconds pure/compiled; sizes and counts compiled/pure (1.00 when equal)."""
    if key.endswith("_us"):
        return pure / compiled if compiled else None
    return compiled / pure if pure else None


def format_comparison(result: dict[str, Any]) -> str:
    """The two engines side by side, one line per figure."""
    lines = [
        f"robotable bench {result['game']} ({result['num_players']} seats), both engines, "
        f"median of {result['rounds']} alternating runs",
        f"compiled: {result['compiled_engine']}",
        f"{'measure':<33} {'compiled':>14} {'pure':>14} {'speed-up':>8}",
    ]
    compiled, pure = result["figures"]["compiled"], result["figures"]["pure"]
    for key, ratio in result["speedup"].items():
        if key == "num_players":
            continue
        shown = f"{ratio:7.2f}x" if ratio is not None else "       -"
        lines.append(f"{key:<33} {compiled[key]:>14,.1f} {pure[key]:>14,.1f} {shown}")
    return "\n".join(lines)
