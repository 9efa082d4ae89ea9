"""The Activity's server through aiohttp's test client, on the bot's services (a real SQLite file, a real
PostgreSQL database) and the fake Discord's API over real sockets: signing in only through Discord, a
table's seats and moves as the game service checks them, pages kept live over their sockets, and every
request the page would never send refused with its words and a 4xx, never a cookie or a traceback."""

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientResponse, ClientWebSocketResponse, WSMsgType
from aiohttp.test_utils import TestClient, TestServer

from bot.activity.discord_api import DiscordApi
from bot.activity.server import Activity
from bot.activity.settings import ActivitySettings
from bot.config import Settings
from bot.discord.budget import Budget
from bot.services import Services
from bot.services.games.follow_up import FollowUp
from tests.bot.discord.fake_discord import APP_ID, CLIENT_SECRET, FakeDiscord, user
from tests.bot.discord.over_sockets import ALICE, BOB, CAROL
from tests.helpers import FakeClock, counted_seeds

ORIGIN = f"https://{APP_ID}.discordsays.com"  # the page's origin inside Discord, the default
GUILD, CHANNEL = 7100, 7200
DAVE = user(104, "dave")
Client = TestClient[Any, Any]


@dataclass
class Served:
    """The Activity's app under test, its fake Discord, and the boards it asked to redraw."""

    client: Client
    fake: FakeDiscord
    services: Services
    clock: FakeClock
    redrawn: list[int] = field(default_factory=list)
    answers: list[ClientResponse] = field(default_factory=list)

    async def ask(self, method: str, path: str, token: str | None = None, **headers: str) -> ClientResponse:
        """A request as the page sends it: from its origin, signed in with `token` if given."""
        sent = {"Origin": ORIGIN} | ({"Authorization": f"Bearer {token}"} if token else {}) | headers
        answer = await self.client.request(method, path, headers=sent)
        self.answers.append(answer)
        return answer

    async def send(self, path: str, body: object, token: str | None = None, **headers: str) -> ClientResponse:
        sent = {"Origin": ORIGIN, "Content-Type": "application/json"} | headers
        if token:
            sent["Authorization"] = f"Bearer {token}"
        answer = await self.client.post(path, json=body, headers=sent)
        self.answers.append(answer)
        return answer

    async def sign_in(self, person: dict[str, Any], instance: str) -> dict[str, Any]:
        """`person` signs in to the instance as the page does (a code from Discord's AUTHORIZE)."""
        answer = await self.send("/api/token", {"code": self.fake.authorize(person), "instance_id": instance})
        assert answer.status == 200, await answer.text()
        signed: dict[str, Any] = await answer.json()
        return signed


def activity_settings(**changes: Any) -> ActivitySettings:
    values: dict[str, Any] = {
        "client_id": APP_ID,
        "client_secret": CLIENT_SECRET,
        "host": "127.0.0.1",
        "port": 0,
        "origins": None,
        "hosts": None,
        "frame_ancestors": None,
        "token_seconds": 900.0,
    }
    return ActivitySettings.of(**(values | changes))


@pytest.fixture
async def served(
    fake: FakeDiscord, tmp_path: Path, solved: Path, database_url: str | None
) -> AsyncIterator[Served]:
    clock = FakeClock()
    settings = Settings(
        database_path=tmp_path / "hog.sqlite3",
        database_url=database_url,
        solver_cache_path=solved,
        _env_file=None,  # type: ignore[call-arg]
    )
    services = await Services.open(settings.services, clock, counted_seeds())
    redrawn: list[int] = []

    async def redraw(match_id: int) -> None:
        redrawn.append(match_id)

    follow_up = FollowUp(services.games, services.ratings, 0, redraw)
    api = DiscordApi(f"{fake.url}/api/v10", APP_ID, CLIENT_SECRET, "fake-token", Budget(40.0).spend)
    activity = Activity(
        activity_settings(), services=services, follow_up=follow_up, redraw=redraw, api=api, clock=clock
    )
    async with TestClient(TestServer(activity.app())) as client:
        server = Served(client, fake, services, clock, redrawn)
        yield server
        await activity.hub.close()
    await follow_up.close()
    await api.close()
    await services.close()
    assert all("Set-Cookie" not in answer.headers for answer in server.answers)  # no cookies, ever


async def refused(answer: ClientResponse, status: int) -> str:
    """A refusal's words: JSON {"error": ...} with this status, nothing of the server's insides."""
    assert answer.status == status, await answer.text()
    body = await answer.json()
    assert list(body) == ["error"] and "Traceback" not in body["error"] and body["error"].endswith(".")
    return str(body["error"])


