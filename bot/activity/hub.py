"""The live pages of each instance: every change of its table or its game, wherever it was made, is sent
to every page of the instance over its WebSocket.

A change this process makes is sent at once (the game service tells the hub of every match it stores: a
move in the Activity, on the board, the house's, the clock's); one another bot process made is found by a
look at the database every POLL_SECONDS (one query for every instance with a page here). A page is sent
only the newest table: one that cannot keep up skips the tables in between."""

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable, Coroutine
from typing import Any

from aiohttp import web

from bot.activity import payloads
from bot.domain.activities import Table
from bot.domain.errors import RecordsUnavailable
from bot.domain.matches import Match
from bot.services.activities import ActivityService
from bot.services.games.service import GameService
from bot.services.keyed_locks import KeyedLocks
from hogengine.game import TurnResult

log = logging.getLogger(__name__)

POLL_SECONDS = 1.0
PAGES_PER_INSTANCE = 64  # pages of one instance at once (an instance holds a channel's people)
PAGES = 10_000  # pages of every instance at once

Sent = tuple[int, int | None, int | None, float | None]  # table version, match id, its version, its clock


class Page:
    """One page's WebSocket: the newest message for it waits to be sent (older ones are dropped)."""

    def __init__(self, socket: web.WebSocketResponse) -> None:
        self.socket = socket
        self._latest: str | None = None
        self._ready = asyncio.Event()
        self._sender = asyncio.create_task(self._send(), name="hog-activity-page")

    def send(self, text: str) -> None:
        self._latest = text
        self._ready.set()

    async def _send(self) -> None:
        while not self.socket.closed:
            await self._ready.wait()
            self._ready.clear()
            text, self._latest = self._latest, None
            if text is not None:
                with contextlib.suppress(ConnectionError, RuntimeError):  # closing meanwhile
                    await self.socket.send_str(text)

    async def close(self) -> None:
        self._sender.cancel()
        await asyncio.gather(self._sender, return_exceptions=True)


