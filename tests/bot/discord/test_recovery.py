"""Nothing stays stuck when Discord, the network or the database fails for a moment: the house bot still
moves, the clock still closes and shows every game, and a stale board is redrawn when pressed."""

import logging
import sqlite3
from collections.abc import Awaitable, Callable

import pytest

from bot.config import Settings
from bot.services import MatchStatus, Played
from bot.services.games.follow_up import MOVE_ATTEMPTS as BOT_MOVE_ATTEMPTS
from bot.services.games.follow_up import RETRY_SECONDS as BOT_RETRY_SECONDS
from tests.bot.discord.conftest import TURN_TIMEOUT
from tests.bot.discord.harness import Network, World, labels, last_turn, said, text, turn_of

BOT_PAUSE = 60.0
BotTurn = Callable[[int], Awaitable[Played | None]]


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return settings.model_copy(update={"bot_move_delay_seconds": BOT_PAUSE})


def failing_first(world: World, monkeypatch: pytest.MonkeyPatch, failures: int) -> list[int]:
    """Make the house bot's first `failures` turns fail as a busy database does; the calls made."""
    real: BotTurn = world.service.bot_turn
    calls: list[int] = []

    async def flaky(match_id: int) -> Played | None:
        calls.append(match_id)
        if len(calls) <= failures:
            raise sqlite3.OperationalError("database is locked")
        return await real(match_id)

    monkeypatch.setattr(world.service, "bot_turn", flaky)
    return calls


async def test_the_bot_moves_though_the_board_and_its_first_try_fail(
    world: World, network: Network, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = await world.vs_bot()
    board = await world.board(match.id)
    calls = failing_first(world, monkeypatch, failures=1)
    for method, path in [
        ("PATCH", "/webhooks/*/messages/@original"),  # answering the press
        ("PATCH", "/channels/*/messages/*"),  # editing the board
        ("POST", "/channels/*/messages"),  # posting it again
        ("POST", "/webhooks/*"),  # ... or as a follow-up of her press
    ]:
        network.cut(method, path)

    pressed = await world.alice.click(board, label="Roll 2")
    assert pressed.acknowledged and not pressed.followups  # no apology: the turn was played
    await world.advance(BOT_PAUSE + BOT_RETRY_SECONDS + 1)

    moved = await world.board(match.id)
    assert len(calls) == 2
    assert turn_of(last_turn(moved)) == ("Hog Bot (easy)", 4)
    assert moved.content == f"{world.alice.mention}, your move."
    assert "Roll 10" in labels(moved)


async def test_the_clock_starts_the_bot_over_once_its_tries_ran_out(
    world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    match = await world.vs_bot()
    calls = failing_first(world, monkeypatch, failures=BOT_MOVE_ATTEMPTS)
    await world.alice.click(await world.board(match.id), label="Roll 2")

    retries = sum(BOT_RETRY_SECONDS * attempt for attempt in range(1, BOT_MOVE_ATTEMPTS))
    await world.advance(BOT_PAUSE + retries + 1)
    assert len(calls) == BOT_MOVE_ATTEMPTS and (await world.match(match.id)).is_bot_turn
    (gave_up,) = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert gave_up == "the house bot could not move; the clock will start it over"
    caplog.clear()

    tick = world.bot.clock.seconds
    assert tick is not None
    await world.advance(tick + BOT_PAUSE + 1)  # no restart needed

    moved = await world.board(match.id)
    assert turn_of(last_turn(moved)) == ("Hog Bot (easy)", 4)
    assert moved.content == f"{world.alice.mention}, your move."


async def test_a_board_that_cannot_be_shown_does_not_hold_up_the_others(
    world: World, network: Network
) -> None:
    first = await world.challenge()
    accepted = next(r.path for r in reversed(world.env.http_requests) if r.path.startswith("/webhooks/"))
    accepted = accepted.split("/")[3]  # the token of bob's press on Accept, which the board answers
    await world.mod.slash(world.channel, "hog challenge", opponent=world.carol)
    challenge = world.channel.last_message
    assert challenge is not None
    await world.carol.click(challenge, label="Accept")
    second = await world.service.open_match_in_channel(world.channel.id, world.carol.id)
    assert second is not None and second.id > first.id  # the clock closes games in this order
    stuck = await world.board(first.id)
    network.cut("PATCH", f"/channels/*/messages/{stuck.id}", times=1000)  # the clock's redraws too
    network.cut("POST", "/channels/*/messages", times=1000)
    network.cut("PATCH", f"/webhooks/*/{accepted}/messages/@original", times=1000)  # nor through his press
    network.cut("POST", f"/webhooks/*/{accepted}", times=1000)

    await world.advance(TURN_TIMEOUT + TURN_TIMEOUT / 10)  # both players to move time out

    assert (await world.match(first.id)).status is MatchStatus.TIMEOUT
    assert "Roll 3" in labels(world.message(stuck.id))  # its redraw failed...
    shown = await world.board(second.id)
    assert "**mod** ran out of time: **carol** wins" in text(shown)  # ...not this one's
    assert labels(shown) == ["Rematch", "Verify dice"]

    pressed = await world.alice.click(world.message(stuck.id), label="Roll 3")

    assert said(pressed) == "This game is over. The board now shows the game as it is."
    redrawn = world.message(stuck.id)
    assert "**alice** ran out of time: **bob** wins" in text(redrawn)
    assert labels(redrawn) == ["Rematch", "Verify dice"]