async def test_every_answer_may_be_framed_by_discord_only_and_holds_nothing_of_elsewhere(
    served: Served,
) -> None:
    for path in ("/", "/api/setup", "/activity/activity.js", "/static/draw.js"):
        answer = await served.ask("GET", path)
        assert answer.status == 200, path
        policy = answer.headers["Content-Security-Policy"]
        assert "default-src 'self'" in policy and "script-src" not in policy  # none inline, none elsewhere
        ancestors = policy.split("frame-ancestors ")[1].split()
        assert ancestors == [
            "https://discord.com",
            "https://*.discord.com",
            "https://discordapp.com",
            "https://*.discordapp.com",
        ]
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
    setup = await (await served.ask("GET", "/api/setup")).json()
    assert setup["client_id"] == str(APP_ID) and setup["default"] == "swine-align"


async def test_a_person_signs_in_only_as_discord_says(served: Served) -> None:
    instance = served.fake.start_activity(CHANNEL, GUILD, [ALICE, BOB])
    signed = await served.sign_in(ALICE, instance)
    assert signed["user"] == {"id": ALICE["id"], "name": "alice"}
    assert signed["access_token"] in served.fake._access  # the token the page hands to AUTHENTICATE
    assert signed["table"]["match"] is None and signed["table"]["host"] is None
    used = served.fake.authorize(BOB)
    assert (await served.send("/api/token", {"code": used, "instance_id": instance})).status == 200
    again = await served.send("/api/token", {"code": used, "instance_id": instance})  # a code works once
    assert (
        await refused(again, 401)
        == "Discord did not accept this sign-in: close the Activity and open it again."
    )
    stranger = await served.send("/api/token", {"code": served.fake.authorize(DAVE), "instance_id": instance})
    assert await refused(stranger, 403) == "You are not in this Activity: join it from its channel first."
    gone = await served.send("/api/token", {"code": served.fake.authorize(ALICE), "instance_id": "i-404"})
    assert (
        await refused(gone, 404) == "This Activity is not running any more: open it again from the channel."
    )
    direct = served.fake.start_activity(CHANNEL, None, [ALICE])
    in_dm = await served.send("/api/token", {"code": served.fake.authorize(ALICE), "instance_id": direct})
    assert (
        await refused(in_dm, 403) == "Hog is played in a server's channels: open the Activity in one of them."
    )
    served.fake.fail("POST", "/oauth2/token")
    down = await served.send("/api/token", {"code": served.fake.authorize(ALICE), "instance_id": instance})
    assert "Discord cannot be reached right now" in await refused(down, 503)


@pytest.mark.parametrize(
    "body",
    [
        {"code": "../../users/@me", "instance_id": "i-1"},
        {"code": "x", "instance_id": "a/b"},
        {"code": 7, "instance_id": "i-1"},
        {"code": "x"},
        {"code": "x", "instance_id": "i-1", "user": "101"},
        [],
    ],
)
async def test_a_sign_in_that_is_not_a_code_and_an_instance_is_refused(served: Served, body: object) -> None:
    answer = await served.send("/api/token", body)
    assert (await refused(answer, 400)).startswith("Send a JSON object like")
    assert not [r for r in served.fake.requests if r.path == "/oauth2/token"]  # Discord was not asked


async def test_only_the_pages_own_requests_are_served(served: Served) -> None:
    instance = served.fake.start_activity(CHANNEL, GUILD, [ALICE])
    token = (await served.sign_in(ALICE, instance))["token"]
    refusal = "This server answers only Hog's Activity page, inside Discord."
    assert (
        await refused(await served.ask("GET", "/api/table", token, Origin="https://evil.example"), 403)
        == refusal
    )
    cross = await served.ask("GET", "/api/table", token, **{"Sec-Fetch-Site": "cross-site"})
    assert await refused(cross, 403) == refusal
    answer = await served.client.post(
        "/api/table/stand", json={}, headers={"Authorization": f"Bearer {token}"}
    )
    assert await refused(answer, 403) == refusal  # a body without the page's Origin
    plain = await served.client.post(
        "/api/table/stand", data="{}", headers={"Origin": ORIGIN, "Authorization": f"Bearer {token}"}
    )
    assert await refused(plain, 415) == "Send the request body as JSON, with Content-Type: application/json."
    huge = await served.send("/api/table/host", {"rules": "x" * 10_000, "goal": 1}, token)
    assert (await refused(huge, 413)).startswith("The request is larger than 4 KiB")
    assert (await served.ask("GET", "/", Origin="https://evil.example")).status == 403
    assert (await served.ask("GET", "/")).status == 200  # the page itself: Discord's frame loads it


