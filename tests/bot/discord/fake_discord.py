"""A tiny Discord on 127.0.0.1: the REST routes HogBot uses and a gateway websocket, over real sockets.

Point discord.py at it with `discord.http.Route.BASE` and `DiscordWebSocket.DEFAULT_GATEWAY`; a plain
`Bot` then logs in over REST, IDENTIFYs on the gateway, gets READY and one GUILD_CREATE, and receives
INTERACTION_CREATE events that it answers through the REST interaction callbacks; a message posted with a
nonce to enforce is posted once, as Discord does. Given several servers
and shards, it answers `GET /gateway/bot` with the shard count, accepts one gateway connection per shard,
and sends each shard READY and GUILD_CREATE for the servers Discord puts on it ((guild id >> 22) % shards)
and the interactions of those servers: several bot processes can each run some shards. `reconnect` asks the
bot to reconnect (gateway op 7, as Discord does now and then); it comes back with RESUME, answered with
RESUMED once `resuming` is set. `hold` keeps the bot's next matching request unanswered (so a test can
kill the bot while, say, a board's edit is in flight); `fail` answers matching requests with a server
error (Discord's 5xx) until `heal`; `attach` serves a file as an attachment's CDN does. Unknown routes
answer 404 and are recorded, so a test can assert the bot made no call it should not have.

Interactions' webhooks work as Discord's do: the response's @original, follow-ups posted, edited and
deleted through the interaction's token for 15 minutes (`expire` ends a token's life at once), and none of
them bound by the global rate limit. Given `Limits`, the fake enforces Discord's rate limits on the calls
made with the bot's token: the global limit of every process together (a 429 with the global flag and
Retry-After beyond it) and each channel's buckets for posting, editing and deleting messages, announced in
X-RateLimit headers as Discord announces them; `throttled` holds the requests answered 429. Each request is
recorded with the time it arrived (`Request.at`, the fake's monotonic clock).

For the Activity it plays Discord's part too: an interaction answered with LAUNCH_ACTIVITY (callback 12)
starts an activity instance in its channel, or joins the one running there (`start_activity` starts one
directly); `authorize` gives a person's sign-in code as Discord's client does for AUTHORIZE; `POST
/oauth2/token` exchanges it (with the client id and secret) for an access token, `GET /users/@me` with that
token says whose it is, and `GET /applications/<app>/activity-instances/<id>` (with the bot's token) lists
an instance's people and where it runs. Given `parent`, a page of the test's, it serves it at /parent: the
fake parent frame of an Activity, which asks for codes at /parent/authorize and for the instance's people
at /parent/participants. Once Activities are enabled (`enable_activities`), the global commands hold
Discord's Entry Point command, and a bulk overwrite of them that leaves it out is refused with 50240.
"""

import asyncio
import collections
import fnmatch
import json
import secrets
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
from aiohttp import WSMsgType, web

from tests.hang import HANG

APP_ID = 7000
GUILD_ID = 7100  # on shard 0 of any count
CHANNEL_ID = 7200  # #hog of GUILD_ID; another server's #hog is its own
EVERYONE = "1071698660929"  # view channel, send messages, embed links, attach files, read history...
CLIENT_SECRET = "fake-client-secret"
ENTRY_POINT_KEPT = (
    "You cannot remove this app's Entry Point command in a bulk update operation. Please include the Entry"
    " Point command in your update request or delete it separately."
)  # the application's OAuth2 secret, for the code exchange
ENTRY_POINT = {  # Discord's default Entry Point command, made when Activities are enabled
    "type": 4,
    "name": "launch",
    "description": "Launch an activity",
    "handler": 2,
    "contexts": [0, 1, 2],
    "integration_types": [0, 1],
}


TOKEN_SECONDS = 15 * 60.0  # how long an interaction's token is taken
UNKNOWN_WEBHOOK = 10015


@dataclass
class Request:
    method: str
    path: str
    body: Any
    auth: str | None = None  # the Authorization header
    at: float = field(default_factory=time.monotonic)  # when it came, for counting rates
    query: Mapping[str, str] = field(default_factory=dict)

    @property
    def global_limited(self) -> bool:
        """Whether Discord's global rate limit binds this call: every call made with the bot's token, not
        the interactions' callbacks and webhooks (nor a sign-in's, made with its own)."""
        bots = (self.auth or "").startswith("Bot ")
        return bots and not self.path.startswith(("/interactions/", "/webhooks/"))


