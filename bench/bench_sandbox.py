"""Sandbox overhead per upload: evaluate_strategy on a trivial strategy against its own cost.

References measured in the same run: the strategy's own time (the same function called 10,000
times in this process) and a bare `python -I -S -B -c pass` start. The target is at most 50 ms
beyond the strategy's own time per upload.

    python bench/bench_sandbox.py [--runs 30]
"""

import argparse
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

from hogengine.sandbox import evaluate_strategy

SOURCE = "def final_strategy(score, opponent_score):\n    return 4\n"
TARGET_MS = 50.0


def median_ms(runs: int, action: Callable[[], object]) -> float:
    """Median wall time of `action` over `runs` runs, after one warm-up, in milliseconds."""
    action()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def children_cpu_ms() -> float:
    """CPU time (user + system) of every reaped child of this process so far, in milliseconds."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (usage.ru_utime + usage.ru_stime) * 1000


def strategy_calls() -> None:
    namespace: dict[str, object] = {}
    exec(SOURCE, namespace)
    strategy = namespace["final_strategy"]
    assert callable(strategy)
    for score in range(100):
        for opponent in range(100):
            strategy(score, opponent)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    runs = parser.parse_args().runs

    def evaluate() -> None:
        verdict = evaluate_strategy(SOURCE.encode(), range(11))
        assert verdict.accepted, verdict.reason

    bare = [sys.executable, "-I", "-S", "-B", "-c", "pass"]
    before = children_cpu_ms()
    full = median_ms(runs, evaluate)
    cpu = (children_cpu_ms() - before) / (runs + 1)
    calls = median_ms(runs, strategy_calls)
    start = median_ms(runs, lambda: subprocess.run(bare, check=True))
    reference = calls + start
    overhead = full - calls
    verdict = "met" if overhead <= TARGET_MS else "MISSED"
    print(f"sandbox: trivial upload, median of {runs} runs (wall clock unless noted)")
    print(f"evaluate_strategy            {full:8.1f} ms")
    print(f"  CPU of its two children    {cpu:8.1f} ms  (mean; they run in parallel)")
    print(f"reference: 10,000 calls      {calls:8.1f} ms  (the strategy's own time, in process)")
    print(f"reference: bare interpreter  {start:8.1f} ms  (python -I -S -B -c pass)")
    print(f"overhead beyond own time     {overhead:8.1f} ms  (target <= {TARGET_MS:.0f} ms: {verdict})")
    print(f"overhead beyond calls+start  {full - reference:8.1f} ms")
    print(f"ratio evaluate / reference   {full / reference:8.2f}")


if __name__ == "__main__":
    main()
