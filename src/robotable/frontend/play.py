"""Playing a game in the terminal: people and agents at one table, or AIs to watch.

Everything a person reads comes from the game: its board (`render`), its choices
(`describe_action`) and what each move did (`narrate`), worded for the one person at the table
("you") or, with several people or none, for a spectator. The same words the web table shows.
"""

from __future__ import annotations

import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape
from rich.text import Text

from ..agents import Agent, make_agent
from ..core.plans import Plan, plans_for
from ..core.protocol import Action, Game, State
from ..core.records import make_record, save_record
from ..core.text import NAME_LENGTH, clean_text, printable

HELP = (
    "Type the number of a choice to take it. Other commands:\n"
    "  help    this text\n"
    "  log     the game so far; log N shows only the last N moves\n"
    "  board   the table and your choices again\n"
    "  terms   the game's terms and abbreviations; terms WORD (or ? WORD) looks up a\n"
    "          term or a card on the table and shows its full text\n"
    "  rules   how to play\n"
    "  hint    what the Hard AI would do here, and why\n"
    "  done    end the turn now, skipping what is left of it (where the game offers it);\n"
    "          a game's other shortcuts are numbered after its choices\n"
    "  undo    take back your last decision (only when every other seat is an AI)\n"
    "  quit    stop; the game is saved and can be resumed"
)
_SEAT_WORD = re.compile(r"\bSeat (\d+)\b")
# Choices of one kind with a single whole-number field, this many or more, are asked as a number.
NUMBER_ENTRY_AT = 6
# Lists longer than this get a heading per kind of decision.
GROUP_AT = 8


@dataclass
class LogStep:
    number: int
    seat: int
    label: str  # the choice as its seat read it
    events: list[dict[str, Any]]
    forced: bool = False  # the seat's only choice (taken for a person when the table is auto)


@dataclass
class Table:
    game: Game
    seed: int
    seats: list[str]
    agents: dict[int, Agent]
    record_path: Path | None
    console: Console
    names: list[str] = field(default_factory=list)
    delay: float = 0.0  # seconds before each AI move is shown, so people can follow
    auto: bool = True  # a person's only choice is taken for them, and told
    state: State = field(init=False)
    actions: list[Action] = field(default_factory=list)
    log: list[LogStep] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.state = self.game.new_initial_state(seed=self.seed)
        # Names may come from a record someone sent: no control characters, no markup read.
        given = [clean_text(str(n), NAME_LENGTH) for n in self.names]
        self.names = [
            given[i] if i < len(given) and given[i] else f"Seat {i + 1}"
            for i in range(self.game.num_players)
        ]

    @property
    def humans(self) -> list[int]:
        return [s for s, kind in enumerate(self.seats) if kind == "human"]

    @property
    def reader(self) -> int | None:
        """Whose words the table speaks: the one person at it; with several or none, nobody's
        (a spectator's words, so no private event is shown on a shared screen)."""
        return self.humans[0] if len(self.humans) == 1 else None

    def named(self, text: str) -> str:
        """A game's own text (its board, its prompt) with "Seat N" replaced by that seat's name:
        the game does not know the names; the table does."""
        return _SEAT_WORD.sub(
            lambda m: (
                self.names[int(m.group(1)) - 1]
                if 1 <= int(m.group(1)) <= len(self.names)
                else m.group(0)
            ),
            text,
        )

    def board(self, seat: int | None) -> str:
        return self.named(self.game.render(self.state, seat))

    def who(self, seat: int) -> str:
        return "You" if seat == self.reader else self.names[seat]

    def lines(self, step: LogStep) -> list[str]:
        return self.game.narrate(step.events, self.reader, self.names)

    def apply(self, action: Action) -> LogStep:
        seat = self.state.current_player()
        label = self.state.describe_action(action)
        forced = len(self.state.legal_actions()) == 1
        events = self.state.apply_action(action)
        self.actions.append(action)
        step = LogStep(len(self.actions), seat, label, events, forced)
        self.log.append(step)
        return step

    def apply_plan(self, plan: Plan) -> list[LogStep]:
        """A turn plan's actions one by one, each an ordinary move of the log and the record
        (so undo takes back the last of them)."""
        return [self.apply(action) for action in plan.actions]

    def show(self, step: LogStep) -> None:
        own = step.seat == self.reader
        head = f"{step.number}. {self.who(step.seat)}" + (f": {step.label}" if own else "")
        if step.forced and step.seat in self.humans and self.auto:
            whose = "your" if own else f"{self.names[step.seat]}'s"
            head += f" ({whose} only choice, taken automatically)"
        say(self.console, head, "dim")
        for line in self.lines(step):
            say(self.console, f"    {line}")

    def replay(self, actions: list[Action]) -> None:
        self.state = self.game.new_initial_state(seed=self.seed)
        self.actions, self.log = [], []
        for action in actions:
            self.apply(action)

    def undo(self, seat: int) -> bool:
        """Back to just before `seat`'s last decision (an only choice is none: it would be taken
        again at once); the log forgets what was taken back."""
        if len(self.humans) != 1 or seat not in self.humans:
            return False
        mine = [i for i, step in enumerate(self.log) if step.seat == seat and not step.forced]
        if not mine:
            return False
        self.replay(self.actions[: mine[-1]])
        return True

    def record(self) -> dict:
        record = make_record(self.game, self.seed, self.actions, self.state)
        # Who sat where, so that `play --resume` sets the same table again.
        record["seats"] = list(self.seats)
        record["names"] = list(self.names)
        return record

    def save(self) -> Path | None:
        if self.record_path is None:
            return None
        save_record(self.record(), self.record_path)
        return self.record_path


