"""Two bot processes share two servers over one real PostgreSQL database, as an operator runs them
(HOG_SHARD_COUNT=2, HOG_SHARD_IDS=0 and =1), each `python -m bot` against the fake Discord over real
sockets: each connects its own shard and plays the games of its own server; one is killed mid-game and
restarted, and its game goes on to the end from the board the players see; while one is down, the other's
clock leaves that one's games alone, and the restarted process closes them itself."""

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest

from tests.bot.discord.conftest import Launch
from tests.bot.discord.fake_discord import GUILD_ID, FakeDiscord
from tests.bot.discord.over_sockets import LONG_GOAL, BotProcess, accepted_challenge, play_to_the_end, roll
from tests.hang import HANG
from tests.postgres_server import PostgresServer

OTHER_GUILD = (1 << 22) | 7101  # Discord puts it on shard 1 of 2; GUILD_ID is on shard 0
GUILDS = (GUILD_ID, OTHER_GUILD)
# Each match's status, stored turn number and how many turns are stored for it.
PLAYED = (
    "SELECT m.status, m.turn, COUNT(t.turn) AS turns FROM matches m JOIN turns t ON t.match_id = m.id"
    " GROUP BY m.id, m.status, m.turn ORDER BY m.id"
)


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """The fake Discord of two servers on two shards."""
    server = FakeDiscord(guilds=GUILDS, shards=2)
    await server.start()
    yield server
    await server.stop()


async def rows(url: str, sql: str) -> list[asyncpg.Record]:
    conn = await asyncpg.connect(url)
    try:
        return await conn.fetch(sql)
    finally:
        await conn.close()


async def test_two_processes_share_two_servers_over_postgresql(
    fake: FakeDiscord, launch: Launch, postgres: PostgresServer, tmp_path: Path
) -> None:
    url = postgres.new_database()
    folders = [tmp_path / "zero", tmp_path / "one"]
    for folder in folders:
        folder.mkdir()

    async def start(shard: int, timeout: str = "600") -> BotProcess:
        settings = {"HOG_DATABASE_URL": url, "HOG_SHARD_COUNT": "2", "HOG_TURN_TIMEOUT_SECONDS": timeout}
        return await launch(folders[shard], **settings, HOG_SHARD_IDS=str(shard))

    bots = [await start(0), await start(1)]
    assert [fake.identified[n]["shard"] for n in (0, 1)] == [[0, 2], [1, 2]]
    boards = [await accepted_challenge(fake, guild, LONG_GOAL) for guild in GUILDS]  # two rolls each at most
    for board in boards:
        await roll(fake, board)
    await bots[1].kill()  # mid-game, a crash of the process of shard 1
    await roll(fake, boards[0])  # the other server plays on meanwhile
    bots[1] = await start(1)
    for board in boards:
        await play_to_the_end(fake, board)
    played = await rows(url, PLAYED)
    assert [(row["status"], row["turns"] == row["turn"]) for row in played] == [("finished", True)] * 2

    # The clocks: two new games with a short turn clock; while the process of shard 0 is down, the other
    # process times out its own game and leaves the other alone, which the restarted process then closes.
    assert [await bot.terminate() for bot in bots] == [0, 0]
    bots = [await start(0, timeout="3"), await start(1, timeout="3")]
    for guild in GUILDS:
        await accepted_challenge(fake, guild)
    assert await bots[0].terminate() == 0
    assert await closed(url, 3) == ["finished", "finished", "active", "timeout"]  # shard 1's alone
    bots[0] = await start(0, timeout="3")
    assert await closed(url, 2) == ["finished", "finished", "timeout", "timeout"]
    assert [await bot.terminate() for bot in bots] == [0, 0]
    assert [bot.troubles() for bot in bots] == [[], []]


async def statuses(url: str) -> list[str]:
    """Every match's status, in the order they were made."""
    return [row["status"] for row in await rows(url, "SELECT status FROM matches ORDER BY id")]


async def closed(url: str, match: int) -> list[str]:
    """Every match's status once match number `match` (0 first) is no longer active: waited for as the
    processes' clocks tick on their own, however long a busy machine takes (a hang fails after HANG)."""
    async with asyncio.timeout(HANG):
        while (found := await statuses(url))[match] == "active":
            await asyncio.sleep(0.5)
    return found
