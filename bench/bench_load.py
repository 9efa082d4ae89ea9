"""Load benchmark of the game service: 200 concurrent games played to the end, on a real SQLite file and on a
real PostgreSQL server by one and by two service processes beside it (`--database sqlite`: the file alone).

Half the games are against the house bot, half between two people; clicks are random, with double
clicks and stale clicks (a person pressing a button of the previous turn) mixed in. Latencies are
reported apart for presses that played a turn and for those refused (stale, double, nothing to do),
which are much faster. Two phases:
  saturated  every client presses again as soon as its last press returns (throughput);
  paced      clients think between presses, offering a fixed rate (latency under a realistic load).
Afterwards every match is checked: turn numbers contiguous, no press lost or counted twice, and the
stored state equal to the replay of the stored turns. References measured in the same run: the raw
engine (dice + `resolve`), and a bare aiosqlite (or asyncpg) loop of the same write transaction shape; on
SQLite the service's saturated rate is to be at least TARGET_BARE_SHARE of the bare loop's, and on
PostgreSQL two processes' at least TARGET_TWO_PROCESSES times one's. The machine's load average is printed
at the start and at the end: what else runs moves the rates.
PostgreSQL is the test suite's throwaway server (tests/postgres_server.py: initdb and pg_ctl, durable
settings) unless `--database-url` names one; with two processes each plays half the games in channels of
its own, as two shard processes would.

    python bench/bench_load.py [--games 200] [--seconds 5] [--rate 1000] [--database sqlite]
"""

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

import aiosqlite
import asyncpg

from bot.config import Settings
from bot.services import GameService, Match, MatchStatus, Played, Player, Services, StaleAction
from hogengine.dice import new_seed, seeded_rolls
from hogengine.game import dice_for, legal_choices, new_game, resolve
from hogengine.rules import RULE_SETS

RULES = [rules.id for rules in RULE_SETS]
TARGET_RATE = {"sqlite": 1_000, "postgresql": 1_500}  # turns/s of one process, saturated
TARGET_P99_MS = {"sqlite": 25.0, "postgresql": 25.0}  # a turn's p99 in the paced phase, one process
TARGET_BARE_SHARE = 0.6  # of the bare aiosqlite loop's rate measured in the same run (SQLite)
TARGET_TWO_PROCESSES = 1.5  # two service processes on one PostgreSQL server, saturated, against one
READY, GO = b"ready\n", b"go\n"  # a worker process's games are set up; its clients may start
DOUBLE_CLICK = 0.10
STALE_CLICK = 0.05


@dataclass
class Tally:
    """What the clients saw: the latency of every press that played a turn and of every refused one, and
    each turn they were told they played."""

    turn_latencies: list[float] = field(default_factory=list)
    refused_latencies: list[float] = field(default_factory=list)
    played: set[tuple[int, int]] = field(default_factory=set)
    finished_at: list[float] = field(default_factory=list)
    duplicates: int = 0
    stale_played: int = 0  # stale presses that played a turn: must stay 0

    def taken(self, match_id: int, turn: int) -> None:
        if (match_id, turn) in self.played:
            self.duplicates += 1
        self.played.add((match_id, turn))
        self.finished_at.append(time.perf_counter())


async def timed(tally: Tally, match: Match, press: Awaitable[Played | None]) -> Match | None:
    """Time one press; the match after the turn it played, or None if it was refused."""
    start = time.perf_counter()
    try:
        played = await press
    except StaleAction:
        played = None
    elapsed = time.perf_counter() - start
    if played is None:
        tally.refused_latencies.append(elapsed)
        return None
    tally.turn_latencies.append(elapsed)
    tally.taken(match.id, played.result.before.turn)
    return played.match


async def press(service: GameService, match: Match, turn: int) -> Played | None:
    """The move of whoever is to move: the person's press on this turn's board, or the bot's turn."""
    if match.is_bot_turn:
        return await service.bot_turn(match.id)
    person = match.player_to_move
    assert person is not None
    return await service.play(match.id, person.id, turn, random.choice(legal_choices(match.state)))


async def stale_press(service: GameService, tally: Tally, match: Match, turn: int) -> None:
    """A person pressing a button of an earlier turn (a client that has not seen the edit yet), whoever
    is to move now: it must be refused."""
    person = random.choice([player for player in match.players if player is not None])
    choice = random.choice(legal_choices(match.state))
    if await timed(tally, match, service.play(match.id, person.id, turn, choice)) is not None:
        tally.stale_played += 1


