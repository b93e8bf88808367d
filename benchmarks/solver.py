"""Solver benchmark: how many deals the perfect-information solver decides.

Run by hand: ``python benchmarks/solver.py [--deals N] [--rule-deals N] [--counts 4,3,5,6]
[--rules a,b] [--no-rules] [--budget SECONDS] [--jobs J]``.

Each deal (seeds ``0..N-1``: 200 base deals per player count, 100 deals of each advanced
rule alone at 4 players by default) is given to ``solve`` with every hand open and a
budget of 5 s (by the clock on the wall) and no node limit. A row gives the share of
deals won (a line found, replayed on the engine to check it wins), proven lost
(Symbioses included) and undecided, and the median and largest time one deal took (wall
clock; CPU time of its process in brackets). Every ``won`` line is replayed with
``apply_line``: a line that does not win is counted as a failure and printed. The last
line is ``solver_decided_4p: N`` (percent decided, won or lost, of the 4-player base
deals).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from dame_nature.bots.solver import apply_line, solve
from dame_nature.engine import MODES, Game


@dataclass
class Row:
    label: str
    deals: int = 0
    won: int = 0
    lost: int = 0
    bad_lines: list[int] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)

    @property
    def decided(self) -> float:
        return 100 * (self.won + self.lost) / max(1, self.deals)

    def line(self) -> str:
        n = max(1, self.deals)
        undecided = self.deals - self.won - self.lost
        wall = statistics.median(self.wall) if self.wall else 0.0
        cpu = statistics.median(self.cpu) if self.cpu else 0.0
        return (
            f"{self.label:<32} deals {self.deals:4d}  won {100 * self.won / n:5.1f}%"
            f"  proven lost {100 * self.lost / n:5.1f}%  undecided {100 * undecided / n:5.1f}%"
            f"  decided {self.decided:5.1f}%  time per deal median {wall:5.2f} s"
            f" (cpu {cpu:5.2f} s) max {max(self.wall, default=0.0):5.2f} s"
            + (f"  LINES THAT DO NOT WIN: seeds {self.bad_lines}" if self.bad_lines else "")
        )


def solve_deal(
    task: tuple[int, tuple[str, ...], int, float],
) -> tuple[int, str, bool, float, float]:
    """One deal: (seed, status, whether a won line replays to a win, wall, CPU seconds)."""
    players, modes, seed, budget = task
    state = Game(players, modes).new_initial_state(seed=seed)
    wall, cpu = time.perf_counter(), time.process_time()
    result = solve(state, node_budget=10**12, time_budget=budget)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    replays = True
    if result.status == "won":
        fresh = Game(players, modes).new_initial_state(seed=seed)
        apply_line(fresh, result.line, result.sides)
        replays = fresh.result is not None and fresh.result["outcome"] == "won"
    return seed, result.status, replays, wall, cpu


def run(
    pool: ProcessPoolExecutor, players: int, modes: tuple[str, ...], deals: int, budget: float
) -> Row:
    row = Row(f"{players}p {'+'.join(modes) or 'base'}")
    tasks = [(players, modes, seed, budget) for seed in range(deals)]
    for seed, status, replays, wall, cpu in pool.map(solve_deal, tasks, chunksize=1):
        row.deals += 1
        row.won += status == "won" and replays
        row.lost += status == "lost"
        if not replays:
            row.bad_lines.append(seed)
        row.wall.append(wall)
        row.cpu.append(cpu)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=200, help="base deals per player count")
    parser.add_argument("--rule-deals", type=int, default=100, help="deals per advanced rule")
    parser.add_argument("--counts", default="4,3,5,6", help="player counts of the base game")
    parser.add_argument("--no-rules", action="store_true", help="skip the advanced rules")
    parser.add_argument("--rules", default=",".join(MODES), help="advanced rules to measure")
    parser.add_argument("--budget", type=float, default=5.0, help="seconds per deal")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    args = parser.parse_args()
    counts = [int(c) for c in args.counts.split(",") if c]
    rules = [] if args.no_rules else [r for r in args.rules.split(",") if r]
    print(f"load average {os.getloadavg()}, {args.jobs} job(s), {args.budget} s a deal", flush=True)
    rows: dict[tuple[int, tuple[str, ...]], Row] = {}
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for players in counts:
            rows[(players, ())] = row = run(pool, players, (), args.deals, args.budget)
            print(row.line(), flush=True)
        for mode in rules:
            rows[(4, (mode,))] = row = run(pool, 4, (mode,), args.rule_deals, args.budget)
            print(row.line(), flush=True)
    print(f"load average {os.getloadavg()}", flush=True)
    if any(row.bad_lines for row in rows.values()):
        print("some won lines do not replay to a win", file=sys.stderr)
    base4 = rows.get((4, ()))
    if base4 is None:
        print("solver_decided_4p: n/a (run with --counts 4)")
        return
    print(f"solver_decided_4p: {base4.decided:.1f}")


if __name__ == "__main__":
    main()
