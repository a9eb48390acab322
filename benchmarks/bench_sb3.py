"""sb3-contrib's MaskablePPO learns tic-tac-toe against a random opponent through gamelearn's
Gymnasium environment, built the way Stable-Baselines3 users build one (docs/envs.md):

    pip install stable-baselines3 sb3-contrib   # torch comes with them; not a test dependency
    python benchmarks/bench_sb3.py              # 60,000 steps, then 1,000 graded games
    python benchmarks/bench_sb3.py --steps 20000 --games 500 --seed 2

``make_vec_env("gamelearn/tictactoe-v0", n_envs=2)`` (which asks for ``render_mode="rgb_array"``)
feeds PPO (Schulman et al. 2017) with invalid actions masked out (Huang & Ontanon 2022), the
masks read from the environment's ``action_masks()``.  The trained policy then plays ``--games``
fresh games as X against the same opponent, greedily (``deterministic=True``), and the wins, draws
and losses are printed with the training's CPU and wall time.  Torch is held to one thread: the
machine this was written on has 2 cores shared with other work.
"""

from __future__ import annotations

import argparse
import sys
import time


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--steps", type=int, default=60_000, help="training steps (agent moves)")
    parser.add_argument("--games", type=int, default=1_000, help="games played after the training")
    parser.add_argument("--opponent", default="random", help="a gamelearn player spec (default: random)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    try:
        import torch
        from sb3_contrib import MaskablePPO
        from stable_baselines3.common.env_util import make_vec_env
    except ModuleNotFoundError as missing:
        print(f"bench_sb3 needs stable-baselines3 and sb3-contrib ({missing.name} is not installed)", file=sys.stderr)
        return 2

    import gamelearn.envs  # registers gamelearn/tictactoe-v0

    torch.set_num_threads(1)
    env_kwargs = {"opponent": args.opponent, "agent_side": 0}
    training = make_vec_env("gamelearn/tictactoe-v0", n_envs=2, seed=args.seed, env_kwargs=env_kwargs)
    model = MaskablePPO("MultiInputPolicy", training, seed=args.seed, verbose=0)
    cpu, wall = time.process_time(), time.perf_counter()
    model.learn(total_timesteps=args.steps)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall

    grading = gamelearn.envs.SingleAgentEnv("tictactoe", args.opponent, agent_side=0)
    outcomes = {1.0: 0, 0.0: 0, -1.0: 0}
    illegal = 0
    for game in range(args.games):
        observation, _ = grading.reset(seed=args.seed * 1_000_003 + game)
        done, reward, info = False, 0.0, {}
        while not done:
            action, _ = model.predict(observation, action_masks=grading.action_masks(), deterministic=True)
            observation, reward, terminated, truncated, info = grading.step(int(action))
            done = terminated or truncated
        illegal += "illegal_move" in info
        outcomes[reward] += 1
    share = {
        name: 100 * outcomes[value] / args.games for name, value in (("wins", 1.0), ("draws", 0.0), ("losses", -1.0))
    }
    print(
        f"MaskablePPO, tic-tac-toe as X against {args.opponent}: {args.steps:,} steps in {cpu:.0f} s of CPU "
        f"({wall:.0f} s wall, torch {torch.__version__}, 1 thread)"
    )
    print(
        f"{args.games:,} games, greedy: {share['wins']:.1f}% wins, {share['draws']:.1f}% draws, "
        f"{share['losses']:.1f}% losses; {illegal} illegal moves"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