@dataclass(frozen=True)
class Bucket:
    """One of Discord's per-route rate limits: `limit` calls per `seconds`, per channel."""

    name: str
    limit: int
    seconds: float


@dataclass(frozen=True)
class Limits:
    """The rate limits a fake Discord enforces: the global limit (calls a second, every process together)
    and the channels' buckets, as Discord sets them for a bot's messages."""

    per_second: int = 50
    post: Bucket = Bucket("post-message", 5, 5.0)
    edit: Bucket = Bucket("edit-message", 5, 5.0)
    delete: Bucket = Bucket("delete-message", 5, 1.0)

    def bucket(self, request: Request) -> tuple[Bucket, str] | None:
        """The channel bucket a call of the bot's token falls in, and its channel (None: none)."""
        parts = request.path.strip("/").split("/")
        if parts[0] != "channels" or len(parts) < 3 or parts[2] != "messages":
            return None
        if request.method == "POST" and len(parts) == 3:
            return self.post, parts[1]
        if request.method == "PATCH" and len(parts) == 4:
            return self.edit, parts[1]
        if request.method == "DELETE" and len(parts) == 4:
            return self.delete, parts[1]
        return None


class RateLimiter:
    """Discord's rate limits over the fake's clock: a sliding second for the global limit, fixed windows for
    the channels' buckets (which Discord announces in headers, so a client can wait before it hits them)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._recent: collections.deque[float] = collections.deque()  # global calls in the last second
        self._windows: dict[tuple[str, str], tuple[float, int]] = {}  # (bucket, channel) -> (start, calls)

    def check(self, request: Request) -> web.Response | dict[str, str]:
        """A 429 for a call over a limit, else the headers to answer it with (the call counted)."""
        now = request.at
        while self._recent and self._recent[0] <= now - 1.0:
            self._recent.popleft()
        if len(self._recent) >= self.limits.per_second:
            wait = self._recent[0] + 1.0 - now
            return _too_many(wait, {"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"}, True)
        found = self.limits.bucket(request)
        headers: dict[str, str] = {}
        if found is not None:
            bucket, channel = found
            start, calls = self._windows.get((bucket.name, channel), (now, 0))
            if now >= start + bucket.seconds:
                start, calls = now, 0
            reset = start + bucket.seconds - now
            if calls >= bucket.limit:
                return _too_many(reset, {"X-RateLimit-Scope": "user", **_announced(bucket, 0, reset)}, False)
            self._windows[bucket.name, channel] = (start, calls + 1)
            headers = _announced(bucket, bucket.limit - calls - 1, reset)
        self._recent.append(now)
        return headers


def _announced(bucket: Bucket, remaining: int, reset_after: float) -> dict[str, str]:
    """A bucket's X-RateLimit headers, as Discord sends them."""
    return {
        "X-RateLimit-Limit": str(bucket.limit),
        "X-RateLimit-Remaining": str(remaining),
        "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
        "X-RateLimit-Reset-After": f"{reset_after:.3f}",
        "X-RateLimit-Bucket": bucket.name,
    }


def _too_many(retry_after: float, headers: dict[str, str], is_global: bool) -> web.Response:
    """Discord's 429: Retry-After in the body and headers, through its proxy (`Via`, which discord.py
    looks for: a 429 without it is a ban by Cloudflare)."""
    body = {
        "message": "You are being rate limited.",
        "retry_after": round(retry_after, 3),
        "global": is_global,
    }
    return web.Response(
        status=429,
        body=json.dumps(body).encode(),
        headers={
            "Content-Type": "application/json",
            "Retry-After": f"{retry_after:.3f}",
            "Via": "1.1 google",
            **headers,
        },
    )


def user(user_id: int, name: str, bot: bool = False) -> dict[str, Any]:
    return {
        "id": str(user_id),
        "username": name,
        "discriminator": "0",
        "global_name": None,
        "avatar": None,
        "bot": bot,
    }


BOT = user(7001, "hogbot", bot=True)


