"""A crash between storing a change and showing it strands no game: a stale press redraws its board from
the database and says so, and a restarted bot redraws every message that lags behind what was stored (a
turn, an accepted challenge, a house-bot move, a game the clock closed, a rematch, a challenge never
posted, a tournament's standings). The crash is stood in for by a network that drops the bot's edits
(the change is stored, nothing shows it), or by the services alone."""

import json

import pytest
import simcord

from bot.config import Settings
from bot.services import Player
from tests.bot.discord.conftest import TURN_TIMEOUT
from tests.bot.discord.harness import Network, World, labels, last_turn, said, text, turn_of
from tests.helpers import upload_file

BOT_PAUSE = 60.0
STILL_DOWN = 1000  # calls a cut fails: more than the clock's redraws in a test
REDRAWN = "The board now shows the game as it is."


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return settings.model_copy(update={"bot_move_delay_seconds": BOT_PAUSE})


def player(person: simcord.MemberActor) -> Player:
    return Player(person.id, person.name)


def drop_board_edits(network: Network) -> None:
    """The next answer to a press, edit of a board and post of one (by the channel, or as a follow-up of the
    press) never reach Discord."""
    network.cut("PATCH", "/webhooks/*/messages/@original")
    network.cut("PATCH", "/channels/*/messages/*")
    network.cut("POST", "/channels/*/messages")
    network.cut("POST", "/webhooks/*")


async def test_a_stale_press_redraws_the_board_and_says_so(world: World, network: Network) -> None:
    match = await world.challenge()
    board = await world.board(match.id)
    drop_board_edits(network)
    await world.alice.click(board, label="Roll 3")  # stored; the board still offers alice turn 0
    assert world.message(board.id).content == f"{world.alice.mention}, your move."

    pressed = await world.bob.click(world.message(board.id), label="Roll 4")

    assert said(pressed) == f"That turn was already played. {REDRAWN}"
    redrawn = world.message(board.id)
    assert redrawn.content == f"{world.bob.mention}, your move."
    assert turn_of(last_turn(redrawn)) == ("alice", 3)
    await world.bob.click(redrawn, label="Roll 4")  # and the game goes on from the same message
    assert turn_of(last_turn(world.message(board.id))) == ("bob", 4)


async def test_a_stale_accept_shows_the_game_it_started(world: World, network: Network) -> None:
    await world.alice.slash(world.channel, "hog challenge", opponent=world.bob)
    challenge = world.channel.last_message
    drop_board_edits(network)
    await world.bob.click(challenge, label="Accept")  # stored; the message still offers Accept

    pressed = await world.bob.click(world.message(challenge.id), label="Accept")  # his own, again

    assert pressed.acknowledged  # the redrawn board is the answer, and alice is told it is her move
    assert [m.content.split(":")[0] for m in pressed.followups] == [
        f"{world.alice.mention}, it's your move against **bob**"
    ]
    assert world.message(challenge.id).content == f"{world.alice.mention}, your move."
    assert "Roll 10" in labels(world.message(challenge.id))


async def test_a_restart_redraws_a_turn_and_an_accept_it_never_showed(world: World, network: Network) -> None:
    match = await world.challenge()
    board = await world.board(match.id)
    drop_board_edits(network)
    await world.alice.click(board, label="Roll 3")
    await world.mod.slash(world.channel, "hog challenge", opponent=world.carol)
    challenge = world.channel.last_message
    drop_board_edits(network)
    await world.carol.click(challenge, label="Accept")
    assert labels(world.message(challenge.id)) == ["Accept", "Decline", "Cancel"]

    await world.restart()

    assert world.message(board.id).content == f"{world.bob.mention}, your move."
    assert turn_of(last_turn(world.message(board.id))) == ("alice", 3)
    assert world.message(challenge.id).content == f"{world.mod.mention}, your move."
    await world.bob.click(world.message(board.id), label="Roll 4")
    await world.mod.click(world.message(challenge.id), label="Roll 2")
    assert turn_of(last_turn(world.message(challenge.id))) == ("mod", 2)


