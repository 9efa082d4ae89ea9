"""Nothing lives in the bot process: a new process on the same database file keeps every old button
working, runs the turn clock on, and picks up the house bot's unfinished turn."""

import pytest

from bot.config import Settings
from tests.bot.discord.conftest import TURN_TIMEOUT
from tests.bot.discord.harness import World, labels, last_turn, text, turn_of

BOT_PAUSE = 60.0


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return settings.model_copy(update={"bot_move_delay_seconds": BOT_PAUSE})


async def test_a_game_goes_on_after_a_restart(world: World) -> None:
    match = await world.challenge()
    board = await world.board(match.id)
    await world.alice.click(board, label="Roll 3")

    await world.restart()
    await world.bob.click(world.message(board.id), label="Roll 4")  # a button the old process rendered

    after = world.message(board.id)
    assert turn_of(last_turn(after)) == ("bob", 4)
    assert after.content == f"{world.alice.mention}, your move."


async def test_the_turn_clock_runs_on_after_a_restart(world: World) -> None:
    match = await world.challenge()
    board = await world.board(match.id)
    await world.alice.click(board, label="Roll 3")
    await world.advance(TURN_TIMEOUT / 2)  # half of bob's time gone before the restart

    await world.restart()
    await world.advance(TURN_TIMEOUT / 2 + TURN_TIMEOUT / 10)

    over = world.message(board.id)
    assert "**bob** ran out of time: **alice** wins" in text(over)
    assert labels(over) == ["Rematch", "Analysis", "Verify dice"]


async def test_a_challenge_can_be_accepted_after_a_restart(world: World) -> None:
    await world.alice.slash(world.channel, "hog challenge", opponent=world.bob)
    challenge = world.channel.last_message

    await world.restart()
    await world.bob.click(challenge, label="Accept")

    board = world.message(challenge.id)
    assert board.content == f"{world.alice.mention}, your move."
    assert "Roll 10" in labels(board)


async def test_the_house_bot_finishes_its_turn_after_a_restart(world: World) -> None:
    match = await world.vs_bot()
    await world.alice.click(await world.board(match.id), label="Roll 2")
    thinking = await world.board(match.id)
    assert "**Hog Bot (easy)** is rolling…" in text(thinking)
    buttons = [child for row in thinking.components for child in getattr(row, "children", [])]
    moves = [button for button in buttons if getattr(button, "label", "") != "Verify dice"]
    assert "Roll 10" in labels(thinking) and all(button.disabled for button in moves)  # greyed out

    await world.restart()  # the pause was not over: the old process never moved
    await world.advance(BOT_PAUSE + 1)

    moved = await world.board(match.id)
    assert turn_of(last_turn(moved)) == ("Hog Bot (easy)", 4)
    assert moved.content == f"{world.alice.mention}, your move."
