"""Discord's global rate limit under many games: two shard processes of `python -m bot` (HOG_SHARD_COUNT=2,
one PostgreSQL database) against the test suite's fake Discord (tests/bot/discord/fake_discord.py) over real
sockets, the fake enforcing Discord's limits: 50 requests a second with the bot's token in all (a 429 with
the global flag beyond it) and each channel's 5 posts, 5 edits and 5 deletes of messages per window.

By default 1,000 games, as the issue that set the targets asked. Games are paced as people play, a move
every `--think` seconds (uniform): two-person games (a challenge accepted, then each person rolls six dice
when the board says it is their turn, told by their turn notice) and games against the house (a person
rolls, the house answers on the board), spread over servers on both shards, a few games a channel. Measured
while they play: the calls bound by the global limit per turn (a person's turn; against the house, the press
and the house's answer), the 429s the fake answered, and from a press to the other person's turn notice
arriving at Discord (two-person) or to the house's answer on the board (against the house), and where that
wait went: to the bot's callback, to the pressed message's edit, to the notice (the house's answer). Beside
them, where the cores went: each process's share of a core (the bots, PostgreSQL with its backends, this
process: the fake Discord and every player) and its time waiting for one, the whole machine's busy share and
so the other jobs' (on a shared machine the tail of a wait is mostly a process waiting for a core), and how
late this process's own event loop woke. Reference, measured alongside: the same games with
HOG_ANSWER_THROUGH_PRESSES=false, notices and the house's moves by the channel as before this budget (2.0
and 0.89 calls a turn). Targets: <= 0.1 calls a turn, no 429, the notice's p99 <= 1 s.

    python bench/bench_discord_budget.py [--games 1000] [--seconds 60] [--think 5:15] [--per-channel 4]
"""

import argparse
import asyncio
import contextvars
import gc
import os
import random
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import web
from bench_activity import drain, summary
from bench_load import load_average, percentile
from cpu_use import Window

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the source tree, for its tests/
from tests.bot.discord.fake_discord import GUILD_ID, FakeDiscord, Limits, Request, member, user
from tests.bot.discord.over_sockets import button, spawn_bot
from tests.postgres_server import PostgresServer

TARGET_CALLS_PER_TURN = 0.1
TARGET_P99_S = 1.0
ROLL = "Roll 6"
GOAL = 100
LINK = "https://discord.com/channels/"
ARRIVING: contextvars.ContextVar[Request] = contextvars.ContextVar("arriving")


class Watched(FakeDiscord):
    """The fake Discord, telling each game's client when a request about its board was answered: a board
    edited (through a press's webhook or by the channel), a notice posted or deleted; and which board each
    request was about, to count calls by kind of game."""

    def __init__(self, guilds: list[int]) -> None:
        super().__init__(guilds=guilds, shards=2, limits=Limits())
        self.changed: dict[str, asyncio.Event] = defaultdict(asyncio.Event)
        self.noticed: dict[tuple[str, str], float] = {}  # (board, person id) -> when their notice came
        self.board_of: dict[str, str] = {}  # a notice's message id -> its board
        self.calls: list[tuple[bool, str | None]] = []  # each request answered: global-limited? its board
        self.answered: dict[str, float] = {}  # when each interaction was called back, by token
        self.edited: dict[str, float] = {}  # when each interaction's message was first edited, by token
        self.playing = False  # once the games play, requests are counted, not kept (see `_arrived`)
        self.arrived = ARRIVING.set

    async def _arrived(self, record: Request) -> None:
        """While the games play, a request is only counted (`_rest`): the fake's log of every request and
        its body would grow by hundreds a second, and collecting it stall this process's event loop."""
        if self.playing:
            ARRIVING.set(record)
        else:
            await super()._arrived(record)

    async def _rest(self, request: web.Request) -> web.Response:
        answer = await super()._rest(request)
        record = ARRIVING.get()  # set as this request arrived (each request is answered in a task of its own)
        board = self._board(record, answer)
        self.calls.append((record.global_limited, board))
        if board is not None:
            self.changed[board].set()
        return answer

    def _board(self, record: Request, answer: web.Response) -> str | None:
        parts = record.path.strip("/").split("/")
        if parts[0] == "interactions":
            self.answered.setdefault(parts[2], record.at)
            return self._sources.get(parts[2]) or self._originals.get(parts[2])
        content = record.body.get("content") if isinstance(record.body, dict) else None
        if (
            record.method == "POST"
            and isinstance(content, str)
            and content.startswith("<@")
            and LINK in content
        ):
            board = content.rsplit("/", 1)[-1]
            if answer.status == 200 and isinstance(answer, web.Response) and answer.text:
                self.board_of[_id_of(answer.text)] = board
            person = content[2 : content.index(">")]
            self.noticed.setdefault((board, person), time.monotonic())
            return board
        if parts[0] == "webhooks" and parts[-1] == "@original":
            if record.method == "PATCH":
                self.edited.setdefault(parts[2], record.at)
            return self._originals.get(parts[2]) or self._sources.get(parts[2])
        if parts[0] in ("channels", "webhooks") and len(parts) >= 4 and parts[-2] == "messages":
            return self.board_of.get(parts[-1], parts[-1] if parts[-1] in self.messages else None)
        return None


