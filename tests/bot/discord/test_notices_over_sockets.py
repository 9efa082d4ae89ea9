"""The real bot process over real sockets: turn notices are new messages that may notify only the person to
move, one per game; a turn running out and the game's end are announced once, across a crash and a restart;
and a house move Discord would neither edit in nor post again is redrawn by the bot's clock, the person's
turn clock starting only then, so the game is played to its end and not lost on time."""

import asyncio
import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.bot.discord.conftest import Launch
from tests.bot.discord.fake_discord import APP_ID, CHANNEL_ID, GUILD_ID, FakeDiscord, Request
from tests.bot.discord.over_sockets import (
    ALICE,
    BOB,
    GOAL,
    LONG_GOAL,
    ROLL,
    accepted_challenge,
    answered,
    command,
    play_to_the_end,
    posts,
    press,
    to_move,
)
from tests.bot.discord.test_kill_and_restart import finished
from tests.hang import HANG

POSTED = f"/channels/{CHANNEL_ID}/messages"


def notices(fake: FakeDiscord) -> list[dict[str, Any]]:
    """The turn notices in the channel now."""
    return [message for message in fake.messages.values() if "it's your move against" in message["content"]]


def notice_to(person: dict[str, Any], token: str) -> Callable[[Request], bool]:
    """A request that posts a turn notice to this person as a follow-up of the press with this token."""
    mention = f"<@{person['id']}>, it's your move"
    return lambda r: posts(r) and answered(token)(r) and r.body["content"].startswith(mention)


async def test_turn_notices_notify_only_the_person_to_move(
    fake: FakeDiscord, launch: Launch, tmp_path: Path
) -> None:
    bot = await launch(tmp_path)
    board = await accepted_challenge(fake)
    accepted = fake.requests[-1].path.split("/")[3]  # bob's press on Accept, answered through its webhook

    told = await fake.until(notice_to(ALICE, accepted))  # a follow-up of the press that passed the turn
    link = f"https://discord.com/channels/{GUILD_ID}/{CHANNEL_ID}/{board}"
    assert told.body["content"] == f"<@{ALICE['id']}>, it's your move against **bob**: {link}"
    assert told.body["allowed_mentions"] == {"parse": [], "users": [int(ALICE["id"])]}
    assert fake.messages[board]["allowed_mentions"] == {"parse": []}  # the board notifies nobody
    (alices,) = notices(fake)

    token = await press(fake, ALICE, board, "Free Bacon")  # 6-0: bob's turn
    await fake.until(lambda r: r.method == "PATCH" and answered(token)(r))
    await fake.until(notice_to(BOB, token))
    gone = f"/webhooks/{APP_ID}/{accepted}/messages/{alices['id']}"  # through the token it was posted with
    await fake.until(lambda r: r.method == "DELETE" and r.path == gone)

    (bobs,) = notices(fake)
    assert bobs["content"].startswith(f"<@{BOB['id']}>, it's your move against **alice**: ")
    assert await bot.terminate() == 0 and not bot.troubles()
    assert fake.unknown == []
    assert [r for r in fake.requests if r.global_limited and r.method in ("POST", "DELETE")] == []


def refused_posts(fake: FakeDiscord) -> int:
    return sum(request.method == "POST" and request.path == POSTED for request in fake.requests)


