"""A game's heuristic weights searched with Optuna (`robotable tune --config`, a config whose
`search` is "weights"; sim/studies/tuning.py reads the config).

A trial's weights play the game's own heuristic (`heuristic.evaluate(state, seat, weights)`)
through greedy, or through MCTS valuing its leaves by it (`agent = "mcts:N"`). Its objective adds
up to two shares, each over the same deals in every trial (common random numbers):

- `points`: the points (a win 1, a draw one half) the trial's weights take against the shipped
  weights (`heuristic.DEFAULT`), every deal played twice with the seats swapped;
- `ends`: the share of self-play games with the trial's weights that end for `end_reason` (the
  game's `stats()["end_reason"]`: Bread Winner's "all_loaves" is the rulebook's own win).

The shipped weights are the first trial, and the best weights are measured again on fresh deals
(seed + 1), since the best of many noisy trials flatters itself. A config's `reference` (a Python
file with `evaluate(state, seat)`, an earlier heuristic.py say) plays in place of the shipped
weights, and its `compare` table measures those weights alone, without a search.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from ..core.errors import OptionError
from ..core.registry import game_class, load_game
from ..core.rng import derive_seed
from .options import UsageProblem

OBJECTIVES = ("points", "ends")


@dataclass(frozen=True, slots=True)
class WeightsSearch:
    """What a weights config asks for: the game, its weights' ranges and the objective."""

    game: str
    ranges: tuple[tuple[str, float, float], ...]  # (weight, low, high), bounds included
    objective: tuple[str, ...] = ("points",)
    agent: str = "greedy"
    end_reason: str = ""
    options: tuple[tuple[str, Any], ...] = ()
    reference: str = ""  # a Python file whose evaluate(state, seat) is the opponent
    compare: tuple[tuple[str, float], ...] | None = None  # weights measured, not searched


@dataclass(frozen=True, slots=True)
class DealJob:
    """One deal of a measure, picklable for a worker process."""

    game: str
    options: tuple[tuple[str, Any], ...]
    weights: tuple[tuple[str, float], ...]  # the trial's, over the shipped ones
    seed: int
    agent: str
    objective: tuple[str, ...]
    end_reason: str
    reference: str = ""


def heuristic_module(game: str):
    """The game's heuristic module, which must offer `Weights`, `DEFAULT` and
    `evaluate(state, seat, weights)`."""
    name = game_class(game).__module__
    module = None
    for package in (name, name.rsplit(".", 1)[0]):
        try:
            module = importlib.import_module(f"{package}.heuristic")
            break
        except ImportError:
            continue
    if module is None or not all(hasattr(module, n) for n in ("Weights", "DEFAULT", "evaluate")):
        raise UsageProblem(
            f"tune: {game}'s heuristic has no weights to search (a heuristic module with "
            "Weights, DEFAULT and evaluate(state, seat, weights))"
        )
    return module


def check_search(search: WeightsSearch, where: str) -> None:
    """Every weight named is one of the heuristic's, every range ordered, the objective known,
    and the game two-seated: one line naming `where` otherwise."""
    module = heuristic_module(search.game)
    known = [f.name for f in dataclasses.fields(module.Weights)]
    for name, low, high in search.ranges:
        if name not in known:
            raise UsageProblem(
                f"{where}: [weights] '{name}' is not a weight of the {search.game} heuristic "
                f"({', '.join(known)})"
            )
        if not low <= high:
            raise UsageProblem(f"{where}: [weights] {name}: the range {low}..{high} is backwards")
    for name, _ in search.compare or ():
        if name not in known:
            raise UsageProblem(
                f"{where}: [compare] '{name}' is not a weight of the {search.game} heuristic "
                f"({', '.join(known)})"
            )
    if search.reference:
        reference_evaluate(search.reference)  # a file that does not load is one line now
    for name in search.objective:
        if name not in OBJECTIVES:
            raise UsageProblem(f"{where}: objective '{name}' is not one of {', '.join(OBJECTIVES)}")
    if "ends" in search.objective and not search.end_reason:
        raise UsageProblem(f"{where}: the objective 'ends' needs end_reason (the game's stat)")
    if search.agent != "greedy" and not search.agent.startswith("mcts:"):
        raise UsageProblem(f"{where}: agent '{search.agent}' is not greedy or mcts:N")
    try:
        load_game(search.game, num_players=2, **dict(search.options))
    except OptionError as exc:
        raise UsageProblem(f"{where}: {exc}") from None


@cache
def reference_evaluate(path: str):
    """`evaluate(state, seat)` of the Python file at `path` (loaded once per process)."""
    name = f"robotable_reference_{abs(hash(path))}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise UsageProblem(f"reference {path}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    # Registered first: a dataclass (a heuristic's Weights) looks its module up while defined.
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:  # noqa: BLE001 - any fault in the file is the file's
        message = f"reference {path}: does not load ({type(exc).__name__}: {exc})"
        raise UsageProblem(message) from None
    if not callable(getattr(module, "evaluate", None)):
        raise UsageProblem(f"reference {path}: has no evaluate(state, seat)")
    return module.evaluate


def _weighted(module, weights):
    return lambda state, seat: module.evaluate(state, seat, weights)


