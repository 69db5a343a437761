"""Playing many games: the job plan, one game in a worker, and the three ways to run them.

A run is planned entirely up front in the parent (`plan_jobs`): every game gets its variant,
its index, its seed (`derive_seed(master, index)`) and its seat arrangement before anything is
played. Workers only play what they are given and return plain results, which are put back in
job order, so the same seed gives the same games and the same numbers whether they were played
in this process, in N local worker processes or on a Ray cluster.

The functions that cross a process boundary (`play_batch`, `_ray_play_batch`) are top-level and
take only picklable dataclasses, which is what the `spawn` start method (and Ray) needs.
"""

from __future__ import annotations

import contextlib
import importlib
import itertools
import math
import multiprocessing
import os
import statistics
import sys
import time
import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..core.errors import OptionError
from ..core.processes import die_with_parent, sigterm_as_interrupt
from ..core.records import make_record, save_record
from ..core.registry import game_class, load_game
from ..core.rng import derive_seed
from .quality import TurnOrder, game_quality, leader

DEFAULT_MAX_ACTIONS = 50_000


@dataclass(frozen=True, slots=True)
class Variant:
    """One configuration of the game under study: the options it is played with."""

    index: int
    label: str
    options: tuple[tuple[str, Any], ...]

    def options_dict(self) -> dict[str, Any]:
        return dict(self.options)


@dataclass(frozen=True, slots=True)
class RunSpec:
    """Everything that decides which games are played (and so the results)."""

    game: str
    num_players: int
    agents: tuple[str, ...]
    games: int
    seed: int = 0
    variants: tuple[Variant, ...] = (Variant(0, "default", ()),)
    fixed_seats: bool = False
    max_actions: int = DEFAULT_MAX_ACTIONS
    error_dir: str = "robotable-errors"
    track_cards: bool = True
    # Per-step evaluation for the quality measures (lead changes, decision point, margin): off
    # by default because it calls game.evaluate_all every `quality_every` decisions.
    quality: bool = False
    quality_every: int = 1
    # Each card's standing moment (GameResult.moments): off by default because it calls
    # game.evaluate_all before every action.
    standing: bool = False
    # A restricted agent 0 (`simulate --restrict`) also plays each game unbarred: see
    # `play_paired`.
    paired: bool = False
    # Bars (cards, kinds) to watch at agent 0's seat in every game: GameResult.bar_could_act.
    watch: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = ()
    # Each game's moves (GameResult.moves), so that any game of the run can be replayed.
    keep_moves: bool = False
    # Each decision's randomness drawn afresh from the seat's seed and the move's number
    # (GameJob.decision_streams): a barred game then starts where its bar can first act.
    decision_streams: bool = False

    def arrangements(self) -> list[tuple[int, ...]]:
        return seat_arrangements(len(self.agents), self.num_players, self.fixed_seats)

    def agent_labels(self) -> list[str]:
        return agent_labels(self.agents)


@dataclass(frozen=True, slots=True)
class Recording:
    """What a game records beyond its result, for the studies that read it."""

    track_cards: bool = True  # GameResult.cards: the cards each seat's events named
    quality_every: int = 0  # evaluate every this many decisions; 0: no quality measures
    standing: bool = False  # record each card's moment (GameResult.moments)
    keep_moves: bool = False  # GameResult.moves


@dataclass(frozen=True, slots=True)
class Bars:
    """The restricted-play study's part of a game job (`simulate --restrict`, the fairness
    pass's barred runs): nothing in a plain run."""

    paired: bool = False  # agent 0 is restricted: play it as `play_paired` does
    # Bars (cards, kinds) watched at agent 0's seat: which of them could have changed a choice.
    watch: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = ()
    # A paired game's unbarred game as a results file kept it (its moves and returns): replayed,
    # not played (`play_paired`).
    unbarred: tuple[tuple[int, ...], tuple[float, ...]] | None = None
    # With GameJob.decision_streams: moves (as GameResult.moves) played as given before the
    # agents take over: the unbarred game's moves up to its bar's first offer.
    opening: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class GameJob:
    """One game to play: what every game needs, what it records, and the bars of a
    restricted-play study."""

    game: str
    num_players: int
    options: tuple[tuple[str, Any], ...]
    variant: int
    index: int
    seed: int
    seat_agents: tuple[str, ...]  # the agent spec playing each seat
    arrangement: tuple[int, ...]  # the agent (index into RunSpec.agents) playing each seat
    max_actions: int
    error_dir: str
    # Each decision's agent draws from a stream of its own, seeded by the seat's seed and the
    # move's number, instead of one stream per seat for the whole game. A decision then depends
    # on the position alone (for agents that keep nothing between decisions, Agent.remembers),
    # so a game can be taken over partway through and go on as if played from the start.
    decision_streams: bool = False
    record: Recording = Recording()
    bars: Bars = Bars()

    def with_bars(self, **changes: Any) -> GameJob:
        """This job with its bars changed: `job.with_bars(opening=moves)`."""
        return replace(self, bars=replace(self.bars, **changes))


