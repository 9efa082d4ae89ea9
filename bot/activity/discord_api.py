"""What the Activity asks Discord's API, never the page: the sign-in code exchanged for an access token
(with the client secret), who that token is (`/users/@me`), and who is in an instance and where it runs
(the activity-instances route, with the bot's token). Discord's refusals become domain errors."""

import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp

from bot.domain.activities import Instance
from bot.domain.errors import ActivityGone, DiscordUnavailable, SignInRefused
from bot.domain.matches import Player

log = logging.getLogger(__name__)

USER_AGENT = "DiscordBot (https://discord.com/developers/docs/activities/overview, hogbot 0.1)"
TIMEOUT = aiohttp.ClientTimeout(total=10)
# An instance's people as Discord listed them are asked again after this long, or at once for a person not
# among them (someone who just joined).
INSTANCE_SECONDS = 5.0
DISCORD_FAILURES = (aiohttp.ClientError, TimeoutError, ValueError, KeyError, TypeError)


class DiscordApi:
    """Discord's API at `base` (https://discord.com/api/v10, or a test's), for one application."""

    def __init__(
        self,
        base: str,
        client_id: int,
        client_secret: str,
        bot_token: str,
        spend: Callable[[], Awaitable[None]],
    ) -> None:
        self._base = base.rstrip("/")
        self._client_id = client_id
        self._client_secret = client_secret
        self._bot_token = bot_token
        self._spend = spend  # awaited before each call with the bot's token: its budget (the global limit)
        self._session: aiohttp.ClientSession | None = None
        self._instances: dict[str, tuple[Instance, float]] = {}

    def _http(self) -> aiohttp.ClientSession:
        if self._session is None:
            self._session = aiohttp.ClientSession(timeout=TIMEOUT, headers={"User-Agent": USER_AGENT})
        return self._session

    async def exchange(self, code: str) -> str:
        """The access token Discord gives for the code the page got from its AUTHORIZE."""
        form = {
            "client_id": str(self._client_id),
            "client_secret": self._client_secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        data = await self._call("POST", "/oauth2/token", refused=SignInRefused, data=form)
        return str(data["access_token"])

    async def person(self, access_token: str) -> Player:
        """Who holds this access token, by the name people see (their display name, else user name)."""
        headers = {"Authorization": f"Bearer {access_token}"}
        data = await self._call("GET", "/users/@me", refused=SignInRefused, headers=headers)
        return Player(int(data["id"]), str(data.get("global_name") or data["username"]))

    async def instance(self, instance_id: str, person_id: int) -> Instance:
        """The running instance, as listed by Discord at most INSTANCE_SECONDS ago with `person_id` among its
        people, else as Discord lists it now; ActivityGone if Discord knows no such instance."""
        cached, since = self._instances.get(instance_id, (None, 0.0))
        if cached is not None and person_id in cached.users and time.monotonic() - since < INSTANCE_SECONDS:
            return cached
        await self._spend()
        path = f"/applications/{self._client_id}/activity-instances/{instance_id}"
        headers = {"Authorization": f"Bot {self._bot_token}"}
        found = _instance(await self._call("GET", path, refused=ActivityGone, headers=headers))
        now = time.monotonic()
        self._instances = {
            key: seen for key, seen in self._instances.items() if now - seen[1] < INSTANCE_SECONDS
        }
        self._instances[instance_id] = (found, now)
        return found

    async def _call(self, method: str, path: str, refused: type[Exception], **request: Any) -> dict[str, Any]:
        """Discord's JSON answer; `refused` for a 4xx of the request itself, DiscordUnavailable for the rest
        (a network failure, its rate limit, its own failure)."""
        try:
            async with self._http().request(method, self._base + path, **request) as response:
                if response.status in (400, 401, 403, 404):
                    log.info("Discord refused %s %s: %d", method, path.split("/")[1], response.status)
                    raise refused
                if response.status != 200:
                    log.warning("Discord answered %s %s with %d", method, path.split("/")[1], response.status)
                    raise DiscordUnavailable
                data = await response.json(content_type=None)
                if not isinstance(data, dict):
                    raise TypeError("not a JSON object")
                return data
        except DISCORD_FAILURES as error:
            log.warning("could not ask Discord (%s %s): %s", method, path.split("/")[1], error)
            raise DiscordUnavailable from None

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()


def _instance(data: dict[str, Any]) -> Instance:
    """An activity instance as Discord's API gives it (application, instance and launch ids, its location,
    its users' ids); DiscordUnavailable for anything else."""
    try:
        location = data["location"]
        guild = location.get("guild_id")
        return Instance(
            str(data["instance_id"]),
            None if guild is None else int(guild),
            int(location["channel_id"]),
            frozenset(int(user) for user in data["users"]),
        )
    except (*DISCORD_FAILURES, AttributeError) as error:
        log.warning("Discord described an activity instance unexpectedly: %s", error)
        raise DiscordUnavailable from None
