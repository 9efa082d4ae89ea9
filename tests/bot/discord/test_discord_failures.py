"""When Discord misbehaves the game is never lost: the board is posted again, failures are logged, and
a user only ever sees a domain message or a short apology."""

import logging
import sqlite3

import pytest

from bot.config import Settings
from bot.discord.errors import APOLOGY
from bot.services import Match, MatchStatus
from tests.bot.discord.harness import World, labels, last_turn, said, text, turn_of

BOT_PAUSE = 60.0
HOURS = 3 * 3600.0
CALLED_OFF = "I could not post the game in this channel, so it was called off. Please try again."


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return settings.model_copy(
        update={
            "bot_move_delay_seconds": BOT_PAUSE,
            "turn_timeout_seconds": HOURS,
            "challenge_timeout_seconds": HOURS,
        }
    )


async def bot_to_move(world: World) -> Match:
    """A game against the bot where alice just moved and the bot is pausing before its turn."""
    match = await world.vs_bot()
    await world.alice.click(await world.board(match.id), label="Roll 2")
    return match


async def test_a_deleted_board_is_posted_again(world: World) -> None:
    match = await bot_to_move(world)
    deleted = await world.board(match.id)
    await world.mod.delete(deleted)

    await world.advance(BOT_PAUSE + 1)

    board = await world.board(match.id)
    assert board.id != deleted.id
    assert board.content == f"{world.alice.mention}, your move."
    await world.alice.click(board, label="Roll 5")  # and play goes on from the new board
    assert turn_of(last_turn(world.message(board.id))) == ("alice", 5)


@pytest.mark.parametrize("status", [429, 500])
async def test_a_throttled_or_failing_edit_posts_a_fresh_board(world: World, status: int) -> None:
    match = await bot_to_move(world)
    stale = await world.board(match.id)
    # The house's move is edited in through alice's press, as her own move was.
    world.env.inject_error("PATCH", "/webhooks/*/*/messages/@original", status=status)

    await world.advance(BOT_PAUSE + 1)

    board = await world.board(match.id)
    assert board.id != stale.id and board.content == f"{world.alice.mention}, your move."


