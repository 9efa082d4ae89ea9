"""Who is told it is their move, from the stored turns (so a restart or another process decides the same):
the person the turn passed to from the other person, once for a run of turns (an extra turn is not
announced again), never against the house bot, never someone who turned notices off; a closed game's
notice is taken down."""

from bot.services import GameService, TurnNotice
from tests.helpers import ALICE, BOB, CHANNEL

FREE_BACON = 0  # no dice: 6-0, then 6-5 (bob goes again: Pig Pass), then 6-10


async def test_who_is_told_it_is_their_move(service: GameService) -> None:
    match = await service.accept((await service.challenge(CHANNEL, ALICE, BOB)).id, BOB.id)
    assert await service.notice(match, acting=BOB.id) == TurnNotice(ALICE, since=0, stale=None)
    assert await service.notice(match, acting=ALICE.id) == TurnNotice(
        None, since=0, stale=None
    )  # she sees it
    await service.noticed(match.id, 0, 500)
    assert await service.notice(match) is None  # the board shown again: decided already

    passed = (await service.play(match.id, ALICE.id, 0, FREE_BACON)).match
    assert await service.notice(passed, acting=ALICE.id) == TurnNotice(BOB, since=1, stale=500)
    await service.noticed(match.id, 1, 501)
    again = (await service.play(match.id, BOB.id, 1, FREE_BACON)).match
    assert again.state.mover == 1 and await service.notice(again) is None  # an extra turn

    await service.set_turn_notices(ALICE, wanted=False)
    back = (await service.play(match.id, BOB.id, 2, FREE_BACON)).match
    assert await service.notice(back) == TurnNotice(None, since=3, stale=501)
    await service.set_turn_notices(ALICE, wanted=True)
    assert await service.notice(back) == TurnNotice(ALICE, since=3, stale=501)
    await service.noticed(match.id, 3, 502)

    closed = await service.forfeit(match.id, BOB.id)
    assert await service.notice(closed) == TurnNotice(None, since=closed.state.turn, stale=502)
    await service.noticed(match.id, closed.state.turn, None)
    assert await service.notice(closed) is None


async def test_nobody_is_told_in_a_game_against_the_house_bot(service: GameService) -> None:
    match = await service.vs_bot(CHANNEL, ALICE)
    assert await service.notice(match) is None
    played = (await service.play(match.id, ALICE.id, 0, FREE_BACON)).match
    assert played.is_bot_turn and await service.notice(played) is None
    await service.bot_turn(match.id)
    assert await service.notice(await service.get(match.id)) is None