async def test_without_our_sign_in_nothing_is_answered(served: Served) -> None:
    instance = served.fake.start_activity(CHANNEL, GUILD, [ALICE])
    token = (await served.sign_in(ALICE, instance))["token"]
    body, signature = token.split(".")
    for forged in ("", "nonsense", f"{body}.{signature[:-2]}AA", f"{body[:-2]}AA.{signature}", "a" * 5000):
        answer = await served.ask("GET", "/api/table", forged)
        assert await refused(answer, 401) == "Sign in first: open the Activity from Discord."
    assert await refused(await served.client.get("/api/table", headers={"Origin": ORIGIN}), 401)
    served.clock.advance(900)
    assert await refused(await served.ask("GET", "/api/table", token), 401) == (
        "Your sign-in ran out: signing you in again."
    )


async def live(served: Served, token: str) -> ClientWebSocketResponse:
    socket = await served.client.ws_connect("/api/live", headers={"Origin": ORIGIN})
    await socket.send_json({"token": token})
    return socket


async def table_from(socket: ClientWebSocketResponse) -> dict[str, Any]:
    message = await socket.receive_json()
    assert message["type"] == "table"
    table: dict[str, Any] = message["table"]
    return table


async def test_two_people_seated_at_a_table_play_and_every_page_sees_every_move(served: Served) -> None:
    instance = served.fake.start_activity(CHANNEL, GUILD, [ALICE, BOB, CAROL])
    alice, bob, carol = [(await served.sign_in(person, instance))["token"] for person in (ALICE, BOB, CAROL)]
    watching = await live(served, carol)
    assert (await table_from(watching))["match"] is None
    assert await refused(await served.send("/api/table/sit", {}, bob), 400) == (
        "Nobody is waiting at this table for a friend: start a game yourself."
    )
    hosted = await (await served.send("/api/table/host", {"rules": "sp17", "goal": 40}, alice)).json()
    assert hosted["host"]["name"] == "alice" and hosted["waiting"]["rules"]["id"] == "pork-chop"
    assert (await table_from(watching))["waiting"]["goal"] == 40
    assert await refused(await served.send("/api/table/sit", {}, alice), 400) == (
        "You are the one waiting at this table: someone else takes the other seat."
    )
    table = await (await served.send("/api/table/sit", {}, bob)).json()
    match = table["match"]
    assert [seat["name"] for seat in match["seats"]] == ["alice", "bob"] and match["status"] == "active"
    assert served.redrawn == [match["id"]]  # its board posted
    stored = await served.services.games.get(match["id"])
    assert (stored.channel_id, stored.guild_id, stored.rules, stored.goal) == (
        CHANNEL,
        GUILD,
        "pork-chop",
        40,
    )
    assert (await table_from(watching))["match"]["id"] == match["id"]
    assert await refused(await served.send("/api/table/host", {"rules": "sp17", "goal": 40}, carol), 400) == (
        "A game is on at this table: watch it, or start yours once it ends."
    )
    turn = {"turn": 0, "choice": 5}
    assert await refused(await served.send("/api/moves", turn, bob), 400) == "It's alice's turn."
    assert (
        await refused(await served.send("/api/moves", turn, carol), 400)
        == "You are not playing in this game."
    )
    played = await (await served.send("/api/moves", turn, alice)).json()
    assert played["match"]["board"]["turn"] == 1 and len(played["match"]["turns"]) == 1
    pushed = await table_from(watching)
    assert pushed["match"]["board"] == played["match"]["board"] and pushed["stamp"] == played["stamp"]
    assert served.redrawn == [match["id"]] * 2
    again = await served.send("/api/moves", turn, alice)
    assert await refused(again, 409) == "You already did that."  # a double tap of the mover
    hint = await (await served.ask("GET", "/api/hint", bob)).json()
    assert hint["turn"] == 1 and {choice["choice"] for choice in hint["choices"]} >= {1, 10}
    gave_up = await (await served.send("/api/forfeit", {}, bob)).json()
    assert gave_up["match"]["board"]["status"] == "bob gave up: alice wins."
    assert gave_up["match"]["seed"] and gave_up["match"]["record"]["seed"] == gave_up["match"]["seed"]
    assert (await table_from(watching))["match"]["status"] == "forfeit"
    for person in (alice, bob):
        voted = await (await served.send("/api/rematch", {}, person)).json()
    assert voted["match"]["id"] != match["id"]
    assert [seat["name"] for seat in voted["match"]["seats"]] == ["bob", "alice"]  # seats swapped
    await watching.close()


