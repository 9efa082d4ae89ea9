"""Load benchmark of the game service on a real SQLite file: 200 concurrent games played to the end.

Half the games are against the house bot, half between two people; clicks are random, with double
clicks and stale clicks (a person pressing a button of the previous turn) mixed in. Latencies are
reported apart for presses that played a turn and for those refused (stale, double, nothing to do),
which are much faster. Two phases:
  saturated  every client presses again as soon as its last press returns (throughput);
  paced      clients think between presses, offering a fixed rate (latency under a realistic load).
Afterwards every match is checked: turn numbers contiguous, no press lost or counted twice, and the
stored state equal to the replay of the stored turns. References measured in the same run: the raw
engine (dice + `resolve`) and a bare aiosqlite loop of the same write transaction shape.

    python bench/bench_load.py [--games 200] [--seconds 5] [--rate 1000]
"""

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable
from dataclasses import dataclass, field
from pathlib import Path

import aiosqlite

from bot.config import Settings
from bot.services import GameService, Match, MatchStatus, Played, Player, Services, StaleAction
from hogengine.dice import new_seed, seeded_rolls
from hogengine.game import dice_for, legal_choices, new_game, resolve
from hogengine.rules import RULE_SETS

RULES = [rules.id for rules in RULE_SETS]
TARGET_RATE = 1_000
TARGET_P99_MS = 25.0
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


async def start_games(service: GameService, count: int) -> list[Match]:
    """`count` games in channels of their own: odd ones against the bot, even ones between two people."""
    matches = []
    for index in range(count):
        channel = 1 + index
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
class Result:
    """Turns per second, and the latency percentiles (ms) of the presses that played a turn."""

    rate: float
    p50: float
    p99: float


def percentile(values: list[float], share: float) -> float:
    return statistics.quantiles(values, n=1000)[int(share * 1000) - 1] if len(values) > 1 else values[0]


async def phase(service: GameService, name: str, *, games: int, think: float, seconds: float) -> Result:
    """`games` concurrent clients, each playing matches back to back for `seconds`, then checked."""
    first = await start_games(service, games)
    tally = Tally()
    start = time.perf_counter()
    runs = await asyncio.gather(*(client(service, tally, m, think, start + seconds) for m in first))
    elapsed = time.perf_counter() - start
    matches = [match for run in runs for match in run]
    turns = await verify(service, matches, tally)
    ms = [latency * 1000 for latency in tally.turn_latencies]
    refused = [latency * 1000 for latency in tally.refused_latencies]
    steady = sum(1 for at in tally.finished_at if at <= start + seconds) / seconds
    result = Result(turns / elapsed, percentile(ms, 0.5), percentile(ms, 0.99))
    print(
        f"{name:>9}: {games} concurrent games ({len(matches)} played to the end), {turns} turns in"
        f" {elapsed:.2f} s = {result.rate:,.0f} turns/s ({steady:,.0f}/s while all {games} ran);"
        f" all verified\n{'':>11}presses that played a turn: {len(ms)}, latency p50 {result.p50:.2f} ms,"
        f" p99 {result.p99:.2f} ms, max {max(ms):.1f} ms\n{'':>11}refused presses (stale, double,"
        f" nothing to do): {len(refused)}, latency p50 {percentile(refused, 0.5):.2f} ms,"
        f" p99 {percentile(refused, 0.99):.2f} ms"
    )
    return result


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


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="concurrent games")
    parser.add_argument("--seconds", type=float, default=5.0, help="how long each phase starts new games")
    parser.add_argument("--rate", type=float, default=1000.0, help="turns/s offered in the paced phase")
    args = parser.parse_args()
    random.seed(61)
    with tempfile.TemporaryDirectory() as folder:
        bare_before = await sqlite_rate(Path(folder) / "reference-before.sqlite3")
        settings = Settings(database_path=Path(folder) / "bench.sqlite3", _env_file=None)  # type: ignore[call-arg]
        services = await Services.open(settings)
        service = services.games
        try:
            saturated = await phase(service, "saturated", games=args.games, think=0.0, seconds=args.seconds)
            think = args.games / args.rate
            paced = await phase(service, "paced", games=args.games, think=think, seconds=args.seconds)
        finally:
            await services.close()
        engine = engine_rate()
        bare_after = await sqlite_rate(Path(folder) / "reference-after.sqlite3")
    bare = (bare_before + bare_after) / 2  # measured on both sides of the phases: the machine may be shared
    print(
        f"reference: engine alone {engine:,.0f} turns/s; bare aiosqlite, a transaction per turn"
        f" {bare:,.0f}/s (before {bare_before:,.0f}, after {bare_after:,.0f})"
    )
    ratios = (
        f"service/bare-aiosqlite {saturated.rate / bare:.2f}, service/engine {saturated.rate / engine:.3f}"
    )
    print(f"    ratio: {ratios}")
    met = saturated.rate >= TARGET_RATE and paced.p99 <= TARGET_P99_MS
    print(
        f"  targets: >= {TARGET_RATE:,} turns/s (saturated {saturated.rate:,.0f}), p99 <= {TARGET_P99_MS} ms"
        f" for a turn at the offered load (paced {paced.p99:.2f} ms): {'met' if met else 'NOT met'}"
    )
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
