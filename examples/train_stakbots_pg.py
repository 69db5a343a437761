"""Train a small masked policy-gradient agent on Stak Bots and measure it against random play.

    pip install 'robotable[rl]' torch          # CPU build is enough
    python examples/train_stakbots_pg.py --episodes 2000

The agent is an actor-critic (REINFORCE with a learned baseline) over the Gymnasium adapter:
one seat of a two-seat game, the other seat played by robotable's random agent, the learner's
seat drawn at random each episode. Illegal actions are never sampled: their logits are masked
with `info["action_mask"]` before the softmax. The observation is the game's own encoding of
the learner's view (docs/rl.md). Everything runs on the CPU in a few minutes.
"""

from __future__ import annotations

import argparse
import time

import gymnasium
import numpy as np
import torch
from torch import nn

import robotable.envs.gymnasium  # noqa: F401  (registers robotable/StakBots-v0)


class Policy(nn.Module):
    def __init__(self, obs_size: int, num_actions: int, hidden: int = 128) -> None:
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(obs_size, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU()
        )
        self.logits = nn.Linear(hidden, num_actions)
        self.value = nn.Linear(hidden, 1)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.body(obs)
        logits = self.logits(h).masked_fill(mask == 0, -1e9)
        return logits, self.value(h).squeeze(-1)


def play_episode(env, policy: Policy, seed: int, greedy: bool = False):
    obs, info = env.reset(seed=seed)
    log_probs, values, entropies = [], [], []
    reward, done = 0.0, False
    while not done:
        o = torch.as_tensor(obs).unsqueeze(0)
        m = torch.as_tensor(info["action_mask"]).unsqueeze(0)
        logits, value = policy(o, m)
        dist = torch.distributions.Categorical(logits=logits)
        action = logits.argmax(-1) if greedy else dist.sample()
        log_probs.append(dist.log_prob(action))
        entropies.append(dist.entropy())
        values.append(value)
        obs, reward, terminated, truncated, info = env.step(int(action))
        done = terminated or truncated
    return log_probs, values, entropies, reward


def win_rate(env, policy: Policy, games: int, seed: int) -> float:
    with torch.no_grad():
        total = sum(play_episode(env, policy, seed + i, greedy=True)[3] for i in range(games))
    return total / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=2000)
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--lr", type=float, default=1e-3)
    args = parser.parse_args()

    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    env = gymnasium.make("robotable/StakBots-v0", opponents="random", seat="random")
    policy = Policy(env.observation_space.shape[0], env.action_space.n)
    optimiser = torch.optim.Adam(policy.parameters(), lr=args.lr)
    eval_seed = 10**6  # evaluation deals never seen in training

    before = win_rate(env, policy, args.eval_games, eval_seed)
    print(f"untrained policy vs random: win rate {before:.3f} over {args.eval_games} games")
    start = time.perf_counter()
    recent: list[float] = []
    batch: list[torch.Tensor] = []
    for episode in range(args.episodes):
        log_probs, values, entropies, reward = play_episode(env, policy, args.seed + episode)
        # One terminal reward (1 win, 0 loss): every decision's return is that reward.
        values_t = torch.cat(values)
        advantage = reward - values_t.detach()
        loss = (
            -(torch.cat(log_probs) * advantage).sum()
            + 0.5 * ((values_t - reward) ** 2).sum()
            - 0.01 * torch.cat(entropies).sum()
        )
        batch.append(loss)
        recent.append(reward)
        if len(batch) == 16:
            optimiser.zero_grad()
            torch.stack(batch).mean().backward()
            optimiser.step()
            batch.clear()
        if (episode + 1) % 1000 == 0:
            print(
                f"episode {episode + 1}: training win rate (last 1000) {np.mean(recent):.3f}, "
                f"{time.perf_counter() - start:.0f} s"
            )
            recent.clear()
    after = win_rate(env, policy, args.eval_games, eval_seed)
    print(
        f"trained policy vs random: win rate {after:.3f} over {args.eval_games} games "
        f"(training took {time.perf_counter() - start:.0f} s on the CPU)"
    )


if __name__ == "__main__":
    main()
