"""The Activity's server: the page Discord frames (static/, drawn by `hog gui`'s code in bot/web/static), its
sign-in and its JSON endpoints over the game service, and a WebSocket per page for live tables.

Security, `hog gui`'s adapted to a page on the internet: Content-Security-Policy with `frame-ancestors` for
Discord's clients only (the page's own files, nothing else); requests from another Origin than the page's,
or to a Host name not configured, refused; JSON bodies only; no cookies: the page sends a short-lived
signed token of ours in the Authorization header (tokens.py), given once Discord vouched for the person
(the code exchanged with the client secret, `/users/@me`) and listed them in the instance they name (the
activity-instances route); every move checked by the game service as a board's press is."""

import asyncio
import contextlib
import json
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from bot.activity import payloads
from bot.activity.discord_api import DiscordApi
from bot.activity.hub import Hub, Page
from bot.activity.settings import ActivitySettings
from bot.activity.tokens import Pass, Tokens
from bot.domain.activities import Table
from bot.domain.errors import (
    ActivityGone,
    BadRequest,
    DiscordUnavailable,
    ForeignActivityPage,
    MatchNotFound,
    NoOpenGame,
    NotAServerChannel,
    NotInThisActivity,
    NotJson,
    RecordsUnavailable,
    RequestTooLarge,
    SignInNeeded,
    StaleAction,
    TooManySignIns,
)
from bot.domain.matches import Match
from bot.services import Services
from bot.services.games.follow_up import FollowUp
from bot.web.server import CLIENT_FAULTS, JSON, Statuses, answering, json_fields, read_body
from bot.web.server import STATIC as SHARED
from hogengine.rules import DEFAULT_RULES
from hogengine.text import is_whole

log = logging.getLogger(__name__)

STATIC = Path(__file__).with_name("static")
MAX_BODY = 4096  # bytes a request of the page may send: a sign-in code, or a move
SIGN_IN = '{"code": "<the code of AUTHORIZE>", "instance_id": "<the instance id>"}'
NEW_TABLE = f'{{"rules": "{DEFAULT_RULES}", "goal": 100}}'
HOUSE = f'{{"rules": "{DEFAULT_RULES}", "goal": 100, "level": "perfect"}}'
MOVE = '{"turn": 0, "choice": 4}'
NOTHING = "{}"
INTRODUCTION = '{"token": "<the token of the sign-in>"}'
# An OAuth2 code and an instance id as Discord makes them: letters, digits, - and _ (never a path).
TOKEN_LIKE = re.compile(r"[A-Za-z0-9_-]{1,128}")
SIGN_INS_AT_ONCE = 16  # sign-ins under way at once (each asks Discord three things)
SIGN_INS_WAITING = 256  # ... and waiting; more are turned away (TooManySignIns)
AUTH_SECONDS = 10.0  # a page's socket says who it is within this long, or is closed
HEARTBEAT_SECONDS = 20.0  # the server pings every page's socket this often (a dead one is closed)
STOP_GRACE_SECONDS = 2.0  # requests under way get this long to finish when the bot stops
STATUS: Statuses = (
    (SignInNeeded, 401),
    (NotInThisActivity, 403),
    (ForeignActivityPage, 403),
    (NotAServerChannel, 403),
    (ActivityGone, 404),
    (MatchNotFound, 404),
    (StaleAction, 409),
    (RequestTooLarge, 413),
    (NotJson, 415),
    (TooManySignIns, 429),
    (DiscordUnavailable, 503),
    (RecordsUnavailable, 503),
)
SAME_ORIGIN = ("same-origin", "none")
Redraw = Callable[[int], Awaitable[None]]  # the board of the match with this id is redrawn (soon)


class CannotServeError(Exception):
    """The Activity's address cannot be had (a port taken, an address not this machine's): an operator's
    setting to fix, said in one line."""


def security(settings: ActivitySettings) -> dict[str, str]:
    """The headers of every answer: the page's own files only, framed by Discord's clients only."""
    return {
        "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; object-src 'none';"
        f" base-uri 'none'; form-action 'none'; frame-ancestors {' '.join(settings.frame_ancestors)}",
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
        "Cache-Control": "no-cache",
    }