def say(console: Console, text: str, style: str | None = None) -> None:
    """Print words from a game or from people (names, card names, a record's text): never read
    as markup, never with control characters or bidi overrides."""
    console.print(printable(text), style=style, highlight=False, markup=False)


def build_agents(seats: list[str], seed: int) -> dict[int, Agent]:
    return {
        seat: make_agent(kind, seed=seed * 131 + seat)
        for seat, kind in enumerate(seats)
        if kind != "human"
    }


def run_table(table: Table, input_fn=input) -> int:
    """Play to the end (or until quit or Ctrl-C, which save the game); returns the exit code."""
    try:
        return _play(table, input_fn)
    except KeyboardInterrupt:
        table.console.print()
        _stopped(table)
        return 130


def _play(table: Table, input_fn) -> int:
    console = table.console
    introduce(table)
    while not table.state.is_terminal():
        seat = table.state.current_player()
        if seat in table.agents:
            action = think(table, seat)
            if table.delay:
                time.sleep(table.delay)
            table.show(table.apply(action))
            continue
        legal = table.state.legal_actions()
        if table.auto and len(legal) == 1:
            table.show(table.apply(legal[0]))
            continue
        if not ask_human(table, seat, input_fn):
            _stopped(table)
            return 0
    console.rule("game over")
    say(console, table.board(table.reader))
    result = table.game.result_sentence(table.state, table.reader, table.names)
    say(console, f"Game over after {len(table.actions)} moves. {result}")
    path = table.save()
    if path:
        say(console, f"Record saved to {path} (replay it with: robotable replay {path}).")
    return 0


def introduce(table: Table) -> None:
    game = table.game
    seated = ", ".join(
        f"{table.names[s]} ({'you' if s == table.reader else _kind(kind)})"
        for s, kind in enumerate(table.seats)
    )
    table.console.print(
        Text.assemble(
            (game.title or game.name, "bold"), printable(f", seed {table.seed}: {seated}.")
        )
    )
    if table.humans:
        table.console.print("Type a number to choose; help lists the commands.")
    opening = table.game.new_initial_state(seed=table.seed).opening_events()
    for line in table.game.narrate(opening, table.reader, table.names):
        say(table.console, f"    {line}")
    for step in table.log:  # a resumed game: what happened so far
        table.show(step)


def _kind(spec: str) -> str:
    return "a person" if spec == "human" else f"AI {spec}"


def think(table: Table, seat: int) -> Action:
    """The agent's move, with a spinner while it thinks when someone is watching."""
    agent = table.agents[seat]
    if not table.console.is_terminal:
        return agent.act(table.state)
    with table.console.status(Text(f"{table.names[seat]} is thinking…"), spinner="dots"):
        return agent.act(table.state)


def _stopped(table: Table) -> None:
    path = table.save()
    if path is None:
        table.console.print("Game stopped.")
        return
    say(table.console, f"Game stopped and saved to {path}.")
    if not table.state.is_terminal():
        say(table.console, f"Resume it with: robotable play --resume {path}")


@dataclass
class Choice:
    """One numbered line of the menu: a single action, or a number to type for a kind."""

    text: str
    action: Action | None = None
    group: str = ""  # the kind of decision, a heading when the list is long
    field_name: str = ""
    by_value: dict[int, Action] = field(default_factory=dict)


