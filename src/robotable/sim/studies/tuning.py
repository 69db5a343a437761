"""The tuning study (`robotable tune`): numeric game options searched toward targets (sim/tune.py)
or a game's heuristic weights (sim/tune_weights.py), with Optuna; this module owns the command's
options, its configurations (`--config NAME|PATH`: sim/tune_configs/NAME.toml or a TOML file of
one's own) and its text."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from ...core.errors import RobotableError
from .. import formatting as fmt
from ..cli_common import (
    AGENTS_HELP,
    ErrorsDirOpt,
    GameArg,
    JsonOpt,
    JsonOutOpt,
    MaxActionsOpt,
    PlayersOpt,
    RayOpt,
    WorkersOpt,
    fail,
    prepare_spec,
    say,
    write_result,
)
from ..options import (
    MAX_GAMES,
    MAX_TRIALS,
    UsageProblem,
    check_count,
    check_ray,
    time_budget_warnings,
    worker_count,
)
from ..runner import DEFAULT_MAX_ACTIONS
from ..text import json_safe
from ..tune_weights import WeightsSearch, check_search, tune_weights

TuneAgentsOpt = Annotated[
    str | None,
    typer.Option(
        "--agents",
        "-a",
        help=AGENTS_HELP + " Default: greedy, or the config's.",
    ),
]

ParamOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--param",
        help="NAME=LOW:HIGH: a numeric (int or float) game option to search, bounds "
        "included; repeatable.",
    ),
]
TargetOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--target",
        help="NAME=V, NAME<=V, NAME>=V or NAME=LOW:HIGH, repeatable; names: "
        "first_mover, first_seat, draw_rate, turn_cap_rate (rates, 0 to 1), "
        "median_turns, mean_turns, mean_actions.",
    ),
]
TrialsOpt = Annotated[
    int | None, typer.Option("--trials", help="Settings to try (default: 20, or the config's).")
]
GamesPerTrialOpt = Annotated[
    int | None,
    typer.Option(
        "--games-per-trial",
        help="Games played for each setting (default: 100, or the config's; for a weights "
        "config, deals: each played twice with the seats swapped).",
    ),
]
ConfigOpt = Annotated[
    str | None,
    typer.Option(
        "--config",
        help="A tuning configuration: a bundled NAME (breadwinner-weights, iotabots-weights, "
        "stakbots-length) or a TOML file. Its search is 'options' (params and targets, as "
        "--param and --target) or 'weights' (the game's heuristic weights, each within a range, "
        "against the shipped ones); the command line's options win over the file's.",
    ),
]
TuneSeedOpt = Annotated[
    int,
    typer.Option("--seed", help="Seeds the sampler and the games: the same seed, the same trials."),
]
FixedOptionOpt = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help="NAME=VALUE: a game option kept fixed."),
]
ConfirmGamesOpt = Annotated[
    int | None,
    typer.Option(
        "--confirm-games",
        help="Replay the best setting on this many fresh games (seed + 1): the best "
        "trial's own numbers flatter it (default: 0, no replay, or the config's).",
    ),
]
CONFIGS = Path(__file__).resolve().parent.parent / "tune_configs"


def tune(
    game: GameArg,
    param: ParamOpt = None,
    target: TargetOpt = None,
    config: ConfigOpt = None,
    trials: TrialsOpt = None,
    games_per_trial: GamesPerTrialOpt = None,
    agents: TuneAgentsOpt = None,
    players: PlayersOpt = None,
    seed: TuneSeedOpt = 0,
    workers: WorkersOpt = None,
    option: FixedOptionOpt = None,
    confirm_games: ConfirmGamesOpt = None,
    json_stdout: JsonOpt = False,
    json_out: JsonOutOpt = None,
    errors_dir: ErrorsDirOpt = "robotable-errors",
    max_actions: MaxActionsOpt = DEFAULT_MAX_ACTIONS,
    ray: RayOpt = None,
) -> None:
    """Search numeric game options toward targets (Optuna TPE, seeded, one trial at a time).

    Each trial plays --games-per-trial games on the same seeds and is scored by the sum of
    squared normalised distances to the targets. A --config file holds a whole search, of
    options or of the game's heuristic weights.

    Example: `robotable tune stakbots --param stak_size=5:12 --target median_turns=10:20
    --trials 10 --games-per-trial 50 --agents greedy`, or `robotable tune iotabots --config
    iotabots-weights`.
    """
    from ..tune import parse_param, parse_target
    from ..tune import tune as run_tune

    err = Console(stderr=True)
    try:
        file = load_config(config, game) if config else TuneConfig()
        trials = trials if trials is not None else file.trials or 20
        games_per_trial = games_per_trial or file.games_per_trial or 100
        confirm_games = confirm_games if confirm_games is not None else file.confirm_games
        workers = worker_count(workers)
        check_count("--trials", trials, 1, MAX_TRIALS)
        check_count("--confirm-games", confirm_games, 0, MAX_GAMES)
        if file.weights is not None:
            check_count("--games-per-trial", games_per_trial, 1, MAX_GAMES)
            show = not json_stdout or err.is_terminal
            result = tune_weights(
                file.weights,
                trials,
                games_per_trial,
                seed=seed,
                workers=workers,
                confirm_deals=confirm_games,
                on_trial=_progress(err, trials) if show else None,
            )
            result["config"] = file.name
            if not write_result(result, json_out, json_stdout):
                print_tune_weights(json_safe(result), Console(markup=False))
            return
        param, target = param or list(file.params), target or list(file.targets)
        if not param or not target:
            raise UsageProblem("tune: give --param and --target, or --config")
        agents = agents or file.agents or "greedy"
        option = [*file.options, *(option or [])]
        spec = prepare_spec(
            game,
            agents,
            players,
            games_per_trial,
            seed,
            option or [],
            [],
            False,
            max_actions,
            errors_dir,
        )
        if len(spec.variants) > 1:
            raise UsageProblem("tune: give each --option a single value (no sweeps)")
        fixed = spec.variants[0].options_dict()
        params = [parse_param(text, game, spec.num_players) for text in param]
        names = [p.name for p in params]
        if len(set(names)) != len(names):
            raise UsageProblem("--param: an option given twice")
        clash = sorted(set(names) & set(fixed))
        if clash:
            raise UsageProblem(f"--param and --option both set '{clash[0]}'")
        targets = [parse_target(text) for text in target]
        if ray:
            check_ray(ray)
        for warning in time_budget_warnings(game, list(spec.agents)):
            say(err, f"warning: {warning}")
        result = run_tune(
            game,
            spec.num_players,
            spec.agents,
            params,
            targets,
            trials,
            games_per_trial,
            seed=seed,
            workers=workers,
            fixed=fixed,
            max_actions=max_actions,
            error_dir=errors_dir,
            confirm_games=confirm_games,
            on_trial=_progress(err, trials) if (not json_stdout or err.is_terminal) else None,
            ray_address=ray,
        )
    except (RobotableError, UsageProblem) as exc:
        raise fail(err, str(exc)) from None
    if write_result(result, json_out, json_stdout):
        return
    print_tune(json_safe(result), Console(markup=False))


@dataclass(frozen=True, slots=True)
class TuneConfig:
    """A `--config` file: a search of options (params, targets) or of heuristic weights."""

    name: str = ""
    trials: int | None = None
    games_per_trial: int | None = None
    confirm_games: int = 0
    agents: str | None = None
    params: tuple[str, ...] = ()
    targets: tuple[str, ...] = ()
    options: tuple[str, ...] = ()
    weights: WeightsSearch | None = None


def config_path(name: str) -> Path:
    """A bundled config's file (sim/tune_configs/NAME.toml), or the file `name` names."""
    path = Path(name)
    if path.suffix == ".toml" or path.exists():
        if not path.is_file():
            raise UsageProblem(f"--config {name}: no such file")
        return path
    bundled = CONFIGS / f"{name}.toml"
    if not bundled.is_file():
        known = ", ".join(sorted(p.stem for p in CONFIGS.glob("*.toml")))
        raise UsageProblem(f"--config {name}: no bundled config of that name ({known})")
    return bundled


