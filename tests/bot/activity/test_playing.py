"""The Activity in real headless Chromium, framed by the fake Discord client that speaks the Embedded App
protocol, served by `python -m bot` against the fake Discord: two people on one instance play a whole game
of each rule set, the channel's board showing every move; a stranger is refused and a third person only
watches; a reload takes its seat back; one person plays the house; the bot is killed mid-game and comes
back; a phone-sized frame. Screenshots of each stage are checked non-blank."""

import asyncio
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageStat
from playwright.async_api import Browser, WebSocketRoute, expect

from hogengine.rules import RULE_SETS
from tests.bot.activity.conftest import (
    CHANNEL_ID,
    DESK,
    GUILD_ID,
    PHONE,
    ActivityBot,
    Person,
    at_turn,
    board_of,
    open_activity,
)
from tests.bot.discord.fake_discord import FakeDiscord, user
from tests.bot.discord.over_sockets import ALICE, BOB, CAROL
from tests.hang import HANG

RULES = [rules.id for rules in RULE_SETS]
GOAL = 60  # a short game: five dice a turn end it in a dozen turns or so
ROLL = "Roll 5"
DAVE = user(104, "dave")
PROTOCOL = [
    "HANDSHAKE",
    "AUTHORIZE",
    "AUTHENTICATE",
    "GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS",
    "SUBSCRIBE",
]


# What @discord/embedded-app-sdk 2.5.0 itself posts for these (seen framed by parent.html): the opcode, the
# payload's keys, the command and what its arguments hold. The page speaks the protocol word for word.
SDK_SHAPES = [
    (0, ["client_id", "encoding", "frame_id", "sdk_version", "v"], None, None),
    (
        1,
        ["args", "cmd", "nonce", "transfer"],
        "AUTHORIZE",
        ["client_id", "prompt", "response_type", "scope", "state"],
    ),
    (1, ["args", "cmd", "nonce", "transfer"], "AUTHENTICATE", ["access_token"]),
    (1, ["args", "cmd", "nonce", "transfer"], "GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS", None),
    (1, ["args", "cmd", "evt", "nonce"], "SUBSCRIBE", None),
]


def shape(message: list[Any]) -> tuple[int, list[str], str | None, list[str] | None]:
    opcode, payload = message
    args = payload.get("args")
    return opcode, sorted(payload), payload.get("cmd"), None if args is None else sorted(args)


# The choice buttons not wholly within the frame's width, measured in one go (a push may redraw them).
ON_SCREEN = """(choices) => [...choices.querySelectorAll("button")]
  .map((button) => button.getBoundingClientRect())
  .filter((box) => box.width === 0 || box.left < 0 || box.right > window.innerWidth)
  .map((box) => [box.left, box.right])"""


async def until(check: Callable[[], Awaitable[bool] | bool]) -> None:
    """Wait for the work until `check` holds (a look every tenth of a second; HANG calls it hung)."""

    async def watch() -> None:
        while True:
            seen = check()
            if await seen if isinstance(seen, Awaitable) else seen:
                return
            await asyncio.sleep(0.1)

    await asyncio.wait_for(watch(), HANG)


async def shoot(person: Person, folder: Path, name: str) -> None:
    """Save this stage as a screenshot and check it shows something: many shades, not one colour."""
    path = folder / f"{name}.png"
    await person.page.screenshot(path=path, full_page=True)
    with Image.open(path) as image:
        grey = image.convert("L")
        low, high = grey.getextrema()
        assert high - low > 150 and ImageStat.Stat(grey).stddev[0] > 10, f"{path} looks blank"


async def pair(
    fake: FakeDiscord, activity: ActivityBot, browser: Browser, size: dict[str, int] = DESK
) -> tuple[Person, Person]:
    """alice and bob in a new instance of the Activity in the channel, each with the Activity open."""
    instance = fake.start_activity(CHANNEL_ID, GUILD_ID, [ALICE, BOB])
    alice = await open_activity(browser, fake, activity, ALICE, instance, size=size)
    return alice, await open_activity(browser, fake, activity, BOB, instance, size=size)


async def signed_in(person: Person) -> None:
    await expect(person.frame.locator("#who")).to_have_text(f"Signed in as {person.who['username']}")


async def start(person: Person, rules: str, goal: int = GOAL, opponent: str = "") -> None:
    """`person` starts a game from the lobby: waits for a friend (no `opponent`), or plays the house."""
    frame = person.frame
    await frame.get_by_label("Rule set").select_option(rules)
    await frame.get_by_label("Opponent").select_option(opponent)
    await frame.get_by_label("Goal").fill(str(goal))
    await person.click("Start")


async def seated(alice: Person, bob: Person, rules: str) -> None:
    """alice waits at the table for a friend, bob takes the seat: the game is on for both."""
    await start(alice, rules)
    await expect(alice.frame.locator("#waiting-text")).to_contain_text("You are waiting for a friend")
    await expect(bob.frame.locator("#waiting-text")).to_contain_text("alice is waiting for a friend")
    await bob.click("Take the seat")
    for person, seat in ((alice, "You are alice, who moved first."), (bob, "You are bob.")):
        await expect(person.frame.locator("#seat")).to_have_text(seat)


