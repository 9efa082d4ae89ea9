"""Double clicks and concurrent presses: exactly one takes the turn, the rest are StaleAction."""

import asyncio

from bot.config import Settings
from bot.services import GameService, MatchStatus, Played, Services, StaleAction
from hogengine.game import new_game, resolve
from tests.helpers import ALICE, BOB, CAROL, CHANNEL, FakeClock


async def test_concurrent_presses_take_exactly_one_turn(service: GameService) -> None:
    match = await service.accept((await service.challenge(CHANNEL, ALICE, BOB)).id, BOB.id)
    presses = [service.play(match.id, ALICE.id, 0, choice) for choice in (1, 2, 3, 4, 5, 3, 3, 3)]
    outcomes = await asyncio.gather(*presses, return_exceptions=True)
    played = [outcome for outcome in outcomes if not isinstance(outcome, BaseException)]
    assert len(played) == 1
    assert all(isinstance(outcome, StaleAction) for outcome in outcomes if outcome not in played)
    turns = await service.turns(match.id)
    assert [turn.result.before.turn for turn in turns] == [0]
    assert (await service.get(match.id)).state == played[0].result.after


async def test_double_clicked_bot_turn_plays_once(service: GameService) -> None:
    match = await service.vs_bot(CHANNEL, ALICE)
    while not (await service.get(match.id)).is_bot_turn:
        current = await service.get(match.id)
        await service.play(match.id, ALICE.id, current.state.turn, 1)
    before = (await service.get(match.id)).state.turn
    results = await asyncio.gather(*(service.bot_turn(match.id) for _ in range(4)))
    assert sum(result is not None for result in results) >= 1
    turns = await service.turns(match.id)
    assert [turn.result.before.turn for turn in turns] == list(range(len(turns)))
    assert len(turns) - before == sum(result is not None for result in results)


async def test_two_services_on_one_file_never_lose_or_duplicate_a_turn(
    settings: Settings, clock: FakeClock
) -> None:
    """Both players' clients press the same button at once, one through each of two processes' services
    (which share no locks): the versioned UPDATE alone keeps one winner, the other press is stale, and the
    stored game is the replay of its turns."""
    one, other = await Services.open(settings.services, clock), await Services.open(settings.services, clock)
    first, second = one.games, other.games
    try:
        match = await first.accept((await first.challenge(CHANNEL, ALICE, BOB)).id, BOB.id)
        while match.status is MatchStatus.ACTIVE:
            person = match.player_to_move
            assert person is not None
            outcomes = await asyncio.gather(
                first.play(match.id, person.id, match.state.turn, 2),
                second.play(match.id, person.id, match.state.turn, 2),
                return_exceptions=True,
            )
            (played,) = [outcome for outcome in outcomes if isinstance(outcome, Played)]
            # Stale either way: refused by the versioned UPDATE when the presses overlap, or as a turn
            # already played when one finishes first (as a busy machine may have it).
            (refused,) = [outcome for outcome in outcomes if outcome is not played]
            assert isinstance(refused, StaleAction), refused
            match = played.match
        turns = await second.turns(match.id)
        assert [turn.result.before.turn for turn in turns] == list(range(match.state.turn))
        replayed = new_game(match.rules, match.goal)
        for record in turns:
            replayed = resolve(replayed, record.result.choice, record.result.outcomes).after
        assert replayed == match.state
    finally:
        await one.close()
        await other.close()


async def test_concurrent_challenges_leave_one_open_match(service: GameService) -> None:
    outcomes = await asyncio.gather(
        service.challenge(CHANNEL, ALICE, BOB),
        service.challenge(CHANNEL, ALICE, CAROL),
        service.vs_bot(CHANNEL, ALICE),
        return_exceptions=True,
    )
    (created,) = [outcome for outcome in outcomes if not isinstance(outcome, BaseException)]
    assert await service.open_match_in_channel(CHANNEL, ALICE.id) == created
    for other in (BOB, CAROL):
        found = await service.open_match_in_channel(CHANNEL, other.id)
        assert found is None or found == created
