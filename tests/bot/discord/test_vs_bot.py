"""Against the house bot: the bot moves by itself after each of the person's turns, at every level and
on every rule set, choosing from the whole state (hidden parts included) as its level says."""

from collections.abc import Callable

import pytest

from bot.services import Match
from hogengine.game import State, new_game, resolve
from hogengine.house import course_table
from hogengine.solver import solve
from tests.bot.discord.harness import World, labels, last_turn, replay, seat_lines, turn_of

Expected = Callable[[State], int]


def easy(state: State) -> int:
    return 4


def course(state: State) -> int:
    me, you = state.scores[state.mover], state.scores[1 - state.mover]
    return int(course_table(state.rules)[me, you])


def perfect(state: State) -> int:
    return solve(state.rules, state.goal).best_choice(state)


async def start(world: World, level: str, rules: str = "swine-align") -> Match:
    result = await world.alice.slash(world.channel, "hog vs-bot", rules=rules, level=level)
    assert result.response is not None
    match = await world.service.open_match_in_channel(world.channel.id, world.alice.id)
    assert match is not None and match.message_id == result.response.id
    return match


async def test_the_board_against_the_bot(world: World) -> None:
    match = await start(world, "easy")
    board = await world.board(match.id)
    assert seat_lines(board)["alice"].startswith("▶ alice · ") and "Hog Bot (easy)" in seat_lines(board)
    assert labels(board)[0] == "Free Bacon"

    await world.alice.click(board, label="Roll 2")

    after = world.message(board.id)
    assert after.content == f"{world.alice.mention}, your move."  # the bot has already answered
    assert turn_of(last_turn(after)) == ("Hog Bot (easy)", 4)


@pytest.mark.parametrize(
    "rules, level, expected",
    [
        ("swine-align", "easy", easy),
        ("swine-align", "course", course),
        ("swine-align", "perfect", perfect),
        ("pork-chop", "perfect", perfect),
        ("pig-fest", "perfect", perfect),
        ("piggy-back", "course", course),
    ],
)
async def test_the_bot_plays_its_level_to_the_end(
    world: World, rules: str, level: str, expected: Expected
) -> None:
    match = await start(world, level, rules)

    boards = await world.play_to_end(match.id, lambda state: 5)

    assert labels(boards[-1]) == ["Rematch", "Analysis", "Verify dice"]
    record = await world.export(match.id)
    assert replay(record)[-1]["over"]  # `hog replay` accepts the whole game
    state, bot_turns = new_game(rules), 0
    for turn in record["turns"]:
        if state.mover == 1:
            assert turn["choice"] == expected(state), f"turn {state.turn}"
            bot_turns += 1
        state = resolve(state, turn["choice"], turn["rolls"]).after
    assert bot_turns and state == (await world.match(match.id)).state
