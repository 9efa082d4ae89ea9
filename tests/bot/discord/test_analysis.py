"""After a game, the Analysis button (for anyone) and `/hog analyze` show privately how the exact chances
moved and what each choice cost: the solver's own values at every position of the game."""

from collections.abc import Callable
from typing import Any

import pytest

from bot.services import Player
from hogengine.analysis import MISTAKE
from hogengine.game import State, choice_label, new_game
from hogengine.replay import GameRecord, Turn, replay
from hogengine.rules import get_rules
from hogengine.solver import solve
from hogengine.text import counted
from tests.bot.discord.conftest import GUILD_ID
from tests.bot.discord.harness import World, mention, picture, plain, private, private_embed, said


def tens_then_fives(state: State) -> int:
    return 10 if state.mover == 0 else 5


def chops_then_fives(state: State) -> int:
    """alice plays her Pork Chop first, then ten dice every turn (the board's one button for -1 and 10)."""
    if state.mover == 1:
        return 5
    return 10 if state.hidden_by_name()["pork_chop"][0] else -1


def solvers_view(
    record: dict[str, Any], winner: int
) -> tuple[list[float], dict[int, list[tuple[float, str]]]]:
    """Player 0's chance before each turn and at the end, and each seat's (cost, mistake line) per choice:
    the solver's values of the full states (hidden parts too) the engine replays from the export."""
    rules, goal = record["rules"], record["goal"]
    solution = solve(rules, goal)
    turns = tuple(Turn(turn["choice"], tuple(turn["rolls"])) for turn in record["turns"])
    series: list[float] = []
    choices: dict[int, list[tuple[float, str]]] = {0: [], 1: []}
    for result in replay(GameRecord(new_game(rules, goal), turns)):
        state, seat = result.before, result.player
        chance = solution.win_probability(state)
        series.append(chance if seat == 0 else 1 - chance)
        values = solution.choice_values(state)
        best = max(values, key=lambda choice: values[choice])
        me, you = state.scores[seat], state.scores[1 - seat]
        line = (
            f"turn {state.turn + 1} at {me}-{you}: **{choice_label(state, result.choice)}** "
            f"({values[result.choice]:.1%}) instead of **{choice_label(state, best)}** ({values[best]:.1%})"
        )
        choices[seat].append((values[best] - values[result.choice], line))
    series.append(1.0 if winner == 0 else 0.0)
    return series, choices


def alt_text(name: str, chances: list[float], choices: list[tuple[float, str]]) -> str:
    """The chart's description for one seat: its chance in percent and the turns of its listed mistakes
    (the worst three of at least MISTAKE, as the embed lists them)."""
    worst = sorted((c for c in choices if c[0] >= MISTAKE), key=lambda c: -c[0])[:3]
    turns = sorted(int(line.split()[1]) for _, line in worst)  # each line starts "turn N at"
    mistakes = (
        f"{counted(len(turns), 'mistake')} marked, on {'turn' if len(turns) == 1 else 'turns'} "
        f"{', '.join(map(str, turns))}"
        if turns
        else "no mistakes"
    )
    return (
        f"{name}'s chance to win over {counted(len(chances) - 1, 'turn')}: it ranged from "
        f"{min(chances):.0f}% to {max(chances):.0f}% and ended at {chances[-1]:.0f}%; {mistakes}."
    )