async def play_to_end(service: GameService, tally: Tally, match: Match, think: float) -> Match:
    """Play one match to its end the way a channel full of people would, clumsy clicks included."""
    while match.status is MatchStatus.ACTIVE:
        if think:
            await asyncio.sleep(random.expovariate(1 / think))
        turn = match.state.turn
        if turn and random.random() < STALE_CLICK:
            await stale_press(service, tally, match, turn - 1)
        presses = 2 if random.random() < DOUBLE_CLICK else 1
        after = await asyncio.gather(
            *(timed(tally, match, press(service, match, turn)) for _ in range(presses))
        )
        match = next((played for played in after if played is not None), None) or await service.get(match.id)
    return match


async def client(service: GameService, tally: Tally, match: Match, think: float, until: float) -> list[Match]:
    """Play a match, then rematches (seats swapped) until `until`; every match it played."""
    played = [await play_to_end(service, tally, match, think)]
    while time.perf_counter() < until:
        voters = [player.id for player in played[-1].players if player is not None]
        new = None
        for voter in voters:
            new = await service.rematch(played[-1].id, voter)
        assert new is not None
        played.append(await play_to_end(service, tally, new, think))
    return played


async def start_games(service: GameService, count: int, first_channel: int) -> list[Match]:
    """`count` games in channels of their own: odd ones against the bot, even ones between two people."""
    matches = []
    for index in range(count):
        channel = first_channel + index
        alice, bob = Player(2 * channel, f"p{2 * channel}"), Player(2 * channel + 1, f"p{2 * channel + 1}")
        rules = RULES[index % len(RULES)]
        if index % 2:
            matches.append(await service.vs_bot(channel, alice, rules=rules, level="course"))
        else:
            pending = await service.challenge(channel, alice, bob, rules=rules)
            matches.append(await service.accept(pending.id, bob.id))
    return matches


async def verify(service: GameService, matches: list[Match], tally: Tally) -> int:
    """Every turn stored exactly once, numbered 0..n-1, replaying to the stored state; returns turns."""
    total = 0
    played: dict[int, set[int]] = {}
    for match_id, number in tally.played:
        played.setdefault(match_id, set()).add(number)
    for match in matches:
        stored = await service.get(match.id)
        turns = [record.result for record in await service.turns(match.id)]
        numbers = [turn.before.turn for turn in turns]
        assert stored.status is MatchStatus.FINISHED, f"match {match.id} did not finish"
        assert numbers == list(range(stored.state.turn)), f"gap in match {match.id}"
        assert set(numbers) == played.get(match.id, set()), f"match {match.id}: lost turn"
        state = new_game(stored.rules, stored.goal)
        for turn in turns:
            state = resolve(state, turn.choice, turn.outcomes).after
        assert state == stored.state, f"match {match.id}: stored state is not the replay of its turns"
        total += len(turns)
    assert tally.duplicates == 0, "a turn was reported played twice"
    assert tally.stale_played == 0, "a stale press played a turn"
    return total


@dataclass(frozen=True)
class Run:
    """One phase as the clients saw it: games, matches and turns played, seconds, turns while every client
    still started games, and the latency (ms) of each press that played a turn and of each refused one."""

    games: int
    matches: int
    turns: int
    seconds: float
    steady: float
    turn_ms: list[float]
    refused_ms: list[float]

    @property
    def rate(self) -> float:
        return self.turns / self.seconds

    @classmethod
    def together(cls, runs: list["Run"]) -> "Run":
        """Runs of processes side by side, as one."""
        return cls(
            sum(run.games for run in runs),
            sum(run.matches for run in runs),
            sum(run.turns for run in runs),
            max(run.seconds for run in runs),
            sum(run.steady for run in runs),
            [ms for run in runs for ms in run.turn_ms],
            [ms for run in runs for ms in run.refused_ms],
        )


def percentile(values: list[float], share: float) -> float:
    return statistics.quantiles(values, n=1000)[int(share * 1000) - 1] if len(values) > 1 else values[0]


Ready = Callable[[], Awaitable[None]]  # returns when every process side by side may start its clients


