"""What docs/benchmark.md shows, read from the folders `robotable train` leaves:
`robotable train-report RUN...`.

Each run folder holds `run.json` (the settings, env steps, wall-clock and CPU seconds),
`progress.jsonl` (the learning curve: the greedy policy's mean return against each evaluation
level, every `--eval-every` steps) and `policy.zip`. The report prints, as Markdown:

- the learning curve of each game: at each evaluation, the mean return against each level over
  every seed's games pooled, with a 95% interval, and the seeds' lowest and highest means;
- one row per run: its last evaluation, any further levels it was scored against, its env steps
  and its cost.

`score_run` plays a run's policy against a further level (a stronger one than training evaluates
against, such as `hard`) the same way the curve's points are played, and keeps the result in the
run's `scores.json`, so a second report does not play those games again.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import OptionError

SCORES = "scores.json"


@dataclass
class Run:
    """One training run's folder, read."""

    folder: Path
    game: str
    seed: int
    opponents: str
    steps: int
    seconds: float
    cpu_seconds: float
    curve: list[dict[str, Any]]
    scores: dict[str, dict[str, float]] = field(default_factory=dict)

    @property
    def levels(self) -> list[str]:
        """The levels its curve was evaluated against, in their order."""
        keys = self.curve[0].keys() if self.curve else ()
        return [k for k in keys if k not in ("steps", "seconds", "cpu_seconds")]


def read_run(folder: str | Path) -> Run:
    """The run in `folder`; a folder that is not a finished run is a one-line error."""
    path = Path(folder)
    try:
        run = json.loads((path / "run.json").read_text(encoding="utf-8"))
        lines = (path / "progress.jsonl").read_text(encoding="utf-8").splitlines()
        curve = [json.loads(line) for line in lines if line.strip()]
        config = run["config"]
        scores_file = path / SCORES
        scores = json.loads(scores_file.read_text("utf-8")) if scores_file.is_file() else {}
        return Run(
            path,
            str(config["game"]),
            int(config["seed"]),
            str(config["opponents"]),
            int(run["steps"]),
            float(run["seconds"]),
            float(run["cpu_seconds"]),
            curve,
            scores,
        )
    except FileNotFoundError as exc:
        raise OptionError(f"{path}: not a training run (no {Path(exc.filename).name})") from None
    except (ValueError, KeyError, TypeError) as exc:
        raise OptionError(f"{path}: a damaged training run ({type(exc).__name__}: {exc})") from None


def labelled(level: str) -> tuple[str, str]:
    """(label, agent spec) of a `--score` value: `hard=mcts:iterations=1000` names a spec by a
    plain word (a column shared by games whose `hard` differs); a bare spec is its own label."""
    label, sep, spec = level.partition("=")
    if sep and spec and label.replace("-", "").replace("_", "").isalnum():
        return label, spec
    return level, level


def score_run(run: Run, level: str, games: int, seed: int = 2 * 10**6) -> dict[str, float]:
    """The run's greedy policy against `level` (`LABEL=SPEC` or a spec) over `games` seeded
    games (the learner's seat drawn each game, as in the curve), kept in the run's scores.json
    under its label."""
    from sb3_contrib import MaskablePPO

    from .train import evaluate

    label, level = labelled(level)
    kept = run.scores.get(label)
    if kept is not None and (kept.get("games"), kept.get("seed"), kept.get("spec", level)) == (
        games,
        seed,
        level,
    ):
        return kept
    model = MaskablePPO.load(str(run.folder / "policy.zip"), device="cpu")
    config = json.loads((run.folder / "run.json").read_text("utf-8"))["config"]
    result = evaluate(
        model,
        run.game,
        level,
        games,
        seed,
        num_players=config["num_players"],
        **config["options"],
    )
    run.scores[label] = {**result, "games": games, "seed": seed, "spec": level}
    (run.folder / SCORES).write_text(json.dumps(run.scores, indent=1) + "\n", encoding="utf-8")
    return run.scores[label]


