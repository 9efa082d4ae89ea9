"""The local web server: the page in static/ and its JSON endpoints over the engine. Every refusal is a
HogError answered with its words and a 4xx; anything else is logged and answered with a short apology."""

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError
from aiohttp.typedefs import Middleware

from bot.domain.errors import (
    BadRequest,
    ForeignPage,
    MatchNotFound,
    MatchOver,
    NoHintsAfterTheGame,
    NotJson,
    RequestTooLarge,
    StaleAction,
    TurnAlreadyPlayed,
    TurnNotYet,
)
from bot.services.games.house_bot import house_level
from bot.services.solver import Solver
from bot.web import payloads
from bot.web.games import Game, Games
from bot.web.replays import viewed
from hogengine.dice import new_seed
from hogengine.errors import HogError
from hogengine.game import MAX_GOAL, new_game
from hogengine.house import HOUSE_LEVELS, HouseLevel, house_choice
from hogengine.replay import MAX_RECORD_BYTES, load_record, parse_seed, replay
from hogengine.rules import DEFAULT_RULES, get_rules
from hogengine.solver import Solution
from hogengine.text import is_whole, read_json, shown

log = logging.getLogger(__name__)

STATIC = Path(__file__).with_name("static")
MAX_BODY = MAX_RECORD_BYTES  # bytes a request may send: the longest a record may be
# The Host a request must name: the page's own address, 127.0.0.1 or localhost, and perhaps a port (digits
# only). Any other, or none, is refused: a page of another name reaching us (DNS rebinding).
LOCAL_HOST = re.compile(r"(?:127\.0\.0\.1|localhost)(?::[0-9]{1,5})?")
# What a browser says in Sec-Fetch-Site of a request from the page itself (or typed in its address bar).
OWN_PAGE = ("same-origin", "none")
JSON = "application/json"
NEW_GAME = f'{{"rules": "{DEFAULT_RULES}", "goal": 100, "house": "perfect", "seed": null}}'
MOVE = '{"turn": 0, "choice": 4}'
Statuses = tuple[tuple[type[HogError], int], ...]  # the HTTP status of each kind of refusal, first match
STATUS: Statuses = (
    (MatchNotFound, 404),
    (ForeignPage, 403),
    (RequestTooLarge, 413),
    (NotJson, 415),
    (StaleAction, 409),
)
CLIENT_CLOSED = 499  # the status logged for a request whose client went away (never sent: nobody is there)
APOLOGY = "Something went wrong on the server (its terminal says what); the game is as it was."
# The page's own files only: no inline script or style, nothing fetched from elsewhere.
SECURITY = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-cache",
}
# Seconds that requests under way get to finish after Ctrl-C (twice: aiohttp waits, then cancels and waits);
# then their connections are closed, so no client (one holding a half-sent body, say) keeps the server up.
# aiohttp's own default is 60; the games die with the server anyway. Not 0: aiohttp reads that as no limit.
STOP_GRACE_SECONDS = 0.1
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class ClientFaults(logging.Filter):
    """On aiohttp's server logger: a request aiohttp itself refused as malformed (no Host, bad headers),
    which it logs as an error with a traceback, is the client's fault: one DEBUG line instead."""

    def filter(self, record: logging.LogRecord) -> bool:
        fault = record.exc_info[1] if record.exc_info else None
        if isinstance(fault, HttpProcessingError):
            record.msg, record.args = "refused a malformed request: %s", (fault.message,)
            record.exc_info = None
            record.levelno, record.levelname = logging.DEBUG, logging.getLevelName(logging.DEBUG)
        return True


CLIENT_FAULTS = ClientFaults()


def _refused(status: int, text: str) -> web.Response:
    return web.json_response({"error": text}, status=status)


def _from_own_page(request: web.Request) -> None:
    """Refuse a request that is not the page's own: addressed to another name (DNS rebinding), sent by
    another site's page (as its browser declares in Origin and Sec-Fetch-Site), or with a body not
    declared JSON (which another site's page cannot declare without a CORS permission never given)."""
    host = request.headers.get("Host")
    if host is None or LOCAL_HOST.fullmatch(host) is None:
        raise ForeignPage
    origin = request.headers.get("Origin")
    if origin is not None and origin != f"{request.scheme}://{host}":
        raise ForeignPage
    if request.headers.get("Sec-Fetch-Site", OWN_PAGE[0]) not in OWN_PAGE:
        raise ForeignPage
    if request.method == "POST" and request.content_type != JSON:
        raise NotJson


