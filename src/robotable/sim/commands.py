"""`robotable simulate` and `robotable ladder`: the balance lab on the command line.

Everything a run does is decided here before the first game (game, seats, agents, variants);
any bad input stops with one line on stderr and exit code 2 before anything is played.
"""

from __future__ import annotations

import json
import math
import shlex
import sys
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
from rich.table import Table

from ..core.errors import RobotableError
from ..core.options import OptionSpec
from ..core.registry import game_class, load_game
from .analysis import summarize
from .results_file import ResultsFileError, ResultsWriter, read_results, write_results
from .runner import (
    DEFAULT_MAX_ACTIONS,
    GameResult,
    OnResult,
    RunOutcome,
    RunSpec,
    Variant,
    available_cores,
    check_reachable,
    run,
)

# Names a game may give its content option, most specific first (see content_option()).
CONTENT_OPTION_NAMES = ("cards", "card_file", "cards_file", "deck", "content")


class UsageProblem(Exception):
    """Bad input found while preparing a run: printed as one line, exit code 2."""


# -- parsing ----------------------------------------------------------------------------------


def split_agents(text: str) -> list[str]:
    """'mcts:200,greedy,random' -> three specs. A piece holding '=' but no ':' continues the
    previous spec, so 'mcts:iterations=200,time=0.5,random' is two agents. ';' also separates."""
    if ";" in text:
        pieces = [p.strip() for p in text.split(";")]
        specs = [p for p in pieces if p]
    else:
        specs = []
        for piece in (p.strip() for p in text.split(",")):
            if not piece:
                continue
            if specs and "=" in piece and ":" not in piece:
                specs[-1] = f"{specs[-1]},{piece}"
            else:
                specs.append(piece)
    if not specs:
        raise UsageProblem("--agents: give at least one agent, e.g. --agents mcts:200,random")
    return specs


def check_agents(specs: list[str]) -> None:
    from ..agents import make_agent

    for spec in specs:
        make_agent(spec, seed=0)  # raises OptionError naming the spec


def content_option(game: str) -> OptionSpec | None:
    """The option through which `game` takes a user's content file, if it has one."""
    specs = game_class(game).option_specs
    by_name = {s.name: s for s in specs}
    for name in CONTENT_OPTION_NAMES:
        if name in by_name:
            return by_name[name]
    for spec in specs:
        if spec.type is str and "card" in spec.name:
            return spec
    for spec in specs:
        text = spec.help.lower()
        if spec.type is str and ("file" in text or ".toml" in text):
            return spec
    return None


def parse_sweeps(game: str, num_players: int, texts: list[str]) -> dict[str, list[Any]]:
    """'--option stak_size=5,9,12' -> {'stak_size': [5, 9, 12]}; values are checked with the
    game's own option specs. For a list-valued option the variants are separated by ';'."""
    specs = {s.name: s for s in game_class(game).option_specs}
    sweeps: dict[str, list[Any]] = {}
    for text in texts:
        name, eq, values = text.partition("=")
        name = name.strip()
        if not eq or not name:
            raise UsageProblem(f"--option {text!r}: expected NAME=VALUE[,VALUE...]")
        if name not in specs:
            known = ", ".join(sorted(specs)) or "none"
            raise UsageProblem(f"game {game}: unknown option '{name}' (known options: {known})")
        spec = specs[name]
        separator = ";" if spec.type in (tuple, list) else ","
        raw = [v.strip() for v in values.split(separator) if v.strip()]
        if not raw:
            raise UsageProblem(f"--option {text!r}: no value given for '{name}'")
        if name in sweeps:
            raise UsageProblem(f"--option: '{name}' given twice; list all its values once")
        coerced = []
        for value in raw:
            coerced_value = spec.coerce(game, value)
            if coerced_value not in coerced:
                coerced.append(coerced_value)
        sweeps[name] = coerced
    return sweeps


