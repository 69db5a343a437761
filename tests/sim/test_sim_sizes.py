"""The lab stays in rooms: no module in sim/ over 1,000 lines and no function over 120 (issue 80).

A module or function past its limit is named with its length, so a failure says what to split.
"""

from __future__ import annotations

import ast
from pathlib import Path

SIM = Path(__file__).resolve().parents[2] / "src" / "robotable" / "sim"
MAX_MODULE_LINES = 1000
MAX_FUNCTION_LINES = 120


def _modules() -> list[Path]:
    return sorted(p for p in SIM.rglob("*.py") if "__pycache__" not in p.parts)


def test_the_lab_has_modules_to_check() -> None:
    names = {str(p.relative_to(SIM)) for p in _modules()}
    assert {"runner.py", "commands.py", "formatting.py", "studies/simulate.py"} <= names


def test_no_module_in_sim_is_over_1000_lines() -> None:
    long = {
        str(p.relative_to(SIM)): n
        for p in _modules()
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert not long, f"modules over {MAX_MODULE_LINES} lines: {long}"


def test_no_function_in_sim_is_over_120_lines() -> None:
    """A function's lines run from its `def` (or first decorator) to its last line, nested
    functions included: a command nested in `register` counts as part of it."""
    long = {}
    for path in _modules():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                length = node.end_lineno - first + 1
                if length > MAX_FUNCTION_LINES:
                    long[f"{path.relative_to(SIM)}:{node.lineno} {node.name}"] = length
    assert not long, f"functions over {MAX_FUNCTION_LINES} lines: {long}"
