"""How far search can go in each game: a search that sees every hidden card, against `greedy`.

An agent that peeks (its search samples the true state: every hand, every face-down card and the
order of every pile) is no fair player, but its win rate against `greedy` bounds what a fair
search of the same budget can hope for: where even the peeking search wins well short of 90%, the
game's luck (draws, dice) decides that share of games and no honest agent reaches the target.
Both agents play in the same run, seats rotated, 95% Wilson intervals.

    .venv/bin/python scripts/ai_bound.py --only stakbots --games 100
    .venv/bin/python scripts/ai_bound.py --iterations 1000 --games 100   # every two-seat game
    .venv/bin/python scripts/ai_bound.py --only iotabots --search rollout=0,c=0.2 --peek-only
    .venv/bin/python scripts/ai_bound.py --only betabotz --players 3 --against mcts:1000 --peek-only
    .venv/bin/python scripts/ai_bound.py --only iotabots --peek hands --peek-only   # hands only

With more than two seats the search plays one seat and the agent it is measured against all the
others, and the table reads decided pairs as docs/ai.md does for Betabotz: each (search seat,
other seat) pair of a game in which one of the two won, the search's share of those pairs.

docs/ai.md ("How much is skill") holds a run of it. The peeking agent lives in this script only:
it is never a spec the CLI, the web or the lab's workers know (one process, `workers=1`).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from typing import Any

from robotable.agents import MCTSAgent, agent_params, register_agent
from robotable.agents.mcts import _Edge
from robotable.core.protocol import State
from robotable.core.registry import bundled_game_names, game_class
from robotable.core.rng import GameRng
from robotable.sim.analysis import summarize
from robotable.sim.runner import RunSpec, run
from robotable.sim.stats import wilson

# The bundled games two can play: the peeking search is measured head to head.
TWO_SEAT_GAMES = tuple(
    name
    for name in bundled_game_names()
    if game_class(name).min_players <= 2 <= game_class(name).max_players
)


class _Open:
    """A state whose every determinization is the state itself (a copy): nothing is hidden.

    The search samples from a silenced copy of what it is given (`state.clone().silence()`),
    so the copy stays open too."""

    def __init__(self, state: State) -> None:
        self._state = state

    def __getattr__(self, name: str) -> Any:
        return getattr(self._state, name)

    def clone(self) -> _Open:
        return type(self)(self._state.clone())

    def silence(self) -> _Open:
        self._state.silence()
        return self

    def determinize(self, seat: int, rng: Any) -> State:
        return self._state.clone()


class _HandsOpen(_Open):
    """Iotabots with every hand open and the future hidden: each sample keeps the true hands and
    field, and shuffles both decks and draws a fresh stream for the dice, so what separates it
    from the fair search is the rival's hand alone (what reading the rival's play could learn),
    and what separates it from `_Open` is the draws to come (what nobody can learn)."""

    def determinize(self, seat: int, rng: Any) -> State:
        sample = self._state.clone()
        sample._legal = None  # as the game's own determinize: the sample lists its own moves
        sample.deck = [[c for _, c in sorted((rng.random(), c) for c in d)] for d in sample.deck]
        sample.rng = GameRng(rng.getrandbits(63))
        return sample


class PeekingMCTS(MCTSAgent):
    """MCTS with the same budget and options whose samples are the true state."""

    view = _Open

    def search(self, state: State, root: _Edge | None = None, budget: float | None = None) -> _Edge:
        return super().search(self.view(state), root, budget)  # type: ignore[arg-type]


class HandPeekingMCTS(PeekingMCTS):
    """MCTS whose samples hold the true hands, with the decks' order and the dice unknown."""

    view = _HandsOpen


def counter(games: int, what: str):
    """A progress callback for `run`: a line on stderr after each game (a run takes hours)."""
    done = [0]

    def tick(count: int) -> None:
        done[0] += count
        print(f"{what}: {done[0]} of {games} games", file=sys.stderr, flush=True)

    return tick


