"""Named strengths: `easy`, `medium`, `hard`, `expert`, for people who do not know the agents.

A strength names an agent and a budget per game; the name is accepted wherever an agent spec is
(`make_agent("hard")`), and resolves at the first decision, when the game is known. Budgets are
time-capped so that a person waits at most about a second for `hard` and three for `expert`,
whatever the game: an iteration count alone costs ten times more in a slow game than in a fast one.
"""

from __future__ import annotations

from ..core.protocol import Action, State
from .base import Agent

STRENGTHS = ("easy", "medium", "hard", "expert")

LABELS = {
    "easy": "Easy (for a first game)",
    "medium": "Medium (a casual player)",
    "hard": "Hard (about a second a move)",
    "expert": "Expert (about three seconds a move)",
}

# What each strength is in a game without its own entry.
DEFAULT = {
    "easy": "greedy:noise=0.5",  # the heuristic's best move half the time, else any legal move
    "medium": "greedy",
    "hard": "mcts:iterations=1000,time=1",
    "expert": "mcts:iterations=5000,time=3",
}

# Per-game entries, where a game's measured speed or depth calls for another agent or budget.
BY_GAME: dict[str, dict[str, str]] = {
    # Random rollout moves are poor Bread Winner play (they deactivate and scatter bots), so the
    # search values its leaves by the heuristic at once. Measured with mcts:iterations=300 in
    # self-play, 10-20 games (docs/ai.md): 70% of games ended by all loaves with rollout=0,
    # 35% with the default 4-step random rollout; rollout=0 beat greedy in 16 of 20 games.
    # `expert` is `hard`'s search, given three seconds to finish it: the search peaks near
    # 1,000 iterations here (against it, 100 games each: 300 took 35.5%, 2,000 45%, 5,000
    # 31%, five pooled trees of 1,000 46%; docs/ai.md), so no bigger budget plays better.
    # hard's tree stops at the end of its own turn (horizon=1), the positions there valued by
    # the heuristic, which discounts a harvest for the rival threats on it: an unbounded tree
    # reaches the rival's reply below "end the turn" long before it does below the turn's other
    # moves, and kept doing things it had no reason to do, down to returning a carrying
    # Harvester. Against mcts:1000 it scores 73 of 100 where the unbounded search scored 55 on
    # the same deals. From turn 60 on (30 turns each, past nearly every finished game) it
    # rescales its values (late=60), so that a leader presses its lead home instead of sitting
    # on it until the turn cap: its games with itself end by all loaves 182 times in 200, where
    # without the press 19 of 25 did; against greedy the press costs four points (76 of 100,
    # 80 without), taken because the rulebook's game has no cap (docs/ai.md, "Bread Winner's
    # late press" and "Bread Winner's turn as one horizon").
    "breadwinner": {
        "hard": "mcts:iterations=1000,time=1,rollout=0,horizon=1,late=60",
        # hard's search with leaf values fitted to searched games' results (docs/ai.md)
        "expert": "mcts:iterations=1000,time=3,rollout=0,leaf=fitted",
    },
    # A Betabotz game is hundreds of decisions, most of them bids whose worth shows only missions
    # later, so a move at random half the time left `easy` barely above `random` (55-57% of the
    # pairwise comparisons, `robotable ladder betabotz --agents "random;easy"`, 100-200 games).
    # At a third of its moves at random it takes 61-62% against random and medium 67-68%
    # against it (400 games each, seeds 1 and 2; docs/ai.md).
    # One search of 5,000 iterations plays worse than hard's 1,000 here: one such seat against
    # two hard seats won 9 of 44 games (a fair seat wins a third). Five pooled trees of 1,000
    # (the same budget) won 17 of the same 44 deals and 31 of 81 (docs/ai.md, "Betabotz's
    # expert"): level with hard within the noise, not above it as asked.
    "betabotz": {"easy": "greedy:noise=0.35", "expert": "mcts:iterations=5000,time=3,trees=5"},
    # The heuristic's values of the moves at a decision lie within a hundredth or two of each
    # other, where the default exploration term (c=0.7) is a tenth or more: the plain search
    # gives the good moves about the same visits, and its choice is close to a draw among them.
    # Leaves valued at once (rollout=0, no random moves to add noise) and a narrower term
    # (c=0.2) let the visits follow the values. At 1,000 iterations that search beats hard's
    # (docs/ai.md, "A search that follows its values"): Rumblebots 72.5% of 200 games,
    # Iotabots 59.7% of 300; with 5,000 iterations it is no stronger, so expert keeps 1,000
    # and answers well inside its three seconds. In Iotabots hard stays as it is, and expert is
    # three such searches pooled (trees=3, root parallelization): 63.3% of 300 against hard's
    # search where one tree took 59.7% on the same deals (docs/ai.md, "Iotabots' expert: three
    # trees"); with fitted leaves one tree took 58.5% of 200.
    # In Rumblebots this search is hard (since 27 Nov 2026; its first Champion is fair with no
    # head start, docs/rules/rumblebots.md RB-2.5), and expert values its leaves with the
    # score's numbers fitted to this search's own games (leaf=fitted). Those numbers soften the
    # softmax (temperature 2.5 to 3.48), which shrinks the values' differences by about 0.72,
    # so expert narrows the exploration term by as much (c=0.15) to follow them as hard does.
    # Since 29 Nov 2026 both search more: hard 3,000 iterations (99 of 100 against greedy,
    # 71.5% of 200 against mcts:1000; its first Champion fair at two, three and four seats) and
    # expert 10,000 (69 of 100 against the 3,000; docs/ai.md, "Rumblebots' bigger searches").
    # Under rules version 5: 100 of 100, 68.3% of 300 and 62.9% of 221 (docs/ai.md).
    # Each stays inside its second or three on the pure engine at four seats (0.77 s, 2.87 s).
    "rumblebots": {
        "hard": "mcts:iterations=3000,time=1,rollout=0,c=0.2",
        "expert": "mcts:iterations=10000,time=3,rollout=0,c=0.15,leaf=fitted",
    },
    "iotabots": {"expert": "mcts:iterations=3000,time=3,rollout=0,c=0.2,trees=3"},
}


def strength_spec(strength: str, game: str) -> str:
    """The concrete agent spec of a named strength in one game."""
    return BY_GAME.get(game, {}).get(strength, DEFAULT[strength])


class StrengthAgent(Agent):
    """A named strength: builds the game's agent for that strength at its first decision."""

    def __init__(self, seed: int = 0, strength: str = "medium") -> None:
        super().__init__(seed)
        self.strength = strength
        self.name = strength
        self._agents: dict[str, Agent] = {}
        self._decision_seed: int | None = None

    # Which agent plays is known only at the first decision (it depends on the game), and named
    # strengths search by the clock: never taken over partway through a game.
    remembers = True

    def reseed(self, seed: int) -> None:
        self._decision_seed = seed  # the agent it resolves to may not be built yet

    def resolve(self, game: str) -> Agent:
        agent = self._agents.get(game)
        if agent is None:
            from . import make_agent

            agent = self._agents[game] = make_agent(strength_spec(self.strength, game), self.seed)
        return agent

    def act(self, state: State) -> Action:
        agent = self.resolve(state.game.name)
        if self._decision_seed is not None:
            agent.reseed(self._decision_seed)
        return agent.act(state)
