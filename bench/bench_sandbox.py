"""Sandbox costs, against references measured in the same run; the exit status says whether any target
was missed.

1. Overhead per upload: evaluate_strategy on a trivial strategy against the strategy's own time (the same
   function called 10,000 times in this process) and a bare `python -I -S -B -c pass` start. Target: at
   most 50 ms beyond the strategy's own time.
2. A student's own Fall 2020 hog.py (tests/course_files/fa20_solution.py, in the course's shape: its
   final_strategy calls the file's own extra_turn_strategy, free_bacon and Swine Align): `hog check` of it,
   a whole process, cold (an empty solver cache) and warm, against the same file's native table run, a
   whole process too (`python -c` importing it beside the course's dice.py and ucb.py and calling
   final_strategy on the 10,000 pairs). Targets: warm `hog check` at most 1.0 s, and at most 3 times the
   native run.

    python bench/bench_sandbox.py [--runs 30] [--course-runs 7]
"""

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from hogengine.sandbox import evaluate_strategy

SOURCE = "def final_strategy(score, opponent_score):\n    return 4\n"
TARGET_MS = 50.0
COURSE = Path(__file__).resolve().parent.parent / "tests" / "course_files"
COURSE_TARGET_S, COURSE_RATIO = 1.0, 3.0
NATIVE = "import hog\nt = [[hog.final_strategy(s, o) for o in range(100)] for s in range(100)]\n"


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


def seconds(command: list[str], cwd: str | None = None, env: dict[str, str] | None = None) -> float:
    """The wall time of one whole process, which must succeed."""
    start = time.perf_counter()
    subprocess.run(command, cwd=cwd, env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def course_file(runs: int) -> bool:
    """`hog check` of a student's Fall 2020 hog.py against its native table run; whether both targets met."""
    with tempfile.TemporaryDirectory() as native, tempfile.TemporaryDirectory() as cache:
        for stand_in in (COURSE / "native").glob("*.py"):
            shutil.copy(stand_in, native)
        shutil.copy(COURSE / "fa20_solution.py", Path(native) / "hog.py")
        env = {**os.environ, "HOG_CACHE_DIR": cache}
        check = [sys.executable, "-m", "hogengine", "check", str(COURSE / "fa20_solution.py")]
        cold = seconds(check, env=env)
        warm = statistics.median(seconds(check, env=env) for _ in range(runs))
        own = statistics.median(seconds([sys.executable, "-c", NATIVE], cwd=native) for _ in range(runs))
    met = warm <= COURSE_TARGET_S and warm <= COURSE_RATIO * own
    print(
        f"course hog.py (Fall 2020, tests/course_files/fa20_solution.py), whole processes, median of {runs}"
    )
    print(f"hog check, cold (empty cache)  {cold:6.2f} s")
    print(f"hog check, warm                {warm:6.2f} s  (target <= {COURSE_TARGET_S:.1f} s)")
    print(f"reference: native table run    {own:6.2f} s  (the file imported beside dice.py and ucb.py)")
    verdict = "met" if met else "MISSED"
    print(f"ratio hog check / native       {warm / own:6.2f}  (target <= {COURSE_RATIO:.0f}: {verdict})")
    return met


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--course-runs", type=int, default=7)
    options = parser.parse_args()
    runs = options.runs
    print(f"load average at start: {' '.join(f'{load:.2f}' for load in os.getloadavg())}")

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
    print()
    course_met = course_file(options.course_runs)
    print(f"load average at end: {' '.join(f'{load:.2f}' for load in os.getloadavg())}")
    return 0 if overhead <= TARGET_MS and course_met else 1


if __name__ == "__main__":
    sys.exit(main())
