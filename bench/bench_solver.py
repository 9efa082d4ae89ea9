"""Benchmark of the exact solver against a plain-C floor (bench/c/floor.c) measured in the same run.

The floor does the same work in one-thread C written for speed, compiled here with the system's `cc -O2`:
it builds the transition table of a rule set, then sweeps it (optimal play, one pair, a round robin of
score-only tables in blocks of eight against eight, the sampled contest's games and exact tie-breaks).
Its numbers are checked against the solver's (win rates to 1e-12) before any time is believed. Each line
prints the project's time, the floor's time from this run and their ratio, with the target; a missed
target is printed and the run goes on (the exit status says whether any was missed).

In process (after import): cold runs build the model, warm runs reuse it (best of 3, or of 20 for the jobs
of milliseconds); the floor's cold time is its build plus its sweep, its warm time the sweep alone.
Whole process: `python -m hogengine tournament ...` on JSON table files, each run a fresh process with an
empty solver cache (nothing kept from before), beside the floor's whole process on the same files; each
5 times (median, and the spread), with the peak memory of the largest run. `hog` runs twice a round: as a
user runs it (it builds models and sweeps blocks on two threads on a machine of two cores or more) and held
to one core (one thread, as the floor); each job's target says which it judges, both ratios are printed.
The project's modules are compiled to bytecode before anything is timed, as installing a wheel does and as
the floor is compiled before it runs (with PYTHONDONTWRITEBYTECODE set, an editable checkout would
otherwise compile some fifty modules again in every process). The floor is also built for this processor
(`-march=native`), and hog's one-core time is printed against it too: the compiled sweep runs AVX2 code
where the processor has it, which the plain floor does not.

    python bench/bench_solver.py [--runs 5]
"""

import argparse
import compileall
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from random import Random

import numpy as np

import bot
import hogengine
from hogengine.rules import RuleSet, get_rules
from hogengine.solver import optimal, rows, tournament_sampled, winrate_matrix
from hogengine.solver.compiled import kernel
from hogengine.solver.model import _BUILT, model
from hogengine.solver.optimal import optimal_values
from hogengine.solver.winrate import exact_winrate
from hogengine.strategies import Table, always_roll_table

FLOOR_SOURCE = Path(__file__).resolve().parent / "c" / "floor.c"
TOLERANCE = 1e-12
MEMORY_TARGET_MB = 1024
# Whole process: the project's time over the floor's, at most, judged as a user runs it or on one core.
AS_RUN, ONE_CORE = "as run", "on one core"
WHOLE_TARGETS = {"swine-align": (1.25, ONE_CORE), "pork-chop": (2.5, AS_RUN), "pig-fest": (1.5, AS_RUN)}
ENTRIES = {"swine-align": 77, "pork-chop": 34, "pig-fest": 17}
CONTEST_SEED = 1


@dataclass(frozen=True)
class Run:
    """One whole process: wall seconds, CPU seconds (user and system, all its threads), peak resident
    memory (MB), what it printed, its phase times."""

    seconds: float
    cpu: float
    peak_mb: float
    stdout: str
    phases: dict[str, float]


def run_process(
    command: Sequence[str | Path], env: dict[str, str] | None = None, *, single: bool = False
) -> Run:
    """Run one process to its end (held to one core if `single`: the solver then sweeps on one thread,
    as the floor does): its wall time and its own peak memory (not the benchmark's)."""
    cores = os.sched_getaffinity(0)
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        if single:  # the child inherits this process's affinity when it starts
            os.sched_setaffinity(0, {min(cores)})
        try:
            child = subprocess.Popen(command, stdout=out, stderr=err, env=env, cwd=tempfile.gettempdir())
        finally:
            os.sched_setaffinity(0, cores)
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    if child.returncode:
        raise SystemExit(f"{command[0]} failed ({child.returncode}): {stderr.strip()[-500:]}")
    phases = {}
    for line in stderr.splitlines():
        word, _, rest = line.partition(" ")
        if word == "time":
            phase, value = rest.split()
            phases[phase] = float(value)
    return Run(seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, stdout, phases)


