"""Information-set Monte Carlo tree search (single observer, open loop).

Each iteration samples a full state consistent with what the deciding seat knows
(`determinize`), walks one shared tree keyed by actions, and credits every edge to the seat that
chose it (max^n style, so it plays any seat count). Actions not legal in a sampled state are
skipped and UCB uses availability counts, the standard fix for the bias determinization brings.
Leaves are valued after a short random rollout by the game's heuristic, which keeps iterations
cheap enough for thousands per second in pure Python.

Three options bring the game's knowledge into the search where plain sampling is weak:
`guide` plays that share of rollout moves by the heuristic (the best one-ply move for the mover)
instead of at random; `widen` opens a node's children one at a time, best first by the
heuristic, as the node's visits grow (progressive widening: a wide decision such as a bid or a
long list of moves is searched deeply among its likely moves instead of thinly among all);
`turn` is a thinking-time budget per turn rather than per decision, shared among the turn's
decisions by how many the agent has needed per turn so far. `norm` compares a seat's values
rescaled to the range they span in the tree, so moves stay ranked when the heuristic's values
are squeezed together (a game all but decided, or early moves that change the estimate little);
`press` does so only in a position the heuristic calls all but decided, so that a player far
ahead keeps pressing for the win while contested positions are searched as before; `late` does
so from a given turn of the game on, for games that run far past the length of a finished one.

`trees` splits the budget among independent searches and chooses by their pooled root visits.

`worlds` sets how many determinizations a search samples: K worlds drawn by its first K
iterations, then taken in turn (each iteration plays a copy of one), instead of a fresh one every
iteration. A copy costs a fraction of a determinization (about a quarter in Betabotz), so a
search runs more iterations in the same time; the price is that only K guesses at the hidden
cards (and K streams of dice and draws) are ever searched.

With `reuse`, the subtree under the chosen action is kept when the agent decides again right
after its own move (a turn of several decisions: play, scrap, attack...): the next search starts
from the statistics the last one gathered there instead of from nothing.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from ..core.errors import IllegalAction, OptionError
from ..core.protocol import Action, State
from ..core.rng import randbelow
from .base import Agent
from .greedy import best_of, one_ply_values

try:
    import cython
except ImportError:  # no Cython: its declarations do nothing
    from ..core import cython_shim as cython

if not cython.compiled:
    # Compiled, log and sqrt are C's (mcts.pxd): the same libm functions math calls.
    from math import log, sqrt


class _Edge:
    """A tree record: an action's statistics and the node it leads to. Compiled, an extension
    type with C fields (mcts.pxd); `visits` is then a C double, the same numbers as Python's
    ints (a root seeded with `prior` visits holds floats in both engines)."""

    __slots__ = ("visits", "total", "avail", "children", "order")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        self.avail = 1
        self.children: dict[Action, _Edge] = {}
        # With widening: the node's actions, best first by the heuristic (built at first need).
        self.order: list[Action] | None = None


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
        guide: float = 0.0,
        widen: float = 0.0,
        turn: float | None = None,
        norm: int = 0,
        press: float = 0.0,
        late: int = 0,
        horizon: int = 0,
        trees: int = 1,
        leaf: str = "",
        worlds: int = 0,
        evaluate_all: Callable[[State], list[float]] | None = None,
    ) -> None:
        super().__init__(seed)
        # Another evaluation than the game's own: scripts compare heuristics at equal budgets.
        self.evaluate_all = evaluate_all
        if iterations is None and time is None and turn is None:
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
        self.guide = guide
        self.widen = widen
        self.turn_budget = turn
        # Selection compares each mover's values rescaled to the range that mover's values span
        # in this tree: a leaf value that has saturated (a game well won or well lost, where
        # every move's value lies within a hundredth) still ranks the moves, so a player far
        # ahead keeps pressing for the win and one far behind keeps trying.
        self.norm = bool(norm)
        # `norm` only in a position all but decided: the deciding seat's value at the root (the
        # heuristic's, on one sample) at least `press` or at most 1 - `press`. A contested
        # position is searched as without it; a won one is pressed home instead of drifted in.
        # An option for experiments: it ends Bread Winner games, but it loses some that the
        # plain search wins, so no named strength uses it (docs/ai.md).
        self.press = press
        # `norm` from the game's turn `late` on (0: never), whatever the values: a game still
        # unfinished that long after most games have ended is a jam, not a contest, and a search
        # that ranks its moves plays it out where the plain one waits for the turn cap. Before
        # that turn the search is the plain one, draw for draw.
        self.late = late
        # The tree covers the root's turn and `horizon - 1` turns after it (0: no bound), as the
        # game's `turn_number()` counts turns (a game that counts none is never bounded); a leaf
        # past it is valued by the heuristic there. In a game whose turn is many decisions
        # (Bread Winner's moves, deploys, builds and deactivations), a tree without a bound
        # reaches the rival's reply below "end the turn" long before it does below the turn's
        # other moves, whose subtrees stay in the mover's own choices: the end of the turn reads
        # worse than doing anything more, and the search does things it has no reason to do.
        self.horizon = horizon
        # `trees` independent searches share the budget and pool their root visits (root
        # parallelization): each tree is as shallow as one of 1/trees the iterations, but the
        # choice rests on all of them. An option for experiments: in Bread Winner, where a deeper
        # tree plays worse, five trees of `hard`'s size gained nothing over one (docs/ai.md).
        self.trees = trees
        # The leaves valued by one of the game's other evaluations (`Game.leaf_evaluations`,
        # by name) instead of `evaluate_all`: Bread Winner's weights fitted to the results of
        # searched games make a stronger search than its one-move weights (docs/ai.md).
        self.leaf = leaf
        # Determinizations per search (0: a fresh one every iteration, the classic IS-MCTS).
        self.worlds = worlds
        # The turn under way (seat, turn number), the seconds it has used, and the decisions
        # needing a search the agent has made over all its turns (to share a turn's budget).
        self._turn: tuple[int, int] | None = None
        self._turn_spent = 0.0
        self._turn_decisions = 0
        self._searched_decisions = 0
        self._turns = 0
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
        if guide:
            parts.append(f"guide={guide}")
        if widen:
            parts.append(f"widen={widen}")
        if turn is not None:
            parts.append(f"turn={turn}")
        if norm:
            parts.append("norm=1")
        if press:
            parts.append(f"press={press}")
        if late:
            parts.append(f"late={late}")
        if horizon:
            parts.append(f"horizon={horizon}")
        if trees != 1:
            parts.append(f"trees={trees}")
        if leaf:
            parts.append(f"leaf={leaf}")
        if worlds:
            parts.append(f"worlds={worlds}")
        self.name = "mcts:" + ",".join(parts)

    @property
    def remembers(self) -> bool:  # type: ignore[override]
        # a subtree kept from its last decision, or a turn's budget shared among its decisions
        return self.reuse or self.turn_budget is not None

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
        started = time.perf_counter()
        budget = self._decision_budget(state)
        root = self.search(state, kept, budget)
        self._turn_spent += time.perf_counter() - started
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

    def _decision_budget(self, state: State) -> float | None:
        """Seconds for this decision: `time`, and with `turn` the turn's remaining seconds shared
        among the decisions a turn has needed on average so far (at least this one)."""
        if self.turn_budget is None:
            return self.time_budget
        key = (state.current_player(), state.turn_number())
        if key != self._turn:
            self._turn, self._turn_spent, self._turn_decisions = key, 0.0, 0
            self._turns += 1
        self._turn_decisions += 1
        self._searched_decisions += 1
        per_turn = self._searched_decisions / self._turns
        left_in_turn = max(1.0, per_turn - self._turn_decisions + 1)
        # A turn that runs past its budget still gets a sliver per decision, never none.
        share = max(self.turn_budget - self._turn_spent, self.turn_budget * 0.02) / left_in_turn
        return share if self.time_budget is None else min(self.time_budget, share)

    def _keep(self, state: State, action: Action, root: _Edge | None) -> None:
        """With `reuse`, remember the subtree under `action` for the agent's next decision when
        that decision is its own again (the same seat decides after the move)."""
        if not self.reuse or self.trees != 1 or root is None or action not in root.children:
            return
        after = state.clone()
        after.apply_action(action)
        if not after.is_terminal() and after.current_player() == state.current_player():
            self._kept = (after.to_json(), root.children[action])

    @cython.locals(pooled=_Edge, part=_Edge, edge=_Edge, into=_Edge)
    def search(self, state: State, root: _Edge | None = None, budget: float | None = None) -> _Edge:
        """Run the search from `state` (into `root` if given) for the iteration cap and `budget`
        seconds (default: the agent's `time`); return the root. With `trees`, the root holds the
        trees' pooled visits and totals (its children's subtrees are left empty)."""
        if budget is None:
            budget = self.time_budget
        if self.trees == 1 or root is not None:
            return self._grow(state, root, budget, self.iterations)
        limit = self.iterations
        share = None if limit is None else max(1, limit // self.trees)
        part_budget = None if budget is None else budget / self.trees
        pooled = _Edge()
        done = 0
        for _ in range(self.trees):
            part = self._grow(state, None, part_budget, share)
            done += self.last_iterations
            pooled.visits += part.visits
            for action, edge in part.children.items():
                into = pooled.children.get(action)
                if into is None:
                    into = pooled.children[action] = _Edge()
                into.visits += edge.visits
                into.total += edge.total
        self.last_iterations = done
        return pooled

    @cython.locals(
        root=_Edge,
        node=_Edge,
        edge=_Edge,
        child=_Edge,
        best_edge=_Edge,
        score=cython.double,
        best_score=cython.double,
        c=cython.double,
        done=cython.long,
        stop=cython.long,
        world_count=cython.long,
        steps=cython.long,
        depth=cython.long,
        base=cython.double,
        spread=cython.double,
        mean=cython.double,
    )
    def _grow(
        self, state: State, root: _Edge | None, budget: float | None, limit: int | None
    ) -> _Edge:
        """One tree: at most `limit` iterations (None: no cap) and `budget` seconds."""
        # Every sample is determinized from this silenced copy, so it is silenced too: the search
        # reads no events, and not building them saves about a fifth of a game step.
        state = state.clone().silence()
        seat = state.current_player()
        game = state.game
        custom = self._custom_leaf(game)
        evaluate_all = custom or game.evaluate_all
        # guide and widen rank moves by the same evaluation as the leaves
        evaluate = game.evaluate if custom is None else _one_seat(custom)
        rng = self.rng
        c = self.c
        depth = self.rollout_depth
        guide = self.guide
        widen = self.widen
        if root is None:
            root = _Edge()
            if self.prior > 0:
                self._seed_root(root, state, seat)
        deadline = None if budget is None else time.perf_counter() + budget
        norm = (
            self.norm
            or (self.late > 0 and state.turn_number() >= self.late)
            or (self.press > 0 and self._decided(state, seat, evaluate_all))
        )
        # With `norm`: per seat, the lowest and highest mean value of an edge in this tree.
        low = [1.0] * state.game.num_players
        high = [0.0] * state.game.num_players
        # With `worlds`: the determinizations the iterations take in turn, drawn as first needed.
        worlds: list[State] = []
        world_count = self.worlds
        stop = state.turn_number() + self.horizon if self.horizon else 0
        done = 0
        while (limit is None or done < limit) and (
            deadline is None or done % 16 or time.perf_counter() < deadline
        ):
            if not world_count:
                sample = state.determinize(seat, rng)
            elif done < world_count:
                worlds.append(state.determinize(seat, rng))
                sample = worlds[done].clone()
            else:
                sample = worlds[done % world_count].clone()
            done += 1
            root.visits += 1
            node = root
            path: list[tuple[_Edge, int]] = []
            # Selection and expansion.
            while not sample.is_terminal():
                if stop and sample.turn_number() >= stop:
                    break
                legal = sample.legal_actions()
                mover = sample.current_player()
                children = node.children
                # Each legal action's edge (None: not tried yet), looked up once per step:
                # hashing an action calls its dataclass's Python __hash__.
                found = [children.get(a) for a in legal]
                untried = [a for a, edge in zip(legal, found) if edge is None]
                if untried and widen and len(legal) > 1:
                    untried = self._widened(node, sample, legal, untried, mover, evaluate)
                if untried:
                    action = (
                        untried[0]
                        if widen or len(untried) == 1
                        else untried[randbelow(rng, len(untried))]
                    )
                    for edge in found:
                        if edge is not None:
                            edge.avail += 1
                    child = children[action] = _Edge()
                    sample.apply_action(action)
                    path.append((child, mover))
                    break
                best_edge = None
                best_action = None
                # Not -1: with `norm` a score can be far below zero, when the edge's values are
                # another seat's (in some samples a different seat decides at this node).
                best_score = -math.inf
                base, spread = 0.0, 1.0
                if norm and high[mover] > low[mover]:
                    base, spread = low[mover], high[mover] - low[mover]
                for a, edge in zip(legal, found):
                    if edge is None:  # held back by widening
                        continue
                    edge.avail += 1
                    score = (edge.total / edge.visits - base) / spread + c * sqrt(
                        log(edge.avail) / edge.visits
                    )
                    if score > best_score:
                        best_score, best_edge, best_action = score, edge, a
                sample.apply_action(best_action)
                path.append((best_edge, mover))
                node = best_edge
            # A short rollout (random, or partly by the heuristic with `guide`), then the heuristic.
            steps = 0
            while steps < depth and not sample.is_terminal():
                legal = sample.legal_actions()
                if guide and len(legal) > 1 and rng.random() < guide:
                    sample.apply_action(_best_by_heuristic(sample, legal, evaluate, rng))
                else:
                    sample.apply_action(legal[randbelow(rng, len(legal))])
                steps += 1
            if sample.is_terminal():
                values = sample.returns()
            else:
                values = evaluate_all(sample)
            for edge, mover in path:
                edge.visits += 1
                edge.total += values[mover]
                if norm:
                    mean = edge.total / edge.visits
                    if mean < low[mover]:
                        low[mover] = mean
                    if mean > high[mover]:
                        high[mover] = mean
        self.last_iterations = done
        return root

    def _widened(
        self,
        node: _Edge,
        sample: State,
        legal: list[Action],
        untried: list[Action],
        mover: int,
        evaluate: Callable[[State, int], float],
    ) -> list[Action]:
        """Progressive widening: the untried actions this node may open now, best first. A node
        visited n times has about `widen` * sqrt(n) children open; its order is the heuristic's
        ranking for the mover in the first sample that needed it (actions seen only in later
        samples come after). An empty list means: choose among the open children."""
        open_count = len(legal) - len(untried)
        if open_count and open_count >= self.widen * math.sqrt(node.visits + 1):
            return []
        if node.order is None:
            values = one_ply_values(sample, legal, evaluate, mover)
            node.order = [a for _, a in sorted(zip(values, legal), key=lambda va: -va[0])]
        ranked = set(node.order)
        first = [a for a in node.order if a in untried]
        return first + [a for a in untried if a not in ranked]

    def _custom_leaf(self, game) -> Callable[[State], list[float]] | None:
        """The leaf evaluation other than the game's `evaluate_all`, if the agent has one: a
        script's own, or the game's evaluation named by `leaf`."""
        if self.evaluate_all is not None or not self.leaf:
            return self.evaluate_all
        return named_leaf(game, self.leaf, f"agent {self.name}")

    def _decided(
        self, state: State, seat: int, evaluate_all: Callable[[State], list[float]]
    ) -> bool:
        """Whether the position is all but decided for `seat` by the `press` threshold: the
        heuristic's value on one sample consistent with what the seat knows."""
        sample = state.determinize(seat, self.rng)
        value = evaluate_all(sample)[seat]
        return value >= self.press or value <= 1.0 - self.press

    def _seed_root(self, root: _Edge, state: State, seat: int) -> None:
        """Give each root choice `prior` visits at the heuristic's value for every seat."""
        evaluate_all = self._custom_leaf(state.game) or state.game.evaluate_all
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


def named_leaf(game, name: str, who: str) -> Callable[[State], list[float]]:
    """The leaf evaluation `game` (a Game or its class) offers as `name`; OptionError if none."""
    offered = game.leaf_evaluations()
    if name not in offered:
        offers = f"it offers: {', '.join(sorted(offered))}" if offered else "it offers none"
        raise OptionError(f"{who}: {game.name} has no leaf evaluation '{name}' ({offers})")
    return offered[name]


def _one_seat(evaluate_all: Callable[[State], list[float]]) -> Callable[[State, int], float]:
    """`evaluate(state, seat)` from an every-seat evaluation."""
    return lambda state, seat: evaluate_all(state)[seat]


def _best_by_heuristic(
    sample: State, legal: list[Action], evaluate: Callable[[State, int], float], rng
) -> Action:
    """The mover's best one-ply move by the heuristic (ties broken at random)."""
    best = best_of(legal, one_ply_values(sample, legal, evaluate, sample.current_player()))
    return best[0] if len(best) == 1 else best[rng.randrange(len(best))]
