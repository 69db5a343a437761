"""One conformance checker for every game (the protocol's contract, checked step by step).

Used by tests/test_conformance.py over every registered game and seat count, and by
`robotable check` on anyone's game. `check_random_game(game, seed=1, choice_seed=2)` raises
ConformanceError (an AssertionError) naming the broken property, the position (the action after
which it broke) and what was seen; `check_game` plays several games at every seat count and
collects one failure line per property. `check_requirements` checks what the front ends need
beyond the protocol: a guide with its Goal, A turn and Terms sections, and at least MIN_TERMS
terms.
"""

from __future__ import annotations

import json
import random
import traceback
from dataclasses import dataclass, field
from typing import Any

from .errors import IllegalAction, RobotableError
from .protocol import TERMINAL, Action, Game, State

VIEW_KEYS = (
    "game",
    "seat",
    "current_player",
    "turn",
    "prompt",
    "terminal",
    "returns",
    "legal_actions",
)

# The properties, in the order they are checked, as a failure line names them.
PROPERTIES = (
    "whose decision",
    "returns",
    "legal actions",
    "JSON round trip",
    "heuristic",
    "views",
    "action JSON",
    "determinize",
    "illegal actions",
    "clone independence",
    "silence",
    "events",
    "determinism",
    "no errors",
    "guide",
)

# The terms a game's guide must define at least (the glossary the terminal's "terms" command,
# `robotable rules GAME --terms` and the web table's rules panel show).
MIN_TERMS = 5
GUIDE_SECTIONS = ("## Goal", "## A turn", "## Terms")


class ConformanceError(AssertionError):
    """A broken property: `prop` (one of PROPERTIES), `where` (the game, seats, seed and the
    position) and `detail` (what was seen), on one line."""

    def __init__(self, prop: str, where: str, detail: str) -> None:
        self.prop, self.where, self.detail = prop, where, detail
        super().__init__(f"{prop}: {where}: {detail}")


def _expect(ok: Any, prop: str, where: str, detail: str) -> None:
    # Not `assert`: the checker must hold under `python -O` too.
    if not ok:
        raise ConformanceError(prop, where, detail)