def _id_of(text: str) -> str:
    return text.split('"id": "', 1)[1].split('"', 1)[0]


@dataclass
class Tally:
    """What the games saw."""

    turns: dict[str, int] = field(default_factory=lambda: defaultdict(int))  # by kind
    notice: list[float] = field(default_factory=list)  # press -> the other person's notice (two-person)
    house: list[float] = field(default_factory=list)  # press -> the house's answer on the board
    # Where each of those went, by kind: Discord told of the press (the bot's callback came), the press's
    # message first edited after that, the notice (the house's answer) after that.
    stages: dict[str, list[tuple[float, float, float]]] = field(default_factory=lambda: defaultdict(list))
    missed: int = 0  # waits that never saw their answer before the end


class Game:
    """One game's people, as a client: they press when the board says it is their move."""

    def __init__(self, fake: Watched, number: int, guild: int, vs_bot: bool) -> None:
        self.fake, self.guild, self.vs_bot = fake, guild, vs_bot
        self.kind = "vs-bot" if vs_bot else "two-person"
        base = 100_000 + 2 * number
        self.people = [user(base, f"p{number}a"), user(base + 1, f"p{number}b")]
        self.board = ""

    async def start(self, hog_id: str) -> None:
        second = self.people[1]
        if self.vs_bot:
            token = await self._command(hog_id, "vs-bot", [{"name": "goal", "type": 4, "value": GOAL}], [])
        else:
            options = [
                {"name": "opponent", "type": 6, "value": second["id"]},
                {"name": "goal", "type": 4, "value": GOAL},
            ]
            token = await self._command(hog_id, "challenge", options, [second])
        self.board = await self._original(token)
        if not self.vs_bot:
            await self._press(second, "Accept")
            await self._until(lambda: self._to_move() is not None)

    async def play(self, tally: Tally, think: tuple[float, float], until: float) -> None:
        while time.monotonic() < until:
            person = self._to_move()
            if person is None:
                return  # the game is over
            thought = random.uniform(*think)
            if time.monotonic() + thought >= until:
                return  # this move would come after the games stop: none is made
            await asyncio.sleep(thought)
            other = self.people[1] if person is self.people[0] else self.people[0]
            key = (self.board, other["id"])
            self.fake.noticed.pop(key, None)
            before = self.fake.messages[self.board]["embeds"][0]["footer"]["text"]
            pressed = time.monotonic()
            token = await self._press(person, ROLL)
            # The board shows the turn and who is to move next (against the house: its answer), or the end.
            seen = await self._until(lambda before=before: self._settled(before), until)
            came, latencies = time.monotonic(), tally.house if self.vs_bot else None
            if not self.vs_bot and seen and self._to_move() is other:
                seen = await self._until(lambda key=key: key in self.fake.noticed, until)
                came, latencies = self.fake.noticed.get(key, came), tally.notice
            if not seen:
                tally.missed += 1
                return
            if latencies is not None:
                latencies.append(came - pressed)
                answered, edited = self.fake.answered[token], self.fake.edited.get(token)
                if edited is not None:
                    tally.stages[self.kind].append((answered - pressed, edited - answered, came - edited))
            tally.turns[self.kind] += 1

    def _to_move(self) -> dict[str, Any] | None:
        content = self.fake.messages[self.board]["content"]
        return next((p for p in self.people if content == f"<@{p['id']}>, your move."), None)

    def _over(self) -> bool:
        return "wins" in self.fake.messages[self.board]["embeds"][0]["description"]

    def _settled(self, before: str) -> bool:
        after = self.fake.messages[self.board]["embeds"][0]["footer"]["text"]
        return after != before and (self._to_move() is not None or self._over())

    async def _until(self, check: Any, until: float = float("inf")) -> bool:
        event = self.fake.changed[self.board]
        while not check():
            event.clear()
            left = max(until + 30 - time.monotonic(), 0.001)
            try:
                await asyncio.wait_for(event.wait(), left)
            except TimeoutError:
                return check()
        return True

    async def _press(self, person: dict[str, Any], label: str) -> str:
        """Press a button of the board; once the bot called the press back, its token."""
        custom_id = button(self.fake.messages[self.board], label)
        token = await self.fake.interact(person, {"custom_id": custom_id, "component_type": 2}, self.board)
        await self._until(lambda: token in self.fake.answered)
        return token

    async def _command(
        self, hog_id: str, name: str, options: list[dict[str, Any]], others: list[dict[str, Any]]
    ) -> str:
        people = {p["id"]: p for p in others}
        data = {
            "id": hog_id,
            "name": "hog",
            "type": 1,
            "options": [{"name": name, "type": 1, "options": options}],
            "resolved": {
                "users": people,
                "members": {key: member(value) | {"user": None} for key, value in people.items()},
            },
        }
        return await self.fake.interact(self.people[0], data, guild_id=self.guild)

    async def _original(self, token: str) -> str:
        while token not in self.fake._originals:
            await self.fake.until(lambda r: token in r.path)
        return self.fake.original(token)


