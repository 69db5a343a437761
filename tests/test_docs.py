"""The docs stay honest: the module map names every module and only real ones, pages stay short,
and no page carries a date (the history is in git, not in the docs)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PACKAGE = ROOT / "src" / "robotable"
ARCHITECTURE = DOCS / "architecture.md"
MAX_LINES = 400

# Paths in the module map: `src/robotable/...`, `robotable/...`, or relative to the package
# (`server/guard.py`, `games/<game>/state.py`).
_LAYERS = "core|agents|games|server|sim|envs|frontend|web"
_FULL_PATH = re.compile(r"(?:src/)?robotable/[\w./<>-]+")
_MODULE = re.compile(rf"(?<![\w/.])((?:{_LAYERS})/[\w/<>]*\w\.py|[_a-z]\w*\.py)(?![\w/])")
_MONTHS = "Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec"
_DATE = re.compile(
    rf"\b\d{{1,2}} (?:{_MONTHS})[a-z]* \d{{4}}\b"
    rf"|\b\d{{4}}-\d{{2}}-\d{{2}}\b"
    rf"|\b(?:{_MONTHS})[a-z]* \d{{1,2}}, \d{{4}}\b"
)


def _games() -> list[str]:
    return sorted(p.name for p in (PACKAGE / "games").iterdir() if (p / "__init__.py").is_file())


def _module_files() -> list[str]:
    """Every module under src/robotable, relative to it, except packages' `__init__.py`."""
    return sorted(
        str(p.relative_to(PACKAGE))
        for p in PACKAGE.rglob("*.py")
        if p.name != "__init__.py" and "__pycache__" not in p.parts
    )


def _named_in_map(text: str) -> set[str]:
    """Module paths (relative to src/robotable) the architecture page names, `<game>` expanded."""
    named: set[str] = set()
    for raw in _MODULE.findall(text):
        names = [raw.replace("<game>", g) for g in _games()] if "<game>" in raw else [raw]
        named.update(names)
    for raw in _FULL_PATH.findall(text):
        path = raw.rstrip(".").split("robotable/", 1)[1]
        named.add(path)
    return named


def _pages(include_rules: bool) -> list[Path]:
    pages = sorted(DOCS.rglob("*.md"))
    if not include_rules:
        pages = [p for p in pages if "rules" not in p.relative_to(DOCS).parts]
    return pages


def test_every_full_path_in_the_architecture_page_exists() -> None:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    missing = []
    for raw in _FULL_PATH.findall(text):
        path = raw.rstrip(".").split("robotable/", 1)[1]
        if "<game>" in path:
            if not any((PACKAGE / path.replace("<game>", g)).exists() for g in _games()):
                missing.append(raw)
        elif not (PACKAGE / path).exists():
            missing.append(raw)
    assert not missing, f"docs/architecture.md names paths that do not exist: {missing}"


def test_every_module_the_architecture_page_names_exists() -> None:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    missing = []
    for raw in set(_MODULE.findall(text)):
        if "/" not in raw:
            continue  # a bare file name (`__init__.py`, `state.py`) is a name, not a path
        candidates = [raw.replace("<game>", g) for g in _games()] if "<game>" in raw else [raw]
        if not any((PACKAGE / c).is_file() or (ROOT / c).is_file() for c in candidates):
            missing.append(raw)
    assert not missing, f"docs/architecture.md names modules that do not exist: {sorted(missing)}"


def test_the_architecture_page_names_every_module() -> None:
    named = _named_in_map(ARCHITECTURE.read_text(encoding="utf-8"))
    unnamed = [m for m in _module_files() if m not in named]
    assert not unnamed, (
        "modules under src/robotable that docs/architecture.md does not name "
        f"(add a line to 'Every module in a line'): {unnamed}"
    )


@pytest.mark.parametrize("page", _pages(include_rules=False), ids=lambda p: p.name)
def test_a_page_outside_the_rules_is_at_most_400_lines(page: Path) -> None:
    lines = len(page.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{page.relative_to(ROOT)} has {lines} lines (at most {MAX_LINES})"


@pytest.mark.parametrize("page", _pages(include_rules=True), ids=lambda p: str(p.relative_to(DOCS)))
def test_no_page_carries_a_date(page: Path) -> None:
    hits = [
        f"line {number}: {match.group(0)}"
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), start=1)
        for match in _DATE.finditer(line)
    ]
    assert not hits, (
        f"{page.relative_to(ROOT)} carries dates (history lives in git; a ruling needs no date, "
        f"a record note can name the rules version): {hits}"
    )


def test_the_readme_points_at_docs_that_exist() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    for raw in re.findall(r"docs/[\w/<>.-]+", text):
        path = raw.rstrip(".")
        if "<game>" in path:
            assert (DOCS / "rules").is_dir()
            continue
        assert (ROOT / path).exists(), f"README.md points at {path}, which does not exist"
