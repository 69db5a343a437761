"""What the lab's commands share: their common options, a spec checked before the first game,
a run with a progress bar, one-line errors and where a summary is written.

Every command of the lab (`simulate`, `pool`, `ladder`, `tune`, `balance`) is built from these;
each study's own options live with the study (sim/studies/).
"""

from __future__ import annotations

import os
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from ..core.registry import game_class, load_game
from ..core.text import clean_text
from .options import (
    MAX_ACTIONS,
    MAX_GAMES,
    POOL_HINT,
    UsageProblem,
    build_variants,
    check_agents,
    check_count,
    default_players,
    split_agents,
)
from .results_file import read_header, read_results, spec_from_header
from .runner import GameResult, OnResult, RunOutcome, RunSpec, run
from .text import dump_json, json_safe, print_summary
from .verdicts import verdicts


def run_with_progress(
    spec: RunSpec,
    workers: int,
    ray: str | None,
    show: bool,
    err: Console,
    on_result: OnResult | None = None,
    previous: list[GameResult] | None = None,
    unbarred: dict | None = None,
) -> RunOutcome:
    total = len(spec.variants) * spec.games
    previous = previous or []
    if not show:
        return run(
            spec,
            workers=workers,
            ray_address=ray,
            on_result=on_result,
            previous=previous,
            unbarred=unbarred,
        )
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games"),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=err, transient=False) as bar:
        task = bar.add_task(spec.game, total=total, completed=len(previous))
        return run(
            spec,
            workers=workers,
            ray_address=ray,
            progress=lambda k: bar.advance(task, k),
            on_result=on_result,
            previous=previous,
            unbarred=unbarred,
        )


def fail(err: Console, message: str) -> typer.Exit:
    # One line, whatever a file's text quoted in it holds (as frontend.common.fail).
    line = clean_text(message, 1000)
    err.print(f"error: {line}", markup=False, highlight=False, soft_wrap=True)
    return typer.Exit(2)


def check_report(report: Path | None) -> None:
    """Before anything is played: what `--report` needs is installed and its file can be
    written, so that no run ends, its games played, on a report it cannot make."""
    if report is None:
        return
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise UsageProblem(
            "--report draws its figures with matplotlib, which is not installed: "
            "pip install 'robotable[report]' (in a checkout: pip install '.[report]')"
        ) from None
    if report.is_dir():
        raise UsageProblem(f"--report {report}: is a directory")
    folder = report.parent if str(report.parent) else Path(".")
    existing = next((p for p in (folder, *folder.parents) if p.exists()), Path("."))
    if not existing.is_dir() or not os.access(existing, os.W_OK):
        raise UsageProblem(f"--report {report}: cannot write there")


def prepare_spec(
    game: str,
    agents: str,
    players: int | None,
    games: int,
    seed: int,
    options: list[str],
    cards: list[str],
    fixed_seats: bool,
    max_actions: int,
    errors_dir: str,
    min_agents: int = 1,
    quality: bool = False,
    quality_every: int = 1,
    standing: bool = False,
) -> RunSpec:
    check_count("--games", games, 1, MAX_GAMES, POOL_HINT)
    check_count("--max-actions", max_actions, 1, MAX_ACTIONS)
    check_count("--quality-every", quality_every, 1, MAX_ACTIONS)
    game_class(game)  # unknown game: OptionError naming the known ones
    specs = split_agents(agents)
    if len(specs) < min_agents:
        raise UsageProblem(
            f"--agents: a ladder needs at least {min_agents} agents, got {len(specs)}"
        )
    check_agents(specs, game)
    num_players = default_players(game, len(specs), players)
    load_game(game, num_players=num_players)  # seat count check with the game's own message
    variants = build_variants(game, num_players, options, cards)
    check_count("--games times the variants", games * len(variants), 1, MAX_GAMES, POOL_HINT)
    spec = RunSpec(
        game=game,
        num_players=num_players,
        agents=tuple(specs),
        games=games,
        seed=seed,
        variants=variants,
        fixed_seats=fixed_seats,
        max_actions=max_actions,
        error_dir=errors_dir,
        quality=quality,
        quality_every=quality_every,
        standing=standing,
    )
    spec.arrangements()  # fixed seats with too many agents is an error
    return spec


# -- output -----------------------------------------------------------------------------------


AGENTS_HELP = (
    "Agents, comma separated: random, greedy, mcts:200, mcts:iterations=200,time=0.5 "
    "(a piece with '=' and no ':' continues the previous agent; or separate agents with ';'). "
    "They rotate through the seats: every seat order when there are at least as many agents as "
    "seats, else the table is rotated."
)


