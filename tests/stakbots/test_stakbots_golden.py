"""Golden playthrough: a seeded random 2-seat game, rendered from the deciding seat each step,
with the choices in the words that seat reads (`describe_action`).

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
        out.append(f"### step {step}, Seat {seat + 1} decides")
        out.append(g.render(st, seat))
        words = [st.describe_action(a) for a in legal]
        out.append("legal: " + " | ".join(f"[{i}] {w}" for i, w in enumerate(words)))
        out.append(f"chosen: {words[legal.index(action)]}")
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
