"""The balance lab on the command line: `robotable simulate`, `pool`, `ladder`, `tune` and
`balance`.

Each study owns its command (sim/studies/); this module registers them and holds `pool`, which
reads simulate's results files again. What the commands share is sim/cli_common.py. Everything a
run does is decided before the first game (sim/options.py); any bad input stops with one line on
stderr and exit code 2 before anything is played.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from ..core.options import no_content_files
from .analysis import summarize
from .challenge import restriction_of_run, restriction_warnings
from .cli_common import (
    CardEventsOpt,
    JsonOpt,
    JsonOutOpt,
    ReportOpt,
    check_report,
    fail,
    kept_games,
    say,
    watch_hint,
    write_outputs,
)
from .options import UsageProblem, time_budget_warnings
from .pool import pool_results
from .results_file import ResultsFileError
from .studies.balance import balance
from .studies.ladder import ladder
from .studies.simulate import resume_command, simulate
from .studies.tuning import tune
from .text import json_safe, print_summary

FilesArg = Annotated[
    list[Path],
    typer.Argument(help="Results files written by simulate --out-jsonl, one per seed."),
]


def register(app: typer.Typer) -> None:
    """The lab's commands on `app`, in the order `robotable --help` lists them."""
    app.command()(simulate)
    app.command()(pool)
    app.command()(ladder)
    app.command()(tune)
    app.command()(balance)


def pool(
    files: Annotated[
        list[Path],
        typer.Argument(help="Results files written by simulate --out-jsonl, one per seed."),
    ],
    card_events: CardEventsOpt = "",
    report: ReportOpt = None,
    json_stdout: JsonOpt = False,
    json_out: JsonOutOpt = None,
) -> None:
    """Summarise several runs of one study as one: simulate's tables over all their games.

    Run a long study in pieces, each with its own --seed and --out-jsonl file, then pool
    the files: the same game, seats, agents and options, different seeds. Nothing is
    played again. Example: `robotable pool run-seed0.jsonl run-seed1.jsonl --json`.
    """
    err = Console(stderr=True)
    try:
        check_report(report)
        with no_content_files():  # a results file's options name no file to open
            pooled = pool_results(files)
    except (ResultsFileError, UsageProblem) as exc:
        raise fail(err, str(exc)) from None
    for text in pooled.notes:
        say(err, f"note: {text}")
    events = tuple(e.strip() for e in card_events.split(",") if e.strip())
    summary = summarize(pooled.outcome, events, rules_version=(pooled.rules or {}).get("version"))
    if events:
        summary["card_events"] = list(events)
    # A --restrict run's files hold its bar: read it again (a stopped run's games too).
    restriction = restriction_of_run(pooled.outcome.spec, pooled.outcome.results, events)
    if restriction is not None:
        summary["restriction"] = restriction
        for warning in restriction_warnings(restriction):
            say(err, f"warning: {warning}")
            summary["warnings"].append(warning)
    summary["pooled"] = pooled.describe()
    seeds = ", ".join(f"seed {f.seed} ({f.games} games)" for f in pooled.files)
    line = f"pooled from {len(pooled.files)} results files: {seeds}"
    write_outputs(summary, json_out, report, json_stdout, line)
    for file in pooled.files:
        results = kept_games(Path(file.path))
        if results:
            err.print(watch_hint(results, Path(file.path)), markup=False, soft_wrap=True)


__all__ = [
    "json_safe",
    "print_summary",
    "register",
    "resume_command",
    "time_budget_warnings",
    "watch_hint",
]
