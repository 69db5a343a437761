"""The balance lab's command-line input, checked before the first game: agents, seats, option
sweeps and card files (variants), workers, Ray. Any bad input is a `UsageProblem`: one line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..core.content import embed_files
from ..core.errors import RobotableError
from ..core.options import OptionSpec
from ..core.registry import game_class, load_game
from .runner import (
    Variant,
    available_cores,
    check_reachable,
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


def check_agents(specs: list[str], game: str) -> None:
    from ..agents import check_for_game, make_agent

    for spec in specs:
        make_agent(spec, seed=0)  # raises OptionError naming the spec
        check_for_game(spec, game)


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
        listed = spec.type in (tuple, list)
        separator = ";" if listed else ","
        raw = [v.strip() for v in values.split(separator) if v.strip()]
        if not raw and listed and not values.strip():
            raw = [""]  # `NAME=` gives a list-valued option the empty list: "none"
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
    specs = {spec.name: spec for spec in game_class(game).option_specs}
    labels: dict[tuple[str, Any], str] = {}
    for name, values in sweeps.items():
        if not specs[name].content:
            continue
        # `-o cards=my.toml`: the file's text, inline, as for --cards; named by the file.
        embedded = [embed_files(game, (specs[name],), {name: v})[name] for v in values]
        for value, inline in zip(values, embedded):
            if inline != value:
                labels[(name, inline)] = Path(value).name
        sweeps[name] = embedded
    content: OptionSpec | None = None
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
            # Inline: the results file then carries the cards, and replays without the file.
            inline = embed_files(game, (content,), {content.name: str(path)})[content.name]
            files.append(inline)
            labels[(content.name, inline)] = path.name
        # The bundled set is the reference every user's file is compared with.
        sweeps[content.name] = [None, *files]
        labels[(content.name, None)] = "bundled"
    names = list(sweeps)
    count = 1
    for name in names:
        count *= len(sweeps[name])
    check_count("variants (--option values times --cards files)", count, 1, MAX_VARIANTS)
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
    # One agent means self-play at the usual table, not a one-seat mode (Stak Bots' Drone).
    return agents if cls.usual_players() <= agents <= cls.max_players else cls.usual_players()


def time_budget_warnings(game: str, specs: list[str]) -> list[str]:
    """A warning when any agent stops thinking on a clock (`time=`, or a named strength that
    resolves to one in this game): its moves then depend on the machine's speed and load."""
    from ..agents import concrete_spec, parse_agent_spec

    timed = []
    for spec in specs:
        concrete = concrete_spec(spec, game)
        _, params = parse_agent_spec(concrete)
        if params.get("time") is not None or params.get("turn") is not None:
            timed.append(spec if concrete == spec else f"{spec} ({concrete})")
    if not timed:
        return []
    return [
        f"agents with a time budget per move ({'; '.join(timed)}): their play depends on the "
        "machine's speed and load, so these results are not reproducible (the same seed can give "
        "other games, and a resumed run other numbers); give an iteration count instead (e.g. "
        "mcts:1000) for a reproducible run"
    ]


def check_ray(address: str | None) -> None:
    """Before the progress bar: Ray installed, and a cluster address that answers."""
    if address is None:
        return
    try:
        import ray  # noqa: F401
    except ImportError:
        raise UsageProblem("--ray: Ray is not installed (pip install 'robotable[sim]')") from None
    if address != "local":
        check_reachable(address)


# Bounds of the counts a command is given. A run keeps every game's result for its summary, so
# its games are bounded (about a kilobyte each); a longer study is several runs, each with its
# own --seed and --out-jsonl, pooled (`robotable pool`).
MAX_GAMES = 1_000_000
MAX_VARIANTS = 1_000
MAX_WORKERS = 1_024
MAX_ACTIONS = 10_000_000
MAX_ITERATIONS = 10_000_000  # as an agent's `mcts:N`
MAX_TRIALS = 10_000
MAX_BOOTSTRAP = 100_000
POOL_HINT = (
    "a longer study: several runs with their own --seed and --out-jsonl, then robotable pool"
)


def check_count(option: str, value: int, low: int, high: int, hint: str = "") -> int:
    """`value` when `low <= value <= high`, else one UsageProblem line naming the option."""
    if not low <= value <= high:
        shown = str(value) if len(str(value)) <= 30 else f"{str(value)[:27]}..."
        more = f" ({hint})" if hint else ""
        raise UsageProblem(f"{option} must be from {low:,} to {high:,}{more}, got {shown}")
    return value


def worker_count(given: int | None) -> int:
    if given is None:
        return available_cores()
    return check_count("--workers", given, 1, MAX_WORKERS)
