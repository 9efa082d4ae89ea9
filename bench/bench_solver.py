"""Benchmark of the exact solver against the plain recursive reference, measured in the same run.

Jobs (targets of the issue on a 2-core machine, in-process after import):
  swine-align optimal solve                        <= 10 ms
  one exact pair, both seatings, alone             <= 10 ms;  batched <= 1 ms a pair
  round robin of 77 random swine-align tables      <= 3 s
  round robin of 34 random pork-chop tables        <= 2 s
  the 17-entry pig-fest contest (sampled format)   <= 4 s    (136 matches of 9 games + 17 tie-breaks)
Cold runs include building the transition model; warm runs reuse it (best of 3, or of 20 for the jobs of
milliseconds): on this virtual machine memory freed for a few seconds goes back to the host, and touching
it again costs ~2 ms per MB, so single runs of the round robins vary by a third. The reference is the
memoised recursion of hogengine/solver/reference.py over the same `step`, timed on the same machine: in
full where that takes seconds, else on a smaller goal and scaled by the number of states (said so).

    python bench/bench_solver.py [--quick]
"""

import argparse
import resource
import time
from collections.abc import Callable
from random import Random

import numpy as np

from hogengine.rules import RuleSet, get_rules
from hogengine.solver import optimal, reference, rows, tournament_sampled, winrate_matrix
from hogengine.solver.model import _BUILT, model
from hogengine.solver.optimal import optimal_values
from hogengine.solver.winrate import exact_winrate
from hogengine.strategies import Table, always_roll, table_from_function


def timed(job: Callable[[], object], repeat: int = 1) -> float:
    """The best wall time of `repeat` runs, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        job()
        best = min(best, time.perf_counter() - start)
    return best


def forget() -> None:
    """Drop every cached model and solution, so the next job runs cold."""
    _BUILT.clear()
    rows.forget()
    optimal._solve.cache_clear()


def tables(rules: RuleSet, count: int, seed: int) -> list[Table]:
    rng = np.random.default_rng(seed)
    return [rng.choice(np.array(rules.choices), size=(100, 100)).astype(np.int8) for _ in range(count)]


def line(
    job: str, cold: float, warm: float, target: float, reference_seconds: float, *, note: str = ""
) -> None:
    met = "met" if warm <= target else "MISSED"
    print(
        f"{job:<44} cold {cold * 1e3:9.1f} ms  warm {warm * 1e3:9.1f} ms  target {target * 1e3:7.0f} ms"
        f" ({met}, cold {'met' if cold <= target else 'missed'})  reference {reference_seconds:8.2f} s"
        f"  x{reference_seconds / warm:,.0f} warm{note}"
    )


def reference_optimal(rules: RuleSet, goal: int) -> float:
    win = reference.optimal_win(rules, goal)
    return timed(lambda: win(rules.at_layer(0, 0, 0)))


def reference_pair(rules: RuleSet, a: Table, b: Table, goal: int) -> float:
    return timed(lambda: reference.table_winrate(rules, a, b, goal))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="scale the reference from smaller goals only")
    args = parser.parse_args()
    scale_goal = 40 if args.quick else 100
    swine = get_rules("swine-align")
    four, five = (table_from_function(always_roll(n), swine) for n in (4, 5))

    forget()
    cold = timed(lambda: optimal_values(model(swine, 100)))
    warm = timed(lambda: optimal_values(model(swine, 100)), 20)
    seconds = reference_optimal(swine, scale_goal) * (100 / scale_goal) ** 2
    line("swine-align optimal solve", cold, warm, 0.010, seconds, note=" (reference scaled)" * args.quick)

    forget()
    cold = timed(lambda: exact_winrate(swine, four, five))
    warm = timed(lambda: exact_winrate(swine, four, five), 20)
    pair_seconds = reference_pair(swine, four, five, scale_goal) * (100 / scale_goal) ** 2
    line(
        "one exact pair alone (swine-align)",
        cold,
        warm,
        0.010,
        pair_seconds,
        note=" (reference scaled)" * args.quick,
    )

    entries = tables(swine, 77, 1)
    pairs = 77 * 76 // 2
    forget()
    cold = timed(lambda: winrate_matrix(swine, entries))
    warm = timed(lambda: winrate_matrix(swine, entries), 3)
    random_pair = reference_pair(swine, entries[0], entries[1], 40) * (100 / 40) ** 2
    line(
        "round robin, 77 swine-align tables", cold, warm, 3.0, random_pair * pairs, note=" (reference scaled)"
    )
    line("  per pair, batched", cold / pairs, warm / pairs, 0.001, random_pair, note=" (reference scaled)")

    chop = get_rules("pork-chop")
    entries = tables(chop, 34, 2)
    forget()
    cold = timed(lambda: winrate_matrix(chop, entries))
    warm = timed(lambda: winrate_matrix(chop, entries), 3)
    random_pair = reference_pair(chop, entries[0], entries[1], 40) * (100 / 40) ** 2
    line(
        "round robin, 34 pork-chop tables",
        cold,
        warm,
        2.0,
        random_pair * 34 * 33 // 2,
        note=" (reference scaled)",
    )

    fest = get_rules("pig-fest")
    entries = tables(fest, 17, 3)
    named = [(f"entry{number}", table) for number, table in enumerate(entries)]
    forget()
    cold = timed(lambda: tournament_sampled(fest, named, Random(1)))
    warm = timed(lambda: tournament_sampled(fest, named, Random(1)), 3)
    five = table_from_function(always_roll(5), fest)
    tie_break = reference_pair(fest, entries[0], five, 30) * (100 / 30) ** 2
    games = timed(lambda: tournament_sampled(fest, named[:2], Random(1)))
    line(
        "pig-fest contest, 17 entries (sampled)",
        cold,
        warm,
        4.0,
        tie_break * 17 + games * 136,
        note=" (reference: 17 tie-breaks scaled from goal 30; the games are the same live engine)",
    )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak resident memory of this run: {peak:.0f} MB (target 1024 MB)")


if __name__ == "__main__":
    main()
