"""The `robotable` command line.

Each front end registers its own commands so that one file does not grow into everything:
`games`, `play`, `replay`, `bench` and `soak` live in `robotable.frontend`; `simulate` and `ladder` in
`robotable.sim.commands`; `serve` in `robotable.server.commands`.
"""

from __future__ import annotations

import importlib

import typer

app = typer.Typer(
    name="robotable",
    help="Play, simulate and study five robot tabletop games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

_COMMAND_MODULES = (
    "robotable.frontend.commands",
    "robotable.sim.commands",
    "robotable.server.commands",
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


def main() -> None:
    _register_all()
    app()


if __name__ == "__main__":
    main()
