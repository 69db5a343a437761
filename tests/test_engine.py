"""The engine switch: compiled modules load only when their manifest vouches for the source as it
is now; ROBOTABLE_PURE=1 always runs the source; the suite runs on the engine it was asked for."""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import sys
import warnings
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import robotable
from robotable import _engine

PACKAGE = Path(robotable.__file__).parent
MODULE = "robotable.core.rng"


def _fake_build(root: Path, source_digest: str) -> Path:
    """An engine directory holding a (fake) compiled rng module and its manifest."""
    package = root / "robotable"
    (package / "core").mkdir(parents=True)
    compiled = package / "core" / ("rng" + EXTENSION_SUFFIXES[0])
    compiled.write_bytes(b"")
    manifest = {"compiler": "Cython test", "modules": {MODULE: source_digest}}
    (package / _engine.MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    return compiled


def _digest() -> str:
    return hashlib.sha256((PACKAGE / "core" / "rng.py").read_bytes()).hexdigest()


def test_a_current_build_is_chosen(tmp_path: Path) -> None:
    compiled = _fake_build(tmp_path, _digest())
    finder = _engine.EngineFinder(pure=False, engine_dir=str(tmp_path))
    assert finder.choose(MODULE) == (str(compiled), "compiled")
    report = finder.report()
    assert report["engine"] == "compiled" and report["compiled"] == 1 == report["known"]


def test_a_stale_build_runs_the_source_and_warns_once(tmp_path: Path) -> None:
    _fake_build(tmp_path, "0" * 64)  # the source was edited after the build
    finder = _engine.EngineFinder(pure=False, engine_dir=str(tmp_path))
    assert finder.choose(MODULE) == (None, "stale")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        spec = finder.find_spec(MODULE, [str(PACKAGE / "core")])
        again = finder.find_spec(MODULE, [str(PACKAGE / "core")])
    assert spec is not None and spec.origin == str(PACKAGE / "core" / "rng.py")
    assert again is not None and again.origin == spec.origin
    assert len(caught) == 1 and MODULE in str(caught[0].message)
    assert finder.report()["engine"] == "pure"


def test_an_orphan_extension_from_an_older_build_is_not_stale(tmp_path: Path) -> None:
    """A module no longer compiled leaves its old extension behind; its manifest does not list it,
    so the source runs without a warning that some module is stale."""
    compiled = _fake_build(tmp_path, _digest())
    manifest_path = compiled.parent.parent / _engine.MANIFEST
    manifest_path.write_text(json.dumps({"compiler": "Cython test", "modules": {}}), "utf-8")
    finder = _engine.EngineFinder(pure=False, engine_dir=str(tmp_path))
    assert finder.choose(MODULE) == (None, "not compiled")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert finder.find_spec(MODULE, [str(PACKAGE / "core")]) is None
    assert caught == []


def test_pure_forced_runs_the_source_even_when_current(tmp_path: Path) -> None:
    _fake_build(tmp_path, _digest())
    finder = _engine.EngineFinder(pure=True, engine_dir=str(tmp_path))
    assert finder.choose(MODULE) == (None, "ROBOTABLE_PURE=1")
    assert finder.report()["engine"] == "pure"


def test_modules_without_a_compiled_form_are_left_to_python(tmp_path: Path) -> None:
    finder = _engine.EngineFinder(pure=False, engine_dir=str(tmp_path))
    assert finder.find_spec("robotable.core.records", [str(PACKAGE / "core")]) is None
    assert finder.find_spec("json", None) is None
    assert finder.report() == {**finder.report(), "engine": "pure", "known": 0}


def test_the_pure_switch_reads_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for value, forced in (("1", True), ("yes", True), ("0", False), ("", False)):
        monkeypatch.setenv(_engine.PURE_VARIABLE, value)
        assert _engine.pure_forced() is forced


def _engine_modules() -> list[str]:
    return [name for name in _engine.status()["modules"] if name in sys.modules]


def test_the_suite_runs_on_the_engine_it_was_asked_for() -> None:
    """scripts/test.sh runs the suite on each engine: make sure each run is what it says."""
    import robotable.agents.mcts  # noqa: F401
    import robotable.games.rumblebots.rules  # noqa: F401

    status = _engine.status()
    if _engine.pure_forced():
        assert status["engine"] == "pure"
        for name, module in sys.modules.items():
            if name.startswith("robotable.") and getattr(module, "__file__", None):
                assert module.__file__.endswith(".py"), name
    elif os.environ.get(_engine.DIR_VARIABLE):
        assert status["engine"] == "compiled", status
        assert status["compiled"] == status["known"] > 30
        loaded = _engine_modules()
        assert loaded and all(not sys.modules[name].__file__.endswith(".py") for name in loaded), (
            loaded
        )


@given(st.integers(0, 2**32), st.integers(0, 80))
def test_rng_shuffle_is_random_shuffle(seed: int, size: int) -> None:
    """The determinizations' inlined shuffle draws the same permutation from the same stream."""
    from robotable.core.rng import GameRng, shuffle

    ours, theirs = random.Random(seed), random.Random(seed)
    mine, reference = list(range(size)), list(range(size))
    shuffle(ours, mine)
    theirs.shuffle(reference)
    assert mine == reference and ours.random() == theirs.random()
    game_rng, twin = GameRng(seed), GameRng(seed)
    shuffle(game_rng, mine)
    twin.shuffle(reference)
    assert mine == reference and game_rng.state == twin.state


@given(st.integers(0, 2**32), st.integers(0, 300), st.data())
def test_rng_sample_is_random_sample(seed: int, size: int, data: st.DataObject) -> None:
    """The determinizations' inlined sample takes the same items in the same order from the same
    stream, on both of CPython's paths (a small population's pool, a large one's set)."""
    from robotable.core.rng import GameRng, sample

    take = data.draw(st.integers(0, size))
    ours, theirs = random.Random(seed), random.Random(seed)
    population = [f"m{i}" for i in range(size)]
    assert sample(ours, population, take) == theirs.sample(population, take)
    assert ours.random() == theirs.random()
    game_rng, twin = GameRng(seed), GameRng(seed)
    assert sample(game_rng, population, take) == twin.sample(population, take)
    assert game_rng.state == twin.state


def test_a_module_compiled_against_a_stale_one_runs_the_source(tmp_path: Path) -> None:
    """A compiled module that cimports another's extension type (its .pxd) runs only with that
    module fresh: rules compiled against StakBotsState cannot run with state.py's Python class."""
    compiled = _fake_build(tmp_path, _digest())
    manifest_path = tmp_path / "robotable" / _engine.MANIFEST
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    other = "robotable.core.protocol"
    manifest["modules"][other] = "0" * 64  # stale
    manifest["cimports"] = {MODULE: [other]}
    manifest_path.write_text(json.dumps(manifest), encoding="utf-8")
    finder = _engine.EngineFinder(pure=False, engine_dir=str(tmp_path))
    assert finder.choose(MODULE) == (None, "stale")
    manifest["modules"][other] = hashlib.sha256(
        (PACKAGE / "core" / "protocol.py").read_bytes()
    ).hexdigest()
    manifest_path.write_text(json.dumps(manifest), encoding="utf-8")
    finder = _engine.EngineFinder(pure=False, engine_dir=str(tmp_path))
    assert finder.choose(MODULE) == (str(compiled), "compiled")


@given(st.integers(0, 2**32), st.integers(33, 64), st.integers(0, 60), st.integers(1, 10**6))
def test_rng_random_bits_and_randbelow_are_getrandbits_and_randrange(
    seed: int, bits: int, count: int, n: int
) -> None:
    """Determinizations' batched draws and MCTS's randbelow: the same numbers from the same
    stream as the calls they stand for."""
    from robotable.core.rng import randbelow, random_bits

    ours, theirs = random.Random(seed), random.Random(seed)
    assert random_bits(ours, bits, count) == [theirs.getrandbits(bits) for _ in range(count)]
    assert [randbelow(ours, m) for m in (1, 2, 7, n)] == [theirs.randrange(m) for m in (1, 2, 7, n)]
    assert ours.random() == theirs.random()


def test_a_source_edited_during_a_build_is_not_recorded_as_built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The manifest holds each source's hash as the build read it: a module edited while the
    build ran is then refused at load and rebuilt next time, not loaded as if current."""
    pytest.importorskip("Cython")
    from robotable import _build

    src = tmp_path / "src"
    shutil.copytree(PACKAGE, src / "robotable", ignore=shutil.ignore_patterns("__pycache__"))
    edited = src / "robotable" / "core" / "rng.py"
    before = _build.source_hash(edited)

    def compile_while_someone_edits(source: Path, build_dir: Path) -> list:
        edited.write_text(edited.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
        return []  # nothing compiled: only the manifest is under test

    monkeypatch.setattr(_build, "extensions", compile_while_someone_edits)
    _build.build(tmp_path / "engine", src=src)
    manifest = json.loads((tmp_path / "engine" / "robotable" / _engine.MANIFEST).read_text())
    assert manifest["modules"][MODULE] == before != _build.source_hash(edited)


def test_the_shim_knows_every_cython_name_the_engine_uses() -> None:
    """A runtime install has no Cython: its engine modules read `cython.NAME` from the shim, so
    a declaration naming a type the shim lacks fails at import there and nowhere else (a test
    run with Cython installed reads Cython's own module)."""
    import re

    from robotable.core import cython_shim

    used = {
        name
        for path in PACKAGE.rglob("*.py")
        for name in re.findall(r"\bcython\.([A-Za-z_]\w*)", path.read_text(encoding="utf-8"))
    }
    assert used, "no declarations found: the pattern no longer matches the sources"
    assert sorted(name for name in used if not hasattr(cython_shim, name)) == []
