"""Fingerprint of seeded games of one game: every action, event, final state, view and prompt of
random and MCTS seats over a few seat counts and option sets. The check that both engines, and
the source before a change to the engine, make the same moves:

    PYTHONPATH=SRC [ROBOTABLE_PURE=1] python scripts/engine_fingerprint.py GAME [SEEDS]

Prints the engine, the number of moves and the hash; equal hashes mean the same play.
"""

import hashlib
import json
import sys

import robotable._engine as engine
from robotable.agents.mcts import MCTSAgent
from robotable.agents.random_agent import RandomAgent
from robotable.core.registry import game_class, load_game

# (seats, options) per game: the modes and options whose code paths the engine work touches.
CONFIGS = {
    "stakbots": [
        (2, {}),
        (4, {}),
        (3, {}),
        (2, {"reactive": True, "recycling": True, "setup_effects": True}),
        (2, {"staks": 2}),
        (4, {"teams": True, "borderless": "team"}),
        (1, {"drones": 2}),
        (3, {"traitor": True}),
        (2, {"quickfire": True, "attack_tally": 2, "skip_first_draw": True}),
        (3, {"borderless": "on"}),
    ],
    "breadwinner": [
        (2, {}),
        (2, {"act_after_deploy": True}),
        (2, {"stalemate": "draw", "max_turns": 12}),
        (2, {"first_player": "seat1", "crop_values": (1, 1, 2, 2, 3, 3, 4, 4, 5, 6)}),
    ],
    "betabotz": [
        (3, {}),
        (6, {}),
        (4, {"bid_amounts": "coarse", "proposals": 4}),
    ],
    "iotabots": [
        (2, {}),
        (2, {"first_turn_draw": False, "second_player_bonus": "card"}),
        (2, {"deck0": "beacon", "deck1": "hijack", "proposed_texts": True}),
        (
            2,
            {
                "deck0": "hijack",
                "deck1": "beacon",
                "second_player_bonus": "none",
                "direct_attack_requires_empty_zone": True,
                "max_turns": 30,
            },
        ),
    ],
    "rumblebots": [
        (2, {}),
        (3, {}),
        (4, {}),
        (2, {"attack_must_exceed": False, "showdown_crystals": True, "reactor_to_cryo": False}),
        (3, {"battle_reveal_cap": 10, "crit_threshold": 2, "first_champion_cryo": 2}),
        (4, {"dominance_margin": 3, "first_champion": 1, "total_crystals": 16}),
    ],
}


def main(game: str, seeds: int) -> None:
    cls = game_class(game)
    configs = CONFIGS.get(game, [(cls.min_players, {}), (cls.max_players, {})])
    digest = hashlib.sha256()
    moves = 0

    def add(value) -> None:
        digest.update(json.dumps(value, sort_keys=True, default=str).encode())

    for seats, options in configs:
        the_game = load_game(game, num_players=seats, **options)
        for seed in range(seeds):
            state = the_game.new_initial_state(seed)
            for event in state.opening_events():
                add(event)
            agents = [
                MCTSAgent(seed=seed * 7 + i, iterations=60)
                if (seed + i) % 3 == 0
                else RandomAgent(seed=seed * 7 + i)
                for i in range(seats)
            ]
            steps = 0
            while not state.is_terminal() and steps < 600:
                action = agents[state.current_player()].act(state)
                add(action.to_json())
                for event in state.apply_action(action):
                    add(event)
                steps += 1
            moves += steps
            add(state.to_json())
            add(state.stats())
            add(state.view(0))
            digest.update(state.prompt().encode())
    print(engine.describe() if hasattr(engine, "describe") else "", moves, digest.hexdigest())


if __name__ == "__main__":
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 20)
