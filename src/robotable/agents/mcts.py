"""Information-set Monte Carlo tree search (single observer, open loop).

Each iteration samples a full state consistent with what the deciding seat knows
(`determinize`), walks one shared tree keyed by actions, and credits every edge to the seat that
chose it (max^n style, so it plays any seat count). Actions not legal in a sampled state are
skipped and UCB uses availability counts, the standard fix for the bias determinization brings.
Leaves are valued after a short random rollout by the game's heuristic, which keeps iterations
cheap enough for thousands per second in pure Python.

With `reuse`, the subtree under the chosen action is kept when the agent decides again right
after its own move (a turn of several decisions: play, scrap, attack...): the next search starts
from the statistics the last one gathered there instead of from nothing.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from ..core.errors import IllegalAction
from ..core.protocol import Action, State
from .base import Agent


class _Edge:
    __slots__ = ("visits", "total", "avail", "children")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        self.avail = 1
        self.children: dict[Action, _Edge] = {}


class MCTSAgent(Agent):
    name = "mcts"

    def __init__(
        self,
        seed: int = 0,
        iterations: int | None = 1000,
        time: float | None = None,
        c: float = 0.7,
        rollout: int = 4,
        prior: float = 0.0,
        reuse: int = 0,
        evaluate_all: Callable[[State], list[float]] | None = None,
    ) -> None:
        super().__init__(seed)
        # Another evaluation than the game's own: scripts compare heuristics at equal budgets.
        self.evaluate_all = evaluate_all
        if iterations is None and time is None:
            iterations = 1000
        self.iterations = iterations
        self.time_budget = time
        self.c = c
        self.rollout_depth = rollout
        # Root choices start with `prior` virtual visits worth the heuristic's value of the
        # position after them (0: off): a wide root with few iterations is searched from the
        # heuristic's favourites first instead of uniformly.
        self.prior = prior
        self.reuse = bool(reuse)
        # (the position expected at the next decision, as JSON; the subtree found for it)
        self._kept: tuple[dict, _Edge] | None = None
        self.last_iterations = 0
        parts = []
        if iterations is not None:
            parts.append(f"iterations={iterations}")
        if time is not None:
            parts.append(f"time={time}")
        if rollout != 4:
            parts.append(f"rollout={rollout}")
        if prior:
            parts.append(f"prior={prior}")
        if reuse:
            parts.append("reuse=1")
        self.name = "mcts:" + ",".join(parts)

    def act(self, state: State) -> Action:
        legal = state.legal_actions()
        kept = None
        if self._kept is not None:
            expected, subtree = self._kept
            self._kept = None
            if state.to_json() == expected:  # nobody else moved since our last decision
                kept = subtree
        if len(legal) == 1:
            self.last_iterations = 0
            self._keep(state, legal[0], kept)
            return legal[0]
        root = self.search(state, kept)
        # Most visited root edge among the actions legal in the real state.
        best = max(
            legal,
            key=lambda a: (
                (root.children[a].visits, root.children[a].total)
                if a in root.children
                else (-1, 0.0)
            ),
        )
        self._keep(state, best, root)
        return best

    def _keep(self, state: State, action: Action, root: _Edge | None) -> None:
        """With `reuse`, remember the subtree under `action` for the agent's next decision when
        that decision is its own again (the same seat decides after the move)."""
        if not self.reuse or root is None or action not in root.children:
            return
        after = state.clone()
        after.apply_action(action)
        if not after.is_terminal() and after.current_player() == state.current_player():
            self._kept = (after.to_json(), root.children[action])

    def search(self, state: State, root: _Edge | None = None) -> _Edge:
        seat = state.current_player()
        game = state.game
        evaluate_all = self.evaluate_all or game.evaluate_all
        rng = self.rng
        c = self.c
        depth = self.rollout_depth
        log = math.log
        sqrt = math.sqrt
        if root is None:
            root = _Edge()
            if self.prior > 0:
                self._seed_root(root, state, seat)
        deadline = None if self.time_budget is None else time.perf_counter() + self.time_budget
        limit = self.iterations
        done = 0
        while (limit is None or done < limit) and (
            deadline is None or done % 16 or time.perf_counter() < deadline
        ):
            done += 1
            sample = state.determinize(seat, rng)
            node = root
            path: list[tuple[_Edge, int]] = []
            # Selection and expansion.
            while not sample.is_terminal():
                legal = sample.legal_actions()
                mover = sample.current_player()
                children = node.children
                untried = [a for a in legal if a not in children]
                if untried:
                    action = (
                        untried[rng.randrange(len(untried))] if len(untried) > 1 else untried[0]
                    )
                    for a in legal:
                        edge = children.get(a)
                        if edge is not None:
                            edge.avail += 1
                    child = children[action] = _Edge()
                    sample.apply_action(action)
                    path.append((child, mover))
                    break
                best_edge = None
                best_action = None
                best_score = -1.0
                for a in legal:
                    edge = children[a]
                    edge.avail += 1
                    score = edge.total / edge.visits + c * sqrt(log(edge.avail) / edge.visits)
                    if score > best_score:
                        best_score, best_edge, best_action = score, edge, a
                sample.apply_action(best_action)
                path.append((best_edge, mover))
                node = best_edge
            # Short random rollout, then the heuristic.
            steps = 0
            while steps < depth and not sample.is_terminal():
                legal = sample.legal_actions()
                sample.apply_action(legal[rng.randrange(len(legal))])
                steps += 1
            if sample.is_terminal():
                values = sample.returns()
            else:
                values = evaluate_all(sample)
            for edge, mover in path:
                edge.visits += 1
                edge.total += values[mover]
        self.last_iterations = done
        return root

    def _seed_root(self, root: _Edge, state: State, seat: int) -> None:
        """Give each root choice `prior` visits at the heuristic's value for every seat."""
        evaluate_all = self.evaluate_all or state.game.evaluate_all
        sample = state.determinize(seat, self.rng)
        for action in state.legal_actions():
            after = sample.clone()
            try:
                after.apply_action(action)
            except IllegalAction:  # not legal in this sample (hidden information differs)
                continue
            values = after.returns() if after.is_terminal() else evaluate_all(after)
            edge = root.children[action] = _Edge()
            edge.visits = self.prior
            edge.total = self.prior * values[seat]