def from_the_page(settings: ActivitySettings) -> Callable[[web.Request], None]:
    """The check of every request: addressed to a configured Host name (if any are); from the page's own
    Origin when a browser names one (always for a body or a socket); the API asked from the page itself
    (Sec-Fetch-Site); bodies declared JSON. The page itself is framed from Discord: any site may load it."""
    hosts = None if settings.hosts is None else {host.lower() for host in settings.hosts}

    def check(request: web.Request) -> None:
        if hosts is not None and request.headers.get("Host", "").lower() not in hosts:
            raise ForeignActivityPage
        origin = request.headers.get("Origin")
        if origin is not None and origin not in settings.origins:
            raise ForeignActivityPage
        if not request.path.startswith("/api/"):
            return
        if request.headers.get("Sec-Fetch-Site", SAME_ORIGIN[0]) not in SAME_ORIGIN:
            raise ForeignActivityPage
        if (request.method == "POST" or request.path == "/api/live") and origin is None:
            raise ForeignActivityPage
        if request.method == "POST" and request.content_type != JSON:
            raise NotJson

    return check


def _json(text: str) -> web.Response:
    """An answer of JSON text already made (a table, as its pages were sent it)."""
    return web.Response(text=text, content_type=JSON)


def _text(fields: dict[str, Any], name: str, example: str) -> str:
    value = fields[name]
    if not isinstance(value, str) or TOKEN_LIKE.fullmatch(value) is None:
        raise BadRequest(example)
    return value


def _whole(fields: dict[str, Any], name: str, example: str) -> int:
    value = fields[name]
    if not is_whole(value):
        raise BadRequest(example)
    return int(value)


def _word(fields: dict[str, Any], name: str, example: str) -> str:
    value = fields[name]
    if not isinstance(value, str) or len(value) > 64:
        raise BadRequest(example)
    return value


