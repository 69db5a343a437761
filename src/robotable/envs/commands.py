"""`robotable train`: a masked policy trained on one seat of a game (envs/train.py), and
`robotable train-report`: the benchmark's tables from such runs (envs/benchmark.py)."""

from __future__ import annotations

from typing import Annotated

import typer

from ..frontend.common import guard, parse_options


def register(app: typer.Typer) -> None:
    app.command("train")(train_command)
    app.command("train-report")(train_report_command)


@guard
def train_command(
    game: Annotated[str, typer.Argument(help="The game, as `robotable games` lists it.")],
    out: Annotated[str, typer.Option("--out", help="The run's folder (resumed if it exists).")],
    steps: Annotated[int, typer.Option("--steps", help="Env steps to train to.")] = 1_000_000,
    opponents: Annotated[
        str, typer.Option("--opponents", help="The other seats' agent spec.")
    ] = "medium",
    players: Annotated[int | None, typer.Option("--players", "-n", help="Seats.")] = None,
    envs: Annotated[int, typer.Option("--envs", help="Games stepped together.")] = 8,
    workers: Annotated[
        int, typer.Option("--workers", help="Worker processes for the games (0: in process).")
    ] = 0,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the network and the deals.")] = 0,
    eval_every: Annotated[
        int, typer.Option("--eval-every", help="Env steps between evaluations.")
    ] = 50_000,
    eval_games: Annotated[
        int, typer.Option("--eval-games", help="Games per level and evaluation (0: none).")
    ] = 100,
    eval_levels: Annotated[
        str, typer.Option("--eval-levels", help="Comma-separated agent specs to evaluate against.")
    ] = "random,easy,medium",
    checkpoint_every: Annotated[
        int, typer.Option("--checkpoint-every", help="Env steps between checkpoints.")
    ] = 50_000,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="A game option NAME=VALUE.")
    ] = None,
) -> None:
    """Train MaskablePPO (sb3-contrib) on one seat of GAME against --opponents, with progress
    on stderr, a checkpoint to resume from and the learning curve in OUT/progress.jsonl; the
    result plays as `policy:OUT`. Needs PyTorch and sb3-contrib (the train extra).

    Example: `robotable train stakbots --opponents medium --steps 1000000 --out runs/sb-0`.
    """
    from ..core.errors import OptionError

    try:
        from .train import train
    except ImportError as exc:
        raise OptionError(
            f"robotable train needs the [rl] and [train] extras (missing {exc.name}): "
            "pip install 'robotable[train]'"
        ) from None

    summary = train(
        game,
        out,
        steps,
        opponents=opponents,
        num_players=players,
        num_envs=envs,
        workers=workers,
        seed=seed,
        eval_every=eval_every,
        eval_games=eval_games,
        eval_levels=tuple(s.strip() for s in eval_levels.split(",") if s.strip()),
        checkpoint_every=checkpoint_every,
        **parse_options(option or []),
    )
    typer.echo(
        f"{summary['steps']:,} steps in {summary['seconds']:.0f} s "
        f"({summary['cpu_seconds']:.0f} s CPU): play it as policy:{out}"
    )


@guard
def train_report_command(
    runs: Annotated[list[str], typer.Argument(help="Run folders `robotable train` wrote.")],
    eval_games: Annotated[
        int, typer.Option("--eval-games", help="The games per level of each curve point.")
    ] = 100,
    score: Annotated[
        list[str] | None,
        typer.Option(
            "--score",
            help="A further agent spec (or LABEL=SPEC) to score each policy against; repeatable.",
        ),
    ] = None,
    score_games: Annotated[
        int, typer.Option("--score-games", help="Games per further level and run.")
    ] = 100,
    figure: Annotated[
        str | None, typer.Option("--figure", help="Also draw the learning curves to this file.")
    ] = None,
) -> None:
    """Print docs/benchmark.md's tables from training runs: each game's learning curve over its
    seeds, and a row per run with its scores and cost. `--score hard` first plays each policy
    against `hard` (kept in the run's scores.json).

    Example: `robotable train-report runs/* --score hard=mcts:iterations=1000 --figure curves.svg`.
    """
    from .benchmark import curve_table, draw_curves, read_run, runs_table, score_run

    read = [read_run(folder) for folder in runs]
    for level in score or []:
        for run in read:
            score_run(run, level, score_games)
    typer.echo("\n".join([*curve_table(read, eval_games), *runs_table(read)]))
    if figure:
        draw_curves(read, eval_games, figure)