def win_rate(game: str, agents: tuple[str, ...], games: int, errors: str) -> dict:
    spec = RunSpec(game, 2, agents, games=games, seed=0, error_dir=errors, track_cards=False)
    outcome = run(spec, workers=1, progress=counter(games, f"{game} {agents[0]}"))
    return summarize(outcome)["agent_stats"][agents[0]]


def pair_rate(game: str, players: int, search: str, against: str, games: int, errors: str) -> dict:
    """`search` in one seat, `against` in the others (the first agent of a run holds the extra
    seats): the search's share of the decided (search seat, other seat) pairs, and its wins."""
    spec = RunSpec(
        game, players, (against, search), games=games, seed=0, error_dir=errors, track_cards=False
    )
    won = lost = games_won = played = 0
    for result in run(spec, workers=1, progress=counter(games, f"{game} {search}")).results:
        if result.returns is None:
            continue
        played += 1
        mine = result.arrangement.index(1)
        winners = result.winners()
        games_won += mine in winners and len(winners) == 1
        for seat in range(players):
            if seat == mine:
                continue
            if (mine in winners) != (seat in winners):
                won += mine in winners
                lost += seat in winners
    decided = won + lost
    return {
        "win_rate": won / decided if decided else 0.0,
        "ci": wilson(won, decided),
        "pairs": f"{won} of {decided} pairs; {games_won} of {played} games",
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument(
        "--search",
        default="",
        help="more of the search's options, both searches alike (e.g. 'rollout=0,c=0.2')",
    )
    parser.add_argument("--against", default="greedy")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=2, help="seats (more than 2: pairs)")
    parser.add_argument("--only", action="append", help="a game (repeatable; default: all)")
    parser.add_argument(
        "--peek-only",
        action="store_true",
        help="play only the peeking search (the fair one's games are `robotable simulate GAME "
        "-a 'mcts:N;greedy' --seed 0`, the same seeds)",
    )
    parser.add_argument(
        "--peek",
        choices=("all", "hands"),
        default="all",
        help="what the peeking search sees: everything, or (Iotabots) the hands but not the draws",
    )
    args = parser.parse_args(argv)
    if args.peek == "hands" and args.only != ["iotabots"]:
        parser.error(
            "--peek hands: only Iotabots' hands and decks are known here (--only iotabots)"
        )
    register_agent(
        "peek", HandPeekingMCTS if args.peek == "hands" else PeekingMCTS, agent_params("mcts")
    )
    # made only if a game raises (its record is saved there), so a clean run leaves nothing
    errors = os.path.join(tempfile.gettempdir(), f"robotable-bound-errors-{os.getpid()}")
    budget = f"iterations={args.iterations}" + (f",{args.search}" if args.search else "")
    sight = " (the hands, not the draws)" if args.peek == "hands" else ""
    print(f"`mcts:{budget}` and the same search peeking{sight}, each against `{args.against}`,")
    print(f"{args.games} games each, seats rotated, seed 0.\n")
    print("| game | fair search wins | 95% interval | peeking search wins | 95% interval |")
    print("|---|---|---|---|---|")
    for game in args.only or TWO_SEAT_GAMES:
        row = [game]
        for kind in ("mcts", "peek"):
            if kind == "mcts" and args.peek_only:
                row += ["-", "-"]
                continue
            if args.players > 2:
                stats = pair_rate(
                    game, args.players, f"{kind}:{budget}", args.against, args.games, errors
                )
            else:
                stats = win_rate(game, (f"{kind}:{budget}", args.against), args.games, errors)
            low, high = stats["ci"]
            rate = f"{100 * stats['win_rate']:.1f}%"
            if "pairs" in stats:
                rate += f" ({stats['pairs']})"
            row += [rate, f"[{100 * low:.1f}, {100 * high:.1f}]"]
        print("| " + " | ".join(row) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