def menu(state: State, legal: list[Action]) -> list[Choice]:
    """The numbered choices: one per action, except that a kind chosen by a whole number
    (a bid, an amount) is one line asking for the number within its range."""
    kinds: dict[str, list[Action]] = {}
    for action in legal:
        kinds.setdefault(action.kind, []).append(action)
    numeric: dict[str, str] = {}
    for kind, actions in kinds.items():
        name = _single_int_field(actions[0])
        if name and len(actions) >= NUMBER_ENTRY_AT:
            numeric[kind] = name
    choices: list[Choice] = []
    done: set[str] = set()
    # Grouped by kind (in the order kinds first appear), so a long list reads by heading.
    order = {kind: i for i, kind in enumerate(kinds)}
    for action in sorted(legal, key=lambda a: order[a.kind]):
        if action.kind in numeric:
            if action.kind in done:
                continue
            done.add(action.kind)
            name = numeric[action.kind]
            values = {getattr(a, name): a for a in kinds[action.kind]}
            low, high = min(values), max(values)
            gaps = "" if len(values) == high - low + 1 else ", not every number"
            what = action.kind.replace("_", " ")
            text = f"{what}: type the {name.replace('_', ' ')}, {low} to {high}{gaps}"
            choices.append(Choice(text, group=what, field_name=name, by_value=values))
        else:
            group = action.kind.replace("_", " ")
            choices.append(Choice(state.describe_action(action), action, group=group))
    return choices


# Whole-number fields that name something (a seat, a slot, a card) rather than an amount: those
# choices stay listed by what they name.
_NOT_AMOUNTS = ("seat", "player", "target", "slot", "index", "card", "die", "tile", "lot", "id")


def _single_int_field(action: Action) -> str:
    """The name of an action's only field when it is an amount (a bid, a count), else ""."""
    data = action.to_json()
    fields = [k for k in data if k != "type"]
    if len(fields) != 1 or any(word in fields[0] for word in _NOT_AMOUNTS):
        return ""
    value = data[fields[0]]
    return fields[0] if isinstance(value, int) and not isinstance(value, bool) else ""


def ask_human(table: Table, seat: int, input_fn) -> bool:
    """Show the seat's table and choices, read commands until one decides; False to stop."""
    console = table.console
    state = table.state
    console.rule(Text(f"{table.names[seat]} to decide"))
    choices = menu(state, state.legal_actions())
    plans = plans_for(state)
    show_decision(table, seat, choices, plans)
    while True:
        try:
            answer = input_fn(f"{table.names[seat]}> ").strip()
        except EOFError:
            return False
        word, _, rest = answer.partition(" ")
        word = word.lower()
        if word in ("q", "quit", "exit"):
            return False
        if word in ("h", "help", "?") and not rest:
            console.print(HELP)
        elif word in ("terms", "?"):
            show_terms(table, rest)
        elif word == "rules":
            console.print(Markdown(table.game.guide()))
        elif word == "hint":
            from ..agents.hints import format_hint, hint

            with console.status("Thinking about a hint…", spinner="dots"):
                options = hint(
                    state, "hard", seed=table.seed + len(table.actions), names=table.names
                )
            legal = state.legal_actions()
            numbers = [choice_number(choices, legal[o.index]) for o in options]
            say(console, format_hint(options, numbers))
        elif word == "board":
            show_decision(table, seat, choices, plans)
        elif word == "log":
            show_log(table, rest)
        elif word == "undo":
            if table.undo(seat):
                console.print("Taken back: you are at your previous decision again.")
                return True
            console.print("Undo works only against AI seats, after a decision of yours.")
        elif (plan := chosen_plan(choices, plans, word, rest)) is not None:
            for step in table.apply_plan(plan):
                table.show(step)
            return True
        elif word == "done":
            console.print("No shortcut ends the turn here: choose one of the numbers.")
        elif (amount := typed_amount(choices, word, rest)) is not None:
            table.show(table.apply(amount))
            return True
        elif word.isdigit() and 1 <= int(word) <= len(choices):
            action = _chosen(table, choices[int(word) - 1], rest, input_fn)
            if action is not None:
                table.show(table.apply(action))
                return True
        else:
            console.print(f"Type {_what_to_type(choices)}, or help.")


def choice_number(choices: list[Choice], action: Action) -> str:
    """What to type for `action` at this menu: "3", or "2 then 12" for an amount."""
    for number, choice in enumerate(choices, start=1):
        if choice.action == action:
            return str(number)
        for value, valued in choice.by_value.items():
            if valued == action:  # the amount alone where the prompt takes it so
                alone = typed_amount(choices, str(value), "") == action
                return str(value) if alone else f"{number} then {value}"
    return ""


