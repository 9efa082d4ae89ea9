"""Benchmark of a contest's work as the bot does it, against the plain-C floor (bench/c/floor.c) for the same
work in the same run (see bench_solver.py for the floor).

- The final of an exact contest of 1,000 entries (random swine-align tables): a fresh process opens the
  database, plays the final as the bot's clock does (`ContestService.close_due`: the entries' tables read,
  every pair's exact win rate, the record kept for `hog tournament --replay`, all stored) and ends; its
  wall time and peak memory (of it and its final's process at once, and each one's own peak) beside the
  floor's whole process for the round robin of the same tables (one thread). Targets: at most 60 s, at
  most 400 MB, and no slower than the floor. The floor's win counts are checked against the stored ones
  first.
- One new entry's practice standing against the 999 others (`/hog contest status` after entering): every
  pair new, in process. Target: at most 2 s.
- The final of a sampled contest of 500 entries (9 games a pair, exact tie-breaks against always_roll(5)),
  whole process, beside the floor's `contest` mode on the same tables. Target: at most 3 times the floor.
- The bot stays responsive while a final runs: bench_load's paced games, their turn latency p99 beside the
  final of a 500-entry exact contest, as the bot's clock runs it (`close_due`: the final's process at the
  idle priority, see bot/services/contests/sharing.py), the games started before it and played on until it
  has ended. The final's process is held still (SIGSTOP) every other 2 s, so that the turns played while it
  computes (with the bot's own part of the final: starting its process, reading and storing its results)
  and those played while it is held still are measured side by side, whatever else the machine runs
  meanwhile (a machine shared with other jobs swings more than the final weighs); idle before the final is
  printed too. Target: while it computes, at most twice the p99 of while it is held still.
The machine's load average is printed at the start and the end: the other programs running move every
figure (the ratios less so).

    python bench/bench_contest.py [--entries 1000] [--sampled 500] [--load 500]
"""

import argparse
import asyncio
import hashlib
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from bench_load import Tally, load_average, percentile, phase, play_to_end, start_games, verify
from bench_solver import Floor, first_matrix, tables, write_tables

from bot.config import Settings
from bot.domain.matches import Player
from bot.domain.strategies import Matchup, StoredStrategy
from bot.services import GameService, Match, Services
from bot.services.clock import Clock
from bot.services.contests.service import FINAL_CHILD
from bot.storage import players as player_table
from bot.storage import strategies as strategy_table
from bot.storage.database import NEW
from hogengine.rules import get_rules
from hogengine.solver.tournament import THRESHOLD

RULES = "swine-align"
GUILD = 7100
OPENED_AT = 1_700_000_000.0
EXACT_SECONDS, EXACT_MB, PRACTICE_SECONDS, SAMPLED_RATIO = 60.0, 400.0, 2.0, 3.0
# The final, as the bot's clock runs it, in a process of its own: argv = database, solver cache, clock.
FINAL = """
import asyncio, resource, sys
from bot.config import Settings
from bot.services import Services
from bot.services.clock import Clock

async def main() -> None:
    settings = Settings(database_path=sys.argv[1], solver_cache_path=sys.argv[2], _env_file=None)
    services = await Services.open(settings.services, clock=lambda: float(sys.argv[3]))
    try:
        assert len(await services.contests.close_due()) == 1, "the final did not run"
    finally:
        await services.close()

asyncio.run(main())
# The peak memory (kB) of this process and of the process it started to compute the final.
print(*(resource.getrusage(who).ru_maxrss for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)))
"""


def settings(folder: Path) -> Settings:
    return Settings(
        database_path=folder / "hog.sqlite3",
        solver_cache_path=folder / "cache",
        _env_file=None,  # type: ignore[call-arg]
    )


def stored(owner: Player, table: np.ndarray, now: float) -> StoredStrategy:
    """A strategy as an upload stores it (its figures are not the benchmark's: one stands in)."""
    digest = hashlib.sha256(table.tobytes()).hexdigest()
    return StoredStrategy(
        id=NEW, guild_id=GUILD, owner=owner, name=f"s{owner.id}", team_name=None, rules=RULES,
        source_kind="json", source_hash=digest, table_hash=digest, active=True,
        figures=(Matchup("always_roll(5)", 0.5, 0.5, 0.5),), cpu_seconds=None, created_at=now,
        replaced_at=None, table=table,
    )  # fmt: skip


