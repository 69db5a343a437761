"""A trained policy as a player: `policy:PATH`, wherever an agent spec is taken.

PATH is what `robotable train` writes (envs/train.py): a run's folder, or its `policy.zip`
(a MaskablePPO model of sb3-contrib) with `policy.json` beside it, which names the game, the
seats and the encoding's sizes the policy was trained on. The agent encodes the deciding seat's
observation view (robotable.envs.encoding, the same observation the learner saw), masks the
illegal actions and plays the policy's most likely legal action (`sample=1` draws from the
masked distribution instead, with the agent's own seed).

Loading needs the `[train]` extra (PyTorch, sb3-contrib); a path that is not a trained policy, or
a policy of another game, fails in one line naming it.
"""

from __future__ import annotations

import contextlib
import functools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..core.errors import OptionError
from ..core.protocol import Action, State
from .base import Agent

POLICY_FILE = "policy.zip"
META_FILE = "policy.json"


def policy_files(path: str | Path) -> tuple[Path, Path]:
    """The model file and its description for `path` (a run's folder or its policy.zip);
    OptionError in one line when either is missing."""
    where = Path(path).expanduser()
    model = where / POLICY_FILE if where.is_dir() else where
    meta = model.with_name(META_FILE)
    if not model.is_file():
        raise OptionError(f"agent 'policy:{path}': no trained policy at {model}")
    if not meta.is_file():
        raise OptionError(
            f"agent 'policy:{path}': {meta.name} is missing beside {model.name} "
            "(a policy written by `robotable train` has both)"
        )
    return model, meta


def read_meta(path: str | Path) -> dict[str, Any]:
    """What a trained policy says about itself (policy.json)."""
    _, meta = policy_files(path)
    try:
        data = json.loads(meta.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise OptionError(f"agent 'policy:{path}': {meta} is not readable JSON ({exc})") from None
    if not isinstance(data, dict) or not isinstance(data.get("game"), str):
        raise OptionError(f"agent 'policy:{path}': {meta} does not name its game")
    return data


class PolicyAgent(Agent):
    """Plays the most likely legal action of a trained MaskablePPO policy."""

    name = "policy"

    def __init__(self, seed: int = 0, path: str = "", sample: int = 0) -> None:
        super().__init__(seed)
        self.path = path
        self.sample = bool(sample)
        self.meta = read_meta(path)
        model_file, _ = policy_files(path)
        self.model = _load_model(model_file, str(path))
        self._encoding: Any = None

    @property
    def batch_key(self) -> Any:
        """Agents of one key act together in a vector env (envs/vector.py): those playing the
        same loaded model deterministically. A sampling agent draws with its own seed, so it
        acts on its own (None)."""
        return None if self.sample else id(self.model)

    def _encoding_for(self, state: State) -> Any:
        from ..envs.encoding import Encoding

        game = state.game
        if self._encoding is None or self._encoding.game is not game:
            meta = self.meta
            if game.name != meta["game"] or game.num_players != meta.get("num_players"):
                raise OptionError(
                    f"agent 'policy:{self.path}': trained on {meta['game']} with "
                    f"{meta.get('num_players')} seats, asked to play {game.name} with "
                    f"{game.num_players}"
                )
            encoding = Encoding(game)
            sizes = (encoding.observation_size, encoding.num_actions)
            if sizes != (meta.get("observation_size"), meta.get("num_actions")):
                raise OptionError(
                    f"agent 'policy:{self.path}': trained on observations of "
                    f"{meta.get('observation_size')} and {meta.get('num_actions')} actions, "
                    f"this game has {sizes[0]} and {sizes[1]} (other options or rules)"
                )
            self._encoding = encoding
        return self._encoding

    def act(self, state: State) -> Action:
        if self.sample:
            import torch

            torch.manual_seed(self.rng.randrange(2**31))
        return self._predict([self], [state])[0]

    @staticmethod
    def act_batch(agents: list[PolicyAgent], states: list[State]) -> list[Action]:
        """Each agent's action for its state (agents of one `batch_key`: one model, playing
        deterministically), from one forward pass over the stacked observations and masks;
        `act` is the same pass over one row."""
        return PolicyAgent._predict(agents, states)

    @staticmethod
    def _predict(agents: list[PolicyAgent], states: list[State]) -> list[Action]:
        import numpy as np
        import torch

        observations, masks, legals = [], [], []
        for agent, state in zip(agents, states):
            encoding = agent._encoding_for(state)
            legal = encoding.legal_by_index(state)
            legals.append(legal)
            observations.append(encoding.observe_state(state, state.current_player()))
            masks.append(encoding.mask(legal).astype(bool))
        first = agents[0]
        # MaskablePPO.predict's own steps but one: the model is in eval mode since it was loaded
        # (predict sets the mode again each call, a walk over every layer, the cost of a pass).
        policy = first.model.policy
        with _one_torch_thread(), torch.no_grad():
            tensor, _ = policy.obs_to_tensor(np.stack(observations))
            distribution = policy.get_distribution(tensor, action_masks=np.stack(masks))
            indices = distribution.get_actions(deterministic=not first.sample).cpu().numpy()
        return [
            legal.get(index) or legal[next(iter(legal))]
            for legal, index in zip(legals, np.asarray(indices).reshape(-1).tolist())
        ]


@contextlib.contextmanager
def _one_torch_thread() -> Iterator[None]:
    """PyTorch on one thread for a forward pass: a few dozen observations through a small
    network take tens of microseconds on one, while a pool's threads split them and wait for
    each other (milliseconds on a busy machine, the batched opponents' case)."""
    import torch

    threads = torch.get_num_threads()
    if threads == 1:
        yield
        return
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(threads)


def _load_model(model_file: Path, path: str) -> Any:
    """The MaskablePPO model in `model_file`, loaded once while the file is unchanged: the
    opponents a vector env makes afresh each episode share it (and act in batch through it)."""
    stat = model_file.stat()
    return _cached_model(str(model_file.resolve()), stat.st_mtime_ns, stat.st_size, path)


@functools.lru_cache(maxsize=8)
def _cached_model(model_file: str, mtime_ns: int, size: int, path: str) -> Any:
    try:
        from sb3_contrib import MaskablePPO
    except ImportError:
        raise OptionError(
            f"agent 'policy:{path}': playing a trained policy needs PyTorch and sb3-contrib "
            "(pip install 'robotable[train]')"
        ) from None
    try:
        model = MaskablePPO.load(model_file, device="cpu")
    except Exception as exc:  # a corrupt or foreign zip: one line, not a traceback
        raise OptionError(f"agent 'policy:{path}': cannot load {model_file}: {exc}") from None
    model.policy.set_training_mode(False)  # it only plays
    return model
