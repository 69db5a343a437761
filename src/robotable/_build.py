"""Build the compiled engine: Cython compiles the engine's own Python source, unchanged.

One source of rules: the modules listed in `ENGINE_MODULES` are compiled from the very `.py`
files the pure engine runs (Cython's pure-Python mode; the few type declarations sit in
`cython.*` decorators that plain Python ignores). Two ways in:

- `pip install .` (a wheel) builds them next to the sources inside the wheel (setup.py), and
  falls back to the pure engine, saying so once, when Cython or a C compiler is missing.
- A development checkout (`pip install -e .`) never builds them next to the sources, where they
  would shadow a developer's edits. `python -m robotable._build [DIR]` builds them into a build
  directory (default `build/engine`), and `ROBOTABLE_ENGINE_DIR=DIR` makes a process use them.

Each build writes `robotable/_engine_manifest.json` beside the modules: every module's source
hash. `robotable._engine` loads a compiled module only when its source still has that hash, so a
stale build falls back to the source with one warning instead of running old rules.

This module imports nothing from robotable (setup.py loads it by path, before robotable is
installed).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from pathlib import Path

MANIFEST = "_engine_manifest.json"

# The forward model and the search: what a playout or an MCTS iteration runs, and the views an
# RL environment builds at every step (each game's view.py). Content loaders, narration, the
# terminal's text and the front ends stay interpreted (they run once per game or per move).
ENGINE_MODULES: tuple[str, ...] = (
    "robotable.core.protocol",
    "robotable.core.rng",
    "robotable.core.events",
    "robotable.agents.mcts",
    "robotable.agents.random_agent",
    "robotable.envs.rows",  # the RL environments' batch rows, written in place
    *(
        f"robotable.games.{game}.{module}"
        for game, modules in (
            (
                "stakbots",
                (
                    "actions",
                    "state",
                    "board",
                    "effects",
                    "rules",
                    "drone",
                    "view",
                    "heuristic",
                    "encoding",
                ),
            ),
            (
                "breadwinner",
                ("actions", "state", "board", "rules", "view", "heuristic", "encoding"),
            ),
            (
                "iotabots",
                ("actions", "state", "board", "rules", "effects", "view", "heuristic", "encoding"),
            ),
            (
                "betabotz",
                ("actions", "state", "rules", "effects", "view", "heuristic", "encoding"),
            ),
            (
                "rumblebots",
                ("actions", "state", "rules", "effects", "view", "heuristic", "encoding"),
            ),
        )
        for module in modules
    ),
)

# Annotations are not C types here (`x: float` would turn an int into 1.0 in the compiled engine
# alone): only explicit `cython.*` declarations type anything, so both engines compute the same.
DIRECTIVES = {
    "language_level": 3,
    "binding": True,
    "annotation_typing": False,
    "embedsignature": False,
    "always_allow_keywords": True,
}
# -g0: debug info costs a third of the compile time and is not shipped.
COMPILE_ARGS = ["-O2", "-g0"]


def source_path(src: Path, module: str) -> Path:
    return src.joinpath(*module.split(".")).with_suffix(".py")


def source_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def declaration_hashes(src: Path) -> dict[str, str]:
    """Each `.pxd` beside an engine module (C types for the compiled engine alone), by module:
    a changed declaration rebuilds, though the runtime check compares only the `.py` (the
    rules a compiled module runs are its `.py`'s; the `.pxd` says how fast)."""
    out = {}
    for name in ENGINE_MODULES:
        pxd = source_path(src, name).with_suffix(".pxd")
        if pxd.is_file():
            out[name] = source_hash(pxd)
    return out


def cython_version() -> str | None:
    try:
        import Cython
    except ImportError:
        return None
    return str(Cython.__version__)


def extensions(src: Path, build_dir: Path) -> list:
    """The engine's extension modules, Cython's C files written under `build_dir` (never next
    to the sources)."""
    from Cython.Build import cythonize
    from setuptools import Extension

    modules = [
        Extension(name, [str(source_path(src, name))], extra_compile_args=COMPILE_ARGS)
        for name in ENGINE_MODULES
    ]
    return cythonize(
        modules,
        compiler_directives=DIRECTIVES,
        build_dir=str(build_dir),
        quiet=True,
        nthreads=os.cpu_count() or 1,  # Cython writes the C files in parallel too
    )


def cimports(src: Path) -> dict[str, list[str]]:
    """The engine modules whose extension types each module uses, through its `.pxd`'s
    `from ... cimport` lines, transitively: a compiled module runs only with the compiled
    forms of those (robotable._engine passes it over when one of them is stale)."""
    direct: dict[str, set[str]] = {}
    for name in ENGINE_MODULES:
        pxd = source_path(src, name).with_suffix(".pxd")
        lines = pxd.read_text(encoding="utf-8").splitlines() if pxd.is_file() else []
        words = [line.split() for line in lines]
        direct[name] = {
            w[1] for w in words if len(w) > 3 and w[0] == "from" and w[2] == "cimport"
        } & set(ENGINE_MODULES)
    out = {}
    for name in ENGINE_MODULES:
        seen: set[str] = set()
        todo = list(direct[name])
        while todo:
            dep = todo.pop()
            if dep not in seen:
                seen.add(dep)
                todo += direct[dep]
        if seen:
            out[name] = sorted(seen)
    return out


def write_manifest(
    src: Path, package_dir: Path, hashes: dict[str, str], declarations: dict[str, str]
) -> Path:
    """`package_dir/_engine_manifest.json`: the compiler and each built module's source hash,
    as the sources were when the build read them."""
    manifest = {
        "compiler": f"Cython {cython_version()}",
        "python": sys.version.split()[0],
        "modules": dict(sorted(hashes.items())),
        "declarations": declarations,
        "cimports": cimports(src),
    }
    package_dir.mkdir(parents=True, exist_ok=True)
    path = package_dir / MANIFEST
    path.write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return path


def build(out: Path, src: Path | None = None, jobs: int | None = None) -> dict:
    """Compile the engine into `out` (a directory holding `robotable/...`); C files and objects
    go to `out/../engine-tmp`. Rebuilds only what changed: Cython and setuptools compare
    timestamps, and an up-to-date manifest skips the build altogether."""
    from setuptools import Distribution

    src = src or Path(__file__).resolve().parent.parent
    out = out.resolve()
    manifest_path = out / "robotable" / MANIFEST
    # Hashed before compiling: a source edited during the build must not be recorded as built
    # (the engine would load old code for it); recorded as it was read, it is refused and rebuilt.
    wanted = {name: source_hash(source_path(src, name)) for name in ENGINE_MODULES}
    declarations = declaration_hashes(src)
    if manifest_path.is_file():
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        have = manifest.get("modules", {})
        same = have == wanted and manifest.get("declarations", {}) == declarations
        if same and all(_built_file(out, name) for name in wanted):
            return {"built": 0, "modules": len(wanted), "directory": str(out)}
    if cython_version() is None:
        raise SystemExit("robotable._build: Cython is not installed (pip install 'cython>=3.1')")
    temp = out.parent / (out.name + "-tmp")
    start = time.monotonic()
    exts = extensions(src, temp / "c")
    dist = Distribution({"name": "robotable-engine", "ext_modules": exts})
    command = dist.get_command_obj("build_ext")
    command.build_lib = str(out)
    command.build_temp = str(temp / "obj")
    command.parallel = jobs or os.cpu_count() or 1
    command.ensure_finalized()
    command.run()
    write_manifest(src, out / "robotable", wanted, declarations)
    return {
        "built": len(exts),
        "modules": len(wanted),
        "directory": str(out),
        "seconds": round(time.monotonic() - start, 1),
    }


def _built_file(out: Path, module: str) -> Path | None:
    from importlib.machinery import EXTENSION_SUFFIXES

    base = out.joinpath(*module.split("."))
    for suffix in EXTENSION_SUFFIXES:
        candidate = base.with_name(base.name + suffix)
        if candidate.is_file():
            return candidate
    return None


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] in ("-h", "--help"):
        print(
            "usage: python -m robotable._build [DIR]\n"
            "Compile the engine with Cython into DIR (default build/engine); then run with\n"
            "ROBOTABLE_ENGINE_DIR=DIR to use it (ROBOTABLE_PURE=1 forces the pure engine)."
        )
        return
    out = Path(args[0] if args else "build/engine")
    report = build(out)
    if report["built"]:
        print(
            f"robotable: built the compiled engine ({report['built']} modules) in {report['directory']} "
            f"in {report['seconds']} s"
        )
    else:
        print(f"robotable: the compiled engine in {report['directory']} is up to date")


if __name__ == "__main__":
    main()
