"""The guided first game (issue 79 point 7): a game's coach script, kept as data in its package
(`data/coach.toml`), and the table it is played at.

A script names the deal (`seed`), the seats (the game's smallest table, the rest easy AIs) and
what the opening teaches (`lesson`), then its steps in order. A step either only explains
(`explain = true`: the page shows it with "Next") or points at the choice for the player's next
decision (`type`: the action's type, `words`: words its label holds), perhaps at a part of the
board as well (`area`: a CSS selector the drawings expose). Each choice step is one decision of
the player's, in order; when the steps run out, the page falls back to the live hint. `rehearse`
plays the opening as a table would (the same AI, the same seeds) and says where a step points at
no legal choice, so a script cannot drift from its game unnoticed.
"""

from __future__ import annotations

import functools
import sys
import tomllib
from dataclasses import dataclass
from importlib import resources
from typing import Any

from ..core.errors import RobotableError
from ..core.registry import game_class, game_names, load_game

COACH_FILE = "coach.toml"
GUIDED_AI = "easy"  # the opponent of a first game
MAX_SAY = 400  # characters in one coach line: a bubble, not a page


class CoachError(RobotableError):
    """A game without a coach script, or a script that does not hold together."""


@dataclass(frozen=True, slots=True)
class CoachStep:
    say: str  # the coach's line, in the narration's words
    explain: bool = False  # only explains ("Next"); otherwise it points at a choice
    type: str | None = None  # the action type of the choice it points at
    words: str | None = None  # words the choice's label holds (case ignored)
    area: str | None = None  # a part of the board, by a CSS selector the drawing exposes

    def to_json(self) -> dict[str, Any]:
        return {
            "say": self.say,
            "explain": self.explain,
            "type": self.type,
            "words": self.words,
            "area": self.area,
        }

    def matches(self, legal: dict[str, Any]) -> bool:
        """Does this step point at `legal` (a view's legal action: its action and label)?"""
        if self.type is not None and legal["action"].get("type") != self.type:
            return False
        return self.words is None or self.words.lower() in legal["label"].lower()


@dataclass(frozen=True, slots=True)
class Coach:
    game: str
    seed: int
    seats: int
    lesson: str
    steps: tuple[CoachStep, ...]
    after: str  # what the coach says when the script has run out, before it turns to hints

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seats": self.seats,
            "lesson": self.lesson,
            "steps": [s.to_json() for s in self.steps],
            "after": self.after,
            "ai": GUIDED_AI,
        }

    def choices(self) -> list[CoachStep]:
        """The steps that point at a choice: the player's first decisions, in order."""
        return [s for s in self.steps if not s.explain]

    def seat_specs(self, name: str | None = None) -> list[dict[str, Any]]:
        """The guided table's seats: the player first, easy AIs for the rest."""
        player = {"kind": "human", "name": name, "ai": None, "open": False}
        robots = [{"kind": "ai", "name": None, "ai": GUIDED_AI, "open": False}]
        return [player] + robots * (self.seats - 1)


def _package(name: str) -> str:
    module = game_class(name).__module__
    if not hasattr(sys.modules.get(module), "__path__"):
        module = module.rpartition(".")[0] or module
    return module


@functools.lru_cache(maxsize=16)
def load_coach(name: str) -> Coach:
    """The game's coach script, checked for shape (CoachError naming the file and the step)."""
    if name not in game_names():
        raise CoachError(f"no such game: {name!r}")
    where = f"{name}/data/{COACH_FILE}"
    try:
        text = resources.files(_package(name)).joinpath("data", COACH_FILE).read_text("utf-8")
    except (FileNotFoundError, ModuleNotFoundError, NotADirectoryError, TypeError):
        raise CoachError(f"game {name} has no guided first game ({where})") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CoachError(f"coach file {where}: {exc}") from None
    game = game_class(name)
    seats = data.get("seats", max(2, game.min_players))
    if not isinstance(seats, int) or not game.min_players <= seats <= game.max_players:
        raise CoachError(f"coach file {where}: seats must be a seat count of {name}, got {seats!r}")
    seed = data.get("seed")
    if not isinstance(seed, int) or seed < 0:
        raise CoachError(f"coach file {where}: seed must be an integer >= 0, got {seed!r}")
    steps = []
    for number, raw in enumerate(data.get("step", []), start=1):
        at = f"coach file {where}, step {number}"
        unknown = set(raw) - {"say", "explain", "type", "words", "area"}
        if unknown:
            raise CoachError(f"{at}: unknown keys {sorted(unknown)}")
        say = raw.get("say")
        if not isinstance(say, str) or not say.strip() or len(say) > MAX_SAY:
            raise CoachError(f"{at}: say must be a line of 1 to {MAX_SAY} characters")
        step = CoachStep(
            say=say.strip(),
            explain=bool(raw.get("explain", False)),
            type=raw.get("type"),
            words=raw.get("words"),
            area=raw.get("area"),
        )
        if not step.explain and step.type is None and step.words is None:
            raise CoachError(f"{at}: a step that is not explain = true names a type or words")
        steps.append(step)
    if not any(not s.explain for s in steps):
        raise CoachError(f"coach file {where}: no step points at a choice")
    for key in ("lesson", "after"):
        if not isinstance(data.get(key), str) or not data[key].strip():
            raise CoachError(f"coach file {where}: {key} must be a line of text")
    return Coach(name, seed, seats, data["lesson"].strip(), tuple(steps), data["after"].strip())


def coached_games() -> list[str]:
    """The games that have a guided first game."""
    found = []
    for name in game_names():
        try:
            load_coach(name)
        except CoachError:
            continue
        found.append(name)
    return found


def rehearse(coach: Coach, max_steps: int = 5_000) -> list[str]:
    """Play the guided opening as its table would (the easy AI with the table's agent seeds),
    the player taking the choice each step points at; returns what does not hold (a step that
    points at no legal choice, a game that ends before the script), empty when all is well."""
    from ..agents import concrete_spec, make_agent
    from .ai import agent_seed

    game = load_game(coach.game, num_players=coach.seats)
    state = game.new_initial_state(seed=coach.seed)
    ai = concrete_spec(GUIDED_AI, coach.game)
    choices = coach.choices()
    problems: list[str] = []
    taken = 0
    for number in range(max_steps):
        if state.is_terminal() or taken >= len(choices):
            break
        seat = state.current_player()
        if seat != 0:
            state.apply_action(make_agent(ai, seed=agent_seed(coach.seed, seat, number)).act(state))
            continue
        step = choices[taken]
        legal = state.view(0)["legal_actions"]
        found = [a for a in legal if step.matches(a)]
        if not found:
            offered = "; ".join(a["label"] for a in legal[:8])
            problems.append(
                f"{coach.game}: choice step {taken + 1} ({step.type!r}, {step.words!r}) points at "
                f"no legal choice; offered: {offered}"
            )
            break
        state.apply_action(state.legal_actions()[found[0]["index"]])
        taken += 1
    if taken < len(choices) and not problems:
        problems.append(f"{coach.game}: the game ended after {taken} of {len(choices)} choices")
    return problems
