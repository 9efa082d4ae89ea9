"""Opening the Activity from Discord, with `python -m bot` against the fake Discord: a live game's board
carries a button that launches it (interaction callback 12) on that very game, `/hog play` launches it in
the channel, a global sync keeps the Activity's Entry Point command (Discord refuses one that drops it:
50240), and a bot that does not serve the Activity offers neither button nor command."""

import json
import socket
from pathlib import Path

import aiohttp
from playwright.async_api import Browser, expect

from bot.discord.launch import LABEL
from tests.bot.activity.conftest import ActivityBot, at_turn, board_of, open_activity, serving
from tests.bot.activity.test_playing import move
from tests.bot.discord.fake_discord import APP_ID, ENTRY_POINT, GUILD_ID, RUN_BOT_AGAINST, FakeDiscord
from tests.bot.discord.over_sockets import ALICE, BOB, BotProcess, command, press, spawn_bot

VS_BOT = [{"name": "goal", "type": 4, "value": 60}]


def labels(message: dict[str, object]) -> list[str]:
    rows = message["components"]
    assert isinstance(rows, list)
    return [item.get("label") for row in rows for item in row["components"]]


def callbacks(fake: FakeDiscord, token: str) -> list[int]:
    """The types of the bot's answers to this interaction."""
    return [r.body["type"] for r in fake.requests if r.path.startswith("/interactions/") and token in r.path]


async def test_a_boards_button_opens_the_activity_on_its_game(
    fake: FakeDiscord, activity: ActivityBot, browser: Browser
) -> None:
    token, _ = await command(fake, ALICE, "vs-bot", VS_BOT)
    board = fake.original(token)
    assert LABEL in labels(fake.messages[board])
    rows = fake.messages[board]["components"]
    assert isinstance(rows, list) and len(rows) <= 3  # a live board keeps three rows of buttons on a phone
    pressed = await press(fake, ALICE, board, LABEL)
    assert callbacks(fake, pressed) == [12]  # LAUNCH_ACTIVITY, and nothing else
    (instance,) = fake.instances
    assert fake.instances[instance]["users"] == [ALICE["id"]]
    alice = await open_activity(browser, fake, activity, ALICE, instance)
    await expect(alice.frame.locator("#seat")).to_have_text("You are alice, who moved first.")
    await expect(alice.frame.locator("#board .player h3").nth(1)).to_contain_text("Hog Bot (easy)")
    played = await move([alice], fake)
    assert board_of(fake) == fake.messages[board]  # the very board of the command, edited
    assert at_turn(fake.messages[board], played)
    watched = await press(fake, BOB, board, LABEL)  # bob joins the instance running in the channel
    assert callbacks(fake, watched) == [12] and list(fake.instances) == [instance]
    bob = await open_activity(browser, fake, activity, BOB, instance)
    await expect(bob.frame.locator("#seat")).to_have_text("You are watching.")
    await expect(bob.frame.locator("#log > li")).to_have_count(played)
    for person in (alice, bob):
        assert person.errors == []
        await person.close()


async def test_hog_play_opens_the_activity_in_the_channel(
    fake: FakeDiscord, activity: ActivityBot, browser: Browser
) -> None:
    _, answer = await command(fake, ALICE, "play", [])
    assert answer.body["type"] == 12
    (instance,) = fake.instances
    alice = await open_activity(browser, fake, activity, ALICE, instance)
    await expect(alice.frame.locator("#lobby-title")).to_have_text("A new game")
    assert alice.errors == []
    await alice.close()


async def test_a_global_sync_keeps_the_entry_point(fake: FakeDiscord, tmp_path: Path, solved: Path) -> None:
    (entry,) = fake.commands["global"]
    code = RUN_BOT_AGAINST.replace("main([])", "main(['--sync-global'])")
    bot = ActivityBot(fake, tmp_path, solved, serving=False, code=code)
    await bot.start()
    put = await fake.until(lambda r: r.method == "PUT" and r.path == f"/applications/{APP_ID}/commands")
    assert [(command["type"], command["name"]) for command in put.body] == [(1, "hog"), (4, "launch")]
    assert put.body[1]["id"] == entry["id"] and put.body[1]["handler"] == ENTRY_POINT["handler"]
    assert {command["name"] for command in fake.commands["global"]} == {"hog", "launch"}
    await bot.process.logged("kept the Entry Point command 'launch'")  # type: ignore[union-attr]
    await bot.process.logged("synced 1 command(s) globally")  # type: ignore[union-attr]
    assert await bot.process.terminate() == 0  # type: ignore[union-attr]


async def test_the_fake_refuses_a_global_overwrite_that_drops_the_entry_point(fake: FakeDiscord) -> None:
    """As Discord does: the rule the sync above keeps to is the fake's too, so that test can fail."""
    url = f"{fake.url}/api/v10/applications/{APP_ID}/commands"
    hog = {"name": "hog", "description": "Hog", "type": 1}
    async with aiohttp.ClientSession() as session, session.put(url, json=[hog]) as answer:
        assert answer.status == 400
        assert (await answer.json())["code"] == 50240
    assert [command["name"] for command in fake.commands["global"]] == ["launch"]


async def test_a_bot_that_does_not_serve_the_activity_offers_no_way_into_it(
    fake: FakeDiscord, tmp_path: Path, solved: Path
) -> None:
    bot = ActivityBot(fake, tmp_path, solved, serving=False)
    await bot.start()
    (hog,) = fake.commands[str(GUILD_ID)]
    assert "play" not in [option["name"] for option in hog["options"]]
    token, _ = await command(fake, ALICE, "vs-bot", VS_BOT)
    assert LABEL not in json.dumps(fake.messages[fake.original(token)])
    assert not any("Activity" in message for message in bot.process.messages())  # type: ignore[union-attr]
    assert await bot.process.terminate() == 0  # type: ignore[union-attr]


async def test_a_bot_serving_the_activity_syncs_hog_play(fake: FakeDiscord, activity: ActivityBot) -> None:
    (hog,) = fake.commands[str(GUILD_ID)]
    play = next(option for option in hog["options"] if option["name"] == "play")
    assert play["type"] == 1 and "Activity" in play["description"]


async def test_an_activity_port_already_taken_stops_the_bot_saying_so(
    fake: FakeDiscord, tmp_path: Path, solved: Path
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        bot = BotProcess(
            await spawn_bot(fake.url, tmp_path, HOG_SOLVER_CACHE_PATH=str(solved), **serving(fake, port))
        )
        assert await bot.ended() == 2
    said = "".join(line for line in bot.stderr if not line.startswith("{"))
    assert f"hogbot cannot start: the Activity cannot listen on 127.0.0.1:{port}" in said, said
    assert "Traceback" not in "".join(bot.stderr)
