"""Speed of the matchbox learners: prints figures, asserts nothing.

    python benchmarks/bench_matchbox.py

Targets: 50 HERs x 200 games against Sharp in under 2 s; 10,000 MENACE training games against
random in under 3 s (OpenSpiel's tabular Q-learner: about 2.5 s for 10,000 tic-tac-toe episodes).
Each figure is the best of three runs after a warm-up, except the cold table build.
"""

from __future__ import annotations

import time
from collections.abc import Callable


def best_of(runs: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    start = time.perf_counter()
    from gamelearn.players.matchbox.fast import fast_tables, game_seed, train_her, train_menace

    fast_tables("hexapawn")
    fast_tables("tictactoe")
    print(f"tables (both games, cold, with the solver's best moves): {time.perf_counter() - start:.2f} s")

    def fifty_hers() -> None:
        for learner in range(50):
            train_her([game_seed(1, learner, g) for g in range(200)], "sharp")

    def menace_10000() -> None:
        train_menace([game_seed(1, 0, g) for g in range(10_000)], "random")

    print(f"fast path: 50 HERs x 200 games against Sharp: {best_of(3, fifty_hers):.3f} s (target < 2 s)")
    print(f"fast path: 10,000 MENACE games against random: {best_of(3, menace_10000):.3f} s (target < 3 s)")

    import gamelearn
    from gamelearn.match import play_game
    from gamelearn.players.matchbox import HerPlayer, MenacePlayer

    hexapawn, tictactoe = gamelearn.get_game("hexapawn"), gamelearn.get_game("tictactoe")

    def fifty_hers_slow() -> None:
        sharp = gamelearn.make_player(hexapawn, "sharp")
        for learner in range(50):
            her = HerPlayer(hexapawn)
            for g in range(200):
                play_game(hexapawn, [sharp, her], seed=game_seed(1, learner, g))

    def menace_slow() -> None:
        menace, other = MenacePlayer(tictactoe), gamelearn.make_player(tictactoe, "random")
        for g in range(10_000):
            play_game(tictactoe, [menace, other], seed=game_seed(1, 0, g))

    print(f"Player objects through play_game, same games: 50 HERs x 200 vs Sharp: {best_of(1, fifty_hers_slow):.2f} s")
    print(f"Player objects through play_game, same games: 10,000 MENACE vs random: {best_of(1, menace_slow):.2f} s")

    try:
        from open_spiel.python import rl_environment
        from open_spiel.python.algorithms import tabular_qlearner
    except ImportError:
        print("OpenSpiel not installed: no comparison")
        return

    def openspiel_q() -> None:
        env = rl_environment.Environment("tic_tac_toe")
        actions = env.action_spec()["num_actions"]
        agents = [tabular_qlearner.QLearner(player_id=i, num_actions=actions) for i in range(2)]
        for _ in range(10_000):
            step = env.reset()
            while not step.last():
                player = step.observations["current_player"]
                output = agents[player].step(step)
                step = env.step([output.action])
            for agent in agents:
                agent.step(step)

    print(f"OpenSpiel tabular Q-learning, 10,000 tic-tac-toe episodes (self-play): {best_of(1, openspiel_q):.2f} s")


if __name__ == "__main__":
    main()
