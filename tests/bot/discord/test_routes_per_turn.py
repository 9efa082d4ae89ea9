"""What a turn costs Discord's global rate limit, counted over the real bot process and the fake Discord's log
of every route: a two-person game, a game against the house and the clock's pings go through the presses'
own interactions (free of the limit) while their tokens work; a ping whose press's token Discord no longer
takes falls back to the channel's routes, and the bot counts what that cost."""

from pathlib import Path
from typing import Any

from tests.bot.discord.conftest import Launch
from tests.bot.discord.fake_discord import APP_ID, CHANNEL_ID, FakeDiscord, Request
from tests.bot.discord.over_sockets import (
    ALICE,
    BOB,
    LONG_GOAL,
    ROLL,
    accepted_challenge,
    answered,
    command,
    posts,
    press,
    settled,
    to_move,
)
from tests.hang import HANG

BOUND = "call(s) bound by Discord's global limit"  # the bot's count of what it spent, logged at its stop


def calls(fake: FakeDiscord, since: int) -> list[tuple[str, str]]:
    """The bot's calls bound by the global limit since request number `since`: method and route."""
    return [(r.method, r.path) for r in fake.requests[since:] if r.global_limited]


def counted(bot_messages: list[str], fake: FakeDiscord) -> None:
    """The bot's own count of its calls bound by the global limit, logged as it stops, is the fake's."""
    made = len([request for request in fake.requests if request.global_limited])
    (logged,) = [message for message in bot_messages if BOUND in message]
    assert logged.startswith(f"since the last report: {made} {BOUND} (")


def says(start: str) -> Any:
    """A request that posts a new message whose text starts so."""
    return lambda r: posts(r) and (r.body.get("content") or "").startswith(start)


def follow_up_of(token: str) -> Any:
    return lambda r: posts(r) and r.path == f"/webhooks/{APP_ID}/{token}"


async def play_counting_turns(fake: FakeDiscord, board: str, notices: bool) -> int:
    """Play the game on `board` to its end, each move six dice, waiting after each press for everything it
    makes the bot do (the answer, and with `notices` the other person's notice as a follow-up of the
    press); the number of turns the board showed."""
    turns = 0
    while (person := to_move(fake.messages[board])) is not None:
        token = await press(fake, person, board, ROLL)
        await fake.until(lambda r, token=token: r.method == "PATCH" and answered(token)(r))
        await fake.until(lambda _: settled(fake.messages[board]))
        if notices:
            await fake.until(follow_up_of(token))  # the other's turn, or their loss
        turns += 1
    return turns


async def test_a_two_person_game_costs_the_global_limit_nothing(
    fake: FakeDiscord, launch: Launch, tmp_path: Path
) -> None:
    bot = await launch(tmp_path)
    board = await accepted_challenge(fake)
    await fake.until(says(f"<@{ALICE['id']}>, it's your move"))
    since = len(fake.requests)

    turns = await play_counting_turns(fake, board, notices=True)

    assert await bot.terminate() == 0 and not bot.troubles()
    assert turns >= 2 and calls(fake, since) == []  # 0.0 a turn (2.0 when notices went by the channel)
    counted(bot.messages(), fake)  # the start's: syncing the commands, reading the gateway's address
    deleted = [r for r in fake.requests[since:] if r.method == "DELETE"]
    assert len(deleted) == turns and all(r.path.startswith(f"/webhooks/{APP_ID}/") for r in deleted)


async def test_a_game_against_the_house_costs_the_global_limit_nothing(
    fake: FakeDiscord, launch: Launch, tmp_path: Path
) -> None:
    bot = await launch(tmp_path)
    # Six dice cannot reach LONG_GOAL in one turn: the house moves at least once, whatever the dice.
    token, _ = await command(fake, ALICE, "vs-bot", [{"name": "goal", "type": 4, "value": LONG_GOAL}])
    board = fake.original(token)
    await fake.until(lambda _: settled(fake.messages[board]))
    since = len(fake.requests)

    turns = await play_counting_turns(fake, board, notices=False)

    assert await bot.terminate() == 0 and not bot.troubles()
    assert turns >= 1 and calls(fake, since) == []  # the house's moves edited in through alice's presses
    counted(bot.messages(), fake)
    house = [r for r in fake.requests[since:] if r.method == "PATCH" and r.path.endswith("/@original")]
    assert len(house) > turns  # her own turns' answers, and the house's moves through the same tokens


async def clock_pings(
    fake: FakeDiscord, launch: Launch, tmp_path: Path, expire: bool
) -> tuple[list[Request], str]:
    """alice lets her first turn run out (a 12 s clock): the clock tells her it is running out, then tells bob
    he won. With `expire`, Discord no longer takes bob's press on Accept, the last on the board, by then.
    The calls made meanwhile bound by the global limit, and the board; the bot's count of them checked."""
    bot = await launch(tmp_path, HOG_TURN_TIMEOUT_SECONDS="12")
    board = await accepted_challenge(fake, goal=LONG_GOAL)
    turn = await fake.until(says(f"<@{ALICE['id']}>, it's your move"))
    accepted = turn.path.split("/")[3]  # the notice: a follow-up of bob's press on Accept
    if expire:
        fake.expire(accepted)
    since = len(fake.requests)

    await fake.until(says(f"⏳ <@{ALICE['id']}>, your move against **bob** runs out <t:"), timeout=HANG)
    await fake.until(says(f"⏰ <@{BOB['id']}>, **alice** ran out of time: you win"), timeout=HANG)
    await fake.until(lambda _: len([m for m in fake.messages.values() if "⏳" in m["content"]]) == 0)

    assert await bot.terminate() == 0 and not bot.troubles()
    spent = [r for r in fake.requests[since:] if r.global_limited]
    counted(bot.messages(), fake)
    return spent, board


async def test_the_clocks_pings_go_through_the_last_press_while_its_token_works(
    fake: FakeDiscord, launch: Launch, tmp_path: Path
) -> None:
    spent, _ = await clock_pings(fake, launch, tmp_path, expire=False)
    assert spent == []


async def test_a_ping_whose_press_token_expired_goes_by_the_channel_and_is_counted(
    fake: FakeDiscord, launch: Launch, tmp_path: Path
) -> None:
    spent, shown = await clock_pings(fake, launch, tmp_path, expire=True)

    # By the channel: the running-out ping posted (with a nonce Discord enforces) and the turn notice it
    # replaces deleted, the board's ending edited in, bob told, the ping deleted: 5 calls, each counted.
    hurry, turn_notice, board, end, hurry_gone = spent
    channel = f"/channels/{CHANNEL_ID}/messages"
    assert [(r.method, r.path) for r in (hurry, end)] == [("POST", channel)] * 2
    assert (hurry.body["nonce"], end.body["nonce"]) == ("hog1-1-0", "hog1-2-0")
    assert hurry.body["allowed_mentions"] == {"users": [int(ALICE["id"])], "parse": []}
    assert end.body["allowed_mentions"] == {"users": [int(BOB["id"])], "parse": []}
    assert turn_notice.method == hurry_gone.method == "DELETE" and turn_notice.path != hurry_gone.path
    assert board.method == "PATCH" and "ran out of time" in board.body["embeds"][0]["description"]
    assert board.path == f"{channel}/{shown}"
