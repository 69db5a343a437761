"""`robotable simulate`: many games of one game, and the study a run makes of them.

A plain run is the seats-and-first-mover study (sim/analysis.py, sim/quality.py) with card
impact (sim/impact.py); `--restrict` makes it the restricted-play study of sim/studies/cards.py
and `--depth` the depth study of sim/studies/depth.py. Everything is checked before the first
game: bad input stops with one line on stderr and exit code 2 before anything is played.
"""

from __future__ import annotations

import dataclasses
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from ...core.errors import RobotableError
from ...core.registry import game_class
from ..analysis import summarize
from ..challenge import DEFAULT_DEPTH_ITERATIONS
from ..cli_common import (
    AGENTS_HELP,
    CardEventsOpt,
    ErrorsDirOpt,
    GameArg,
    JsonOpt,
    JsonOutOpt,
    MaxActionsOpt,
    PlayersOpt,
    RayOpt,
    ReportOpt,
    SeedOpt,
    WorkersOpt,
    check_report,
    fail,
    prepare_spec,
    run_with_progress,
    say,
    watch_hint,
    write_outputs,
)
from ..options import (
    MAX_ITERATIONS,
    UsageProblem,
    check_agents,
    check_count,
    check_ray,
    default_players,
    split_agents,
    time_budget_warnings,
    worker_count,
)
from ..results_file import ResultsFileError, ResultsWriter, read_results, write_results
from ..runner import DEFAULT_MAX_ACTIONS, GameResult, RunOutcome, RunSpec
from .cards import Restriction, restricted_cards, unbarred_games_kept
from .depth import Depth

Experiment = Restriction | Depth

# -- the options --------------------------------------------------------------------------------

GamesOpt = Annotated[int, typer.Option("--games", help="Games per variant.")]
SimAgentsOpt = Annotated[
    str | None,
    typer.Option(
        "--agents",
        "-a",
        help=AGENTS_HELP + " Default: random (greedy with --restrict and --depth).",
    ),
]
SweepOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--option",
        "-o",
        help="NAME=V1,V2,...: a game option; several values sweep it and several "
        "--option combine (a list-valued option separates its values with ';').",
    ),
]
CardsOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--cards",
        help="A card (content) file to compare with the bundled set; repeatable.",
    ),
]
FixedSeatsOpt = Annotated[
    bool, typer.Option("--fixed-seats", help="Agents keep the seats given (no rotation).")
]
QualityOpt = Annotated[
    bool,
    typer.Option(
        "--quality",
        help="Also measure lead changes, the decision point and the evaluated margin: "
        "calls the game's heuristic every --quality-every decisions (slower).",
    ),
]
QualityEveryOpt = Annotated[
    int,
    typer.Option(
        "--quality-every",
        help="With --quality: evaluate every this many decisions (1: every decision).",
    ),
]
StandingOpt = Annotated[
    bool,
    typer.Option(
        "--standing",
        help="Also rank the cards by standing: each card read at the moment it was first "
        "taken, its taker against the seats that stood alike then and never used it; "
        "calls the game's heuristic before every action (slower).",
    ),
]
OutJsonlOpt = Annotated[
    Path | None,
    typer.Option(
        "--out-jsonl",
        help="Write one JSON line per finished game to this file as it finishes, so an "
        "interrupted run can be resumed.",
    ),
]
KeepMovesOpt = Annotated[
    bool,
    typer.Option(
        "--keep-moves",
        help="Also write each game's moves into the --out-jsonl (or --resume) file, "
        "so that any game can be watched again: robotable replay FILE --game INDEX "
        "(a barred run keeps the unbarred game's too).",
    ),
]
DecisionStreamsOpt = Annotated[
    bool,
    typer.Option(
        "--decision-streams",
        help="Draw each decision's randomness afresh from its seat's seed and the "
        "move's number (other games than without it, as good a sample). With "
        "--restrict, each barred game then starts where its bar can first act, from "
        "the unbarred game's moves, instead of playing that part again.",
    ),
]
UnbarredFromOpt = Annotated[
    list[Path] | None,
    typer.Option(
        "--unbarred-from",
        help="With --restrict: a results file whose moves were kept (--keep-moves) of "
        "the same deals with the same agent unbarred (a barred run of another card, or "
        "the agent against itself); its games are replayed, not played again, so only "
        "the barred games are played. May be given more than once.",
    ),
]
ResumeOpt = Annotated[
    Path | None,
    typer.Option(
        "--resume",
        help="Read the games already finished from this --out-jsonl file, play only the "
        "missing ones (appending them to it) and summarise all: repeat the original "
        "command with --resume FILE.",
    ),
]
RestrictOpt = Annotated[
    str | None,
    typer.Option(
        "--restrict",
        help="A card's importance: play the --agents agent (BASE, default greedy) "
        "barred from playing this card against BASE itself, seats rotated, and report "
        "how much the unrestricted agent wins more (win rate minus 0.5 with two seats); "
        "each barred game is also compared with the same game unbarred. Several cards "
        "with ';' between them are barred together (a screen of a group of suspects).",
    ),
]
RestrictKindOpt = Annotated[
    str,
    typer.Option(
        "--restrict-kind",
        help="With --restrict: bar only actions of these JSON types, comma separated "
        "(e.g. play); default: any action naming the card.",
    ),
]
DepthOpt = Annotated[
    bool,
    typer.Option(
        "--depth",
        help="A game's depth: mcts:N (--depth-iterations) against greedy (or the one "
        "--agents agent), seats rotated: how much search pays.",
    ),
]
DepthIterationsOpt = Annotated[
    int, typer.Option("--depth-iterations", help="With --depth: MCTS iterations per move.")
]