async def alone() -> None:
    """One process alone starts its clients at once."""


async def phase(
    service: GameService,
    *,
    games: int,
    think: float,
    seconds: float,
    first_channel: int,
    ready: Ready = alone,
) -> Run:
    """`games` concurrent clients, each playing matches back to back for `seconds`, then checked; the
    clients start once the games are set up and `ready` returns."""
    first = await start_games(service, games, first_channel)
    await ready()
    tally = Tally()
    start = time.perf_counter()
    runs = await asyncio.gather(*(client(service, tally, m, think, start + seconds) for m in first))
    elapsed = time.perf_counter() - start
    matches = [match for run in runs for match in run]
    turns = await verify(service, matches, tally)
    steady = sum(1 for at in tally.finished_at if at <= start + seconds) / seconds
    turn_ms = [latency * 1000 for latency in tally.turn_latencies]
    return Run(
        games, len(matches), turns, elapsed, steady, turn_ms, [x * 1000 for x in tally.refused_latencies]
    )


def report(name: str, run: Run) -> None:
    ms, refused = run.turn_ms, run.refused_ms
    print(
        f"{name:>9}: {run.games} concurrent games ({run.matches} played to the end), {run.turns} turns in"
        f" {run.seconds:.2f} s = {run.rate:,.0f} turns/s ({run.steady:,.0f}/s while all {run.games} ran);"
        f" all verified\n{'':>11}presses that played a turn: {len(ms)}, latency p50 {percentile(ms, 0.5):.2f}"
        f" ms, p99 {percentile(ms, 0.99):.2f} ms, max {max(ms):.1f} ms\n{'':>11}refused presses (stale,"
        f" double, nothing to do): {len(refused)}, latency p50 {percentile(refused, 0.5):.2f} ms,"
        f" p99 {percentile(refused, 0.99):.2f} ms"
    )


async def service_phases(
    settings: Settings,
    games: int,
    seconds: float,
    rate: float,
    *,
    first_channel: int = 1,
    ready: Ready = alone,
) -> tuple[Run, Run]:
    """The saturated and the paced phase on the services opened by these settings, each starting its
    clients when `ready` returns."""
    services = await Services.open(settings.services)
    try:
        service = services.games
        saturated = await phase(
            service, games=games, think=0.0, seconds=seconds, first_channel=first_channel, ready=ready
        )
        paced = await phase(
            service,
            games=games,
            think=games / rate,
            seconds=seconds,
            first_channel=first_channel,
            ready=ready,
        )
    finally:
        await services.close()
    return saturated, paced


def engine_rate(turns: int = 20_000) -> float:
    """Reference: turns per second of the bare engine (commit-reveal dice + resolve), no storage."""
    rng = random.Random(1)
    seed = new_seed()
    state = new_game(RULES[0])
    start = time.perf_counter()
    for index in range(turns):
        if state.over:
            state = new_game(RULES[index % len(RULES)])
        choice = rng.choice(legal_choices(state))
        count, sides = dice_for(state, choice)
        state = resolve(state, choice, seeded_rolls(seed, state.turn, count, sides)).after
    return turns / (time.perf_counter() - start)


async def sqlite_rate(path: Path, turns: int = 5_000) -> float:
    """Reference: a bare aiosqlite loop, one transaction per turn of the service's write shape
    (BEGIN IMMEDIATE, UPDATE, INSERT, COMMIT), WAL and synchronous=NORMAL as the service."""
    async with aiosqlite.connect(path, isolation_level=None) as conn:
        await conn.execute("PRAGMA journal_mode = WAL")
        await conn.execute("PRAGMA synchronous = NORMAL")
        await conn.execute("CREATE TABLE m (id INTEGER PRIMARY KEY, turn INTEGER NOT NULL)")
        await conn.execute("CREATE TABLE t (m INTEGER, turn INTEGER, data TEXT, PRIMARY KEY (m, turn))")
        await conn.execute("INSERT INTO m VALUES (1, 0)")
        start = time.perf_counter()
        for turn in range(turns):
            await conn.execute("BEGIN IMMEDIATE")
            await conn.execute("UPDATE m SET turn = turn + 1 WHERE id = 1 AND turn = ?", (turn,))
            await conn.execute("INSERT INTO t VALUES (1, ?, '[1, 2, 3]')", (turn,))
            await conn.commit()
        return turns / (time.perf_counter() - start)


