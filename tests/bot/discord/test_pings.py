"""Nobody left waiting: every moment that is a person's business reaches them as a new message that mentions
only them (allowed mentions: that user; Discord notifies for mentions in new messages only), with a link to
the board: their turn running out, the game's end (to whoever did not end it), their challenge declined or
expired, a rematch the other side wants. At most one such notice is live per game (the previous one is
deleted), each moment is announced once whatever restarts, and `/hog notices off` silences them all."""

import discord
import simcord

from bot.services import MatchStatus
from tests.bot.discord.conftest import CHALLENGE_TIMEOUT, TURN_TIMEOUT
from tests.bot.discord.harness import World

HURRY_AT = TURN_TIMEOUT - 60  # a minute left (a fifth of a five-minute clock)
EN_DASH = "\u2013"


def notices(world: World) -> list[discord.Message]:
    """The notices in the channel now: short messages of their own that link to a board."""
    return [
        message
        for message in world.channel.history()
        if not message.embeds and "https://discord.com/channels/" in message.content
    ]


def only_to(world: World, message: discord.Message, person: simcord.MemberActor) -> None:
    """The message notifies this person and nobody else, and its allowed mentions say so."""
    stored = world.env.backend.get_message(world.channel.id, message.id)
    assert list(stored.ping_user_ids) == [person.id]
    policy = stored.allowed_mentions
    assert (policy.users, policy.roles, policy.everyone) == (frozenset({person.id}), frozenset(), False)


def the_notice(world: World) -> discord.Message:
    """The one notice live in the channel (a test plays one game at a time)."""
    (live,) = notices(world)
    return live


async def test_a_turn_running_out_warns_its_player_once_and_the_end_tells_the_winner(world: World) -> None:
    match = await world.challenge()
    board = await world.board(match.id)
    told = the_notice(world)  # alice's turn

    await world.advance(HURRY_AT + 15)

    hurry = the_notice(world)  # a new message, in place of the turn notice
    assert hurry.id > told.id
    assert hurry.content == (
        f"⏳ {world.alice.mention}, your move against **bob** runs out "
        f"<t:{int((await world.match(match.id)).turn_deadline or 0)}:R>: {board.jump_url}"
    )
    only_to(world, hurry, world.alice)
    await world.advance(30)
    assert [notice.id for notice in notices(world)] == [hurry.id]  # said once

    await world.advance(30)  # the clock runs out

    assert (await world.match(match.id)).status is MatchStatus.TIMEOUT
    end = the_notice(world)
    assert (
        end.content
        == f"⏰ {world.bob.mention}, **alice** ran out of time: you win, 0{EN_DASH}0: {board.jump_url}"
    )
    only_to(world, end, world.bob)
    await world.restart()
    await world.advance(60)
    assert [notice.id for notice in notices(world)] == [end.id]  # announced once, whatever restarts


async def test_the_end_of_a_game_is_told_to_whoever_did_not_make_the_last_move(world: World) -> None:
    match = await world.challenge(goal=20)

    boards = await world.play_to_end(match.id, lambda state: 10)

    over = await world.match(match.id)
    last = (await world.service.turns(match.id))[-1].result.player
    waiting = (world.alice, world.bob)[1 - last]
    ended = ("alice", "bob")[last]
    end = the_notice(world)
    mine, theirs = over.state.scores[1 - last], over.state.scores[last]
    verdict = (
        f"🏆 {waiting.mention}, you beat **{ended}**"
        if over.winner != last
        else (f"{waiting.mention}, you lost to **{ended}**")
    )
    assert end.content == f"{verdict}, {mine}{EN_DASH}{theirs}: {boards[-1].jump_url}"
    only_to(world, end, waiting)


