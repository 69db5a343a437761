"""`robotable tune`: search a game's numeric options toward stated targets.

    robotable tune stakbots --param stak_size=5:12 --target median_turns=10:20 \\
        --target first_mover=0.5 --trials 20 --games-per-trial 100 --agents greedy

Each trial picks a value for every `--param` (an int or float option of the game, between LOW
and HIGH inclusive), plays `--games-per-trial` games with `runner.run` exactly as `simulate`
would, and scores the result by the sum of squared normalised distances to the `--target`s.
Optuna's TPE sampler (seeded, trials one after another) chooses the next values from the
scores so far. Every trial is played on the same game seeds (common random numbers), so two
settings are compared on the same deals, and the same command gives the same trials.

Targets (`METRICS` lists the measures):
- `NAME=V`: as close to V as possible; `NAME<=V`, `NAME>=V`: one-sided, 0 once satisfied;
  `NAME=LOW:HIGH`: 0 anywhere in the range, else the distance to the nearer end;
- a distance is divided by a scale before squaring: 0.1 for rates (a miss of 10 points costs
  1) and a tenth of the reference value for lengths (a miss of 10% costs 1), so targets of
  different units can be summed.

What it cannot do: the best of N noisy trials looks better than it is (its numbers were chosen
*because* they came out well), so `--confirm-games G` replays the best setting on fresh seeds;
and content (a card's numbers) is tuned only where a game exposes it as an option.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.errors import RobotableError
from ..core.registry import load_game
from .analysis import summarize
from .options import UsageProblem
from .runner import RunSpec, Variant, run
from .stats import wilson

RATE, LENGTH = "rate", "length"
RATE_SCALE = 0.1
LENGTH_SCALE = 0.1  # of the reference value
FAILED = 1e6  # the objective of a trial in which no game finished


def _first_mover(s: dict[str, Any]) -> tuple[float | None, list | None]:
    f = s["first_mover"]
    return (f["win_rate"] if f["games"] else None), f["ci"]


def _first_seat(s: dict[str, Any]) -> tuple[float | None, list | None]:
    return (s["win_rate"][0] if s["completed"] else None), s["win_rate_ci"][0]


def _draw_rate(s: dict[str, Any]) -> tuple[float | None, list | None]:
    return (s["draw_rate"] if s["completed"] else None), list(wilson(s["draws"], s["completed"]))


def _turn_cap(s: dict[str, Any]) -> tuple[float | None, list | None]:
    end = s["quality"]["end_reason"]
    return (end["rates"]["turn_cap"] if s["completed"] else None), end["ci"]["turn_cap"]


def _median_turns(s: dict[str, Any]) -> tuple[float | None, list | None]:
    return (s["quality"]["length"]["median"] if s["completed"] else None), None


def _mean_turns(s: dict[str, Any]) -> tuple[float | None, list | None]:
    return (s["mean_turns"] if s["completed"] else None), None


def _mean_actions(s: dict[str, Any]) -> tuple[float | None, list | None]:
    return (s["mean_actions"] if s["completed"] else None), None


@dataclass(frozen=True, slots=True)
class Metric:
    kind: str
    help: str
    read: Callable[[dict[str, Any]], tuple[float | None, list | None]]


METRICS: dict[str, Metric] = {
    "first_mover": Metric(RATE, "the first mover's win rate (see simulate)", _first_mover),
    "first_seat": Metric(RATE, "seat 1's (the first listed seat's) win rate", _first_seat),
    "draw_rate": Metric(RATE, "share of games without a single winner", _draw_rate),
    "turn_cap_rate": Metric(RATE, "share of games stopped at a turn cap", _turn_cap),
    "median_turns": Metric(LENGTH, "median game length in turns", _median_turns),
    "mean_turns": Metric(LENGTH, "mean game length in turns", _mean_turns),
    "mean_actions": Metric(LENGTH, "mean game length in actions", _mean_actions),
}


@dataclass(frozen=True, slots=True)
class Target:
    metric: str
    op: str  # "=", "<=", ">=" or "range"
    low: float
    high: float
    text: str

    def distance(self, value: float | None) -> float | None:
        """How far `value` is from the target, in its own units (0 when it is met)."""
        if value is None or math.isnan(value):
            return None
        if self.op == "=":
            return abs(value - self.low)
        if self.op == "<=":
            return max(0.0, value - self.high)
        if self.op == ">=":
            return max(0.0, self.low - value)
        return max(0.0, self.low - value, value - self.high)

    def scale(self, value: float) -> float:
        if METRICS[self.metric].kind == RATE:
            return RATE_SCALE
        if self.op in ("=", ">="):
            reference = self.low
        elif self.op == "<=":
            reference = self.high
        else:
            reference = self.low if value < self.low else self.high
        return LENGTH_SCALE * max(1.0, abs(reference))

    def cost(self, value: float | None) -> float | None:
        gap = self.distance(value)
        if gap is None:
            return None
        return (gap / self.scale(value)) ** 2  # type: ignore[arg-type]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"target": self.text, "metric": self.metric, "op": self.op}
        if self.op == "range":
            out.update(low=self.low, high=self.high)
        else:
            out["value"] = self.low if self.op in ("=", ">=") else self.high
        return out


_TARGET = re.compile(r"^\s*([A-Za-z_]+)\s*(<=|>=|=)\s*(.+?)\s*$")


def parse_target(text: str) -> Target:
    """'first_mover=0.5', 'turn_cap_rate<=0.05', 'median_turns=10:30'."""
    match = _TARGET.match(text)
    known = ", ".join(METRICS)
    if not match:
        raise UsageProblem(
            f"--target {text!r}: expected NAME=V, NAME<=V, NAME>=V or NAME=LOW:HIGH "
            f"(names: {known})"
        )
    name, op, value = match.groups()
    if name not in METRICS:
        raise UsageProblem(f"--target {text!r}: unknown measure '{name}' (known: {known})")
    try:
        if op == "=" and ":" in value:
            low_text, _, high_text = value.partition(":")
            low, high = float(low_text), float(high_text)
            op = "range"
        else:
            low = high = float(value)
    except ValueError:
        raise UsageProblem(f"--target {text!r}: '{value}' is not a number") from None
    if not (math.isfinite(low) and math.isfinite(high)) or low > high:
        raise UsageProblem(f"--target {text!r}: need finite numbers with LOW <= HIGH")
    if METRICS[name].kind == RATE and not (low >= 0 and high <= 1):
        raise UsageProblem(f"--target {text!r}: '{name}' is a rate, between 0 and 1")
    return Target(name, op, low, high, text.strip())


@dataclass(frozen=True, slots=True)
class Param:
    name: str
    type: str  # "int" or "float"
    low: float
    high: float

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "type": self.type, "low": self.low, "high": self.high}


def parse_param(text: str, game: str, num_players: int) -> Param:
    """'stak_size=5:12' -> an int option between 5 and 12, checked against the game's options
    (`load_game(game).info()["options"]`) and by loading the game at both ends."""
    name, eq, bounds = text.partition("=")
    name = name.strip()
    low_text, colon, high_text = bounds.partition(":")
    if not eq or not colon or not name:
        raise UsageProblem(f"--param {text!r}: expected NAME=LOW:HIGH")
    options = {o["name"]: o for o in load_game(game, num_players=num_players).info()["options"]}
    numeric = sorted(n for n, o in options.items() if o["type"] in ("int", "float"))
    if name not in options:
        raise UsageProblem(
            f"--param {text!r}: game {game} has no option '{name}' "
            f"(numeric options: {', '.join(numeric) or 'none'})"
        )
    kind = options[name]["type"]
    if kind not in ("int", "float"):
        raise UsageProblem(
            f"--param {text!r}: option '{name}' is {kind}, not a number "
            f"(numeric options: {', '.join(numeric) or 'none'})"
        )
    try:
        cast = int if kind == "int" else float
        low, high = cast(low_text.strip()), cast(high_text.strip())
    except ValueError:
        raise UsageProblem(f"--param {text!r}: LOW and HIGH must be {kind}s") from None
    if not (math.isfinite(low) and math.isfinite(high)) or low >= high:
        raise UsageProblem(f"--param {text!r}: need LOW < HIGH")
    for end in (low, high):
        try:
            load_game(game, num_players=num_players, **{name: end})
        except RobotableError as exc:
            raise UsageProblem(f"--param {text!r}: {exc}") from None
    return Param(name, kind, low, high)


def measure(summary: dict[str, Any], targets: Sequence[Target]) -> dict[str, Any]:
    """One trial's numbers: every target's value, distance and cost, and the intervals a
    designer reads (first mover, turn cap, length quartiles)."""
    rows = []
    total = 0.0
    failed = not summary["completed"]
    for target in targets:
        value, ci = METRICS[target.metric].read(summary)
        cost = target.cost(value)
        if cost is None:
            failed = True
        else:
            total += cost
        rows.append(
            {
                **target.to_json(),
                "measured": value,
                "ci": ci,  # Wilson 95% for rates; lengths: see "turns"
                "distance": target.distance(value),
                "cost": cost,
                "met": target.distance(value) == 0,
            }
        )
    first = summary["first_mover"]
    end = summary["quality"]["end_reason"]
    length = summary["quality"]["length"]
    return {
        "objective": FAILED if failed else total,
        "games": summary["games"],
        "completed": summary["completed"],
        "errors": summary["errors"],
        "targets": rows,
        "first_mover": {"win_rate": first["win_rate"], "ci": first["ci"], "games": first["games"]},
        "turn_cap_rate": {"rate": end["rates"]["turn_cap"], "ci": end["ci"]["turn_cap"]},
        "draw_rate": summary["draw_rate"],
        "turns": {k: length[k] for k in ("min", "q1", "median", "q3", "max")},
    }


def _label(values: dict[str, Any]) -> str:
    return ", ".join(f"{k}={_show(v)}" for k, v in values.items())


def _show(value: Any) -> str:
    return f"{value:.4g}" if isinstance(value, float) else str(value)


def tune(
    game: str,
    num_players: int,
    agents: Sequence[str],
    params: Sequence[Param],
    targets: Sequence[Target],
    trials: int,
    games: int,
    seed: int = 0,
    workers: int = 1,
    fixed: dict[str, Any] | None = None,
    max_actions: int = 50_000,
    error_dir: str = "robotable-errors",
    confirm_games: int = 0,
    on_trial: Callable[[dict[str, Any]], None] | None = None,
    ray_address: str | None = None,
) -> dict[str, Any]:
    """Run the search; the `tune --json` object. Trials run one after another (the sampler
    learns from each); a trial's games run on `workers` local processes, or on Ray at
    `ray_address` like `simulate --ray`."""
    try:
        import optuna
    except ImportError:
        raise UsageProblem("tune: Optuna is not installed (pip install 'robotable[sim]')") from None
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    fixed = dict(fixed or {})
    started = time.perf_counter()

    def play(values: dict[str, Any], master: int, count: int) -> dict[str, Any]:
        options = {**fixed, **values}
        spec = RunSpec(
            game=game,
            num_players=num_players,
            agents=tuple(agents),
            games=count,
            seed=master,
            variants=(Variant(0, _label(values) or "default", tuple(options.items())),),
            max_actions=max_actions,
            error_dir=error_dir,
        )
        return measure(summarize(run(spec, workers=workers, ray_address=ray_address)), targets)

    records: list[dict[str, Any]] = []
    seen: dict[tuple, dict[str, Any]] = {}

    def objective(trial) -> float:
        values: dict[str, Any] = {}
        for p in params:
            if p.type == "int":
                values[p.name] = trial.suggest_int(p.name, int(p.low), int(p.high))
            else:
                values[p.name] = trial.suggest_float(p.name, p.low, p.high)
        key = tuple(values.items())
        # The same values on the same seeds give the same games: play them once.
        measured = seen.get(key)
        repeated = measured is not None
        if measured is None:
            measured = seen[key] = play(values, seed, games)
        record = {"number": trial.number, "params": values, "repeat": repeated, **measured}
        records.append(record)
        if on_trial:
            on_trial(record)
        return measured["objective"]

    # TPE samples at random for its first trials; with a handful of trials that would be all
    # of them, so it starts modelling after a third of the budget (at least 2, at most 10).
    startup = max(2, min(10, trials // 3))
    sampler = optuna.samplers.TPESampler(seed=seed, n_startup_trials=startup)
    study = optuna.create_study(direction="minimize", sampler=sampler)
    study.optimize(objective, n_trials=trials, n_jobs=1)
    best = min(records, key=lambda r: (r["objective"], r["number"]))
    confirm = None
    if confirm_games > 0:
        confirm = {"seed": seed + 1, **play(best["params"], seed + 1, confirm_games)}
    return {
        "game": game,
        "num_players": num_players,
        "agents": list(agents),
        "seed": seed,
        "sampler": f"optuna TPESampler(seed={seed}, n_startup_trials={startup}), sequential",
        "optuna_version": optuna.__version__,
        "trials_planned": trials,
        "games_per_trial": games,
        "fixed_options": fixed,
        "params": [p.to_json() for p in params],
        "targets": [t.to_json() for t in targets],
        "objective": "sum over targets of (distance / scale)^2; scale 0.1 for rates, a tenth "
        "of the reference value for lengths",
        "trials": records,
        "best": best,
        "confirm": confirm,
        "seconds": round(time.perf_counter() - started, 3),
    }