# The options both commands share, written once.
GameArg = Annotated[str, typer.Argument(help="The game (see `robotable games`).")]
AgentsOpt = Annotated[str, typer.Option("--agents", "-a", help=AGENTS_HELP)]
PlayersOpt = Annotated[
    int | None,
    typer.Option(
        "--players",
        help="Seats (default: one per agent when the game allows it, else its minimum).",
    ),
]
SeedOpt = Annotated[
    int, typer.Option("--seed", help="Master seed; game i is seeded from it and i.")
]
WorkersOpt = Annotated[
    int | None,
    typer.Option(
        "--workers",
        "-w",
        help="Local worker processes (default: all cores; 1 plays in this process).",
    ),
]
RayOpt = Annotated[
    str | None,
    typer.Option(
        "--ray",
        help="Run on the Ray cluster at this address ('auto', 'ray://host:10001'), or 'local' "
        "to start one in this process. Results are the same as with local workers.",
    ),
]
JsonOpt = Annotated[
    bool,
    typer.Option(
        "--json",
        help="Print exactly one JSON object with every number on stdout and nothing else there.",
    ),
]
JsonOutOpt = Annotated[
    Path | None,
    typer.Option(
        "--json-out",
        help="Also write that JSON object to this file (the tables still print).",
    ),
]
CardEventsOpt = Annotated[
    str,
    typer.Option(
        "--card-events",
        help="Card impact for these event types only, comma separated (e.g. "
        "played,attack); default: every event that names a seat and a card.",
    ),
]
ReportOpt = Annotated[
    Path | None,
    typer.Option("--report", help="Write a self-contained HTML report with figures."),
]
ErrorsDirOpt = Annotated[
    str,
    typer.Option(
        "--errors-dir", help="Where records of games that raised are written (for replay)."
    ),
]
MaxActionsOpt = Annotated[
    int,
    typer.Option("--max-actions", help="A game still going after this many actions is an error."),
]


def write_outputs(
    summary: dict[str, Any],
    json_out: Path | None,
    report: Path | None,
    json_stdout: bool,
    first_line: str = "",
) -> None:
    """A summary to where the options send it: a JSON file, an HTML report, stdout as one JSON
    object or as tables (after `first_line`, when given)."""
    command = "robotable " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    # The answer in words, made last so that it reads an experiment's numbers too.
    summary["verdicts"] = verdicts(summary)
    if json_out is not None:
        json_out.parent.mkdir(parents=True, exist_ok=True)
        json_out.write_text(dump_json(summary) + "\n", encoding="utf-8")
    if report is not None:
        from .report import write_report

        write_report(json_safe(summary), report, command)
    if json_stdout:
        sys.stdout.write(dump_json(summary) + "\n")
        sys.stdout.flush()
        return
    out = Console(markup=False)  # card names and labels in its tables are never markup
    if first_line:
        out.print(first_line, markup=False, highlight=False, soft_wrap=True)
    print_summary(json_safe(summary), out)
    if report is not None:
        out.print(f"report: {report}", markup=False, highlight=False)


def kept_games(path: Path) -> list[GameResult]:
    """The games of a results file (already read once without fault), if it kept their moves."""
    spec = spec_from_header(read_header(path, str(path))[0], str(path))
    results = read_results(path, spec, str(path), playing=False)[0]
    return results if any(r.moves for r in results) else []


def watch_hint(results: Sequence[GameResult], path: Path | None) -> str:
    """How to watch the run's games again (`simulate --keep-moves`): in a barred run, the games
    whose winner the bar changed for the barred seat (the "wins lost" and "gained" of the paired
    comparison), else those whose outcome it changed, each beside the same deal unbarred."""
    where = shlex.quote(str(path))
    lost, gained, changed = [], [], []
    for r in results:
        if not r.paired or r.returns == r.placebo_returns:
            continue
        seat = r.arrangement.index(0)
        unbarred, barred = r.unbarred_won(seat), r.won(seat)
        (
            lost if unbarred and not barred else gained if barred and not unbarred else changed
        ).append(r.index)
    if not (lost or gained or changed):
        return f"watch any game again: robotable replay {where} --game INDEX"
    parts = []
    if lost:
        parts.append(f"the bar cost the barred seat the win in {_games_listed(lost)}")
    if gained:
        parts.append(f"gave it the win in {_games_listed(gained)}")
    if changed and not parts:
        parts.append(f"the bar changed the outcome of {_games_listed(changed)}")
    first = (lost or gained or changed)[0]
    game = next(r for r in results if r.index == first)
    # Where the two games part: the first move the barred game made otherwise (kept moves).
    parts_at = next(
        (k for k, (a, b) in enumerate(zip(game.moves, game.unbarred_moves)) if a != b), None
    )
    skip = "" if parts_at is None else f" --from {parts_at + 1}"
    return (
        f"{' and '.join(parts)}; watch one: robotable replay {where} --game {first}{skip}, and "
        "the same deal unbarred with --unbarred"
    )


def _games_listed(indices: list[int]) -> str:
    """ "game 94", "games 7, 54, 77" (the first twelve, then "...")."""
    listed = ", ".join(str(i) for i in indices[:12]) + (", ..." if len(indices) > 12 else "")
    return f"{'game' if len(indices) == 1 else 'games'} {listed}"


def say(err: Console, text: str) -> None:
    """A line on stderr as written: card names and labels are never markup."""
    err.print(text, markup=False, highlight=False, soft_wrap=True)


def write_result(result: dict[str, Any], json_out: Path | None, json_stdout: bool) -> bool:
    """A command's JSON object to --json-out and, with --json, stdout; True when stdout took it
    (the tables are then not printed)."""
    if json_out is not None:
        json_out.parent.mkdir(parents=True, exist_ok=True)
        json_out.write_text(dump_json(result) + "\n", encoding="utf-8")
    if json_stdout:
        sys.stdout.write(dump_json(result) + "\n")
        sys.stdout.flush()
    return json_stdout
