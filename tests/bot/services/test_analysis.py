"""Analysis of stored games: the series and the costs are the solver's own values at the replayed states."""

import pytest

from bot.domain.errors import GameNotOver, NothingToAnalyse
from bot.services import GameService, MatchNotFound, NotYourGame
from bot.services.analysis import AnalysisService
from hogengine.analysis import MISTAKE
from hogengine.game import new_game
from hogengine.solver import solve
from tests.helpers import ALICE, BOB, CAROL, CHANNEL, GUILD, PlayOut


async def test_series_and_costs_are_the_solvers_values(
    service: GameService, play_out: PlayOut, analysis: AnalysisService
) -> None:
    match = await service.vs_bot(CHANNEL, ALICE, "swine-align", level="perfect")
    match = await play_out(match, lambda state: 10 if state.scores[0] % 2 else 3)
    found = await analysis.analyse(match.id, guild_id=GUILD, user_id=ALICE.id)
    turns = await service.turns(match.id)
    results = [turn.result for turn in turns]
    assert results[0].before == new_game("swine-align") and results[-1].after == match.state
    solution = solve("swine-align")
    expected = []
    for result in results:
        chance = solution.win_probability(result.before)
        expected.append(chance if result.before.mover == 0 else 1 - chance)
    expected.append(1.0 if match.winner == 0 else 0.0)
    assert found.analysis.series == pytest.approx(expected, abs=0)
    assert found.names == ("alice", "Hog Bot (perfect)")
    for move, result in zip(found.analysis.moves, results, strict=True):
        values = solution.choice_values(result.before)
        assert (move.player, move.choice, move.scores) == (result.player, result.choice, result.before.scores)
        assert move.value == values[result.choice] and move.best_value == max(values.values())
        assert move.cost == pytest.approx(max(values.values()) - values[result.choice], abs=1e-15)
    person, bot = found.analysis.players
    assert bot.expected_loss == 0 and bot.accuracy == 100 and bot.mistakes == ()
    mine = [move for move in found.analysis.moves if move.player == 0]
    assert person.moves == len(mine)
    assert person.expected_loss == pytest.approx(sum(move.cost for move in mine))
    assert person.accuracy == pytest.approx(100 * (1 - person.expected_loss / len(mine)))
    costs = sorted((move.cost for move in mine if move.cost >= MISTAKE), reverse=True)[:3]
    assert [move.cost for move in person.mistakes] == costs


async def test_a_forfeit_ends_the_series_with_the_result(
    service: GameService, analysis: AnalysisService
) -> None:
    match = await service.challenge(CHANNEL, ALICE, BOB, rules="pork-chop")
    match = await service.accept(match.id, BOB.id)
    await service.play(match.id, ALICE.id, 0, 5)
    forfeited = await service.forfeit(match.id, ALICE.id)
    found = await analysis.analyse(match.id, guild_id=GUILD, user_id=ALICE.id)
    assert forfeited.winner == 1 and len(found.analysis.series) == forfeited.state.turn + 1
    assert found.analysis.series[-1] == 0.0
    assert found.names == ("alice", "bob")


async def test_nothing_to_analyse(service: GameService, analysis: AnalysisService) -> None:
    match = await service.challenge(CHANNEL, ALICE, BOB)
    with pytest.raises(GameNotOver):  # a challenge is not over: no word of turns yet
        await analysis.analyse(match.id, guild_id=GUILD, user_id=ALICE.id)
    await service.accept(match.id, BOB.id)
    await service.forfeit(match.id, ALICE.id)
    with pytest.raises(NothingToAnalyse):
        await analysis.analyse(match.id, guild_id=GUILD, user_id=ALICE.id)
    with pytest.raises(MatchNotFound):
        await analysis.analyse(match.id + 1, guild_id=GUILD, user_id=ALICE.id)


async def test_only_a_game_of_this_server_or_ones_own_and_only_once_it_is_over(
    service: GameService, analysis: AnalysisService
) -> None:
    match = await service.challenge(CHANNEL, ALICE, BOB, guild_id=GUILD)
    match = await service.accept(match.id, BOB.id)
    await service.play(match.id, ALICE.id, 0, 5)
    with pytest.raises(GameNotOver, match=r"still being played.*/hog export"):
        await analysis.analyse(match.id, guild_id=GUILD, user_id=CAROL.id)
    await service.forfeit(match.id, BOB.id)

    with pytest.raises(NotYourGame, match="not played on this server: only its players can analyse it"):
        await analysis.analyse(match.id, guild_id=GUILD + 1, user_id=CAROL.id)
    assert (await analysis.analyse(match.id, guild_id=GUILD + 1, user_id=BOB.id)).match.id == match.id
    assert (await analysis.analyse(match.id, guild_id=GUILD, user_id=CAROL.id)).match.id == match.id
