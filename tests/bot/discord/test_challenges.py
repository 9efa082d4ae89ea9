"""A challenge is one message with Accept / Decline / Cancel; only the right person may press each."""

from tests.bot.discord.conftest import CHALLENGE_TIMEOUT
from tests.bot.discord.harness import World, fields, labels, said


async def test_a_challenge_pings_the_opponent_and_offers_three_answers(world: World) -> None:
    result = await world.alice.slash(
        world.channel, "hog challenge", opponent=world.bob, rules="pork-chop", goal=50
    )

    message = result.response
    assert message is not None and not message.ephemeral
    assert message.content == f"{world.bob.mention}, you are challenged!"
    embed = message.embeds[0]
    assert embed.title == "alice challenges bob to Hog"
    assert "bob: accept or decline. Expires <t:" in (embed.description or "")
    assert labels(world.channel.last_message) == ["Accept", "Decline", "Cancel"]
    assert fields(world.channel.last_message)["Goal"] == "50"
    assert "Pork Chop" in fields(world.channel.last_message)["Rules"]


async def test_accepting_turns_the_challenge_into_the_board(world: World) -> None:
    await world.alice.slash(world.channel, "hog challenge", opponent=world.bob, rules="pork-chop")
    challenge = world.channel.last_message

    await world.bob.click(challenge, label="Accept")

    board = world.message(challenge.id)  # edited in place
    assert board.content == f"{world.alice.mention}, your move."
    assert "**alice** to move, with four-sided dice (Hog Wild: 0 + 0 = 0 is a multiple of 7)" in (
        board.embeds[0].description or ""
    )
    assert labels(board) == ["Pork Chop", "Free Bacon", *(f"Roll {n}" for n in range(1, 11))]
    assert fields(board)["▶ alice"].endswith("`░░░░░░░░░░`")  # a Pork Chop still ready goes unsaid
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
    assert closed.embeds[0].description == "bob declined the challenge."
    assert labels(closed) == []


async def test_the_challenger_can_cancel(world: World) -> None:
    await world.alice.slash(world.channel, "hog challenge", opponent=world.bob)
    challenge = world.channel.last_message

    await world.alice.click(challenge, label="Cancel")

    assert world.message(challenge.id).embeds[0].description == "alice withdrew the challenge."
    assert labels(world.message(challenge.id)) == []


async def test_an_unanswered_challenge_expires_by_itself(world: World) -> None:
    await world.alice.slash(world.channel, "hog challenge", opponent=world.bob)
    challenge = world.channel.last_message

    await world.advance(CHALLENGE_TIMEOUT + 10)

    expired = world.message(challenge.id)
    assert expired.embeds[0].description == "Nobody answered in time: the challenge expired."
    assert labels(expired) == []


async def test_impossible_challenges_are_refused_privately(world: World) -> None:
    robot = world.channel.guild.add_member(world.env.create_user("robot", bot=True))

    myself = await world.alice.slash(world.channel, "hog challenge", opponent=world.alice)
    a_bot = await world.alice.slash(world.channel, "hog challenge", opponent=robot)

    assert said(myself) == "You can't challenge yourself."
    assert said(a_bot) == "Bot accounts can't play: use /hog vs-bot to play Hog Bot."
    assert world.domain_errors() == [said(myself), said(a_bot)]
    assert all(message.flags.ephemeral for message in world.channel.history())


async def test_one_open_game_per_player_and_channel(world: World) -> None:
    await world.alice.slash(world.channel, "hog challenge", opponent=world.bob)

    again = await world.carol.slash(world.channel, "hog challenge", opponent=world.alice)

    assert said(again).startswith("alice already has a game or challenge open in this channel")
    assert world.domain_errors() == [said(again)]
