"""Every robotable game and seat count as a PettingZoo AEC environment.

    from robotable.envs import pettingzoo as rpz
    env = rpz.env("stakbots", num_players=3)          # or rpz.stakbots_v0.env(num_players=3)
    env.reset(seed=7)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else pick(obs["observation"], obs["action_mask"])
        env.step(action)

Agents are "player_0" .. "player_{n-1}", one per seat. The acting agent is always the seat that
decides now (`state.current_player()`), which is not always the seat whose turn it is: an entry
effect's owner or a bidder acts out of order, and AEC handles that naturally.

Observations are `{"observation": float32[observation_size], "action_mask": int8[num_actions]}`
built only from `view(seat)`; the mask is all zeros for every agent but the deciding one.
`env.unwrapped.view(agent)` gives the structured view for agents that prefer it. Rewards are
zero until the end, then `state.returns()` (winners 1, losers 0, draws shared). `render()` is the
game's own text rendering for a spectator (`render_seat=k` shows seat k's view instead).
An illegal action through `env()` ends the game with reward -1 for its author (PettingZoo's
TerminateIllegalWrapper); `raw_env` raises IllegalAction instead.
"""

from __future__ import annotations

import types
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..core.errors import IllegalAction
from ..core.protocol import State
from ..core.registry import game_names, load_game
from ..core.rng import derive_seed
from .encoding import Encoding

ENV_VERSION = 0


def env_name(game_name: str) -> str:
    """The versioned PettingZoo name of a game's environment: stakbots -> stakbots_v0."""
    return f"{game_name}_v{ENV_VERSION}"


class raw_env(AECEnv):  # noqa: N801 - PettingZoo's naming convention for the unwrapped env
    """One robotable game as an AEC environment; `env()` adds PettingZoo's standard wrappers."""

    metadata = {"render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(
        self,
        game_name: str,
        num_players: int | None = None,
        render_mode: str | None = None,
        render_seat: int | None = None,
        max_steps: int | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        self.game = load_game(game_name, num_players=num_players, **options)
        self.encoding = Encoding(self.game)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"{env_name(game_name)}: render_mode must be one of "
                f"{self.metadata['render_modes']}, got {render_mode!r}"
            )
        self.metadata = {**type(self).metadata, "name": env_name(game_name)}
        self.render_mode = render_mode
        self.render_seat = render_seat
        self.max_steps = max_steps
        n = self.game.num_players
        self.possible_agents = [f"player_{seat}" for seat in range(n)]
        self._seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    -np.inf, np.inf, (self.encoding.observation_size,), np.float32
                ),
                "action_mask": spaces.Box(0, 1, (self.encoding.num_actions,), np.int8),
            }
        )
        self.observation_spaces = {
            agent: obs_space if i == 0 else spaces.Dict(dict(obs_space.spaces))
            for i, agent in enumerate(self.possible_agents)
        }
        self.action_spaces = {
            agent: spaces.Discrete(self.encoding.num_actions) for agent in self.possible_agents
        }
        self.state: State | None = None
        self._master_seed: int | None = None
        self._episode = 0
        self._steps = 0
        self._legal: dict | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # -- episode ------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        # A seed fixes the whole sequence of episodes that follow; without one the first reset
        # draws a master seed from the OS and later resets continue its sequence.
        if seed is not None:
            self._master_seed, self._episode = int(seed), 0
        elif self._master_seed is None:
            self._master_seed, self._episode = int(np.random.SeedSequence().entropy % 2**63), 0
        game_seed = derive_seed(self._master_seed, self._episode)
        self._episode += 1
        # Agents read views, never events: the game is silenced (State.silence).
        self.state = self.game.new_initial_state(seed=game_seed).silence()
        self._steps = 0
        self._legal = None
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.state.current_player()]

    def _legal_now(self) -> dict:
        if self._legal is None:
            self._legal = self.encoding.legal_by_index(self.state)
        return self._legal

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat_of[agent]
        state = self.state
        observation = self.encoding.observe_state(state, seat)
        if not state.is_terminal() and seat == state.current_player():
            mask = self.encoding.mask(self._legal_now())
        else:
            mask = np.zeros(self.encoding.num_actions, dtype=np.int8)
        return {"observation": observation, "action_mask": mask}

    def view(self, agent: str) -> dict[str, Any]:
        """The structured view of `agent`'s seat (JSON-safe dict, see docs/protocol.md)."""
        return self.state.view(self._seat_of[agent])

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        legal = self._legal_now()
        index = int(action)
        if index not in legal:
            raise IllegalAction(
                f"{self.metadata['name']}: action index {index} is not legal for {agent} "
                f"(legal: {sorted(legal)})"
            )
        self._cumulative_rewards[agent] = 0.0
        self.state.apply_action(legal[index])
        self._legal = None
        self._steps += 1
        state = self.state
        if state.is_terminal():
            returns = state.returns()
            self.rewards = {a: float(returns[self._seat_of[a]]) for a in self.agents}
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            if self.max_steps is not None and self._steps >= self.max_steps:
                self.truncations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.possible_agents[state.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn(
                f"{self.metadata['name']}: render() called without a render_mode; "
                "pass render_mode='ansi' or 'human'"
            )
            return None
        text = self.game.render(self.state, self.render_seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.state = None


def env(game_name: str, num_players: int | None = None, **kwargs: Any) -> AECEnv:
    """A robotable game as a wrapped PettingZoo AEC env (illegal moves end the game)."""
    environment = raw_env(game_name, num_players=num_players, **kwargs)
    environment = wrappers.TerminateIllegalWrapper(environment, illegal_reward=-1)
    environment = wrappers.AssertOutOfBoundsWrapper(environment)
    return wrappers.OrderEnforcingWrapper(environment)


def _versioned_module(game_name: str) -> types.SimpleNamespace:
    def make_env(num_players: int | None = None, **kwargs: Any) -> AECEnv:
        return env(game_name, num_players=num_players, **kwargs)

    def make_raw_env(num_players: int | None = None, **kwargs: Any) -> raw_env:
        return raw_env(game_name, num_players=num_players, **kwargs)

    return types.SimpleNamespace(env=make_env, raw_env=make_raw_env, name=env_name(game_name))


def __getattr__(name: str) -> types.SimpleNamespace:
    # `robotable.envs.pettingzoo.stakbots_v0.env(...)`, PettingZoo's versioned-module idiom.
    game, sep, version = name.rpartition("_v")
    if sep and version == str(ENV_VERSION) and game in game_names():
        return _versioned_module(game)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
