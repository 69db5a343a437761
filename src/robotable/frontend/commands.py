"""Terminal commands: games, play, replay, bench, soak."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table as RichTable

from ..core.errors import OptionError, RecordError
from ..core.records import load_record, replay_record
from ..core.registry import game_class, game_names
from .common import build_game, event_text, fail, guard, parse_options

OptionList = Annotated[
    list[str] | None, typer.Option("--option", "-o", help="A game option NAME=VALUE (repeatable).")
]


def register(app: typer.Typer) -> None:
    app.command("games")(games_command)
    app.command("play")(play_command)
    app.command("replay")(replay_command)
    app.command("bench")(bench_command)
    app.command("soak")(soak_command)


def games_command(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """List the games with their seat counts and options."""
    infos = []
    for name in game_names():
        cls = game_class(name)
        infos.append(cls(num_players=cls.min_players).info())
    if as_json:
        print(json.dumps(infos, indent=1))
        return
    table = RichTable(title="robotable games", show_lines=True)
    table.add_column("game", style="bold")
    table.add_column("seats")
    table.add_column("what it is")
    table.add_column("options (default)")
    for info in infos:
        options = "\n".join(f"{o['name']}={o['default']!r}: {o['help']}" for o in info["options"])
        seats = f"{info['min_players']}-{info['max_players']}"
        table.add_row(info["name"], seats, f"{info['title']}\n{info['description']}", options)
    Console().print(table)


@guard
def play_command(
    game: Annotated[str, typer.Argument(help="Which game: see `robotable games`.")],
    players: Annotated[int | None, typer.Option("--players", "-n", help="Seat count.")] = None,
    seats: Annotated[
        str | None,
        typer.Option(help="Who sits where, e.g. human,mcts or mcts:2000,greedy,random."),
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Seed of the game (random if omitted).")] = None,
    record: Annotated[Path | None, typer.Option(help="Write the game record to this file.")] = None,
    option: OptionList = None,
    deck: Annotated[
        list[str] | None, typer.Option(help="A deck list per seat, in seat order (iotabots).")
    ] = None,
    cards: Annotated[str | None, typer.Option(help="Your own card file.")] = None,
) -> None:
    """Play in the terminal against the AI, with friends at one screen, or watch AIs play."""
    from ..agents import parse_agent_spec
    from .play import Table, build_agents, run_table

    seat_list = [s.strip() for s in seats.split(",")] if seats else None
    cls = game_class(game)
    if players is None:
        players = len(seat_list) if seat_list else cls.min_players
    if seat_list is None:
        seat_list = ["human"] + ["mcts"] * (players - 1)
    if len(seat_list) == 1 and players > 1:
        seat_list = seat_list * players
    if len(seat_list) != players:
        raise OptionError(f"--seats names {len(seat_list)} seats but the game has {players}")
    for spec in seat_list:
        if spec != "human":
            parse_agent_spec(spec)
    the_game = build_game(game, players, parse_options(option), deck, cards)
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "little")
    if record is not None and record.exists() and record.is_dir():
        raise OptionError(f"--record {record}: is a directory")
    console = Console()
    if "human" in seat_list:
        console.print(
            f"[bold]{cls.title}[/bold], seed {seed}. Type a number to act, help for commands."
        )
        if record is None:
            from platformdirs import user_data_dir

            record = Path(user_data_dir("robotable")) / "records" / f"{game}-{seed}.json"
    table = Table(the_game, seed, seat_list, build_agents(seat_list, seed), record, console)
    raise typer.Exit(run_table(table))


def replay_command(
    record: Annotated[Path, typer.Argument(help="A record written by play, serve or simulate.")],
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Only verify.")] = False,
) -> None:
    """Verify a game record by replaying it, and print its log."""
    try:
        data = load_record(record)
    except RecordError as exc:
        fail(str(exc))
    try:
        game, state, log = replay_record(data, where=f"record {record}")
    except RecordError as exc:
        fail(str(exc), code=1 if exc.step is not None else 2)
    if not quiet:
        from ..core.registry import load_game

        walker = load_game(data["game"], num_players=data["num_players"], **data["options"])
        walk = walker.new_initial_state(seed=data["seed"])
        for step, (raw, events) in enumerate(zip(data["actions"], log), start=1):
            seat = walk.current_player()
            action = walker.action_from_json(raw)
            walk.apply_action(action)
            print(f"{step:4d}. seat {seat}: {action}")
            for event in events:
                if "to" not in event:
                    print(f"      {event_text(event)}")
    outcome = f"returns {state.returns()}" if state.is_terminal() else "unfinished"
    print(f"record {record}: {len(data['actions'])} actions replay exactly; {outcome}")


@guard
def bench_command(
    game: Annotated[str, typer.Argument(help="Which game.")],
    players: Annotated[int | None, typer.Option("--players", "-n")] = None,
    seconds: Annotated[float, typer.Option(help="Seconds of random playouts.")] = 3.0,
    seed: Annotated[int, typer.Option()] = 1,
    option: OptionList = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object on stdout.")] = False,
    vs_openspiel: Annotated[
        bool,
        typer.Option(
            "--vs-openspiel", help="Also pit robotable's MCTS against OpenSpiel's IS-MCTS."
        ),
    ] = False,
    vs_games: Annotated[int, typer.Option(help="Games for --vs-openspiel.")] = 100,
    vs_seconds: Annotated[float, typer.Option(help="Seconds per move for --vs-openspiel.")] = 0.1,
) -> None:
    """Measure a game's speed: playouts, MCTS iterations, clone and apply cost, state size."""
    from .bench import run_bench

    the_game = build_game(game, players, parse_options(option))
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
    games: Annotated[int, typer.Option(help="How many random games.")] = 10000,
    players: Annotated[int | None, typer.Option("--players", "-n")] = None,
    seed: Annotated[int, typer.Option()] = 1,
    workers: Annotated[int, typer.Option(help="Worker processes.")] = os.cpu_count() or 1,
    max_steps: Annotated[int, typer.Option(help="A game longer than this is an error.")] = 20000,
    failures: Annotated[
        Path, typer.Option(help="Where records of failing games are written.")
    ] = Path("soak-failures"),
    option: OptionList = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Play many random games and report every error (0 expected); failing games are saved."""
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
