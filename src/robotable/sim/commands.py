"""`robotable simulate`, `pool`, `ladder` and `tune`: the balance lab on the command line.

Everything a run does is decided before the first game (sim/options.py checks the game, seats,
agents and variants); any bad input stops with one line on stderr and exit code 2 before anything
is played. What a run found is printed by sim/text.py.
"""

from __future__ import annotations

import dataclasses
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

from ..core.errors import RobotableError
from ..core.options import no_content_files
from ..core.registry import game_class, load_game
from ..core.text import clean_text
from .analysis import summarize
from .challenge import (
    DEFAULT_DEPTH_ITERATIONS,
    depth_agents,
    depth_summary,
    restrict_agents,
    restriction_of_run,
    restriction_summary,
    restriction_warnings,
)
from .options import (
    MAX_ACTIONS,
    MAX_BOOTSTRAP,
    MAX_GAMES,
    MAX_ITERATIONS,
    MAX_TRIALS,
    POOL_HINT,
    UsageProblem,
    build_variants,
    check_agents,
    check_count,
    check_ray,
    default_players,
    split_agents,
    time_budget_warnings,
    worker_count,
)
from .pool import pool_results
from .replays import kept_unbarred
from .results_file import (
    ResultsFileError,
    ResultsWriter,
    read_header,
    read_results,
    spec_from_header,
    write_results,
)
from .runner import (
    DEFAULT_MAX_ACTIONS,
    GameResult,
    OnResult,
    RunOutcome,
    RunSpec,
    run,
)
from .text import dump_json, json_safe, print_ladder, print_summary, print_tune
from .verdicts import verdicts


