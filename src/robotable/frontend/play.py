"""Playing a game in the terminal: people and agents at one table."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console

from ..agents import Agent, make_agent
from ..core.events import visible_events
from ..core.protocol import Action, Game, State
from ..core.records import make_record, save_record
from .common import event_text

HELP = (
    "Type the number of an action to take it. Other commands:\n"
    "  help   this text\n"
    "  log    the game so far\n"
    "  undo   take back your last decision (only when every other seat is an AI)\n"
    "  quit   stop; the record is saved"
)


@dataclass
class Table:
    game: Game
    seed: int
    seats: list[str]
    agents: dict[int, Agent]
    record_path: Path | None
    console: Console
    state: State = field(init=False)
    actions: list[Action] = field(default_factory=list)
    deciders: list[int] = field(default_factory=list)
    log: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.state = self.game.new_initial_state(seed=self.seed)

    @property
    def humans(self) -> list[int]:
        return [s for s, kind in enumerate(self.seats) if kind == "human"]

    def apply(self, action: Action) -> None:
        seat = self.state.current_player()
        events = self.state.apply_action(action)
        self.actions.append(action)
        self.deciders.append(seat)
        who = f"seat {seat} ({self.seats[seat]})"
        self.log.append(f"{len(self.actions):4d}. {who}: {action}")
        # Show what a human at the table may see; with no human, the spectator's events.
        watcher = self.humans[0] if len(self.humans) == 1 else None
        for event in visible_events(events, watcher):
            self.log.append(f"      {event_text(event)}")
        if self.humans:
            self.console.print(f"[dim]{who}:[/dim] {action}", highlight=False)

    def undo(self, seat: int) -> bool:
        """Back to just before `seat`'s last decision, by replaying the record without the tail."""
        if len(self.humans) != 1:
            return False
        if seat not in self.deciders:
            return False
        keep = len(self.deciders) - 1 - self.deciders[::-1].index(seat)
        actions = self.actions[:keep]
        self.state = self.game.new_initial_state(seed=self.seed)
        self.actions, self.deciders, self.log = [], [], []
        for action in actions:
            self.deciders.append(self.state.current_player())
            self.state.apply_action(action)
            self.actions.append(action)
            self.log.append(f"{len(self.actions):4d}. {action}")
        return True

    def record(self) -> dict:
        return make_record(self.game, self.seed, self.actions, self.state)

    def save(self) -> Path | None:
        if self.record_path is None:
            return None
        save_record(self.record(), self.record_path)
        return self.record_path


def build_agents(seats: list[str], seed: int) -> dict[int, Agent]:
    return {
        seat: make_agent(kind, seed=seed * 131 + seat)
        for seat, kind in enumerate(seats)
        if kind != "human"
    }


def run_table(table: Table, input_fn=input) -> int:
    """Play to the end (or until quit); returns the exit code."""
    console = table.console
    while not table.state.is_terminal():
        seat = table.state.current_player()
        if seat in table.agents:
            table.apply(table.agents[seat].act(table.state))
            continue
        if not ask_human(table, seat, input_fn):
            path = table.save()
            console.print(f"Game stopped. Record saved to {path}." if path else "Game stopped.")
            return 0
    returns = table.state.returns()
    if table.humans:
        console.print(table.game.render(table.state, table.humans[0]), highlight=False)
    winners = [s for s, r in enumerate(returns) if r == max(returns)]
    if len(winners) == len(returns) or max(returns) < 1.0 and len(winners) > 1:
        verdict = "a draw"
    else:
        verdict = " and ".join(f"seat {s} ({table.seats[s]})" for s in winners) + " won"
    console.print(f"Game over after {len(table.actions)} actions: {verdict}. Returns {returns}.")
    path = table.save()
    if path:
        console.print(f"Record saved to {path}.")
    return 0


def ask_human(table: Table, seat: int, input_fn) -> bool:
    """Show the seat's view, read one command; False when the player quits."""
    console = table.console
    state = table.state
    console.rule(f"seat {seat} to decide")
    console.print(table.game.render(state, seat), highlight=False)
    legal = state.legal_actions()
    for number, action in enumerate(legal, start=1):
        console.print(f"  [bold]{number:3d}[/bold]  {action}", highlight=False)
    while True:
        try:
            answer = input_fn(f"seat {seat}> ").strip().lower()
        except EOFError:
            return False
        if answer in ("q", "quit", "exit"):
            return False
        if answer in ("h", "help", "?"):
            console.print(HELP)
            continue
        if answer == "log":
            console.print("\n".join(table.log[-60:]) or "(nothing yet)", highlight=False)
            continue
        if answer == "undo":
            if table.undo(seat):
                console.print("Undone: back to your previous decision.")
                return True
            console.print("Undo works only against AI seats, after a decision of yours.")
            continue
        if answer.isdigit() and 1 <= int(answer) <= len(legal):
            table.apply(legal[int(answer) - 1])
            return True
        console.print(f"Type a number from 1 to {len(legal)}, or help.")


def interactive() -> bool:
    return sys.stdin is not None and sys.stdin.isatty()
