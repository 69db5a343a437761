"""Train a masked policy (MaskablePPO, sb3-contrib) on one seat of a game: `robotable train`.

    robotable train stakbots --opponents medium --steps 1000000 --out runs/stakbots-0 --seed 0

The learner plays a seat drawn afresh each episode against `opponents` (any agent spec, a named
level by default), in `num_envs` games stepped together (envs/vector.py, or envs/parallel.py with
`workers`). The run's folder holds:

- `checkpoint.zip` and `run.json`: the model and the run so far, written every
  `checkpoint_every` steps; running the same command again resumes from them;
- `progress.jsonl`: one line per evaluation (env steps, wall-clock and CPU seconds, and the
  greedy policy's mean return against each of `eval_levels` over `eval_games` seeded games, with
  a 95% interval), the learning curve docs/benchmark.md draws;
- `policy.zip` and `policy.json` at the end: the player `policy:FOLDER` (agents/policy.py).

Needs the `[train]` extra (PyTorch, sb3-contrib); nothing else in robotable imports this module.
"""

from __future__ import annotations

import json
import math
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode

from ..core.errors import OptionError
from ..core.registry import load_game
from .encoding import Encoding
from .vector import RobotableVectorEnv

CHECKPOINT = "checkpoint.zip"
RUN = "run.json"
PROGRESS = "progress.jsonl"


def _require_train_extra() -> Any:
    try:
        import sb3_contrib
    except ImportError:
        raise OptionError(
            "robotable train needs PyTorch and sb3-contrib: pip install 'robotable[train]'"
        ) from None
    return sb3_contrib


def sb3_vec_env(envs: Any) -> Any:
    """A robotable vector env (SAME_STEP autoreset) seen as Stable-Baselines3's VecEnv."""
    from stable_baselines3.common.vec_env import VecEnv

    class RobotableSB3VecEnv(VecEnv):
        def __init__(self) -> None:
            super().__init__(envs.num_envs, envs.single_observation_space, envs.single_action_space)
            self.envs = envs
            self._actions: np.ndarray | None = None
            self._next_seed: int | None = None

        def reset(self) -> np.ndarray:
            seeds = [s for s in self._seeds if s is not None]
            seed = seeds[0] if seeds else self._next_seed
            self._reset_seeds()
            observations, infos = envs.reset(seed=seed)
            return observations

        def step_async(self, actions: np.ndarray) -> None:
            self._actions = actions

        def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict]]:
            observations, rewards, terminations, truncations, infos = envs.step(self._actions)
            dones = terminations | truncations
            out = [{} for _ in range(self.num_envs)]
            if "final_obs" in infos:
                for i in np.flatnonzero(infos["_final_obs"]).tolist():
                    out[i]["terminal_observation"] = infos["final_obs"][i]
                    out[i]["TimeLimit.truncated"] = bool(truncations[i])
            return observations, rewards.astype(np.float32), dones, out

        def close(self) -> None:
            envs.close()

        def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
            return [getattr(envs, attr_name)] * len(self._get_indices(indices))

        def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
            setattr(envs, attr_name, value)

        def env_method(self, method_name: str, *args: Any, indices: Any = None, **kw: Any) -> list:
            if method_name == "action_masks":  # what sb3-contrib's get_action_masks calls
                masks = envs.action_masks().astype(bool)
                return [masks[i] for i in self._get_indices(indices)]
            raise AttributeError(f"robotable vector env: no method {method_name!r} per sub-env")

        def env_is_wrapped(self, wrapper_class: Any, indices: Any = None) -> list[bool]:
            return [False] * len(self._get_indices(indices))

    return RobotableSB3VecEnv()


def evaluate(
    model: Any,
    game: str,
    opponent: str,
    games: int,
    seed: int,
    num_players: int | None = None,
    **options: Any,
) -> dict[str, float]:
    """The greedy policy's mean return against `opponent` over `games` seeded games (the seat
    alternating), with a 95% normal interval."""
    from .gymnasium import RobotableEnv

    env = RobotableEnv(game, num_players=num_players, opponents=opponent, seat="random", **options)
    returns = []
    for k in range(games):
        observation, info = env.reset(seed=seed + k)
        done = False
        reward = 0.0
        while not done:
            action, _ = model.predict(
                observation, action_masks=info["action_mask"].astype(bool), deterministic=True
            )
            observation, reward, done, _, info = env.step(int(action))
        returns.append(float(reward))
    mean = float(np.mean(returns))
    half = 1.96 * math.sqrt(max(mean * (1 - mean), 0.0) / len(returns))
    return {"mean": mean, "low": max(0.0, mean - half), "high": min(1.0, mean + half)}


