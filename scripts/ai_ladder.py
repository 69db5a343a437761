"""Re-run the AI ladder of every game and write it into docs/ai.md (between its LADDER markers).

Each game's round robin is `robotable ladder` (Bradley-Terry ratings on the Elo scale with
bootstrap intervals, seats rotated) over the named strengths and the algorithm specs they are
made of. It takes CPU time (the searching levels think up to a second or three a move):

    .venv/bin/python scripts/ai_ladder.py --games 60 [--games-per-game breadwinner=20] [--workers 2]

Figures are one run's: compare levels within a table, not numbers across days or machines.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from robotable.core.registry import bundled_game_names

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "ai.md"
START, END = "<!-- LADDER START -->", "<!-- LADDER END -->"
AGENTS = "random;easy;medium;greedy;mcts:200;hard"
GAMES = tuple(bundled_game_names())


def ladder(game: str, games: int, workers: int, agents: str) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "ladder.json"
        command = [
            sys.executable,
            "-m",
            "robotable.cli",
            "ladder",
            game,
            "--agents",
            agents,
            "--games",
            str(games),
            "--workers",
            str(workers),
            "--json-out",
            str(out),
        ]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
        return json.loads(out.read_text())


def table(result: dict, command: str) -> str:
    lines = [
        f"**{result['game']}** ({result['num_players']} seats, {result['games']} games, "
        f"{result['seconds']:.0f} s): `{command}`",
        "",
        "| rank | agent | rating | 95% interval | score |",
        "|---|---|---|---|---|",
    ]
    for row in result["ratings"]:
        low, high = row["ci"]
        lines.append(
            f"| {row['rank']} | `{row['agent']}` | {row['elo']:.0f} | {low:.0f} to {high:.0f} "
            f"| {row['score']:.2f} |"
        )
    return "\n".join(lines) + "\n"


def _sections(block: str) -> dict[str, str]:
    """The LADDER block's tables by game (each starts with a line "**game** (...")."""
    out: dict[str, str] = {}
    game = None
    for line in block.strip("\n").splitlines(keepends=True):
        if line.startswith("**") and "**" in line[2:]:
            game = line[2 : line.index("**", 2)]
            out[game] = ""
        if game is not None and (line.strip() or out[game]):
            out[game] += line
    return {g: t.rstrip("\n") + "\n" for g, t in out.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--games-per-game", action="append", default=[], metavar="GAME=N")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--agents", default=AGENTS)
    parser.add_argument("--only", action="append", default=[], help="only these games")
    args = parser.parse_args()
    counts = {k: int(v) for k, _, v in (p.partition("=") for p in args.games_per_game)}
    text = DOC.read_text()
    before, _, rest = text.partition(START)
    block, _, after = rest.partition(END)
    sections = _sections(block)  # the tables of games not re-run this time stay as they were
    for game in args.only or GAMES:
        n = counts.get(game, args.games)
        command = f"robotable ladder {game} --agents '{args.agents}' --games {n}"
        print(f"{game}: {n} games…", flush=True)
        sections[game] = table(ladder(game, n, args.workers, args.agents), command)
    ordered = [sections[g] for g in GAMES if g in sections]
    DOC.write_text(before + START + "\n" + "\n".join(ordered) + END + after)
    print(f"wrote {DOC}")


if __name__ == "__main__":
    main()