def guilds_for(games: int, per_channel: int) -> list[int]:
    """Servers (one #hog each) for the games, alternately on shard 0 and shard 1 of 2."""
    count = max(2, -(-games // per_channel))
    return [GUILD_ID] + [(k << 22) | (GUILD_ID + k) for k in range(1, count)]


async def stalls(into: list[float], every: float = 0.05) -> None:
    """How late this process's event loop wakes from each sleep of `every` seconds: what the fake Discord and
    the players lose to their own process (its work, its garbage collection, its wait for a core)."""
    while True:
        asleep = time.monotonic()
        await asyncio.sleep(every)
        into.append(time.monotonic() - asleep - every)


async def shard_process(
    discord_url: str, data: Path, database_url: str, shard: int, through: bool
) -> asyncio.subprocess.Process:
    """`python -m bot` running shard `shard` of 2 on the database, in the folder `data`."""
    data.mkdir()
    settings = {
        "HOG_DATABASE_URL": database_url,
        "HOG_SHARD_COUNT": "2",
        "HOG_SHARD_IDS": str(shard),
        "HOG_ANSWER_THROUGH_PRESSES": "true" if through else "false",
        "HOG_TURN_TIMEOUT_SECONDS": "600",
        "HOG_BOT_MOVE_DELAY_SECONDS": "0",
    }
    return await spawn_bot(discord_url, data, **settings)


async def phase(args: argparse.Namespace, server: PostgresServer, through: bool) -> dict[str, Any]:
    """Two shard processes, the games played for `--seconds`: what was counted."""
    url = server.new_database()
    guilds = guilds_for(args.games, args.per_channel)
    fake = Watched(guilds)
    await fake.start()
    bots: list[asyncio.subprocess.Process] = []
    readers = []
    with tempfile.TemporaryDirectory() as folder:
        try:
            for shard in (0, 1):
                bots.append(await shard_process(fake.url, Path(folder) / str(shard), url, shard, through))
                readers.append(asyncio.create_task(drain(bots[-1])))
            await fake.connected(timeout=600.0)  # both shards identified
            while str(GUILD_ID) not in fake.commands:
                await fake.until(lambda r: r.method == "PUT")  # the commands synced to the dev server
            (hog,) = fake.commands[str(GUILD_ID)]
            games = [
                Game(fake, n, guilds[n // args.per_channel % len(guilds)], vs_bot=n % 2 == 1)
                for n in range(args.games)
            ]
            gate = asyncio.Semaphore(10)

            async def start(game: Game) -> None:
                async with gate:
                    await game.start(hog["id"])

            await asyncio.gather(*(start(game) for game in games))
            tally, lags = Tally(), list[float]()
            fake.playing = True
            gc.freeze()  # what the start made stays: the collector need not walk it again while they play
            since, throttled = len(fake.calls), len(fake.throttled)
            postmaster = int((server.data / "postmaster.pid").read_text().split()[0])
            processes = {f"bot shard {shard}": (bot.pid, False) for shard, bot in enumerate(bots)}
            processes |= {"PostgreSQL": (postmaster, True), "this process": (os.getpid(), False)}
            cores = Window(processes)
            begun = time.monotonic()
            until = begun + args.seconds
            think = tuple(float(part) for part in args.think.split(":"))
            watch = asyncio.create_task(stalls(lags))
            await asyncio.gather(*(game.play(tally, (think[0], think[1]), until) for game in games))
            elapsed = time.monotonic() - begun
            watch.cancel()
            shares = cores.close()
            window = fake.calls[since:]
        finally:
            for bot in bots:
                bot.terminate()
            for bot in bots:
                await bot.wait()
            for reader in readers:
                reader.cancel()
    await fake.stop()
    kinds = {game.board: game.kind for game in games}
    bound: dict[str, int] = defaultdict(int)
    for limited, board in window:
        if limited:
            bound[kinds.get(board or "", "unattributed")] += 1
    return {
        "through": through,
        "tally": tally,
        "bound": bound,
        "throttled": len(fake.throttled) - throttled,
        "elapsed": elapsed,
        "cores": shares,
        "lags": lags,
    }


def report(result: dict[str, Any], games: int) -> float:
    """Print a phase's figures; its global-limited calls a turn."""
    tally: Tally = result["tally"]
    turns = sum(tally.turns.values())
    calls = sum(result["bound"].values())
    way = "through the presses (this budget)" if result["through"] else "by the channel (as before)"
    print(
        f"{way}: {games} games, {turns} turns in {result['elapsed']:.1f} s ="
        f" {turns / result['elapsed']:.1f} turns/s"
    )
    for kind in ("two-person", "vs-bot"):
        made = tally.turns[kind]
        print(
            f"  {kind}: {made} turns, {result['bound'][kind]} global-limited calls = "
            f"{result['bound'][kind] / max(made, 1):.2f} a turn"
        )
    if result["bound"]["unattributed"]:
        print(f"  not about a board: {result['bound']['unattributed']} calls")
    print(
        f"  all: {calls} global-limited calls = {calls / max(turns, 1):.3f} a turn;"
        f" 429s: {result['throttled']}"
    )
    print(f"  {summary('press -> the other person notified', tally.notice)}")
    print(f"  {stages(tally.stages['two-person'], 'the notice')}")
    print(f"  {summary('press -> the house answered on the board', tally.house)}")
    print(f"  {stages(tally.stages['vs-bot'], 'the house answered')}")
    if tally.missed:
        print(f"  {tally.missed} presses whose answer never came before the end")
    print(f"  {result['cores']}")
    print(f"  {summary('this process (the fake Discord, the players) woke late', result['lags'])}")
    return calls / max(turns, 1)


def stages(split: list[tuple[float, float, float]], last: str) -> str:
    """Where those waits went, p50 / p99 of each stage (a stage's p99s do not add up to the whole's)."""
    names = ("the press called back", "its message edited", last)
    each = (
        f"{name} {percentile(values, 0.5) * 1000:.1f} / {percentile(values, 0.99) * 1000:.1f} ms"
        for name, values in zip(names, map(list, zip(*split, strict=True)), strict=True)
    )
    return f"  by stage (p50 / p99): {', then '.join(each)}" if split else "  by stage: none"


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="concurrent games, half of them vs the house")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long they play")
    parser.add_argument("--think", default="5:15", help="a person's thought before a move, seconds: low:high")
    parser.add_argument("--per-channel", type=int, default=4, help="games in one channel")
    args = parser.parse_args()
    load_average("at the start")
    server = PostgresServer(durable=True)
    server.start()
    try:
        new = await phase(args, server, through=True)
        old = await phase(args, server, through=False)
    finally:
        server.stop()
    per_turn = report(new, args.games)
    before = report(old, args.games)
    p99 = percentile(new["tally"].notice, 0.99) if new["tally"].notice else float("inf")
    print(f"ratios: calls a turn, through presses / by the channel = {per_turn / max(before, 1e-9):.3f}")
    load_average("at the end")
    met = per_turn <= TARGET_CALLS_PER_TURN and new["throttled"] == 0 and p99 <= TARGET_P99_S
    print(
        f"targets: <= {TARGET_CALLS_PER_TURN} global-limited calls a turn, no 429, notice p99 <="
        f" {TARGET_P99_S:g} s: {'met' if met else 'NOT met'}"
    )
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
