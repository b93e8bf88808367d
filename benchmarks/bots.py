"""Bot strength benchmark: every seat a bot, fixed deals, on the engine.

Run by hand: ``python benchmarks/bots.py [--set held-out|tuning] [--deals N]
[--rule-deals N] [--mixed-deals N] [--counts 3,4,5,6] [--levels random,expert]
[--no-rules] [--rules a,b] [--solver-nodes N] [--jobs J]``.

Two sets of deals, by seed:

- the **tuning** set, seeds ``0..99,999`` (``TUNING_SEEDS``): what tuning runs, tests and
  experiments may read (``--set tuning``);
- the **held-out** set, seeds from ``1,000,000`` (``HELD_OUT_START``): what this benchmark
  reports by default and what nothing is ever tuned on. Deal ``i`` of a row is seed
  ``HELD_OUT_START + i``.

Rows, for each level (and the perfect-information solver): the base game at each player
count (``--deals``, 200 by default) and each advanced rule alone at 4 players
(``--rule-deals``, 100); then **beside others** (``--mixed-deals``, 100): 4-player base
deals where experts sit with one seat (seat ``i mod 4`` of deal ``i``) played by the
``random`` level or by ``GreedyBot`` (a greedy player who follows none of the bots'
conventions), with the team's loss against four experts on the same deals.

A row gives the win rate, the average number of web cards in place at the end (out of
30, or 36 with the Wetland; bots end a game as soon as the view says it cannot be won),
and the median and 99th percentile of the time one ``act`` call takes (every call that
returned an action) in CPU time of its process: what it costs on one core whatever else
runs (the wall-clock figures follow in brackets), and of the games lost, the share whose
end named a Species lost, a colour short of Conditions, or Cats locking the game (the
view's ``lost_reason``, ``engine.outlook``). The solver's row gives the share of
deals it proves winnable (a lower bound of the ceiling: ``unknown`` counts as not won),
the share proven lost, and the CPU time per deal. The last line is
``bot_win_rate_4p: N`` (percent, expert, 4 players, base game, on the chosen set).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from dame_nature.bots import Bot, make_bot
from dame_nature.bots.arena import play_game
from dame_nature.bots.greedy import GreedyBot
from dame_nature.bots.solver import solve
from dame_nature.engine import MODES, Game
from dame_nature.engine.outlook import lost_reason

#: seeds tuning runs, tests and experiments may read
TUNING_SEEDS = range(0, 100_000)
#: the first seed of the held-out set: reported, never tuned on
HELD_OUT_START = 1_000_000


def seeds(which: str, count: int) -> list[int]:
    """The first ``count`` seeds of the ``held-out`` or ``tuning`` set."""
    start = HELD_OUT_START if which == "held-out" else TUNING_SEEDS.start
    if which == "tuning" and count > len(TUNING_SEEDS):
        raise ValueError(f"the tuning set holds {len(TUNING_SEEDS)} deals")
    return list(range(start, start + count))


def _bot(level: str, seat: int, seed: int) -> Bot:
    return GreedyBot(seat, seed=seed) if level == "greedy" else make_bot(level, seat, seed=seed)


@dataclass
class Row:
    label: str
    games: int = 0
    won: int = 0
    lost_proven: int = 0
    placed: int = 0
    slots: int = 30
    times: list[float] = field(default_factory=list)  # CPU seconds of each decision
    wall: list[float] = field(default_factory=list)  # the same, by the clock on the wall
    won_seeds: set[int] = field(default_factory=set)  # the deals won
    #: of the games lost, how many ended with a Species lost, a colour short, Cats locked
    why: dict[str, int] = field(default_factory=dict)

    def line(self) -> str:
        median, p99 = _median_p99(self.times)
        wall = ""
        if self.wall:
            wall_median, wall_p99 = _median_p99(self.wall)
            wall = f"  (wall {wall_median:.1f} / {wall_p99:.1f} ms)"
        placed = f"{self.placed / self.games:5.1f}/{self.slots}" if self.slots else "    -   "
        lost = f" proven lost {100 * self.lost_proven / self.games:5.1f}%" if not self.slots else ""
        if self.slots and self.games > self.won:
            losses = self.games - self.won
            lost = "  lost with: " + ", ".join(
                f"{what} {100 * self.why.get(what, 0) / losses:.0f}%" for what in WHY
            )
        return (
            f"{self.label:<44} deals {self.games:4d}  win {100 * self.won / self.games:5.1f}%"
            f"  placed {placed}  decision median {median:7.1f} ms  p99 {p99:7.1f} ms{wall}{lost}"
        )


def _median_p99(seconds: list[float]) -> tuple[float, float]:
    if not seconds:
        return 0.0, 0.0
    ordered = sorted(seconds)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return statistics.median(ordered) * 1000, p99 * 1000


class _CpuTimedBot:
    """Times each ``act`` in CPU seconds of this process (one core, whatever the load)."""

    def __init__(self, bot: Bot, cpu: list[float], wall: list[float]) -> None:
        self.bot, self.cpu, self.wall = bot, cpu, wall

    def act(self, view: dict) -> dict | None:
        cpu, wall = time.process_time(), time.perf_counter()
        action = self.bot.act(view)
        if action is not None:
            self.cpu.append(time.process_time() - cpu)
            self.wall.append(time.perf_counter() - wall)
        return action


#: what a lost game's ``lost_reason`` may name (``engine.outlook``), as the rows print it
WHY = {"species": "species_lost", "colour": "colours_short", "cats": "deadlocked"}


def play_deal(
    task: tuple[str, int, tuple[str, ...], int, str | None],
) -> tuple[bool, int, int, list[float], list[float], list[str]]:
    """One deal with bots at every seat (seat ``seed mod players`` played by ``other``
    when it is given): (won, cards placed, slots, CPU and wall times of the decisions of
    ``level``, and what the lost game's reason names: ``WHY``)."""
    level, players, modes, seed, other = task
    state = Game(players, modes).new_initial_state(seed=seed)
    cpu: list[float] = []
    wall: list[float] = []
    odd = seed % players if other else -1
    bots = [
        _bot(other, s, 1000 * seed + s)
        if s == odd and other
        else _CpuTimedBot(_bot(level, s, 1000 * seed + s), cpu, wall)
        for s in range(players)
    ]
    play_game(state, bots)  # type: ignore[arg-type]
    placed = sum(1 for card in state.web.values() if card is not None)
    won = state.result is not None and state.result["outcome"] == "won"
    reason = lost_reason(state) or {}
    why = [what for what, key in WHY.items() if reason.get(key)]
    return won, placed, len(state.web), cpu, wall, why


def solve_deal(task: tuple[int, tuple[str, ...], int, int]) -> tuple[str, float]:
    players, modes, seed, nodes = task
    state = Game(players, modes).new_initial_state(seed=seed)
    start = time.process_time()
    result = solve(state, node_budget=nodes, time_budget=None)
    return result.status, time.process_time() - start


def run_level(
    pool: ProcessPoolExecutor,
    level: str,
    players: int,
    modes: tuple[str, ...],
    deal_seeds: list[int],
    other: str | None = None,
) -> Row:
    label = f"{level} {players}p {'+'.join(modes) or 'base'}"
    if other:
        label += f", one seat {other}"
    row = Row(label)
    tasks = [(level, players, modes, seed, other) for seed in deal_seeds]
    for seed, (won, placed, slots, cpu, wall, why) in zip(
        deal_seeds, pool.map(play_deal, tasks, chunksize=1), strict=True
    ):
        row.games += 1
        row.won += won
        for what in why:
            row.why[what] = row.why.get(what, 0) + 1
        if won:
            row.won_seeds.add(seed)
        row.placed += placed
        row.slots = slots
        row.times += cpu
        row.wall += wall
    return row


def run_solver(
    pool: ProcessPoolExecutor,
    players: int,
    modes: tuple[str, ...],
    deal_seeds: list[int],
    nodes: int,
) -> Row:
    row = Row(f"solver ({nodes} nodes) {players}p {'+'.join(modes) or 'base'}", slots=0)
    tasks = [(players, modes, seed, nodes) for seed in deal_seeds]
    for status, seconds in pool.map(solve_deal, tasks, chunksize=1):
        row.games += 1
        row.won += status == "won"
        row.lost_proven += status == "lost"
        row.times.append(seconds)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--set", default="held-out", choices=("held-out", "tuning"))
    parser.add_argument("--deals", type=int, default=200, help="base deals per player count")
    parser.add_argument("--rule-deals", type=int, default=100, help="deals per advanced rule")
    parser.add_argument("--mixed-deals", type=int, default=100, help="deals beside others")
    parser.add_argument("--counts", default="3,4,5,6", help="player counts of the base game")
    parser.add_argument("--levels", default="random,expert", help="bot levels to measure")
    parser.add_argument("--no-rules", action="store_true", help="skip the advanced rules")
    parser.add_argument("--rules", default=",".join(MODES), help="advanced rules to measure")
    parser.add_argument("--solver-nodes", type=int, default=20_000, help="0: no solver")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    args = parser.parse_args()
    counts = [int(c) for c in args.counts.split(",") if c]  # "": rules only
    levels = [lv for lv in args.levels.split(",") if lv]
    rules = [] if args.no_rules else [r for r in args.rules.split(",") if r]
    print(f"{args.set} deals; load average {os.getloadavg()}, {args.jobs} job(s)", flush=True)
    base, by_rule, mixed = (
        seeds(args.set, args.deals),
        seeds(args.set, args.rule_deals),
        seeds(args.set, args.mixed_deals),
    )
    results: dict[tuple[str, int, tuple[str, ...]], Row] = {}
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for level in levels:
            for players in counts:
                row = run_level(pool, level, players, (), base)
                results[(level, players, ())] = row
                print(row.line(), flush=True)
            for mode in rules:
                row = run_level(pool, level, 4, (mode,), by_rule)
                results[(level, 4, (mode,))] = row
                print(row.line(), flush=True)
        if args.mixed_deals and "expert" in levels:
            alone = results.get(("expert", 4, ()))
            if alone is None or alone.games < len(mixed):
                alone = run_level(pool, "expert", 4, (), mixed)
                print(alone.line(), flush=True)
            alone_won = len(alone.won_seeds & set(mixed))
            share = 100 * alone_won / len(mixed)
            print(f"expert 4p base on these {len(mixed)} deals: win {share:5.1f}%", flush=True)
            for other in ("random", "greedy"):
                row = run_level(pool, "expert", 4, (), mixed, other)
                loss = 100 * (alone_won - row.won) / len(mixed)
                print(f"{row.line()}  loss {loss:5.1f} points", flush=True)
        if args.solver_nodes:
            for players in counts:
                print(run_solver(pool, players, (), base, args.solver_nodes).line(), flush=True)
            for mode in rules:
                row = run_solver(pool, 4, (mode,), by_rule, args.solver_nodes)
                print(row.line(), flush=True)
    print(f"load average {os.getloadavg()}", flush=True)
    expert = results.get(("expert", 4, ()))
    if expert is None:
        print("bot_win_rate_4p: n/a (run with --levels expert --counts 4)")
        sys.exit(0)
    print(f"bot_win_rate_4p: {100 * expert.won / expert.games:.1f}")


if __name__ == "__main__":
    main()
