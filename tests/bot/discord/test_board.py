"""The board as a student on a phone reads it: every roll since their last move, one button per action,
buttons that stay while the house moves, a short footer, hidden parts only once they matter, the dice
commitment and seed behind a button, and a first line and colour that say how the game ended."""

import re
from dataclasses import replace

import discord

from bot.discord import embeds, views
from bot.services import Match, MatchStatus
from hogengine.game import resolve
from tests.bot.discord.harness import World, labels, private, said, seat_lines, text, turns_shown

ROLL_4 = b"def final_strategy(score, opponent_score):\n    return 4\n"


def recent(message: discord.Message) -> list[str]:
    return turns_shown(message)


async def test_your_own_roll_stays_on_the_board_after_the_house_moves(world: World) -> None:
    match = await world.vs_bot("easy")

    await world.alice.click(await world.board(match.id), label="Roll 3")

    board = await world.board(match.id)
    turns = [turn.result for turn in await world.service.turns(match.id)]
    assert [turn.player for turn in turns] == [0, 1]  # alice, then the house: both on the board
    mine, house = recent(board)
    rolled = " ".join(map(str, turns[0].outcomes))
    assert mine.startswith(f"**alice** 🎲 {rolled} → +{turns[0].points}")
    assert house.startswith(f"**Hog Bot (easy)** 🎲 {' '.join(map(str, turns[1].outcomes))} → ")
    assert "6-sided" not in "\n".join(recent(board))


async def test_each_side_sees_the_turns_since_its_last_move(world: World) -> None:
    match = await world.challenge()
    board = await world.board(match.id)
    for person, label in ((world.alice, "Roll 1"), (world.bob, "Roll 2"), (world.alice, "Roll 3")):
        await person.click(world.message(board.id), label=label)

    lines = recent(world.message(board.id))  # bob to move: his last roll, and alice's since
    assert [line.split()[0] for line in lines] == ["**bob**", "**alice**"]
    assert lines[1].startswith("**alice** 🎲 ") and len(lines[1].split("→")[0].split()) == 2 + 3


def _buttons(view: discord.ui.View) -> list[discord.ui.Button[discord.ui.View]]:
    return [item.item for item in view.children if isinstance(item, views.PlayButton)]


def _house_to_move(match: Match) -> Match:
    """The game right after the person's roll, the house bot to move."""
    after = resolve(match.state, 2, (3, 4)).after
    return replace(match, state=after, turn_deadline=None)


async def test_the_buttons_stay_greyed_out_while_the_house_moves(world: World) -> None:
    match = await world.vs_bot("easy")
    yours = views.controls(match)
    waiting = _house_to_move(match)
    assert waiting.is_bot_turn

    greyed = views.controls(waiting)

    assert yours is not None and greyed is not None
    shown, before = _buttons(greyed), _buttons(yours)
    assert [(b.label, b.row) for b in shown] == [(b.label, b.row) for b in before]  # the same height
    assert all(button.disabled for button in shown) and not any(button.disabled for button in before)
    status = (embeds.board(waiting, []).description or "").splitlines()
    assert status[2:] == ["**Hog Bot (easy)** is rolling…"]  # after the seats' lines


async def test_a_spent_pork_chop_leaves_one_button_per_action(world: World) -> None:
    match = await world.challenge("pork-chop")
    board = await world.board(match.id)
    await world.alice.click(board, label="Pork Chop")
    await world.bob.click(world.message(board.id), label="Roll 3")

    mine = world.message(board.id)
    assert "Pork Chop" not in labels(mine) and "Roll 10 (-1)" not in labels(mine)
    assert labels(mine).count("Roll 10") == 1 and len(labels(mine)) == len(set(labels(mine)))
    assert seat_lines(mine)["alice"].endswith("\n↳ Pork Chop: used")
    assert "Pork Chop" not in seat_lines(mine)["bob"]  # still ready: nothing to say

    hint = said(await world.alice.slash(world.channel, "hog hint"))
    listed = re.findall(r"^\s*(Free Bacon|Roll \d+|Pork Chop)\s", hint, flags=re.MULTILINE)
    assert len(listed) == len(set(listed)) == 11 and "Pork Chop" not in listed

    await world.alice.click(mine, label="Roll 10")
    (chopped,) = [turn.result for turn in await world.service.turns(match.id)][-1:]
    assert chopped.choice == 10 and chopped.dice == 10


async def test_a_pig_fest_board_says_nothing_of_parts_at_their_start(world: World) -> None:
    match = await world.challenge("pig-fest")

    board = await world.board(match.id)

    said = text(board)
    assert "Ham Hijinks" not in said and "Pig Fest" not in said
    assert "0 times" not in said and "0 Pig Outs" not in said