def member(person: dict[str, Any]) -> dict[str, Any]:
    return {
        "user": person,
        "roles": [],
        "joined_at": "2026-01-01T00:00:00+00:00",
        "deaf": False,
        "mute": False,
        "flags": 0,
        "permissions": EVERYONE,
    }


# `python -c` code that runs `python -m bot` unchanged but for Discord's address (sys.argv[1], a fake's
# base URL): for tests that start the bot as its own process.
RUN_BOT_AGAINST = (
    "import sys, discord, yarl;"
    " discord.http.Route.BASE = sys.argv[1] + '/api/v10';"
    " discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(sys.argv[1].replace('http', 'ws') + '/');"
    " from bot.__main__ import main; sys.exit(main([]))"
)


async def _body(request: web.Request) -> Any:
    """A request's JSON: the body, or the `payload_json` part of a message sent with files, each of its
    attachments given the size and URL Discord gives them."""
    if not request.can_read_body:
        return None
    if request.content_type == "application/x-www-form-urlencoded":
        return dict(await request.post())
    if request.content_type != "multipart/form-data":
        return await request.json()
    form = await request.post()
    payload = json.loads(str(form["payload_json"]))
    files = [part for name, part in form.items() if name.startswith("files[")]
    for attachment, part in zip(payload.get("attachments", []), files, strict=True):
        assert isinstance(part, web.FileField)
        url = f"https://cdn.example/{part.filename}"
        attachment |= {
            "id": str(attachment["id"]),
            "size": len(part.file.read()),
            "url": url,
            "proxy_url": url,
        }
    return payload


def json_response(data: Any, status: int = 200) -> web.Response:
    """discord.py decodes a body only when Content-Type is exactly application/json (no charset)."""
    return web.Response(
        status=status, body=json.dumps(data).encode(), headers={"Content-Type": "application/json"}
    )