def _canon(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def check_state(game: Game, state: State, rng: random.Random, where: str) -> None:
    """Every per-state property of the protocol."""
    n = game.num_players
    snapshot = _canon(state.to_json())
    terminal = state.is_terminal()
    player = state.current_player()
    legal = state.legal_actions()
    if terminal:
        _expect(
            player == TERMINAL,
            "whose decision",
            where,
            f"the game is over but current_player() is {player}, not TERMINAL (-1)",
        )
        _expect(legal == [], "legal actions", where, "the game is over but actions are legal")
        returns = state.returns()
        _expect(len(returns) == n, "returns", where, f"{len(returns)} values for {n} seats")
        _expect(
            all(0.0 <= r <= 1.0 for r in returns), "returns", where, f"outside [0, 1]: {returns}"
        )
    else:
        _expect(0 <= player < n, "whose decision", where, f"current_player() is {player}")
        _expect(legal, "legal actions", where, "none before the end of the game")
        _expect(len(set(legal)) == len(legal), "legal actions", where, "the same action twice")

    # Clone independence first: the checks below play on clones of the state.
    if legal:
        copy = state.clone()
        _expect(
            _canon(copy.to_json()) == snapshot,
            "clone independence",
            where,
            "the clone's to_json() differs from the original's",
        )
        pick = legal[rng.randrange(len(legal))]
        copy.apply_action(pick)
        _expect(
            _canon(state.to_json()) == snapshot,
            "clone independence",
            where,
            f"playing '{pick}' on the clone changed the original",
        )
        _expect(
            state.legal_actions() == legal,
            "clone independence",
            where,
            f"playing '{pick}' on the clone changed the original's legal actions",
        )

    # JSON round trip of the state, through real JSON text.
    prop = "JSON round trip"
    text = json.dumps(state.to_json())
    twin = game.state_from_json(json.loads(text))
    _expect(
        _canon(twin.to_json()) == snapshot,
        prop,
        where,
        "state_from_json(to_json()) gives another to_json()",
    )
    _expect(
        twin.legal_actions() == legal, prop, where, "the restored state has other legal actions"
    )
    if legal:  # ... and plays on as the original would, events and all
        pick = rng.randrange(len(legal))
        played = state.clone()
        _expect(
            twin.apply_action(legal[pick]) == played.apply_action(legal[pick]),
            prop,
            where,
            f"after '{legal[pick]}' the restored state told other events",
        )
        _expect(
            _canon(twin.to_json()) == _canon(played.to_json()),
            prop,
            where,
            f"after '{legal[pick]}' the restored state is elsewhere",
        )

    # The one-pass heuristic agrees with the per-seat one, and stays in [0, 1].
    together = game.evaluate_all(state)
    for seat in range(n):
        alone = game.evaluate(state, seat)
        _expect(0.0 <= alone <= 1.0, "heuristic", where, f"evaluate(seat {seat}) = {alone}")
        _expect(
            abs(together[seat] - alone) < 1e-9,
            "heuristic",
            where,
            f"evaluate_all says {together[seat]} for seat {seat}, evaluate says {alone}",
        )

    # Views: JSON-safe, with the shared keys; legal actions only for the deciding seat.
    for seat in [*range(n), None]:
        view = state.view(seat)
        try:
            json.dumps(view)
        except (TypeError, ValueError) as exc:
            raise ConformanceError("views", where, f"view({seat}) is not JSON: {exc}") from None
        for key in VIEW_KEYS:
            _expect(key in view, "views", where, f"view({seat}) lacks the key '{key}'")
        if seat is not None and seat == player:
            _expect(
                len(view["legal_actions"]) == len(legal),
                "views",
                where,
                f"view({seat}) lists {len(view['legal_actions'])} legal actions, not {len(legal)}",
            )
        else:
            _expect(
                not view["legal_actions"],
                "views",
                where,
                f"view({seat}) shows the deciding seat's choices",
            )

    # Actions round-trip and read well.
    for action in legal:
        back = game.action_from_json(json.loads(json.dumps(action.to_json())))
        _expect(back == action, "action JSON", where, f"'{action}' does not round-trip")
        _expect(str(action).strip(), "action JSON", where, f"{action!r} has no label")

    # determinize keeps what the seat knows, and the decider's choices.
    for seat in range(n):
        sample = state.determinize(seat, random.Random(rng.getrandbits(32)))
        _expect(
            _canon(sample.view(seat)) == _canon(state.view(seat)),
            "determinize",
            where,
            f"determinize({seat}) changed view({seat})",
        )
        if seat == player:
            _expect(
                sample.legal_actions() == legal,
                "determinize",
                where,
                f"determinize({seat}) changed the deciding seat's legal actions",
            )
        _expect(
            _canon(state.to_json()) == snapshot,
            "determinize",
            where,
            f"determinize({seat}) changed the original state",
        )

    # Illegal and malformed input is refused and changes nothing.
    for bad in (object(), {"type": "no-such-action"}):
        try:
            action = game.action_from_json(bad) if isinstance(bad, dict) else bad
            state.apply_action(action)  # type: ignore[arg-type]
        except IllegalAction as exc:
            message = str(exc)
            _expect(
                message.strip() and "\n" not in message,
                "illegal actions",
                where,
                f"the error for {bad!r} is not one line: {message!r}",
            )
        else:
            raise ConformanceError("illegal actions", where, f"{bad!r} was accepted")
        _expect(
            _canon(state.to_json()) == snapshot,
            "illegal actions",
            where,
            f"refusing {bad!r} changed the state",
        )


def check_random_game(
    game: Game, seed: int, choice_seed: int, max_steps: int = 300, every: int = 1
) -> int:
    """Play a random game from `seed`, checking every `every`-th state; returns steps played.

    Then replays the same seed and actions and demands the identical final state. A broken
    property raises ConformanceError; an error the game's code raises is reported as the
    property "no errors", at the position where it happened.
    """
    rng = random.Random(choice_seed)
    table = f"game {game.name} ({game.num_players} seats, seed {seed})"
    where = f"{table}, at the start"
    actions: list[Action] = []
    try:
        state = game.new_initial_state(seed=seed)
        # The same game played silenced, in step: it must stay the same position throughout.
        quiet = game.new_initial_state(seed=seed).silence()
        for step in range(max_steps):
            if step % every == 0 or state.is_terminal():
                check_state(game, state, rng, where)
                _expect(
                    _canon(quiet.to_json()) == _canon(state.to_json()),
                    "silence",
                    where,
                    "the silenced copy of the game is in another position",
                )
            if state.is_terminal():
                break
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
            silent = quiet.apply_action(quiet.legal_actions()[legal.index(action)])
            if getattr(quiet, "quiet", False):
                _expect(silent == [], "silence", where, "a silenced state built events")
                _expect(quiet.clone().quiet, "silence", where, "a silenced state's clone is not")
                if not quiet.is_terminal():
                    sample = quiet.determinize(quiet.current_player(), random.Random(step))
                    _expect(sample.quiet, "silence", where, "its determinization is not silenced")
            events = state.apply_action(action)
            actions.append(action)
            where = f"{table}, after action {step + 1} ('{action}')"
            _expect(isinstance(events, list), "events", where, "apply_action returned no list")
            for event in events:
                _expect(
                    isinstance(event, dict) and "type" in event,
                    "events",
                    where,
                    f"{event!r} is not a dict with a 'type'",
                )
                # "to" is reserved for visibility (robotable.visible_events): a list of seats.
                if "to" in event:
                    seats = event["to"]
                    _expect(
                        isinstance(seats, list)
                        and all(isinstance(s, int) and 0 <= s < game.num_players for s in seats),
                        "events",
                        where,
                        f"event '{event['type']}' has a 'to' that is not a list of seats",
                    )
            try:
                json.dumps(events)
            except (TypeError, ValueError) as exc:
                raise ConformanceError("events", where, f"the events are not JSON: {exc}") from None
        where = f"{table}, replaying its {len(actions)} actions"
        again = game.new_initial_state(seed=seed)
        for action in actions:
            again.apply_action(action)
        _expect(
            _canon(again.to_json()) == _canon(state.to_json()),
            "determinism",
            where,
            "the same seed and actions gave another state",
        )
    except ConformanceError:
        raise
    except Exception as exc:
        raise ConformanceError("no errors", where, _error_line(exc)) from exc
    return len(actions)


def _error_line(exc: BaseException) -> str:
    """An exception as one line, with the innermost place it was raised."""
    frames = traceback.extract_tb(exc.__traceback__)
    place = f" (at {frames[-1].filename}:{frames[-1].lineno})" if frames else ""
    message = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {message}{place}"


def check_requirements(game: Game) -> list[ConformanceError]:
    """What robotable's front ends need beyond the protocol: a title, a guide (the game
    package's data/guide.md) with the sections Goal, A turn and Terms, and at least MIN_TERMS
    terms in its glossary."""
    where = f"game {game.name}"
    found: list[ConformanceError] = []
    if not game.title.strip() or not game.description.strip():
        found.append(
            ConformanceError("guide", where, "the Game class needs a title and a description")
        )
    try:
        guide, terms = game.guide(), len(game.glossary())
    except Exception as exc:
        return [*found, ConformanceError("guide", where, f"guide() failed: {_error_line(exc)}")]
    for heading in GUIDE_SECTIONS:
        if heading not in guide:
            found.append(
                ConformanceError("guide", where, f"data/guide.md has no '{heading}' section")
            )
    if terms < MIN_TERMS:
        found.append(
            ConformanceError(
                "guide",
                where,
                f"the guide's Terms define {terms} terms, at least {MIN_TERMS} are needed "
                "(items '- **Term**: meaning')",
            )
        )
    return found


@dataclass(slots=True)
class CheckReport:
    """What `check_game` found: the failures (one per property and seat count), and how much
    was played."""

    game: str
    seat_counts: list[int]
    games: int = 0
    actions: int = 0
    unfinished: int = 0  # games still going after max_steps (checked as far as they went)
    failures: list[ConformanceError] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures

    def summary(self) -> str:
        seats = ", ".join(str(n) for n in self.seat_counts)
        played = (
            f"{self.games} random games at {seats} seats, {self.actions} actions in the games that passed"
            + (f" ({self.unfinished} games cut short)" if self.unfinished else "")
        )
        if self.ok:
            return f"{self.game}: every property holds ({len(PROPERTIES)} properties; {played})"
        broken = sorted({f.prop for f in self.failures}, key=_property_order)
        fail = "1 property fails" if len(broken) == 1 else f"{len(broken)} properties fail"
        return f"{self.game}: {fail} ({', '.join(broken)}); {played}"


def _property_order(prop: str) -> int:
    return PROPERTIES.index(prop) if prop in PROPERTIES else len(PROPERTIES)


def check_game(
    cls: type[Game],
    seat_counts: list[int] | None = None,
    games: int = 10,
    seed: int = 1,
    max_steps: int = 300,
    options: dict[str, Any] | None = None,
) -> CheckReport:
    """Play `games` random games of `cls` at each seat count (default: every one it allows),
    checking every position, and its guide; the first failure of each property at each seat
    count is kept. A game that cannot even be built is one failure, "no errors"."""
    counts = seat_counts or list(range(cls.min_players, cls.max_players + 1))
    report = CheckReport(cls.name, counts)
    for n in counts:
        try:
            game = cls(num_players=n, **(options or {}))
        except RobotableError as exc:
            report.failures.append(
                ConformanceError("no errors", f"game {cls.name} ({n} seats)", str(exc))
            )
            continue
        if n == counts[0]:
            report.failures.extend(check_requirements(game))
        seen: set[str] = set()
        for index in range(games):
            try:
                steps = check_random_game(
                    game, seed=seed + index, choice_seed=seed * 7919 + index, max_steps=max_steps
                )
            except ConformanceError as failure:
                report.games += 1
                if failure.prop not in seen:
                    seen.add(failure.prop)
                    report.failures.append(failure)
                continue
            report.games += 1
            report.actions += steps
            report.unfinished += steps >= max_steps
    return report