class Floor:
    """The C floor, compiled once into a temporary folder: plain `-O2`, or for this processor (`native`)."""

    def __init__(self, folder: Path, *, native: bool = False) -> None:
        compiler = shutil.which("cc")
        if compiler is None:
            raise SystemExit("bench_solver needs a C compiler (cc) for its floor: apt-get install gcc")
        self.binary = folder / ("floor-native" if native else "floor")
        flags = ["-O2", "-march=native"] if native else ["-O2"]
        subprocess.run([compiler, *flags, "-o", self.binary, FLOOR_SOURCE, "-lm"], check=True)

    def __call__(self, *arguments: str | Path) -> Run:
        return run_process([self.binary, *arguments])


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


def write_tables(folder: Path, entries: list[Table]) -> list[Path]:
    folder.mkdir()
    paths = [folder / f"entry{number:02d}.json" for number in range(len(entries))]
    for path, table in zip(paths, entries, strict=True):
        path.write_text(json.dumps(table.tolist()))
    return paths


@dataclass(frozen=True)
class Rounds:
    """A job's whole processes: hog as run and held to one core, the floor, the floor built for this
    processor."""

    ours: list[Run] = field(default_factory=list)
    single: list[Run] = field(default_factory=list)
    floors: list[Run] = field(default_factory=list)
    natives: list[Run] = field(default_factory=list)


class Report:
    """Lines of figures, and whether every target was met."""

    def __init__(self) -> None:
        self.missed: list[str] = []

    def check(self, job: str, difference: float) -> None:
        """The floor's numbers must be the solver's: a benchmark of a wrong answer means nothing."""
        if not difference <= TOLERANCE:
            raise SystemExit(f"{job}: the floor and the solver differ by {difference:.3g}")

    def line(self, job: str, cold: float, warm: float, floor: Run, target: float | None) -> None:
        """In process: the project's cold and warm times beside the floor's build + sweep and sweep."""
        floor_cold = sum(value for phase, value in floor.phases.items() if phase != "read")
        floor_warm = floor_cold - floor.phases["build"]
        verdict = ""
        if target is not None:
            met = warm <= target
            verdict = f"  target {target * 1e3:.0f} ms warm: {'met' if met else 'MISSED'}"
            if not met:
                self.missed.append(job)
        print(
            f"{job:<38} cold {cold * 1e3:8.1f} ms  C {floor_cold * 1e3:8.1f} ms  x{cold / floor_cold:5.2f}"
            f"  | warm {warm * 1e3:8.1f} ms  C {floor_warm * 1e3:8.1f} ms  x{warm / floor_warm:5.2f}{verdict}"
        )

    def whole(self, job: str, rounds: "Rounds", target: tuple[float, str]) -> None:
        """Whole process: medians and spreads of the project as run and on one core, and of the floor; the
        ratios of medians (the target judged as run or on one core, as it says), of CPU time on one core
        (which other programs on a shared machine disturb less than wall time), and of the one-core time to
        the floor built for this processor."""
        ours, single, floors, natives = rounds.ours, rounds.single, rounds.floors, rounds.natives
        mine, alone, theirs, native = (
            statistics.median(r.seconds for r in runs) for runs in (ours, single, floors, natives)
        )
        cpu_alone, cpu_floor = (statistics.median(r.cpu for r in runs) for runs in (single, floors))
        most, judged = target
        ratios = {AS_RUN: mine / theirs, ONE_CORE: alone / theirs}
        met = ratios[judged] <= most
        if not met:
            self.missed.append(job)
        peak = max(run.peak_mb for run in ours + single)
        verdict = dict.fromkeys(ratios, "") | {judged: f" (target x{most:g}: {'met' if met else 'MISSED'})"}
        print(
            f"{job}\n  wall: hog {mine:5.2f} s ({spread(ours)})  one core {alone:5.2f} s ({spread(single)})"
            f"  C {theirs:5.2f} s ({spread(floors)})  C -march=native {native:5.2f} s ({spread(natives)})\n"
            f"  x{ratios[AS_RUN]:4.2f} as run{verdict[AS_RUN]}, x{ratios[ONE_CORE]:4.2f} on one core"
            f"{verdict[ONE_CORE]}; on one core x{alone / native:4.2f} of C -march=native\n"
            f"  CPU on one core: hog {cpu_alone:5.2f} s, C {cpu_floor:5.2f} s, x{cpu_alone / cpu_floor:4.2f};"
            f" peak {peak:,.0f} MB"
        )
        if peak > MEMORY_TARGET_MB:
            self.missed.append(f"{job} memory")


