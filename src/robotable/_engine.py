"""Which engine runs: the compiled modules (Cython, from the same source) or the pure Python.

`install()` (run when `import robotable` imports this module, first) puts one finder ahead of Python's own for
robotable's modules. It decides per module, from the source file and the compiled one:

- `ROBOTABLE_PURE=1`: always the source, even where a compiled module sits next to it.
- A compiled module is loaded only when a manifest (`robotable/_engine_manifest.json`, written by
  the build) vouches for it with its source's current hash. A compiled module that is stale (its
  source was edited after the build) or unknown (no manifest: built by hand in place) is passed
  over for the source, with one warning per process: an edit always runs.
- Compiled modules come from next to the sources (an installed wheel) or from
  `ROBOTABLE_ENGINE_DIR` (a development build, `python -m robotable._build`).

Modules with no compiled form are left to Python's own finders, untouched.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import warnings
from importlib.machinery import EXTENSION_SUFFIXES, ModuleSpec
from importlib.util import spec_from_file_location
from typing import Any

PURE_VARIABLE = "ROBOTABLE_PURE"
DIR_VARIABLE = "ROBOTABLE_ENGINE_DIR"
MANIFEST = "_engine_manifest.json"
_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def pure_forced() -> bool:
    return os.environ.get(PURE_VARIABLE, "").strip().lower() not in ("", "0", "false", "no")


def _read_manifest(directory: str) -> dict[str, Any] | None:
    try:
        with open(os.path.join(directory, MANIFEST), encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError):
        return None
    return data if isinstance(data.get("modules"), dict) else None


def _extension_file(base: str) -> str | None:
    for suffix in EXTENSION_SUFFIXES:
        if os.path.isfile(base + suffix):
            return base + suffix
    return None


class EngineFinder:
    """A meta-path finder for `robotable.*` modules that have a compiled form (see module doc)."""

    def __init__(self, pure: bool, engine_dir: str | None) -> None:
        self.pure = pure
        self.engine_dir = os.path.abspath(engine_dir) if engine_dir else None
        # Manifests: the one installed with the package (a wheel), the development build's.
        self.installed = _read_manifest(_PACKAGE_DIR)
        self.built = (
            _read_manifest(os.path.join(self.engine_dir, "robotable")) if self.engine_dir else None
        )
        self._hashes: dict[str, str] = {}
        self.warned = False
        self.loaded: dict[str, str] = {}  # module -> "compiled" or why the source ran

    # -- the decision ---------------------------------------------------------------------------
    def _source(self, fullname: str) -> str:
        parts = fullname.split(".")[1:]
        return os.path.join(_PACKAGE_DIR, *parts) + ".py"

    def _hash(self, path: str) -> str:
        digest = self._hashes.get(path)
        if digest is None:
            with open(path, "rb") as handle:
                digest = self._hashes[path] = hashlib.sha256(handle.read()).hexdigest()
        return digest

    def choose(self, fullname: str) -> tuple[str | None, str]:
        """(compiled file to load or None, why): the decision for one module."""
        source = self._source(fullname)
        if not os.path.isfile(source):
            return None, "no source"
        candidates = []
        beside = _extension_file(source[: -len(".py")])
        if beside is not None:
            candidates.append((beside, self.installed))
        if self.engine_dir is not None:
            parts = fullname.split(".")
            built = _extension_file(os.path.join(self.engine_dir, *parts))
            if built is not None:
                candidates.append((built, self.built))
        # An extension its manifest does not list is an orphan of an older build (a module no
        # longer compiled): the source is the module, and nothing is stale.
        candidates = [(p, m) for p, m in candidates if fullname in (m or {}).get("modules", {})]
        if not candidates:
            return None, "not compiled"
        if self.pure:
            return None, f"{PURE_VARIABLE}=1"
        for path, manifest in reversed(candidates):  # a development build wins over a wheel
            hashes = (manifest or {}).get("modules", {})
            expected = hashes.get(fullname)
            if expected is not None and expected == self._hash(source):
                # The extension types it was compiled against (a .pxd's cimports) must load
                # compiled too: a stale state.py would leave compiled rules without their type.
                needs = (manifest or {}).get("cimports", {}).get(fullname, ())
                if all(hashes.get(dep) == self._hash(self._source(dep)) for dep in needs):
                    return path, "compiled"
        return None, "stale"

    # -- the finder protocol --------------------------------------------------------------------
    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> ModuleSpec | None:
        if not fullname.startswith("robotable.") or path is None:
            return None
        compiled, why = self.choose(fullname)
        if why in ("no source", "not compiled"):
            return None
        self.loaded[fullname] = why
        if why == "stale":
            self._warn_stale()
        return spec_from_file_location(fullname, compiled or self._source(fullname))

    def invalidate_caches(self) -> None:
        self._hashes.clear()

    def _warn_stale(self) -> None:
        if self.warned:
            return
        self.warned = True
        stale = [name for name, why in self.report()["modules"].items() if why == "stale"]
        warnings.warn(
            f"robotable: {len(stale)} compiled engine module(s) do not match their source "
            f"({', '.join(stale[:3])}{', ...' if len(stale) > 3 else ''}); running the source "
            "instead. Rebuild with `python -m robotable._build` or reinstall.",
            RuntimeWarning,
            stacklevel=2,
        )

    # -- what runs ------------------------------------------------------------------------------
    def known_modules(self) -> list[str]:
        names: set[str] = set()
        for manifest in (self.installed, self.built):
            if manifest:
                names.update(manifest["modules"])
        return sorted(names)

    def report(self) -> dict[str, Any]:
        modules = {name: self.choose(name)[1] for name in self.known_modules()}
        compiled = sum(1 for why in modules.values() if why == "compiled")
        compilers = {m.get("compiler", "?") for m in (self.installed, self.built) if m}
        return {
            "engine": "compiled" if compiled else "pure",
            "compiled": compiled,
            "known": len(modules),
            "pure_forced": self.pure,
            "compiler": ", ".join(sorted(compilers)),
            "engine_dir": self.engine_dir,
            "modules": modules,
        }


_finder: EngineFinder | None = None


def install() -> EngineFinder:
    """Put the engine finder first on `sys.meta_path` (once per process)."""
    global _finder
    if _finder is None:
        _finder = EngineFinder(pure_forced(), os.environ.get(DIR_VARIABLE) or None)
        sys.meta_path.insert(0, _finder)  # type: ignore[arg-type]
    return _finder


def status() -> dict[str, Any]:
    """The engine this process runs: "compiled" or "pure", how many modules are compiled of
    those built, and per module why (compiled, ROBOTABLE_PURE=1, stale)."""
    return install().report()


def describe() -> str:
    """One phrase for `robotable --version` and the bench."""
    info = status()
    if info["engine"] == "compiled":
        stale = sum(1 for why in info["modules"].values() if why == "stale")
        text = (
            f"compiled engine: {info['compiled']} of {info['known']} modules by {info['compiler']}"
        )
        return text + (f", {stale} stale run from source" if stale else "")
    if info["pure_forced"] and info["known"]:
        return f"pure-Python engine, forced by {PURE_VARIABLE}=1"
    if info["known"]:
        return "pure-Python engine (the compiled modules are stale)"
    return "pure-Python engine, no compiled modules installed"


install()