class FakeDiscord:
    """The fake's state: what the bot sent (requests, synced commands, messages) and the open gateway
    connections, one per shard."""

    def __init__(
        self,
        guilds: Sequence[int] = (GUILD_ID,),
        shards: int = 1,
        limits: Limits | None = None,
        parent: Path | None = None,
    ) -> None:
        self.guilds = list(guilds)
        self._limiter = None if limits is None else RateLimiter(limits)
        self.throttled: list[Request] = []  # requests answered 429
        self.arrived: Callable[[Request], None] | None = None  # told of each request as it arrives
        self.interacted: dict[str, float] = {}  # when each interaction was sent, by token (the fake's clock)
        self.shards = shards
        self.channels = {guild: CHANNEL_ID + index for index, guild in enumerate(self.guilds)}  # each #hog
        self.identified: dict[int, dict[str, Any]] = {}  # IDENTIFY by shard, until `forget`
        self.requests: list[Request] = []
        self.unknown: list[Request] = []
        self.commands: dict[str, list[dict[str, Any]]] = {}  # by guild id, "global" for global commands
        self.messages: dict[str, dict[str, Any]] = {}
        self.resumes = 0  # RESUMEs received
        self.resuming = asyncio.Event()  # while clear, a RESUME waits for its RESUMED
        self.resuming.set()
        self._last_id = 0  # ids are "now", like Discord's
        self._originals: dict[str, str] = {}  # interaction token -> message id of its response
        self._follow_ups: dict[str, str] = {}  # message id -> the interaction token that posted it
        self._expired: set[str] = set()  # tokens ended early by `expire`
        self._sources: dict[str, str] = {}  # interaction token -> message id its button was on
        self._socket: web.WebSocketResponse | None = None  # the latest connection, for `reconnect`
        self._sockets: dict[int, web.WebSocketResponse] = {}  # by shard
        self._seq: dict[int, int] = {}  # the last event's sequence number, by shard
        self._channel_of: dict[str, str] = {}  # interaction token -> the channel it came from
        self._changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self._holds: list[tuple[Callable[[Request], bool], asyncio.Future[Request]]] = []
        self._released = asyncio.Event()  # held requests are answered once the fake stops
        self._files: dict[str, bytes] = {}  # attachments by id
        self._faults: list[tuple[str, str, int]] = []  # (method, path pattern, status): see `fail`
        self.url = ""
        self.parent = parent  # the page of the fake parent frame of an Activity
        self.people: dict[int, dict[str, Any]] = {}  # every user the fake has seen, by id
        self.instances: dict[str, dict[str, Any]] = {}  # activity instances by id, as the API gives them
        self.launches: list[str] = []  # interaction tokens answered with LAUNCH_ACTIVITY
        self._codes: dict[str, int] = {}  # sign-in codes not exchanged yet -> user id
        self._access: dict[str, int] = {}  # access tokens -> user id
        self._presser: dict[str, dict[str, Any]] = {}  # interaction token -> who sent it

    async def start(self, port: int = 0) -> str:
        """Listen on 127.0.0.1 (a free port unless one is given); the base URL (http://127.0.0.1:port)."""
        app = web.Application()
        app.router.add_get("/", self._gateway)
        app.router.add_get("/attachments/{id}/{name}", self._attachment)
        app.router.add_get("/parent", self._parent_page)
        app.router.add_post("/parent/authorize", self._parent_authorize)
        app.router.add_get("/parent/participants", self._parent_participants)
        app.router.add_route("*", "/api/v10/{path:.*}", self._rest)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", port)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.url = f"http://127.0.0.1:{port}"
        return self.url

    async def stop(self) -> None:
        self.release()
        if self._runner is not None:
            await self._runner.cleanup()

    def hold(self, check: Callable[[Request], bool]) -> asyncio.Future[Request]:
        """Leave the next request that passes `check` unanswered until `release` (or the fake stops): the
        bot's call is in flight for as long as the test likes. The future is done once that request came."""
        held: asyncio.Future[Request] = asyncio.get_running_loop().create_future()
        self._holds.append((check, held))
        return held

    def release(self) -> None:
        """Answer the requests held so far."""
        self._released.set()

    def fail(self, method: str, path: str, status: int = 503) -> None:
        """Answer every request of `method` to a path matching the fnmatch `path` (below /api/v10) with
        this server error, as Discord does in an outage, until `heal`."""
        self._faults.append((method, path, status))

    def heal(self) -> None:
        """Answer every request again."""
        self._faults.clear()

    def attach(self, filename: str, data: bytes) -> dict[str, Any]:
        """An attachment of this file, served by the fake as Discord's CDN serves one, for `resolved`."""
        attachment_id = self._id()
        self._files[attachment_id] = data
        url = f"{self.url}/attachments/{attachment_id}/{filename}"
        return {"id": attachment_id, "filename": filename, "size": len(data), "url": url, "proxy_url": url}

    def _id(self) -> str:
        self._last_id = max(self._last_id + 1, discord.utils.time_snowflake(discord.utils.utcnow()))
        return str(self._last_id)

    def expire(self, token: str) -> None:
        """End an interaction's token now, as 15 minutes would: its webhook answers Unknown Webhook."""
        self._expired.add(token)

    def _token_gone(self, token: str) -> bool:
        sent = self.interacted.get(token)
        return token in self._expired or sent is None or time.monotonic() - sent > TOKEN_SECONDS

    # ------------------------------------------------------------------ activities

    def enable_activities(self) -> None:
        """What enabling Activities in the developer portal does: a global Entry Point command appears."""
        entry = {**ENTRY_POINT, "id": self._id(), "application_id": str(APP_ID), "version": "1"}
        self.commands["global"] = [*self.commands.get("global", []), entry]

    def start_activity(self, channel_id: int, guild_id: int | None, people: Iterable[dict[str, Any]]) -> str:
        """A new instance of the Activity in this channel (None: a direct message), these people in it."""
        kind = "pc" if guild_id is None else "gc"  # a private channel, or a server's
        instance_id = f"i-{self._id()}-{kind}-{guild_id or 0}-{channel_id}"
        location = {"id": f"{kind}-{guild_id or 0}-{channel_id}", "kind": kind, "channel_id": str(channel_id)}
        if guild_id is not None:
            location["guild_id"] = str(guild_id)
        self.instances[instance_id] = {
            "application_id": str(APP_ID),
            "instance_id": instance_id,
            "launch_id": self._id(),
            "location": location,
            "users": [],
        }
        for person in people:
            self.join_activity(instance_id, person)
        return instance_id

    def join_activity(self, instance_id: str, person: dict[str, Any]) -> None:
        self.people[int(person["id"])] = person
        users = self.instances[instance_id]["users"]
        if person["id"] not in users:
            users.append(person["id"])

    def leave_activity(self, instance_id: str, person: dict[str, Any]) -> None:
        self.instances[instance_id]["users"].remove(person["id"])

    def authorize(self, person: dict[str, Any]) -> str:
        """The code Discord's client gives the Activity's page for AUTHORIZE, signed in as `person`."""
        self.people[int(person["id"])] = person
        code = secrets.token_urlsafe(16)
        self._codes[code] = int(person["id"])
        return code

    async def _parent_page(self, request: web.Request) -> web.StreamResponse:
        if self.parent is None:
            raise web.HTTPNotFound
        return web.FileResponse(self.parent)

    async def _parent_authorize(self, request: web.Request) -> web.Response:
        """Discord's client answering AUTHORIZE for the person the parent frame plays."""
        return json_response({"code": self.authorize(self.people[int((await request.json())["user_id"])])})

    async def _parent_participants(self, request: web.Request) -> web.Response:
        """The people of an instance, as the client lists them to its Activity."""
        instance = self.instances.get(request.query["instance_id"], {"users": []})
        return json_response(
            {"participants": [self.people[int(user)] | {"flags": 0} for user in instance["users"]]}
        )

    async def until(self, check: Callable[[Request], bool], timeout: float = HANG) -> Request:
        """Wait for the bot to make a request that passes `check` (or return one it already made)."""

        def found() -> Request | None:
            return next((request for request in self.requests if check(request)), None)

        async with self._changed:
            await asyncio.wait_for(self._changed.wait_for(lambda: found() is not None), timeout)
        request = found()
        assert request is not None
        return request

    async def connected(self, timeout: float, shards: Iterable[int] | None = None) -> None:
        """Wait until these shards (default: every one) have identified on the gateway and been sent READY."""
        wanted = set(range(self.shards) if shards is None else shards)
        async with self._changed:
            await asyncio.wait_for(self._changed.wait_for(lambda: wanted <= set(self.identified)), timeout)

    def original(self, token: str) -> str:
        """The id of the message an interaction's response posted (its "original"), by its token."""
        return self._originals[token]

    def forget(self, shards: Iterable[int] | None = None) -> None:
        """Forget these shards' IDENTIFY (a bot process about to start again), so `connected` waits anew."""
        for shard in range(self.shards) if shards is None else shards:
            self.identified.pop(shard, None)

    @property
    def identify(self) -> dict[str, Any]:
        """The latest IDENTIFY (of any shard)."""
        return next(reversed(self.identified.values()), {})

    def shard_of(self, guild_id: int) -> int:
        return (guild_id >> 22) % self.shards

    def _guilds_of(self, shard: int) -> list[int]:
        return [guild for guild in self.guilds if self.shard_of(guild) == shard]

    # ------------------------------------------------------------------ gateway

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse()
        await socket.prepare(request)
        self._socket = socket
        await socket.send_json({"op": 10, "d": {"heartbeat_interval": 41250}})
        async for message in socket:
            if message.type is not WSMsgType.TEXT:
                break
            data = json.loads(message.data)
            if data["op"] == 1:
                await socket.send_json({"op": 11})
            elif data["op"] == 2:
                shard = data["d"].get("shard", [0, 1])[0]
                self._sockets[shard] = socket
                await self._dispatch("READY", self._ready(shard), shard)
                for guild in self._guilds_of(shard):
                    await self._dispatch("GUILD_CREATE", self._guild(guild), shard)
                self.identified[shard] = data["d"]
                async with self._changed:
                    self._changed.notify_all()
            elif data["op"] == 6:
                shard = int(data["d"]["session_id"].rpartition("-")[2])
                self._sockets[shard] = socket
                self.resumes += 1
                await self.resuming.wait()
                await self._dispatch("RESUMED", {}, shard)
        return socket

    async def reconnect(self) -> None:
        """Ask the bot to drop its gateway connection and resume on a new one (op 7, RECONNECT)."""
        assert self._socket is not None, "the bot has not connected to the gateway"
        await self._socket.send_json({"op": 7, "d": None})

    async def _dispatch(self, event: str, data: dict[str, Any], shard: int) -> None:
        socket = self._sockets.get(shard)
        assert socket is not None, f"no bot has connected shard {shard} to the gateway"
        self._seq[shard] = self._seq.get(shard, 0) + 1
        await socket.send_json({"op": 0, "t": event, "s": self._seq[shard], "d": data})

    def _ready(self, shard: int) -> dict[str, Any]:
        return {
            "v": 10,
            "user": BOT,
            "guilds": [
                {"id": str(guild), "unavailable": True}
                for guild in self.guilds
                if self.shard_of(guild) == shard
            ],
            "session_id": f"fake-session-{shard}",
            "resume_gateway_url": self.url.replace("http", "ws") + "/",
            "application": {"id": str(APP_ID), "flags": 0},
            "shard": [shard, self.shards],
        }

    def _guild(self, guild_id: int) -> dict[str, Any]:
        channel = {
            "id": str(self.channels[guild_id]),
            "type": 0,
            "name": "hog",
            "position": 0,
            "permission_overwrites": [],
        }
        everyone = {
            "id": str(guild_id),
            "name": "@everyone",
            "permissions": EVERYONE,
            "position": 0,
            "color": 0,
            "hoist": False,
            "managed": False,
            "mentionable": False,
        }
        return {
            "id": str(guild_id),
            "name": "Hog Club",
            "owner_id": "1",
            "unavailable": False,
            "member_count": 1,
            "large": False,
            "features": [],
            "emojis": [],
            "stickers": [],
            "roles": [everyone],
            "channels": [channel],
            "threads": [],
            "members": [member(BOT)],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    async def interact(
        self,
        person: dict[str, Any],
        data: dict[str, Any],
        message_id: str | None = None,
        permissions: str = EVERYONE,
        guild_id: int = GUILD_ID,
    ) -> str:
        """Send an INTERACTION_CREATE from `person` in the #hog of `guild_id` (a press: of its message's
        server), with these permissions in the channel, on that server's shard; the interaction's token
        (to find its responses)."""
        token = f"token-{self._id()}"
        self.interacted[token] = time.monotonic()
        self.people[int(person["id"])] = person
        self._presser[token] = person
        if message_id is not None:  # a press: on the server of the message's channel
            channel_id = int(self.messages[message_id]["channel_id"])
            guild_id = next(guild for guild, channel in self.channels.items() if channel == channel_id)
        channel = str(self.channels[guild_id])
        self._channel_of[token] = channel
        payload = {
            "id": self._id(),
            "application_id": str(APP_ID),
            "token": token,
            "version": 1,
            "type": 3 if message_id else 2,
            "data": data,
            "guild_id": str(guild_id),
            "channel_id": channel,
            "channel": {"id": channel, "type": 0},
            "member": member(person) | {"permissions": permissions},
            "app_permissions": EVERYONE,
            "locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {},
            "context": 0,
            "attachment_size_limit": 10 << 20,
        }
        if message_id is not None:
            payload["message"] = self.messages[message_id]
            self._sources[token] = message_id
        await self._dispatch("INTERACTION_CREATE", payload, self.shard_of(guild_id))
        return token

    # --------------------------------------------------------------------- REST

    async def _rest(self, request: web.Request) -> web.Response:
        path, auth = "/" + request.match_info["path"], request.headers.get("Authorization")
        record = Request(request.method, path, await _body(request), auth, query=dict(request.query))
        await self._arrived(record)
        try:
            for method, pattern, status in self._faults:
                if method == record.method and fnmatch.fnmatch(record.path, pattern):
                    return json_response({"message": "Service Unavailable", "code": 0}, status=status)
            headers: Mapping[str, str] = {}
            if self._limiter is not None and record.global_limited:
                checked = self._limiter.check(record)
                if isinstance(checked, web.Response):
                    self.throttled.append(record)
                    return checked
                headers = checked
            answer = self._answer(record)
            answer.headers.update(headers)
            return answer
        finally:
            async with self._changed:
                self._changed.notify_all()

    async def _attachment(self, request: web.Request) -> web.Response:
        await self._arrived(Request(request.method, request.path, None))
        return web.Response(body=self._files[request.match_info["id"]])

    async def _arrived(self, record: Request) -> None:
        """Record a request; if a hold takes it, wait until released."""
        self.requests.append(record)
        if self.arrived is not None:
            self.arrived(record)
        hold = next((hold for hold in self._holds if hold[0](record)), None)
        if hold is None:
            return
        self._holds.remove(hold)
        hold[1].set_result(record)
        async with self._changed:
            self._changed.notify_all()
        await self._released.wait()

    def _answer(self, request: Request) -> web.Response:
        method, parts, body = request.method, request.path.strip("/").split("/"), request.body
        if (method, request.path) == ("GET", "/users/@me"):
            return self._me(request)
        if (method, request.path) == ("POST", "/oauth2/token"):
            return self._exchange(body)
        if method == "GET" and parts[0] == "applications" and parts[2] == "activity-instances":
            return self._instance(request, parts[3])
        if (method, parts[0], parts[-1]) == ("GET", "applications", "commands") and len(parts) == 3:
            return json_response(self.commands.get("global", []))
        if (method, request.path) == ("GET", "/gateway/bot"):
            limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
            gateway = self.url.replace("http", "ws") + "/"
            return json_response({"url": gateway, "shards": self.shards, "session_start_limit": limit})
        if (method, request.path) == ("GET", "/oauth2/applications/@me"):
            return json_response(
                {
                    "id": str(APP_ID),
                    "name": "hogbot",
                    "icon": None,
                    "description": "",
                    "bot_public": True,
                    "bot_require_code_grant": False,
                    "verify_key": "0",
                    "flags": 0,
                    "owner": user(1, "owner"),
                }
            )
        if method == "PUT" and parts[0] == "applications":
            where = parts[3] if parts[2] == "guilds" else "global"
            if where == "global" and not self._keeps_entry_points(body):
                return json_response({"message": ENTRY_POINT_KEPT, "code": 50240}, status=400)
            self.commands[where] = [
                {**command, "id": self._id(), "application_id": str(APP_ID), "version": "1"}
                for command in body
            ]
            return json_response(self.commands[where])
        if method == "POST" and parts[0] == "interactions":
            return self._callback(parts[2], body)
        if parts[0] == "webhooks":
            return self._webhook(method, parts[2], parts[4:], body)
        if method == "GET" and parts[0] == "channels" and parts[2:] == ["messages"]:
            return json_response(self._history(parts[1], int(request.query.get("limit", "50"))))
        if method == "POST" and parts[-1] == "messages":
            return json_response(self._posted(body, parts[1]))
        if method == "PATCH" and parts[0] == "channels":
            self.messages[parts[3]] |= body
            return json_response(self.messages[parts[3]])
        if method == "DELETE" and parts[0] == "channels" and parts[3] in self.messages:
            del self.messages[parts[3]]
            return web.Response(status=204)
        return self._unknown(request)

    def _webhook(self, method: str, token: str, message: list[str], body: Any) -> web.Response:
        """An interaction's webhook: a follow-up posted (in the interaction's channel), or the response's
        message (@original: the message pressed, or the command's answer) or a follow-up read, edited or
        deleted; only while the token lives, and only the interaction's own messages."""
        if self._token_gone(token):
            return json_response({"message": "Unknown Webhook", "code": UNKNOWN_WEBHOOK}, status=404)
        if not message:
            if method != "POST":
                return self._unknown(Request(method, f"/webhooks/-/{token}", body))
            posted = self._message(body, self._channel_of[token])
            self._follow_ups[posted["id"]] = token
            return json_response(posted)
        if message[0] == "@original":
            message_id = self._originals.get(token) or self._sources[token]
        elif self._follow_ups.get(message[0]) == token:
            message_id = message[0]
        else:
            return json_response({"message": "Unknown Message", "code": 10008}, status=404)
        if message_id not in self.messages:
            return json_response({"message": "Unknown Message", "code": 10008}, status=404)
        if method == "DELETE":
            del self.messages[message_id]
            return web.Response(status=204)
        if method == "PATCH":
            self.messages[message_id] |= body
        return json_response(self.messages[message_id])

    def _history(self, channel: str, limit: int) -> list[dict[str, Any]]:
        """The channel's latest messages, newest first."""
        found = [message for message in self.messages.values() if message["channel_id"] == channel]
        return sorted(found, key=lambda message: int(message["id"]), reverse=True)[:limit]

    def _unknown(self, request: Request) -> web.Response:
        self.unknown.append(request)
        return json_response({"message": "404: Not Found", "code": 0}, status=404)

    def _posted(self, body: dict[str, Any], channel: str) -> dict[str, Any]:
        """A message posted in a channel; with a nonce the bot asks Discord to enforce, the message already
        posted with that nonce there, if any (a resend), as Discord answers."""
        nonce = body.get("nonce") if body.get("enforce_nonce") else None
        same = (
            message
            for message in self.messages.values()
            if nonce is not None and message.get("nonce") == nonce and message["channel_id"] == channel
        )
        return next(same, None) or self._message(body, channel)

    def _keeps_entry_points(self, commands: list[dict[str, Any]]) -> bool:
        """Whether a bulk overwrite of the global commands keeps every Entry Point command there is."""
        named = {(command.get("type"), command.get("name")) for command in commands}
        return all(
            (4, command["name"]) in named
            for command in self.commands.get("global", [])
            if command["type"] == 4
        )

    def _me(self, request: Request) -> web.Response:
        """The bot itself, by its token; or the person an access token was given to."""
        scheme, _, token = (request.auth or "").partition(" ")
        if scheme != "Bearer":
            return json_response(BOT)
        person = self._access.get(token)
        if person is None:
            return json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        return json_response(self.people[person] | {"global_name": self.people[person]["username"]})

    def _exchange(self, form: dict[str, Any]) -> web.Response:
        """OAuth2's code grant: a code given once, by this application, with its secret."""
        good = (form.get("client_id"), form.get("client_secret"), form.get("grant_type")) == (
            str(APP_ID),
            CLIENT_SECRET,
            "authorization_code",
        )
        person = self._codes.pop(str(form.get("code")), None)
        if not good or person is None:
            return json_response({"error": "invalid_grant"}, status=400)
        token = secrets.token_urlsafe(16)
        self._access[token] = person
        return json_response(
            {"access_token": token, "token_type": "Bearer", "expires_in": 604800, "scope": "identify"}
        )

    def _instance(self, request: Request, instance_id: str) -> web.Response:
        if request.auth != "Bot fake-token" or instance_id not in self.instances:
            return json_response({"message": "Unknown Activity Instance", "code": 10000}, status=404)
        return json_response(self.instances[instance_id])

    def _callback(self, token: str, body: dict[str, Any]) -> web.Response:
        """Interaction callbacks: 4 sends a message, 5 and 6 defer, 7 edits the button's message, 12 launches
        the Activity in the interaction's channel (or joins the instance running there)."""
        kind = body["type"]
        resource: dict[str, Any] = {"type": kind}
        if kind == 12:
            self.launches.append(token)
            channel = int(self._channel_of[token])
            guild = next(guild for guild, own in self.channels.items() if own == channel)
            running = next(
                (
                    key
                    for key, value in self.instances.items()
                    if value["location"]["channel_id"] == str(channel)
                ),
                None,
            )
            instance_id = running or self.start_activity(channel, guild, [])
            self.join_activity(instance_id, self._presser[token])
            resource["activity_instance"] = {"id": instance_id}
        if kind in (4, 5):  # a message, or the "thinking…" one its edits and first follow-up replace
            resource["message"] = self._message(body.get("data") or {}, self._channel_of[token])
            self._originals[token] = resource["message"]["id"]
        elif kind == 7:
            resource["message"] = self.messages[self._sources[token]] | body["data"]
        flags = (body.get("data") or {}).get("flags", 0)
        interaction = {
            "id": self._id(),
            "activity_instance_id": resource.get("activity_instance", {}).get("id"),
            "type": kind,
            "response_message_loading": kind == 5,
            "response_message_ephemeral": bool(flags & 64),
        }
        return json_response({"interaction": interaction, "resource": resource})

    def _message(self, data: dict[str, Any], channel: str) -> dict[str, Any]:
        message = {
            "id": self._id(),
            "channel_id": channel,
            "author": BOT,
            "content": "",
            "embeds": [],
            "components": [],
            "attachments": [],
            "mentions": [],
            "mention_roles": [],
            "pinned": False,
            "mention_everyone": False,
            "tts": False,
            "type": 0,
            "edited_timestamp": None,
            "timestamp": "2026-01-01T00:00:00+00:00",
        } | data
        self.messages[message["id"]] = message
        return message