def spread(runs: list[Run]) -> str:
    return "-".join(f"{value:.2f}" for value in (min(r.seconds for r in runs), max(r.seconds for r in runs)))


def first_matrix(text: str) -> np.ndarray:
    return np.array([[float(value) for value in line.split()] for line in text.splitlines()])


def in_process(report: Report, floor: Floor, folder: Path) -> None:
    swine = get_rules("swine-align")
    four, five = (always_roll_table(n, swine) for n in (4, 5))

    forget()
    cold = timed(lambda: optimal_values(model(swine, 100)))
    warm = timed(lambda: optimal_values(model(swine, 100)), 20)
    run = floor("optimal", "swine-align")
    built = model(swine, 100)
    report.check("optimal solve", abs(float(run.stdout) - optimal_values(built)[0][built.start]))
    report.line("swine-align optimal solve", cold, warm, run, 0.005)

    forget()
    cold = timed(lambda: exact_winrate(swine, four, five))
    warm = timed(lambda: exact_winrate(swine, four, five), 20)
    paths = write_tables(folder / "pair", [four, five])
    run = floor("pair", "swine-align", *paths)
    rate = exact_winrate(swine, four, five)
    report.check("one pair", float(np.abs(first_matrix(run.stdout)[0, 1] - rate.first)))
    report.line("one exact pair (swine-align)", cold, warm, run, 0.005)

    for name, seed in (("swine-align", 1), ("pork-chop", 2)):
        rules, count = get_rules(name), ENTRIES[name]
        entries = tables(rules, count, seed)
        forget()
        cold = timed(lambda: winrate_matrix(rules, entries))  # noqa: B023 - called at once
        warm = timed(lambda: winrate_matrix(rules, entries), 3)  # noqa: B023
        run = floor("roundrobin", name, *write_tables(folder / f"in-{name}", entries))
        found = winrate_matrix(rules, entries).first
        expected = first_matrix(run.stdout)
        off = ~np.eye(count, dtype=bool)
        report.check(name, float(np.abs(found - expected)[off].max()))
        report.line(f"round robin, {count} {name} tables", cold, warm, run, None)

    fest = get_rules("pig-fest")
    entries = tables(fest, ENTRIES["pig-fest"], 3)
    named = [(f"entry{number:02d}", table) for number, table in enumerate(entries)]
    forget()
    cold = timed(lambda: tournament_sampled(fest, named, Random(1)))
    warm = timed(lambda: tournament_sampled(fest, named, Random(1)), 3)
    run = floor("contest", "pig-fest", str(CONTEST_SEED), *write_tables(folder / "in-pig-fest", entries))
    rates = {row.name: row.tie_break for row in tournament_sampled(fest, named, Random(1)).rows}
    theirs = [float(line.split()[2]) for line in run.stdout.splitlines()]
    off = max(abs(rates[name] - rate) for (name, _), rate in zip(named, theirs, strict=True))
    report.check("pig-fest tie-breaks", off)
    report.line("pig-fest contest, 17 entries (sampled)", cold, warm, run, None)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak resident memory in process: {peak:,.0f} MB (target {MEMORY_TARGET_MB:,} MB)")
    if peak > MEMORY_TARGET_MB:
        report.missed.append("memory in process")


