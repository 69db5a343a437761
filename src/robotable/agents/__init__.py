"""Agents that play any game through the protocol alone: random, greedy, mcts.

agent = make_agent("mcts:1000", seed=3)        # 1,000 iterations
agent = make_agent("mcts:time=0.5,c=0.9")       # half a second per move
action = agent.act(state)
"""

from __future__ import annotations

from typing import Any

from ..core.errors import OptionError
from .base import Agent
from .greedy import GreedyAgent
from .mcts import MCTSAgent
from .random_agent import RandomAgent

AGENT_KINDS: dict[str, type[Agent]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "mcts": MCTSAgent,
}

# The parameters each kind accepts, their types, and which one a bare number sets.
_PARAMS: dict[str, dict[str, type]] = {
    "random": {},
    "greedy": {},
    "mcts": {"iterations": int, "time": float, "c": float, "rollout": int},
}
_POSITIONAL = {"mcts": "iterations"}


def parse_agent_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """'mcts:200' -> ('mcts', {'iterations': 200}); 'mcts:time=0.5,c=1' -> keyword params."""
    if not isinstance(spec, str) or not spec.strip():
        raise OptionError(f"agent spec {spec!r}: expected a name such as random, greedy, mcts:200")
    kind, _, arg_text = spec.strip().partition(":")
    kind = kind.strip().lower()
    if kind not in AGENT_KINDS:
        known = ", ".join(AGENT_KINDS)
        raise OptionError(f"agent spec '{spec}': unknown agent '{kind}' (known agents: {known})")
    params: dict[str, Any] = {}
    allowed = _PARAMS[kind]
    for part in filter(None, (p.strip() for p in arg_text.split(","))):
        key, eq, value = part.partition("=")
        if not eq:
            if kind not in _POSITIONAL:
                raise OptionError(f"agent spec '{spec}': agent '{kind}' takes no parameters")
            key, value = _POSITIONAL[kind], part
        key = key.strip()
        if key not in allowed:
            known = ", ".join(allowed) or "none"
            raise OptionError(
                f"agent spec '{spec}': unknown parameter '{key}' for {kind} (known: {known})"
            )
        try:
            number = allowed[key](value)
        except ValueError:
            raise OptionError(
                f"agent spec '{spec}': parameter '{key}' must be {allowed[key].__name__}, "
                f"got {value!r}"
            ) from None
        if number <= 0 and key != "rollout" or number < 0:
            raise OptionError(f"agent spec '{spec}': parameter '{key}' must be positive")
        params[key] = number
    if kind == "mcts" and "time" in params and "iterations" not in params:
        params["iterations"] = None
    return kind, params


def make_agent(spec: str, seed: int = 0) -> Agent:
    """An agent from its spec string; a bad spec raises OptionError naming what is wrong."""
    kind, params = parse_agent_spec(spec)
    return AGENT_KINDS[kind](seed=seed, **params)


__all__ = [
    "AGENT_KINDS",
    "Agent",
    "GreedyAgent",
    "MCTSAgent",
    "RandomAgent",
    "make_agent",
    "parse_agent_spec",
]