_CONFIG_KEYS = {
    "reference",
    "compare",
    "search",
    "game",
    "trials",
    "games_per_trial",
    "confirm_games",
    "agents",
    "agent",
    "params",
    "targets",
    "options",
    "objective",
    "end_reason",
    "weights",
}


def load_config(name: str, game: str) -> TuneConfig:
    """`--config NAME|PATH` read and checked: one line naming the file and the key at fault."""
    path = config_path(name)
    where = f"tune config {path.name}"
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise UsageProblem(f"{where}: not readable as TOML ({exc})") from None
    unknown = sorted(set(data) - _CONFIG_KEYS)
    if unknown:
        raise UsageProblem(f"{where}: unknown key '{unknown[0]}'")
    if data.get("game", game) != game:
        raise UsageProblem(f"{where}: the config is for {data['game']}, not {game}")
    search = data.get("search", "options")
    counts = {}
    for key in ("trials", "games_per_trial", "confirm_games"):
        value = data.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise UsageProblem(f"{where}: {key} must be a whole number, got {value!r}")
        counts[key] = value
    common = {"name": path.stem, **counts, "confirm_games": counts["confirm_games"] or 0}
    if search == "options":
        lists = {k: _strings(data.get(k, []), k, where) for k in ("params", "targets", "options")}
        return TuneConfig(agents=data.get("agents"), **common, **lists)
    if search != "weights":
        raise UsageProblem(f"{where}: search must be 'options' or 'weights', got {search!r}")
    compare = data.get("compare")
    if compare is not None:
        compare = _weights_given(compare, where)
    reference = data.get("reference", "")
    if reference:
        reference = str((path.parent / str(reference)).resolve())
    weights = WeightsSearch(
        game=game,
        ranges=_ranges(data.get("weights"), where) if compare is None else (),
        reference=reference,
        compare=compare,
        objective=tuple(_strings(data.get("objective", ["points"]), "objective", where)),
        agent=str(data.get("agent", "greedy")),
        end_reason=str(data.get("end_reason", "")),
        options=tuple((k, v) for k, v in (data.get("options") or {}).items())
        if isinstance(data.get("options"), dict)
        else (),
    )
    check_search(weights, where)
    return TuneConfig(**common, weights=weights)


