"""Engine benchmark: complete random legal games per second on one core.

Run by hand: ``python benchmarks/engine.py [--seconds S]``. Prints the rate for the base
game and for all twelve advanced rules at once (5 players); the last line is
``engine_games_per_second: N`` (base game).
"""

from __future__ import annotations

import argparse
import random
import time

from dame_nature.engine import MODES, Game, play_random_game


def games_per_second(
    modes: tuple[str, ...], seconds: float, players: int = 5
) -> tuple[float, float]:
    """(games per second, actions per game) over at least ``seconds`` of play."""
    game = Game(players, modes)
    done = actions = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds or done == 0:
        state = game.new_initial_state(seed=done)
        play_random_game(state, random.Random(done))
        actions += len(state.history)
        done += 1
    return done / elapsed, actions / done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0, help="time per configuration")
    args = parser.parse_args()
    base, base_actions = games_per_second((), args.seconds)
    everything, all_actions = games_per_second(MODES, args.seconds)
    print(f"base game, 5 players: {base:.0f} games/s ({base_actions:.0f} actions/game)")
    print(f"all twelve rules, 5 players: {everything:.0f} games/s ({all_actions:.0f} actions/game)")
    print(f"engine_games_per_second: {base:.0f}")


if __name__ == "__main__":
    main()