def chosen_plan(choices: list[Choice], plans: list[Plan], word: str, rest: str) -> Plan | None:
    """The shortcut typed: its number (after the choices' numbers), or `done` for the game's
    "end the turn now" plan."""
    if rest:
        return None
    if word == "done":
        return next((p for p in plans if p.key == "end_turn"), None)
    if word.isdigit() and len(choices) < int(word) <= len(choices) + len(plans):
        return plans[int(word) - len(choices) - 1]
    return None


def show_decision(
    table: Table, seat: int, choices: list[Choice], plans: list[Plan] | tuple = ()
) -> None:
    """The seat's view of the table, the question, the numbered choices and the game's
    shortcuts (turn plans, numbered after the choices)."""
    console = table.console
    board = table.board(seat)
    say(console, board)
    prompt = table.named(table.state.prompt())
    if prompt and prompt not in board:
        say(console, prompt, "bold")
    headed = len(choices) > GROUP_AT and len({c.group for c in choices}) > 1
    group = None
    for number, choice in enumerate(choices, start=1):
        if headed and choice.group != group:
            group = choice.group
            say(console, f"  {group}", "dim")
        console.print(Text.assemble("  ", (f"{number:3d}", "bold"), "  ", printable(choice.text)))
    if plans:
        say(console, "  shortcuts (several moves as one decision)", "dim")
    for number, plan in enumerate(plans, start=len(choices) + 1):
        console.print(Text.assemble("  ", (f"{number:3d}", "bold"), "  ", printable(plan.label)))


def show_log(table: Table, rest: str) -> None:
    """The whole game so far, or with a count only the last that many moves."""
    count = rest.strip()
    if count and not (count.isdigit() and int(count) > 0):
        say(table.console, f"log takes a number of moves, such as log 10 (not {count!r}).")
        return
    steps = table.log[-int(count) :] if count else table.log
    if not steps:
        table.console.print("Nothing has happened yet.")
        return
    if len(steps) < len(table.log):
        table.console.print(f"The last {len(steps)} of {len(table.log)} moves:")
    for step in steps:
        table.show(step)


def typed_amount(choices: list[Choice], word: str, rest: str) -> Action | None:
    """The action when an amount is typed straight at the choice prompt: "12" when the one
    amount to type is a bid of 12 (and 12 is not the number of another choice, or the amount
    is the only choice), or "bid 12" naming the kind."""
    numeric = [c for c in choices if c.by_value]
    if not numeric:
        return None
    if rest.strip().lstrip("-").isdigit():  # "bid 12"
        named = [c for c in numeric if c.group == word or c.field_name == word]
        if len(named) == 1:
            return named[0].by_value.get(int(rest))
        return None
    if rest or not word.lstrip("-").isdigit() or len(numeric) != 1:
        return None
    value = int(word)
    if len(choices) > 1 and 1 <= value <= len(choices):
        return None  # the number of a choice
    return numeric[0].by_value.get(value)


def _what_to_type(choices: list[Choice]) -> str:
    numeric = [c for c in choices if c.by_value]
    if len(choices) == 1 and numeric:
        low, high = min(numeric[0].by_value), max(numeric[0].by_value)
        return f"the {numeric[0].field_name.replace('_', ' ')}, a number from {low} to {high}"
    if len(numeric) == 1:
        low, high = min(numeric[0].by_value), max(numeric[0].by_value)
        return (
            f"a number from 1 to {len(choices)} to choose, or the "
            f"{numeric[0].field_name.replace('_', ' ')} ({low} to {high}) to {numeric[0].group}"
        )
    return f"a number from 1 to {len(choices)}"


def _chosen(table: Table, choice: Choice, rest: str, input_fn) -> Action | None:
    if choice.action is not None:
        return choice.action
    low, high = min(choice.by_value), max(choice.by_value)
    text = rest.strip()
    while True:
        if not text:
            try:
                text = input_fn(f"{choice.field_name.replace('_', ' ')} ({low}-{high})> ").strip()
            except EOFError:
                return None
        if text.lstrip("-").isdigit() and int(text) in choice.by_value:
            return choice.by_value[int(text)]
        if not text or text.lower() in ("back", "b"):
            return None
        say(table.console, f"{text!r} is not allowed here: a number from {low} to {high}.")
        text = ""


