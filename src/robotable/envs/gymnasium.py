"""Every robotable game as a single-agent Gymnasium environment against robotable agents.

    import gymnasium
    import robotable.envs.gymnasium  # registers robotable/StakBots-v0, robotable/BreadWinner-v0, ...
    env = gymnasium.make("robotable/StakBots-v0", opponents="mcts:100", num_players=2)
    obs, info = env.reset(seed=3)
    mask = info["action_mask"]

Without the import, `gymnasium.make("robotable.envs.gymnasium:robotable/StakBots-v0")` imports
and registers in one go (Gymnasium's "module:id" form).

The learner plays one seat (`seat=0` by default, or `seat="random"` for a fresh seat each
episode); every other seat is a robotable agent built with `make_agent(spec, seed)`:
`opponents="mcts:100"` gives all of them the same spec, a list gives one spec per other seat.
Opponents are re-created at each reset with seeds drawn from the episode's seed, so a seeded
episode replays exactly (time-budgeted agents such as "mcts:time=0.1" are the exception).

Observation: float32[observation_size] from `view(seat)`; action: Discrete(num_actions); the
legal-action mask is `info["action_mask"]` (int8) after reset and every step. The reward is 0
until the game ends, then `returns()[seat]`. An illegal action ends the episode with
`illegal_reward` (default -1) and `info["illegal_action"] = True`, so an unmasked random policy
(as `check_env` uses) gets a clear signal instead of an exception.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ..core.protocol import State
from ..core.registry import game_names, load_game
from .encoding import Encoding

ENV_VERSION = 0

# A game that ends before the learner's first decision teaches nothing: it is dealt again, up to
# this many times.
DEALS = 100

# Gymnasium ids use the games' own capitalisation; other games get their name capitalised.
_ID_NAMES = {
    "stakbots": "StakBots",
    "breadwinner": "BreadWinner",
    "iotabots": "IotabotsTCG",
    "betabotz": "Betabotz",
    "rumblebots": "Rumblebots",
}


def env_id(game_name: str) -> str:
    """The Gymnasium id of a game: stakbots -> robotable/StakBots-v0."""
    return f"robotable/{_ID_NAMES.get(game_name, game_name.capitalize())}-v{ENV_VERSION}"


class RobotableEnv(gymnasium.Env):
    """One seat of a robotable game; the other seats are played by robotable agents."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}

    def __init__(
        self,
        game: str = "stakbots",
        num_players: int | None = None,
        opponents: str | list[str] | tuple[str, ...] = "random",
        seat: int | str = 0,
        render_mode: str | None = None,
        illegal_reward: float = -1.0,
        **options: Any,
    ) -> None:
        from ..agents import make_agent, parse_agent_spec

        self.game = load_game(game, num_players=num_players, **options)
        self.encoding = Encoding(self.game)
        n = self.game.num_players
        specs = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != n - 1:
            raise ValueError(
                f"{env_id(game)}: {n} seats need {n - 1} opponent specs, got {len(specs)}"
            )
        for spec in specs:
            parse_agent_spec(spec)  # a bad spec fails here, not at the first reset
        self._make_agent = make_agent
        self.opponent_specs = specs
        if seat != "random" and not (isinstance(seat, int) and 0 <= seat < n):
            raise ValueError(f"{env_id(game)}: seat must be 0..{n - 1} or 'random', got {seat!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"{env_id(game)}: unknown render_mode {render_mode!r}")
        self.seat_choice = seat
        self.render_mode = render_mode
        self.illegal_reward = float(illegal_reward)
        self.observation_space = spaces.Box(
            -np.inf, np.inf, (self.encoding.observation_size,), np.float32
        )
        self.action_space = spaces.Discrete(self.encoding.num_actions)
        self.seat = 0 if seat == "random" else seat
        self.state: State | None = None
        self.opponents: dict[int, Any] = {}
        self._legal: dict = {}

    # -- helpers ------------------------------------------------------------------------------
    def _play_opponents(self) -> None:
        """The opponents' moves up to the learner's decision or the end, one by one."""
        while (agent := self._opponents_until_batch()) is not None:
            self.state.apply_action(agent.act(self.state))

    def _opponents_until_batch(self) -> Any:
        """Play the opponents that act one by one up to the learner's decision or the end, or
        up to an opponent that acts in batch (a trained policy, `batch_key` not None); that
        agent, or None. The vector env gives such agents their moves together, one forward pass
        for every sub-env waiting on the same policy (envs/vector.py, `act_batch`)."""
        state = self.state
        while not state.is_terminal() and (seat := state.current_player()) != self.seat:
            agent = self.opponents[seat]
            if getattr(agent, "batch_key", None) is not None:
                return agent
            state.apply_action(agent.act(state))
        return None

    def _observe(self, **extra: Any) -> tuple[np.ndarray, dict[str, Any]]:
        state = self.state
        if state.is_terminal():
            self._legal = {}
        else:
            self._legal = self.encoding.legal_by_index(state)
        info = {"action_mask": self.encoding.mask(self._legal), **extra}
        return self.encoding.observe_state(state, self.seat), info

    def view(self) -> dict[str, Any]:
        """The learner's structured view (JSON-safe dict, see docs/protocol.md)."""
        return self.state.view(self.seat)

    # -- Gymnasium API --------------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self._deal()
        return self._observe()

    def _deal(self) -> None:
        """A new game from this env's RNG: the learner's seat, the opponents, the state played
        up to the learner's first decision (the vector envs share it, envs/vector.py)."""
        self._choose_seat()
        for _ in range(DEALS):
            self._new_game()
            self._play_opponents()
            if not self.state.is_terminal():
                break

    def _choose_seat(self) -> None:
        if self.seat_choice == "random":
            self.seat = int(self.np_random.integers(self.game.num_players))

    def _new_game(self) -> None:
        """Fresh opponents and a fresh state from this env's RNG, before any move."""
        rng = self.np_random
        others = [s for s in range(self.game.num_players) if s != self.seat]
        self.opponents = {
            s: self._make_agent(spec, seed=int(rng.integers(2**31)))
            for s, spec in zip(others, self.opponent_specs)
        }
        # A learner reads views, never events: the game is silenced (State.silence).
        self.state = self.game.new_initial_state(seed=int(rng.integers(2**62))).silence()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self.state is None or self.state.is_terminal():
            raise RuntimeError(f"{env_id(self.game.name)}: step() after the end; call reset()")
        chosen = self._legal.get(int(action))
        if chosen is None:
            observation, info = self._observe(illegal_action=True)
            info["action_mask"] = np.zeros_like(info["action_mask"])
            self.state = None
            return observation, self.illegal_reward, True, False, info
        reward, terminated = self._advance(chosen)
        observation, info = self._observe()
        if self.render_mode == "human":
            self.render()
        return observation, reward, terminated, False, info

    def _advance(self, chosen: Any) -> tuple[float, bool]:
        """Play the learner's legal action and the opponents' moves up to its next decision;
        the reward and whether the game ended."""
        self.state.apply_action(chosen)
        self._play_opponents()
        return self._outcome()

    def _outcome(self) -> tuple[float, bool]:
        """The reward and whether the game ended, at the learner's decision or the end."""
        state = self.state
        if state.is_terminal():
            return float(state.returns()[self.seat]), True
        return 0.0, False

    def render(self) -> str | None:
        if self.render_mode is None or self.state is None:
            return None
        text = self.game.render(self.state, self.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def action_masks(self) -> np.ndarray:
        """The current legal-action mask (the name sb3-contrib's MaskablePPO looks for)."""
        return self.encoding.mask(self._legal)


def register_envs() -> list[str]:
    """Register every known game (call again after `register_game` adds one); returns the ids."""
    ids = []
    for name in game_names():
        game_id = env_id(name)
        if game_id not in gymnasium.registry:
            gymnasium.register(
                id=game_id,
                entry_point="robotable.envs.gymnasium:RobotableEnv",
                # gymnasium.make_vec(id, num_envs=N): N games stepped together in one process.
                vector_entry_point="robotable.envs.vector:RobotableVectorEnv",
                kwargs={"game": name},
            )
        ids.append(game_id)
    return ids


register_envs()