def _pooled(points: list[dict[str, float]], games: int) -> tuple[float, float, float]:
    """The mean of several seeds' means over `games` games each, and a 95% normal interval
    over all their games together."""
    mean = sum(p["mean"] for p in points) / len(points)
    half = 1.96 * math.sqrt(max(mean * (1 - mean), 0.0) / (games * len(points)))
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def _cell(mean: float, low: float, high: float) -> str:
    return f"{mean:.2f} ({low:.2f}-{high:.2f})"


def curve_table(runs: list[Run], eval_games: int) -> list[str]:
    """One Markdown table per game: each evaluation's pooled mean return per level."""
    lines: list[str] = []
    for game in sorted({r.game for r in runs}):
        mine = [r for r in runs if r.game == game]
        levels = mine[0].levels
        lines += [
            f"**{game}** ({len(mine)} seeds; mean return, 95% interval over the pooled games, "
            "and the seeds' lowest-highest mean):",
            "",
            "| env steps | " + " | ".join(f"vs {level}" for level in levels) + " |",
            "|---" * (len(levels) + 1) + "|",
        ]
        steps = sorted(set.intersection(*({p["steps"] for p in r.curve} for r in mine)))
        for step in steps:
            cells = []
            for level in levels:
                points = [p[level] for r in mine for p in r.curve if p["steps"] == step]
                seeds = [p["mean"] for p in points]
                cells.append(
                    f"{_cell(*_pooled(points, eval_games))} [{min(seeds):.2f}-{max(seeds):.2f}]"
                )
            lines.append(f"| {step:,} | " + " | ".join(cells) + " |")
        lines.append("")
    return lines


def runs_table(runs: list[Run]) -> list[str]:
    """One Markdown row per run: its last evaluation, its further scores and its cost."""
    levels: list[str] = []
    for r in runs:
        for level in [*r.levels, *r.scores]:
            if level not in levels:
                levels.append(level)
    lines = [
        "| game | seed | "
        + " | ".join(f"vs {level}" for level in levels)
        + " | env steps | wall-clock | CPU |",
        "|---" * (len(levels) + 5) + "|",
    ]
    for r in sorted(runs, key=lambda r: (r.game, r.seed)):
        last = r.curve[-1] if r.curve else {}
        cells = []
        for level in levels:
            point = r.scores.get(level) or last.get(level)
            cells.append(_cell(point["mean"], point["low"], point["high"]) if point else "")
        lines.append(
            f"| {r.game} | {r.seed} | "
            + " | ".join(cells)
            + f" | {r.steps:,} | {r.seconds / 60:.0f} min | {r.cpu_seconds / 60:.0f} min |"
        )
    return lines


def draw_curves(runs: list[Run], eval_games: int, path: str | Path) -> None:
    """The learning curves, one panel per game, a line per level with its interval shaded."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    games = sorted({r.game for r in runs})
    figure, axes = plt.subplots(1, len(games), figsize=(3.2 * len(games), 3), squeeze=False)
    for axis, game in zip(axes[0], games):
        mine = [r for r in runs if r.game == game]
        steps = sorted(set.intersection(*({p["steps"] for p in r.curve} for r in mine)))
        for level in mine[0].levels:
            pooled = [
                _pooled([p[level] for r in mine for p in r.curve if p["steps"] == s], eval_games)
                for s in steps
            ]
            axis.plot(steps, [m for m, _, _ in pooled], marker="o", label=f"vs {level}")
            axis.fill_between(
                steps, [lo for _, lo, _ in pooled], [hi for *_, hi in pooled], alpha=0.2
            )
        axis.set_title(game)
        axis.set_ylim(0, 1)
        axis.set_xlabel("env steps")
        axis.grid(alpha=0.3)
    axes[0][0].set_ylabel("mean return")
    axes[0][-1].legend(loc="lower right", fontsize="small")
    figure.tight_layout()
    figure.savefig(path, metadata={"Date": None})
    plt.close(figure)
