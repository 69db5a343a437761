"""N robotable games stepped together as one Gymnasium vector environment.

    from robotable.envs.vector import RobotableVectorEnv
    envs = RobotableVectorEnv("stakbots", num_envs=64, opponents="random")
    obs, infos = envs.reset(seed=3)            # sub-env i is seeded 3 + i
    mask = infos["action_mask"]                 # int8 (num_envs, num_actions)
    obs, rewards, terminations, truncations, infos = envs.step(actions)

or `gymnasium.make_vec("robotable/StakBots-v0", num_envs=64, vectorization_mode="vector_entry_point")`.

Each sub-env is exactly `RobotableEnv` (robotable.envs.gymnasium) with the same arguments: the
same observations, masks, rewards and episode ends for the same seed and actions (tested). What
differs from wrapping it in Gymnasium's `SyncVectorEnv` is the bookkeeping: the batch lives in
preallocated arrays that each sub-env's observation and mask are written into in place (by
compiled code in the compiled engine, envs/rows.py), no per-sub-env info dict or array is made,
and infos carry only the action mask
(and `illegal_action` where it happened), in Gymnasium's vector layout (`infos[key]` an array
over sub-envs, `infos["_" + key]` which sub-envs have it). Everything runs in this process;
`robotable.envs.parallel.ParallelVectorEnv` splits the sub-envs over worker processes that write
into shared memory (docs/performance.md compares them with Gymnasium's `AsyncVectorEnv`).

Autoreset follows `metadata["autoreset_mode"]`, Gymnasium's default `NEXT_STEP` unless another
is asked: the step after an episode ends resets that sub-env (its action is ignored; reward 0).
`SAME_STEP` resets within the ending step and puts the ended episode's last observation and info
in `infos["final_obs"]` and `infos["final_info"]`; `DISABLED` leaves resets to
`reset(options={"reset_mask": ...})`.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .gymnasium import DEALS, RobotableEnv


def step_infos(
    masks: np.ndarray, illegal: np.ndarray, final: dict[int, tuple[np.ndarray, dict[str, Any]]]
) -> dict[str, Any]:
    """A step's infos in Gymnasium's vector layout: the masks (a copy), `illegal_action` where
    an illegal action ended an episode, SAME_STEP's `final_obs` and `final_info`."""
    num_envs = len(masks)
    infos: dict[str, Any] = {
        "action_mask": masks.copy(),
        "_action_mask": np.ones(num_envs, dtype=np.bool_),
    }
    if illegal.any():
        infos["illegal_action"] = illegal.copy()
        infos["_illegal_action"] = illegal.copy()
    if final:
        has_final = np.zeros(num_envs, dtype=np.bool_)
        final_obs = np.empty(num_envs, dtype=object)
        final_info = np.empty(num_envs, dtype=object)
        for i, (observation, info) in final.items():
            has_final[i] = True
            final_obs[i], final_info[i] = observation, info
        infos.update(
            final_obs=final_obs,
            _final_obs=has_final,
            final_info=final_info,
            _final_info=has_final.copy(),
        )
    return infos