def _run_with_progress(
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


def _fail(err: Console, message: str) -> typer.Exit:
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


def _prepare(
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


def register(app: typer.Typer) -> None:
    @app.command()
    def simulate(
        game: GameArg,
        games: Annotated[int, typer.Option("--games", help="Games per variant.")] = 100,
        agents: Annotated[
            str | None,
            typer.Option(
                "--agents",
                "-a",
                help=AGENTS_HELP + " Default: random (greedy with --restrict and --depth).",
            ),
        ] = None,
        players: PlayersOpt = None,
        seed: SeedOpt = 0,
        workers: WorkersOpt = None,
        option: Annotated[
            list[str] | None,
            typer.Option(
                "--option",
                "-o",
                help="NAME=V1,V2,...: a game option; several values sweep it and several "
                "--option combine (a list-valued option separates its values with ';').",
            ),
        ] = None,
        cards: Annotated[
            list[str] | None,
            typer.Option(
                "--cards",
                help="A card (content) file to compare with the bundled set; repeatable.",
            ),
        ] = None,
        report: ReportOpt = None,
        json_stdout: JsonOpt = False,
        json_out: JsonOutOpt = None,
        ray: RayOpt = None,
        errors_dir: ErrorsDirOpt = "robotable-errors",
        max_actions: MaxActionsOpt = DEFAULT_MAX_ACTIONS,
        fixed_seats: Annotated[
            bool,
            typer.Option("--fixed-seats", help="Agents keep the seats given (no rotation)."),
        ] = False,
        card_events: CardEventsOpt = "",
        quality: Annotated[
            bool,
            typer.Option(
                "--quality",
                help="Also measure lead changes, the decision point and the evaluated margin: "
                "calls the game's heuristic every --quality-every decisions (slower).",
            ),
        ] = False,
        quality_every: Annotated[
            int,
            typer.Option(
                "--quality-every",
                help="With --quality: evaluate every this many decisions (1: every decision).",
            ),
        ] = 1,
        standing: Annotated[
            bool,
            typer.Option(
                "--standing",
                help="Also rank the cards by standing: each card read at the moment it was first "
                "taken, its taker against the seats that stood alike then and never used it; "
                "calls the game's heuristic before every action (slower).",
            ),
        ] = False,
        out_jsonl: Annotated[
            Path | None,
            typer.Option(
                "--out-jsonl",
                help="Write one JSON line per finished game to this file as it finishes, so an "
                "interrupted run can be resumed.",
            ),
        ] = None,
        keep_moves: Annotated[
            bool,
            typer.Option(
                "--keep-moves",
                help="Also write each game's moves into the --out-jsonl (or --resume) file, "
                "so that any game can be watched again: robotable replay FILE --game INDEX "
                "(a barred run keeps the unbarred game's too).",
            ),
        ] = False,
        decision_streams: Annotated[
            bool,
            typer.Option(
                "--decision-streams",
                help="Draw each decision's randomness afresh from its seat's seed and the "
                "move's number (other games than without it, as good a sample). With "
                "--restrict, each barred game then starts where its bar can first act, from "
                "the unbarred game's moves, instead of playing that part again.",
            ),
        ] = False,
        unbarred_from: Annotated[
            list[Path] | None,
            typer.Option(
                "--unbarred-from",
                help="With --restrict: a results file whose moves were kept (--keep-moves) of "
                "the same deals with the same agent unbarred (a barred run of another card, or "
                "the agent against itself); its games are replayed, not played again, so only "
                "the barred games are played. May be given more than once.",
            ),
        ] = None,
        resume: Annotated[
            Path | None,
            typer.Option(
                "--resume",
                help="Read the games already finished from this --out-jsonl file, play only the "
                "missing ones (appending them to it) and summarise all: repeat the original "
                "command with --resume FILE.",
            ),
        ] = None,
        restrict: Annotated[
            str | None,
            typer.Option(
                "--restrict",
                help="A card's importance: play the --agents agent (BASE, default greedy) "
                "barred from playing this card against BASE itself, seats rotated, and report "
                "how much the unrestricted agent wins more (win rate minus 0.5 with two seats); "
                "each barred game is also compared with the same game unbarred. Several cards "
                "with ';' between them are barred together (a screen of a group of suspects).",
            ),
        ] = None,
        restrict_kind: Annotated[
            str,
            typer.Option(
                "--restrict-kind",
                help="With --restrict: bar only actions of these JSON types, comma separated "
                "(e.g. play); default: any action naming the card.",
            ),
        ] = "",
        depth: Annotated[
            bool,
            typer.Option(
                "--depth",
                help="A game's depth: mcts:N (--depth-iterations) against greedy (or the one "
                "--agents agent), seats rotated: how much search pays.",
            ),
        ] = False,
        depth_iterations: Annotated[
            int,
            typer.Option("--depth-iterations", help="With --depth: MCTS iterations per move."),
        ] = DEFAULT_DEPTH_ITERATIONS,
    ) -> None:
        """Play many games: first mover, seat win rates, game quality, lengths, card impact.

        Agents rotate through the seats; --option sweeps and --cards files make variants that are
        compared side by side. Progress goes to stderr. With --json, stdout holds one JSON object.
        Ctrl-C stops the run, prints the summary of the games finished so far and says how to
        resume.

        Example: `robotable simulate iotabots --agents hard,greedy --games 200 --report r.html`.
        """
        err = Console(stderr=True)

        def note(text: str) -> None:
            err.print(text, markup=False, highlight=False, soft_wrap=True)

        writer: ResultsWriter | None = None
        experiment: dict[str, Any] | None = None
        try:
            check_report(report)
            workers = worker_count(workers)
            agents, players, experiment = _experiment_agents(
                game,
                agents,
                players,
                restrict,
                restrict_kind,
                depth,
                depth_iterations,
                fixed_seats,
            )
            spec = _prepare(
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
            if experiment is not None and experiment["kind"] == "restrict":
                # Each barred game beside the same game unbarred (runner.play_paired).
                spec = dataclasses.replace(spec, paired=True)
            if decision_streams:
                spec = dataclasses.replace(spec, decision_streams=True)
            kept = None
            if unbarred_from:
                if experiment is None or experiment["kind"] != "restrict":
                    raise UsageProblem("--unbarred-from pairs barred games: give --restrict too")
                kept = unbarred_games_kept(unbarred_from, spec, experiment["base"])
                note(
                    f"--unbarred-from: {len(kept)} of {spec.games * len(spec.variants)} deals' "
                    "unbarred games kept there are replayed, not played"
                )
            if keep_moves:
                if out_jsonl is None and resume is None:
                    raise UsageProblem(
                        "--keep-moves writes the moves into a results file: give --out-jsonl"
                    )
                spec = dataclasses.replace(spec, keep_moves=True)
            check_ray(ray)
            if resume is not None and out_jsonl is not None and _same_file(resume, out_jsonl):
                out_jsonl = None
            if resume is not None and out_jsonl is not None:
                raise UsageProblem(
                    "--resume appends to the file it reads; give --out-jsonl only for a new run"
                )
            warnings = time_budget_warnings(game, list(spec.agents))
            for warning in warnings:
                note(f"warning: {warning}")
            previous: list[GameResult] = []
            if resume is not None:
                previous, notes = read_results(resume, spec)
                for text in notes:
                    note(f"note: {text}")
                planned = spec.games * len(spec.variants)
                note(
                    f"resuming: {len(previous)} of {planned} games read from {resume}; "
                    f"playing the other {planned - len(previous)}"
                )
            target = resume if resume is not None else out_jsonl
            if target is not None:
                writer = ResultsWriter(target, spec, resume=resume is not None)
            show = not json_stdout or err.is_terminal
            outcome = _run_with_progress(
                spec,
                workers,
                ray,
                show,
                err,
                on_result=writer.write if writer else None,
                previous=previous,
                unbarred=kept,
            )
        except ResultsFileError as exc:
            raise _fail(err, str(exc)) from None
        except (RobotableError, UsageProblem) as exc:
            raise _fail(err, str(exc)) from None
        finally:
            if writer is not None:
                writer.close()
        events = tuple(e.strip() for e in card_events.split(",") if e.strip())
        summary = summarize(outcome, events, warnings)
        if events:
            summary["card_events"] = list(events)
        if experiment is not None and experiment["kind"] == "restrict":
            summary["restriction"] = restriction_summary(
                spec,
                outcome.results,
                experiment["base"],
                experiment["cards"],
                experiment["kinds"],
                events,
            )
            for warning in restriction_warnings(summary["restriction"]):
                note(f"warning: {warning}")
                summary["warnings"].append(warning)
        elif experiment is not None:
            summary["depth"] = depth_summary(
                spec, outcome.results, experiment["iterations"], experiment["base"]
            )
        _write_outputs(summary, json_out, report, json_stdout)
        if spec.keep_moves:
            note(watch_hint(outcome.results, resume if resume is not None else out_jsonl))
        if outcome.interrupted:
            saved = resume if resume is not None else out_jsonl
            if saved is None:
                saved = _free_path(Path(f"{game}-seed{seed}-partial.jsonl"))
                write_results(saved, spec, outcome.results)
            note(
                f"interrupted: {len(outcome.results)} of {spec.games * len(spec.variants)} games "
                f"finished (summary above is partial); their results are in {saved}. "
                f"To finish the run: {resume_command(sys.argv[1:], saved)}"
            )
            raise typer.Exit(130)

    @app.command()
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
            raise _fail(err, str(exc)) from None
        for text in pooled.notes:
            err.print(f"note: {text}", markup=False, highlight=False, soft_wrap=True)
        events = tuple(e.strip() for e in card_events.split(",") if e.strip())
        summary = summarize(
            pooled.outcome, events, rules_version=(pooled.rules or {}).get("version")
        )
        if events:
            summary["card_events"] = list(events)
        # A --restrict run's files hold its bar: read it again (a stopped run's games too).
        restriction = restriction_of_run(pooled.outcome.spec, pooled.outcome.results, events)
        if restriction is not None:
            summary["restriction"] = restriction
            for warning in restriction_warnings(restriction):
                err.print(f"warning: {warning}", markup=False, highlight=False, soft_wrap=True)
                summary["warnings"].append(warning)
        summary["pooled"] = pooled.describe()
        seeds = ", ".join(f"seed {f.seed} ({f.games} games)" for f in pooled.files)
        line = f"pooled from {len(pooled.files)} results files: {seeds}"
        _write_outputs(summary, json_out, report, json_stdout, line)
        for file in pooled.files:
            results = kept_games(Path(file.path))
            if results:
                err.print(watch_hint(results, Path(file.path)), markup=False, soft_wrap=True)

    @app.command()
    def ladder(
        game: GameArg,
        agents: AgentsOpt,
        games: Annotated[
            int,
            typer.Option(
                "--games", help="Games in the round robin (best: a multiple of the seat orders)."
            ),
        ] = 100,
        players: Annotated[
            int | None, typer.Option("--players", help="Seats (default: the game's minimum).")
        ] = None,
        seed: SeedOpt = 0,
        workers: WorkersOpt = None,
        option: Annotated[
            list[str] | None,
            typer.Option("--option", "-o", help="NAME=VALUE: a game option (one value each)."),
        ] = None,
        bootstrap: Annotated[
            int,
            typer.Option("--bootstrap", help="Bootstrap resamples for the intervals (0: none)."),
        ] = 1000,
        json_stdout: JsonOpt = False,
        json_out: JsonOutOpt = None,
        ray: RayOpt = None,
        errors_dir: ErrorsDirOpt = "robotable-errors",
        max_actions: MaxActionsOpt = DEFAULT_MAX_ACTIONS,
    ) -> None:
        """Rank agents by a round robin: Bradley-Terry ratings on the Elo scale, with intervals.

        Example: `robotable ladder stakbots --agents easy,medium,hard --games 120`.
        """
        from .ladder import ladder as fit_ladder

        err = Console(stderr=True)
        try:
            workers = worker_count(workers)
            if players is None:
                players = game_class(game).usual_players()
            spec = _prepare(
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
                err.print(
                    f"note: {games} games do not divide evenly among {orders} seat orders",
                    markup=False,
                    highlight=False,
                )
            check_ray(ray)
            show = not json_stdout or err.is_terminal
            outcome = _run_with_progress(spec, workers, ray, show, err)
        except (RobotableError, UsageProblem) as exc:
            raise _fail(err, str(exc)) from None
        if outcome.interrupted:
            err.print(
                f"interrupted after {len(outcome.results)} of {games} games; no ladder fitted",
                markup=False,
                highlight=False,
            )
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
        if json_out is not None:
            json_out.parent.mkdir(parents=True, exist_ok=True)
            json_out.write_text(dump_json(result) + "\n", encoding="utf-8")
        if json_stdout:
            sys.stdout.write(dump_json(result) + "\n")
            sys.stdout.flush()
            return
        # markup=False: card names, variant and agent labels come from files, not from us.
        print_ladder(json_safe(result), labels, Console(markup=False))
        if result["errors"]:
            Console().print(
                f"{result['errors']} games raised an error; records in {errors_dir}", markup=False
            )

    @app.command()
    def tune(
        game: GameArg,
        param: Annotated[
            list[str],
            typer.Option(
                "--param",
                help="NAME=LOW:HIGH: a numeric (int or float) game option to search, bounds "
                "included; repeatable.",
            ),
        ],
        target: Annotated[
            list[str],
            typer.Option(
                "--target",
                help="NAME=V, NAME<=V, NAME>=V or NAME=LOW:HIGH, repeatable; names: "
                "first_mover, first_seat, draw_rate, turn_cap_rate (rates, 0 to 1), "
                "median_turns, mean_turns, mean_actions.",
            ),
        ],
        trials: Annotated[int, typer.Option("--trials", help="Settings to try.")] = 20,
        games_per_trial: Annotated[
            int, typer.Option("--games-per-trial", help="Games played for each setting.")
        ] = 100,
        agents: AgentsOpt = "greedy",
        players: PlayersOpt = None,
        seed: Annotated[
            int,
            typer.Option(
                "--seed", help="Seeds the sampler and the games: the same seed, the same trials."
            ),
        ] = 0,
        workers: WorkersOpt = None,
        option: Annotated[
            list[str] | None,
            typer.Option("--option", "-o", help="NAME=VALUE: a game option kept fixed."),
        ] = None,
        confirm_games: Annotated[
            int,
            typer.Option(
                "--confirm-games",
                help="Replay the best setting on this many fresh games (seed + 1): the best "
                "trial's own numbers flatter it (0: no replay).",
            ),
        ] = 0,
        json_stdout: JsonOpt = False,
        json_out: JsonOutOpt = None,
        errors_dir: ErrorsDirOpt = "robotable-errors",
        max_actions: MaxActionsOpt = DEFAULT_MAX_ACTIONS,
        ray: RayOpt = None,
    ) -> None:
        """Search numeric game options toward targets (Optuna TPE, seeded, one trial at a time).

        Each trial plays --games-per-trial games on the same seeds and is scored by the sum of
        squared normalised distances to the targets.

        Example: `robotable tune stakbots --param stak_size=5:12 --target median_turns=10:20
        --trials 10 --games-per-trial 50 --agents greedy`.
        """
        from .tune import parse_param, parse_target
        from .tune import tune as run_tune

        err = Console(stderr=True)

        def note(text: str) -> None:
            err.print(text, markup=False, highlight=False, soft_wrap=True)

        try:
            workers = worker_count(workers)
            check_count("--trials", trials, 1, MAX_TRIALS)
            check_count("--confirm-games", confirm_games, 0, MAX_GAMES)
            spec = _prepare(
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
                note(f"warning: {warning}")

            def progress(record: dict[str, Any]) -> None:
                values = ", ".join(
                    f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}"
                    for k, v in record["params"].items()
                )
                note(
                    f"trial {record['number'] + 1}/{trials}: {values} -> objective "
                    f"{record['objective']:.3g}"
                )

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
                on_trial=progress if (not json_stdout or err.is_terminal) else None,
                ray_address=ray,
            )
        except (RobotableError, UsageProblem) as exc:
            raise _fail(err, str(exc)) from None
        if json_out is not None:
            json_out.parent.mkdir(parents=True, exist_ok=True)
            json_out.write_text(dump_json(result) + "\n", encoding="utf-8")
        if json_stdout:
            sys.stdout.write(dump_json(result) + "\n")
            sys.stdout.flush()
            return
        print_tune(json_safe(result), Console(markup=False))


def _write_outputs(
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


def _experiment_agents(
    game: str,
    agents: str | None,
    players: int | None,
    restrict: str | None,
    restrict_kind: str,
    depth: bool,
    iterations: int,
    fixed_seats: bool,
) -> tuple[str, int | None, dict[str, Any] | None]:
    """The agents (as one ';'-separated string) and seats of `simulate`, and for --restrict or
    --depth what the experiment is: one challenger seat against copies of BASE (sim/challenge)."""
    kinds = tuple(k.strip() for k in restrict_kind.split(",") if k.strip())
    if restrict is None and not depth:
        if kinds:
            raise UsageProblem("--restrict-kind needs --restrict CARD")
        return agents or "random", players, None
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
    if restrict is not None:
        cards = restricted_cards(restrict)
        chosen = restrict_agents(base, cards, kinds, seats)
        experiment = {"kind": "restrict", "base": base, "cards": cards, "kinds": list(kinds)}
    else:
        if kinds:
            raise UsageProblem("--restrict-kind needs --restrict CARD")
        check_count("--depth-iterations", iterations, 1, MAX_ITERATIONS)
        chosen = depth_agents(iterations, base, seats)
        experiment = {"kind": "depth", "base": base, "iterations": iterations}
    return ";".join(chosen), seats, experiment


def restricted_cards(text: str) -> list[str]:
    """The cards of `--restrict`: one name, or several with ';' between them, barred together."""
    cards = [c.strip() for c in text.split(";")]
    if not all(cards) or any("," in c for c in cards):
        raise UsageProblem(
            f"--restrict {text!r}: give a card name, or several with ';' between them "
            "(no empty names, no ',')"
        )
    if len(set(c.lower() for c in cards)) < len(cards):
        raise UsageProblem(f"--restrict {text!r}: a card is named twice")
    return cards


def unbarred_games_kept(paths: list[Path], spec: RunSpec, base: str) -> dict:
    """`--unbarred-from`'s games for this run's deals (sim.replays.kept_unbarred); a file that
    is not a results file, or holds none of them, is one line of error."""
    for path in paths:
        read_header(path, f"--unbarred-from {path}")  # a missing or foreign file: its own line
    kept = kept_unbarred(paths, spec, base)
    if not kept:
        shown = ", ".join(str(p) for p in paths)
        raise UsageProblem(
            f"--unbarred-from {shown}: no unbarred game of these deals with moves kept there "
            f"(a run of {base} on the same game, seats, --seed, --games and rules, written "
            "with --keep-moves, and with --decision-streams if this run has them)"
        )
    return kept


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


def resume_command(argv: list[str], path: Path) -> str:
    """The command that finishes an interrupted run: the same arguments with --resume PATH."""
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


__all__ = ["json_safe", "print_summary", "register", "resume_command", "time_budget_warnings"]
