"""Agents that play any game through the protocol alone: random, greedy, mcts.

agent = make_agent("mcts:1000", seed=3)        # 1,000 iterations
agent = make_agent("mcts:time=0.5,c=0.9")       # half a second per move
agent = make_agent("hard")                      # a named strength (easy, medium, hard, expert)
agent = make_agent("restricted:greedy,card=Core Bot")   # greedy that never plays a Core Bot
agent = make_agent("policy:runs/stakbots")      # a policy trained by `robotable train`
action = agent.act(state)
"""

from __future__ import annotations

import math
from typing import Any

from ..core.errors import OptionError
from .base import Agent
from .greedy import GreedyAgent
from .mcts import MCTSAgent, named_leaf
from .random_agent import RandomAgent
from .restricted import RestrictedAgent, split_restricted
from .strengths import STRENGTHS, StrengthAgent, strength_spec

AGENT_KINDS: dict[str, type[Agent]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "mcts": MCTSAgent,
}

# The parameters each kind accepts, their types, and which one a bare number sets.
_PARAMS: dict[str, dict[str, type]] = {
    "random": {},
    "greedy": {"noise": float},
    "mcts": {
        "iterations": int,
        "time": float,
        "c": float,
        "rollout": int,
        "prior": float,
        "reuse": int,
        "guide": float,
        "widen": float,
        "turn": float,
        "norm": int,
        "press": float,
        "late": int,
        "horizon": int,
        "trees": int,
        "worlds": int,
        "leaf": str,  # a name among the game's `leaf_evaluations()` (check_for_game)
    },
}
_POSITIONAL = {"mcts": "iterations"}
# Every built-in parameter's range: (lowest, highest, whether the lowest itself is allowed). The
# highest is far past any use (docs/ai.md's biggest searches are 10,000 iterations, 5 trees) and
# there so that no spec, on the command line or a server, asks for work without end: a billion
# trees each ran one iteration past any time cap. A server caps further (server/ai.py).
_RANGES: dict[str, tuple[float, float, bool]] = {
    "iterations": (0, 10_000_000, False),
    "time": (0, 3600.0, False),  # seconds a decision
    "turn": (0, 3600.0, False),  # seconds a turn
    "c": (0, 100.0, False),
    "rollout": (0, 1000, True),  # random moves before a leaf is valued
    "noise": (0, 1.0, True),
    "prior": (0, 100_000.0, True),  # virtual visits
    "reuse": (0, 1, True),
    "guide": (0, 1.0, True),
    "widen": (0, 1000.0, True),
    "norm": (0, 1, True),
    "press": (0, 1.0, True),
    "late": (0, 100_000, True),  # a turn number
    "horizon": (0, 1000, True),  # turns
    "trees": (0, 64, False),
    "worlds": (0, 100_000, True),
}


def parse_agent_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """'mcts:200' -> ('mcts', {'iterations': 200}); 'mcts:time=0.5,c=1' -> keyword params.

    A restricted spec ('restricted:mcts:200,card=Core Bot', agents/restricted.py) reports its
    base's kind and parameters: what it thinks with, so budget checks apply to the base."""
    if not isinstance(spec, str) or not spec.strip():
        raise OptionError(f"agent spec {spec!r}: expected a name such as random, greedy, mcts:200")
    restricted = split_restricted(spec)
    if restricted is not None:
        return parse_agent_spec(restricted[0])
    kind, _, arg_text = spec.strip().partition(":")
    if kind.strip().lower() == "policy":  # the rest is a path, commas and colons included
        if not arg_text.strip():
            raise OptionError(
                f"agent spec '{spec}': policy needs a path, as in policy:runs/stakbots"
            )
        return "policy", {"path": arg_text.strip()}
    kind = kind.strip().lower()
    if kind in STRENGTHS:
        if arg_text.strip():
            raise OptionError(f"agent spec '{spec}': the strength '{kind}' takes no parameters")
        return kind, {}
    if kind not in AGENT_KINDS:
        known = ", ".join((*AGENT_KINDS, *STRENGTHS, "restricted:BASE,card=NAME", "policy:PATH"))
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
        if allowed[key] is str:
            value = value.strip()
            if not value.isidentifier():
                raise OptionError(
                    f"agent spec '{spec}': parameter '{key}' must be a name, got {value!r}"
                )
            params[key] = value
            continue
        try:
            number = allowed[key](value)
        except ValueError:
            raise OptionError(
                f"agent spec '{spec}': parameter '{key}' must be {allowed[key].__name__}, "
                f"got {value!r}"
            ) from None
        if not math.isfinite(number):
            raise OptionError(f"agent spec '{spec}': parameter '{key}' must be a finite number")
        low, high, zero_ok = _RANGES.get(key, (0, math.inf, False))
        if number < low or number == low and not zero_ok:
            raise OptionError(f"agent spec '{spec}': parameter '{key}' must be positive")
        if number > high:
            most = int(high) if high == int(high) else high
            raise OptionError(f"agent spec '{spec}': parameter '{key}' must be at most {most}")
        params[key] = number
    if kind == "mcts" and ("time" in params or "turn" in params) and "iterations" not in params:
        params["iterations"] = None
    return kind, params


