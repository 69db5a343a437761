"""Hints: what a strong player would do here, and why, for the seat deciding now.

A hint runs the search of a named strength (`hard` by default) from the deciding seat's own
knowledge (search only ever sees `view(seat)` and what `determinize` samples), then reports the
top few choices with the win chance the search estimates for each, and a short phrase saying what
the choice would do, taken from the game's narration of it on a sampled state. Nothing in a hint
tells the seat more than it could know: the phrase is worded for that seat, and only from events
it may see.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core.protocol import Action, State
from .greedy import GreedyAgent
from .mcts import MCTSAgent
from .strengths import STRENGTHS, strength_spec


@dataclass(frozen=True, slots=True)
class HintOption:
    index: int  # in state.legal_actions()
    label: str  # the choice in words (describe_action)
    chance: float  # estimated chance of winning after it, 0..1
    why: str  # what it would do, from the narration ("" when it says nothing visible)
    share: float = 0.0  # the part of the search's playouts spent on it, 0..1 (0: no search)

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "label": self.label,
            "chance": self.chance,
            "why": self.why,
            "share": self.share,
        }


def hint(
    state: State,
    spec: str = "hard",
    seed: int = 0,
    top: int = 3,
    names: list[str] | None = None,
) -> list[HintOption]:
    """The best `top` choices for the deciding seat by the agent `spec`, best first (`names`:
    what the seats are called in the phrases)."""
    from . import make_agent

    if state.is_terminal():
        return []
    seat = state.current_player()
    legal = state.legal_actions()
    concrete = strength_spec(spec, state.game.name) if spec in STRENGTHS else spec
    agent = make_agent(concrete, seed=seed)
    scores: dict[Action, tuple[float, float]] = {}  # action -> (rank key, chance)
    spent = 0.0  # the search's playouts over the choices
    if isinstance(agent, MCTSAgent) and len(legal) > 1:
        root = agent.search(state)
        for action in legal:
            edge = root.children.get(action)
            if edge is not None and edge.visits:
                scores[action] = (edge.visits, edge.total / edge.visits)
                spent += edge.visits
    else:
        rng = agent.rng if isinstance(agent, GreedyAgent) else None
        sample = state.determinize(seat, rng or _rng(seed))
        for action in legal:
            after = sample.clone()
            after.apply_action(action)
            value = (
                after.returns()[seat] if after.is_terminal() else state.game.evaluate(after, seat)
            )
            scores[action] = (value, value)
    ranked = sorted(scores, key=lambda a: scores[a][0], reverse=True)[:top]
    options = []
    for action in ranked:
        options.append(
            HintOption(
                index=legal.index(action),
                label=state.describe_action(action),
                chance=round(max(0.0, min(1.0, scores[action][1])), 3),
                why=_why(state, action, seat, seed, names),
                share=round(scores[action][0] / spent, 3) if spent else 0.0,
            )
        )
    return options


def _rng(seed: int):
    import random

    return random.Random(seed)


def _why(state: State, action: Action, seat: int, seed: int, names: list[str] | None) -> str:
    """The first thing the narration says the choice does, worded for `seat`, on a state sampled
    from what `seat` knows (so it can reveal nothing the seat does not know)."""
    sample = state.determinize(seat, _rng(seed))
    # Public events only: a private one (a card drawn) would come from the sampled deck, which
    # is a guess, not the truth.
    events = [e for e in sample.apply_action(action) if "to" not in e]
    lines = state.game.narrate(events, seat, names)
    # The first line usually restates the choice ("You build a Drone on factory 1."): what
    # follows is what it does. A lone line that restates the choice says nothing more.
    label = _words(state.describe_action(action))
    said = [line for line in lines if not _restates(_words(line), label)]
    return " ".join(said[:2])


def _words(text: str) -> set[str]:
    return {w.strip(".,:;()").lower() for w in text.split()} - {"you", "your", "a", "the", ""}


def _restates(line: set[str], label: set[str]) -> bool:
    """Whether a sentence says little beyond the choice's own words."""
    return bool(line) and len(line - label) <= max(1, len(line) // 4)


def format_hint(options: list[HintOption], numbers: list[str] | None = None) -> str:
    """The hint as lines for the terminal (the web table shows the same fields): each choice
    with what to type for it (`numbers`, one per option, from the front end's menu), its
    chance, how much of the search went on it, and what it does."""
    if not options:
        return "No hint: nothing to choose."
    out = []
    for i, option in enumerate(options):
        typed = numbers[i] if numbers and i < len(numbers) and numbers[i] else ""
        head = f"Type {typed}: {option.label}" if typed else option.label
        sure = f"about {option.chance:.0%} to win"
        if option.share:
            sure += f"; the AI spent {option.share:.0%} of its search on it"
        line = f"{head} ({sure})"
        if option.why:
            line += f". What happens: {option.why}"
        out.append(line)
    return "\n".join(out)
