"""The ladder study (`robotable ladder`): agents ranked by a round robin, Bradley-Terry ratings
on the Elo scale with bootstrap intervals (the fit is sim/ladder.py)."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from ...core.errors import RobotableError
from ...core.registry import game_class
from .. import formatting as fmt
from ..cli_common import (
    AgentsOpt,
    ErrorsDirOpt,
    GameArg,
    JsonOpt,
    JsonOutOpt,
    MaxActionsOpt,
    RayOpt,
    SeedOpt,
    WorkersOpt,
    fail,
    prepare_spec,
    run_with_progress,
    say,
    write_result,
)
from ..options import MAX_BOOTSTRAP, UsageProblem, check_count, check_ray, worker_count
from ..runner import DEFAULT_MAX_ACTIONS
from ..text import json_safe

LadderGamesOpt = Annotated[
    int,
    typer.Option("--games", help="Games in the round robin (best: a multiple of the seat orders)."),
]
LadderPlayersOpt = Annotated[
    int | None, typer.Option("--players", help="Seats (default: the game's minimum).")
]
FixedOptionOpt = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help="NAME=VALUE: a game option (one value each)."),
]
BootstrapOpt = Annotated[
    int, typer.Option("--bootstrap", help="Bootstrap resamples for the intervals (0: none).")
]


def ladder(
    game: GameArg,
    agents: AgentsOpt,
    games: LadderGamesOpt = 100,
    players: LadderPlayersOpt = None,
    seed: SeedOpt = 0,
    workers: WorkersOpt = None,
    option: FixedOptionOpt = None,
    bootstrap: BootstrapOpt = 1000,
    json_stdout: JsonOpt = False,
    json_out: JsonOutOpt = None,
    ray: RayOpt = None,
    errors_dir: ErrorsDirOpt = "robotable-errors",
    max_actions: MaxActionsOpt = DEFAULT_MAX_ACTIONS,
) -> None:
    """Rank agents by a round robin: Bradley-Terry ratings on the Elo scale, with intervals.

    Example: `robotable ladder stakbots --agents easy,medium,hard --games 120`.
    """
    from ..ladder import ladder as fit_ladder

    err = Console(stderr=True)
    try:
        workers = worker_count(workers)
        if players is None:
            players = game_class(game).usual_players()
        spec = prepare_spec(
            game,
            agents,
            players,
            games,
            seed,
            option or [],
            [],
            False,
            max_actions,
            errors_dir,
            min_agents=2,
        )
        if len(spec.variants) > 1:
            raise UsageProblem("ladder: give each --option a single value (no sweeps)")
        check_count("--bootstrap", bootstrap, 0, MAX_BOOTSTRAP)
        orders = len(spec.arrangements())
        if games % orders and not json_stdout:
            say(err, f"note: {games} games do not divide evenly among {orders} seat orders")
        check_ray(ray)
        outcome = run_with_progress(spec, workers, ray, not json_stdout or err.is_terminal, err)
    except (RobotableError, UsageProblem) as exc:
        raise fail(err, str(exc)) from None
    if outcome.interrupted:
        say(err, f"interrupted after {len(outcome.results)} of {games} games; no ladder fitted")
        raise typer.Exit(130)
    labels = spec.agent_labels()
    result = fit_ladder(outcome.results, labels, bootstrap=bootstrap, seed=seed)
    result = {
        "game": game,
        "num_players": spec.num_players,
        "seed": seed,
        "seconds": round(outcome.seconds, 3),
        "error_records": [r.record_path for r in outcome.results if r.record_path],
        **result,
    }
    if write_result(result, json_out, json_stdout):
        return
    # markup=False: card names, variant and agent labels come from files, not from us.
    print_ladder(json_safe(result), labels, Console(markup=False))
    if result["errors"]:
        Console().print(
            f"{result['errors']} games raised an error; records in {errors_dir}", markup=False
        )


def print_ladder(result: dict[str, Any], labels: list[str], out: Console) -> None:
    level = int(round(result["level"] * 100))
    table = Table(
        title=f"{result['game']} ladder: {result['games']} games, {result['num_players']} seats, "
        f"Bradley-Terry on the Elo scale, {level}% bootstrap intervals",
        title_justify="left",
    )
    for column in ("rank", "agent", "elo", "interval", "pairwise score", "pair games"):
        table.add_column(column, justify="left" if column == "agent" else "right")
    for r in result["ratings"]:
        low, high = r["ci"]
        interval = "" if low is None else f"[{low:.0f}, {high:.0f}]"
        table.add_row(
            str(r["rank"]),
            r["agent"],
            f"{r['elo']:.0f}",
            interval,
            fmt.pct(r["score"]),
            str(r["pair_games"]),
        )
    out.print(table)
    matrix = Table(title="pairwise score (row against column)", title_justify="left")
    matrix.add_column("")
    for name in labels:
        matrix.add_column(name, justify="right")
    for a, name in enumerate(labels):
        row = result["pairwise_score"][a]
        matrix.add_row(name, *(fmt.pct(v) if v is not None else "-" for v in row))
    out.print(matrix)