class RobotableVectorEnv(VectorEnv):
    """`num_envs` copies of `RobotableEnv(game, ...)`, stepped together in this process."""

    metadata = {"render_modes": [], "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(
        self,
        game: str = "stakbots",
        num_envs: int = 8,
        num_players: int | None = None,
        opponents: str | list[str] | tuple[str, ...] = "random",
        seat: int | str = 0,
        illegal_reward: float = -1.0,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        batch_opponents: bool = True,
        **options: Any,
    ) -> None:
        if not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(
                f"RobotableVectorEnv: num_envs must be a positive int, got {num_envs!r}"
            )
        self.autoreset_mode = AutoresetMode(autoreset_mode)
        # False: every opponent acts one by one, as in the single env (the batched path's
        # reference, envs/vector_bench.py's `unbatched` kind).
        self.batch_opponents = bool(batch_opponents)
        self.envs = [
            RobotableEnv(
                game,
                num_players=num_players,
                opponents=opponents,
                seat=seat,
                illegal_reward=illegal_reward,
                **options,
            )
            for _ in range(num_envs)
        ]
        first = self.envs[0]
        self.num_envs = num_envs
        self.metadata = {**type(self).metadata, "autoreset_mode": self.autoreset_mode}
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        size = self.single_observation_space.shape[0]
        self._observations = np.zeros((num_envs, size), dtype=np.float32)
        self._masks = np.zeros((num_envs, int(self.single_action_space.n)), dtype=np.int8)
        self._rewards = np.zeros(num_envs, dtype=np.float64)
        self._terminations = np.zeros(num_envs, dtype=np.bool_)
        self._illegal = np.zeros(num_envs, dtype=np.bool_)
        self._truncations = np.zeros(num_envs, dtype=np.bool_)
        self._autoreset = np.zeros(num_envs, dtype=np.bool_)
        # NEXT_STEP games dealt ahead (_deal_ahead): sub-env -> its RNG's state before the deal.
        self._dealt_ahead: dict[int, dict[str, Any]] = {}
        self._started = False

    # -- Gymnasium's VectorEnv API ----------------------------------------------------------------
    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Reset every sub-env (or those in `options["reset_mask"]`): an int seed gives sub-env
        i the seed `seed + i`, as Gymnasium's vector envs do."""
        seeds, reset_mask, options = self._reset_arguments(seed, options)
        self._reset_rows(seeds, reset_mask, options)
        infos = {"action_mask": self._masks.copy(), "_action_mask": reset_mask.copy()}
        return self._observations.copy(), infos

    def _reset_arguments(
        self, seed: Any, options: dict[str, Any] | None
    ) -> tuple[list[int | None], np.ndarray, dict[str, Any]]:
        if seed is None or isinstance(seed, int):
            seeds = [None if seed is None else seed + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(f"reset: {self.num_envs} sub-envs need {self.num_envs} seeds")
        options = dict(options or {})
        reset_mask = options.pop("reset_mask", None)
        if reset_mask is None:
            reset_mask = np.ones(self.num_envs, dtype=np.bool_)
        else:
            reset_mask = np.asarray(reset_mask, dtype=np.bool_)
            if reset_mask.shape != (self.num_envs,) or not reset_mask.any():
                raise ValueError(f"reset: reset_mask must be {self.num_envs} booleans, some true")
        return seeds, reset_mask, options

    def _reset_rows(
        self, seeds: list[int | None], reset_mask: np.ndarray, options: dict[str, Any]
    ) -> None:
        rows = np.flatnonzero(reset_mask).tolist()
        for i in rows:
            before = self._dealt_ahead.pop(i, None)
            if before is not None:  # a reset without a seed deals from where it would have
                self.envs[i].np_random.bit_generator.state = before
            gymnasium.Env.reset(self.envs[i], seed=seeds[i], options=options or None)
        self._deal_rows(rows)
        for i in rows:
            self._write(i, self.envs[i])
            self._autoreset[i] = False
        self._started = True

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        if not self._started:
            raise RuntimeError("RobotableVectorEnv: step() before reset()")
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise ValueError(f"step: expected {self.num_envs} actions, got shape {actions.shape}")
        illegal, final = self._step_rows(actions)
        infos = step_infos(self._masks, illegal, final)
        return (
            self._observations.copy(),
            self._rewards.copy(),
            self._terminations.copy(),
            self._truncations.copy(),
            infos,
        )

    def _step_rows(
        self, actions: np.ndarray
    ) -> tuple[np.ndarray, dict[int, tuple[np.ndarray, dict[str, Any]]]]:
        """Step every sub-env, writing observations, masks, rewards and ends into the batch
        arrays in place; which sub-envs made an illegal action (the batch's own array, rewritten
        each step), and SAME_STEP's final data. The learners' moves come first, then every
        sub-env's opponents together (_play_opponents_rows), then the new games dealt."""
        mode = self.autoreset_mode
        illegal = self._illegal
        illegal[:] = False
        final: dict[int, tuple[np.ndarray, dict[str, Any]]] = {}
        rewards, terminations = self._rewards, self._terminations
        autoreset = self._autoreset.tolist()
        moved: list[int] = []
        ended: list[int] = []  # a game over this step (or the last, NEXT_STEP): deal a new one
        for i, (env, action) in enumerate(zip(self.envs, actions.astype(np.int64).tolist())):
            if autoreset[i]:
                if mode is AutoresetMode.DISABLED:
                    raise RuntimeError(
                        f"sub-env {i} ended: reset it with reset(options={{'reset_mask': ...}})"
                    )
                rewards[i], terminations[i] = 0.0, False
                if self._dealt_ahead.pop(i, None) is None:
                    ended.append(i)
                else:
                    self._write(i, env)
                continue
            chosen = env._legal.get(action)
            if chosen is None:  # what RobotableEnv.step does with an illegal action
                self._write(i, env)
                self._masks[i] = 0
                env.state = None
                illegal[i] = True
                rewards[i], terminations[i] = env.illegal_reward, True
                if mode is AutoresetMode.SAME_STEP:
                    final[i] = self._final(i)
                    ended.append(i)
            else:
                env.state.apply_action(chosen)
                moved.append(i)
        self._play_opponents_rows(moved)
        for i in moved:
            env = self.envs[i]
            rewards[i], terminations[i] = env._outcome()
            self._write(i, env)
            if mode is AutoresetMode.SAME_STEP and terminations[i]:
                final[i] = self._final(i)
                ended.append(i)
        if ended:
            self._deal_rows(ended)
            for i in ended:
                self._write(i, self.envs[i])
        if mode is not AutoresetMode.SAME_STEP:
            self._autoreset[:] = terminations
        return illegal, final

    def _deal_ahead(self) -> None:
        """NEXT_STEP: deal now the games the next step starts in the sub-envs that just ended
        (their next action is ignored), so that a worker does it while the parent picks the
        actions (envs/parallel.py). The next step writes them; a reset deals again from the
        RNG's state kept here, the same game unless given a seed. If dealing fails, nothing
        was dealt: the next step deals, and fails where it is reported."""
        if self.autoreset_mode is not AutoresetMode.NEXT_STEP:
            return
        rows = [i for i in np.flatnonzero(self._autoreset).tolist() if i not in self._dealt_ahead]
        before = {i: self.envs[i].np_random.bit_generator.state for i in rows}
        try:
            self._deal_rows(rows)
        except Exception:
            for i, state in before.items():
                self.envs[i].np_random.bit_generator.state = state
            return
        self._dealt_ahead.update(before)

    def _final(self, i: int) -> tuple[np.ndarray, dict[str, Any]]:
        """SAME_STEP's record of sub-env i's ended episode: its last observation and info."""
        info: dict[str, Any] = {"action_mask": self._masks[i].copy()}
        if self._illegal[i]:
            info["illegal_action"] = True
        return self._observations[i].copy(), info

    def action_masks(self) -> np.ndarray:
        """The current masks, one row per sub-env (the name sb3-contrib looks for)."""
        return self._masks.copy()

    def close_extras(self, **kwargs: Any) -> None:
        for env in self.envs:
            env.close()

    # -- helpers ----------------------------------------------------------------------------------
    def _bind(
        self,
        observations: np.ndarray,
        masks: np.ndarray,
        rewards: np.ndarray,
        terminations: np.ndarray,
        illegal: np.ndarray,
    ) -> None:
        """Write into these arrays (a worker's rows of shared memory, envs/parallel.py)."""
        self._observations, self._masks = observations, masks
        self._rewards, self._terminations, self._illegal = rewards, terminations, illegal

    def _deal_rows(self, rows: list[int]) -> None:
        """`RobotableEnv._deal` for these sub-envs, their opponents' first moves played
        together: the same games, seats and opponents as dealing each on its own."""
        envs = self.envs
        deals = dict.fromkeys(rows, 1)
        for i in rows:
            envs[i]._choose_seat()
            envs[i]._new_game()
        while rows:
            self._play_opponents_rows(rows)
            rows = [i for i in rows if envs[i].state.is_terminal() and deals[i] < DEALS]
            for i in rows:  # over before the learner's first decision: deal again
                deals[i] += 1
                envs[i]._new_game()

    def _play_opponents_rows(self, rows: list[int]) -> None:
        """Every listed sub-env's opponents' moves up to the learner's decision or the end.
        Agents that act one by one (random, greedy, search) do so in each sub-env; the
        sub-envs waiting on agents of one `batch_key` (one trained policy) get their moves from
        one `act_batch` call, one forward pass over their stacked observations, round after
        round until none is waiting."""
        envs = self.envs
        if not self.batch_opponents:
            for i in rows:
                envs[i]._play_opponents()
            return
        while rows:
            waiting: dict[Any, list[tuple[int, Any]]] = {}
            for i in rows:
                agent = envs[i]._opponents_until_batch()
                if agent is not None:
                    waiting.setdefault(agent.batch_key, []).append((i, agent))
            rows = []
            for members in waiting.values():
                agents = [agent for _, agent in members]
                states = [envs[i].state for i, _ in members]
                for state, action in zip(states, type(agents[0]).act_batch(agents, states)):
                    state.apply_action(action)
                rows.extend(i for i, _ in members)

    def _write(self, i: int, env: RobotableEnv) -> None:
        """Sub-env i's observation and mask, written into row i (the env's legal actions kept
        for its next step)."""
        state = env.state
        encoding = env.encoding
        legal = {} if state.is_terminal() else encoding.legal_by_index(state, ordered=False)
        env._legal = legal
        encoding.mask_into(legal, self._masks, i)
        encoding.observe_state_into(state, env.seat, self._observations, i)