def train(
    game: str,
    out: str | Path,
    steps: int,
    opponents: str = "medium",
    num_players: int | None = None,
    num_envs: int = 8,
    workers: int = 0,
    seed: int = 0,
    eval_every: int = 50_000,
    eval_games: int = 100,
    eval_levels: tuple[str, ...] = ("random", "easy", "medium"),
    checkpoint_every: int = 50_000,
    ppo: dict[str, Any] | None = None,
    say: Callable[[str], None] | None = None,
    **options: Any,
) -> dict[str, Any]:
    """Train (or resume) the run in `out` to `steps` env steps; the run's summary."""
    sb3_contrib = _require_train_extra()
    import torch
    from stable_baselines3.common.callbacks import BaseCallback

    say = say or (lambda text: print(text, file=sys.stderr, flush=True))
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    config = {
        "game": game,
        "num_players": num_players,
        "opponents": opponents,
        "num_envs": num_envs,
        "seed": seed,
        "options": options,
        "ppo": dict(ppo or {}),
    }
    run_file = folder / RUN
    run = json.loads(run_file.read_text(encoding="utf-8")) if run_file.is_file() else None
    if run is not None and run["config"] != config:
        raise OptionError(
            f"robotable train: {folder} holds a run of other settings ({run['config']}); "
            "choose another --out"
        )
    torch.set_num_threads(1)
    kwargs = dict(num_players=num_players, opponents=opponents, seat="random", **options)
    if workers:
        from .parallel import ParallelVectorEnv

        vector = ParallelVectorEnv(
            game,
            num_envs=num_envs,
            workers=workers,
            autoreset_mode=AutoresetMode.SAME_STEP,
            **kwargs,
        )
    else:
        vector = RobotableVectorEnv(
            game, num_envs=num_envs, autoreset_mode=AutoresetMode.SAME_STEP, **kwargs
        )
    venv = sb3_vec_env(vector)
    checkpoint = folder / CHECKPOINT
    if run is not None and checkpoint.is_file():
        model = sb3_contrib.MaskablePPO.load(str(checkpoint), env=venv, device="cpu")
        say(f"resuming {folder} at {model.num_timesteps:,} of {steps:,} steps")
    else:
        run = {"config": config, "seconds": 0.0, "cpu_seconds": 0.0}
        venv._next_seed = seed
        model = sb3_contrib.MaskablePPO(
            "MlpPolicy", venv, seed=seed, device="cpu", verbose=0, **(ppo or {})
        )
    progress_file = folder / PROGRESS
    start_wall, start_cpu = time.perf_counter(), time.process_time()
    base_wall, base_cpu = run["seconds"], run["cpu_seconds"]

    def save() -> None:
        run["seconds"] = base_wall + time.perf_counter() - start_wall
        run["cpu_seconds"] = base_cpu + time.process_time() - start_cpu
        run["steps"] = int(model.num_timesteps)
        model.save(str(checkpoint))
        run_file.write_text(json.dumps(run, indent=1) + "\n", encoding="utf-8")

    def evaluate_now() -> None:
        row: dict[str, Any] = {
            "steps": int(model.num_timesteps),
            "seconds": round(base_wall + time.perf_counter() - start_wall, 1),
            "cpu_seconds": round(base_cpu + time.process_time() - start_cpu, 1),
        }
        for level in eval_levels:
            row[level] = evaluate(
                model, game, level, eval_games, 10**6, num_players=num_players, **options
            )
        with progress_file.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(row) + "\n")
        scores = ", ".join(f"{level} {row[level]['mean']:.2f}" for level in eval_levels)
        say(f"{row['steps']:>10,} steps {row['seconds']:>8.0f} s  vs {scores}")

    class Progress(BaseCallback):
        def __init__(self) -> None:
            super().__init__()
            self.next_eval = (model.num_timesteps // eval_every + 1) * eval_every
            self.next_save = (model.num_timesteps // checkpoint_every + 1) * checkpoint_every

        def _on_step(self) -> bool:
            now = self.model.num_timesteps
            if now >= self.next_save:
                save()
                self.next_save += checkpoint_every
            if eval_games and now >= self.next_eval:
                evaluate_now()
                self.next_eval += eval_every
            return True

    try:
        if eval_games and model.num_timesteps == 0:
            evaluate_now()  # the untrained policy: the curve's first point
        remaining = steps - model.num_timesteps
        if remaining > 0:
            model.learn(remaining, callback=Progress(), reset_num_timesteps=False)
        save()
    finally:
        venv.close()
    model.save(str(folder / "policy.zip"))
    encoding = Encoding(load_game(game, num_players=num_players, **options))
    meta = {
        "game": game,
        "num_players": encoding.game.num_players,
        "options": options,
        "observation_size": encoding.observation_size,
        "num_actions": encoding.num_actions,
        "opponents": opponents,
        "steps": int(model.num_timesteps),
        "seed": seed,
    }
    (folder / "policy.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    return {**meta, "seconds": run["seconds"], "cpu_seconds": run["cpu_seconds"]}
