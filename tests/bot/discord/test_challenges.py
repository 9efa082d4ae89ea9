"""A challenge is one message with Accept / Decline / Cancel; only the right person may press each."""

from tests.bot.discord.conftest import CHALLENGE_TIMEOUT
from tests.bot.discord.harness import World, labels, mention, plain, said, seat_lines, text


async def test_a_challenge_pings_the_opponent_and_offers_three_answers(world: World) -> None:
    result = await world.alice.slash(
        world.channel, "hog challenge", opponent=world.bob, rules="pork-chop", goal=50
    )

    message = result.response
    assert message is not None and not message.ephemeral
    assert message.content == f"{world.bob.mention}, you are challenged!"
    embed = message.embeds[0]
    assert embed.title == "Pork Chop · first to 50"  # the rule set and the goal, on one line
    assert (embed.description or "").splitlines() == [
        "**alice** challenges **bob** to a game of Hog.",
        f"bob: accept or decline. Expires <t:{int(world.env.now().timestamp() + CHALLENGE_TIMEOUT)}:R>.",
    ]
    assert labels(world.channel.last_message) == ["Accept", "Decline", "Cancel"]


async def test_accepting_turns_the_challenge_into_the_board(world: World) -> None:
    await world.alice.slash(world.channel, "hog challenge", opponent=world.bob, rules="pork-chop")
    challenge = world.channel.last_message

    await world.bob.click(challenge, label="Accept")

    board = world.message(challenge.id)  # edited in place
    assert board.content == f"{world.alice.mention}, your move."
    assert "**alice** to move, with four-sided dice (Hog Wild: 0 + 0 = 0 is a multiple of 7)" in (
        board.embeds[0].description or ""
    )
    assert labels(board) == ["Pork Chop", "Free Bacon", "Verify dice", *(f"Roll {n}" for n in range(1, 11))]
    assert seat_lines(board)["alice"] == "▶ alice · **0** `░░░░░░░░░░`"  # a Pork Chop still ready goes unsaid
    match = await world.service.open_match_in_channel(world.channel.id, world.alice.id)
    assert match is not None and match.seed_hash is not None
    assert (board.embeds[0].footer.text or "").endswith(f" · dice {match.seed_hash[:8]}")


async def test_only_the_challenged_player_may_accept_or_decline(world: World) -> None:
    await world.alice.slash(world.channel, "hog challenge", opponent=world.bob)
    challenge = world.channel.last_message

    assert said(await world.carol.click(challenge, label="Accept")) == "You are not playing in this game."
    assert said(await world.alice.click(challenge, label="Accept")) == "Only bob can accept this challenge."
    assert said(await world.bob.click(challenge, label="Cancel")) == "Only alice can cancel this challenge."
    assert labels(world.message(challenge.id)) == ["Accept", "Decline", "Cancel"]


async def test_declining_closes_the_challenge(world: World) -> None:
    await world.alice.slash(world.channel, "hog challenge", opponent=world.bob)
    challenge = world.channel.last_message

    await world.bob.click(challenge, label="Decline")

    closed = world.message(challenge.id)
    assert text(closed).splitlines()[-1] == "**bob** declined the challenge."
    assert labels(closed) == []


async def test_the_challenger_can_cancel(world: World) -> None:
    await world.alice.slash(world.channel, "hog challenge", opponent=world.bob)
    challenge = world.channel.last_message

    await world.alice.click(challenge, label="Cancel")

    assert text(world.message(challenge.id)).splitlines()[-1] == "**alice** withdrew the challenge."
    assert labels(world.message(challenge.id)) == []


async def test_an_unanswered_challenge_expires_by_itself(world: World) -> None:
    await world.alice.slash(world.channel, "hog challenge", opponent=world.bob)
    challenge = world.channel.last_message

    await world.advance(CHALLENGE_TIMEOUT + 10)

    expired = world.message(challenge.id)
    assert text(expired).splitlines()[-1] == "Nobody answered in time: the challenge expired."
    assert labels(expired) == []


async def test_impossible_challenges_are_refused_privately(world: World) -> None:
    robot = world.channel.guild.add_member(world.env.create_user("robot", bot=True))

    myself = await world.alice.slash(world.channel, "hog challenge", opponent=world.alice)
    a_bot = await world.alice.slash(world.channel, "hog challenge", opponent=robot)

    assert said(myself) == "You can't challenge yourself."
    assert said(a_bot) == f"Bot accounts can't play: use {mention(world, 'hog vs-bot')} to play Hog Bot."
    assert world.domain_errors() == [said(myself), plain(said(a_bot))]
    assert all(message.flags.ephemeral for message in world.channel.history())


async def test_one_open_game_per_player_and_channel(world: World) -> None:
    await world.alice.slash(world.channel, "hog challenge", opponent=world.bob)

    again = await world.carol.slash(world.channel, "hog challenge", opponent=world.alice)

    assert said(again).startswith("alice already has a game or challenge open in this channel")
    assert world.domain_errors() == [said(again)]