class Hub:
    """The pages of every instance served here, and what each was last sent."""

    def __init__(self, activities: ActivityService, games: GameService, clock: Callable[[], float]) -> None:
        self._activities = activities
        self._games = games
        self._clock = clock
        self._pages: dict[str, set[Page]] = {}  # by instance id
        self._sent: dict[str, Sent] = {}  # by instance id: the table its pages were sent last
        self._texts: dict[str, str] = {}  # by instance id: that table, as sent
        self._showing: dict[int, set[str]] = {}  # match id -> instances with pages here showing it
        self._turns: dict[int, list[TurnResult]] = {}  # by match id, of the matches shown here
        self._lock = KeyedLocks()  # by instance id: one publication at a time
        self._tasks: set[asyncio.Task[Any]] = set()
        self._poller: asyncio.Task[None] | None = None
        games.watch(self.changed)

    @property
    def pages(self) -> int:
        return sum(len(pages) for pages in self._pages.values())

    def admits(self, instance_id: str) -> bool:
        """Whether another page of this instance may connect now."""
        return self.pages < PAGES and len(self._pages.get(instance_id, ())) < PAGES_PER_INSTANCE

    async def publish(
        self,
        instance_id: str,
        table: Table | None = None,
        *,
        to: Page | None = None,
        unless: Match | None = None,
    ) -> str:
        """The instance's table as it is now (`table`, just read, or read now) as JSON text, sent to each of
        its pages not sent it yet (and to `to`, a page just connected); nothing when its pages were sent
        this version of `unless` (or a later one) meanwhile."""
        async with self._lock(instance_id):
            if unless is not None and self._seen(instance_id, unless):
                return self._texts[instance_id]
            shown = table or await self._activities.table(instance_id)
            match = shown.match
            results = [] if match is None else await self._results(match)
            text = json.dumps(payloads.table(shown, results, self._clock()))
            sent: Sent = (
                shown.version,
                None if match is None else match.id,
                None if match is None else match.version,
                None if match is None else match.turn_deadline,
            )
            pages = self._pages.get(instance_id, set())
            fresh = sent != self._sent.get(instance_id)
            if pages and (fresh or to is not None):
                self._show(instance_id, sent, text)
                message = f'{{"type": "table", "table": {text}}}'
                for page in pages if fresh else {to}:
                    if page is not None:
                        page.send(message)
            return text

    def played(self, match_id: int, result: TurnResult) -> None:
        """A turn just played here: the turns kept for its match grow by it (no reading them again)."""
        results = self._turns.get(match_id)
        if results is not None and len(results) == result.before.turn:
            results.append(result)

    async def _results(self, match: Match) -> list[TurnResult]:
        """Every turn of the match: those kept, if they are all of them, else read (and kept while its
        instances have pages here)."""
        results = self._turns.get(match.id)
        if results is None or len(results) != match.state.turn:
            results = [turn.result for turn in await self._games.turns(match.id)]
            self._turns[match.id] = results
        return results

    def _seen(self, instance_id: str, match: Match) -> bool:
        """Whether the instance's pages were sent this version of the match, or a later one."""
        sent = self._sent.get(instance_id)
        return sent is not None and sent[1] == match.id and (sent[2] or 0) >= match.version

    def _show(self, instance_id: str, sent: Sent, text: str) -> None:
        """Remember what the instance's pages were sent, and which match they show."""
        before = self._sent.get(instance_id)
        if before is not None and before[1] is not None and before[1] != sent[1]:
            self._unshow(instance_id, before[1])
        if sent[1] is not None:
            self._showing.setdefault(sent[1], set()).add(instance_id)
        self._sent[instance_id] = sent
        self._texts[instance_id] = text

    def _unshow(self, instance_id: str, match_id: int) -> None:
        showing = self._showing.get(match_id, set())
        showing.discard(instance_id)
        if not showing:
            self._showing.pop(match_id, None)
            self._turns.pop(match_id, None)

    def changed(self, match: Match) -> None:
        """The game service stored `match`: each instance showing it whose pages have not seen this version
        gets its table again (never blocks: the game service calls it)."""
        for instance_id in self._showing.get(match.id, ()):
            if not self._seen(instance_id, match):
                self._spawn(self.publish(instance_id, unless=match))

    async def connect(self, instance_id: str, page: Page) -> None:
        """A page of this instance connected: it is sent the table now, and every change from now on."""
        self._pages.setdefault(instance_id, set()).add(page)
        if self._poller is None or self._poller.done():
            self._poller = asyncio.create_task(self._poll(), name="hog-activity-poll")
        await self.publish(instance_id, to=page)

    def disconnect(self, instance_id: str, page: Page) -> None:
        pages = self._pages.get(instance_id, set())
        pages.discard(page)
        if not pages:
            self._pages.pop(instance_id, None)
            self._texts.pop(instance_id, None)
            sent = self._sent.pop(instance_id, None)
            if sent is not None and sent[1] is not None:
                self._unshow(instance_id, sent[1])

    async def _poll(self) -> None:
        """While pages are connected: every POLL_SECONDS, find the instances whose table or game changed in
        another process (or whose turn clock started: a board shown starts it without a new version)."""
        while self._pages:
            await asyncio.sleep(POLL_SECONDS)
            try:
                stamps = await self._activities.stamps(list(self._pages))
            except RecordsUnavailable:
                continue  # the outage is logged once, as it begins
            except Exception:
                log.exception("could not look for changes of the Activity's tables")
                continue
            for instance_id, stamp in stamps.items():
                seen = (stamp.version, stamp.match_id, stamp.match_version, stamp.deadline)
                if seen != self._sent.get(instance_id):
                    self._spawn(self.publish(instance_id))

    def _spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.create_task(self._quietly(work), name="hog-activity-publish")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @staticmethod
    async def _quietly(work: Coroutine[Any, Any, Any]) -> None:
        """A publication the hub makes of its own accord: a failure is logged, and the next change or poll
        tries again."""
        try:
            await work
        except RecordsUnavailable:
            pass  # the outage is logged once, as it begins
        except Exception:
            log.exception("could not send a table to the Activity's pages")

    async def close(self) -> None:
        """Close every page's socket (going away: the pages connect again, to this server once restarted)."""
        tasks = [*self._tasks, *([self._poller] if self._poller else [])]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        pages = [page for pages in self._pages.values() for page in pages]
        self._pages.clear()
        for page in pages:
            await page.close()
            await page.socket.close(code=1001, message=b"restarting")