async def test_a_restart_shows_the_house_bots_move_and_a_clock_close(world: World, network: Network) -> None:
    await world.mod.slash(world.channel, "hog challenge", opponent=world.carol)
    await world.carol.click(world.channel.last_message, label="Accept")
    idle = await world.service.open_match_in_channel(world.channel.id, world.carol.id)
    assert idle is not None
    # Until the bot dies, Discord takes no edit of the idle board and no new message (however often the
    # clock tries to redraw it), by the channel or through carol's press on Accept.
    network.cut("PATCH", f"/channels/*/messages/{idle.message_id}", times=STILL_DOWN)
    network.cut("POST", "/channels/*/messages", times=STILL_DOWN)
    network.cut("PATCH", "/webhooks/*/messages/@original", times=STILL_DOWN)
    network.cut("POST", "/webhooks/*", times=STILL_DOWN)
    await world.advance(TURN_TIMEOUT + TURN_TIMEOUT / 10)  # mod's time ran out: stored, not shown
    assert "Roll 10" in labels(await world.board(idle.id))
    game = await world.vs_bot()
    board = await world.board(game.id)
    await world.alice.click(board, label="Roll 2")
    network.cut("PATCH", f"/channels/*/messages/{board.id}", times=STILL_DOWN)
    await world.advance(BOT_PAUSE + 1)  # the house bot moved: stored, its board not edited
    assert "is rolling…" in text(world.message(board.id))
    network.heal()

    await world.restart()

    moved = world.message(board.id)
    assert turn_of(last_turn(moved)) == ("Hog Bot (easy)", 4)
    assert moved.content == f"{world.alice.mention}, your move."
    over = await world.board(idle.id)
    assert "**mod** ran out of time: **carol** wins" in text(over)
    assert labels(over) == ["Rematch", "Verify dice"]


async def test_a_restart_posts_a_rematch_and_a_challenge_it_stored_but_never_posted(world: World) -> None:
    game = await world.vs_bot()
    await world.alice.slash(world.channel, "hog forfeit")
    old_board = await world.board(game.id)
    assert labels(old_board) == ["Rematch", "Verify dice"]
    with world.env.time_context():  # the bot's clock; it died before posting either
        rematch = await world.service.rematch(game.id, world.alice.id)
        challenge = await world.service.challenge(world.channel.id, player(world.bob), player(world.carol))
    await world.advance(1)

    await world.restart()

    assert rematch is not None
    assert labels(world.message(old_board.id)) == ["Verify dice"]  # the rematch started: no Rematch any more
    posted = await world.board(rematch.id)  # the house bot moves first in it
    assert posted.id != old_board.id and "is rolling…" in text(posted)
    asked = await world.board(challenge.id)
    assert asked.content == f"{world.carol.mention}, you are challenged!"
    await world.carol.click(asked, label="Accept")
    assert world.message(asked.id).content == f"{world.bob.mention}, your move."


async def test_a_restart_announces_standings_it_never_showed(world: World) -> None:
    services = world.services
    guild = world.channel.guild.id
    for person, dice in ((world.alice, 4), (world.bob, 6)):
        table = json.dumps([[dice] * 100] * 100).encode()
        await upload_file(services.strategies, guild, player(person), f"{dice}.json", table)
    with world.env.time_context():  # stored; the bot died before showing the standings
        async with services.tournaments.reserve(guild, channel_id=world.channel.id) as draw:
            await services.tournaments.play(draw, player(world.mod))

    await world.restart()

    posted = world.channel.last_message
    assert posted is not None and posted.content.startswith(f"<@{world.mod.id}>: **exact tournament**")
    assert posted.attachments
    await world.restart()  # shown once: a second start posts nothing more
    assert world.channel.last_message == posted


async def test_a_board_whose_channel_is_gone_is_not_tried_again_at_every_start(
    world: World, network: Network
) -> None:
    """A turn stored but not shown, and then the channel is deleted: the start finds its board can be
    neither edited nor posted there (404), and the next start leaves it alone."""
    match = await world.challenge()
    board = await world.board(match.id)
    drop_board_edits(network)
    await world.alice.click(board, label="Roll 3")
    for routes in ("/channels/*/messages*", "/webhooks/*"):  # the channel's, and alice's press's own
        world.env.inject_error("*", routes, status=404, code=10003, times=None)

    await world.restart()
    tried = len(channel_calls(world))
    assert tried >= 1  # the edit, then a fresh post
    await world.restart()
    assert len(channel_calls(world)) == tried


def channel_calls(world: World) -> list[str]:
    """The bot's calls on the messages of a channel so far (by its routes, or through a press's webhook)."""
    return [
        f"{r.method} {r.path}"
        for r in world.env.http_requests
        if ("/channels/" in r.path or "/webhooks/" in r.path) and "/messages" in r.path
    ]
