"""Stak Bots (DogEared Games, 2013): robots in staks fight top card against top card; the last
player with cards in their stak wins. Rules: docs/rules/stakbots.md (SB-x.y).

The package's imports run one way: data (actions, content, state) -> rules (board, effects,
rules) -> presentation (render, narration, heuristic, encoding) -> this Game, which wires the
rules and the words into the state's protocol methods.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, ClassVar

from robotable.core.errors import ContentError, OptionError
from robotable.core.options import OptionSpec
from robotable.core.protocol import Action, Game

from . import encoding, heuristic, narration, render, rules
from .actions import ACTION_CLASSES, END_TURN, Attack, ChoosePlayer, Discard, Play, Scrap
from .content import BUNDLED, Deck, load_deck
from .rules import setup
from .state import StakBotsState


class StakBots(Game):
    name: ClassVar[str] = "stakbots"
    title: ClassVar[str] = "Stak Bots"
    description: ClassVar[str] = (
        "Stack robots, attack top card against top card, chain entry effects; "
        "the last player with cards in their stak wins."
    )
    version: ClassVar[str] = "1"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("stak_size", int, 9, "cards dealt face-down to each stak (SB-2.1)", (), 1, 30),
        OptionSpec("hand_size", int, 2, "cards dealt to each starting hand (SB-2.3)", (), 0, 10),
        OptionSpec(
            "cards",
            str,
            BUNDLED,
            "the deck: a bundled set's name or a path to your own card file (.toml, SB-1.4)",
            content="card set",
            bundled=(BUNDLED,),
        ),
        OptionSpec(
            "max_turns",
            int,
            200,
            "after this many turns the game is a draw among the seats still in (SB-3.7)",
            (),
            1,
            100000,
        ),
    )
    action_classes: ClassVar[tuple[type[Action], ...]] = ACTION_CLASSES
    heuristic: ClassVar[ModuleType] = heuristic
    renderer: ClassVar[ModuleType] = render
    encoding: ClassVar[ModuleType] = encoding
    # What StakBotsState's protocol methods call (state.py sits below the rules and the words
    # and imports neither): legal actions, apply and the prompt; the choices in words; the view.
    rules: ClassVar[ModuleType] = rules
    narration: ClassVar[ModuleType] = narration
    build_view = staticmethod(render.build_view)

    def __init__(self, num_players: int | None = None, **options: Any) -> None:
        super().__init__(num_players, **options)
        deck: Deck = load_deck(self.options["cards"])
        need = self.num_players * (self.options["stak_size"] + self.options["hand_size"])
        if len(deck) < need:
            raise ContentError(
                f"card file {deck.source}: {len(deck)} cards cannot deal {self.num_players} "
                f"staks of {self.options['stak_size']} and hands of "
                f"{self.options['hand_size']} (needs {need}, SB-2.7)"
            )
        self.deck = deck
        self.card_views = render.static_card_views(deck.cards)
        cards = deck.cards
        # Flat per-card tables: the hot path reads ints from lists, never content objects.
        self.names: list[str] = [c.name for c in cards]
        self.bot: list[int] = [c.bot for c in cards]
        self.base_power: list[int] = [-1 if c.power is None else c.power for c in cards]
        keys: dict[tuple, int] = {}
        self.defkey: list[int] = [keys.setdefault(c.key(), len(keys)) for c in cards]
        if len(keys) > 1000:
            raise OptionError(f"card file {deck.source}: too many distinct cards")
        # Actions built once and shared (legal_actions hands out these same objects).
        self.play_a = [Play(c.id, c.name) for c in cards]
        self.scrap_hand_a = [Scrap(c.id, c.name, True) for c in cards]
        self.scrap_top_a = [Scrap(c.id, c.name, False) for c in cards]
        self.discard_a = [Discard(c.id, c.name) for c in cards]
        self.attack_a = [Attack(s) for s in range(self.num_players)]
        self.player_a = [ChoosePlayer(s) for s in range(self.num_players)]
        self.end_a = END_TURN

    def new_initial_state(self, seed: int = 0) -> StakBotsState:
        state = StakBotsState(self)
        setup(state, seed)
        return state

    def state_from_json(self, data: dict[str, Any]) -> StakBotsState:
        return StakBotsState.from_json(self, data)


GAME = StakBots
