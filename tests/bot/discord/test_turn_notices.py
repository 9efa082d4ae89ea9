"""When the turn passes to a person, a short message of its own tells them (Discord notifies for mentions
in new messages only; the board is edited in place): it mentions only them, links to the board, and
replaces the game's previous notice, so at most one is left per game. None for an extra turn, none
against the house bot, none for someone who turned them off."""

import discord

from bot.services import MatchStatus
from tests.bot.discord.conftest import TURN_TIMEOUT
from tests.bot.discord.harness import World, said


def notices(world: World) -> list[discord.Message]:
    """The turn notices in the channel now."""
    return [message for message in world.channel.history() if "it's your move against" in message.content]


def pinged(world: World, message: discord.Message) -> list[int]:
    """Whom Discord notifies for this message."""
    return list(world.env.backend.get_message(world.channel.id, message.id).ping_user_ids)


async def test_each_turn_that_passes_notifies_only_the_person_to_move(world: World) -> None:
    match = await world.challenge()
    board = await world.board(match.id)

    (first,) = notices(world)  # bob accepted: alice is told it is her move
    assert first.content == (f"{world.alice.mention}, it's your move against **bob**: {board.jump_url}")
    assert pinged(world, first) == [world.alice.id] and pinged(world, board) == []
    policy = world.env.backend.get_message(world.channel.id, first.id).allowed_mentions
    assert (policy.users, policy.roles, policy.everyone, policy.replied_user) == (
        frozenset({world.alice.id}),
        frozenset(),
        False,
        False,
    )

    await world.alice.click(board, label="Roll 3")

    (second,) = notices(world)  # alice's notice is gone: one per game
    assert second.id > board.id and second.id != first.id
    assert second.content.startswith(f"{world.bob.mention}, it's your move against **alice**: ")
    assert pinged(world, second) == [world.bob.id]
    assert pinged(world, world.message(board.id)) == []  # the board names bob but notifies nobody
    assert world.message(board.id).content == f"{world.bob.mention}, your move."

    await world.bob.click(world.message(board.id), label="Free Bacon")  # 13-10: alice's turn
    (third,) = notices(world)
    assert third.content.startswith(f"{world.alice.mention}, ")


async def test_an_extra_turn_is_not_announced_again(world: World) -> None:
    match = await world.challenge()
    board = await world.board(match.id)
    await world.alice.click(board, label="Free Bacon")  # 6-0
    (told,) = notices(world)
    assert told.content.startswith(f"{world.bob.mention}, ")

    await world.bob.click(world.message(board.id), label="Free Bacon")  # 6-5: Pig Pass, bob goes again

    assert (await world.match(match.id)).state.mover == 1
    assert [notice.id for notice in notices(world)] == [told.id]
    await world.bob.click(world.message(board.id), label="Free Bacon")
    (now,) = notices(world)
    assert now.content.startswith(f"{world.alice.mention}, ")


async def test_no_notice_in_a_game_against_the_house_bot(world: World) -> None:
    match = await world.vs_bot()
    board = await world.board(match.id)

    await world.alice.click(board, label="Roll 2")
    await world.alice.click(world.message(board.id), label="Roll 2")

    assert (await world.match(match.id)).state.turn == 4  # the bot answered each time
    assert notices(world) == [] and pinged(world, world.message(board.id)) == []
    assert [message.id for message in world.channel.history()] == [board.id]


async def test_notices_turn_off_and_on_again(world: World) -> None:
    off = await world.bob.slash(world.channel, "hog notices", setting="off")
    assert said(off) == (
        "No more messages that mention you when it's your move. The board still shows whose move it is."
    )
    match = await world.challenge()
    board = await world.board(match.id)
    assert len(notices(world)) == 1

    await world.alice.click(board, label="Roll 3")

    assert notices(world) == []  # bob is not told, and alice's notice is gone
    await world.bob.click(world.message(board.id), label="Free Bacon")  # 13-10: alice's turn
    assert [notice.content.startswith(world.alice.mention) for notice in notices(world)] == [True]

    on = await world.bob.slash(world.channel, "hog notices", setting="on")
    assert said(on) == "You will get a message that mentions you when it's your move."
    await world.alice.click(world.message(board.id), label="Free Bacon")  # 21-10: bob's turn
    (told,) = notices(world)
    assert told.content.startswith(f"{world.bob.mention}, ") and pinged(world, told) == [world.bob.id]


async def test_a_game_that_ends_leaves_no_notice(world: World) -> None:
    match = await world.challenge()
    await world.alice.click(await world.board(match.id), label="Roll 3")
    assert len(notices(world)) == 1

    await world.bob.slash(world.channel, "hog forfeit")

    assert (await world.match(match.id)).status is MatchStatus.FORFEIT
    assert notices(world) == []


async def test_a_board_shown_again_posts_no_second_notice(world: World) -> None:
    match = await world.challenge()
    board = await world.board(match.id)
    as_rendered = world.rendering(board)
    await world.alice.click(board, label="Roll 3")
    (told,) = notices(world)

    await world.press_stale(world.alice, as_rendered, "Roll 3")  # redraws the board as it is
    await world.restart()

    assert [notice.id for notice in notices(world)] == [told.id]


async def test_a_notice_discord_would_not_take_is_posted_by_the_clock(world: World) -> None:
    match = await world.challenge()
    board = await world.board(match.id)
    world.env.inject_error("POST", "/webhooks/*", status=503)  # the notice: a follow-up of alice's press

    await world.alice.click(board, label="Roll 3")  # the board shows bob's turn; his notice fails

    assert world.message(board.id).content == f"{world.bob.mention}, your move."
    assert [notice.content.startswith(world.alice.mention) for notice in notices(world)] == [True]  # still
    assert (await world.match(match.id)).turn_deadline is None  # bob's clock waits until he is told
    await world.advance(TURN_TIMEOUT / 5)
    (told,) = notices(world)
    assert told.content.startswith(f"{world.bob.mention}, ") and pinged(world, told) == [world.bob.id]
    assert (await world.match(match.id)).turn_deadline is not None
