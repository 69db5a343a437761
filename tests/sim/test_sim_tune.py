"""`robotable tune` on a synthetic game whose one numeric option sets the first mover's edge."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import ClassVar

import pytest
import typer
from typer.testing import CliRunner

from robotable.core.options import OptionSpec
from robotable.core.protocol import TERMINAL, Action, Game, State
from robotable.core.registry import register_game
from robotable.core.rng import GameRng
from robotable.sim.commands import register
from robotable.sim.options import UsageProblem
from robotable.sim.tune import parse_param, parse_target, tune

FAIR = 0.5


@dataclass(frozen=True, slots=True)
class Go(Action):
    kind: ClassVar[str] = "go"


class EdgeState(State):
    """The seed draws who moves first and a number u in [0, 1); after one move each, the first
    mover wins when u < edge. So the first mover wins with probability `edge`: fair at 0.5.
    `length` turns pass before the end (a second option, for length targets)."""

    def __init__(self, game: EdgeGame, seed: int) -> None:
        self.game = game
        self._legal = None
        rng = GameRng(seed)
        self.first = rng.below(2)
        self.u = rng.below(1_000_000) / 1_000_000
        self.step = 0

    def _legal_actions(self) -> list[Action]:
        return [Go()]

    def _apply(self, action: Action) -> list[dict]:
        self.step += 1
        return []

    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else (self.first + self.step) % 2

    def is_terminal(self) -> bool:
        return self.step >= self.game.options["length"]

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        winner = self.first if self.u < self.game.options["edge"] else 1 - self.first
        return [float(s == winner) for s in range(2)]

    def turn_number(self) -> int:
        return self.step + 1

    def clone(self) -> EdgeState:
        twin = EdgeState.__new__(EdgeState)
        twin.game, twin._legal = self.game, self._legal
        twin.first, twin.u, twin.step = self.first, self.u, self.step
        return twin

    def view(self, seat):
        return {"step": self.step}

    def to_json(self):
        return {"step": self.step}

    def determinize(self, seat, rng):
        return self.clone()


class EdgeGame(Game):
    name = "simedge"
    option_specs = (
        OptionSpec("edge", float, 0.8, "the first mover's chance to win", minimum=0, maximum=1),
        OptionSpec("length", int, 2, "moves in a game", minimum=2, maximum=40),
        OptionSpec("mode", str, "plain", "not a number"),
    )
    action_classes = (Go,)

    def new_initial_state(self, seed: int = 0) -> EdgeState:
        return EdgeState(self, seed)

    def state_from_json(self, data):
        raise NotImplementedError


register_game(EdgeGame)


def test_targets_parse_and_measure_distance():
    exact = parse_target("first_mover=0.5")
    assert (exact.op, exact.low) == ("=", 0.5)
    assert exact.cost(0.7) == pytest.approx(4.0)  # 20 points off, scale 10 points
    capped = parse_target("turn_cap_rate<=0.05")
    assert capped.cost(0.01) == 0 and capped.cost(0.15) == pytest.approx(1.0)
    window = parse_target("median_turns=10:30")
    assert window.op == "range" and window.cost(20) == 0
    assert window.cost(33) == pytest.approx((3 / 3) ** 2)  # 10% of 30 is 3 turns
    assert window.cost(8) == pytest.approx((2 / 1) ** 2)
    assert parse_target("mean_turns>=12").cost(None) is None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("first_mover", "expected NAME=V"),
        ("fun=1", "unknown measure 'fun'"),
        ("first_mover=1.5", "is a rate"),
        ("median_turns=30:10", "LOW <= HIGH"),
        ("median_turns=ten", "not a number"),
    ],
)
def test_bad_targets(text, message):
    with pytest.raises(UsageProblem, match=message):
        parse_target(text)


def test_params_must_be_numeric_options_within_their_bounds():
    assert parse_param("edge=0:1", "simedge", 2).type == "float"
    assert parse_param("length=2:10", "simedge", 2).low == 2
    with pytest.raises(UsageProblem, match="numeric options: edge, length"):
        parse_param("mode=1:2", "simedge", 2)
    with pytest.raises(UsageProblem, match="no option 'speed'"):
        parse_param("speed=1:2", "simedge", 2)
    with pytest.raises(UsageProblem, match="must be <= 1"):
        parse_param("edge=0:2", "simedge", 2)
    with pytest.raises(UsageProblem, match="LOW < HIGH"):
        parse_param("length=9:3", "simedge", 2)


def test_tune_finds_the_fair_edge_in_a_handful_of_trials(tmp_path):
    def search():
        return tune(
            "simedge",
            2,
            ["random"],
            [parse_param("edge=0:1", "simedge", 2)],
            [parse_target("first_mover=0.5")],
            trials=10,
            games=80,
            seed=3,
            error_dir=str(tmp_path),
        )

    result = search()
    best = result["best"]
    assert abs(best["params"]["edge"] - FAIR) < 0.1
    assert best["objective"] < 0.5  # within about 7 points of a fair first mover
    low, high = best["first_mover"]["ci"]
    assert low < FAIR < high
    assert len(result["trials"]) == 10
    # Same seed, same trials: the sampler and the games are both seeded.
    again = search()
    assert [t["params"] for t in again["trials"]] == [t["params"] for t in result["trials"]]
    assert [t["objective"] for t in again["trials"]] == [t["objective"] for t in result["trials"]]


def test_tune_command_json_and_text(tmp_path):
    app = typer.Typer()
    register(app)
    runner = CliRunner()
    common = [
        "tune",
        "simedge",
        "--param",
        "length=2:30",
        "--target",
        "median_turns=10:12",
        "--target",
        "turn_cap_rate<=0.05",
        "--trials",
        "6",
        "--games-per-trial",
        "10",
        "--agents",
        "random",
        "--workers",
        "1",
        "--confirm-games",
        "10",
        "--errors-dir",
        str(tmp_path),
    ]
    result = runner.invoke(app, [*common, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["params"] == [{"name": "length", "type": "int", "low": 2, "high": 30}]
    best = data["best"]
    # length L gives L + 1 turns at the end (turn_number counts the turn in progress)
    assert 9 <= best["params"]["length"] <= 11 and best["objective"] == 0
    assert {"first_mover", "turn_cap_rate", "turns", "targets"} <= set(best)
    assert data["confirm"]["seed"] == 1 and data["confirm"]["games"] == 10
    assert not math.isnan(best["objective"])
    text = runner.invoke(app, common)
    assert text.exit_code == 0, text.output
    assert "best: trial" in text.stdout and "target median_turns=10:12" in text.stdout
    bad = runner.invoke(app, ["tune", "simedge", "--param", "mode=1:2", "--target", "x=1"])
    assert bad.exit_code == 2 and "not a number" in bad.stderr
