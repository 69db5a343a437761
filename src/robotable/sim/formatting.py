"""How the lab writes its numbers, the same in the terminal (sim/text.py) and the HTML report
(sim/report.py): rates as percentages, intervals in brackets, differences in points, p-values to
three significant figures and odds ratios to two decimals. A missing or undefined number (None,
NaN) is written "n/a" by every one of them.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from typing import Any


def missing(x: Any) -> bool:
    """None or NaN: a number the run could not measure."""
    return x is None or (isinstance(x, float) and math.isnan(x))


def pct(x: float | None) -> str:
    """A rate as a percentage: 0.523 -> '52.3%'."""
    return "n/a" if missing(x) else f"{100 * x:.1f}%"


def ci(interval: Sequence[float] | None) -> str:
    """A rate's interval in percent: (0.4, 0.6) -> '[40.0, 60.0]'; none -> ''."""
    if not interval:
        return ""
    return f"[{100 * interval[0]:.1f}, {100 * interval[1]:.1f}]"


def signed_ci(interval: Sequence[float] | None) -> str:
    """A difference's interval in points, signed: (-0.1, 0.05) -> '[-10.0, +5.0]'."""
    if not interval:
        return ""
    return f"[{100 * interval[0]:+.1f}, {100 * interval[1]:+.1f}]"


def points(x: float | None) -> str:
    """A difference of rates in percentage points: 0.052 -> '+5.2 points'."""
    return "n/a" if missing(x) else f"{100 * x:+.1f} points"


def p_value(p: float | None) -> str:
    """A p-value to three significant figures: 0.01234 -> '0.0123'."""
    return "n/a" if missing(p) else f"{p:.3g}"


def ratio(x: float | None) -> str:
    """An odds ratio to two decimals; an infinite one is 'inf'."""
    if missing(x):
        return "n/a"
    return "inf" if math.isinf(x) else f"{x:.2f}"


def ratio_ci(interval: Sequence[float] | None) -> str:
    """An odds ratio's interval: (0.5, 2.0) -> '[0.50, 2.00]'; none -> ''."""
    return f"[{ratio(interval[0])}, {ratio(interval[1])}]" if interval else ""


def number(x: float | None) -> str:
    """A measured number to three significant figures (tune's measures)."""
    return "n/a" if missing(x) else f"{x:.3g}"


def decimal(x: float | None, digits: int = 2) -> str:
    """A number to at most `digits` decimals, trailing zeros dropped: 2.50 -> '2.5'."""
    if missing(x):
        return "n/a"
    return f"{x:.{digits}f}".rstrip("0").rstrip(".") if digits else f"{x:.0f}"


def escape(value: Any) -> str:
    """Any value as HTML text."""
    return html.escape(str(value))


def html_table(headers: list[str], rows: list[list[Any]]) -> str:
    """A plain HTML table, every cell escaped."""
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