async def asyncpg_rate(url: str, turns: int = 5_000) -> float:
    """Reference: a bare asyncpg loop, one transaction per turn of the service's write shape (UPDATE,
    INSERT, COMMIT), on the database the service uses."""
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("CREATE TABLE bare_m (id INTEGER PRIMARY KEY, turn INTEGER NOT NULL)")
        await conn.execute("CREATE TABLE bare_t (m INTEGER, turn INTEGER, data TEXT, PRIMARY KEY (m, turn))")
        await conn.execute("INSERT INTO bare_m VALUES (1, 0)")
        start = time.perf_counter()
        for turn in range(turns):
            async with conn.transaction():
                await conn.execute("UPDATE bare_m SET turn = turn + 1 WHERE id = 1 AND turn = $1", turn)
                await conn.execute("INSERT INTO bare_t VALUES (1, $1, '[1, 2, 3]')", turn)
        return turns / (time.perf_counter() - start)
    finally:
        await conn.execute("DROP TABLE bare_m, bare_t")
        await conn.close()


async def sqlite_runs(args: argparse.Namespace) -> tuple[Run, Run, float]:
    """The service on a SQLite file, and the bare aiosqlite rate measured before and after it."""
    with tempfile.TemporaryDirectory() as folder:
        bare_before = await sqlite_rate(Path(folder) / "reference-before.sqlite3")
        settings = Settings(database_path=Path(folder) / "bench.sqlite3", _env_file=None)  # type: ignore[call-arg]
        saturated, paced = await service_phases(settings, args.games, args.seconds, args.rate)
        bare_after = await sqlite_rate(Path(folder) / "reference-after.sqlite3")
    print(
        f"bare aiosqlite, a transaction per turn: {bare_before:,.0f} turns/s before, {bare_after:,.0f} after"
    )
    return saturated, paced, (bare_before + bare_after) / 2  # both sides: the machine may be shared