def _strings(value: Any, key: str, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise UsageProblem(f"{where}: {key} must be a list of strings")
    return tuple(value)


def _weights_given(table: Any, where: str) -> tuple[tuple[str, float], ...]:
    """`compare`: weights measured as given (the others as shipped)."""
    if not isinstance(table, dict):
        raise UsageProblem(f"{where}: compare must be a table of weights, got {table!r}")
    for name, value in table.items():
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise UsageProblem(f"{where}: compare {name} must be a number, got {value!r}")
    return tuple((name, float(value)) for name, value in table.items())


def _ranges(table: Any, where: str) -> tuple[tuple[str, float, float], ...]:
    if not isinstance(table, dict) or not table:
        raise UsageProblem(f"{where}: a weights search needs a [weights] table of ranges")
    out = []
    for name, bounds in table.items():
        ok = isinstance(bounds, list) and len(bounds) == 2
        if not ok or not all(
            isinstance(b, int | float) and not isinstance(b, bool) for b in bounds
        ):
            raise UsageProblem(f"{where}: [weights] {name} must be [LOW, HIGH], got {bounds!r}")
        out.append((name, float(bounds[0]), float(bounds[1])))
    return tuple(out)


def print_tune_weights(result: dict[str, Any], out: Console) -> None:
    """A weights search: every trial's shares, the best weights beside the shipped ones, and
    both measured again on fresh deals."""
    objective = result["objective"]
    against = (
        f"the reference {result['reference']}" if result.get("reference") else "the shipped weights"
    )
    if "compare" in result:
        m = result["measured"]
        shares = "; ".join(f"{k} {fmt.pct(m[k])}" for k in objective)
        changed = ", ".join(
            f"{k}={_value(v)}" for k, v in result["compare"].items() if v != result["shipped"][k]
        )
        out.print(
            f"{result['game']} ({result['config']}): {result['agent']} with the weights given "
            f"({changed or 'as shipped'}) against {against}, {m['deals']} deals of seed "
            f"{result['seed']}: {shares} (objective {m['objective']:.3f}); {result['seconds']:.1f} s",
            markup=False,
            soft_wrap=True,
        )
        return
    out.print(
        f"tune {result['game']} ({result['config']}): {len(result['trials'])} trials of "
        f"{result['deals_per_trial']} deals, {result['agent']} with each trial's weights, "
        f"seed {result['seed']}; objective: {' + '.join(objective)}",
        markup=False,
        soft_wrap=True,
    )
    table = Table(title="trials (the first is the shipped weights)", title_justify="left")
    for column in ("trial", *objective, "objective"):
        table.add_column(column, justify="right")
    for t in result["trials"]:
        shares = (fmt.pct(t[k]) for k in objective)
        table.add_row(str(t["number"]), *shares, f"{t['objective']:.3f}")
    out.print(table)
    best, shipped = result["best"], result["shipped"]
    weights = Table(title=f"best: trial {best['number']}", title_justify="left")
    for column in ("weight", "shipped", "best", "range"):
        weights.add_column(column, justify="left" if column == "weight" else "right")
    for name, (low, high) in result["ranges"].items():
        weights.add_row(name, _value(shipped[name]), _value(best["weights"][name]), f"{low}-{high}")
    out.print(weights)
    confirm = result.get("confirm")
    if confirm:
        for label in ("shipped", "best"):
            m = confirm[label]
            shares = "; ".join(f"{k} {fmt.pct(m[k])}" for k in objective)
            out.print(
                f"on {m['deals']} fresh deals (seed {confirm['seed']}), the {label} weights: "
                f"{shares} (objective {m['objective']:.3f})",
                markup=False,
                soft_wrap=True,
            )
    out.print(f"{result['seconds']:.1f} s", markup=False)


def _progress(err: Console, trials: int):
    """A line on stderr after each trial: its settings (a weights search: its shares) and its
    objective."""

    def progress(record: dict[str, Any]) -> None:
        if "params" in record:
            values = ", ".join(f"{k}={_value(v)}" for k, v in record["params"].items())
        else:
            values = ", ".join(f"{k} {record[k]:.3f}" for k in ("points", "ends") if k in record)
        say(
            err,
            f"trial {record['number'] + 1}/{trials}: {values} -> objective "
            f"{record['objective']:.3g}",
        )

    return progress


def print_tune(result: dict[str, Any], out: Console) -> None:
    """Every trial, then the best settings with their measured intervals."""

    def say(text: str) -> None:
        out.print(text, markup=False, highlight=False, soft_wrap=True)

    say(
        f"tune {result['game']}: {len(result['trials'])} trials of {result['games_per_trial']} "
        f"games, {result['num_players']} seats, agents {', '.join(result['agents'])}, seed "
        f"{result['seed']} ({result['sampler']})"
    )
    names = [p["name"] for p in result["params"]]
    table = Table(title="trials (objective: 0 meets every target)", title_justify="left")
    table.add_column("trial", justify="right")
    for name in names:
        table.add_column(name, justify="right")
    for target in result["targets"]:
        table.add_column(target["metric"], justify="right")
    table.add_column("objective", justify="right")
    for t in result["trials"]:
        table.add_row(
            str(t["number"]) + (" (again)" if t["repeat"] else ""),
            *(_value(t["params"][n]) for n in names),
            *(_measured(row) for row in t["targets"]),
            f"{t['objective']:.3g}",
        )
    out.print(table)
    best = result["best"]
    settings = ", ".join(f"{n}={_value(best['params'][n])}" for n in names)
    say(f"best: trial {best['number']}: {settings} (objective {best['objective']:.3g})")
    for label, data in (("measured", best), ("confirmed", result.get("confirm"))):
        if not data:
            continue
        if label == "confirmed":
            say(
                f"confirmed on {data['games']} fresh games (seed {data['seed']}): objective "
                f"{data['objective']:.3g}"
            )
        fm, cap, turns = data["first_mover"], data["turn_cap_rate"], data["turns"]
        say(
            f"  first mover wins {fmt.pct(fm['win_rate'])} {fmt.ci(fm['ci'])} of {fm['games']} games; "
            f"turn cap {fmt.pct(cap['rate'])} {fmt.ci(cap['ci'])}; draws {fmt.pct(data['draw_rate'])}; "
            f"length median {fmt.number(turns['median'])} turns (quartiles {fmt.number(turns['q1'])}-"
            f"{fmt.number(turns['q3'])}, range {fmt.number(turns['min'])}-{fmt.number(turns['max'])}); "
            f"{data['errors']} errors"
        )
        for row in data["targets"]:
            state = "met" if row["met"] else f"off by {fmt.number(row['distance'])}"
            say(f"  target {row['target']}: {_measured(row)} ({state})")
    say(f"{result['seconds']:.1f} s")


def _value(x: Any) -> str:
    return f"{x:.4g}" if isinstance(x, float) else str(x)


def _measured(row: dict[str, Any]) -> str:
    value = row["measured"]
    if value is None:
        return "n/a"
    if row.get("ci"):
        return f"{fmt.pct(value)} {fmt.ci(row['ci'])}"
    return fmt.number(value)