def build_variants(
    game: str, num_players: int, option_texts: list[str], card_files: list[str]
) -> tuple[Variant, ...]:
    """Every combination of the option sweeps, times the bundled content and each --cards file."""
    import itertools

    sweeps = parse_sweeps(game, num_players, option_texts)
    content: OptionSpec | None = None
    labels: dict[tuple[str, Any], str] = {}
    if card_files:
        content = content_option(game)
        if content is None:
            names = ", ".join(s.name for s in game_class(game).option_specs) or "none"
            raise UsageProblem(
                f"--cards: game {game} takes no content file (it has no card option; "
                f"its options: {names})"
            )
        if content.name in sweeps:
            raise UsageProblem(f"--cards and --option {content.name}=... both set the content file")
        files = []
        for name in card_files:
            path = Path(name).expanduser()
            if not path.is_file():
                raise UsageProblem(f"--cards {name}: no such file")
            files.append(str(path.resolve()))
            labels[(content.name, files[-1])] = path.name
        # The bundled set is the reference every user's file is compared with.
        sweeps[content.name] = [None, *files]
        labels[(content.name, None)] = "bundled"
    names = list(sweeps)
    variants = []
    for index, combo in enumerate(itertools.product(*(sweeps[n] for n in names))):
        options = {n: v for n, v in zip(names, combo) if v is not None}
        # Only what varies names a variant; options with one value hold for every variant.
        shown = [
            f"{n}={labels.get((n, v), _show(v))}"
            for n, v in zip(names, combo)
            if len(sweeps[n]) > 1
        ]
        fixed = [f"{n}={labels.get((n, v), _show(v))}" for n, v in zip(names, combo)]
        label = ", ".join(shown or fixed) or "default"
        variants.append(Variant(index, label, tuple(options.items())))
        try:
            load_game(game, num_players=num_players, **options)
        except RobotableError as exc:
            raise UsageProblem(str(exc)) from None
        except Exception as exc:  # noqa: BLE001 - a game's content loader may raise anything
            raise UsageProblem(
                f"game {game}, variant {label}: {type(exc).__name__}: {exc}"
            ) from None
    return tuple(variants) or (Variant(0, "default", ()),)


def _show(value: Any) -> str:
    if isinstance(value, tuple | list):
        return "[" + ",".join(map(str, value)) + "]"
    return str(value)


def default_players(game: str, agents: int, given: int | None) -> int:
    if given is not None:
        return given
    cls = game_class(game)
    return agents if cls.min_players <= agents <= cls.max_players else cls.min_players