async def test_a_house_move_discord_would_not_show_is_redrawn_and_the_game_finished(
    fake: FakeDiscord, launch: Launch, tmp_path: Path
) -> None:
    # A turn lasts 12 s; the board is redrawn about 16 s after the house bot moved (two tries of its clock,
    # 5 s then 10 s apart): a clock started when the move was stored would have ended the game.
    # Answered by the channel, as when alice's press's token is no longer taken.
    bot = await launch(tmp_path, HOG_TURN_TIMEOUT_SECONDS="12", HOG_ANSWER_THROUGH_PRESSES="false")
    token, _ = await command(fake, ALICE, "vs-bot", [{"name": "goal", "type": 4, "value": GOAL}])
    board = fake.original(token)
    fake.fail("PATCH", f"{POSTED}/*")  # Discord's 5xx to every edit of the board...
    fake.fail("POST", POSTED)  # ...and to every new message

    pressed = await press(fake, ALICE, board, ROLL)
    await fake.until(lambda r: r.method == "PATCH" and answered(pressed)(r))  # alice's own turn shows
    await fake.until(lambda _: refused_posts(fake) >= 2, timeout=HANG)  # the house move's, then the clock's

    assert to_move(fake.messages[board]) is None  # alice still sees the house bot "thinking"
    fake.heal()
    await fake.until(lambda _: to_move(fake.messages[board]) == ALICE, timeout=HANG)
    await play_to_the_end(fake, board)
    await finished(bot, tmp_path)


def starts(request: Request, start: str) -> bool:
    """Whether the request posts a new message (in the channel, or a follow-up) whose text starts so."""
    body = request.body if isinstance(request.body, dict) else {}
    return posts(request) and (body.get("content") or "").startswith(start)


def posted(fake: FakeDiscord, start: str) -> list[Request]:
    """The bot's posts of a new message whose text starts so."""
    return [request for request in fake.requests if starts(request, start)]


def read_channel(fake: FakeDiscord) -> list[Request]:
    """The bot's reads of the channel's latest messages."""
    return [request for request in fake.requests if request.method == "GET" and request.path == POSTED]


async def test_time_running_out_and_the_end_are_announced_once_across_a_crash_and_a_restart(
    fake: FakeDiscord, launch: Launch, tmp_path: Path
) -> None:
    hurry = f"⏳ <@{ALICE['id']}>, your move against **bob** runs out <t:"
    end = f"⏰ <@{BOB['id']}>, **alice** ran out of time: you win, 0\u20130: "
    held = fake.hold(lambda r: starts(r, end))
    bot = await launch(tmp_path, HOG_TURN_TIMEOUT_SECONDS="12")  # told at 2.4 s left: a fifth of the clock
    board = await accepted_challenge(fake, goal=LONG_GOAL)
    as_it_was = copy.deepcopy(fake.messages[board])  # alice's turn, as a client that never updated shows it

    warned = await fake.until(lambda r: starts(r, hurry))
    assert warned.body["content"].endswith(f"/{CHANNEL_ID}/{board}")
    assert warned.body["allowed_mentions"] == {"parse": [], "users": [int(ALICE["id"])]}
    await asyncio.wait_for(held, HANG)  # alice's clock ran out: bob's notice is on its way...
    await bot.kill()  # ...when the bot dies, before it could record it
    fake.release()  # Discord posts it all the same

    # A follow-up of bob's press (its token still good) takes no nonce for Discord to enforce: the new
    # process shows the ended game, and before telling bob again looks in the channel for what was posted.
    looked = len([r for r in fake.requests if r.method == "GET" and r.path == POSTED])
    bot = await launch(tmp_path)
    await fake.until(
        lambda _: len([r for r in fake.requests if r.method == "GET" and r.path == POSTED]) > looked
    )
    assert await bot.terminate() == 0
    (told,) = [message for message in fake.messages.values() if message["content"].startswith(end)]
    (sent,) = posted(fake, end)  # told once
    assert sent.body["allowed_mentions"] == {"parse": [], "users": [int(BOB["id"])]}

    bot = await launch(tmp_path)
    fake.messages[board] = as_it_was
    token = await press(fake, ALICE, board, ROLL)  # a late press on the old board...
    await fake.until(lambda r: r.method == "PATCH" and answered(token)(r))  # ...draws the board as it is
    assert await bot.terminate() == 0 and not bot.troubles()
    assert len(posted(fake, hurry)) == 1 and len(posted(fake, end)) == 1  # nothing announced again
    assert [m for m in fake.messages.values() if "https://discord.com/channels/" in m["content"]] == [told]
    assert fake.unknown == []
