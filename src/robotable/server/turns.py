"""Who moves when nobody clicks: AI seats think (in the AI runner, paced for people to follow)
and a person's clock runs out (the table plays the Medium AI's move for them).

`Turns` only decides when; every move still goes through the registry's commit, under the
table's lock, exactly like a person's.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from ..core.protocol import Action, State
from .ai import AiFailed, AiRunner, agent_seed
from .clocks import TIMEOUT_AGENT
from .errors import Refused
from .store import StoreError
from .table import Table

log = logging.getLogger("robotable.server")

# Commit a move to a table (its lock held): (table, seat, action, timed_out) -> step number.
Commit = Callable[[Table, int, Action, bool], Awaitable[int]]
# Keep a table's `ai_error` (the registry stores it, so a restart does not think again).
Stopped = Callable[[Table], Awaitable[None]]


class Turns:
    """Sets each table going after a change: its AI seat thinks, or a person's clock runs."""

    def __init__(
        self, ai: AiRunner, ai_delay: float, commit: Commit, stopped: Stopped | None = None
    ) -> None:
        self.ai = ai
        self.ai_delay = ai_delay
        self._commit_move = commit
        self._stopped = stopped

    async def _commit(
        self, table: Table, seat: int, action: Action, timed_out: bool = False
    ) -> int:
        return await self._commit_move(table, seat, action, timed_out)

    def schedule(self, table: Table) -> None:
        """Set the table going after any change: its AI seat thinks, or a person's clock runs."""
        self._schedule_clock(table)
        if table.ai_task is not None and not table.ai_task.done():
            return
        if table.finished or table.ai_thinking() is None or table.ai_error is not None:
            return
        table.ai_task = asyncio.ensure_future(self._ai_turn(table))

    # -- clocks -------------------------------------------------------------------------------
    def _schedule_clock(self, table: Table) -> None:
        """Start the deciding person's clock, once per position (not again for each watcher)."""
        position = (len(table.steps), table.generation)
        if table.clock_position == position and table.clock_task is not None:
            return
        if table.clock_task is not None:
            table.clock_task.cancel()
            table.clock_task = None
        table.clock_position = position
        seat = table.timed_seat()
        if seat is None:
            table.decision_started = None
            return
        table.decision_started = asyncio.get_running_loop().time()
        allowance = table.clock.allowance(seat)
        table.clock_task = asyncio.ensure_future(self._time_out(table, position, allowance))

    async def _time_out(self, table: Table, position: tuple[int, int], allowance: float) -> None:
        await asyncio.sleep(allowance)
        async with table.lock:
            if (len(table.steps), table.generation) != position or table.timed_seat() is None:
                return
            seat = table.state.current_player()
            seed = agent_seed(table.row.seed, seat, len(table.steps))
            action = await asyncio.to_thread(_timeout_choice, table.state.clone(), seed)
            table.clock_task = None  # this task is ending; the next position gets a new one
            try:
                await self._commit(table, seat, action, timed_out=True)
            except (Refused, StoreError) as exc:
                log.error(
                    "table %s: the move for seat %d out of time failed: %s", table.id, seat, exc
                )
                return
        self.schedule(table)

    async def _ai_turn(self, table: Table) -> None:
        while not table.finished:
            seat = table.ai_thinking()
            if seat is None:
                return
            generation, number = table.generation, len(table.steps)
            if self.ai_delay > 0:
                await asyncio.sleep(self.ai_delay)  # let people follow the AI's moves
            spec = table.row.seats[seat].ai or "random"
            try:
                action = await self.ai.choose(
                    table.game,
                    table.state.clone(),
                    spec,
                    agent_seed(table.row.seed, seat, number),
                )
            except asyncio.CancelledError:
                raise
            except AiFailed as exc:
                log.error("table %s: AI seat %d (%s) failed: %s", table.id, seat, spec, exc)
                await self._stop(table, seat, f"{exc}")
                return
            except Exception:
                log.exception("table %s: AI seat %d (%s) failed", table.id, seat, spec)
                await self._stop(table, seat, "it failed")
                return
            async with table.lock:
                if table.generation != generation or len(table.steps) != number:
                    continue  # an undo moved the table; think again about the new position
                try:
                    await self._commit(table, seat, action)
                except (Refused, StoreError) as exc:
                    log.error("table %s: AI seat %d move refused: %s", table.id, seat, exc)
                    table.ai_error = f"AI seat {seat + 1} could not move"
                    table.broadcast_presence()
                    return

    async def _stop(self, table: Table, seat: int, why: str) -> None:
        """An AI seat that could not move stops there, for good: the worker it overran was
        killed, and trying again (now or after a restart) costs as much and ends the same, while
        every other table waits behind it. The players read why and what they can do."""
        name = table.row.seats[seat].name
        table.ai_error = (
            f"{name} (AI) could not choose a move ({why}) and stops here; "
            "undo a move to let it try again"
        )
        table.broadcast_presence()
        if self._stopped is not None:
            try:
                await self._stopped(table)
            except StoreError as exc:
                log.error("table %s: the AI seat's stop was not stored: %s", table.id, exc)


def _timeout_choice(state: State, seed: int) -> Action:
    """What the table plays for a person whose time ran out (see server/clocks.py)."""
    from ..agents import make_agent

    return make_agent(TIMEOUT_AGENT, seed=seed).act(state)