def json_safe(value: Any) -> Any:
    """NaN and infinities are not JSON: they become null."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {str(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(v) for v in value]
    return value


def dump_json(data: dict[str, Any]) -> str:
    return json.dumps(json_safe(data), indent=1, allow_nan=False)


# -- running with a progress bar -------------------------------------------------------------


def _run_with_progress(
    spec: RunSpec,
    workers: int,
    ray: str | None,
    show: bool,
    err: Console,
    on_result: OnResult | None = None,
    previous: list[GameResult] | None = None,
) -> RunOutcome:
    total = len(spec.variants) * spec.games
    previous = previous or []
    if not show:
        return run(spec, workers=workers, ray_address=ray, on_result=on_result, previous=previous)
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
        )


def _fail(err: Console, message: str) -> typer.Exit:
    err.print(f"error: {message}", markup=False, highlight=False, soft_wrap=True)
    return typer.Exit(2)


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
) -> RunSpec:
    if games < 1:
        raise UsageProblem(f"--games must be at least 1, got {games}")
    if max_actions < 1:
        raise UsageProblem(f"--max-actions must be at least 1, got {max_actions}")
    if quality_every < 1:
        raise UsageProblem(f"--quality-every must be at least 1, got {quality_every}")
    game_class(game)  # unknown game: OptionError naming the known ones
    specs = split_agents(agents)
    if len(specs) < min_agents:
        raise UsageProblem(
            f"--agents: a ladder needs at least {min_agents} agents, got {len(specs)}"
        )
    check_agents(specs)
    num_players = default_players(game, len(specs), players)
    load_game(game, num_players=num_players)  # seat count check with the game's own message
    variants = build_variants(game, num_players, options, cards)
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
    )
    spec.arrangements()  # fixed seats with too many agents is an error
    return spec


# -- output -----------------------------------------------------------------------------------


def _pct(x: float | None) -> str:
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.1f}%"


def _ci(ci) -> str:
    return f"[{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]" if ci else ""


def _p(p: float | None) -> str:
    return "n/a" if p is None or (isinstance(p, float) and math.isnan(p)) else f"{p:.3g}"


def _points(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:+.1f} pts"


def _adv(row: dict[str, Any]) -> str:
    if row.get("advantage") is None:
        return "n/a"
    return f"{100 * row['advantage']:+.1f} pts {_ci(row['advantage_ci'])}"


def print_summary(summary: dict[str, Any], out: Console) -> None:
    """The text summary: the first mover and game quality first, then seats, agents, variants,
    cards and the headline sentences."""
    from .report import QUALITY_EXPLAINED, headline, quality_cells, timing_line, who_moved_first

    def say(text: str) -> None:
        out.print(text, markup=False, highlight=False, soft_wrap=True)

    title = (
        f"{summary['game']}: {summary['games']} games, {summary['num_players']} seats, "
        f"agents {', '.join(summary['agents'])}"
    )
    if summary.get("interrupted"):
        title += f" (INTERRUPTED: {summary['games']} of {summary['games_planned']} games)"
    say(title)
    variants = summary["variants"]
    groups = variants if len(variants) > 1 else [{**summary, "label": "all games"}]

    first = Table(
        title="first mover (the seat that took the first real turn)", title_justify="left"
    )
    for column in ("variant", "games", "won", "win rate", "95% interval", "advantage", "p"):
        if column == "variant":
            first.add_column(column, overflow="fold")
        else:
            first.add_column(column, justify="right")
    for g in groups:
        f = g["first_mover"]
        first.add_row(
            g["label"],
            str(f["games"]),
            str(f["wins"]),
            _pct(f["win_rate"]),
            _ci(f["ci"]),
            _points(f.get("advantage")),
            _p(f["p_value"]),
        )
    out.print(first)
    for g in groups:
        prefix = f"{g['label']}: " if len(groups) > 1 else ""
        say(f"  {prefix}who moved first: {who_moved_first(g['first_mover'])}")
    for g in groups:
        positions = g["first_mover"].get("positions") or []
        if not positions:
            continue
        table = Table(title=f"turn-order positions ({g['label']})", title_justify="left")
        for column in ("moves", "games", "win rate", "95% interval", "advantage", "p", "p Holm"):
            table.add_column(column, justify="left" if column == "moves" else "right")
        for p in positions:
            table.add_row(
                f"#{p['position'] + 1}",
                str(p["games"]),
                _pct(p["win_rate"]),
                _ci(p["ci"]),
                _adv(p),
                _p(p["p_value"]),
                _p(p["p_adjusted"]),
            )
        out.print(table)

    quality = Table(title="game quality", title_justify="left")
    quality.add_column("measure")
    for g in groups:
        quality.add_column(g["label"])
    cells = [quality_cells(g["quality"]) for g in groups]
    for name in QUALITY_EXPLAINED:
        quality.add_row(name, *(c[name] for c in cells))
    out.print(quality)

    seats = Table(title="seats (seat 1 is the first listed seat)", title_justify="left")
    for column in ("seat", "wins", "win rate", "95% interval", "advantage", "p", "p Holm"):
        seats.add_column(column, justify="right" if column != "seat" else "left")
    tests = summary.get("seat_tests") or [{} for _ in summary["wins"]]
    for s, wins in enumerate(summary["wins"]):
        seats.add_row(
            f"seat {s + 1}",
            str(wins),
            _pct(summary["win_rate"][s]),
            _ci(summary["win_rate_ci"][s]),
            _adv(tests[s]),
            _p(tests[s].get("p_value")),
            _p(tests[s].get("p_adjusted")),
        )
    seats.add_row("draws", str(summary["draws"]), _pct(summary["draw_rate"]), "", "", "", "")
    out.print(seats)
    stats = summary["agent_stats"]
    if len(stats) > 1:
        table = Table(title="agents (per seat-game)", title_justify="left")
        for column in ("agent", "seat-games", "wins", "win rate", "95% interval"):
            table.add_column(column, justify="left" if column == "agent" else "right")
        for name, a in stats.items():
            table.add_row(
                name, str(a["seat_games"]), str(a["wins"]), _pct(a["win_rate"]), _ci(a["ci"])
            )
        out.print(table)
    if len(variants) > 1:
        table = Table(title="variants", title_justify="left")
        for column in (
            "variant",
            "games",
            "errors",
            "win rate by seat",
            "first mover",
            "p",
            "median turns",
        ):
            table.add_column(column, justify="left" if column == "variant" else "right")
        for v in variants:
            fm = v["first_mover"]
            table.add_row(
                v["label"],
                str(v["completed"]),
                str(v["errors"]),
                " / ".join(_pct(r) for r in v["win_rate"]),
                f"{100 * (fm['advantage'] or 0):+.1f} pts",
                _p(fm["p_value"]),
                f"{v['lengths']['turns']['median'] or 0:.0f}",
            )
        out.print(table)
        comparisons = summary.get("variant_comparisons", [])
        if comparisons:
            from .report import _diff

            table = Table(
                title=f"variants against {variants[0]['label']} (Holm-adjusted p)",
                title_justify="left",
            )
            for column in ("variant", "measure", "difference", "p", "p Holm"):
                table.add_column(
                    column, justify="left" if column in ("variant", "measure") else "right"
                )
            for c in comparisons:
                table.add_row(
                    c["variant"],
                    c["metric"].replace("_", " "),
                    _diff(c),
                    _p(c["p_value"]),
                    _p(c["p_adjusted"]),
                )
            out.print(table)
    shifts = summary.get("card_shifts", [])
    if shifts:
        table = Table(title="card impact by variant (largest movements)", title_justify="left")
        table.add_column("card")
        table.add_column("event")
        for v in variants:
            table.add_column(v["label"], justify="right")
        for row in shifts[:6]:
            cells_ = [
                "-" if c is None else f"{100 * c['difference']:+.1f} {_ci(c['difference_ci'])}"
                for c in row["by_variant"]
            ]
            table.add_row(row["card"], row["event"], *cells_)
        out.print(table)
    cards = summary["cards"]
    if cards:
        table = Table(
            title="card impact (largest differences; association, not cause)", title_justify="left"
        )
        for column in (
            "card",
            "event",
            "with",
            "win rate with",
            "win rate without",
            "difference",
            "95% interval",
            "p Holm",
        ):
            table.add_column(column, justify="left" if column in ("card", "event") else "right")
        shown = cards[:5] + [r for r in cards[-5:] if r not in cards[:5]]
        for r in shown:
            table.add_row(
                r["card"],
                r["event"],
                str(r["seat_games_with"]),
                _pct(r["win_rate_with"]),
                _pct(r["win_rate_without"]),
                f"{100 * r['difference']:+.1f} pts",
                _ci(r["difference_ci"]),
                _p(r.get("p_adjusted")),
            )
        out.print(table)
    for line in headline(summary)[1:]:
        say(f"- {line}")
    say(timing_line(summary))


# -- commands ---------------------------------------------------------------------------------

AGENTS_HELP = (
    "Agents, comma separated: random, greedy, mcts:200, mcts:iterations=200,time=0.5 "
    "(a piece with '=' and no ':' continues the previous agent; or separate agents with ';'). "
    "They rotate through the seats: every seat order when there are at least as many agents as "
    "seats, else the table is rotated."
)


# The options both commands share, written once.
GameArg = Annotated[str, typer.Argument(help="The game (see `robotable games`).")]
AgentsOpt = Annotated[str, typer.Option("--agents", "-a", help=AGENTS_HELP)]
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
        agents: AgentsOpt = "random",
        players: Annotated[
            int | None,
            typer.Option(
                "--players",
                help="Seats (default: one per agent when the game allows it, else its minimum).",
            ),
        ] = None,
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
        report: Annotated[
            Path | None,
            typer.Option("--report", help="Write a self-contained HTML report with figures."),
        ] = None,
        json_stdout: JsonOpt = False,
        json_out: JsonOutOpt = None,
        ray: RayOpt = None,
        errors_dir: ErrorsDirOpt = "robotable-errors",
        max_actions: MaxActionsOpt = DEFAULT_MAX_ACTIONS,
        fixed_seats: Annotated[
            bool,
            typer.Option("--fixed-seats", help="Agents keep the seats given (no rotation)."),
        ] = False,
        card_events: Annotated[
            str,
            typer.Option(
                "--card-events",
                help="Card impact for these event types only, comma separated (e.g. "
                "played,attack); default: every event that names a seat and a card.",
            ),
        ] = "",
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
        out_jsonl: Annotated[
            Path | None,
            typer.Option(
                "--out-jsonl",
                help="Write one JSON line per finished game to this file as it finishes, so an "
                "interrupted run can be resumed.",
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
        try:
            workers = _workers(workers)
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
            )
            _check_ray(ray)
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
        command = "robotable " + " ".join(shlex.quote(a) for a in sys.argv[1:])
        if json_out is not None:
            json_out.parent.mkdir(parents=True, exist_ok=True)
            json_out.write_text(dump_json(summary) + "\n", encoding="utf-8")
        if report is not None:
            from .report import write_report

            write_report(json_safe(summary), report, command)
        if json_stdout:
            sys.stdout.write(dump_json(summary) + "\n")
            sys.stdout.flush()
        else:
            print_summary(json_safe(summary), Console())
            if report is not None:
                Console().print(f"report: {report}", markup=False, highlight=False)
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
            workers = _workers(workers)
            if players is None:
                players = game_class(game).min_players
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
            if bootstrap < 0:
                raise UsageProblem(f"--bootstrap must be 0 or more, got {bootstrap}")
            orders = len(spec.arrangements())
            if games % orders and not json_stdout:
                err.print(
                    f"note: {games} games do not divide evenly among {orders} seat orders",
                    markup=False,
                    highlight=False,
                )
            _check_ray(ray)
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
        print_ladder(json_safe(result), labels, Console())
        if result["errors"]:
            Console().print(
                f"{result['errors']} games raised an error; records in {errors_dir}", markup=False
            )


def time_budget_warnings(game: str, specs: list[str]) -> list[str]:
    """A warning when any agent stops thinking on a clock (`time=`, or a named strength that
    resolves to one in this game): its moves then depend on the machine's speed and load."""
    from ..agents import concrete_spec, parse_agent_spec

    timed = []
    for spec in specs:
        concrete = concrete_spec(spec, game)
        _, params = parse_agent_spec(concrete)
        if params.get("time") is not None:
            timed.append(spec if concrete == spec else f"{spec} ({concrete})")
    if not timed:
        return []
    return [
        f"agents with a time budget per move ({'; '.join(timed)}): their play depends on the "
        "machine's speed and load, so these results are not reproducible (the same seed can give "
        "other games, and a resumed run other numbers); give an iteration count instead (e.g. "
        "mcts:1000) for a reproducible run"
    ]


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


def _check_ray(address: str | None) -> None:
    """Before the progress bar: Ray installed, and a cluster address that answers."""
    if address is None:
        return
    try:
        import ray  # noqa: F401
    except ImportError:
        raise UsageProblem("--ray: Ray is not installed (pip install 'robotable[sim]')") from None
    if address != "local":
        check_reachable(address)


def _workers(given: int | None) -> int:
    if given is None:
        return available_cores()
    if given < 1:
        raise UsageProblem(f"--workers must be at least 1, got {given}")
    return given


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
            _pct(r["score"]),
            str(r["pair_games"]),
        )
    out.print(table)
    matrix = Table(title="pairwise score (row against column)", title_justify="left")
    matrix.add_column("")
    for name in labels:
        matrix.add_column(name, justify="right")
    for a, name in enumerate(labels):
        row = result["pairwise_score"][a]
        matrix.add_row(name, *(_pct(v) if v is not None else "-" for v in row))
    out.print(matrix)


__all__ = ["register"]