def _agent(evaluate, seed: int, agent: str):
    from ..agents.greedy import GreedyAgent
    from ..agents.mcts import MCTSAgent

    if agent == "greedy":
        return GreedyAgent(seed=seed, evaluate=evaluate)
    iterations = int(agent.split(":", 1)[1])
    return MCTSAgent(
        seed=seed,
        iterations=iterations,
        evaluate_all=lambda st: [evaluate(st, 0), evaluate(st, 1)],
    )


def _play(game, evaluations: Sequence[Any], seed: int, agent: str) -> Any:
    """One game from deal `seed`, seat s played with `evaluations[s]`; the final state."""
    agents = [_agent(e, derive_seed(seed, 1 + s), agent) for s, e in enumerate(evaluations)]
    state = game.new_initial_state(seed=seed)
    while not state.is_terminal():
        state.apply_action(agents[state.current_player()].act(state))
    return state


def play_deal(job: DealJob) -> dict[str, float]:
    """A deal's share of each objective: the points the trial's weights took against the shipped
    ones (or the reference) over both seat orders, and whether their self-play game ended for
    `end_reason`."""
    module = heuristic_module(job.game)
    game = load_game(job.game, num_players=2, **dict(job.options))
    tuned = _weighted(module, dataclasses.replace(module.DEFAULT, **dict(job.weights)))
    rival = (
        reference_evaluate(job.reference) if job.reference else _weighted(module, module.DEFAULT)
    )
    out: dict[str, float] = {}
    if "points" in job.objective:
        total = 0.0
        for seat in (0, 1):
            evaluations = [rival, rival]
            evaluations[seat] = tuned
            returns = _play(game, evaluations, job.seed, job.agent).returns()
            mine, theirs = returns[seat], returns[1 - seat]
            total += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
        out["points"] = total / 2
    if "ends" in job.objective:
        stats = _play(game, [tuned, tuned], job.seed, job.agent).stats() or {}
        out["ends"] = float(stats.get("end_reason") == job.end_reason)
    return out


def measure(
    search: WeightsSearch, weights: dict[str, float], deals: int, seed: int, pool
) -> dict[str, Any]:
    """The weights' shares over `deals` deals of master seed `seed`, and their objective (the
    sum of the shares)."""
    jobs = [
        DealJob(
            search.game,
            search.options,
            tuple(sorted(weights.items())),
            derive_seed(seed, d),
            search.agent,
            search.objective,
            search.end_reason,
            search.reference,
        )
        for d in range(deals)
    ]
    rows = list(pool.map(play_deal, jobs)) if pool is not None else [play_deal(j) for j in jobs]
    shares = {name: sum(r[name] for r in rows) / deals for name in search.objective}
    return {**shares, "objective": sum(shares.values()), "deals": deals}


def tune_weights(
    search: WeightsSearch,
    trials: int,
    deals: int,
    seed: int = 0,
    workers: int = 1,
    confirm_deals: int = 0,
    on_trial: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Run the search; the `tune --config --json` object of a weights config."""
    try:
        import optuna
    except ImportError:
        raise UsageProblem("tune: Optuna is not installed (pip install 'robotable[sim]')") from None
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    module = heuristic_module(search.game)
    names = [n for n, _, _ in search.ranges] + [n for n, _ in search.compare or () if n]
    shipped = {name: getattr(module.DEFAULT, name) for name in dict.fromkeys(names)}
    started = time.perf_counter()
    records: list[dict[str, Any]] = []
    pool = None
    if workers > 1:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))
    try:
        if search.compare is not None:
            given = {**shipped, **dict(search.compare)}
            return {
                **_describe(search, seed, deals, shipped),
                "compare": given,
                "measured": measure(search, given, deals, seed, pool),
                "seconds": round(time.perf_counter() - started, 3),
            }

        def objective(trial) -> float:
            values = {n: trial.suggest_float(n, low, high) for n, low, high in search.ranges}
            record = {"number": trial.number, "weights": values}
            record.update(measure(search, values, deals, seed, pool))
            records.append(record)
            if on_trial:
                on_trial(record)
            return record["objective"]

        study = optuna.create_study(
            direction="maximize", sampler=optuna.samplers.TPESampler(seed=seed)
        )
        study.enqueue_trial(shipped)  # the shipped weights are the first trial
        study.optimize(objective, n_trials=trials)
        best = max(records, key=lambda r: r["objective"])
        confirm = None
        if confirm_deals:
            confirm = {
                "seed": seed + 1,
                "shipped": measure(search, shipped, confirm_deals, seed + 1, pool),
                "best": measure(search, best["weights"], confirm_deals, seed + 1, pool),
            }
    finally:
        if pool is not None:
            pool.shutdown()
    return {
        **_describe(search, seed, deals, shipped),
        "trials": records,
        "best": best,
        "confirm": confirm,
        "seconds": round(time.perf_counter() - started, 3),
    }


def _describe(
    search: WeightsSearch, seed: int, deals: int, shipped: dict[str, float]
) -> dict[str, Any]:
    """The settings of a weights search, at the head of its JSON object."""
    return {
        "game": search.game,
        "search": "weights",
        "agent": search.agent,
        "objective": list(search.objective),
        "end_reason": search.end_reason or None,
        "reference": search.reference or None,
        "options": dict(search.options),
        "seed": seed,
        "deals_per_trial": deals,
        "ranges": {n: [low, high] for n, low, high in search.ranges},
        "shipped": shipped,
    }
