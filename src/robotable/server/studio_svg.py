"""The studio's charts as SVG text, drawn here so the page needs no chart library.

Two shapes serve every plot: rows of values with 95% intervals (win rate by seat, card impact,
A against B) and a histogram (game length, lead changes). They are drawn 360 units wide with
15-unit text, so that a phone shows them at full width with readable labels; every text is
escaped, since card names come from a designer's file.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

WIDTH = 360
FONT = 15
ROW = 34
LABEL = 120  # the left column for row labels
PAD = 12


@dataclass(frozen=True, slots=True)
class Bar:
    label: str
    value: float
    low: float | None = None
    high: float | None = None
    note: str = ""  # the value as a person reads it, drawn at the end of the row


def _text(x: float, y: float, words: str, anchor: str = "start", size: int = FONT, **attrs) -> str:
    extra = "".join(f' {k.replace("_", "-")}="{v}"' for k, v in attrs.items())
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}"{extra}>'
        f"{escape(words)}</text>"
    )


def _svg(height: float, title: str, body: list[str]) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height:.0f}" '
        f'role="img" aria-label="{escape(title)}" font-family="system-ui, sans-serif" '
        f'class="chart"><title>{escape(title)}</title>{"".join(body)}</svg>'
    )


def interval_rows(
    title: str,
    bars: Sequence[Bar],
    low: float,
    high: float,
    reference: float | None = None,
    reference_label: str = "",
) -> str:
    """One row per bar: its label, a dot at its value and a line over its interval, on a scale
    from `low` to `high`; a dashed line at `reference` (the fair share, no effect)."""
    top = PAD + FONT + 8
    plot_left, plot_right = LABEL + 6, WIDTH - 54
    span = (high - low) or 1.0

    def x(value: float) -> float:
        clamped = min(high, max(low, value))
        return plot_left + (clamped - low) / span * (plot_right - plot_left)

    body = [_text(PAD, PAD + FONT, title, font_weight="600")]
    height = top + ROW * len(bars) + 24
    if reference is not None:
        rx = x(reference)
        body.append(
            f'<line x1="{rx:.1f}" y1="{top - 4}" x2="{rx:.1f}" y2="{height - 22}" '
            'stroke="#888" stroke-dasharray="4 3"/>'
        )
        if reference_label:
            body.append(_text(rx, height - 6, reference_label, "middle", 13, fill="#555"))
    for i, bar in enumerate(bars):
        y = top + ROW * i + ROW / 2
        label = bar.label if len(bar.label) <= 16 else bar.label[:15] + "…"
        body.append(_text(PAD, y + 5, label))
        if bar.low is not None and bar.high is not None:
            body.append(
                f'<line x1="{x(bar.low):.1f}" y1="{y:.1f}" x2="{x(bar.high):.1f}" y2="{y:.1f}" '
                'stroke="#2a6f97" stroke-width="4" stroke-linecap="round" opacity="0.45"/>'
            )
        body.append(f'<circle cx="{x(bar.value):.1f}" cy="{y:.1f}" r="6" fill="#2a6f97"/>')
        body.append(_text(WIDTH - PAD, y + 5, bar.note, "end"))
    return _svg(height, title, body)


def histogram(title: str, counts: Sequence[int], labels: Sequence[str], unit: str) -> str:
    """Columns of `counts`, the first and last labelled below with `labels`, and `unit` under
    the axis."""
    top, bottom = PAD + FONT + 10, 170
    height = bottom + 44
    body = [_text(PAD, PAD + FONT, title, font_weight="600")]
    most = max(counts, default=0) or 1
    n = max(1, len(counts))
    left, right = PAD, WIDTH - PAD
    width = (right - left) / n
    for i, count in enumerate(counts):
        h = (bottom - top) * count / most
        body.append(
            f'<rect x="{left + i * width + 1:.1f}" y="{bottom - h:.1f}" '
            f'width="{max(1.0, width - 2):.1f}" height="{h:.1f}" fill="#2a6f97"/>'
        )
    body.append(f'<line x1="{left}" y1="{bottom}" x2="{right}" y2="{bottom}" stroke="#444"/>')
    if labels:
        body.append(_text(left, bottom + 18, labels[0]))
        body.append(_text(right, bottom + 18, labels[-1], "end"))
    body.append(_text(WIDTH / 2, bottom + 38, unit, "middle", 13, fill="#555"))
    body.append(_text(right, PAD + FONT, f"most: {most} games", "end", 13, fill="#555"))
    return _svg(height, title, body)
