"""A stored study as the studio's page shows it: its title, its answer in words, and its plots
drawn now from the numbers kept (server/studio_svg.py), the question's own plots first."""

from __future__ import annotations

import math
from typing import Any

from ..core.registry import game_class
from .studio_runs import QUESTIONS
from .studio_svg import Bar, histogram, interval_rows


def study_view(stored: dict[str, Any]) -> dict[str, Any]:
    """A stored study: its inputs, its answer in words and its plots (SVG, drawn now)."""
    inputs, result = stored["inputs"], stored["result"] or {}
    return {
        "id": stored["id"],
        "state": stored["state"],
        "url": f"/studio/s/{stored['id']}",
        "inputs": inputs,
        "title": _title(inputs),
        "verdicts": result.get("verdicts", []),
        "charts": charts(inputs["question"], result),
        "numbers": result.get("numbers"),
        "compare": result.get("compare"),
        "seed": inputs["seed"],
        "completed": result.get("completed"),
        "games_planned": result.get("games_planned"),
    }


def _title(inputs: dict[str, Any]) -> str:
    game = game_class(inputs["game"]).title or inputs["game"]
    level = inputs["level"]
    return (
        f"{QUESTIONS[inputs['question']]} {game}, {inputs['seats']} players, "
        f"{inputs['games']} games at the {level} level"
    )


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def charts(question: str, result: dict[str, Any]) -> list[str]:
    """The plots of a result as SVG, the question's own first."""
    drawn: dict[str, str] = {}
    seats = result.get("seats") or []
    if seats:
        drawn["fair"] = _rates(
            "Wins by seat (95% interval)",
            [(f"Seat {s['seat']}", s["rate"], (s["low"], s["high"])) for s in seats],
            seats,
        )
    cards = result.get("cards") or []
    if cards:
        drawn["cards"] = interval_rows(
            "Card strength, points of winning",
            [_card_bar(c["card"], c) for c in cards],
            -50.0,
            50.0,
            0.0,
            "no effect",
        )
    length = result.get("length") or {}
    hist = length.get("hist") or {}
    if hist.get("counts"):
        edges = hist["edges"]
        drawn["length"] = histogram(
            "Game length",
            hist["counts"],
            [f"{edges[0] + 0.5:.0f}", f"{edges[-1] - 0.5:.0f}"],
            "turns in a game",
        )
    leads = result.get("lead_changes") or {}
    if leads:
        top = max(int(k) for k in leads)
        counts = [int(leads.get(str(k), 0)) for k in range(top + 1)]
        drawn["leads"] = histogram(
            "Lead changes in a game", counts, ["0", str(top)], "times the lead changed hands"
        )
    compared = result.get("compare")
    if compared:
        first = compared["first_mover"]
        drawn["compare"] = _rates(
            "A against B: the first mover's wins",
            [
                (f"First mover, {side.upper()}", first[side], first.get(f"{side}_ci"))
                for side in "ab"
            ],
            seats,
        )
        moved = compared.get("cards") or []
        if moved:
            bars = []
            for m in moved:
                bars.append(_card_bar(f"{m['card']} (A)", m["a"]))
                bars.append(_card_bar(f"{m['card']} (B)", m["b"]))
            drawn["compare_cards"] = interval_rows(
                "Cards, A against B (points)", bars, -50.0, 50.0, 0.0, "no effect"
            )
    order = {
        "fair": ["fair", "leads", "length", "cards"],
        "cards": ["cards", "fair", "length"],
        "length": ["length", "leads", "fair", "cards"],
        # A and B pooled would say nothing of either: only their comparison is drawn.
        "compare": ["compare", "compare_cards"],
    }[question]
    return [drawn[name] for name in order if name in drawn]


def _rates(title: str, rows: list[tuple], seats: list[dict[str, Any]]) -> str:
    """Win rates (label, rate, (low, high) or None) from 0 to 100%, the fair share marked."""
    bars = [Bar(label, rate, *(ci or (None, None)), _pct(rate)) for label, rate, ci in rows]
    return interval_rows(title, bars, 0.0, 1.0, _fair(seats), "fair share")


def _fair(seats: list[dict[str, Any]]) -> float | None:
    """A seat's fair share of wins, where the study says it."""
    fair = seats[0].get("fair") if seats else None
    return fair if isinstance(fair, float) and math.isfinite(fair) else None


def _card_bar(label: str, card: dict[str, Any]) -> Bar:
    points = card["points"]
    whole = round(points)
    return Bar(label, points, card.get("low"), card.get("high"), f"{whole:+d}" if whole else "0")