async def mover(people: list[Person]) -> Person | None:
    """Whose choices are enabled now (None: nobody's: the game is over, or the house is to move)."""
    for person in people:
        controls = person.frame.locator("#controls")
        if await controls.is_visible() and await controls.locator("#choices button:enabled").count():
            return person
    return None


async def over(person: Person) -> bool:
    return await person.frame.locator("#end").is_visible()


async def move(people: list[Person], fake: FakeDiscord) -> int:
    """Whoever is to move rolls five dice; every page shows that turn (and the house's after it), and the
    channel's board the same turn. The number of turns played."""
    before = await people[0].turns()
    person = await mover(people)
    assert person is not None
    choices = person.frame.locator("#choices button")
    await choices.filter(has=person.frame.get_by_text(ROLL, exact=True)).click()

    async def settled() -> bool:
        turns = [await each.turns() for each in people]
        return min(turns) > before and len(set(turns)) == 1 and (await mover(people) or await over(people[0]))

    await until(settled)
    played = await people[0].turns()
    await until(lambda: at_turn(board_of(fake), played))
    return played


async def play_out(people: list[Person], fake: FakeDiscord) -> int:
    """Moves until the game ends (each as `move`); the number of turns played."""
    played = await people[0].turns()
    while not await over(people[0]):
        played = await move(people, fake)
    return played


async def ended(people: list[Person], fake: FakeDiscord, played: int) -> str:
    """Every page shows the same result and the seed; the board shows the winner at the same turn."""
    result = await people[0].frame.locator("#result").inner_text()
    for person in people:
        await expect(person.frame.locator("#result")).to_have_text(result)
        assert await person.frame.locator("#seed-shown").inner_text()
    winner = result.split(" wins")[0]
    await until(lambda: f"**{winner}** reached" in str(board_of(fake)))
    assert at_turn(board_of(fake), played)
    return result


async def closed(*people: Person) -> None:
    for person in people:
        assert person.errors == []
        await person.close()


@pytest.mark.parametrize("rules", RULES)
async def test_two_people_play_a_whole_game_and_the_board_shows_every_move(
    fake: FakeDiscord, activity: ActivityBot, browser: Browser, rules: str, tmp_path: Path
) -> None:
    alice, bob = await pair(fake, activity, browser)
    for person in (alice, bob):
        await signed_in(person)
    await seated(alice, bob, rules)
    await until(lambda: board_of(fake) is not None)
    await move([alice, bob], fake)
    await shoot(bob, tmp_path, f"playing-{rules}")
    played = await play_out([alice, bob], fake)
    result = await ended([alice, bob], fake, played)
    assert re.fullmatch(r"(alice|bob) wins, \d+ to \d+\.", result), result
    assert played >= 4
    log = await alice.frame.locator("#log").inner_text()
    assert "Player 0" not in log and "Player 1" not in log and "point(s)" not in log  # names, as the board
    await shoot(alice, tmp_path, f"over-{rules}")
    for person in (alice, bob):
        assert await person.protocol() == PROTOCOL
        assert [shape(message) for message in await person.messages()] == SDK_SHAPES
    await closed(alice, bob)


async def test_a_stranger_is_refused_and_a_third_person_watches(
    fake: FakeDiscord, activity: ActivityBot, browser: Browser
) -> None:
    instance = fake.start_activity(CHANNEL_ID, GUILD_ID, [ALICE, BOB, CAROL])
    dave = await open_activity(browser, fake, activity, DAVE, instance)  # Discord does not list him in it
    refusal = "You are not in this Activity: join it from its channel first."
    await expect(dave.frame.locator("#signing-in-text")).to_have_text(refusal)
    assert await dave.protocol() == ["HANDSHAKE", "AUTHORIZE"]  # never given a sign-in to authenticate
    dave.errors.clear()  # the browser's own line about the refused request (403)
    alice = await open_activity(browser, fake, activity, ALICE, instance)
    bob = await open_activity(browser, fake, activity, BOB, instance)
    carol = await open_activity(browser, fake, activity, CAROL, instance)
    await seated(alice, bob, "pig-fest")
    await expect(carol.frame.locator("#seat")).to_have_text("You are watching.")
    await expect(carol.frame.locator("#controls")).to_be_hidden()
    await expect(carol.frame.locator("#sit")).to_be_hidden()
    await move([alice, bob, carol], fake)
    await expect(carol.frame.locator("#participants li")).to_have_text(["alice", "bob", "carol"])
    await closed(alice, bob, carol, dave)


