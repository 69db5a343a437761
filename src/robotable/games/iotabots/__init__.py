"""Iotabots Trading Card Game: a match of up to three duels between two 33-card decks.

Rules: docs/rules/iotabots.md (IB-x.y). Cards and decks are data in `data/`.

The package reads one way: data (`actions`, `content`, `state`) -> rules (`board`, `effects`,
`rules`) -> presentation (`view`, `narration`, `render`, `heuristic`, `encoding`) -> this Game,
which wires them: the state finds them as `game.rules`, `game.views` and `game.narration`.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, ClassVar

from robotable.core.errors import OptionError
from robotable.core.options import OptionSpec, rules_option
from robotable.core.protocol import Action, Game

from . import encoding, heuristic, narration, render, rules, view
from .actions import (
    ACTION_CLASSES,
    Activate,
    Attack,
    ChooseBot,
    ChooseCard,
    ChooseOrder,
    EndBattle,
    EndTurn,
    EnterBattle,
    Mulligan,
    PlayBuzz,
    Summon,
)
from .board import setup_match
from .content import (
    BUNDLED_DECKS,
    ZONE_SIZE,
    CardType,
    EffectKind,
    Op,
    Target,
    When,
    bundled_deck_names,
    load_deck,
    load_pool,
)
from .state import IotabotsState, IotabotsTables

DEFAULT_DECKS = ("assembly_line", "heavy_metal")


class IotabotsGame(IotabotsTables, Game):
    name: ClassVar[str] = "iotabots"
    title: ClassVar[str] = "Iotabots Trading Card Game"
    description: ClassVar[str] = (
        "Two duelists summon Bots and activate Buzz cards with a growing mana pool; "
        "a match is the best of up to three duels at 20 Life Points."
    )
    version: ClassVar[str] = "1"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        rules_option(
            {"second_player_bonus": "none"},
            "balanced: the player going second gets 1 more card and 1 more mana; printed: neither",
        ),
        OptionSpec(
            "deck0",
            str,
            DEFAULT_DECKS[0],
            "the first seat's deck: a bundled deck's name or a deck list file ('3 Tri Bot' a line)",
            content="deck",
            bundled=BUNDLED_DECKS,
        ),
        OptionSpec(
            "deck1",
            str,
            DEFAULT_DECKS[1],
            "the second seat's deck: a bundled deck's name or a deck list file ('3 Tri Bot' a line)",
            content="deck",
            bundled=BUNDLED_DECKS,
        ),
        OptionSpec(
            "cards",
            str,
            "",
            "a card file (TOML) to play with instead of the bundled cards",
            content="card pool",
        ),
        OptionSpec(
            "limits",
            str,
            "",
            "a forbidden and limited list (TOML): the most copies of each card a deck may hold",
            content="limits list",
        ),
        OptionSpec(
            "proposed_texts",
            bool,
            False,
            "Draw, Kamikaze, Bi, Sneaky and Wall Bot play the texts the rules notes propose",
        ),
        OptionSpec(
            "max_turns",
            int,
            80,
            "turns in a duel, both players' counted, after which the duel is a draw",
            minimum=2,
            maximum=1000,
        ),
        OptionSpec(
            "first_turn_draw", bool, True, "the starting player draws a card on the first turn too"
        ),
        OptionSpec(
            "second_player_bonus",
            str,
            "both",
            "what the player going second gets: both (a card and a first-turn mana more), mana, "
            "card or none",
            choices=("mana", "card", "both", "none"),
        ),
        OptionSpec(
            "direct_attack_requires_empty_zone",
            bool,
            False,
            "Life Points can be attacked only when the defender has no Bots (a prototype's rule)",
        ),
    )
    action_classes: ClassVar[tuple[type[Action], ...]] = ACTION_CLASSES
    heuristic = heuristic
    renderer = render
    encoding = encoding
    # What the state calls (state.py imports none of these; core/protocol.py's StateBase):
    rules: ClassVar[ModuleType] = rules  # the forward model: setup, legal_actions, apply_action
    views: ClassVar[ModuleType] = view  # view, prompt, stats
    narration: ClassVar[ModuleType] = narration  # events and choices in words

    def __init__(self, num_players: int | None = None, **options: Any) -> None:
        super().__init__(num_players, **options)
        opts = self.options
        pool = load_pool(opts["cards"], opts["proposed_texts"], opts["limits"])
        self.pool = pool
        self.cards = pool.cards
        self.names = [c.name for c in pool.cards]
        self.by_name = pool.by_name
        self.card_views = [c.to_view() for c in pool.cards]
        decks = []
        names = []
        for key in ("deck0", "deck1"):
            try:
                name, deck = load_deck(opts[key], pool)
            except ValueError as exc:
                raise OptionError(f"game iotabots, option '{key}': {exc}") from None
            names.append(name)
            decks.append(deck)
        self.decks = (decks[0], decks[1])
        self.deck_names = (names[0], names[1])
        self._build_tables()

    def _build_tables(self) -> None:
        n = len(self.cards)
        self.triggers = []
        self.ignition = []
        self.static_self = []
        self.aura = []
        self.untargetable = []
        self.no_direct = []
        for card in self.cards:
            trig: list[list[int]] = [[] for _ in When]
            ign = -1
            static, aura = [], []
            untarget = no_direct = False
            for i, eff in enumerate(card.effects):
                if eff.kind == EffectKind.TRIGGER:
                    trig[eff.when].append(i)
                elif eff.kind == EffectKind.IGNITION and ign < 0:
                    ign = i
                elif eff.kind == EffectKind.CONTINUOUS:
                    for step in eff.steps:
                        if step.op == Op.STATIC_STAT:
                            bucket = aura if step.target == Target.OTHERS_OWN else static
                            bucket.append((eff.condition, step))
                        elif step.op == Op.UNTARGETABLE_IF_OTHER:
                            untarget = True
                        elif step.op == Op.NO_DIRECT_ATTACK:
                            no_direct = True
            self.triggers.append(tuple(tuple(t) for t in trig))
            self.ignition.append(ign)
            self.static_self.append(tuple(static))
            self.aura.append(tuple(aura))
            self.untargetable.append(untarget)
            self.no_direct.append(no_direct)
        # Only cards of the two decks (and tokens) can reach the field, so an aura that no deck
        # holds never needs looking for (stats() is the hottest function of the search).
        self.in_play = (
            frozenset(self.decks[0])
            | frozenset(self.decks[1])
            | {c.index for c in self.cards if c.type == CardType.TOKEN}
        )
        self.has_aura = any(self.aura[c] for c in self.in_play)
        self.any_untargetable = any(self.untargetable)
        self.any_no_direct = any(self.no_direct)
        self.direct_requires_empty = bool(self.options["direct_attack_requires_empty_zone"])
        self.card_mana = [c.mana for c in self.cards]
        self.card_is_buzz = [c.type == CardType.BUZZ for c in self.cards]
        self.attacks_of = [c.attacks for c in self.cards]
        self.base_atk = [c.atk for c in self.cards]
        self.base_def = [c.def_ for c in self.cards]
        # Buzz cards with no cost, no chosen target and no zone need are always activatable.
        self.buzz_free = [
            c.type == CardType.BUZZ
            and all(
                st.op in (Op.DRAW, Op.DISCARD, Op.HEAL, Op.DAMAGE, Op.ADD_MANA, Op.PROTECT)
                for st in c.effects[0].steps
            )
            and not any(st.op == Op.DISCARD for st in c.effects[0].steps)
            for c in self.cards
        ]
        # shared action objects (actions are immutable; legal_actions reuses them)
        self.summon_actions = [Summon(c.name) for c in self.cards]
        self.play_actions = [PlayBuzz(c.name) for c in self.cards]
        self.choose_card_actions = [ChooseCard(c.name) for c in self.cards]
        self.activate_actions = [Activate(s) for s in range(ZONE_SIZE)]
        self.attack_actions = [
            [Attack(s, t) for t in range(ZONE_SIZE)] + [Attack(s, -1)] for s in range(ZONE_SIZE)
        ]
        self.choose_bot_actions = [[ChooseBot(p, s) for s in range(ZONE_SIZE)] for p in (0, 1)]
        self.order_actions = [ChooseOrder(False), ChooseOrder(True)]
        self.mulligan_actions = [Mulligan(False), Mulligan(True)]
        self.enter_battle = EnterBattle()
        self.end_battle = EndBattle()
        self.end_turn = EndTurn()
        self.num_cards = n
        self.token_cards = [c.index for c in self.cards if c.type == CardType.TOKEN]

    # -- construction --------------------------------------------------------------------------
    def new_initial_state(self, seed: int = 0) -> IotabotsState:
        state = IotabotsState(self, seed)
        setup_match(state)
        return state

    def state_from_json(self, data: dict[str, Any]) -> IotabotsState:
        if isinstance(data, dict) and "options" in data:
            given = data["options"]
            if not isinstance(given, dict):
                raise ValueError("iotabots state: field 'options' must be an object")
            if {k: given.get(k) for k in self.options} != dict(self.options):
                raise ValueError("iotabots state: field 'options' differs from this game's options")
        return IotabotsState.from_json(self, data)

    # -- agents and front ends -----------------------------------------------------------------

    @staticmethod
    def bundled_decks() -> list[str]:
        return bundled_deck_names()


GAME = IotabotsGame

__all__ = ["GAME", "IotabotsGame", "IotabotsState"]
