"""Research adapters: every robotable game as a PettingZoo, Gymnasium and OpenSpiel environment.

    from robotable.envs.pettingzoo import env            # PettingZoo AEC, one agent per seat
    import robotable.envs.gymnasium                       # registers robotable/StakBots-v0, ...
    import robotable.envs.openspiel                       # registers python_robotable_stakbots, ...

Install the optional dependencies with `pip install 'robotable[rl]'`. The adapters share one
encoding per game (`robotable.envs.encoding`); see docs/rl.md for the layouts and sizes.
Nothing here is imported by the rest of robotable, so the games never need numpy.
"""

from __future__ import annotations

from typing import Any

from .encoding import Encoding, EncodingInfo


def describe(game_name: str, num_players: int | None = None, **options: Any) -> EncodingInfo:
    """Action-space and observation sizes of a game, and whether they come from its own hooks."""
    from ..core.registry import load_game

    return Encoding(load_game(game_name, num_players=num_players, **options)).info()


__all__ = ["Encoding", "EncodingInfo", "describe"]
