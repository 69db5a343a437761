"""Build the compiled engine into the wheel when it can; otherwise the pure-Python package.

Everything else about the package is in pyproject.toml. `pip install .` compiles the engine's
modules (robotable/_build.py lists them) with Cython when Cython and a C compiler are present and
falls back to pure Python otherwise, saying so once. An editable install (`pip install -e .`)
builds nothing in place: compiled files next to the sources would shadow a developer's edits.
Development builds go to a build directory: `python -m robotable._build` (see docs/performance.md).
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
SRC = HERE / "src"


def _load_build_helper():
    spec = importlib.util.spec_from_file_location(
        "_robotable_build", SRC / "robotable" / "_build.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


helper = _load_build_helper()


def _say(message: str) -> None:
    print(f"robotable: {message}", file=sys.stderr)


class EngineBuildExt(build_ext):
    """Compile the engine, or skip it with one message and leave the pure-Python package."""

    def _editable(self) -> bool:
        return bool(getattr(self, "editable_mode", False) or self.inplace)

    def run(self) -> None:
        if self._editable():
            _say(
                "editable install: the pure-Python engine runs from the sources (build the "
                "compiled one with `python -m robotable._build`)"
            )
            self.extensions = []
            return
        # A build directory reused from an earlier build may hold its compiled modules and
        # manifest: start clean, so a wheel holds this build's engine or none.
        self._remove_old_engine()
        if not self.extensions:
            _say("ROBOTABLE_PURE is set: installing the pure-Python engine")
            return
        if helper.cython_version() is None:
            _say("Cython is not available: installing the pure-Python engine")
            self.extensions = []
            return
        try:
            # Cythonized here, not when setup.py loads: metadata and editable builds skip it.
            # Compiled from, and hashed as, the very .py files build_py put in the wheel.
            source = self._shipped_sources()
            # Hashed before compiling, as _build.build does: the manifest vouches for the
            # sources as the compiler read them.
            hashes = {
                name: helper.source_hash(helper.source_path(source, name))
                for name in helper.ENGINE_MODULES
            }
            declarations = helper.declaration_hashes(source)
            for ext, cythonized in zip(
                self.extensions, helper.extensions(source, Path(self.build_temp) / "cython")
            ):
                ext.sources = cythonized.sources
                ext.extra_compile_args = cythonized.extra_compile_args
                ext.define_macros = cythonized.define_macros
            # Every core compiles: the engine is some forty C files.
            self.parallel = self.parallel or os.cpu_count() or 1
            super().run()
        except Exception as exc:  # no C compiler, a failing compile: the pure engine still works
            why = " ".join(str(exc).split())
            why = why if len(why) <= 160 else why[:160] + "..."
            _say(f"could not compile the engine ({why}): installing the pure-Python engine")
            self.extensions = []
            return
        built = {ext.name: hashes[ext.name] for ext in self.extensions}
        helper.write_manifest(source, Path(self.build_lib) / "robotable", built, declarations)
        _say(f"compiled engine: {len(built)} modules (Cython {helper.cython_version()})")

    def _remove_old_engine(self) -> None:
        package = Path(self.build_lib) / "robotable"
        if not package.is_dir():
            return
        for name in helper.ENGINE_MODULES:
            base = Path(self.build_lib).joinpath(*name.split("."))
            for old in base.parent.glob(base.name + ".*"):
                if old.suffix in (".so", ".pyd"):
                    old.unlink()
        (package / helper.MANIFEST).unlink(missing_ok=True)

    def _shipped_sources(self) -> Path:
        shipped = Path(self.build_lib)
        if all(helper.source_path(shipped, name).is_file() for name in helper.ENGINE_MODULES):
            return shipped
        return SRC

    def get_outputs(self) -> list[str]:
        if self._editable() or not self.extensions:
            return []
        return super().get_outputs()


def _extensions() -> list[Extension]:
    """Placeholders naming the modules (they make the wheel platform-specific); the build
    replaces them with Cython's output."""
    if os.environ.get("ROBOTABLE_PURE", "").strip().lower() not in ("", "0", "false", "no"):
        return []
    return [
        Extension(name, [str(helper.source_path(SRC, name).relative_to(HERE))])
        for name in helper.ENGINE_MODULES
    ]


setup(ext_modules=_extensions(), cmdclass={"build_ext": EngineBuildExt})
