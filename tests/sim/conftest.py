"""What the lab's command tests share: the commands on a typer app of their own."""

from __future__ import annotations

import pytest
import typer
from typer.testing import CliRunner

from robotable.sim.commands import register


@pytest.fixture
def invoke():
    """`invoke("simulate", ...)` runs a lab command in this process and returns typer's result."""
    app = typer.Typer()
    register(app)
    runner = CliRunner()
    return lambda *args: runner.invoke(app, list(args))