def standings_off(ours: Run, floor: Run, sampled: bool) -> float:
    """How far hog's printed figures are from the floor's: the tie-breaks (exact rates against
    always_roll(5)) of a sampled contest, else every match's average win rate."""
    found = json.loads(ours.stdout)
    number = {f"entry{n:02d}": n for n in range(len(found["standings"]))}  # as write_tables names them
    if sampled:
        theirs = [float(line.split()[2]) for line in floor.stdout.splitlines()]
        return max(abs(row["tie_break"] - theirs[number[row["name"]]]) for row in found["standings"])
    first = first_matrix(floor.stdout)
    average = (first + 1 - first.T) / 2
    return max(abs(m["a_result"] - average[number[m["a"]], number[m["b"]]]) for m in found["matches"])


def whole_process(report: Report, floor: Floor, native: Floor, folder: Path, runs: int) -> None:
    """`hog tournament` as a user runs it, a fresh process each time with an empty solver cache."""
    for name, seed in (("swine-align", 1), ("pork-chop", 2), ("pig-fest", 3)):
        rules = get_rules(name)
        paths = write_tables(folder / f"whole-{name}", tables(rules, ENTRIES[name], seed))
        sampled = name == "pig-fest"
        arguments = ["--format", "sampled", "--seed", "1"] if sampled else ["--format", "exact"]
        command = [sys.executable, "-m", "hogengine", "tournament", "--json", "--rules", name, *arguments]
        env = {**os.environ, "HOG_CACHE_DIR": ""}
        rounds = Rounds()
        mode = ["contest", name, str(CONTEST_SEED)] if sampled else ["roundrobin", name]
        for _ in range(runs):
            rounds.ours.append(run_process([*command, *paths], env))
            one = run_process([*command, *paths], {**env, "OPENBLAS_NUM_THREADS": "1"}, single=True)
            rounds.single.append(one)
            rounds.floors.append(floor(*mode, *paths))
            rounds.natives.append(native(*mode, *paths))
        for run in (rounds.ours[0], rounds.single[0]):
            report.check(f"hog tournament under {name}", standings_off(run, rounds.floors[0], sampled))
        report.check(
            f"the native floor under {name}", standings_off(rounds.ours[0], rounds.natives[0], sampled)
        )
        what = "sampled contest" if sampled else "exact round robin"
        report.whole(f"hog tournament: {ENTRIES[name]} {name} ({what})", rounds, WHOLE_TARGETS[name])


def compile_bytecode() -> None:
    """Compile the project's modules (the engine, and the bot that `hog` finds its commands in) to bytecode,
    as installing a wheel does, before any process is timed."""
    for package in (hogengine, bot):
        compileall.compile_dir(package.__path__[0], quiet=1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="whole-process runs of each job")
    args = parser.parse_args()
    report = Report()
    with tempfile.TemporaryDirectory(prefix="hog-bench-") as name:
        folder = Path(name)
        floor, native = Floor(folder), Floor(folder, native=True)
        compile_bytecode()
        print(f"load before: {os.getloadavg()[0]:.2f} (2 cores shared: figures are noisy, ratios less so)")
        print(f"the compiled sweep runs {'AVX2' if kernel.WIDE else 'baseline'} code on this processor")
        # Whole processes first, while this one is small: a child's peak memory counts its parent's pages
        # at the moment it started.
        whole_process(report, floor, native, folder, args.runs)
        in_process(report, floor, folder)
        print(f"load after: {os.getloadavg()[0]:.2f}")
    if report.missed:
        print("MISSED: " + ", ".join(report.missed))
        return 1
    print("every target met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