async def test_a_reload_takes_the_seat_back(
    fake: FakeDiscord, activity: ActivityBot, browser: Browser
) -> None:
    alice, bob = await pair(fake, activity, browser)
    await seated(alice, bob, "swine-align")
    await move([alice, bob], fake)
    await bob.page.reload()
    await signed_in(bob)
    await expect(bob.frame.locator("#seat")).to_have_text("You are bob.")
    await expect(bob.frame.locator("#log > li")).to_have_count(await alice.turns())
    played = await play_out([alice, bob], fake)
    await ended([alice, bob], fake, played)
    await alice.click("New game")  # the same two, another game at the same table
    await seated(alice, bob, "pig-fest")
    await expect(bob.frame.locator("#log > li")).to_have_count(0)
    await expect(bob.frame.locator("#game-title")).to_contain_text("Pig Fest")
    await closed(alice, bob)


@pytest.mark.parametrize("level", ["easy", "perfect"])
async def test_one_person_plays_the_house(
    fake: FakeDiscord, activity: ActivityBot, browser: Browser, level: str, tmp_path: Path
) -> None:
    instance = fake.start_activity(CHANNEL_ID, GUILD_ID, [ALICE])
    alice = await open_activity(browser, fake, activity, ALICE, instance)
    await signed_in(alice)
    await start(alice, "piggy-back", 100 if level == "perfect" else GOAL, level)
    await expect(alice.frame.locator("#seat")).to_have_text("You are alice, who moved first.")
    await expect(alice.frame.locator("#board .player h3").nth(1)).to_contain_text(f"Hog Bot ({level})")
    played = await play_out([alice], fake)
    assert played > await alice.frame.locator("#log h3", has_text="· alice:").count()  # the house moved too
    await ended([alice], fake, played)
    await shoot(alice, tmp_path, f"house-{level}")
    await alice.click("Rematch")  # the house wants one too: it starts at once, seats swapped
    await expect(alice.frame.locator("#seat")).to_have_text("You are alice.")
    await expect(alice.frame.locator("#board .player h3").nth(0)).to_contain_text(f"Hog Bot ({level})")
    await until(lambda: mover([alice]))  # the house moved first, and it is alice's turn
    await closed(alice)


async def test_the_bot_killed_mid_game_comes_back_and_the_game_goes_on(
    fake: FakeDiscord, activity: ActivityBot, browser: Browser
) -> None:
    alice, bob = await pair(fake, activity, browser)
    await seated(alice, bob, "pork-chop")
    await move([alice, bob], fake)
    played = await move([alice, bob], fake)
    await activity.kill()
    for person in (alice, bob):
        await expect(person.frame.locator("#connection")).to_contain_text("Reconnecting")
    await activity.start()
    for person in (alice, bob):
        await expect(person.frame.locator("#connection")).to_be_hidden()
        await expect(person.frame.locator("#log > li")).to_have_count(played)
    played = await play_out([alice, bob], fake)
    await ended([alice, bob], fake, played)
    for person in (alice, bob):  # the connection refused while the bot was down, as the browser says it
        person.errors[:] = [error for error in person.errors if "ERR_CONNECTION_REFUSED" not in error]
    await closed(alice, bob)


async def test_on_a_phone_sized_frame_everything_fits(
    fake: FakeDiscord, activity: ActivityBot, browser: Browser, tmp_path: Path
) -> None:
    alice, bob = await pair(fake, activity, browser, PHONE)
    await signed_in(alice)
    await shoot(alice, tmp_path, "phone-lobby")
    await seated(alice, bob, "pork-chop")
    await move([alice, bob], fake)
    for person in (alice, bob):
        assert await person.frame.locator("html").evaluate(
            "(html) => html.scrollWidth <= window.innerWidth"
        )  # no sideways scroll
        outside = await person.frame.locator("#choices").evaluate(ON_SCREEN)  # at once: pushes redraw
        assert outside == []
    await shoot(bob, tmp_path, "phone-game")
    await bob.click("Give up")  # once: it asks again, nothing is given up yet
    await expect(bob.frame.locator("#forfeit")).to_have_text("Press again to give up")
    await bob.click("Press again to give up")
    for person in (alice, bob):
        await expect(person.frame.locator("#result")).to_have_text("bob gave up: alice wins.")
    await until(lambda: "**bob** gave up: **alice** wins" in str(board_of(fake)))
    await closed(alice, bob)


async def test_a_page_whose_socket_never_opens_follows_the_game_by_asking(
    fake: FakeDiscord, activity: ActivityBot, browser: Browser
) -> None:
    """A proxy in the way of WebSockets: bob's page is refused its socket every time, and still sees each
    move (asking for the table every few seconds) and plays its own."""
    alice, bob = await pair(fake, activity, browser)
    refused: list[str] = []

    async def refuse(socket: WebSocketRoute) -> None:
        refused.append(socket.url)
        await socket.close(code=1006)

    await bob.context.route_web_socket(re.compile(r"/api/live$"), refuse)
    await bob.page.reload()
    await signed_in(bob)
    await seated(alice, bob, "piggy-back")
    for _ in range(3):
        await move([alice, bob], fake)
    await expect(bob.frame.locator("#connection")).to_contain_text("Reconnecting")
    assert refused and await bob.frame.locator("#log > li").count() == 3
    await closed(alice, bob)