class Activity:
    """The endpoints, over the bot's services, its follow-up after a move (the house bot's turns, ratings),
    its board redraws (paced: pacing.py) and Discord's API."""

    def __init__(
        self,
        settings: ActivitySettings,
        *,
        services: Services,
        follow_up: FollowUp,
        redraw: Redraw,
        api: DiscordApi,
        clock: Callable[[], float],
    ) -> None:
        self.settings = settings
        self.services = services
        self.follow_up = follow_up
        self.redraw = redraw
        self.api = api
        self.tokens = Tokens(settings.client_secret, settings.token_seconds, clock)
        self.hub = Hub(services.activities, services.games, clock)
        self._signing_in = asyncio.Semaphore(SIGN_INS_AT_ONCE)
        self._waiting = 0
        self._runner: web.AppRunner | None = None

    # ---- the page and its setup

    async def index(self, request: web.Request) -> web.StreamResponse:
        return web.FileResponse(STATIC / "index.html")

    async def setup(self, request: web.Request) -> web.Response:
        return web.json_response(payloads.setup(self.settings.client_id, self.settings.frame_ancestors))

    # ---- signing in

    async def sign_in(self, request: web.Request) -> web.Response:
        """The code the page got from Discord's AUTHORIZE, for the instance it runs in: exchanged for an
        access token (which the page hands to AUTHENTICATE), whose person Discord must list in the instance;
        then the person's token of ours, and the instance's table."""
        fields = json_fields(await read_body(request, MAX_BODY), {"code", "instance_id"}, set(), SIGN_IN)
        code, instance_id = _text(fields, "code", SIGN_IN), _text(fields, "instance_id", SIGN_IN)
        if self._waiting >= SIGN_INS_WAITING:
            raise TooManySignIns
        self._waiting += 1
        try:
            async with self._signing_in:
                access = await self.api.exchange(code)
                person = await self.api.person(access)
                instance = await self.api.instance(instance_id, person.id)
        finally:
            self._waiting -= 1
        if person.id not in instance.users:
            raise NotInThisActivity
        table = await self.services.activities.join(instance, person)
        token, granted = self.tokens.issue(person, instance.id)
        return web.json_response(
            {
                "access_token": access,
                "token": token,
                "expires": granted.expires,
                "user": payloads.person(person),
                "table": json.loads(await self.hub.publish(instance.id, table)),
            }
        )

    def _pass(self, request: web.Request) -> Pass:
        scheme, _, token = request.headers.get("Authorization", "").partition(" ")
        if scheme != "Bearer":
            raise SignInNeeded
        return self.tokens.read(token.strip())

    async def _fields(self, request: web.Request, required: set[str], example: str) -> dict[str, Any]:
        return json_fields(await read_body(request, MAX_BODY), required, set(), example)

    # ---- the table

    async def table(self, request: web.Request) -> web.Response:
        """The instance's table as it is now (what a page polls while its socket is down)."""
        return _json(await self.hub.publish(self._pass(request).instance_id))

    async def host(self, request: web.Request) -> web.Response:
        """Wait at the table for a friend, for a game of these rules and goal."""
        granted = self._pass(request)
        fields = await self._fields(request, {"rules", "goal"}, NEW_TABLE)
        rules, goal = _word(fields, "rules", NEW_TABLE), _whole(fields, "goal", NEW_TABLE)
        table = await self.services.activities.host(granted.instance_id, granted.person, rules, goal)
        return _json(await self.hub.publish(granted.instance_id, table))

    async def stand(self, request: web.Request) -> web.Response:
        """Stop waiting at the table."""
        granted = self._pass(request)
        await self._fields(request, set(), NOTHING)
        table = await self.services.activities.stand_up(granted.instance_id, granted.person)
        return _json(await self.hub.publish(granted.instance_id, table))

    async def sit(self, request: web.Request) -> web.Response:
        """Take the seat across from the one waiting: the game starts, and its board is posted."""
        granted = self._pass(request)
        await self._fields(request, set(), NOTHING)
        table = await self.services.activities.sit(granted.instance_id, granted.person)
        return await self._started(table)

    async def house(self, request: web.Request) -> web.Response:
        """Play the house at a level, under these rules to this goal: the game starts, its board is posted."""
        granted = self._pass(request)
        fields = await self._fields(request, {"rules", "goal", "level"}, HOUSE)
        rules, level = _word(fields, "rules", HOUSE), _word(fields, "level", HOUSE)
        table = await self.services.activities.versus_house(
            granted.instance_id, granted.person, rules, _whole(fields, "goal", HOUSE), level
        )
        return await self._started(table)

    async def _started(self, table: Table) -> web.Response:
        match = self._game(table)
        await self.redraw(match.id)
        return _json(await self.hub.publish(table.instance_id, table))

    # ---- the game

    def _game(self, table: Table) -> Match:
        if table.match is None:
            raise NoOpenGame
        return table.match

    async def move(self, request: web.Request) -> web.Response:
        """The person to move plays a choice on the turn their page showed: checked and played by the game
        service as a press on the board is; the board is redrawn and every page of the instance sent it."""
        granted = self._pass(request)
        fields = await self._fields(request, {"turn", "choice"}, MOVE)
        turn, choice = _whole(fields, "turn", MOVE), _whole(fields, "choice", MOVE)
        table = await self.services.activities.table(granted.instance_id)
        played = await self.services.games.play(self._game(table).id, granted.person.id, turn, choice)
        self.hub.played(played.match.id, played.result)
        text = await self.hub.publish(granted.instance_id, replace(table, match=played.match))
        await self._moved(played.match)
        return _json(text)

    async def forfeit(self, request: web.Request) -> web.Response:
        """A player gives up the table's game."""
        granted = self._pass(request)
        await self._fields(request, set(), NOTHING)
        match = self._game(await self.services.activities.table(granted.instance_id))
        closed = await self.services.games.forfeit(match.id, granted.person.id)
        text = await self.hub.publish(granted.instance_id)
        await self._moved(closed)
        return _json(text)

    async def rematch(self, request: web.Request) -> web.Response:
        """A player wants a rematch of the table's game; once both sides do, the table shows it."""
        granted = self._pass(request)
        await self._fields(request, set(), NOTHING)
        before = self._game(await self.services.activities.table(granted.instance_id))
        table = await self.services.activities.rematch(granted.instance_id, granted.person)
        await self.redraw(before.id)  # its board says who wants a rematch
        if table.match is not None and table.match.id != before.id:
            await self._moved(table.match)
        return _json(await self.hub.publish(granted.instance_id, table))

    async def _moved(self, match: Match) -> None:
        """After a change of a game: its board redrawn, the house bot's turn or the rating that follows."""
        await self.redraw(match.id)
        await self.follow_up.moved_on(match)

    async def hint(self, request: web.Request) -> web.Response:
        """The solver's advice for the person to move, on their own turn only (seconds the first time)."""
        granted = self._pass(request)
        match = self._game(await self.services.activities.table(granted.instance_id))
        return web.json_response(payloads.hint(await self.services.games.hint(match.id, granted.person.id)))

    # ---- live tables

    async def live(self, request: web.Request) -> web.StreamResponse:
        """A page's socket: its first message is its token ({"token": ...}, never in the address); then it
        is sent the table at once and again at every change, and answers {"type": "ping"} with a pong."""
        socket = web.WebSocketResponse(heartbeat=HEARTBEAT_SECONDS, max_msg_size=MAX_BODY)
        await socket.prepare(request)
        granted = await self._introduced(socket)
        if granted is None:
            return socket
        if not self.hub.admits(granted.instance_id):
            await socket.close(code=1013, message=b"too many pages: poll")
            return socket
        page = Page(socket)
        try:
            await self.hub.connect(granted.instance_id, page)
            async for message in socket:
                if message.type is WSMsgType.TEXT and message.data == '{"type":"ping"}':
                    page.send('{"type":"pong"}')
        except Exception as error:  # the socket is open: no JSON refusal can be sent any more
            if not isinstance(error, RecordsUnavailable):  # an outage is logged once, as it begins
                log.exception("a page's socket failed")
            await socket.close(code=1011, message=b"try again")  # the page polls, and connects again
        finally:
            self.hub.disconnect(granted.instance_id, page)
            await page.close()
        return socket

    async def _introduced(self, socket: web.WebSocketResponse) -> Pass | None:
        """Who the page says it is, in its first message; None (the socket closed, saying why) if it says
        nothing we signed, or nothing in time."""
        with contextlib.suppress(TimeoutError):
            message = await socket.receive(timeout=AUTH_SECONDS)
            if message.type is WSMsgType.TEXT:
                try:
                    said = json_fields(message.data.encode(), {"token"}, set(), INTRODUCTION)
                    return self.tokens.read(str(said["token"]))
                except (SignInNeeded, BadRequest) as refusal:
                    await socket.close(code=4401, message=str(refusal).encode()[:120])
                    return None
        await socket.close(code=4401, message=str(SignInNeeded()).encode())
        return None

    # ---- running

    def app(self) -> web.Application:
        """The application: the page, its files, the sign-in, the endpoints and the sockets."""
        logging.getLogger("aiohttp.server").addFilter(CLIENT_FAULTS)
        app = web.Application(
            middlewares=[answering(from_the_page(self.settings), STATUS)], client_max_size=MAX_BODY
        )
        headers = security(self.settings)

        async def secured(request: web.Request, response: web.StreamResponse) -> None:
            response.headers.update(headers)

        app.on_response_prepare.append(secured)
        app.router.add_get("/", self.index)
        app.router.add_static("/static/", SHARED)  # `hog gui`'s drawing code and style, shared
        app.router.add_static("/activity/", STATIC)
        app.router.add_get("/api/setup", self.setup)
        app.router.add_post("/api/token", self.sign_in)
        app.router.add_get("/api/table", self.table)
        app.router.add_post("/api/table/host", self.host)
        app.router.add_post("/api/table/stand", self.stand)
        app.router.add_post("/api/table/sit", self.sit)
        app.router.add_post("/api/table/house", self.house)
        app.router.add_post("/api/moves", self.move)
        app.router.add_post("/api/forfeit", self.forfeit)
        app.router.add_post("/api/rematch", self.rematch)
        app.router.add_get("/api/hint", self.hint)
        app.router.add_get("/api/live", self.live)
        return app

    async def start(self) -> None:
        """Listen on the configured address and port; CannotServeError if they cannot be had."""
        self._runner = web.AppRunner(self.app(), access_log=None, shutdown_timeout=STOP_GRACE_SECONDS)
        await self._runner.setup()
        where = f"{self.settings.host}:{self.settings.port}"
        try:
            await web.TCPSite(self._runner, self.settings.host, self.settings.port).start()
        except OSError as error:
            raise CannotServeError(
                f"the Activity cannot listen on {where} (HOG_ACTIVITY_HOST, HOG_ACTIVITY_PORT):"
                f" {error.strerror or error}"
            ) from None
        log.info("the Activity is served on %s:%d", self.settings.host, self.settings.port)

    async def close(self) -> None:
        """Stop listening, close the pages' sockets (they connect again once the bot is back), let the
        requests under way finish, and let go of Discord's API."""
        await self.hub.close()
        if self._runner is not None:
            await self._runner.cleanup()
        await self.api.close()