def show_terms(table: Table, word: str) -> None:
    """The game's terms matching `word` (all of them without one), and any card on the table
    of that name, with everything the reader's view says about it."""
    terms = table.game.glossary()
    word = word.strip().lower()
    found = {k: v for k, v in terms.items() if not word or word in k.lower()}
    cards = find_in_view(table.state.view(table.reader), word) if word else []
    if not terms and not cards:
        table.console.print("This game has no list of terms; type rules for how to play.")
    elif not found and not cards:
        table.console.print(
            f'Nothing called "{escape(printable(word))}" here; type terms for the whole list.',
            highlight=False,
        )
    for term, meaning in found.items():
        table.console.print(Text.assemble((printable(term), "bold"), printable(f": {meaning}")))
    for text in cards:
        say(table.console, text)


_NAME_KEYS = ("name", "title", "card")


def find_in_view(view: Any, word: str, limit: int = 3) -> list[str]:
    """Things in a view (cards, bots, missions) whose name contains `word`, each as one line of
    everything the view says about it. Only the view: nothing the reader may not know."""
    seen: dict[str, str] = {}

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            name = next((node[k] for k in _NAME_KEYS if isinstance(node.get(k), str)), None)
            if name and word in name.lower():
                said = _describe_thing(name, node)
                if len(said) > len(seen.get(name, "")):  # the fullest description of it
                    seen[name] = said
            for key, value in node.items():
                if key not in ("legal_actions", "action"):  # choices, not things
                    walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(view)
    return list(seen.values())[:limit]


def _count(word: str, skip_zero: bool = True) -> Any:
    """A view field that counts something, in words ("2 crits"); none when it is 0."""
    return lambda v, node: None if skip_zero and not v else f"{v} {word}{'' if v == 1 else 's'}"


# The view fields a player reads about a thing, each in the game's words; any other field (who
# controls it, where it came from, ids, flags for the engine) is not for people.
_THING_WORDS: dict[str, Any] = {
    "mana": lambda v, node: f"{v} mana",
    "atk": lambda v, node: f"ATK {v}",
    "def": lambda v, node: f"DEF {v}",
    "attack": lambda v, node: f"attack {v}",
    "defense": lambda v, node: f"defense {v}",
    "crits": _count("crit"),
    "barriers": _count("barrier"),
    "tier": lambda v, node: f"tier {v}",
    "cost": lambda v, node: f"costs {v} scraps",
    "scrap": lambda v, node: f"scrap value {v}",
    "power": lambda v, node: f"power {v}",
    "current_power": lambda v, node: None if v == node.get("power") else f"power now {v}",
    "damage": _count("damage", skip_zero=True),
    "face_up": lambda v, node: None if v else "face down",
    "token": lambda v, node: "a token" if v else None,
    "counters": _count("counter"),
    "summoned_this_turn": lambda v, node: "just arrived" if v else None,
    "min_bid": lambda v, node: f"lowest bid {v} Bitz",
    "acquire_cost": lambda v, node: f"+{v} Bitz to fit on a win" if v else None,
    "gold": lambda v, node: "gold" if v else None,
    "green": lambda v, node: "green (not counted toward the limit of 5)" if v else None,
    "reward": lambda v, node: f"reward {v} Bitz",
}
_TEXT_KEYS = ("text", "effect", "ability", "entry_effect", "rules", "description")


def _describe_thing(name: str, node: dict[str, Any]) -> str:
    """A thing on the table in a player's words: "Range Bot (2 mana, ATK 3, DEF 1): ..."."""
    parts, text = [], ""
    for key, value in node.items():
        if key in _TEXT_KEYS:
            text = str(value) if value else text
        elif key in _THING_WORDS and isinstance(value, int | float | str | bool):
            said = _THING_WORDS[key](value, node)
            if said:
                parts.append(said)
    details = f" ({', '.join(parts)})" if parts else ""
    return f"{name}{details}" + (f": {text}" if text else "")


def default_delay() -> float:
    """A readable pace when a person watches the terminal; none when the output is a file."""
    return 0.8 if sys.stdout is not None and sys.stdout.isatty() else 0.0


def resume_table(table: Table, record: dict[str, Any], where: str) -> None:
    """Play a saved game's moves again at `table` (same game, seed and seats), checking that
    the record replays exactly first."""
    from ..core.records import replay_record

    replay_record(record, where=where)
    table.replay([table.game.action_from_json(raw) for raw in record["actions"]])


def interactive() -> bool:
    return sys.stdin is not None and sys.stdin.isatty()
