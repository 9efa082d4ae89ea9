"""kill -9 at the worst moment, over real sockets: the real bot process dies after a change is stored and
before its message shows it (a turn, an accepted challenge, a house-bot move: the fake Discord holds that
edit unanswered), a new process starts on the same database, and the game is played to its end from the
message the players already see, long before any clock could have closed it."""

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

from tests.bot.discord.conftest import Launch
from tests.bot.discord.fake_discord import APP_ID, FakeDiscord, Request
from tests.bot.discord.over_sockets import (
    ALICE,
    BOB,
    LONG_GOAL,
    ROLL,
    BotProcess,
    accepted_challenge,
    challenge,
    command,
    play_to_the_end,
    press,
    to_move,
)
from tests.hang import HANG


def stored(data: Path) -> dict[str, Any]:
    """The one match as the database holds it (read while no bot runs)."""
    with sqlite3.connect(data / "hog.sqlite3") as db:
        db.row_factory = sqlite3.Row
        (row,) = db.execute("SELECT *, (SELECT COUNT(*) FROM turns) AS turns FROM matches").fetchall()
    return dict(row)


def answer_to_a_press(request: Request) -> bool:
    return request.method == "PATCH" and request.path.startswith(f"/webhooks/{APP_ID}/")


async def finished(bot: BotProcess, data: Path) -> dict[str, Any]:
    assert await bot.terminate() == 0, bot.stderr
    match = stored(data)
    assert (match["status"], match["turns"]) == ("finished", match["turn"])  # not lost on time
    return match


async def test_a_turn_stored_but_not_shown(fake: FakeDiscord, launch: Launch, tmp_path: Path) -> None:
    bot = await launch(tmp_path)
    board = await accepted_challenge(fake, goal=LONG_GOAL)  # alice's roll cannot end it: bob moves next
    held = fake.hold(answer_to_a_press)
    await press(fake, ALICE, board, ROLL)
    await asyncio.wait_for(held, HANG)  # the turn is stored; its board's edit is in flight

    await bot.kill()
    match = stored(tmp_path)
    assert match["turn"] == 1 and match["shown_version"] < match["version"]
    assert to_move(fake.messages[board]) == ALICE  # what both players still see
    bot = await launch(tmp_path)

    await fake.until(lambda _: to_move(fake.messages[board]) == BOB)  # redrawn as it starts
    await play_to_the_end(fake, board)
    await finished(bot, tmp_path)


async def test_a_challenge_accepted_but_not_shown(fake: FakeDiscord, launch: Launch, tmp_path: Path) -> None:
    bot = await launch(tmp_path)
    board = await challenge(fake)
    held = fake.hold(answer_to_a_press)
    await press(fake, BOB, board, "Accept")
    await asyncio.wait_for(held, HANG)

    await bot.kill()
    match = stored(tmp_path)
    assert match["status"] == "active" and match["shown_version"] < match["version"]
    assert fake.messages[board]["content"] == f"<@{BOB['id']}>, you are challenged!"
    bot = await launch(tmp_path)

    await fake.until(lambda _: to_move(fake.messages[board]) == ALICE)
    await play_to_the_end(fake, board)
    await finished(bot, tmp_path)


async def test_a_house_bot_move_stored_but_not_shown(
    fake: FakeDiscord, launch: Launch, tmp_path: Path
) -> None:
    # The house bot waits a second before it moves, so alice's own turn is shown before its move is made.
    bot = await launch(tmp_path, HOG_BOT_MOVE_DELAY_SECONDS="1")
    token, _ = await command(fake, ALICE, "vs-bot", [{"name": "goal", "type": 4, "value": LONG_GOAL}])
    board = fake.original(token)
    # The house bot's move is shown by editing the board through her press, naming her to move again (her
    # own turn shows first, in the press's answer or an edit through it, whichever the bot chose).
    yours = f"<@{ALICE['id']}>, your move."
    held = fake.hold(
        lambda r: answer_to_a_press(r) and isinstance(r.body, dict) and r.body.get("content") == yours
    )
    await press(fake, ALICE, board, ROLL)
    await asyncio.wait_for(held, HANG)

    await bot.kill()
    match = stored(tmp_path)
    assert match["turn"] >= 2 and match["shown_version"] < match["version"]  # the house bot moved
    assert to_move(fake.messages[board]) is None  # what alice still sees: the house bot "thinking"
    bot = await launch(tmp_path)

    await fake.until(lambda _: to_move(fake.messages[board]) == ALICE)
    await play_to_the_end(fake, board)
    await finished(bot, tmp_path)
