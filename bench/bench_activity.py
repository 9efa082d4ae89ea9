"""Throughput benchmark of the Activity: 200 concurrent instances, each with two pages on WebSockets, moves
paced as people play, against `python -m bot` (its own process, on a SQLite file) serving the Activity, with
the test suite's fake Discord (tests/bot/discord/fake_discord.py) playing Discord over real sockets.

Each page is what the browser's page does, as an HTTP and WebSocket client: it signs in (a code of the
fake's, exchanged by the bot at the fake's /oauth2/token, its person from /users/@me, the instance's people
from the activity-instances route), opens its socket and says who it is; in each instance one page waits
at the table and the other takes the seat, then whoever is to move thinks (`--think`, seconds, uniform)
and posts a move. Measured: from a move's POST to the other page's socket bringing that turn (the target:
p99 at most TARGET_P99_MS), the POST's own answer, the bot process's CPU per move; and on the fake Discord
every request the bot made: at most 50 a second with the bot's token in all (Discord's global limit; the
answers to interactions are not counted by Discord), at most 5 edits, 5 posts and 5 deletes of messages
in a channel per 5 seconds; and how long each board took to show each move (the boards are paced within
those limits, so under this load a board skips moves and shows the latest).

Reference, measured alongside: a bare aiohttp server (its own process) that only relays a POST to the
other page's socket, driven by the same pages at the same pace: what the machine's HTTP, WebSocket and
event loops cost without the game, the database, Discord or the boards.

    python bench/bench_activity.py [--instances 200] [--seconds 60] [--think 2:6]
"""

import argparse
import asyncio
import json
import os
import random
import re
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
from bench_load import load_average, percentile

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the source tree, for its tests/
from tests.bot.activity.conftest import free_port, serving
from tests.bot.discord.fake_discord import FakeDiscord, Request, user
from tests.bot.discord.over_sockets import spawn_bot

TARGET_P99_MS = 50.0
GLOBAL_LIMIT = 50  # requests a second with the bot's token (Discord's global rate limit)
CHANNEL_LIMIT = 5  # edits (and posts, and deletes) of messages in a channel per CHANNEL_WINDOW seconds
CHANNEL_WINDOW = 5.0
GUILD = 7100
FIRST_CHANNEL = 900_000
RULES = ("swine-align", "pork-chop", "pig-fest", "piggy-back")
SIGN_INS_AT_ONCE = 20  # people joining: a few at a time, not 400 in the same instant
FOOTER_TURN = re.compile(r"· turn (\d+) ·")
# The bare reference server: POST /move/<instance> relays the body to the instance's other sockets.
BARE_SERVER = """
import sys
from aiohttp import web
sockets = {}
async def live(request):
    socket = web.WebSocketResponse(heartbeat=20)
    await socket.prepare(request)
    instance = (await socket.receive_json())["token"]
    sockets.setdefault(instance, set()).add(socket)
    await socket.send_json({"type": "table", "table": {"turn": 0}})
    async for _ in socket:
        pass
    sockets[instance].discard(socket)
    return socket
async def move(request):
    body = await request.json()
    text = '{"type": "table", "table": {"turn": %d}}' % (body["turn"] + 1)
    for socket in sockets.get(request.match_info["instance"], ()):
        await socket.send_str(text)
    return web.json_response({"turn": body["turn"] + 1})
app = web.Application()
app.router.add_get("/api/live", live)
app.router.add_post("/move/{instance}", move)
web.run_app(app, host="127.0.0.1", port=int(sys.argv[1]), print=None)
"""


@dataclass
class Tally:
    """What the pages saw: each move's POST-to-other-page latency and POST answer time (seconds), and each
    move as (channel, turn after it, when it was posted), for the boards' lag."""

    pushed: list[float] = field(default_factory=list)
    answered: list[float] = field(default_factory=list)
    moves: list[tuple[int, int, float]] = field(default_factory=list)
    sign_ins: list[float] = field(default_factory=list)
    games: int = 0


@dataclass
class Page:
    """One simulated page: whose, its token, its socket, the turn its table shows, and the move it waits for
    the other page's socket to bring (the turn, and when its POST left)."""

    person: dict[str, Any]
    token: str = ""
    socket: aiohttp.ClientWebSocketResponse | None = None
    table: dict[str, Any] = field(default_factory=dict)
    turn: int = -1
    waiting: tuple[int, float] | None = None
    seen: asyncio.Event = field(default_factory=asyncio.Event)


def turn_of(table: dict[str, Any]) -> int:
    match = table.get("match")
    return -1 if not match else int(match["board"]["turn"])