def answering(check: Callable[[web.Request], None], statuses: Statuses = STATUS) -> Middleware:
    """A middleware that serves only the requests `check` lets through (it raises a refusal for the others)
    and turns every refusal into its words and a 4xx (by `statuses`, else 400). A client that closed its
    connection mid-request is no failure of ours: one DEBUG line, and nothing is sent."""

    @web.middleware
    async def answers(request: web.Request, handler: Handler) -> web.StreamResponse:
        try:
            check(request)
            return await handler(request)
        except ConnectionError:
            log.debug("%s %s: the client closed the connection", request.method, request.path)
            return web.Response(status=CLIENT_CLOSED)
        except HogError as error:
            status = next((code for kind, code in statuses if isinstance(error, kind)), 400)
            return _refused(status, str(error))
        except web.HTTPException as error:  # routing's own: an unknown address or method
            if error.status < 400:
                raise
            return _refused(error.status, f"{error.reason}: {request.method} {shown(request.path)[1:-1]}.")
        except Exception:
            log.exception("%s %s failed", request.method, request.path)
            return _refused(500, APOLOGY)

    return answers


answers = answering(_from_own_page)  # `hog gui`'s: the page's own requests only, on loopback


async def _secured(request: web.Request, response: web.StreamResponse) -> None:
    response.headers.update(SECURITY)


