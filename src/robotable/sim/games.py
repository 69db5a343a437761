"""One game of the balance lab: the job a worker is given, the result it returns, and the game
played (or replayed by its kept moves) to the end.

A job and its result are plain picklable dataclasses: they cross to worker processes (local or
Ray) and back. The runner (sim/runner.py) plans the jobs and plays them in batches; a paired job
(restricted play) goes through sim/studies/restricted_play.py, which plays its two games here.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..core.records import make_record, save_record
from ..core.registry import load_game
from ..core.rng import derive_seed
from .quality import TurnOrder, game_quality, leader


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
        raise ValueError("a paired job is played by runner.play_job (restricted play), not here")
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
    return _result(
        job,
        started,
        returns=returns,
        actions=len(actions),
        turns=turns,
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


def _result(job: GameJob, started: float, **fields: Any) -> GameResult:
    """Job `job`'s result, timed from `started`, with the game's `fields`."""
    return GameResult(
        variant=job.variant,
        index=job.index,
        seed=job.seed,
        arrangement=job.arrangement,
        seconds=time.perf_counter() - started,
        **fields,
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
    return _result(
        job,
        started,
        returns=None,
        actions=len(actions),
        turns=_safe_turns(state),
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
