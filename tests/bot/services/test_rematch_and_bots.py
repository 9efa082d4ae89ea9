"""Rematches, bot levels and hints."""

import pytest

from bot.services import (
    HOUSE_LEVELS,
    GameService,
    HouseLevel,
    MatchStatus,
    NotYourTurn,
    RematchUnavailable,
    StaleAction,
)
from bot.services.games.house_bot import choose
from bot.services.solver import Solver
from hogengine.game import legal_choices, new_game
from tests.helpers import ALICE, BOB, CHANNEL, PlayOut


async def test_rematch_needs_both_votes_and_swaps_seats(service: GameService) -> None:
    match = await service.accept((await service.challenge(CHANNEL, ALICE, BOB, rules="pig-fest")).id, BOB.id)
    with pytest.raises(RematchUnavailable, match="still on"):
        await service.rematch(match.id, ALICE.id)
    match = await service.forfeit(match.id, ALICE.id)
    assert await service.rematch(match.id, BOB.id) is None
    assert await service.rematch(match.id, BOB.id) is None  # a repeated vote changes nothing
    assert (await service.get(match.id)).rematch_votes == (False, True)
    new = await service.rematch(match.id, ALICE.id)
    assert new is not None and new.status is MatchStatus.ACTIVE
    assert new.players == (BOB, ALICE) and new.rules == "pig-fest" and new.rematch_of == match.id
    assert new.seed_hash != match.seed_hash
    with pytest.raises(StaleAction):
        await service.rematch(match.id, ALICE.id)


async def test_rematch_against_the_bot_starts_at_once(service: GameService, play_out: PlayOut) -> None:
    match = await service.vs_bot(CHANNEL, ALICE, goal=20)
    assert match.rematch_votes == (False, True)  # the bot's vote is recorded when its game starts
    match = await play_out(match)
    new = await service.rematch(match.id, ALICE.id)
    assert new is not None and new.players == (None, ALICE) and new.bot_seat == 0
    assert new.is_bot_turn and new.turn_deadline is None
    assert (await play_out(new)).status is MatchStatus.FINISHED


async def test_no_rematch_of_a_declined_challenge(service: GameService) -> None:
    match = await service.decline((await service.challenge(CHANNEL, ALICE, BOB)).id, BOB.id)
    with pytest.raises(RematchUnavailable, match="no game"):
        await service.rematch(match.id, ALICE.id)


@pytest.mark.parametrize("level", HOUSE_LEVELS)
@pytest.mark.parametrize("rules", ["swine-align", "pork-chop", "piggy-back"])  # pig-fest: 9 s to solve
async def test_bots_choose_legal_moves(level: HouseLevel, rules: str) -> None:
    state = new_game(rules, 100, (37, 81))
    assert await choose(level, state, Solver()) in legal_choices(state)
    if level is HouseLevel.EASY:
        assert await choose(level, state, Solver()) == 4


async def test_hint_only_on_your_own_turn(service: GameService) -> None:
    match = await service.accept((await service.challenge(CHANNEL, ALICE, BOB)).id, BOB.id)
    with pytest.raises(NotYourTurn, match="own turn"):
        await service.hint(match.id, BOB.id)


async def test_perfect_bot_and_hints(service: GameService, play_out: PlayOut) -> None:
    match = await service.vs_bot(CHANNEL, ALICE, rules="swine-align", level="perfect")
    hint = await service.hint(match.id, ALICE.id)
    assert hint.best in hint.values and set(hint.values) <= set(legal_choices(match.state))
    assert 0 < hint.win_probability < 1
    assert max(hint.values.values()) == pytest.approx(hint.values[hint.best])
    assert (await play_out(match)).status is MatchStatus.FINISHED


async def test_a_called_off_rematch_is_undone(service: GameService) -> None:
    """A rematch nobody could see (its board could not be posted) leaves the old game to be voted again."""
    match = await service.forfeit(
        (await service.accept((await service.challenge(CHANNEL, ALICE, BOB)).id, BOB.id)).id, BOB.id
    )
    await service.rematch(match.id, BOB.id)
    new = await service.rematch(match.id, ALICE.id)
    assert new is not None

    called_off = await service.call_off(new.id)

    assert (called_off.status, called_off.rematch_of) == (MatchStatus.CANCELLED, None)
    assert (await service.get(match.id)).rematch_votes == (False, False)
    assert await service.rematch(match.id, ALICE.id) is None
    again = await service.rematch(match.id, BOB.id)
    assert again is not None and again.rematch_of == match.id and again.id != new.id