async def test_one_person_plays_the_house_and_its_moves_reach_the_page(served: Served) -> None:
    instance = served.fake.start_activity(CHANNEL, GUILD, [ALICE])
    token = (await served.sign_in(ALICE, instance))["token"]
    page = await live(served, token)
    await table_from(page)
    body = {"rules": "swine-align", "goal": 30, "level": "easy"}
    wrong = await served.send("/api/table/house", body | {"level": "genius"}, token)
    assert "genius" in await refused(wrong, 400)
    started = await (await served.send("/api/table/house", body, token)).json()
    assert started["match"]["seats"][1] is None and not started["match"]["house_to_move"]
    await served.send("/api/moves", {"turn": 0, "choice": 2}, token)
    seen = started
    while seen["match"]["board"]["turn"] < 2 and seen["match"]["status"] == "active":
        seen = await table_from(page)  # the house's move, played by the follow-up, pushed as it is stored
    assert [turn["name"] for turn in seen["match"]["turns"]][:2] == ["alice", "Hog Bot (easy)"]
    again = await served.send("/api/table/house", body, token)
    assert await refused(again, 400) == "A game is on at this table: watch it, or start yours once it ends."
    await page.close()


async def test_a_socket_that_says_nothing_of_ours_is_closed(served: Served) -> None:
    for said in ({"token": "forged.token"}, {"hello": 1}, "not json"):
        socket = await served.client.ws_connect("/api/live", headers={"Origin": ORIGIN})
        await (socket.send_json(said) if isinstance(said, dict) else socket.send_str(said))
        message = await socket.receive()
        assert message.type is WSMsgType.CLOSE and message.data == 4401
    answer = await served.client.get("/api/live", headers={"Origin": "https://evil.example"})
    assert answer.status == 403


async def test_a_change_made_by_another_bot_process_reaches_the_pages(
    served: Served, tmp_path: Path, solved: Path, database_url: str | None
) -> None:
    """Another process on the same database (its own services, as a shard process has) plays a move: the
    page on this one is sent it, found by its look at the database."""
    instance = served.fake.start_activity(CHANNEL, GUILD, [ALICE, BOB])
    alice, bob = [(await served.sign_in(person, instance))["token"] for person in (ALICE, BOB)]
    await served.send("/api/table/host", {"rules": "pig-fest", "goal": 50}, alice)
    match = (await (await served.send("/api/table/sit", {}, bob)).json())["match"]
    page = await live(served, bob)
    assert (await table_from(page))["match"]["board"]["turn"] == 0
    settings = Settings(
        database_path=tmp_path / "hog.sqlite3",
        database_url=database_url,
        solver_cache_path=solved,
        _env_file=None,  # type: ignore[call-arg]
    )
    other = await Services.open(settings.services, served.clock, counted_seeds())
    try:
        await other.games.play(match["id"], int(ALICE["id"]), 0, 4)
    finally:
        await other.close()
    seen = await table_from(page)
    assert seen["match"]["board"]["turn"] == 1 and seen["match"]["turns"][0]["name"] == "alice"
    await page.close()


async def test_with_host_names_configured_any_other_is_refused(
    fake: FakeDiscord, tmp_path: Path, solved: Path
) -> None:
    settings = Settings(database_path=tmp_path / "hog.sqlite3", solver_cache_path=solved, _env_file=None)  # type: ignore[call-arg]
    services = await Services.open(settings.services)
    redraws: list[int] = []

    async def redraw(match_id: int) -> None:
        redraws.append(match_id)

    follow_up = FollowUp(services.games, services.ratings, 0, redraw)
    api = DiscordApi(f"{fake.url}/api/v10", APP_ID, CLIENT_SECRET, "fake-token", Budget(40.0).spend)
    activity = Activity(
        activity_settings(hosts=("Hog.Example.org",)),
        services=services,
        follow_up=follow_up,
        redraw=redraw,
        api=api,
        clock=FakeClock(),
    )
    try:
        async with TestClient(TestServer(activity.app())) as client:
            named = await client.get("/api/setup", headers={"Host": "hog.example.org"})
            assert named.status == 200
            for host in ("127.0.0.1", "evil.example", "hog.example.org.evil.example"):
                answer = await client.get("/api/setup", headers={"Host": host})
                assert (
                    await refused(answer, 403)
                    == "This server answers only Hog's Activity page, inside Discord."
                )
    finally:
        await api.close()
        await services.close()
