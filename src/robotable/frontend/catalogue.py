"""`robotable games`: the games in a short table, and one game's options, each in a line."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table as RichTable

from ..core.options import shown


def games_table(infos: list[dict[str, Any]]) -> str:
    """One line a game: its name, seats, minutes at the table and what it is."""
    rows = [("game", "seats", "minutes", "what it is")]
    for info in infos:
        low, high = info["min_players"], info["max_players"]
        seats = str(low) if low == high else f"{low}-{high}"
        rows.append((info["name"], seats, info.get("minutes") or "-", info["description"]))
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    lines = [
        "  ".join([*(cell.ljust(w) for cell, w in zip(row, widths, strict=False)), row[3]])
        for row in rows
    ]
    lines.append("")
    lines.append("A game's options: robotable games GAME. How to play: robotable rules GAME.")
    return "\n".join(lines)


def print_game_options(info: dict[str, Any], console: Console) -> None:
    """A game's title and seats, then its options: name, values, default, what it does."""
    low, high = info["min_players"], info["max_players"]
    seats = f"{low} seat{'s' * (high > 1)}" if low == high else f"{low} to {high} seats"
    minutes = f", {info['minutes']} minutes" if info.get("minutes") else ""
    console.print(f"[bold]{info['title']}[/bold] ({info['name']}): {seats}{minutes}", markup=True)
    console.print(info["description"], markup=False, highlight=False)
    console.print(
        f"Set an option with -o NAME=VALUE (robotable play {info['name']} -o rules=printed).",
        markup=False,
        highlight=False,
    )
    table = RichTable(show_header=True, box=None, pad_edge=False, expand=True)
    table.add_column("option", no_wrap=True)
    table.add_column("values", ratio=2, overflow="fold")
    table.add_column("default", ratio=2, overflow="fold")
    table.add_column("what it does", ratio=5)
    for option in info["options"]:
        table.add_row(option["name"], values_of(option), default_of(option), option["help"])
    console.print(table, markup=False, highlight=False)


def values_of(option: dict[str, Any]) -> str:
    """What an option takes, as a player would type it."""
    if option["choices"]:
        return ", ".join(str(choice) for choice in option["choices"])
    kind = option["type"]
    if option["content"]:
        bundled = ", ".join(option["bundled"])
        file = option["content"] + ("" if option["content"].endswith("file") else " file")
        return f"a {file}" + (f", or {bundled}" if bundled else "")
    if kind == "bool":
        return "true, false"
    if kind in ("int", "float"):
        low, high = option.get("minimum"), option.get("maximum")
        if low is not None and high is not None:
            return f"{_number(low)} to {_number(high)}"
        if low is not None:
            return f"{_number(low)} or more"
        if high is not None:
            return f"up to {_number(high)}"
        return "a number"
    if kind in ("tuple", "list"):
        return "numbers, e.g. 0,0,0,1"
    return "text"


def default_of(option: dict[str, Any]) -> str:
    """An option's default, and a seat count's own default beside it."""
    text = _value(option["default"], option)
    label = option.get("labels", {}).get(text, "")
    if label.startswith(text):  # "balanced (recommended)"
        text = label
    for seats, value in option.get("default_by_players", {}).items():
        text += f" ({seats} seat{'s' * (seats != '1')}: {_value(value, option)})"
    return text


def _value(value: Any, option: dict[str, Any]) -> str:
    if option["content"] and not value:
        return "bundled"
    if value is None:
        return "bundled" if option["type"] in ("tuple", "list") else "none"
    if isinstance(value, list | tuple):
        return shown(value).strip("'") or "none"
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)