@dataclass(frozen=True, slots=True)
class Files:
    """Where a run's games go and come from: --out-jsonl, --resume, --unbarred-from."""

    out_jsonl: Path | None
    resume: Path | None
    keep_moves: bool
    unbarred_from: tuple[Path, ...]

    @property
    def target(self) -> Path | None:
        """The results file the run appends its games to."""
        return self.resume if self.resume is not None else self.out_jsonl


@dataclass(slots=True)
class Plan:
    """A `simulate` run decided before its first game."""

    spec: RunSpec
    experiment: Experiment | None
    workers: int
    warnings: list[str]
    previous: list[GameResult]
    unbarred: dict | None


def simulate(
    game: GameArg,
    games: GamesOpt = 100,
    agents: SimAgentsOpt = None,
    players: PlayersOpt = None,
    seed: SeedOpt = 0,
    workers: WorkersOpt = None,
    option: SweepOpt = None,
    cards: CardsOpt = None,
    report: ReportOpt = None,
    json_stdout: JsonOpt = False,
    json_out: JsonOutOpt = None,
    ray: RayOpt = None,
    errors_dir: ErrorsDirOpt = "robotable-errors",
    max_actions: MaxActionsOpt = DEFAULT_MAX_ACTIONS,
    fixed_seats: FixedSeatsOpt = False,
    card_events: CardEventsOpt = "",
    quality: QualityOpt = False,
    quality_every: QualityEveryOpt = 1,
    standing: StandingOpt = False,
    out_jsonl: OutJsonlOpt = None,
    keep_moves: KeepMovesOpt = False,
    decision_streams: DecisionStreamsOpt = False,
    unbarred_from: UnbarredFromOpt = None,
    resume: ResumeOpt = None,
    restrict: RestrictOpt = None,
    restrict_kind: RestrictKindOpt = "",
    depth: DepthOpt = False,
    depth_iterations: DepthIterationsOpt = DEFAULT_DEPTH_ITERATIONS,
) -> None:
    """Play many games: first mover, seat win rates, game quality, lengths, card impact.

    Agents rotate through the seats; --option sweeps and --cards files make variants that are
    compared side by side. Progress goes to stderr. With --json, stdout holds one JSON object.
    Ctrl-C stops the run, prints the summary of the games finished so far and says how to
    resume.

    Example: `robotable simulate iotabots --agents hard,greedy --games 200 --report r.html`.
    """
    err = Console(stderr=True)
    files = Files(out_jsonl, resume, keep_moves, tuple(unbarred_from or ()))
    writer: ResultsWriter | None = None
    try:
        check_report(report)
        experiment, agents, players = experiment_agents(
            game, agents, players, restrict, restrict_kind, depth, depth_iterations, fixed_seats
        )
        spec = prepare_spec(
            game,
            agents,
            players,
            games,
            seed,
            option or [],
            cards or [],
            fixed_seats,
            max_actions,
            errors_dir,
            quality=quality,
            quality_every=quality_every,
            standing=standing,
        )
        files = _check_files(files)
        plan = _plan(spec, experiment, files, decision_streams, worker_count(workers), err)
        check_ray(ray)
        if files.target is not None:
            writer = ResultsWriter(files.target, plan.spec, resume=files.resume is not None)
        outcome = run_with_progress(
            plan.spec,
            plan.workers,
            ray,
            not json_stdout or err.is_terminal,
            err,
            on_result=writer.write if writer else None,
            previous=plan.previous,
            unbarred=plan.unbarred,
        )
    except (ResultsFileError, RobotableError, UsageProblem) as exc:
        raise fail(err, str(exc)) from None
    finally:
        if writer is not None:
            writer.close()
    summary = summarize_run(outcome, plan.experiment, card_events, plan.warnings, err)
    write_outputs(summary, json_out, report, json_stdout)
    _after_run(outcome, files, err)