async def listen(page: Page, tally: Tally, turn: Any = turn_of) -> None:
    """Read the page's socket: each table it brings; the arrival of a move posted by the other page."""
    assert page.socket is not None
    async for message in page.socket:
        if message.type is not aiohttp.WSMsgType.TEXT:
            break
        data = json.loads(message.data)
        if data.get("type") != "table":
            continue
        now = time.perf_counter()
        page.table = data["table"]
        page.turn = turn(page.table)
        if page.waiting is not None and page.turn >= page.waiting[0]:
            tally.pushed.append(now - page.waiting[1])
            page.waiting = None
        page.seen.set()


class Instance:
    """Two pages of one instance of the Activity, playing game after game at a person's pace."""

    def __init__(self, number: int, fake: FakeDiscord, url: str, http: aiohttp.ClientSession) -> None:
        self.channel = FIRST_CHANNEL + number
        self.people = (user(2 * self.channel, f"p{number}a"), user(2 * self.channel + 1, f"p{number}b"))
        self.id = fake.start_activity(self.channel, GUILD, self.people)
        self.fake, self.url, self.http = fake, url, http
        self.pages = [Page(person) for person in self.people]
        self.rules = RULES[number % len(RULES)]
        self.listeners: list[asyncio.Task[None]] = []

    def _headers(self, page: Page) -> dict[str, str]:
        return {"Origin": self.url, "Authorization": f"Bearer {page.token}"}

    async def post(self, page: Page, path: str, body: dict[str, Any]) -> dict[str, Any]:
        async with self.http.post(self.url + path, json=body, headers=self._headers(page)) as answer:
            data: dict[str, Any] = await answer.json()
            if answer.status != 200:
                raise RuntimeError(f"{path}: {answer.status} {data}")
            return data

    async def join(self, tally: Tally, gate: asyncio.Semaphore) -> None:
        """Both pages sign in and go live; the first waits at the table, the second takes the seat."""
        for page in self.pages:
            async with gate:
                start = time.perf_counter()
                body = {"code": self.fake.authorize(page.person), "instance_id": self.id}
                async with self.http.post(
                    self.url + "/api/token", json=body, headers={"Origin": self.url}
                ) as a:
                    signed = await a.json()
                    assert a.status == 200, signed
                tally.sign_ins.append(time.perf_counter() - start)
            page.token = signed["token"]
            page.socket = await self.http.ws_connect(self.url + "/api/live", headers={"Origin": self.url})
            await page.socket.send_json({"token": page.token})
            self.listeners.append(asyncio.create_task(listen(page, tally)))
        await self.new_game(tally)

    async def new_game(self, tally: Tally) -> None:
        await self.post(self.pages[0], "/api/table/host", {"rules": self.rules, "goal": 100})
        table = await self.post(self.pages[1], "/api/table/sit", {})
        for page in self.pages:
            page.table, page.turn = table, turn_of(table)
        tally.games += 1

    async def play(self, tally: Tally, think: tuple[float, float], until: float) -> None:
        """Move after move, each after a person's thought, until `until`; a new game after each."""
        while time.perf_counter() < until:
            table = max((page.table for page in self.pages), key=lambda table: table["stamp"])
            match = table["match"]
            if match["status"] != "active":
                await self.new_game(tally)
                continue
            board = match["board"]
            mover_id = match["seats"][board["mover"]]["id"]
            mover, other = sorted(self.pages, key=lambda page: page.person["id"] != mover_id)
            await asyncio.sleep(random.uniform(*think))
            choice = random.choice(board["choices"])["choice"]
            other.seen.clear()
            start = time.perf_counter()
            other.waiting = (board["turn"] + 1, start)
            mover.table = await self.post(mover, "/api/moves", {"turn": board["turn"], "choice": choice})
            tally.answered.append(time.perf_counter() - start)
            tally.moves.append((self.channel, board["turn"] + 1, start))
            while other.waiting is not None:
                await other.seen.wait()
                other.seen.clear()

    async def close(self) -> None:
        for task in self.listeners:
            task.cancel()
        for page in self.pages:
            if page.socket is not None:
                await page.socket.close()


def windows(times: list[float], width: float) -> int:
    """The most of these times in any window `width` seconds wide."""
    times = sorted(times)
    most, first = 0, 0
    for last, at in enumerate(times):
        while at - times[first] >= width:
            first += 1
        most = max(most, last - first + 1)
    return most