async def test_the_footer_is_short_and_the_whole_commitment_is_behind_verify_dice(world: World) -> None:
    match = await world.challenge()
    board = await world.board(match.id)
    commitment = match.seed_hash
    assert commitment is not None
    assert commitment not in str(board.embeds[0].to_dict()) and "Verify dice" in labels(board)
    assert (board.embeds[0].footer.text or "") == f"Match {match.id} · turn 1 · dice {commitment[:8]}"

    verified = said(await world.carol.click(board, label="Verify dice"))  # anyone may look: privately
    assert f"`{commitment}`" in verified and "revealed when the game ends" in verified
    assert (await world.match(match.id)).state.turn == 0  # nothing was played

    await world.alice.click(board, label="Roll 2")
    playing = world.message(board.id)
    footer = playing.embeds[0].footer.text or ""
    assert footer == f"Match {match.id} · turn 2 · dice {commitment[:8]}" and len(footer) <= 60

    await world.bob.slash(world.channel, "hog forfeit")
    over = await world.match(match.id)
    finished = world.message(board.id)
    assert over.seed is not None and over.seed not in str(finished.embeds[0].to_dict())
    assert (finished.embeds[0].footer.text or "") == f"Match {match.id} · 1 turn · dice {commitment[:8]}"
    check = private(await world.alice.click(finished, label="Verify dice"))
    assert f"`{over.seed}`" in check.content and f"`{commitment}`" in check.content
    assert "/hog export:" in check.content and f"hog replay hog-match-{match.id}.json" in check.content


async def test_a_finished_board_names_the_winner_and_the_score_in_its_colour(world: World) -> None:
    match = await world.challenge(goal=5)
    boards = await world.play_to_end(match.id, lambda state: 10)
    over = await world.match(match.id)
    assert over.status is MatchStatus.FINISHED and over.winner is not None
    winner = over.seat_names[over.winner]
    scores = over.state.scores

    embed = boards[-1].embeds[0]

    assert embed.title == "Swine Align / Pig Pass · first to 5"  # one line on a phone: the rule set
    ending = f"🏆 **{winner}** reached 5 and wins, {scores[over.winner]}\u2013{scores[1 - over.winner]}."
    assert text(boards[-1]).splitlines()[0] == ending
    assert embed.colour == embeds.WON


async def test_a_forfeit_and_a_withdrawn_challenge_have_colours_of_their_own(world: World) -> None:
    match = await world.challenge()
    await world.alice.slash(world.channel, "hog forfeit")
    forfeit = await world.board(match.id)
    await world.alice.slash(world.channel, "hog challenge", opponent=world.bob)
    challenge = await world.service.open_match_in_channel(world.channel.id, world.alice.id)
    assert challenge is not None
    await world.alice.slash(world.channel, "hog forfeit")
    withdrawn = (await world.board(challenge.id)).embeds[0]

    assert text(forfeit).splitlines()[0] == "🏳️ **alice** gave up: **bob** wins, 0\u20130."
    assert forfeit.embeds[0].colour == embeds.LOST_BY_DEFAULT
    assert withdrawn.colour == embeds.CLOSED
    assert len({embeds.LIVE, embeds.WON, embeds.LOST_BY_DEFAULT, embeds.CLOSED}) == 4


async def test_a_stored_strategy_plays_under_its_name_and_its_owners(world: World) -> None:
    await world.upload(world.alice, "six.py", ROLL_4, name="Six Pack")

    await world.carol.slash(world.channel, "hog vs-bot", strategy="Six Pack")

    match = await world.service.open_match_in_channel(world.channel.id, world.carol.id)
    assert match is not None
    assert "Six Pack (alice's strategy)" in seat_lines(await world.board(match.id))


async def test_refusals_say_you_to_whoever_asked(world: World) -> None:
    await world.challenge()

    again = await world.alice.slash(world.channel, "hog vs-bot")
    theirs = await world.carol.slash(world.channel, "hog challenge", opponent=world.bob)

    assert said(again).startswith("You already have a game or challenge open in this channel")
    assert said(theirs).startswith("bob already has a game or challenge open in this channel")
    assert len(world.domain_errors()) == 2


async def test_analysing_a_live_game_says_to_finish_or_export_it(world: World) -> None:
    match = await world.challenge()

    answer = said(await world.alice.slash(world.channel, "hog analyze", match=match.id))
    missing = said(await world.alice.slash(world.channel, "hog analyze", match=999_999))

    assert "still being played" in answer and "</hog export:" in answer  # a tap away
    assert missing == "That game does not exist."
    assert len(world.domain_errors()) == 2


async def test_the_commentary_after_a_swap_is_a_swap_not_points(world: World) -> None:
    match = await world.challenge("pork-chop")
    board = await world.board(match.id)
    await world.alice.click(board, label="Roll 5")
    scored = (await world.match(match.id)).state.scores[0]
    assert scored > 0

    await world.bob.click(world.message(board.id), label="Pork Chop")  # no points: the scores trade places

    swapped = world.message(board.id)
    assert turns_shown(swapped)[-1] == "**bob** Pork Chop → scores swapped"
    lines = text(swapped).splitlines()
    assert f"bob takes the lead by {scored}" in lines  # true: the swap gave him the lead
    assert not any("The most yet for bob" in line for line in lines)  # but he scored no points


async def test_nothing_is_celebrated_on_a_pig_out_or_a_forfeit(world: World) -> None:
    match = await world.challenge()
    board = await world.board(match.id)
    pig_outs = 0
    while pig_outs < 2:  # ten dice a turn: Pig Outs soon, the first of a side's its record of points
        now = await world.match(match.id)
        assert now.player_to_move is not None
        await world.actor(now.player_to_move.id).click(world.message(board.id), label="Roll 10")
        if "Pig Out" in turns_shown(world.message(board.id))[-1]:
            pig_outs += 1
            assert "The most yet" not in text(world.message(board.id))

    await world.bob.slash(world.channel, "hog forfeit")

    over = text(world.message(board.id))
    assert "The most yet" not in over and "takes the lead" not in over
