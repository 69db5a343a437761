"""`Game.encode_state(state, seat)` is `encode_observation(state.observation_view(seat))`, float
for float, in every game, seat count and rules variant, at every seat and for a spectator.

A game may write `encode_state` reading its state directly (no view dicts in between); this test
is what keeps such an encoder to the view's encoding, and so to what the seat may know: the view
is the one place that decides what is hidden.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import robotable
from robotable.core.protocol import Game
from robotable.core.registry import bundled_game_names, game_class
from robotable.envs.encoding import Encoding

# Options that change what an encoder reads, beyond the seat count: both rule sets everywhere, and
# each game's variants that add zones, seats or cards to the layout. A variant that does not load
# fails the test (so none is skipped unseen).
VARIANTS: dict[str, list[dict[str, Any]]] = {
    # several staks read as one, the reaction's and recycling's decisions, the traitor's plays
    # onto rivals' staks and hand limit, Quickfire's short staks without entry effects, and the
    # turn limit's end (the Drone plays at one seat, whose default it is)
    "stakbots": [
        {"staks": 3},
        {"reactive": True, "recycling": True},
        {"traitor": True},
        {"quickfire": True},
        {"max_turns": 3},
        {"players": 1, "drones": 3},
        {"players": 4, "teams": True, "borderless": "team"},
        {"preset": "club"},
    ],
    # the crystals' supply and round spaces, and the crits a gang needs
    "rumblebots": [{"crit_threshold": 2, "total_crystals": 20, "round_crystals": (1, 0, 5, 3, 9)}],
    "betabotz": [{"bid_amounts": "coarse"}],
    "breadwinner": [{"max_turns": 6}],  # reaches the turn limit: the end's features
    # the other bundled decks' cards (stolen Bots, tokens, counters), the proposed texts and
    # duels short enough to reach the match's end
    "iotabots": [{"deck0": "hijack", "deck1": "beacon", "proposed_texts": True, "max_turns": 8}],
}


def _configs() -> list[tuple[str, int, dict[str, Any]]]:
    configs = []
    for name in bundled_game_names():
        cls = game_class(name)
        for players in range(cls.min_players, cls.max_players + 1):
            for rules in ("balanced", "printed"):
                configs.append((name, players, {"rules": rules}))
        for variant in VARIANTS.get(name, []):  # at two seats unless it names its "players"
            options = {k: v for k, v in variant.items() if k != "players"}
            configs.append((name, variant.get("players", max(cls.min_players, 2)), options))
    return configs


def _load(name: str, players: int, options: dict[str, Any]) -> Game:
    return robotable.load_game(name, num_players=players, **options)


def _same(game: Game, state: Any, seat: int | None) -> None:
    direct = np.asarray(game.encode_state(state, seat), dtype=np.float32)
    by_view = np.asarray(game.encode_observation(state.observation_view(seat)), dtype=np.float32)
    assert direct.tobytes() == by_view.tobytes(), (
        f"{game.name}, seat {seat}: differs at {np.flatnonzero(direct != by_view)[:10].tolist()}"
    )


@pytest.mark.parametrize(("name", "players", "options"), _configs())
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_encode_state_is_the_views_encoding_at_every_step(
    name: str, players: int, options: dict[str, Any], seed: int
) -> None:
    game = _load(name, players, options)
    Encoding(game)  # the sizes are consistent
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(300):
        for seat in (None, *range(game.num_players)):
            _same(game, state, seat)
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))


def test_a_game_without_its_own_encode_state_encodes_the_view() -> None:
    """The protocol's default, which a new game gets: the observation view's encoding."""
    game = robotable.load_game("stakbots", num_players=2)
    state = game.new_initial_state(seed=3)
    default = Game.encode_state(game, state, 0)
    assert default == game.encode_observation(state.observation_view(0))
