"""`hog simulate` as a user runs it: whole processes, the two runs a newcomer found slow one turn at a time
(20,000 turns per number of dice took 20 s, 40,000 games 51 s), and the perfect player's games.

Reference measured in the same run: `python -m hogengine --version`, the start-up every command pays. Each
command runs 3 times (median and spread) with an empty solver cache; a missed target is printed and the
run goes on (the exit status says whether any was missed).

    python bench/bench_simulate.py [--runs 3]
"""

import argparse
import statistics
import subprocess
import sys
import tempfile
import time

HOG = (sys.executable, "-m", "hogengine")
# Each command and the most wall seconds its whole process may take.
RUNS = {
    "simulate turns --rules piggy-back --trials 20000": 2.0,
    "simulate games --rules fa20 always:4 always:5 --games 40000": 2.0,
    "simulate games --rules pork-chop perfect always:4 --games 40000": 5.0,  # solves pork-chop first
}


def seconds(arguments: list[str], runs: int) -> list[float]:
    """Wall seconds of `runs` fresh processes, each with a solver cache of its own, empty."""
    times = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as cache:
            start = time.perf_counter()
            subprocess.run(
                [*HOG, *arguments],
                check=True,
                stdout=subprocess.DEVNULL,
                env={"PATH": "/usr/bin:/bin", "HOG_CACHE_DIR": cache},
            )
            times.append(time.perf_counter() - start)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="processes per command (3)")
    runs = parser.parse_args().runs
    start_up = statistics.median(seconds(["--version"], runs))
    print(f"reference: start-up (hog --version) {start_up:.2f} s")
    missed = []
    for command, target in RUNS.items():
        times = seconds(command.split(), runs)
        median = statistics.median(times)
        met = median <= target
        print(
            f"hog {command}: {median:.2f} s (spread {min(times):.2f}-{max(times):.2f}),"
            f" x{median / start_up:.1f} start-up, target {target:g} s: {'met' if met else 'MISSED'}"
        )
        if not met:
            missed.append(command)
    print("MISSED: " + ", ".join(missed) if missed else "every target met")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
