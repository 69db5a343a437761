"""Stak Bots (DogEared Games, 2013): robots in staks fight top card against top card; the last
player with cards in their stak wins. Rules: docs/rules/stakbots.md (SB-x.y).

The package's imports run one way: data (actions, content, state) -> rules (board, effects,
rules) -> presentation (view, narration, render, heuristic, encoding) -> this Game, which wires
the rules, the view and the words into the state's protocol methods.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, ClassVar

from robotable.core.errors import ContentError, OptionError
from robotable.core.events import Event
from robotable.core.narration import narrate_events
from robotable.core.options import OptionSpec, rules_option
from robotable.core.protocol import Action, Game

from . import effects, encoding, heuristic, narration, render, rules, view
from .actions import (
    ACTION_CLASSES,
    END_TURN,
    Attack,
    ChoosePlayer,
    Discard,
    Play,
    React,
    Recycle,
    Scrap,
    Target,
)
from .content import BUNDLED, Deck, load_deck
from .modes import (
    ORDINAL,
    QUICKFIRE_STAK,
    TRAITOR_HAND,
    apply_preset,
    check_club_deck,
    check_modes,
    multi_stak_size,
)
from .rules import setup
from .state import StakBotsState, StakBotsTables


class StakBotsGame(StakBotsTables, Game):
    name: ClassVar[str] = "stakbots"
    title: ClassVar[str] = "Stak Bots"
    description: ClassVar[str] = (
        "Stack robots, attack top card against top card, chain entry effects; "
        "the last player with cards in their stak wins."
    )
    # The publisher: a few minutes for a simple duel, up to 45 for four seats with several staks.
    minutes: ClassVar[str] = "5-45"
    version: ClassVar[str] = "1"
    min_players: ClassVar[int] = 1  # one seat: Drone Mode (SB-11.14)
    max_players: ClassVar[int] = 4
    default_players: ClassVar[int] = 2
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        # The rulebook as written meets the first-mover target at every seat count, so printed
        # changes nothing here (docs/rules/stakbots.md, "Balanced and printed").
        rules_option(
            {}, "balanced and printed are the same game: the rulebook as written plays fair"
        ),
        OptionSpec("stak_size", int, 9, "cards dealt face-down to each stak", (), 1, 30),
        OptionSpec("hand_size", int, 2, "cards dealt to each starting hand", (), 0, 10),
        OptionSpec(
            "cards",
            str,
            BUNDLED,
            "the deck: a bundled set's name or a card file of one's own (.toml)",
            content="card set",
            bundled=(BUNDLED,),
        ),
        OptionSpec(
            "max_turns",
            int,
            200,
            "after this many turns the game is a draw among the seats still in",
            (),
            1,
            100000,
        ),
        # The publisher's toggles, the traitor variation and the modes (SB-11): all off by
        # default, so the base game is what the rulebook describes.
        OptionSpec(
            "setup_effects",
            bool,
            False,
            "the starting top cards' entry effects fire before the first draw",
        ),
        OptionSpec("skip_first_draw", bool, False, "the first player skips the first draw"),
        OptionSpec(
            "recycling",
            bool,
            False,
            "a player may scrap their top card and a hand card together, then draw",
        ),
        OptionSpec(
            "reactive",
            bool,
            False,
            "an attacked player may play a card onto the defending stak to cancel the attack",
        ),
        OptionSpec(
            "borderless",
            str,
            "off",
            "cards may go onto other players' staks too: on, or team for teammates' only",
            ("off", "on", "team"),
        ),
        OptionSpec(
            "attack_tally",
            int,
            0,
            "attacks per turn by any of a player's top cards; 0 keeps the one-attacker rule",
            (),
            0,
            50,
        ),
        OptionSpec(
            "traitor",
            bool,
            False,
            "traitor variation: play only onto rivals' staks, never scrap from hand, hold 3 at most",
        ),
        OptionSpec(
            "quickfire",
            bool,
            False,
            "Quickfire Mode for young players: 5-card staks, no entry effects",
        ),
        OptionSpec(
            "preset",
            str,
            "none",
            "club: the club tournament duel (2 staks of 9, hands of 3, reactive, no first draw)",
            ("none", "club"),
        ),
        OptionSpec(
            "staks",
            int,
            1,
            "staks per seat; with several, stak_size defaults to 9 for 2 seats and 5 for 3 or 4",
            (),
            1,
            3,
        ),
        OptionSpec(
            "drones",
            int,
            0,
            "Drone Mode: staks the game plays by itself against one seat, 1 (gentle) to 3 (fierce)",
            (),
            0,
            3,
            default_by_players={1: 1},
        ),
        OptionSpec(
            "teams",
            bool,
            False,
            "four players in two teams, seats 1 and 3 against 2 and 4",
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
        defaults = {o.name: o.default_for(self.num_players) for o in self.option_specs}
        apply_preset(self.name, self.num_players, opts, options, defaults)
        # Defaults another option changes, where the user did not set them (SB-11.8, SB-11.9).
        if opts["traitor"] and "hand_size" not in options:
            opts["hand_size"] = TRAITOR_HAND
        if opts["quickfire"] and "stak_size" not in options:
            opts["stak_size"] = QUICKFIRE_STAK
        check_modes(self.name, self.num_players, opts)
        deck: Deck = load_deck(self.options["cards"])
        if opts["preset"] == "club":
            check_club_deck(deck)
        if opts["staks"] > 1 and not opts["quickfire"] and "stak_size" not in options:
            opts["stak_size"] = multi_stak_size(
                self.num_players, opts["staks"], opts["hand_size"], len(deck)
            )
        staks = self.num_players * opts["staks"] + opts["drones"]
        need = staks * opts["stak_size"] + self.num_players * opts["hand_size"]
        if len(deck) < need:
            raise ContentError(
                f"card file {deck.source}: {len(deck)} cards cannot deal "
                f"{staks} staks of {opts['stak_size']} and "
                f"{self.num_players} hands of {opts['hand_size']} (needs {need}, SB-2.7)"
            )
        self.deck = deck
        self.card_views = view.static_card_views(deck.cards)
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
        # SB-11: what the toggles and modes change, read on the hot paths as plain attributes.
        n = self.num_players
        self.entry = frozenset() if opts["quickfire"] else effects.ENTRY
        # Per seat, and for the Drone (SB-11.14) the pseudo-seat n: its own side.
        self.team = [s % 2 if opts["teams"] else s for s in range(n)] + [n]
        self.hand_limit = TRAITOR_HAND if opts["traitor"] else -1
        self.tally = opts["attack_tally"]
        self.reactive = opts["reactive"]
        self.recycling = opts["recycling"]
        # SB-11.12: stak k belongs to seat owner[k] and is its local[k]-th; with one stak per
        # seat k is the seat. The Drone's staks (SB-11.14) come last, owned by pseudo-seat n.
        # stak_order[s]: every stak in turn order from seat s (the Drone's after the last seat).
        per = opts["staks"]
        self.drones = opts["drones"]
        seats = n * per
        total = seats + self.drones
        self.multi = per > 1
        # Whether plays may go anywhere but the one own stak (SB-11.6, SB-11.8, SB-11.12).
        self.play_anywhere = opts["borderless"] != "off" or opts["traitor"] or self.multi
        self.owner = [k // per for k in range(seats)] + [n] * self.drones
        self.local = [k % per for k in range(seats)] + list(range(self.drones))
        self.staks_of = [[s * per + j for j in range(per)] for s in range(n)]
        self.staks_of.append(list(range(seats, total)))
        sides = n + (1 if self.drones else 0)
        self.stak_order = [
            [k for i in range(sides) for k in self.staks_of[(s + i) % sides]] for s in range(sides)
        ]
        # targets[s]: the staks seat s may attack, in turn order: not its own, nor (SB-11.10)
        # its teammates'.
        self.targets = [
            [k for k in self.stak_order[s] if self.team[self.owner[k]] != self.team[s]]
            for s in range(n)
        ]
        # Whether an event names which of its owner's staks a stak is (the owner has several).
        self.several = [len(self.staks_of[self.owner[k]]) > 1 for k in range(total)]
        self.stak_word = [
            f"{ORDINAL[self.local[k]]} stak" if self.several[k] else "stak" for k in range(total)
        ]
        self.attack_a = [Attack(s) for s in range(n)]
        self.attack_ab = [
            [Attack(self.owner[k], self.local[k], j) for k in range(total)] for j in range(per)
        ]
        # plays_for[s][k][c]: seat s plays card c onto stak k (its own: seat -1).
        self.plays_for = [
            [
                [
                    Play(c.id, c.name, -1 if self.owner[k] == s else self.owner[k], self.local[k])
                    for c in cards
                ]
                for k in range(total)
            ]
            for s in range(n)
        ]
        self.recycle_a = [[Recycle(c.id, c.name, j) for c in cards] for j in range(per)]
        self.react_a = [React(c.id, c.name) for c in cards]
        # top_target_a[k][c]: an entry effect chooses card c, the top card of stak k.
        self.top_target_a = [
            [Target(self.owner[k], 0, c.name, self.local[k]) for c in cards] for k in range(total)
        ]
        self.player_a = [ChoosePlayer(s) for s in range(self.num_players)]
        self.end_a = END_TURN

    def teams(self) -> list[int] | None:
        """SB-11.10: seats 1 and 3 against 2 and 4."""
        return self.team[: self.num_players] if self.options["teams"] else None

    def narrate(
        self, events: list[Event], viewer: int | None = None, names: list[str] | None = None
    ) -> list[str]:
        """As every game's, with the Drone (SB-11.14) named "Drone"."""
        voice = narration.table_voice(self.num_players, viewer, names, self.drones)
        return narrate_events(self.narrate_event, events, voice)

    def new_initial_state(self, seed: int = 0) -> StakBotsState:
        state = StakBotsState(self)
        setup(state, seed)
        return state

    def state_from_json(self, data: dict[str, Any]) -> StakBotsState:
        return StakBotsState.from_json(self, data)


GAME = StakBotsGame
