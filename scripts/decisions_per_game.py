"""How many decisions a person makes in a game against `easy`, before and after turn plans:

    python scripts/decisions_per_game.py [--games 5] [--person greedy] [--opponent easy]
                                         [--seed 0] [--only breadwinner] [--pace 5]

A scripted "person" (a seeded agent, `greedy` by default) sits in seat 1 against `easy` in the
others, N seeded games per game. Over the same games it counts, for the person's seat:

- before: every decision the seat is asked today (the web table asks even an only choice);
- forced: the decisions with a single legal choice, which a table set to auto takes for them;
- after: the decisions the person still makes when only choices are taken for them and the
  game's turn plans (core/plans.py) are offered: where a plan offered at a decision is exactly
  the person's next actions, those actions are one decision. The person plays as it would
  anyway; a plan that differs by one action does not count (so the count is what a person who
  plays like the agent and reads the plans would click, no fewer). With `--person suggested`
  the person is one who takes the suggestions: at each decision the longest "... as suggested"
  plan offered (Bread Winner's), else the greedy move; its count is what a player who leans on
  the suggestions clicks.

The table gives the mean per game and the minutes "after" takes at `--pace` seconds a decision
(thinking time of the AI seats not included), the longest game's "after" with its minutes (does
the longest game fit in a sitting?), and how many shortcuts (plans) the person is shown at a
decision on average, the price of the fewer clicks in reading. Games longer than `--max-actions`
are stopped and counted as they stand ("unfinished").
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field

import robotable
from robotable.agents import make_agent
from robotable.core.plans import plans_for
from robotable.core.protocol import Action, Game

PERSON_SEAT = 0
# The person who takes the suggestions: the longest plan whose key starts with this (Bread
# Winner's "... as suggested"), else the greedy move.
SUGGESTED, GREEDY = "suggested", "greedy"


@dataclass
class Count:
    """One game's decisions of the person's seat."""

    before: int = 0  # every decision of the seat
    forced: int = 0  # of those, an only choice
    after: int = 0  # decisions the person makes with auto only choices and turn plans
    plans_taken: dict[str, int] = field(default_factory=dict)  # plan key kind -> times
    plans_shown: int = 0  # plans offered, summed over the decisions counted in `after`
    finished: bool = True


def play(game: Game, seed: int, person: str, opponent: str, max_actions: int) -> list[Action]:
    """The actions of one seeded game: `person` in seat 1, `opponent` in the others. The person
    `suggested` takes the longest "as suggested" plan offered and plays greedy where none is."""
    state = game.new_initial_state(seed=seed)
    taker = person == SUGGESTED
    agents = {
        seat: make_agent(
            (GREEDY if taker else person) if seat == PERSON_SEAT else opponent,
            seed=seed * 131 + seat,
        )
        for seat in range(game.num_players)
    }
    actions: list[Action] = []
    while not state.is_terminal() and len(actions) < max_actions:
        seat = state.current_player()
        mine = taker and seat == PERSON_SEAT
        suggested = [p for p in plans_for(state) if p.key.startswith(SUGGESTED)] if mine else []
        if suggested:
            moves = max(suggested, key=lambda p: len(p.actions)).actions
        else:
            moves = (agents[seat].act(state),)
        for action in moves:
            state.apply_action(action)
            actions.append(action)
    return actions


def count_decisions(game: Game, seed: int, actions: list[Action], seat: int = PERSON_SEAT) -> Count:
    """Walk a played game again and count `seat`'s decisions before and after (module doc)."""
    state = game.new_initial_state(seed=seed)
    count = Count()
    i = 0
    while i < len(actions):
        if state.current_player() != seat:
            state.apply_action(actions[i])
            i += 1
            continue
        legal = state.legal_actions()
        taken = 1
        if len(legal) == 1:
            count.forced += 1
        else:
            count.after += 1
            best = None
            plans = plans_for(state)
            count.plans_shown += len(plans)
            for plan in plans:
                n = len(plan.actions)
                if n > taken and same_position(state, plan.actions, actions[i : i + n], seat):
                    best, taken = plan, n
            if best is not None:
                kind = best.key.split(":")[0]
                count.plans_taken[kind] = count.plans_taken.get(kind, 0) + 1
        for step, action in enumerate(actions[i : i + taken]):
            count.before += 1
            if step and len(state.legal_actions()) == 1:
                count.forced += 1  # an only choice inside a plan is still one today
            state.apply_action(action)
        i += taken
    count.finished = state.is_terminal()
    return count