@dataclass(frozen=True, slots=True)
class WorkerSetup:
    """What a fresh worker needs before it can load the game: a game registered by a module
    outside robotable.games (a user's game, a test game) is imported by name, from the same
    sys.path as the parent."""

    modules: tuple[str, ...] = ()
    sys_path: tuple[str, ...] = ()


@dataclass(slots=True)
class GameResult:
    variant: int
    index: int
    seed: int
    arrangement: tuple[int, ...]
    returns: tuple[float, ...] | None  # None when the game raised
    actions: int
    turns: int
    seconds: float
    error: str | None = None
    record_path: str | None = None
    # Per seat: the sorted (event type, card) pairs of every event naming that seat and a card.
    cards: tuple[tuple[tuple[str, str], ...], ...] = ()
    extras: dict[str, Any] = field(default_factory=dict)
    # Who moved first (see quality.TurnOrder) and how that was found: "stats", "first_turn",
    # "first_decision"; the seats in turn order (position k: the seat moving k-th).
    first_mover: int | None = None
    first_mover_source: str = ""
    turn_order: tuple[int, ...] = ()
    # With RunSpec.quality: samples, lead_changes, decision_point, margin (quality.game_quality).
    quality: dict[str, Any] = field(default_factory=dict)
    # The side of each seat when the game has fixed teams (Game.teams()), else empty.
    teams: tuple[int, ...] = ()
    # Per watched bar (GameJob.watch): agent 0's seat was once offered the barred card beside
    # another move. A paired game (`play_paired`) also holds the unbarred game's returns.
    bar_could_act: tuple[bool, ...] = ()
    paired: bool = False
    placebo_returns: tuple[float, ...] | None = None
    # With RunSpec.standing, per (event type, card) the first event of that type naming a seat
    # and the card: (type, card, that seat, every seat's standing just before the action that
    # caused it), the standing a seat's rank by the game's evaluation (1: no seat valued
    # higher). sim/impact.py compares the seat that took a card with the seats that stood alike.
    moments: tuple[tuple[str, str, int, tuple[int, ...]], ...] = ()
    # With RunSpec.keep_moves, each move as its place in the state's legal_actions() at that
    # step (the game replays from `seed` by them: sim/replays.py); a paired game also keeps its
    # unbarred game's moves when the two games differ (when they do not, `unbarred_moves` is
    # empty and `moves` are both games' moves).
    moves: tuple[int, ...] = ()
    unbarred_moves: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """One line of a results file (`simulate --out-jsonl`); `from_json` reads it back."""
        return {
            "variant": self.variant,
            "index": self.index,
            "seed": self.seed,
            "arrangement": list(self.arrangement),
            "returns": None if self.returns is None else list(self.returns),
            "actions": self.actions,
            "turns": self.turns,
            "seconds": self.seconds,
            "error": self.error,
            "record_path": self.record_path,
            "cards": [[list(pair) for pair in seat] for seat in self.cards],
            "extras": self.extras,
            "first_mover": self.first_mover,
            "first_mover_source": self.first_mover_source,
            "turn_order": list(self.turn_order),
            "quality": self.quality,
            "teams": list(self.teams),
            "bar_could_act": list(self.bar_could_act),
            "paired": self.paired,
            "placebo_returns": None if self.placebo_returns is None else list(self.placebo_returns),
            **(
                {"moments": [[k, c, s, list(r)] for k, c, s, r in self.moments]}
                if self.moments
                else {}
            ),
            **({"moves": list(self.moves)} if self.moves else {}),
            **({"unbarred_moves": list(self.unbarred_moves)} if self.unbarred_moves else {}),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameResult:
        returns = data["returns"]
        return cls(
            variant=int(data["variant"]),
            index=int(data["index"]),
            seed=int(data["seed"]),
            arrangement=tuple(int(a) for a in data["arrangement"]),
            returns=None if returns is None else tuple(float(r) for r in returns),
            actions=int(data["actions"]),
            turns=int(data["turns"]),
            seconds=float(data["seconds"]),
            error=data.get("error"),
            record_path=data.get("record_path"),
            cards=tuple(
                tuple((str(p[0]), str(p[1])) for p in seat) for seat in data.get("cards", [])
            ),
            extras=dict(data.get("extras") or {}),
            first_mover=data.get("first_mover"),
            first_mover_source=str(data.get("first_mover_source", "")),
            turn_order=tuple(int(s) for s in data.get("turn_order", [])),
            quality=dict(data.get("quality") or {}),
            teams=tuple(int(t) for t in data.get("teams") or ()),
            bar_could_act=tuple(bool(b) for b in data.get("bar_could_act") or ()),
            paired=bool(data.get("paired", False)),
            placebo_returns=None
            if data.get("placebo_returns") is None
            else tuple(float(r) for r in data["placebo_returns"]),
            moments=tuple(
                (str(k), str(c), int(s), tuple(int(x) for x in r))
                for k, c, s, r in data.get("moments") or ()
            ),
            moves=tuple(int(m) for m in data.get("moves") or ()),
            unbarred_moves=tuple(int(m) for m in data.get("unbarred_moves") or ()),
        )

    def unbarred_game(self) -> tuple[tuple[int, ...], tuple[float, ...] | None]:
        """The moves and returns of this deal's game with every seat unbarred: a paired game's
        unbarred partner (its own moves when the bar could not act), else the game itself."""
        if self.paired:
            return self.unbarred_moves or self.moves, self.placebo_returns
        return self.moves, self.returns

    def unbarred_won(self, seat: int) -> bool:
        """`seat` won the unbarred game beside this paired one."""
        return replace(self, returns=self.placebo_returns).won(seat)

    def winners(self) -> list[int]:
        """The seats with the best return (one seat: a win; several: a draw; none on error).
        A game with one seat against the game itself (Stak Bots' Drone Mode) is won only with
        a return above one half; otherwise nobody won it (`is_draw` tells a draw from a loss)."""
        if self.returns is None:
            return []
        if len(self.returns) == 1:
            return [0] if self.returns[0] > 0.5 else []
        best = max(self.returns)
        return [s for s, r in enumerate(self.returns) if r == best]

    def decisive(self) -> bool:
        """One seat, or (with fixed teams) one team's seats, have the best return alone."""
        won = self.winners()
        if len(won) == 1:
            return True
        return bool(self.teams) and bool(won) and len({self.teams[s] for s in won}) == 1

    def won(self, seat: int) -> bool:
        """`seat` won the game, alone or with its team."""
        return self.decisive() and seat in self.winners()

    def is_draw(self) -> bool:
        """Several seats (or teams) share the best return, or a one-seat game ended at one half."""
        if self.returns is None:
            return False
        if len(self.returns) == 1:
            return self.returns[0] == 0.5
        return not self.decisive() and len(self.winners()) > 1

    def sides(self) -> int:
        """How many sides play: teams when there are fixed teams, else seats."""
        return len(set(self.teams)) if self.teams else len(self.returns or ())

    def sole_winner(self) -> int | None:
        won = self.winners()
        return won[0] if len(won) == 1 else None


# -- planning ---------------------------------------------------------------------------------


def seat_arrangements(num_agents: int, num_players: int, fixed: bool = False) -> list[tuple]:
    """The seat orders a run cycles through, as tuples of agent indices (one per seat).

    - as many agents as seats or more: every ordered choice of distinct agents for the seats
      (two agents: both seat orders; three agents on three seats: all six orders; three agents
      on two seats: every pairing in both orders, a round robin);
    - fewer agents than seats: the agents repeat round the table (a,b,a,b) and the table is
      rotated so that every agent sits in every seat equally often.
    `fixed` plays the agents in the order given, seat 0 first, with no rotation.
    """
    if num_agents < 1:
        raise OptionError("simulate: give at least one agent")
    base = tuple(i % num_agents for i in range(num_players))
    if fixed:
        if num_agents > num_players:
            raise OptionError(
                f"simulate: {num_agents} agents for {num_players} seats with fixed seats; "
                "give at most one agent per seat"
            )
        return [base]
    if num_agents >= num_players:
        return list(itertools.permutations(range(num_agents), num_players))
    out: list[tuple[int, ...]] = []
    for shift in range(num_players):
        rotated = tuple(base[(seat + shift) % num_players] for seat in range(num_players))
        if rotated not in out:
            out.append(rotated)
    return out


def agent_labels(specs: Sequence[str]) -> list[str]:
    """Unique display names: a spec given twice becomes 'random' and 'random#2'."""
    seen: dict[str, int] = {}
    labels = []
    for spec in specs:
        seen[spec] = seen.get(spec, 0) + 1
        labels.append(spec if seen[spec] == 1 else f"{spec}#{seen[spec]}")
    return labels


def plan_jobs(spec: RunSpec) -> list[GameJob]:
    """Every game of the run, in result order. Game i of every variant has the same seed (common
    random numbers: variants are compared on the same deals) and seat arrangement; arrangements
    are laid out in equal blocks (two agents: seats swapped halfway)."""
    arrangements = spec.arrangements()
    count = len(arrangements)
    # Absolute, because a Ray worker runs in a directory of its own.
    error_dir = os.path.abspath(spec.error_dir)
    record = Recording(
        track_cards=spec.track_cards,
        quality_every=max(1, spec.quality_every) if spec.quality else 0,
        standing=spec.standing,
        keep_moves=spec.keep_moves,
    )
    bars = Bars(paired=spec.paired, watch=spec.watch)
    jobs = []
    for variant in spec.variants:
        for index in range(spec.games):
            arrangement = arrangements[index * count // spec.games]
            jobs.append(
                GameJob(
                    game=spec.game,
                    num_players=spec.num_players,
                    options=variant.options,
                    variant=variant.index,
                    index=index,
                    seed=derive_seed(spec.seed, index),
                    seat_agents=tuple(spec.agents[a] for a in arrangement),
                    arrangement=arrangement,
                    max_actions=spec.max_actions,
                    error_dir=error_dir,
                    decision_streams=spec.decision_streams,
                    record=record,
                    bars=bars,
                )
            )
    return jobs


def worker_setup(game: str) -> WorkerSetup:
    """Which module a worker must import so that `game` is registered there too."""
    module = game_class(game).__module__
    if module.startswith("robotable.games."):
        return WorkerSetup()
    return WorkerSetup(modules=(module,), sys_path=tuple(p for p in sys.path if p))


# -- one game ---------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def _cached_game(name: str, num_players: int, options: tuple[tuple[str, Any], ...]):
    # Content files are parsed once per worker, not once per game.
    return load_game(name, num_players=num_players, **dict(options))


def _agent_seed(game_seed: int, seat: int) -> int:
    # Agents get their own streams, fixed by the game's seed and the seat, never by the worker.
    return derive_seed(game_seed, 1 + seat)


def play_game(job: GameJob, script: Sequence[int] | None = None) -> GameResult:
    """Play one game to the end. Any exception is caught: the game is saved as a record (the
    actions so far, plus the failing one when applying it raised) for `robotable replay`."""
    if job.bars.paired and script is None:
        from .studies.restricted_play import play_paired

        return play_paired(job)
    started = time.perf_counter()
    actions: list = []
    state = None
    game = None
    # What the game was doing, as a cheap code: the readable sentence (which formats the action)
    # is only built when something fails, not once per action.
    phase = "setup"
    seat = -1
    n = job.num_players
    used: list[set[tuple[str, str]]] = [set() for _ in range(n)]
    order = TurnOrder(n)
    every = job.record.quality_every
    sample_steps: list[int] = []
    leaders: list[int | None] = []
    last_values: list[float] | None = None
    bars, watched_seat = _watched_bars(job)
    could_act = [False] * len(bars)
    moments: dict[tuple[str, str], tuple[str, str, int, tuple[int, ...]]] = {}
    ranks: tuple[int, ...] = ()
    moves: list[int] | None = [] if job.record.keep_moves else None
    try:
        game = _cached_game(job.game, n, job.options)
        state = game.new_initial_state(seed=job.seed)
        seeds = [_agent_seed(job.seed, s) for s in range(n)]
        agents = _seat_agents(job, script, seeds)
        streams = job.decision_streams and script is None
        # An opening is a shortcut, valid only where the agents would have played it themselves:
        # decisions drawn afresh, by agents that keep nothing from one decision to the next.
        opening = job.bars.opening if streams and not any(a.remembers for a in agents) else ()
        track = job.record.track_cards
        standing = track and job.record.standing
        limit = job.max_actions
        while not state.is_terminal():
            if len(actions) >= limit:
                phase = "length"
                raise RuntimeError(f"the game did not end within {limit} actions")
            seat = state.current_player()
            if order.open:
                order.see(seat, state.turn_number())
            if every and len(actions) % every == 0:
                phase = "evaluate"
                last_values = game.evaluate_all(state)
                sample_steps.append(len(actions))
                leaders.append(leader(last_values))
            if seat == watched_seat and not all(could_act):
                legal = state.legal_actions()
                for k, bar in enumerate(bars):
                    could_act[k] = could_act[k] or bar.can_act(legal)
            phase = "act"
            if len(actions) < len(opening):
                action = state.legal_actions()[opening[len(actions)]]
            else:
                if streams:
                    agents[seat].reseed(derive_seed(seeds[seat], 1 + len(actions)))
                action = agents[seat].act(state)
            if standing:
                # Before the action: the rank a card's taker held, not the one the card gave.
                phase = "evaluate"
                ranks = standing_ranks(game.evaluate_all(state))
            phase = "apply"
            if moves is not None:
                # By value, as apply_action finds it; one the state does not offer raises there.
                legal = state.legal_actions()
                if action in legal:
                    moves.append(legal.index(action))
            actions.append(action)
            events = state.apply_action(action)
            if track:
                for event in events:
                    who = event.get("seat")
                    card = event.get("card")
                    if type(who) is int and 0 <= who < n and isinstance(card, str):
                        pair = (str(event.get("type", "")), card)
                        used[who].add(pair)
                        if standing and pair not in moments:
                            moments[pair] = (*pair, who, ranks)
        phase = "result"
        returns = tuple(float(r) for r in state.returns())
        extras = state.stats() or {}
        turns = int(state.turn_number())
        first_mover, first_source, turn_order = order.result(extras)
        quality: dict[str, Any] = {}
        if every:
            if actions and (not sample_steps or sample_steps[-1] != len(actions) - 1):
                # The margin is read on the last position before the end; with sparse samples
                # that position is rebuilt by replaying the game (cheap: no agent thinks).
                phase = "evaluate"
                last_values = game.evaluate_all(_replay(game, job.seed, actions[:-1]))
            quality = game_quality(sample_steps, leaders, returns, len(actions), last_values)
    except Exception as exc:  # noqa: BLE001 - a failing game must not stop the run
        return _failed(job, exc, phase, seat, game, state, actions, started)
    return GameResult(
        variant=job.variant,
        index=job.index,
        seed=job.seed,
        arrangement=job.arrangement,
        returns=returns,
        actions=len(actions),
        turns=turns,
        seconds=time.perf_counter() - started,
        cards=tuple(tuple(sorted(u)) for u in used) if job.record.track_cards else (),
        extras=extras,
        first_mover=first_mover,
        first_mover_source=first_source,
        turn_order=turn_order,
        quality=quality,
        teams=tuple(game.teams() or ()),
        bar_could_act=tuple(could_act),
        moments=tuple(moments.values()),
        moves=tuple(moves or ()),
    )


def _watched_bars(job: GameJob) -> tuple[list, int]:
    """The watched bars as CardBars, and the seat they watch (-1: none)."""
    if not job.bars.watch:
        return [], -1
    from ..agents.restricted import CardBar

    return [CardBar(cards, kinds) for cards, kinds in job.bars.watch], job.arrangement.index(0)


def _seat_agents(job: GameJob, script: Sequence[int] | None, seeds: list[int]) -> list:
    """Each seat's agent, seeded from the game; with `script`, the kept moves for every seat."""
    from ..agents import make_agent

    if script is not None:
        return [_Script(script)] * job.num_players
    return [make_agent(spec, seed=seeds[s]) for s, spec in enumerate(job.seat_agents)]


def _failed(job: GameJob, exc: Exception, phase: str, seat: int, game, state, actions, started):
    """The result of a game that raised, its record saved for `robotable replay`."""
    where = _describe_phase(phase, seat, job, actions)
    message = f"{type(exc).__name__} while {where}: {exc}"
    path = _save_failure(job, game, actions, state, message, where)
    return GameResult(
        variant=job.variant,
        index=job.index,
        seed=job.seed,
        arrangement=job.arrangement,
        returns=None,
        actions=len(actions),
        turns=_safe_turns(state),
        seconds=time.perf_counter() - started,
        error=message.splitlines()[0] if message else type(exc).__name__,
        record_path=path,
    )


class _Script:
    """Every seat's moves as kept (GameResult.moves), one after the other: a game replayed."""

    def __init__(self, moves: Sequence[int]) -> None:
        self.moves = iter(moves)

    def act(self, state):
        return state.legal_actions()[next(self.moves)]


def replay_job(job: GameJob, moves: Sequence[int], returns: Sequence[float]) -> GameResult | None:
    """Game `job` played by its kept `moves` instead of its agents (none thinks): the result
    `play_game` gives, bars watched and cards tracked, with those moves; None when they do not
    replay to `returns` (a game kept under other rules or card files), checked first, so that
    such a game is neither counted nor saved as a failure."""
    state = _cached_game(job.game, job.num_players, job.options).new_initial_state(seed=job.seed)
    try:
        for _ in walk_moves(state, moves):
            pass
    except MovesDoNotReplay:
        return None
    return play_game(job, script=moves) if ends_as(state, returns) else None


class MovesDoNotReplay(ValueError):
    """A kept move outside its step's legal actions: a game kept under other rules or cards."""

    def __init__(self, step: int, legal: int) -> None:
        super().__init__(f"move {step} does not replay ({legal} legal actions there)")
        self.step = step


def walk_moves(state, moves: Sequence[int]):
    """Play kept `moves` (GameResult.moves) on `state`, yielding (step from 1, the legal
    actions, the one chosen) before each is applied, so that the caller reads the position it
    was chosen in. Raises MovesDoNotReplay."""
    for step, move in enumerate(moves, start=1):
        legal = [] if state.is_terminal() else state.legal_actions()
        if not 0 <= move < len(legal):
            raise MovesDoNotReplay(step, len(legal))
        yield step, legal, legal[move]
        state.apply_action(legal[move])


def ends_as(state, returns: Sequence[float]) -> bool:
    """The replayed game is over with the returns its file recorded."""
    return state.is_terminal() and list(returns) == [float(r) for r in state.returns()]


def standing_ranks(values: Sequence[float]) -> tuple[int, ...]:
    """Each seat's rank by the game's evaluation: 1 + how many seats are valued higher (seats
    valued alike share a rank)."""
    return tuple(1 + sum(other > mine for other in values) for mine in values)


def _replay(game, seed: int, actions: Sequence) -> Any:
    state = game.new_initial_state(seed=seed)
    for action in actions:
        state.apply_action(action)
    return state


def _describe_phase(phase: str, seat: int, job: GameJob, actions: list) -> str:
    if phase == "act":
        return f"seat {seat} ({job.seat_agents[seat]}) choosing action {len(actions) + 1}"
    if phase == "evaluate":
        return f"evaluating the position before action {len(actions) + 1} (--quality)"
    if phase == "apply":
        try:
            shown = str(actions[-1])
        except Exception:  # noqa: BLE001 - the action's label may be what is broken
            shown = repr(actions[-1])
        return f"applying action {len(actions)} ({shown}) for seat {seat}"
    return {"setup": "setup", "length": "length", "result": "collecting the result"}[phase]


def _safe_turns(state) -> int:
    try:
        return int(state.turn_number()) if state is not None else 0
    except Exception:  # noqa: BLE001 - the state may be the broken thing
        return 0


def _save_failure(job: GameJob, game, actions, state, message: str, where: str) -> str | None:
    if game is None:
        try:
            game = _cached_game(job.game, job.num_players, job.options)
        except Exception:  # noqa: BLE001 - nothing to record without a game
            return None
    try:
        record = make_record(game, job.seed, actions, None)
        record["error"] = {
            "message": message,
            "where": where,
            "step": len(actions),
            "agents": list(job.seat_agents),
            "traceback": traceback.format_exc(),
        }
        name = f"{job.game}-v{job.variant}-g{job.index}-seed{job.seed}.json"
        path = Path(job.error_dir) / name
        save_record(record, path)
        return str(path)
    except Exception:  # noqa: BLE001 - failing to save must not hide the game's own error
        return None


def play_batch(jobs: Sequence[GameJob], setup: WorkerSetup = WorkerSetup()) -> list[GameResult]:
    """Worker entry point: make sure the game is registered here, then play the jobs in order."""
    _prepare(setup)
    return [play_game(job) for job in jobs]


def _prepare(setup: WorkerSetup) -> None:
    for entry in setup.sys_path:
        if entry not in sys.path and os.path.isdir(entry):
            sys.path.append(entry)
    for module in setup.modules:
        importlib.import_module(module)


# -- running ----------------------------------------------------------------------------------

Progress = Callable[[int], None]
OnResult = Callable[[GameResult], None]


@dataclass(slots=True)
class RunOutcome:
    spec: RunSpec
    results: list[GameResult]
    seconds: float
    backend: str
    workers: int
    startup_seconds: float = 0.0  # starting worker processes or reaching Ray, before any game
    played: int = 0  # games played by this call (the rest came from a results file)
    loaded: int = 0  # games taken from a results file (`simulate --resume`)
    interrupted: bool = False  # stopped by Ctrl-C: `results` holds the games finished by then

    @property
    def games_per_second(self) -> float | None:
        """Games played per second of playing, start-up left out."""
        playing = self.seconds - self.startup_seconds
        return self.played / playing if self.played and playing > 0 else None


# A batch's games reach the main process (the results file, the summary of a stopped run) only
# when the whole batch is done, so a batch should take at most about this long.
BATCH_SECONDS = 2.0


def _batches(
    jobs: list[GameJob],
    workers: int,
    max_batch: int = 25,
    seconds_per_game: float | None = None,
) -> list[list[GameJob]]:
    # Several batches per worker keep them all busy to the end; small batches keep the progress
    # bar lively; batching at all keeps per-task overhead off games that take a millisecond.
    # Games that take seconds or minutes go one to a batch, so a Ctrl-C loses at most the games
    # in play, not minutes of finished ones.
    size = max(1, min(max_batch, math.ceil(len(jobs) / (workers * 8))))
    if seconds_per_game is not None and seconds_per_game > 0:
        size = max(1, min(size, int(BATCH_SECONDS / seconds_per_game)))
    return [jobs[i : i + size] for i in range(0, len(jobs), size)]


def available_cores() -> int:
    """The cores this process may use (a container or taskset may allow fewer than exist)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # macOS and Windows have no affinity call
        return os.cpu_count() or 1


def run(
    spec: RunSpec,
    workers: int | None = None,
    ray_address: str | None = None,
    progress: Progress | None = None,
    on_result: OnResult | None = None,
    previous: Sequence[GameResult] = (),
    unbarred: Mapping[tuple[int, int], tuple[tuple[int, ...], tuple[float, ...]]] | None = None,
) -> RunOutcome:
    """Play every game of `spec`; results come back in plan order whatever the backend.

    `previous` are games already finished (read back from a results file): they are not played
    again, and the outcome holds them with the new ones. `unbarred`, for a paired run: by
    (variant, index), a deal's unbarred game as a results file kept it (`sim.replays.
    kept_unbarred`), replayed instead of played. `on_result` sees every new game as its
    result reaches this process (a worker returns a batch of up to 25 at once). Ctrl-C stops the
    run: the outcome then holds the games finished so far and `interrupted` is set.
    """
    done = {(r.variant, r.index) for r in previous}
    jobs = [j for j in plan_jobs(spec) if (j.variant, j.index) not in done]
    if unbarred and spec.paired:
        jobs = [j.with_bars(unbarred=unbarred.get((j.variant, j.index))) for j in jobs]
    setup = worker_setup(spec.game)
    workers = max(1, workers or available_cores())
    started = time.perf_counter()
    results: list[GameResult] = []
    clock = {"startup": 0.0}

    def finished(batch: list[GameResult]) -> None:
        results.extend(batch)
        if on_result:
            for result in batch:
                on_result(result)
        if progress:
            progress(len(batch))

    if not jobs:
        backend, workers = "in-process", 1
    elif ray_address is not None:
        backend = "ray-local" if ray_address == "local" else f"ray {ray_address}"
    elif workers == 1 or len(jobs) <= 1:
        backend, workers = "in-process", 1
    else:
        backend = "processes"
    interrupted = False
    try:
        # SIGTERM stops a run as Ctrl-C does: the finished games are kept and the pool's workers
        # are terminated, where the default action would end this process and leave them running.
        with sigterm_as_interrupt():
            if not jobs:
                pass
            elif ray_address is not None:
                workers = _run_ray(jobs, setup, ray_address, workers, finished, clock)
            elif backend == "in-process":
                for job in jobs:
                    finished(play_batch([job], setup))
            else:
                _run_pool(jobs, setup, workers, finished, clock)
    except KeyboardInterrupt:
        interrupted = True
    everything = [*previous, *results]
    everything.sort(key=lambda r: (r.variant, r.index))
    return RunOutcome(
        spec,
        everything,
        time.perf_counter() - started,
        backend,
        workers,
        clock["startup"],
        played=len(results),
        loaded=len(previous),
        interrupted=interrupted,
    )


def _run_pool(jobs, setup, workers, finished, clock) -> None:
    # spawn, not fork: the parent may hold threads (the progress bar, Ray) that fork would copy
    # in a broken state, and spawn behaves the same on Linux, macOS and Windows.
    context = multiprocessing.get_context("spawn")
    processes = min(workers, len(jobs))
    began = time.perf_counter()
    initargs = (setup, os.getpid())
    with context.Pool(processes=processes, initializer=_init_worker, initargs=initargs) as pool:
        # Start-up: every worker imports robotable and the game and parses its content once;
        # timed apart so that games per second measure playing only.
        pool.map(_warm_up, [jobs[0]] * processes, chunksize=1)
        clock["startup"] = time.perf_counter() - began
        # One game per worker first: how long they take sizes the batches of the rest.
        first = [([job], setup) for job in jobs[:processes]]
        seconds: list[float] = []
        for done in pool.imap_unordered(_play_batch_star, first):
            seconds.extend(result.seconds for result in done)
            finished(done)
        rest = jobs[processes:]
        per_game = statistics.median(seconds) if seconds else None
        tasks = [(batch, setup) for batch in _batches(rest, workers, seconds_per_game=per_game)]
        for done in pool.imap_unordered(_play_batch_star, tasks):
            finished(done)


def _init_worker(setup: WorkerSetup, parent: int) -> None:
    # Ctrl-C is the parent's to handle: it keeps the finished games and stops the pool. Workers
    # that also caught it would print a traceback each.
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A parent killed outright (SIGKILL, a crash) cannot stop its pool: each worker would play
    # out its batch of games for nobody.
    die_with_parent(parent)
    _prepare(setup)


def _warm_up(job: GameJob) -> None:
    from .. import agents  # noqa: F401 - imported here so the first game does not pay for it

    _cached_game(job.game, job.num_players, job.options)


def _play_batch_star(task: tuple[list[GameJob], WorkerSetup]) -> list[GameResult]:
    return play_batch(*task)


def check_reachable(address: str, timeout: float = 5.0) -> None:
    """Fail fast on an address nobody answers: Ray itself keeps retrying for minutes."""
    import socket

    host_port = address.split("://", 1)[-1]
    host, sep, port = host_port.rpartition(":")
    if not sep or not port.isdigit():
        return  # "auto" and other forms Ray resolves itself
    try:
        with socket.create_connection((host or "127.0.0.1", int(port)), timeout=timeout):
            pass
    except OSError as exc:
        raise OptionError(
            f"simulate --ray {address}: nothing answers there ({exc.strerror or exc})"
        ) from None


def _run_ray(jobs, setup, address, workers, finished, clock) -> int:
    try:
        import ray
    except ImportError:
        raise OptionError(
            "simulate --ray: Ray is not installed (pip install 'robotable[sim]')"
        ) from None
    started_here = not ray.is_initialized()
    began = time.perf_counter()
    if started_here:
        kwargs: dict[str, Any] = {
            "include_dashboard": False,
            "log_to_driver": False,
            "logging_level": "ERROR",
            "configure_logging": True,
        }
        if address == "local":
            kwargs["num_cpus"] = workers
        else:
            check_reachable(address)
            kwargs["address"] = address
        try:
            ray.init(**kwargs)
        except Exception as exc:  # noqa: BLE001 - connection errors come in many types
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise OptionError(
                f"simulate --ray {address}: cannot start or reach Ray ({first})"
            ) from None
    clock["startup"] = time.perf_counter() - began
    pending: list = []
    try:
        cpus = int(ray.cluster_resources().get("CPU", workers)) or 1
        remote = ray.remote(num_cpus=1)(play_batch)
        pending = [remote.remote(batch, setup) for batch in _batches(jobs, cpus)]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            finished(ray.get(done[0]))
        return cpus
    except KeyboardInterrupt:
        for ref in pending:
            # A task that already finished cannot be cancelled; that is fine.
            with contextlib.suppress(Exception):
                ray.cancel(ref, force=True)
        raise
    finally:
        if started_here:
            ray.shutdown()


def __getattr__(name: str):
    # Restricted play moved to sim/studies/restricted_play.py; importable from here as before.
    if name in ("play_paired", "first_offer", "pair_with"):
        from .studies import restricted_play

        return getattr(restricted_play, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