async def worker_processes(url: str, args: argparse.Namespace, count: int) -> tuple[Run, Run]:
    """`count` service processes side by side on one database, each with its share of games and load in
    channels of its own, every phase's clients started together once every process has set its games up;
    their runs together."""
    command = [sys.executable, __file__, "--worker", url, "--seconds", str(args.seconds)]
    workers = [
        await asyncio.create_subprocess_exec(
            *command,
            "--games",
            str(args.games // count),
            "--rate",
            str(args.rate / count),
            "--first-channel",
            str(1 + index * 1_000_000),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        for index in range(count)
    ]
    for _ in range(2):  # the saturated phase, then the paced one
        for worker in workers:
            assert worker.stdout is not None
            if await worker.stdout.readline() != READY:
                raise SystemExit("a service process failed (see its error above)")
        for worker in workers:
            assert worker.stdin is not None
            worker.stdin.write(GO)
            await worker.stdin.drain()
    outputs = [await worker.communicate() for worker in workers]
    if any(worker.returncode for worker in workers):
        raise SystemExit("a service process failed (see its error above)")
    phases = [[Run(**run) for run in json.loads(out)] for out, _ in outputs]
    return Run.together([runs[0] for runs in phases]), Run.together([runs[1] for runs in phases])


async def told_to_go() -> None:
    """A worker process says its games are set up and waits for the word to start its clients."""
    sys.stdout.buffer.write(READY)
    sys.stdout.flush()
    if await asyncio.to_thread(sys.stdin.buffer.readline) != GO:
        raise SystemExit("the benchmark stopped")


async def postgresql_runs(args: argparse.Namespace) -> tuple[tuple[Run, Run], tuple[Run, Run], float]:
    """One service process, then two, on PostgreSQL (a fresh database each), and the bare asyncpg rate."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the source tree, for its tests/
    from tests.postgres_server import PostgresServer  # noqa: PLC0415 - the test suite's throwaway server

    server = None if args.database_url else PostgresServer(durable=True)
    if server is not None:
        server.start()
    try:
        url = args.database_url or server.new_database()
        bare = await asyncpg_rate(url)
        print(f"bare asyncpg, a transaction per turn: {bare:,.0f} turns/s")
        # One process as two are: a fresh one of its own, not this one after its SQLite phases.
        one = await worker_processes(url, args, 1)
        two = await worker_processes(args.database_url or server.new_database(), args, 2)
    finally:
        if server is not None:
            server.stop()
    return one, two, bare


def verdict(
    database: str, saturated: Run, paced: Run, bare: float | None = None, two: Run | None = None
) -> bool:
    """Print the targets of one process on this database and whether all are met; with `bare`, the rate of
    the bare loop in this run, the saturated rate's share of it is one; with `two`, two processes' saturated
    run, their rate against one process's."""
    p99 = percentile(paced.turn_ms, 0.99)
    targets = [
        (
            f">= {TARGET_RATE[database]:,} turns/s (saturated {saturated.rate:,.0f})",
            saturated.rate >= TARGET_RATE[database],
        ),
        (
            f"p99 <= {TARGET_P99_MS[database]:.0f} ms for a turn at the offered load (paced {p99:.2f} ms)",
            p99 <= TARGET_P99_MS[database],
        ),
    ]
    if bare is not None:
        share = saturated.rate / bare
        targets.append((f">= {TARGET_BARE_SHARE} of the bare loop ({share:.2f})", share >= TARGET_BARE_SHARE))
    if two is not None:
        ratio = two.rate / saturated.rate
        targets.append(
            (f"two processes >= {TARGET_TWO_PROCESSES}x one ({ratio:.2f})", ratio >= TARGET_TWO_PROCESSES)
        )
    print(f"  targets ({database}, one process):")
    for target, met in targets:
        print(f"    {target}: {'met' if met else 'NOT met'}")
    return all(met for _, met in targets)


def load_average(when: str) -> None:
    """The machine's load, beside the figures: the rates depend on what else runs (the ratios less so)."""
    one, five, fifteen = os.getloadavg()
    cores = len(os.sched_getaffinity(0))
    print(f"load average {when}: {one:.2f} {five:.2f} {fifteen:.2f} (1, 5, 15 min) on {cores} cores")


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="concurrent games")
    parser.add_argument("--seconds", type=float, default=5.0, help="how long each phase starts new games")
    parser.add_argument("--rate", type=float, default=1000.0, help="turns/s offered in the paced phase")
    parser.add_argument(
        "--database",
        choices=("sqlite", "postgresql"),
        default="postgresql",
        help="postgresql: SQLite, then PostgreSQL beside it (the default); sqlite: the SQLite file alone",
    )
    parser.add_argument("--database-url", help="a PostgreSQL database to use instead of a throwaway server")
    parser.add_argument("--worker", metavar="URL", help=argparse.SUPPRESS)  # one of several processes
    parser.add_argument("--first-channel", type=int, default=1, help=argparse.SUPPRESS)
    args = parser.parse_args()
    random.seed(61 + args.first_channel)
    if args.worker:
        settings = Settings(database_url=args.worker, _env_file=None)  # type: ignore[call-arg]
        runs = await service_phases(
            settings, args.games, args.seconds, args.rate, first_channel=args.first_channel, ready=told_to_go
        )
        print(json.dumps([asdict(run) for run in runs]))
        return 0
    load_average("at the start")
    saturated, paced, bare = await sqlite_runs(args)
    report("saturated", saturated)
    report("paced", paced)
    engine = engine_rate()
    print(f"reference: engine alone {engine:,.0f} turns/s")
    ratios = (
        f"service/bare-aiosqlite {saturated.rate / bare:.2f}, service/engine {saturated.rate / engine:.3f}"
    )
    print(f"    ratio: {ratios}")
    met = verdict("sqlite", saturated, paced, bare)
    if args.database == "postgresql":
        (one, one_paced), (two, two_paced), bare_pg = await postgresql_runs(args)
        print("PostgreSQL, one service process:")
        report("saturated", one)
        report("paced", one_paced)
        print("PostgreSQL, two service processes on the one database (each half the games and load):")
        report("saturated", two)
        report("paced", two_paced)
        print(
            f"    ratio: one process/bare-asyncpg {one.rate / bare_pg:.2f}, PostgreSQL/SQLite"
            f" {one.rate / saturated.rate:.2f}, two processes/one {two.rate / one.rate:.2f}"
            f" (on {len(os.sched_getaffinity(0))} cores)"
        )
        met = verdict("postgresql", one, one_paced, two=two) and met
    load_average("at the end")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
