"""Golden playthrough: a seeded random game rendered step by step from the deciding seat, with
its choices as the deciding seat reads them.

Regenerate after an intended change with ROBOTABLE_REGEN=1 and review the diff.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import robotable

GOLDEN = Path(__file__).with_name("golden_rumblebots_2p.txt")
STEPS = 40


def playthrough() -> str:
    game = robotable.load_game("rumblebots", num_players=2)
    state = game.new_initial_state(seed=7)
    rng = random.Random(7)
    out = []
    for step in range(STEPS):
        if state.is_terminal():
            break
        seat = state.current_player()
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        out.append(f"##### step {step}: Seat {seat + 1} decides")
        out.append(game.render(state, seat))
        # the front ends list the choices (render does not), in describe_action's words
        out.extend(f"  - {entry['label']}" for entry in state.legal_action_entries(seat))
        out.append(f"-> chosen: {state.describe_action(action)}")
        state.apply_action(action)
    out.append("##### final state (spectator)")
    out.append(game.render(state, None))
    return "\n".join(out) + "\n"


def test_rb_golden_playthrough():
    text = playthrough()
    if os.environ.get("ROBOTABLE_REGEN") or not GOLDEN.exists():
        GOLDEN.write_text(text)
    assert text == GOLDEN.read_text(), "playthrough changed; regenerate with ROBOTABLE_REGEN=1"