async def test_forbidden_everywhere_is_logged_and_the_game_is_kept(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    match = await bot_to_move(world)
    for routes in ("/channels/*/messages*", "/webhooks/*"):  # the channel's, and alice's press's own
        world.env.inject_error("*", routes, status=403, code=50013, times=None)

    await world.advance(BOT_PAUSE + 1)

    assert (await world.match(match.id)).state.turn == 2  # the bot's turn is played and stored
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any(w.startswith("could not post the board") for w in warnings)


async def test_a_failed_answer_to_a_press_is_replaced_by_an_edit(world: World) -> None:
    match = await world.challenge()
    board = await world.board(match.id)
    world.env.inject_error("PATCH", "/webhooks/*/*/messages/@original", status=500)

    await world.alice.click(board, label="Roll 3")

    assert world.message(board.id).content == f"{world.bob.mention}, your move."


async def test_an_old_board_moves_to_a_fresh_message(world: World) -> None:
    match = await world.challenge()
    old = await world.board(match.id)
    await world.advance(46 * 60)  # editing messages this old is heavily throttled

    await world.alice.click(old, label="Roll 3")

    moved = world.message(old.id)
    assert moved.content == "This game continues in a newer message below." and labels(moved) == []
    board = await world.board(match.id)
    assert board.id > old.id and board.content == f"{world.bob.mention}, your move."


async def test_a_bug_is_logged_with_context_and_answered_with_an_apology(
    world: World, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = await world.challenge()

    async def broken(*args: object) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(world.service, "play", broken)
    monkeypatch.setattr(world.service, "hint", broken)
    pressed = await world.alice.click(await world.board(match.id), label="Roll 3")
    asked = await world.alice.slash(world.channel, "hog hint")

    assert said(pressed) == APOLOGY and said(asked) == APOLOGY
    press_log, command_log = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert (press_log.command, press_log.user, press_log.match) == (
        f"hog:play:{match.id}:0:3",
        world.alice.id,
        match.id,
    )
    assert (command_log.command, command_log.user) == ("hog hint", world.alice.id)
    assert "disk on fire" in str(world.env.errors_since(world.errors_seen)[0])
    world.errors_seen = world.env.error_cursor
    caplog.clear()


@pytest.mark.parametrize("command", ["hog vs-bot", "hog challenge"])
async def test_a_new_game_whose_message_cannot_be_posted_is_called_off(world: World, command: str) -> None:
    options = {"opponent": world.bob} if command == "hog challenge" else {}
    world.env.inject_error("POST", "/interactions/*/*/callback", status=503)

    refused = await world.alice.slash(world.channel, command, **options)

    assert said(refused) == CALLED_OFF
    assert world.domain_errors() == [said(refused)]
    assert (await world.match(1)).status is MatchStatus.CANCELLED
    assert await world.service.open_match_in_channel(world.channel.id, world.alice.id) is None

    await world.alice.slash(world.channel, command, **options)  # nothing is in the way of trying again
    again = await world.service.open_match_in_channel(world.channel.id, world.alice.id)
    assert again is not None and (await world.board(again.id)).id == again.message_id


async def test_a_rematch_whose_board_cannot_be_posted_is_called_off_and_can_be_voted_again(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    match = await world.challenge()
    await world.bob.slash(world.channel, "hog forfeit")
    old_board = await world.board(match.id)
    await world.alice.click(old_board, label="Rematch")
    world.env.inject_error("POST", "/webhooks/*", status=503)  # the new board, a follow-up of bob's press

    refused = await world.bob.click(world.message(old_board.id), label="Rematch")

    assert said(refused) == CALLED_OFF
    assert any(r.getMessage().startswith("could not post a new game") for r in caplog.records)
    called_off = await world.match(match.id + 1)
    assert (called_off.status, called_off.rematch_of, called_off.message_id) == (
        MatchStatus.CANCELLED,
        None,
        None,
    )
    assert await world.service.open_match_in_channel(world.channel.id, world.alice.id) is None
    again = world.message(old_board.id)  # the votes were taken back: both vote anew
    assert labels(again) == ["Rematch", "Verify dice"] and "wants a rematch" not in text(again)
    assert (await world.match(match.id)).rematch_votes == (False, False)

    await world.alice.click(again, label="Rematch")
    await world.bob.click(world.message(old_board.id), label="Rematch")

    rematch = await world.service.open_match_in_channel(world.channel.id, world.alice.id)
    assert rematch is not None and rematch.rematch_of == match.id and rematch.id == called_off.id + 1
    assert (await world.board(rematch.id)).content == f"{world.bob.mention}, your move."


async def test_a_rematch_against_the_bot_that_cannot_be_posted_leaves_the_bot_vote(world: World) -> None:
    match = await world.vs_bot()
    await world.alice.slash(world.channel, "hog forfeit")
    old_board = await world.board(match.id)
    world.env.inject_error("POST", "/webhooks/*", status=503)

    refused = await world.alice.click(old_board, label="Rematch")

    assert said(refused) == CALLED_OFF
    assert (await world.match(match.id)).rematch_votes == (False, True)  # the house bot still wants one
    assert text(world.message(old_board.id)).splitlines()[-1] == "**Hog Bot (easy)** wants a rematch."
    await world.advance(BOT_PAUSE + 1)  # the called-off game's bot never moves
    assert (await world.match(match.id + 1)).state.turn == 0

    await world.alice.click(world.message(old_board.id), label="Rematch")

    rematch = await world.service.open_match_in_channel(world.channel.id, world.alice.id)
    assert rematch is not None and rematch.rematch_of == match.id
    await world.advance(BOT_PAUSE + 1)
    assert (await world.board(rematch.id)).content == f"{world.alice.mention}, your move."


async def test_a_rating_that_fails_is_logged_and_the_game_still_ends_on_its_board(
    world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    match = await world.challenge(goal=1)  # any first turn wins
    board = await world.board(match.id)

    async def locked() -> list[int]:
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(world.services.ratings, "record", locked)

    pressed = await world.alice.click(board, label="Roll 3")

    assert pressed.acknowledged  # and no apology: the game is over and stored; what follows her press is
    (told,) = pressed.followups  # bob's notice that it is over (a follow-up: free of the global limit)
    assert told.content.startswith(f"{world.bob.mention}, you lost to **alice**, 0\u2013")
    assert text(world.message(board.id)).startswith("🏆 **alice** reached 1 and wins")
    (logged,) = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert (logged.getMessage(), logged.match) == ("could not rate a finished game", match.id)
    caplog.clear()


async def test_a_new_game_is_remembered_from_discords_answer_with_no_call_that_could_fail(
    world: World,
) -> None:
    world.env.inject_error("GET", "/webhooks/*/messages/@original", status=503)  # asking for it again

    posted = await world.alice.slash(world.channel, "hog challenge", opponent=world.bob)

    assert posted.response is not None and not posted.response.ephemeral
    match = await world.service.open_match_in_channel(world.channel.id, world.alice.id)
    assert match is not None and match.message_id == posted.response.id
    await world.bob.click(world.message(match.message_id), label="Accept")
    assert world.message(match.message_id).content == f"{world.alice.mention}, your move."