def experiment_agents(
    game: str,
    agents: str | None,
    players: int | None,
    restrict: str | None,
    restrict_kind: str,
    depth: bool,
    iterations: int,
    fixed_seats: bool,
) -> tuple[Experiment | None, str, int | None]:
    """For --restrict or --depth the study (one challenger seat against copies of BASE,
    sim/challenge.py), and `simulate`'s agents (one ';'-separated string) and seats."""
    kinds = tuple(k.strip() for k in restrict_kind.split(",") if k.strip())
    if restrict is None and not depth:
        if kinds:
            raise UsageProblem("--restrict-kind needs --restrict CARD")
        return None, agents or "random", players
    if restrict is not None and depth:
        raise UsageProblem("--restrict and --depth are two experiments; run them one at a time")
    if fixed_seats:
        raise UsageProblem("--restrict and --depth rotate the seats; drop --fixed-seats")
    specs = split_agents(agents or "greedy")
    if len(specs) != 1:
        raise UsageProblem(
            f"--agents: {'--restrict' if restrict is not None else '--depth'} plays one agent "
            f"against itself changed; give a single agent, got {len(specs)}"
        )
    base = specs[0]
    game_class(game)
    check_agents([base], game)
    seats = default_players(game, 2, players)
    experiment: Experiment
    if restrict is not None:
        experiment = Restriction(base, tuple(restricted_cards(restrict)), kinds)
    else:
        if kinds:
            raise UsageProblem("--restrict-kind needs --restrict CARD")
        check_count("--depth-iterations", iterations, 1, MAX_ITERATIONS)
        experiment = Depth(base, iterations)
    return experiment, ";".join(experiment.agents(seats)), seats


def _check_files(files: Files) -> Files:
    """--keep-moves, --out-jsonl and --resume together: one results file at the most."""
    if files.keep_moves and files.target is None:
        raise UsageProblem("--keep-moves writes the moves into a results file: give --out-jsonl")
    if files.resume is not None and files.out_jsonl is not None:
        if not _same_file(files.resume, files.out_jsonl):
            raise UsageProblem(
                "--resume appends to the file it reads; give --out-jsonl only for a new run"
            )
        files = dataclasses.replace(files, out_jsonl=None)
    return files


