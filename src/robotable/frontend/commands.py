"""Terminal commands: games, play, replay, bench, soak."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table as RichTable

from ..core.errors import OptionError, RecordError
from ..core.options import no_content_files
from ..core.records import load_record, replay_record
from ..core.registry import game_class, game_names
from ..core.text import NAME_LENGTH, clean_text, printable
from .common import build_game, fail, guard, parse_options

OptionList = Annotated[
    list[str] | None, typer.Option("--option", "-o", help="A game option NAME=VALUE (repeatable).")
]


def register(app: typer.Typer) -> None:
    app.command("games")(games_command)
    app.command("rules")(rules_command)
    app.command("play")(play_command)
    app.command("replay")(replay_command)
    app.command("bench")(bench_command)
    app.command("soak")(soak_command)


@guard
def games_command(
    game: Annotated[
        str | None, typer.Argument(help="A game whose options to show (default: every game).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """List the games (seats, minutes, what each is), or one game's options.

    Examples: `robotable games`, `robotable games iotabots`, `robotable games --json`.
    """
    from .catalogue import games_table, print_game_options

    infos = []
    for name in [game] if game is not None else game_names():
        cls = game_class(name)
        infos.append(cls(num_players=cls.usual_players()).info())
    if as_json:
        print(json.dumps(infos[0] if game is not None else infos, indent=1))
    elif game is not None:
        print_game_options(infos[0], Console())
    else:
        print(games_table(infos))


@guard
def rules_command(
    game: Annotated[str, typer.Argument(help="Which game: see `robotable games`.")],
    terms: Annotated[
        bool, typer.Option("--terms", help="Only the terms and abbreviations.")
    ] = False,
    plain: Annotated[bool, typer.Option("--plain", help="The Markdown text as it is.")] = False,
) -> None:
    """How to play a game: its goal, a turn, its terms (the full rules: docs/rules/GAME.md).

    Example: `robotable rules iotabots`, `robotable rules betabotz --terms`.
    """
    from rich.markdown import Markdown

    the_game = build_game(game, None, {})
    if terms:
        for term, meaning in the_game.glossary().items():
            print(f"{term}: {meaning}")
        return
    if plain or not sys.stdout.isatty():
        print(the_game.guide())
        return
    Console().print(Markdown(the_game.guide()))


@guard
def play_command(
    game: Annotated[str | None, typer.Argument(help="Which game: see `robotable games`.")] = None,
    players: Annotated[int | None, typer.Option("--players", "-n", help="Seat count.")] = None,
    seats: Annotated[
        str | None,
        typer.Option(help="Who sits where, e.g. human,hard or medium,expert,greedy."),
    ] = None,
    names: Annotated[
        str | None, typer.Option(help="The seats' names in seat order, e.g. Ada,Bo.")
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Seed of the game (random if omitted).")] = None,
    record: Annotated[Path | None, typer.Option(help="Write the game record to this file.")] = None,
    resume: Annotated[
        Path | None, typer.Option(help="Go on with a game saved by quit or Ctrl-C.")
    ] = None,
    delay: Annotated[
        float | None,
        typer.Option(
            help="Seconds before each AI move is shown (default 0.8 on a terminal, else 0).",
            min=0,
            max=60,
        ),
    ] = None,
    option: OptionList = None,
    deck: Annotated[
        list[str] | None, typer.Option(help="A deck list per seat, in seat order (iotabots).")
    ] = None,
    cards: Annotated[str | None, typer.Option(help="Your own card file.")] = None,
    auto: Annotated[
        bool,
        typer.Option(
            "--auto/--no-auto",
            help="Take a person's only choice for them, and say so (--no-auto: ask anyway).",
        ),
    ] = True,
) -> None:
    """Play in the terminal against the AI, with friends at one screen, or watch AIs play.

    Examples: `robotable play stakbots --seats human,hard`;
    `robotable play iotabots --seats medium,expert --names Ada,Bo` (watch);
    `robotable play --resume ~/.local/share/robotable/records/stakbots-7.json`.
    """
    from ..agents import check_for_game
    from .play import Table, build_agents, default_delay, resume_table, run_table

    saved = None
    if resume is not None:
        saved = load_record(resume)
        if game is not None and game != saved["game"]:
            raise OptionError(f"--resume {resume}: holds a game of {saved['game']}, not {game}")
        if saved["result"] is not None:
            raise OptionError(f"--resume {resume}: that game is over (replay it instead)")
        # The whole record replays (its game, options and every move) before anything is set up.
        replay_record(saved, where=f"--resume {resume}")
        game, players, seed = saved["game"], saved["num_players"], saved["seed"]
        if seats is None and isinstance(saved.get("seats"), list):
            for spec in saved["seats"]:
                try:
                    if spec != "human":
                        check_for_game(spec, game)
                except OptionError as exc:
                    raise OptionError(f"--resume {resume}: field 'seats': {exc}") from None
            seats = ",".join(saved["seats"])
        if names is None and isinstance(saved.get("names"), list):
            names = ",".join(clean_text(n, 40).replace(",", " ") for n in saved["names"])
        record = record or resume
    if game is None:
        raise OptionError("play: name a game (see robotable games) or give --resume FILE")
    seat_list = [s.strip() for s in seats.split(",")] if seats else None
    cls = game_class(game)
    if players is None:
        players = len(seat_list) if seat_list else cls.usual_players()
    if seat_list is None:
        seat_list = ["human"] + ["medium"] * (players - 1)
    if len(seat_list) == 1 and players > 1:
        seat_list = seat_list * players
    if len(seat_list) != players:
        raise OptionError(f"--seats names {len(seat_list)} seats but the game has {players}")
    for spec in seat_list:
        if spec != "human":
            check_for_game(spec, game)  # parses the spec as well
    name_list = [n.strip() for n in names.split(",")] if names else []
    if len(name_list) > players or any(len(n) > 40 for n in name_list):
        raise OptionError(f"--names: at most {players} names of at most 40 characters")
    if saved is not None:
        # The record's content is inline; a path it names is refused unread (replay_record).
        with no_content_files():
            the_game = build_game(game, players, dict(saved["options"]))
    else:
        the_game = build_game(game, players, parse_options(option), deck, cards)
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "little")
    if record is not None and record.exists() and record.is_dir():
        raise OptionError(f"--record {record}: is a directory")
    if record is None:
        from platformdirs import user_data_dir

        record = Path(user_data_dir("robotable")) / "records" / f"{game}-{seed}.json"
    table = Table(
        the_game,
        seed,
        seat_list,
        build_agents(seat_list, seed),
        record,
        Console(),
        names=name_list,
        delay=default_delay() if delay is None else delay,
        auto=auto,
    )
    if saved is not None:
        resume_table(table, saved, f"--resume {resume}")
    raise typer.Exit(run_table(table))


def replay_command(
    record: Annotated[
        Path,
        typer.Argument(
            help="A record written by play, serve or simulate, or a results file (simulate "
            "--out-jsonl) with --game."
        ),
    ],
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Only verify.")] = False,
    game_index: Annotated[
        int | None,
        typer.Option(
            "--game",
            min=0,
            help="In a results file whose moves were kept (simulate --keep-moves): the game "
            "with this index.",
        ),
    ] = None,
    variant: Annotated[
        int, typer.Option("--variant", min=0, help="With --game: the game's variant.")
    ] = 0,
    unbarred: Annotated[
        bool,
        typer.Option(
            "--unbarred",
            help="With --game, in a barred run (simulate --restrict): the same deal unbarred.",
        ),
    ] = False,
    start: Annotated[
        int,
        typer.Option(
            "--from",
            min=1,
            help="Print from this move on (the moves before it are replayed and checked too).",
        ),
    ] = 1,
) -> None:
    """Verify a game record by replaying it, and print what happened.

    Example: `robotable replay ~/.local/share/robotable/records/stakbots-7.json`, or a game of a
    simulation: `robotable replay run.jsonl --game 12`.
    """
    names: list[str] | None = None
    notes: dict[int, str] = {}
    try:
        if game_index is not None:
            from ..sim.replays import results_record

            data, names, notes = results_record(record, game_index, variant, unbarred)
        elif unbarred:
            raise RecordError("--unbarred reads a results file: give --game INDEX too")
        else:
            data = _record_not_results(record)
    except RecordError as exc:
        fail(str(exc))
    try:
        game, state, log = replay_record(data, where=f"record {record}")
    except RecordError as exc:
        fail(str(exc), code=1 if exc.step is not None else 2)
    if not quiet:
        # What a spectator would have read, move by move (private events stay private).
        # A record may come from anyone: its names and the card names in its lines are
        # printed without control characters or bidi overrides (print reads no markup).
        if names is None and isinstance(data.get("names"), list):
            names = [str(n) for n in data["names"]]
        if names is not None:
            names = [clean_text(n, NAME_LENGTH) or f"Seat {i + 1}" for i, n in enumerate(names)]
        shown = names or [f"Seat {i + 1}" for i in range(game.num_players)]
        for step, (seat, events) in enumerate(zip(_deciders(data, game), log), start=1):
            if step < start:
                continue
            print(f"{step:4d}. {shown[seat] if 0 <= seat < len(shown) else 'Chance'}")
            if step in notes:
                print(f"      ({printable(notes[step])})")
            for line in game.narrate(events, None, names):
                print(f"      {printable(line)}")
    outcome = f"returns {state.returns()}" if state.is_terminal() else "unfinished"
    what = f"record {record}" if game_index is None else f"{record}, game {game_index}"
    print(f"{what}: {len(data['actions'])} actions replay exactly; {outcome}")


def _record_not_results(path: Path) -> dict:
    """The record at `path`; a results file (which holds many games) is named as one."""
    from ..sim.results_file import ResultsFileError, read_header

    try:
        return load_record(path)
    except RecordError as not_a_record:
        try:
            read_header(path, str(path))
        except ResultsFileError:
            raise not_a_record from None
        raise RecordError(
            f"{path}: a results file of many games; name one with --game INDEX"
        ) from None


def _deciders(record: dict, game) -> list[int]:
    """Who took each action of a record (replayed: a record does not store it)."""
    from ..core.records import reseed_chance, reseeds_by_step

    reseeds = reseeds_by_step(record.get("reseeds"))
    state = game.new_initial_state(seed=record["seed"])
    seats = []
    for number, raw in enumerate(record["actions"]):
        if number in reseeds:
            state = reseed_chance(state, *reseeds[number])
        seats.append(state.current_player())
        state.apply_action(game.action_from_json(raw))
    return seats


@guard
def bench_command(
    game: Annotated[str, typer.Argument(help="Which game.")],
    players: Annotated[int | None, typer.Option("--players", "-n")] = None,
    seconds: Annotated[
        float, typer.Option(min=0.1, max=3600, help="Seconds of random playouts.")
    ] = 3.0,
    seed: Annotated[int, typer.Option()] = 1,
    option: OptionList = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object on stdout.")] = False,
    vs_openspiel: Annotated[
        bool,
        typer.Option(
            "--vs-openspiel", help="Also pit robotable's MCTS against OpenSpiel's IS-MCTS."
        ),
    ] = False,
    vs_games: Annotated[
        int, typer.Option(min=1, max=100_000, help="Games for --vs-openspiel.")
    ] = 100,
    vs_seconds: Annotated[
        float, typer.Option(min=0.001, max=60, help="Seconds per move for --vs-openspiel.")
    ] = 0.1,
    compare_pure: Annotated[
        bool,
        typer.Option(
            "--compare-pure",
            help="Both engines side by side: this one (compiled where built) and the pure "
            "Python one (ROBOTABLE_PURE=1), each in its own process, alternating.",
        ),
    ] = False,
    rounds: Annotated[
        int, typer.Option(min=1, max=100, help="Alternating runs per engine for --compare-pure.")
    ] = 3,
) -> None:
    """Measure a game's speed: playouts, MCTS iterations, clone and apply cost, state size.

    Example: `robotable bench rumblebots -n 3 --seconds 5 --json`.
    """
    from .bench import run_bench

    the_game = build_game(game, players, parse_options(option))
    if compare_pure:
        from .bench import compare_engines, format_comparison

        result = compare_engines(game, players, list(option or []), seconds, seed, rounds)
        print(json.dumps(result) if as_json else format_comparison(result))
        return
    figures = run_bench(the_game, seconds, seed)
    if vs_openspiel:
        try:
            from ..envs.openspiel_bench import compare
        except ImportError as exc:
            raise OptionError(f"--vs-openspiel needs the [rl] extra ({exc})") from None
        figures["vs_openspiel"] = compare(game, vs_games, vs_seconds, seed)
    versus = figures.get("vs_openspiel")
    if as_json:
        print(json.dumps(figures))
        return
    table = RichTable(title=f"robotable bench {game} ({the_game.num_players} seats)")
    table.add_column("measure")
    table.add_column("value", justify="right")
    for key, value in figures.items():
        if key == "vs_openspiel":
            continue
        shown = f"{value:,.1f}" if isinstance(value, float) else str(value)
        table.add_row(key, shown)
    Console().print(table)
    if versus is not None:
        from ..envs.openspiel_bench import format_report

        print(format_report(versus))


@guard
def soak_command(
    game: Annotated[str, typer.Argument(help="Which game.")],
    games: Annotated[
        int, typer.Option(min=1, max=1_000_000, help="How many random games.")
    ] = 10000,
    players: Annotated[int | None, typer.Option("--players", "-n")] = None,
    seed: Annotated[int, typer.Option()] = 1,
    workers: Annotated[
        int, typer.Option(min=1, max=1024, help="Worker processes.")
    ] = os.cpu_count() or 1,
    max_steps: Annotated[
        int, typer.Option(min=1, max=10_000_000, help="A game longer than this is an error.")
    ] = 20000,
    failures: Annotated[
        Path, typer.Option(help="Where records of failing games are written.")
    ] = Path("soak-failures"),
    option: OptionList = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Play many random games and report every error (0 expected); failing games are saved.

    Example: `robotable soak betabotz -n 5 --games 2000 --workers 2`.
    """
    from .soak import soak

    the_game = build_game(game, players, parse_options(option))
    start = time.perf_counter()
    columns = (
        TextColumn("soak"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total}"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=Console(stderr=True), disable=as_json) as progress:
        task = progress.add_task("soak", total=games)
        results = soak(
            game,
            the_game.num_players,
            dict(the_game.options),
            games,
            seed,
            workers,
            max_steps,
            str(failures),
            progress=lambda: progress.advance(task),
        )
    errors = [r for r in results if r["error"]]
    summary = {
        "game": game,
        "num_players": the_game.num_players,
        "games": games,
        "errors": len(errors),
        "mean_actions": sum(r["actions"] for r in results) / max(1, len(results)),
        "seconds": time.perf_counter() - start,
        "failures": [{k: r[k] for k in ("seed", "error", "record")} for r in errors[:20]],
    }
    if as_json:
        print(json.dumps(summary))
    else:
        print(
            f"{games} random games of {game} ({the_game.num_players} seats): "
            f"{len(errors)} errors, {summary['mean_actions']:.1f} actions per game, "
            f"{summary['seconds']:.1f} s"
        )
        for failure in summary["failures"]:
            print(f"  seed {failure['seed']}: {failure['error']} (record {failure['record']})")
    raise typer.Exit(1 if errors else 0)
