"""Nothing is lost to a board that failed to show: when Discord answers 5xx to both the edit and the repost
of a house move, no press will follow (the person sees no buttons), so the bot's clock redraws the board
itself, ever more slowly while Discord stays down; and the person's turn clock starts only once the board
shows their turn, so they never lose on time for a move they could not see."""

import logging

import pytest

from bot.config import Settings
from bot.discord.catch_up import LONGEST_PAUSE
from bot.services import MatchStatus
from tests.bot.discord.conftest import TURN_TIMEOUT
from tests.bot.discord.harness import World, labels, text


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """Answers by the channel, as when her press's token is no longer taken: the channel is then the house
    move's only way onto the board."""
    return settings.model_copy(update={"answer_through_presses": False})


async def test_a_house_move_discord_would_not_show_is_redrawn_and_never_lost_on_time(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    await world.alice.slash(world.channel, "hog vs-bot", goal=20)
    match = await world.service.open_match_in_channel(world.channel.id, world.alice.id)
    assert match is not None
    board = await world.board(match.id)
    world.env.inject_error("PATCH", f"/channels/*/messages/{board.id}", status=503, times=None)
    world.env.inject_error("POST", "/channels/*/messages", status=503, times=None)

    await world.alice.click(board, label="Roll 2")  # her turn shows (the answer to her press); the house
    # bot's move then shows nowhere
    assert "is rolling…" in text(world.message(board.id))
    await world.advance(2 * TURN_TIMEOUT)  # longer than a turn lasts

    waiting = await world.match(match.id)
    assert waiting.status is MatchStatus.ACTIVE and waiting.player_to_move is not None
    assert waiting.turn_deadline is None  # no clock runs for a turn nobody was shown
    tries = [r for r in caplog.records if r.getMessage().startswith("could not post the board")]
    assert 3 < len(tries) < 10 and all(r.levelno == logging.WARNING for r in tries)  # 40 ticks, fewer tries
    world.env.backend.faults.clear()  # Discord is back
    await world.advance(LONGEST_PAUSE + TURN_TIMEOUT / 10)

    shown = world.message(board.id)
    assert shown.content == f"{world.alice.mention}, your move." and "Roll 2" in labels(shown)
    assert (await world.match(match.id)).turn_deadline is not None  # her clock runs from the show
    while (await world.match(match.id)).status is MatchStatus.ACTIVE:
        await world.alice.click(world.message(board.id), label="Roll 5")
    assert (await world.match(match.id)).status is MatchStatus.FINISHED