def discord_load(requests: list[Request]) -> tuple[int, dict[str, int], int]:
    """The bot's requests with its token: the most in any second, the most of each kind of message request
    in one channel in any CHANNEL_WINDOW, and how many there were in all."""
    counted = [
        r for r in requests if (r.auth or "").startswith("Bot ") and not r.path.startswith("/interactions")
    ]
    per_channel: dict[tuple[str, str], list[float]] = defaultdict(list)
    for request in counted:
        parts = request.path.strip("/").split("/")
        if parts[0] == "channels" and len(parts) >= 3 and parts[2] == "messages":
            kind = {"PATCH": "edits", "POST": "posts", "DELETE": "deletes"}.get(request.method)
            if kind is not None:
                per_channel[(kind, parts[1])].append(request.at)
    most: dict[str, int] = {"edits": 0, "posts": 0, "deletes": 0}
    for (kind, _), times in per_channel.items():
        most[kind] = max(most[kind], windows(times, CHANNEL_WINDOW))
    return windows([r.at for r in counted], 1.0), most, len(counted)


def board_lags(requests: list[Request], moves: list[tuple[int, int, float]]) -> tuple[list[float], int]:
    """For each move, how long until its channel's board showed its turn or a later one (seconds), and how
    many moves no board showed by the end (their boards still waiting their turn at Discord's pace)."""
    shown: dict[int, list[tuple[float, int]]] = defaultdict(list)
    for request in requests:
        parts = request.path.strip("/").split("/")
        if (
            parts[0] != "channels"
            or request.method not in ("PATCH", "POST")
            or not isinstance(request.body, dict)
        ):
            continue
        for embed in request.body.get("embeds") or []:
            found = FOOTER_TURN.search((embed.get("footer") or {}).get("text", ""))
            if found:
                shown[int(parts[1])].append((request.at, int(found[1])))
    lags, unseen = [], 0
    for channel, turn, at in moves:
        later = [when for when, seen in shown[channel] if when >= at and seen >= turn]
        if later:
            lags.append(min(later) - at)
        else:
            unseen += 1
    return lags, unseen


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) of a process so far, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def summary(name: str, values: list[float]) -> str:
    ms = [value * 1000 for value in values]
    return (
        f"{name}: {len(ms)}, p50 {percentile(ms, 0.5):.1f} ms, p95 {percentile(ms, 0.95):.1f} ms,"
        f" p99 {percentile(ms, 0.99):.1f} ms, max {max(ms):.1f} ms"
    )


async def started(process: asyncio.subprocess.Process, line: str) -> None:
    """Wait until the bot's log says `line` (it fails the run if the bot ends first)."""
    assert process.stderr is not None
    while True:
        said = (await process.stderr.readline()).decode()
        if not said:
            raise SystemExit(f"the bot ended before saying {line!r}")
        if line in said:
            return


async def drain(process: asyncio.subprocess.Process) -> None:
    assert process.stderr is not None
    while await process.stderr.readline():
        pass


async def activity_phase(args: argparse.Namespace, think: tuple[float, float]) -> tuple[Tally, float, bool]:
    """The bot serving the Activity, and the pages; the tally, the bot's CPU per move, and whether every
    target was met."""
    fake = FakeDiscord()
    await fake.start()
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as folder:
        bot = await spawn_bot(fake.url, Path(folder), **serving(fake, port))
        try:
            await started(bot, "synced")
            reader = asyncio.create_task(drain(bot))
            connector = aiohttp.TCPConnector(limit=0)
            async with aiohttp.ClientSession(connector=connector) as http:
                tally = Tally()
                begun = time.perf_counter()
                instances = [Instance(number, fake, url, http) for number in range(args.instances)]
                gate = asyncio.Semaphore(SIGN_INS_AT_ONCE)
                await asyncio.gather(*(instance.join(tally, gate) for instance in instances))
                joined = time.perf_counter() - begun
                print(
                    f"sign-in: {2 * args.instances} pages in {joined:.1f} s (cold, the first:"
                    f" {tally.sign_ins[0] * 1000:.0f} ms); {summary('sign-ins', tally.sign_ins)}"
                )
                cpu, start = cpu_seconds(bot.pid), time.perf_counter()
                until = start + args.seconds
                await asyncio.gather(*(instance.play(tally, think, until) for instance in instances))
                elapsed = time.perf_counter() - start
                used = cpu_seconds(bot.pid) - cpu
                for instance in instances:
                    await instance.close()
        finally:
            bot.terminate()
            await bot.wait()
        reader.cancel()
    await fake.stop()
    moves = len(tally.answered)
    print(
        f"activity: {args.instances} instances, {2 * args.instances} pages, think {think[0]:g}-{think[1]:g}"
        f" s: {moves} moves in {elapsed:.1f} s = {moves / elapsed:.1f} moves/s, {tally.games} games"
    )
    print(f"  {summary('move POST -> the other page has it', tally.pushed)}")
    print(f"  {summary('move POST answered', tally.answered)}")
    print(f"  bot process CPU: {used:.1f} s in {elapsed:.1f} s = {1000 * used / max(moves, 1):.2f} ms a move")
    most, per_channel, total = discord_load(fake.requests)
    print(
        f"  Discord, the bot's requests with its token: {total}; at most {most} in any second (limit"
        f" {GLOBAL_LIMIT}); in one channel in any {CHANNEL_WINDOW:g} s at most {per_channel['edits']} edits,"
        f" {per_channel['posts']} posts, {per_channel['deletes']} deletes (limit {CHANNEL_LIMIT} each)"
    )
    lags, unseen = board_lags(fake.requests, tally.moves)
    if lags:
        print(
            f"  boards: {summary('moves shown', lags).replace(' ms', ' ms')}; {unseen} moves not shown by the"
            " end (their boards waiting their turn, skipped for a later one)"
        )
    p99 = percentile([value * 1000 for value in tally.pushed], 0.99)
    limits = most <= GLOBAL_LIMIT and all(count <= CHANNEL_LIMIT for count in per_channel.values())
    return tally, p99, p99 <= TARGET_P99_MS and limits