async def seed(
    folder: Path, entries: list[np.ndarray], fmt: str, clock: Clock = lambda: OPENED_AT
) -> Services:
    """A contest with one entry per table, each by its own person; the services left open."""
    services = await Services.open(settings(folder).services, clock=clock)
    contests = services.contests
    await contests.open(GUILD, 1, Player(1, "staff"), rules=RULES, fmt=fmt, closes="in 1 hour")
    for number, table in enumerate(entries):
        person = Player(10_000 + number, f"student{number}")
        strategy = stored(person, table, OPENED_AT)
        await services.db.write(lambda conn, p=person: player_table.upsert_players(conn, [p], OPENED_AT))
        await services.db.write(lambda conn, s=strategy: strategy_table.insert_strategy(conn, s))
        await contests.enter(GUILD, person, strategy.name)
    return services


@dataclass(frozen=True)
class Whole:
    """A final as the bot's clock plays it, whole: wall seconds; the peak memory (MB) of the bot's process
    and of the process it starts to compute the final (each its kernel-kept peak), and of the two at once
    (their resident memory added, sampled every SAMPLE seconds: the bot's peak, storing the results,
    comes after the final's process has ended)."""

    seconds: float
    bot_mb: float
    computing_mb: float
    peak_mb: float

    def __str__(self) -> str:
        return (
            f"bot {self.seconds:6.1f} s, peak {self.peak_mb:4.0f} MB at once ({self.bot_mb:.0f} MB its own"
            f" peak, {self.computing_mb:.0f} MB its final's process's)"
        )


SAMPLE = 0.02  # seconds between two looks at the processes' resident memory


