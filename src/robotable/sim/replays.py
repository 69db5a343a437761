"""A simulated game shown again: the moves `simulate --keep-moves` kept, replayed into a record.

A results file holds each game's outcome; with `--keep-moves` it also holds the game itself, as
each move's place among the legal actions of its step (a few characters a move). Replaying them
from the game's seed rebuilds the game exactly, so a designer can watch the very games a number
came from (`robotable replay FILE --game INDEX`): the games a bar changed, the barred one and,
with `--unbarred`, the same deal unbarred. The replay is checked against the returns the file
recorded; a file from other rules (or other card files) fails that check in one line.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..agents.restricted import CardBar, split_restricted
from ..core.errors import OptionError, RecordError
from ..core.options import no_content_files
from ..core.records import make_record
from ..core.registry import load_game
from .results_file import ResultsFileError, read_header, read_results, spec_from_header
from .runner import GameResult, MovesDoNotReplay, RunSpec, ends_as, plan_jobs, walk_moves

# A deal's unbarred game as another file kept it: its moves and the returns they must reach.
KeptGame = tuple[tuple[int, ...], tuple[float, ...]]


def results_record(
    path: str | Path, index: int, variant: int = 0, unbarred: bool = False
) -> tuple[dict[str, Any], list[str], dict[int, str]]:
    """The record of game `index` (its "index" in the file) of `variant` in the results file
    `path`, rebuilt from its kept moves; each seat's name for the narration ("Seat 2 (barred)"
    for the seat a bar held, "Seat 2 (greedy)" in a match of several agents); and, in a barred run, a note at each step (numbered from 1) where
    the bar held the seat back, or would have in the unbarred game, and where the two games
    part. `unbarred`: the paired game's unbarred partner instead. Raises RecordError (one line)
    when the file, the game or its moves cannot give it."""
    where = f"{path}"
    try:
        header, lines, _ = read_header(path, where)
        spec = spec_from_header(header, where)
    except ResultsFileError as exc:
        raise RecordError(str(exc)) from None
    result = _find(lines, index, variant, where)
    name = f"{where}, game {index}" + (f" of variant {variant}" if len(spec.variants) > 1 else "")
    if unbarred and not result.paired:
        raise RecordError(f"{name}: not a barred game, so it has no unbarred game beside it")
    moves, returns = result.unbarred_game() if unbarred else (result.moves, result.returns)
    if not moves:
        raise RecordError(
            f"{name}: its moves were not kept (run simulate with --keep-moves to keep them)"
        )
    options = next(v.options for v in spec.variants if v.index == result.variant)
    try:
        # Its content is inline (simulate embeds a user's file); a path in a file is not opened.
        with no_content_files():
            game = load_game(spec.game, num_players=spec.num_players, **dict(options))
    except OptionError as exc:
        raise RecordError(f"{name}: {exc}") from None
    names = [f"Seat {seat + 1}" for seat in range(spec.num_players)]
    bar = _bar(spec.agents[0]) if spec.paired else None
    seat = result.arrangement.index(0)
    if bar is not None and not unbarred:
        names[seat] += " (barred)"
    elif bar is None and len(set(spec.agents)) > 1:
        # Agents of a match (`--agents hard,greedy`): who sat where.
        labels = spec.agent_labels()
        names = [f"{name} ({labels[a]})" for name, a in zip(names, result.arrangement)]
    other = (result.moves if unbarred else result.unbarred_moves) or moves
    # The first move in which the barred game and the unbarred one differ (none: the same game).
    parts = next((k for k, (a, b) in enumerate(zip(moves, other)) if a != b), None)
    notes: dict[int, str] = {}
    state = game.new_initial_state(seed=result.seed)
    actions = []
    try:
        for step, legal, chosen in walk_moves(state, moves):
            if bar is not None and state.current_player() == seat and bar.can_act(legal):
                notes[step] = _bar_note(game, state, legal, bar, seat, unbarred)
            if step - 1 == parts:
                twin = "barred game" if unbarred else "unbarred game"
                notes[step] = (
                    notes.get(step, "") + f" The {twin} parts from this one here."
                ).strip()
            actions.append(chosen)
    except MovesDoNotReplay as exc:
        raise RecordError(
            f"{name}: {exc}; the file was played under other rules or card files"
        ) from None
    if returns is not None and not ends_as(state, returns):
        raise RecordError(
            f"{name}: the replay does not end as the file says (returns {list(returns)}); the "
            "file was played under other rules or card files"
        )
    return make_record(game, result.seed, actions, state), names, notes


def _bar_note(game, state, legal, bar: CardBar, seat: int, unbarred: bool) -> str:
    """What a bar did at this decision (or, in the unbarred game, would have done)."""
    held = [_as_told(game, state, a) for a in legal if bar.plays(a)]
    moves_held = "this move" if len(held) == 1 else "these moves"
    who = f"Seat {seat + 1}"
    if unbarred:
        return f"Barred, {who} could not have made {moves_held}: {'; '.join(held)}."
    return f"The bar kept {who} from {moves_held}: {'; '.join(held)}."


def _as_told(game, state, action) -> str:
    """An action not taken, as the table would have told it (third person, a spectator's
    words): the first sentence of what it would have done, without its full stop."""
    after = state.clone()
    told = game.narrate(after.apply_action(action))
    return told[0].rstrip(".") if told else state.describe_action(action)


def _bar(agent: str) -> CardBar | None:
    bar = split_restricted(agent)
    return None if bar is None else CardBar(bar[1], bar[2])


def _find(lines: list[str], index: int, variant: int, where: str) -> GameResult:
    for number, text in enumerate(lines, start=2):
        if not text.strip():
            continue
        try:
            data = json.loads(text)
            if (int(data["variant"]), int(data["index"])) != (variant, index):
                continue
            return GameResult.from_json(data)
        except (json.JSONDecodeError, KeyError, TypeError, ValueError, AttributeError) as exc:
            raise RecordError(f"{where}, line {number}: not a game result ({exc})") from None
    raise RecordError(f"{where}: no game {index} of variant {variant} in the file")


def kept_unbarred(paths: list[Path], spec: RunSpec, base: str) -> dict[tuple[int, int], KeptGame]:
    """By (variant, game index), the unbarred games of `spec`'s deals (`base` in every seat)
    that the results files `paths` kept with their moves: a table of `base` against itself, or
    a barred run of `base` (its unbarred partners), with the same game, seats, seed, variants,
    agents' streams (RunSpec.decision_streams) and rules, of any length (the deals they share). Game i of such a run is deal i with `base`
    in every seat, whatever the seat order: each agent's stream comes from the game's seed and
    its seat, not from its place in the list of agents. The first file that has a game gives
    it; a file of other deals or rules gives none."""
    jobs = {(job.variant, job.index): job for job in plan_jobs(spec)}
    found: dict[tuple[int, int], KeptGame] = {}
    for path in paths:
        try:
            other = spec_from_header(read_header(path, str(path))[0], str(path))
            if not same_deals(other, spec, base):
                continue
            results = read_results(path, other, str(path))[0]  # the same rules, or none recorded
        except ResultsFileError:
            continue
        for r in results:
            moves, returns = r.unbarred_game()
            key = (r.variant, r.index)
            job = jobs.get(key)
            if key in found or not moves or returns is None or job is None:
                continue
            if job.seed == r.seed:  # the seat order is no matter: `base` sits in every seat
                found[key] = (moves, returns)
    return found


def same_deals(other: RunSpec, spec: RunSpec, base: str) -> bool:
    """Whether `other`'s games are `spec`'s deals with `base` unbarred in every seat: a table of
    `base` against itself, or a barred run of it (its agent 0 barred, `base` its base)."""
    first = split_restricted(other.agents[0]) if other.paired else None
    return (
        (other.game, other.num_players, other.seed, other.variants)
        == (spec.game, spec.num_players, spec.seed, spec.variants)
        and other.max_actions == spec.max_actions
        and other.decision_streams == spec.decision_streams
        and all(a == base for a in other.agents[1:])
        and (other.agents[0] == base if first is None else first[0] == base)
    )