@pytest.mark.parametrize(
    ("rules", "choose"),
    [("swine-align", tens_then_fives), ("pork-chop", chops_then_fives), ("pig-fest", tens_then_fives)],
)
async def test_the_analysis_of_a_finished_game_is_the_solvers(
    world: World, rules: str, choose: Callable[[State], int]
) -> None:
    match = await world.challenge(rules)
    boards = await world.play_to_end(match.id, choose)

    pressed = await world.carol.click(boards[-1], label="Analysis")  # anyone may look, privately

    callback = [r.json for r in world.env.http_requests if r.path.endswith("/callback")][-1]
    assert callback == {"type": 5, "data": {"flags": 64}}  # "thinking…": the first solve may take seconds
    finished = await world.match(match.id)
    assert finished.winner is not None
    series, choices = solvers_view(await world.export(match.id), finished.winner)
    assert any(cost >= MISTAKE for cost, _ in choices[0])  # alice's habit costs her: mistakes to see
    (chart,) = private(pressed).attachments
    await picture(chart)
    # carol did not play: she sees player 0's chance, and the turns of alice's listed mistakes marked.
    assert chart.description == alt_text("alice", [100 * p for p in series], choices[0])
    embed = private_embed(pressed)
    assert embed.title == f"Analysis · match {match.id} ({get_rules(rules).name})"
    assert embed.description == (  # one measure, explained once
        "Accuracy is 100% when every choice was the best one; each choice that gave away some chance to win "
        "lowers it. The chances are exact, worked out by the solver."
    )
    for field, (seat, name) in zip(embed.fields, enumerate(("alice", "bob")), strict=True):
        costs = [cost for cost, _ in choices[seat]]
        assert field.name == f"{name}: accuracy {1 - sum(costs) / len(costs):.1%}"
        worst = sorted((c for c in choices[seat] if c[0] >= MISTAKE), key=lambda c: -c[0])[:3]
        lines = (field.value or "").splitlines()
        assert len(costs) > 1 and lines[0] == f"{len(costs)} choices."
        assert lines[1:] == (
            [line for _, line in worst] or ["No mistakes: every choice within 0.5% of the best."]
        )
    assert embed.fields[0].value != embed.fields[1].value
    if rules == "pork-chop":  # the ten dice after the Pork Chop, named as the board's button was
        assert "**Roll 10**" in (embed.fields[0].value or "")

    asked = await world.alice.slash(world.channel, "hog analyze", match=match.id)

    again = private_embed(asked)
    assert [(f.name, f.value) for f in again.fields] == [(f.name, f.value) for f in embed.fields]
    assert private(asked).attachments[0].description == chart.description
    bobs = await world.bob.slash(world.channel, "hog analyze", match=match.id)
    bobs_chances = [100 - 100 * p for p in series]  # bob asked: his own chance, his own mistakes
    assert private(bobs).attachments[0].description == alt_text("bob", bobs_chances, choices[1])


async def test_nothing_to_analyse(world: World) -> None:
    unplayed = await world.challenge()
    await world.alice.slash(world.channel, "hog forfeit")  # over before anyone rolled

    empty = await world.alice.slash(world.channel, "hog analyze", match=unplayed.id)
    unknown = await world.alice.slash(world.channel, "hog analyze", match=unplayed.id + 1)

    assert said(empty) == "No turns were played in this game."
    assert said(unknown) == "That game does not exist."
    assert world.domain_errors() == [said(empty), said(unknown)]


async def test_only_finished_games_of_this_server_or_ones_own(world: World) -> None:
    away = await world.service.challenge(1, Player(5001, "x"), Player(5002, "y"), guild_id=GUILD_ID + 1)
    away = await world.service.accept(away.id, 5002)
    await world.service.play(away.id, 5001, 0, 5)
    await world.service.forfeit(away.id, 5002)
    live = await world.challenge()
    await world.alice.click(await world.board(live.id), label="Roll 5")

    foreign = await world.carol.slash(world.channel, "hog analyze", match=away.id)
    running = await world.carol.slash(world.channel, "hog analyze", match=live.id)

    assert said(foreign) == "That game was not played on this server: only its players can analyse it here."
    assert said(running) == (
        "This game is still being played: its analysis would tell both sides their chances. Finish it "
        f"first, or take its record so far with {mention(world, 'hog export')}."
    )
    assert private(running).embeds == [] and private(running).attachments == []
    assert world.domain_errors() == [
        said(foreign),
        plain(said(running)).replace("/hog export", "`/hog export`"),
    ]