async def read_body(request: web.Request, limit: int = MAX_BODY) -> bytes:
    """The request's body, at most `limit` bytes (the application's client_max_size)."""
    try:
        return await request.read()
    except web.HTTPRequestEntityTooLarge:
        raise RequestTooLarge(max(1, limit // 1024)) from None


def json_fields(data: bytes, required: set[str], optional: set[str], example: str) -> dict[str, Any]:
    """A JSON object with all the `required` keys and no others but `optional` ones, else BadRequest."""
    try:
        value = read_json(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise BadRequest(example) from None
    if not isinstance(value, dict) or not required <= set(value) <= required | optional:
        raise BadRequest(example)
    return value


def _house(name: object) -> HouseLevel | None:
    """The house level a new game names (null: a second person at this screen)."""
    return None if name is None else house_level(str(name))


class Page:
    """The endpoints, over this server's games, the solver, the rule set the form starts on, and the
    record given on the command line (if any)."""

    def __init__(self, solver: Solver, default_rules: str, record: bytes | None) -> None:
        self.games = Games()
        self.solver = solver
        self.default_rules = get_rules(default_rules).id
        self.record = record

    async def index(self, request: web.Request) -> web.StreamResponse:
        return web.FileResponse(STATIC / "index.html")

    async def setup(self, request: web.Request) -> web.Response:
        """What the new-game form offers, and whether a record waits to be viewed."""
        return web.json_response(
            {
                "rules": payloads.rule_sets(),
                "default": self.default_rules,
                "levels": [{"id": level.value, "description": level.description} for level in HOUSE_LEVELS],
                "max_goal": MAX_GOAL,
                "record": self.record is not None,
            }
        )

    async def start(self, request: web.Request) -> web.Response:
        """A new game: rules, goal, the house level or null for a friend, and an optional dice seed."""
        fields = json_fields(await read_body(request), {"rules"}, {"goal", "house", "seed"}, NEW_GAME)
        if not isinstance(fields["rules"], str):
            raise BadRequest(NEW_GAME)
        start = new_game(fields["rules"], fields.get("goal", MAX_GOAL))
        house = _house(fields.get("house"))
        seed = fields.get("seed")
        game = self.games.start(start, new_seed() if seed is None else parse_seed(seed), house)
        await self._solution(game)  # the house is ready before its first move
        return web.json_response(payloads.game(game), status=201)

    async def show(self, request: web.Request) -> web.Response:
        return web.json_response(payloads.game(self.games.get(request.match_info["game"])))

    async def move(self, request: web.Request) -> web.Response:
        """The person to move plays a choice on the turn their board showed; the house answers at once."""
        game = self.games.get(request.match_info["game"])
        fields = json_fields(await read_body(request), {"turn", "choice"}, set(), MOVE)
        turn = fields["turn"]
        if not is_whole(turn):
            raise BadRequest(MOVE)
        solution = await self._solution(game)
        state = game.state  # read after the wait: nothing below waits, so no other request comes between
        if state.over:
            raise MatchOver
        if turn < state.turn:
            raise TurnAlreadyPlayed
        if turn > state.turn:
            raise TurnNotYet(state.turn)
        game.play(fields["choice"])
        while game.house is not None and game.house_to_move:
            game.play(house_choice(game.house, game.state, solution))
        return web.json_response(payloads.game(game))

    async def hint(self, request: web.Request) -> web.Response:
        """Every legal choice's exact chance to win for the player to move."""
        game = self.games.get(request.match_info["game"])
        if game.state.over:  # an ended game stays ended: refused before it costs a solve
            raise NoHintsAfterTheGame
        solution = await self.solver.solution(game.start.rules, game.start.goal)
        return web.json_response(payloads.hint(game.state, solution))

    async def coach(self, request: web.Request) -> web.Response:
        """What the coach has to say so far (the page asks after each move while its Coach box is ticked)."""
        game = self.games.get(request.match_info["game"])
        solution = await self.solver.solution(game.start.rules, game.start.goal)
        return web.json_response(payloads.coach(game, solution))

    async def replay(self, request: web.Request) -> web.Response:
        """The viewer of a record sent by the page (its "open a record" button)."""
        return await self._viewed(await read_body(request))

    async def given(self, request: web.Request) -> web.Response:
        """The viewer of the record given on the command line (`hog gui --replay FILE`)."""
        if self.record is None:
            raise web.HTTPNotFound
        return await self._viewed(self.record)

    async def _viewed(self, data: bytes) -> web.Response:
        record = load_record(data)
        results = list(replay(record))  # a record `hog replay` refuses is refused here in its words
        solution = await self.solver.solution(record.start.rules, record.start.goal)
        return web.json_response(await asyncio.to_thread(viewed, record, results, solution))

    async def _solution(self, game: Game) -> Solution | None:
        """What this game's house plays by, made off the event loop before it moves: the solver's solution
        for the perfect house (seconds the first time; returned), the course's table for the course house
        (a fraction of a second, once per rule set, kept by the engine), as the bot's house has them."""
        if game.house is HouseLevel.COURSE:
            await self.solver.course(game.start.rules)
        if game.house is not HouseLevel.PERFECT:
            return None
        return await self.solver.solution(game.start.rules, game.start.goal)


def make_app(solver: Solver, default_rules: str, record: bytes | None = None) -> web.Application:
    """The application: the page, its files and its endpoints."""
    page = Page(solver, default_rules, record)
    logging.getLogger("aiohttp.server").addFilter(CLIENT_FAULTS)  # added once, however many apps
    app = web.Application(middlewares=[answers], client_max_size=MAX_BODY)
    app.on_response_prepare.append(_secured)
    app.router.add_get("/", page.index)
    app.router.add_static("/static/", STATIC)
    app.router.add_get("/api/setup", page.setup)
    app.router.add_post("/api/games", page.start)
    app.router.add_get("/api/games/{game}", page.show)
    app.router.add_post("/api/games/{game}/moves", page.move)
    app.router.add_get("/api/games/{game}/hint", page.hint)
    app.router.add_get("/api/games/{game}/coach", page.coach)
    app.router.add_post("/api/replay", page.replay)
    app.router.add_get("/api/replay", page.given)
    return app


def make_runner(app: web.Application) -> web.AppRunner:
    """How `hog gui` runs the app: no access log, and stopped within STOP_GRACE_SECONDS of Ctrl-C whatever
    clients hold. A client that goes away leaves its request to end in the `answers` middleware."""
    return web.AppRunner(app, access_log=None, shutdown_timeout=STOP_GRACE_SECONDS)
