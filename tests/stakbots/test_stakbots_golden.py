"""Golden playthrough: a seeded random 2-seat game, rendered from the deciding seat each step.

Regenerate after an intended behaviour change with ROBOTABLE_REGEN=1 and review the diff.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

from .sbkit import game

GOLDEN = Path(__file__).with_name("golden_stakbots_2p_seed7.txt")
STEPS = 60


def playthrough() -> str:
    g = game(2)
    st = g.new_initial_state(7)
    rng = random.Random(7)
    out = []
    for step in range(1, STEPS + 1):
        if st.is_terminal():
            break
        seat = st.current_player()
        legal = st.legal_actions()
        action = rng.choice(legal)
        out.append(f"### step {step}, seat {seat} decides")
        out.append(g.render(st, seat))
        out.append("legal: " + " | ".join(f"[{i}] {a}" for i, a in enumerate(legal)))
        out.append(f"chosen: {action}")
        out.append("")
        st.apply_action(action)
    out.append("### final")
    out.append(g.render(st, None))
    return "\n".join(out) + "\n"


def test_golden_playthrough():
    text = playthrough()
    if os.environ.get("ROBOTABLE_REGEN") or not GOLDEN.exists():
        GOLDEN.write_text(text)
    assert text == GOLDEN.read_text()
