"""What `import cython` gives the pure engine when Cython is not installed.

Engine modules declare C types for the compiled engine with Cython's pure-Python mode
(`@cython.locals(i=cython.Py_ssize_t)`, `cython.declare`). Cython's own `cython` module makes
those no-ops in plain Python; this stands in for it where Cython is absent (a runtime install
needs no Cython):

    try:
        import cython
    except ImportError:
        from robotable.core import cython_shim as cython
"""

from __future__ import annotations

from typing import Any

compiled = False

# Type names: only referred to in declarations, never called in plain Python.
int = Py_ssize_t = long = ulonglong = longlong = double = bint = object  # noqa: A001


def locals(**_types: Any) -> Any:  # noqa: A001
    return lambda function: function


def _same(function: Any) -> Any:
    return function


cfunc = ccall = inline = final = _same


def returns(_type: Any) -> Any:
    return _same


def declare(_type: Any = None, value: Any = None, **_names: Any) -> Any:
    return value


def cast(_type: Any, value: Any) -> Any:
    return value
