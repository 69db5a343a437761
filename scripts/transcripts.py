"""Write docs/screenshots/<game>-terminal.txt: the first turns of each game at the terminal table,
exactly as a newcomer playing against the Medium AI reads them (board, choices, log).

Run on purpose, like scripts/screenshots.sh (the tests never write into tracked files):

    .venv/bin/python scripts/transcripts.py [--moves 12]
"""

from __future__ import annotations

import argparse
import io
from pathlib import Path

from rich.console import Console

import robotable
from robotable.agents import make_agent
from robotable.core.registry import bundled_game_names
from robotable.frontend.play import Table, build_agents, menu, run_table

OUT = Path(__file__).resolve().parent.parent / "docs" / "screenshots"
NAMES = ["Ada", "Bo", "Cy", "Dee"]


def transcript(game_name: str, moves: int, seed: int = 7) -> str:
    game = robotable.load_game(game_name)
    seats = ["human"] + ["medium"] * (game.num_players - 1)
    console = Console(
        record=True, width=100, force_terminal=False, color_system=None, file=io.StringIO()
    )
    table = Table(
        game, seed, seats, build_agents(seats, seed), None, console, NAMES[: game.num_players]
    )
    adviser = make_agent("medium", seed=seed)  # Ada's choices: what a casual player picks
    asked = 0

    def answer(prompt: str) -> str:
        nonlocal asked
        console.print(prompt, end="")
        if asked >= moves:
            console.print("quit")
            return "quit"
        asked += 1
        chosen = adviser.act(table.state)
        choices = menu(table.state, table.state.legal_actions())
        for number, choice in enumerate(choices, start=1):
            if choice.action == chosen:
                console.print(str(number))
                return str(number)
            if choice.by_value and chosen in choice.by_value.values():
                amount = next(k for k, v in choice.by_value.items() if v == chosen)
                console.print(f"{number} {amount}")
                return f"{number} {amount}"
        raise AssertionError("the adviser chose an action the menu does not offer")

    run_table(table, answer)
    return console.export_text()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=12, help="Ada's decisions per game")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    for name in bundled_game_names():
        path = OUT / f"{name}-terminal.txt"
        path.write_text(transcript(name, args.moves))
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