async def bare_phase(args: argparse.Namespace, think: tuple[float, float], seconds: float) -> float:
    """The reference: the same pages, pace and moves against the bare relay; its p99 (ms)."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    server = await asyncio.create_subprocess_exec(sys.executable, "-c", BARE_SERVER, str(port))
    tally = Tally()
    try:
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
            while True:
                try:
                    async with http.get(url + "/"):
                        break
                except aiohttp.ClientConnectionError:
                    await asyncio.sleep(0.05)
            pairs: list[tuple[Page, Page]] = []
            tasks: list[asyncio.Task[None]] = []
            for number in range(args.instances):
                pages = (Page(user(2 * number, "a")), Page(user(2 * number + 1, "b")))
                for page in pages:
                    page.socket = await http.ws_connect(url + "/api/live")
                    await page.socket.send_json({"token": str(number)})
                    tasks.append(asyncio.create_task(listen(page, tally, turn=lambda table: table["turn"])))
                pairs.append(pages)

            async def play(number: int, pages: tuple[Page, Page], until: float) -> None:
                turn = 0
                while time.perf_counter() < until:
                    other = pages[1 - turn % 2]  # the mover's page posts, the other's socket brings it
                    await asyncio.sleep(random.uniform(*think))
                    other.seen.clear()
                    start = time.perf_counter()
                    other.waiting = (turn + 1, start)
                    async with http.post(f"{url}/move/{number}", json={"turn": turn}) as answer:
                        await answer.json()
                    tally.answered.append(time.perf_counter() - start)
                    while other.waiting is not None:
                        await other.seen.wait()
                        other.seen.clear()
                    turn += 1

            until = time.perf_counter() + seconds
            await asyncio.gather(*(play(number, pages, until) for number, pages in enumerate(pairs)))
            for task in tasks:
                task.cancel()
            for pages in pairs:
                for page in pages:
                    assert page.socket is not None
                    await page.socket.close()
    finally:
        server.terminate()
        await server.wait()
    print(f"bare relay (reference): {len(tally.answered)} moves in {seconds:g} s")
    print(f"  {summary('move POST -> the other page has it', tally.pushed)}")
    return percentile([value * 1000 for value in tally.pushed], 0.99)


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--instances", type=int, default=200, help="concurrent instances (two pages each)")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the pages play")
    parser.add_argument("--think", default="2:6", help="a person's thought before a move, seconds: low:high")
    args = parser.parse_args()
    low, high = (float(part) for part in args.think.split(":"))
    load_average("at the start")
    _, p99, met = await activity_phase(args, (low, high))
    bare = await bare_phase(args, (low, high), min(args.seconds, 20.0))
    print(
        f"ratios: activity p99 / bare relay p99 = {p99 / bare:.1f};"
        f" activity p99 / target = {p99 / TARGET_P99_MS:.2f}"
    )
    load_average("at the end")
    print(
        f"targets: p99 <= {TARGET_P99_MS:.0f} ms from a move to the other page, Discord's limits kept:"
        f" {'met' if met else 'NOT met'}"
    )
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
