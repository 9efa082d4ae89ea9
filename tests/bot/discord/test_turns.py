"""During a game only the player to move can press; everyone else is told why, privately, and a stale
or double press changes nothing."""

import asyncio

from bot.services import MatchStatus
from tests.bot.discord.conftest import TURN_TIMEOUT
from tests.bot.discord.harness import World, labels, mention, plain, said, seat_lines, text, turns_shown


async def test_a_press_plays_the_turn_and_passes_the_move(world: World) -> None:
    match = await world.challenge()
    board = await world.board(match.id)

    result = await world.alice.click(board, label="Roll 3")

    assert result.acknowledged  # the board is the answer; bob's notice follows her press, nothing else
    assert [m.content.split(":")[0] for m in result.followups] == [
        f"{world.bob.mention}, it's your move against **alice**"
    ]
    after = world.message(board.id)
    assert after.content == f"{world.bob.mention}, your move."
    (line,) = turns_shown(after)
    assert line.startswith("**alice** 🎲 ") and len(line.split(" → ")[0].split()) == 2 + 3  # three dice
    assert seat_lines(after)["bob"].startswith("▶ bob · ")
    assert "Turn ends <t:" in text(after)


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


async def test_a_double_press_plays_once_and_is_answered_by_the_board_alone(world: World) -> None:
    match = await world.challenge()
    board = await world.board(match.id)
    as_rendered = world.rendering(board)

    await world.alice.click(board, label="Roll 3")
    again = await world.press_stale(world.alice, as_rendered, "Roll 3")  # her own double tap

    assert again.acknowledged and not again.followups  # nothing error-toned: the board shows her turn
    assert world.domain_errors() == []
    after = await world.match(match.id)
    assert after.state.turn == 1 and after.state.mover == 1
    assert world.message(board.id).content == f"{world.bob.mention}, your move."


async def test_an_idle_player_loses_on_time(world: World) -> None:
    match = await world.challenge()
    board = await world.board(match.id)

    await world.advance(TURN_TIMEOUT + TURN_TIMEOUT / 10)

    over = world.message(board.id)
    assert text(over).splitlines()[0] == "⏰ **alice** ran out of time: **bob** wins, 0\u20130."
    assert labels(over) == ["Rematch", "Verify dice"]  # no turn was played: nothing to analyse
    assert (await world.match(match.id)).status is MatchStatus.TIMEOUT


async def test_forfeit_gives_the_game_away(world: World) -> None:
    match = await world.challenge()

    result = await world.bob.slash(world.channel, "hog forfeit")

    assert said(result) == "You gave up. Good game!"
    over = await world.board(match.id)
    assert text(over).splitlines()[0] == "🏳️ **bob** gave up: **alice** wins, 0\u20130."
    assert "Verify dice" in labels(over)


async def test_forfeit_withdraws_a_challenge(world: World) -> None:
    await world.alice.slash(world.channel, "hog challenge", opponent=world.bob)
    challenge = world.channel.last_message

    result = await world.bob.slash(world.channel, "hog forfeit")

    assert said(result) == "You withdrew the challenge."
    assert text(world.message(challenge.id)).splitlines()[-1] == "**bob** declined the challenge."


async def test_forfeit_without_a_game(world: World) -> None:
    result = await world.carol.slash(world.channel, "hog forfeit")
    assert said(result) == (
        f"You have no open game in this channel: start one with {mention(world, 'hog vs-bot')} or "
        f"{mention(world, 'hog challenge')}."
    )
    assert world.domain_errors() == [plain(said(result))]


async def test_two_presses_at_once_play_one_turn(world: World) -> None:
    match = await world.challenge()
    board = await world.board(match.id)
    as_rendered = world.rendering(board)

    presses = await asyncio.gather(
        world.press_stale(world.alice, as_rendered, "Roll 3"),
        world.press_stale(world.alice, as_rendered, "Roll 5"),
    )

    # The turn's press is followed by bob's notice; the second is her own repeated press: silent.
    assert sorted(len(press.followups) for press in presses) == [0, 1]
    assert world.domain_errors() == []
    assert [turn.result.before.turn for turn in await world.service.turns(match.id)] == [0]
    assert world.message(board.id).content == f"{world.bob.mention}, your move."