def register_agent(kind: str, cls: type[Agent], params: dict[str, type]) -> None:
    """Make `kind` a spec name for `cls` in this process (`kind:key=value,...`, each key typed as
    in `params`): a researcher's own agent then plays in `simulate`'s functions and the ladder.
    Worker processes start afresh and do not see it: run such a lab with one worker."""
    if kind in STRENGTHS or not kind.isidentifier():
        raise OptionError(f"agent kind {kind!r}: taken by a strength or not a plain name")
    AGENT_KINDS[kind] = cls
    _PARAMS[kind] = dict(params)


def agent_params(kind: str) -> dict[str, type]:
    """The parameters an agent kind's spec accepts, each with its type (a copy)."""
    if kind not in _PARAMS:
        raise OptionError(f"agent kind '{kind}': unknown (known kinds: {', '.join(_PARAMS)})")
    return dict(_PARAMS[kind])


def make_agent(spec: str, seed: int = 0) -> Agent:
    """An agent from its spec string; a bad spec raises OptionError naming what is wrong."""
    restricted = split_restricted(spec)
    if restricted is not None:
        base, cards, kinds = restricted
        return RestrictedAgent(
            seed=seed, base=make_agent(base, seed), cards=cards, kinds=kinds, base_spec=base
        )
    kind, params = parse_agent_spec(spec)
    if kind in STRENGTHS:
        return StrengthAgent(seed=seed, strength=kind)
    if kind == "policy":
        from .policy import PolicyAgent  # loads PyTorch only when a policy plays

        return PolicyAgent(seed=seed, path=params["path"])
    return AGENT_KINDS[kind](seed=seed, **params)


def check_for_game(spec: str, game: str) -> tuple[str, dict[str, Any]]:
    """Refuse, before a game starts, what only the game can tell is wrong in a valid spec: a
    search's `leaf=NAME` that the game does not offer (OptionError, one line). Returns the
    parsed concrete spec, for callers that check more."""
    from ..core.registry import game_class

    kind, params = parse_agent_spec(concrete_spec(spec, game))
    if kind == "policy":
        from .policy import read_meta

        trained = read_meta(params["path"])["game"]
        if trained != game:
            raise OptionError(f"agent '{spec}': a policy trained on {trained}, not {game}")
    if params.get("leaf"):
        named_leaf(game_class(game), params["leaf"], f"agent '{spec}'")
    return kind, params


def concrete_spec(spec: str, game: str) -> str:
    """The spec itself, or what a named strength is in `game` (for limits and reports); a
    restricted spec keeps its restriction around its base's concrete spec."""
    restricted = split_restricted(spec)
    if restricted is not None:
        from .restricted import restricted_spec

        base, cards, kinds = restricted
        return restricted_spec(concrete_spec(base, game), cards, kinds)
    kind, _ = parse_agent_spec(spec)
    return strength_spec(kind, game) if kind in STRENGTHS else spec


__all__ = [
    "AGENT_KINDS",
    "Agent",
    "GreedyAgent",
    "MCTSAgent",
    "RandomAgent",
    "RestrictedAgent",
    "STRENGTHS",
    "agent_params",
    "concrete_spec",
    "make_agent",
    "parse_agent_spec",
    "register_agent",
]