def _plan(
    spec: RunSpec,
    experiment: Experiment | None,
    files: Files,
    decision_streams: bool,
    workers: int,
    err: Console,
) -> Plan:
    """The run's spec with the study's and the files' settings, the games a --resume file
    already holds and the unbarred games --unbarred-from keeps."""
    if isinstance(experiment, Restriction):
        # Each barred game beside the same game unbarred (restricted_play.play_paired).
        spec = dataclasses.replace(spec, paired=True)
    if decision_streams:
        spec = dataclasses.replace(spec, decision_streams=True)
    kept = None
    if files.unbarred_from:
        if not isinstance(experiment, Restriction):
            raise UsageProblem("--unbarred-from pairs barred games: give --restrict too")
        kept = unbarred_games_kept(list(files.unbarred_from), spec, experiment.base)
        say(
            err,
            f"--unbarred-from: {len(kept)} of {spec.games * len(spec.variants)} deals' "
            "unbarred games kept there are replayed, not played",
        )
    if files.keep_moves:
        spec = dataclasses.replace(spec, keep_moves=True)
    warnings = time_budget_warnings(spec.game, list(spec.agents))
    for warning in warnings:
        say(err, f"warning: {warning}")
    previous: list[GameResult] = []
    if files.resume is not None:
        previous, notes = read_results(files.resume, spec)
        for text in notes:
            say(err, f"note: {text}")
        planned = spec.games * len(spec.variants)
        say(
            err,
            f"resuming: {len(previous)} of {planned} games read from {files.resume}; "
            f"playing the other {planned - len(previous)}",
        )
    return Plan(spec, experiment, workers, warnings, previous, kept)


def summarize_run(
    outcome: RunOutcome,
    experiment: Experiment | None,
    card_events: str,
    warnings: list[str],
    err: Console | None = None,
) -> dict[str, Any]:
    """The `simulate --json` object of a run (before its verdicts): the seats and first mover,
    card impact, and the study's own object."""
    events = tuple(e.strip() for e in card_events.split(",") if e.strip())
    summary = summarize(outcome, events, warnings)
    if events:
        summary["card_events"] = list(events)
    if experiment is not None:
        summary[experiment.key] = experiment.summarize(outcome.spec, outcome.results, events)
        for warning in experiment.warnings(summary[experiment.key]):
            if err is not None:
                say(err, f"warning: {warning}")
            summary["warnings"].append(warning)
    return summary


def _after_run(outcome: RunOutcome, files: Files, err: Console) -> None:
    """How to watch the kept games, and for a stopped run where its games are and how to
    finish it (exit code 130)."""
    spec = outcome.spec
    if spec.keep_moves:
        say(err, watch_hint(outcome.results, files.target))
    if not outcome.interrupted:
        return
    saved = files.target
    if saved is None:
        saved = _free_path(Path(f"{spec.game}-seed{spec.seed}-partial.jsonl"))
        write_results(saved, spec, outcome.results)
    say(
        err,
        f"interrupted: {len(outcome.results)} of {spec.games * len(spec.variants)} games "
        f"finished (summary above is partial); their results are in {saved}. "
        f"To finish the run: {resume_command(sys.argv[1:], saved)}",
    )
    raise typer.Exit(130)


def resume_command(argv: list[str], path: Path) -> str:
    """The command that finishes an interrupted run: the same arguments with --resume PATH."""
    import shlex

    kept: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
            continue
        if arg in ("--out-jsonl", "--resume"):
            skip = True
            continue
        if arg.startswith(("--out-jsonl=", "--resume=")):
            continue
        kept.append(arg)
    return "robotable " + " ".join(shlex.quote(a) for a in [*kept, "--resume", str(path)])


def _same_file(a: Path, b: Path) -> bool:
    return a.expanduser().resolve() == b.expanduser().resolve()


def _free_path(path: Path) -> Path:
    candidate, number = path, 1
    while candidate.exists():
        number += 1
        candidate = path.with_name(f"{path.stem}-{number}{path.suffix}")
    return candidate