def resident_mb(pid: int) -> float:
    """The resident memory of a process and of its children (0 once it has ended)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return 0.0
    own = int(status.split("VmRSS:")[1].split()[0]) / 1024 if "VmRSS:" in status else 0.0
    return own + sum(resident_mb(int(child)) for child in children)


def final(folder: Path) -> Whole:
    """The final in a fresh process, an hour and a second after the opening, its memory sampled."""
    command = [sys.executable, "-c", FINAL, str(folder / "hog.sqlite3"), str(folder / "cache")]
    start = time.perf_counter()
    child = subprocess.Popen([*command, str(OPENED_AT + 3601)], stdout=subprocess.PIPE, text=True)
    peak = 0.0
    while child.poll() is None:
        peak = max(peak, resident_mb(child.pid))
        time.sleep(SAMPLE)
    seconds = time.perf_counter() - start
    out = child.stdout.read() if child.stdout is not None else ""
    if child.returncode:
        raise SystemExit(f"the final's process failed ({child.returncode})")
    own, computing = (int(kb) / 1024 for kb in out.split())
    return Whole(seconds, own, computing, peak)


async def exact(floor: Floor, folder: Path, count: int) -> list[str]:
    missed = []
    entries = tables(get_rules(RULES), count, seed=11)
    services = await seed(folder / "exact", entries, "exact")
    try:
        newcomer = Player(99_999, "late")
        table = tables(get_rules(RULES), 1, seed=12)[0]
        strategy = stored(newcomer, table, OPENED_AT)
        await services.db.write(lambda conn: player_table.upsert_players(conn, [newcomer], OPENED_AT))
        await services.db.write(lambda conn: strategy_table.insert_strategy(conn, strategy))
        await services.contests.enter(GUILD, newcomer, strategy.name)
        loop = asyncio.get_running_loop()
        start = loop.time()
        status = await services.contests.status(GUILD, newcomer.id)
        practice = loop.time() - start
        assert status.practice is not None and status.practice.computed == count
        await services.contests.leave(GUILD, newcomer)  # the final plays the `count` tables
    finally:
        await services.close()
    ours = final(folder / "exact")
    files = write_tables(folder / "exact-files", entries)
    theirs = floor("roundrobin", RULES, *files)
    check = await Services.open(settings(folder / "exact").services, clock=lambda: OPENED_AT + 3601)
    try:
        placed = (await check.contests.final(GUILD)).placed
    finally:
        await check.close()
    first = first_matrix(theirs.stdout)
    average = (first + 1 - first.T) / 2
    floor_wins = sorted(
        int((average[i] > THRESHOLD).sum() - (average[i, i] > THRESHOLD)) for i in range(count)
    )
    if sorted(e.result.wins for e in placed if e.result) != floor_wins:
        raise SystemExit("exact final: the floor's wins differ from the stored ones")
    verdicts = [
        ours.seconds <= EXACT_SECONDS and ours.seconds <= theirs.seconds,
        ours.peak_mb <= EXACT_MB,
        practice <= PRACTICE_SECONDS,
    ]
    print(
        f"exact final, {count} entries: {ours} | C floor"
        f" {theirs.seconds:6.1f} s, peak {theirs.peak_mb:4.0f} MB | x{ours.seconds / theirs.seconds:4.2f}"
        f" (target <= {EXACT_SECONDS:g} s, <= {EXACT_MB:g} MB, x1: "
        f"{'met' if verdicts[0] else 'MISSED'} / {'met' if verdicts[1] else 'MISSED'})"
    )
    print(
        f"practice standing of one new entry against {count}: {practice:5.2f} s (target <= "
        f"{PRACTICE_SECONDS:g} s: {'met' if verdicts[2] else 'MISSED'})"
    )
    missed += [
        job for job, met in zip(("exact time", "exact memory", "practice"), verdicts, strict=True) if not met
    ]
    return missed


async def sampled(floor: Floor, folder: Path, count: int) -> list[str]:
    entries = tables(get_rules(RULES), count, seed=13)
    services = await seed(folder / "sampled", entries, "sampled")
    await services.close()
    ours = final(folder / "sampled")
    theirs = floor("contest", RULES, "1", *write_tables(folder / "sampled-files", entries))
    ratio = ours.seconds / theirs.seconds
    met = ratio <= SAMPLED_RATIO
    print(
        f"sampled final, {count} entries: {ours} | C floor"
        f" {theirs.seconds:6.1f} s | x{ratio:4.2f} (target x{SAMPLED_RATIO:g}: {'met' if met else 'MISSED'})"
    )
    return [] if met else ["sampled"]


WINDOW = 2.0  # seconds the final computes, then is held still, in turn, while the games are measured


def final_process() -> int | None:
    """The process this one started to compute a contest's final, if any."""
    for status in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(status.read_text().rsplit(")", 1)[1].split()[1])
            command = (status.parent / "cmdline").read_bytes()
        except OSError:  # it ended meanwhile
            continue
        if parent == os.getpid() and FINAL_CHILD.encode() in command:
            return int(status.parent.name)
    return None


def stopped(pid: int) -> bool:
    """Whether the process is stopped (a process held still cannot end: one that had ended before it was
    stopped is not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "T"
    except OSError:  # ended and reaped
        return False


def threads_told(pid: int) -> str:
    """The threads the bot told a final's process to compute on (its HOG_THREADS), "?" if unknown."""
    try:
        environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    except OSError:
        return "?"
    told = [line.partition(b"=")[2].decode() for line in environ if line.startswith(b"HOG_THREADS=")]
    return told[0] if told else "?"


async def in_turn(final: asyncio.Task[object]) -> tuple[list[tuple[float, float]], str]:
    """While `final` runs, hold its process still (SIGSTOP) every other WINDOW seconds, from its start to its
    end, so that the games are measured with it computing and without it, in turn, whatever else the
    machine runs meanwhile: the windows (start, end) in which it was held still (a window in which it turns
    out to have ended first, the bot reading and storing its results, is not one), and the threads it was
    told to compute on."""
    held: list[tuple[float, float]] = []
    while (pid := final_process()) is None and not final.done():
        await asyncio.sleep(0.01)
    threads = "?" if pid is None else threads_told(pid)
    while pid is not None and not final.done():
        await asyncio.sleep(WINDOW)  # computing
        try:
            os.kill(pid, signal.SIGSTOP)
        except ProcessLookupError:
            break
        start = time.perf_counter()
        await asyncio.sleep(WINDOW)  # held still
        if not stopped(pid):
            break
        os.kill(pid, signal.SIGCONT)
        held.append((start, time.perf_counter()))
    return held, threads