async def test_a_forfeit_is_told_to_the_winner(world: World) -> None:
    match = await world.challenge()
    board = await world.board(match.id)
    await world.alice.click(board, label="Roll 2")  # bob's turn: he is told

    await world.bob.slash(world.channel, "hog forfeit")

    end = the_notice(world)
    assert end.content.startswith(f"🏳️ {world.alice.mention}, **bob** gave up: you win, ")
    assert end.content.endswith(f": {board.jump_url}")
    only_to(world, end, world.alice)


async def test_against_the_house_bot_only_the_clock_pings(world: World) -> None:
    match = await world.vs_bot()
    await world.alice.click(await world.board(match.id), label="Roll 2")
    assert notices(world) == []  # she just moved, and the house answered at once
    await world.alice.slash(world.channel, "hog forfeit")
    assert notices(world) == []  # she gave up herself

    idle = await world.vs_bot()
    board = await world.board(idle.id)
    await world.advance(HURRY_AT + 15)
    hurry = the_notice(world)
    house = "**Hog Bot (easy)**"
    assert hurry.content.startswith(f"⏳ {world.alice.mention}, your move against {house} runs out <t:")
    only_to(world, hurry, world.alice)

    await world.advance(60)

    end = the_notice(world)
    lost = f"you ran out of time: {house} wins, 0{EN_DASH}0"
    assert end.content == f"⏰ {world.alice.mention}, {lost}: {board.jump_url}"
    only_to(world, end, world.alice)


async def test_a_declined_or_expired_challenge_is_told_to_the_challenger(world: World) -> None:
    await world.alice.slash(world.channel, "hog challenge", opponent=world.bob)
    challenge = world.channel.last_message

    await world.bob.click(challenge, label="Decline")

    declined = the_notice(world)
    assert declined.content == f"{world.alice.mention}, **bob** declined your challenge: {challenge.jump_url}"
    only_to(world, declined, world.alice)

    await world.carol.slash(world.channel, "hog challenge", opponent=world.bob)
    unanswered = world.channel.last_message
    await world.advance(CHALLENGE_TIMEOUT + 60)

    expired = notices(world)[-1]
    assert expired.content == (
        f"{world.carol.mention}, **bob** did not answer your challenge in time: {unanswered.jump_url}"
    )
    only_to(world, expired, world.carol)
    assert len(notices(world)) == 2  # one for each of the two challenges


async def test_a_rematch_one_side_wants_is_told_to_the_other(world: World) -> None:
    match = await world.challenge()
    board = await world.board(match.id)
    await world.bob.slash(world.channel, "hog forfeit")
    assert the_notice(world).content.startswith(f"🏳️ {world.alice.mention}, ")

    await world.alice.click(world.message(board.id), label="Rematch")

    wanted = the_notice(world)  # in place of the end's notice
    assert wanted.content == (
        f"{world.bob.mention}, **alice** wants a rematch: press Rematch on the board. {board.jump_url}"
    )
    only_to(world, wanted, world.bob)

    await world.bob.click(world.message(board.id), label="Rematch")

    rematch = await world.service.open_match_in_channel(world.channel.id, world.alice.id)
    assert rematch is not None and rematch.rematch_of == match.id
    assert notices(world) == []  # said and done: bob moves first in the rematch, and he just pressed


async def test_notices_off_silences_every_ping_to_that_person(world: World) -> None:
    await world.bob.slash(world.channel, "hog notices", setting="off")
    await world.bob.slash(world.channel, "hog challenge", opponent=world.alice)
    await world.alice.click(world.channel.last_message, label="Decline")
    assert notices(world) == []  # bob declined to be told

    match = await world.challenge()  # alice challenges bob: she moves first
    board = await world.board(match.id)
    await world.alice.click(board, label="Roll 2")
    assert notices(world) == []  # bob's turn: he is not told
    await world.advance(HURRY_AT + 15)
    assert notices(world) == []  # nor that it runs out

    await world.advance(60)

    end = the_notice(world)  # alice wants notices: she is told she won
    assert end.content.startswith(f"⏰ {world.alice.mention}, **bob** ran out of time: you win, ")
    only_to(world, end, world.alice)
