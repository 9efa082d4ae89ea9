"""The live coach, for those who ask (`/hog coach on`): after each of their moves, once the opponent has
moved, a private follow-up to their press says which choices gave away winning chance against perfect play,
graded as lichess grades win-chance loss (an inaccuracy from 5 points, a mistake from 10, a blunder from
15) by the solver's exact costs, with the better choice and its chance; nothing for smaller losses, nothing
before the opponent's move, nothing for someone who did not ask; and a line summing up the game at its end.
The press itself is answered first: the coach never holds up the board."""

from pathlib import Path

import simcord

from bot.services import MatchStatus
from hogengine.analysis import coaching
from hogengine.game import State, TurnResult, choice_label
from hogengine.solver import Solution, solve
from tests.bot.discord.harness import World, said

MARK = "🎓 "


def private(result: simcord.InteractionResult) -> list[simcord.ResponseMessage]:
    """A press's private follow-ups (the coach's), not the other person's turn notice that follows it."""
    return [message for message in result.followups if message.ephemeral]


def coached(results: list[simcord.InteractionResult]) -> list[str]:
    """Every line the coach said in the follow-ups to these presses, in order (each private)."""
    lines = []
    for result in results:
        for message in result.followups:
            assert message.ephemeral
            lines += [line.removeprefix(MARK) for line in message.content.splitlines()]
    return lines


def graded(line: str, played: list[TurnResult], solution: Solution) -> None:
    """A coach's line says the grade the solver's exact cost of that turn's choice earns, and its chances."""
    number = int(line.split(":", maxsplit=1)[0].removeprefix("Turn "))
    turn = played[number - 1]
    values = solution.choice_values(turn.before)
    best = max(values.values())
    points = 100 * (best - values[turn.choice])
    grade = "blunder" if points >= 15 else "mistake" if points >= 10 else "inaccuracy"
    assert points >= 5, line
    assert f" was {'an' if grade == 'inaccuracy' else 'a'} {grade} against perfect play " in line
    assert f"({100 * values[turn.choice]:.1f}% to win)" in line and line.endswith(f"had {100 * best:.1f}%.")


def ten_dice(state: State) -> str:
    return choice_label(state, 10)


async def test_the_coach_grades_each_move_once_the_house_has_answered(world: World, solved: Path) -> None:
    on = await world.alice.slash(world.channel, "hog coach", setting="on")
    assert said(on).startswith("The coach is on.")
    match = await world.vs_bot()
    solution = solve("swine-align", 100, solved)
    presses: list[simcord.InteractionResult] = []

    while (now := await world.match(match.id)).status is MatchStatus.ACTIVE:
        presses.append(await world.alice.click(await world.board(match.id), label=ten_dice(now.state)))
        played = [turn.result for turn in await world.service.turns(match.id)]
        expected = [advice.text for advice in coaching(solution, played, [0])]
        heard = coached(presses)
        if (await world.match(match.id)).status is MatchStatus.ACTIVE:
            assert heard == expected  # each answered move, once, in order; nothing before the house moved
        for line in heard[: len(expected)]:
            graded(line, played, solution)

    assert heard[:-1] == expected and len(expected) >= 3  # ten dice a turn: graded often
    assert heard[-1].startswith("Your game against perfect play: accuracy ")


async def test_between_people_the_coach_waits_for_the_opponent_and_speaks_only_to_who_asked(
    world: World, solved: Path
) -> None:
    await world.alice.slash(world.channel, "hog coach", setting="on")
    match = await world.challenge()
    board = await world.board(match.id)

    first = await world.alice.click(board, label="Roll 3")  # 13 points of winning chance given away at 0-0

    assert first.acknowledged and private(first) == []  # bob has not moved yet
    second = await world.bob.click(world.message(board.id), label="Roll 3")  # the same, but bob did not ask
    (spoken,) = private(first)  # the coach answered alice's press, privately, once bob had moved
    assert spoken.ephemeral and spoken.content.startswith(
        f"{MARK}Turn 1: Roll 3 was a mistake against perfect play ("
    )
    graded(
        spoken.content.removeprefix(MARK),
        [t.result for t in await world.service.turns(match.id)],
        solve("swine-align", 100, solved),
    )
    assert private(second) == []

    callbacks = [r for r in world.env.http_requests if r.path.endswith("/callback") or "/webhooks/" in r.path]
    order = [(r.method, "@original" in r.path) for r in callbacks]
    assert ("PATCH", True) in order  # the press's own answer: the board, edited...
    board_edit = order.index(("PATCH", True))
    coach_post = max(at for at, r in enumerate(callbacks) if r.method == "POST" and MARK in str(r.json))
    assert board_edit < coach_post  # ...before the coach spoke

    await world.alice.slash(world.channel, "hog coach", setting="off")
    later = []
    for _ in range(6):  # a few more turns each, Roll 3 every time: as costly as before
        now = await world.match(match.id)
        if now.player_to_move is None:
            break
        later.append(await world.actor(now.player_to_move.id).click(world.message(board.id), label="Roll 3"))
    assert len(later) > 2 and all(private(press) == [] for press in later)  # off: nothing more