async def alongside(
    service: GameService, final: Awaitable[object], games: int, think: float, first_channel: int
) -> tuple[list[float], list[float], float, int, str]:
    """`games` paced games (bench_load's clients: a match, then rematches) started before `final` and played
    on until it has ended, its process held still in turn (see `in_turn`): the latency (ms) of each turn
    played while it computed, and of each played while it was held still, how long it ran, the turns
    verified afterwards, and the threads it computed on."""
    tally, ended = Tally(), asyncio.Event()

    async def client(match: Match) -> list[Match]:
        played = [await play_to_end(service, tally, match, think)]
        while not ended.is_set():
            new = None
            for voter in [player.id for player in played[-1].players if player is not None]:
                new = await service.rematch(played[-1].id, voter)
            assert new is not None
            played.append(await play_to_end(service, tally, new, think))
        return played

    clients = [asyncio.create_task(client(m)) for m in await start_games(service, games, first_channel)]
    await asyncio.sleep(1.0)  # every client has pressed a few times: the games are under way
    start, before = time.perf_counter(), len(tally.turn_latencies)
    running = asyncio.ensure_future(final)
    held, threads = await in_turn(running)
    await running
    seconds, end = time.perf_counter() - start, len(tally.turn_latencies)
    ended.set()
    matches = [match for played in await asyncio.gather(*clients) for match in played]
    busy, still = [], []
    for latency, finished in zip(
        tally.turn_latencies[before:end], tally.finished_at[before:end], strict=True
    ):
        begun = finished - latency
        if any(low <= begun and finished <= high for low, high in held):
            still.append(latency * 1000)
        elif not any(low <= finished and begun <= high for low, high in held):
            busy.append(latency * 1000)
    return busy, still, seconds, await verify(service, matches, tally), threads


async def responsive(folder: Path, count: int, games: int = 50, rate: float = 200.0) -> list[str]:
    """Turn latency of `games` paced games (bench_load's paced phase) while idle (after a warm-up), then
    during the final of an exact contest of `count` entries, as the clock runs it, from its start to its end:
    while it computes, and while its process is held still, in turn."""
    entries = tables(get_rules(RULES), count, seed=14)
    services = await seed(folder / "load", entries, "exact", clock=time.time)
    try:
        service, contests = services.games, services.contests
        await phase(service, games=games, think=games / rate, seconds=2.0, first_channel=1)  # warm-up
        idle = await phase(service, games=games, think=games / rate, seconds=5.0, first_channel=5_000)
        await contests.close_early((await contests.current(GUILD)).id)
        closing = contests.close_due()
        busy_ms, still_ms, seconds, turns, threads = await alongside(
            service, closing, games, games / rate, 10_000
        )
        assert (await contests.final(GUILD)).placed, "the final did not run"
    finally:
        await services.close()
    if not still_ms or not busy_ms:
        print(
            f"turn latency p99 of {games} paced games beside the final of {count} entries: it ended within"
            f" {seconds:.1f} s, before it could be held still: nothing to compare (target x2: MISSED)"
        )
        return ["responsiveness"]
    before, still, busy = (percentile(ms, 0.99) for ms in (idle.turn_ms, still_ms, busy_ms))
    met = busy <= 2 * still
    print(
        f"turn latency p99 of {games} paced games beside the final of {count} entries ({seconds:.1f} s on"
        f" {threads} thread(s), its process held still every other {WINDOW:g} s): computing {busy:6.2f} ms"
        f" ({len(busy_ms)} turns),"
        f" held still {still:6.2f} ms ({len(still_ms)} turns): x{busy / still:4.2f} (target x2:"
        f" {'met' if met else 'MISSED'}); idle before it {before:6.2f} ms ({len(idle.turn_ms)} turns):"
        f" x{busy / before:4.2f}; {turns} turns verified"
    )
    return [] if met else ["responsiveness"]


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=1000, help="entries of the exact contest")
    parser.add_argument("--sampled", type=int, default=500, help="entries of the sampled contest")
    parser.add_argument("--load", type=int, default=500, help="entries of the final run beside the games")
    args = parser.parse_args()
    load_average("at the start")
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        floor = Floor(folder)
        missed = await exact(floor, folder, args.entries) + await sampled(floor, folder, args.sampled)
        missed += await responsive(folder, args.load)
    load_average("at the end")
    print("every target met" if not missed else f"missed: {', '.join(missed)}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
