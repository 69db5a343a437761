"""The `robotable` command line.

Each front end registers its own commands so that one file does not grow into everything:
`games`, `play`, `replay`, `bench` and `soak` live in `robotable.frontend` (`new-game` and
`check`, for a game's author, in `robotable.frontend.authoring`); `simulate`, `pool`, `ladder`,
`tune` and `balance` in `robotable.sim.commands`; `serve` in `robotable.server.commands`.
"""

from __future__ import annotations

import importlib
import inspect
import sys

import typer

app = typer.Typer(
    name="robotable",
    help="Play, simulate and study five robot tabletop games.",
    add_completion=False,
    pretty_exceptions_enable=False,
)

_COMMAND_MODULES = (
    "robotable.frontend.commands",
    "robotable.frontend.authoring",
    "robotable.sim.commands",
    "robotable.server.commands",
    "robotable.envs.commands",  # train (needs the [rl] extra to be listed, [train] to run)
)


def _register_all() -> None:
    for name in _COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            # A front end whose optional dependencies are not installed adds no commands.
            missing = exc.name or ""
            if (
                name == missing
                or name.startswith(missing + ".")
                or not missing.startswith("robotable")
            ):
                continue
            raise
        module.register(app)
    for info in app.registered_commands:
        if info.help is None and info.callback is not None:
            info.help = reflowed(inspect.getdoc(info.callback) or "")


def reflowed(doc: str) -> str:
    """A command's docstring as help: each paragraph's lines joined into one, so the terminal
    wraps it at its own width. Typer's help keeps a docstring's single line breaks after the
    first paragraph, which break sentences in the middle at 80 columns."""
    return "\n\n".join(" ".join(p.split()) for p in doc.split("\n\n"))


def version_text() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        number = version("robotable")
    except PackageNotFoundError:  # run from a source tree that was not installed
        number = "unknown"
    from ._engine import describe

    return f"robotable {number} ({describe()}, Python {sys.version.split()[0]})"


@app.callback(invoke_without_command=True)
def _root(
    ctx: typer.Context,
    show_version: bool = typer.Option(
        False, "--version", help="Print robotable's version and engine, then exit."
    ),
) -> None:
    if show_version:
        print(version_text())
        raise typer.Exit(0)
    if ctx.invoked_subcommand is None:
        print(ctx.get_help())
        raise typer.Exit(0)


# Typer bundles its own copy of click and exports only some of its exceptions; the usage error
# (bad option value, unknown option or command) is the base class of the one it does export.
UsageError = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "UsageError")


def main() -> None:
    _register_all()
    try:
        # Without click's standalone mode, an exit code comes back as the return value.
        code = app(standalone_mode=False)
    except UsageError as exc:
        # One line that names the option and what is wrong, like every other error here.
        where = f"{exc.ctx.command_path}: " if exc.ctx is not None else ""
        print(f"error: {where}{exc.format_message()}", file=sys.stderr)
        raise SystemExit(2) from None
    except typer.Abort:
        print("stopped", file=sys.stderr)
        raise SystemExit(130) from None
    except typer.Exit as exc:
        raise SystemExit(exc.exit_code) from None
    raise SystemExit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
