"""`hog` as a user waits for it at the pig-fest table: the first `hog check` of a strategy (which used to
hill-climb the best score-only table for half a minute: 49.6 s, now shipped with the package) and a warm
`hog winrate` of two plain tables (which built the 300 MB model again at every call: 5 s; now read from the
solver cache).

Whole processes, as a user runs them. "First" runs in an empty solver cache (nothing kept from before);
"warm" runs in a cache one earlier identical call filled. Each 3 times (median and spread), with the peak
memory of the largest run; reference measured in the same run: `hog --version`, the start-up every command
pays. A missed target is printed and the run goes on (the exit status says whether any was missed).

    python bench/bench_cli.py [--runs 3]

Measured on the project's machine (2 cores shared with other jobs, load about 3), 3 runs each: start-up
0.38 s; first hog check --rules pig-fest 3.69 s (3.15-3.96, peak 623 MB; was 49.6 s); warm hog winrate
--rules pig-fest 0.31 s (0.30-0.40, peak 316 MB; was 5 s and 410 MB).
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HOG = (sys.executable, "-m", "hogengine")
STRATEGY = "def final_strategy(score, opponent_score):\n    return 5 if score < opponent_score else 4\n"
# Each run: its arguments ({file}: the strategy above), whether its cache is filled first, target seconds.
RUNS = {
    "first hog check --rules pig-fest": (["check", "--rules", "pig-fest", "{file}"], False, 10.0),
    "warm hog winrate --rules pig-fest": (
        ["winrate", "--rules", "pig-fest", "always:4", "always:5"],
        True,
        1.5,
    ),
}


def run(arguments: list[str], cache: str) -> tuple[float, float]:
    """Wall seconds and peak memory (MB) of one `hog` process with this solver cache."""
    start = time.perf_counter()
    child = subprocess.Popen(
        [*HOG, *arguments],
        stdout=subprocess.DEVNULL,
        env={"PATH": "/usr/bin:/bin", "HOG_CACHE_DIR": cache},
    )
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) not in (0, 1):  # 1: a check that rejects still measured its file
        raise SystemExit(f"hog {' '.join(arguments)} failed")
    return seconds, usage.ru_maxrss / 1024


def measured(arguments: list[str], warm: bool, runs: int) -> tuple[list[float], float]:
    """The wall seconds of `runs` processes, each with a cache of its own (filled first if `warm`), and
    the peak memory of the largest."""
    times, peak = [], 0.0
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as cache:
            if warm:
                run(arguments, cache)
            seconds, megabytes = run(arguments, cache)
            times.append(seconds)
            peak = max(peak, megabytes)
    return times, peak


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="processes per command (3)")
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory() as folder:
        strategy = Path(folder) / "final.py"
        strategy.write_text(STRATEGY)
        start_up = statistics.median(measured(["--version"], False, runs)[0])
        print(f"reference: start-up (hog --version) {start_up:.2f} s")
        missed = []
        for name, (arguments, warm, target) in RUNS.items():
            times, peak = measured([word.format(file=strategy) for word in arguments], warm, runs)
            median = statistics.median(times)
            met = median <= target
            print(
                f"{name}: {median:.2f} s (spread {min(times):.2f}-{max(times):.2f}), peak {peak:.0f} MB,"
                f" target {target:g} s: {'met' if met else 'MISSED'}"
            )
            if not met:
                missed.append(name)
    print("MISSED: " + ", ".join(missed) if missed else "every target met")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