def same_position(state, planned: tuple[Action, ...], own: list[Action], seat: int) -> bool:
    """Whether the person's own next actions (all theirs) bring the table to exactly the
    position the plan does: the same moves in another order count, other moves do not."""
    if len(own) != len(planned):
        return False
    if tuple(own) == planned:
        return True
    mine, theirs = state.clone(), state.clone()
    for action in own:
        if mine.current_player() != seat or action not in mine.legal_actions():
            return False
        mine.apply_action(action)
    for action in planned:
        theirs.apply_action(action)
    return mine.to_json() == theirs.to_json()


@dataclass
class Row:
    game: str
    games: int
    before: float
    forced: float
    after: float
    unfinished: int
    plans: dict[str, int]
    longest: int  # the most decisions "after" of one game
    shown: float  # plans offered per decision counted in "after"

    @property
    def share(self) -> float:
        return self.after / self.before if self.before else 1.0


def measure(name: str, games: int, seed: int, person: str, opponent: str, max_actions: int) -> Row:
    game = robotable.load_game(name)
    counts = []
    for n in range(games):
        actions = play(game, seed + n, person, opponent, max_actions)
        counts.append(count_decisions(game, seed + n, actions))
    plans: dict[str, int] = {}
    for c in counts:
        for kind, times in c.plans_taken.items():
            plans[kind] = plans.get(kind, 0) + times
    return Row(
        name,
        games,
        sum(c.before for c in counts) / games,
        sum(c.forced for c in counts) / games,
        sum(c.after for c in counts) / games,
        sum(not c.finished for c in counts),
        plans,
        max(c.after for c in counts),
        sum(c.plans_shown for c in counts) / max(1, sum(c.after for c in counts)),
    )


def table(rows: list[Row], pace: float) -> str:
    lines = [
        "| game | games | before (all decisions) | only choices (auto) | after | after/before "
        f"| minutes after at {pace:g} s | longest game after (minutes) | shortcuts shown per decision "
        "| plans taken | unfinished |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        plans = ", ".join(f"{k} {v}" for k, v in sorted(r.plans.items())) or "none offered"
        lines.append(
            f"| {r.game} | {r.games} | {r.before:.1f} | {r.forced:.1f} | {r.after:.1f} "
            f"| {r.share:.0%} | {r.after * pace / 60:.1f} | {r.longest} ({r.longest * pace / 60:.1f}) "
            f"| {r.shown:.1f} | {plans} | {r.unfinished} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5, help="seeded games per game")
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed")
    parser.add_argument(
        "--person",
        default=GREEDY,
        help=f"the agent standing in for a person; {SUGGESTED!r}: one who takes the suggestions",
    )
    parser.add_argument("--opponent", default="easy", help="the agent in the other seats")
    parser.add_argument("--only", default="", help="comma-separated games (default: all)")
    parser.add_argument("--pace", type=float, default=5.0, help="seconds a person's decision")
    parser.add_argument("--max-actions", type=int, default=4000, help="stop a game after this")
    args = parser.parse_args(argv)
    names = [n for n in args.only.split(",") if n] or robotable.game_names()
    rows = [
        measure(name, args.games, args.seed, args.person, args.opponent, args.max_actions)
        for name in names
    ]
    print(
        f"{args.person} in seat 1 against {args.opponent}, {args.games} games each from seed "
        f"{args.seed}; mean decisions of the person's seat per game"
    )
    print(table(rows, args.pace))


if __name__ == "__main__":
    main()
