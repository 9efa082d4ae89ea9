"""During a game only the player to move can press; everyone else is told why, privately, and a stale
or double press changes nothing."""

import asyncio

from bot.services import MatchStatus
from tests.bot.discord.conftest import TURN_TIMEOUT
from tests.bot.discord.harness import World, fields, labels, said


async def test_a_press_plays_the_turn_and_passes_the_move(world: World) -> None:
    match = await world.challenge()
    board = await world.board(match.id)

    result = await world.alice.click(board, label="Roll 3")

    assert result.acknowledged and not result.followups
    after = world.message(board.id)
    assert after.content == f"{world.bob.mention}, your move."
    (line,) = fields(after)["Recent turns"].splitlines()
    assert line.startswith("**alice** 🎲 ") and len(line.split(" → ")[0].split()) == 2 + 3  # three dice
    assert "▶ bob" in fields(after)
    assert "Turn ends <t:" in (after.embeds[0].description or "")


async def test_the_other_player_is_told_to_wait(world: World) -> None:
    match = await world.challenge()
    board = await world.board(match.id)

    result = await world.bob.click(board, label="Roll 3")

    assert said(result) == "It's alice's turn."
    assert (await world.match(match.id)).state.turn == 0


async def test_someone_else_is_told_it_is_not_their_game(world: World) -> None:
    match = await world.challenge()

    result = await world.carol.click(await world.board(match.id), label="Roll 3")

    assert said(result) == "You are not playing in this game."
    assert (await world.match(match.id)).state.turn == 0


async def test_a_double_press_plays_once(world: World) -> None:
    match = await world.challenge()
    board = await world.board(match.id)
    as_rendered = world.rendering(board)

    await world.alice.click(board, label="Roll 3")
    again = await world.press_stale(world.alice, as_rendered, "Roll 3")

    assert said(again) == "That turn was already played. The board now shows the game as it is."
    after = await world.match(match.id)
    assert after.state.turn == 1 and after.state.mover == 1
    assert world.message(board.id).content == f"{world.bob.mention}, your move."


async def test_an_idle_player_loses_on_time(world: World) -> None:
    match = await world.challenge()
    board = await world.board(match.id)

    await world.advance(TURN_TIMEOUT + TURN_TIMEOUT / 10)

    over = world.message(board.id)
    assert over.embeds[0].description == "**alice** ran out of time: **bob** wins."
    assert labels(over) == ["Rematch"]  # no turn was played: nothing to analyse
    assert (await world.match(match.id)).status is MatchStatus.TIMEOUT


async def test_forfeit_gives_the_game_away(world: World) -> None:
    match = await world.challenge()

    result = await world.bob.slash(world.channel, "hog forfeit")

    assert said(result) == "You gave up. Good game!"
    over = await world.board(match.id)
    assert over.embeds[0].description == "**bob** gave up: **alice** wins."
    assert fields(over)["Fair dice"].startswith("Seed `")


async def test_forfeit_withdraws_a_challenge(world: World) -> None:
    await world.alice.slash(world.channel, "hog challenge", opponent=world.bob)
    challenge = world.channel.last_message

    result = await world.bob.slash(world.channel, "hog forfeit")

    assert said(result) == "You withdrew the challenge."
    assert world.message(challenge.id).embeds[0].description == "bob declined the challenge."


async def test_forfeit_without_a_game(world: World) -> None:
    result = await world.carol.slash(world.channel, "hog forfeit")
    assert said(result) == "You have no open game in this channel."
    assert world.domain_errors() == [said(result)]


async def test_two_presses_at_once_play_one_turn(world: World) -> None:
    match = await world.challenge()
    board = await world.board(match.id)
    as_rendered = world.rendering(board)

    presses = await asyncio.gather(
        world.press_stale(world.alice, as_rendered, "Roll 3"),
        world.press_stale(world.alice, as_rendered, "Roll 5"),
    )

    refused = [said(press) for press in presses if press.followups]
    assert refused == ["That turn was already played. The board now shows the game as it is."]
    assert [turn.result.before.turn for turn in await world.service.turns(match.id)] == [0]
    assert world.message(board.id).content == f"{world.bob.mention}, your move."
