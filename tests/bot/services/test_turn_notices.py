"""Who is told of which moment, from the stored match and turns (so a restart or another process decides
the same), on both backends: the person the turn passed to from the other person, once for a run of turns
(an extra turn is not announced again), never against the house bot; a person whose turn runs out (at a
minute left, or a fifth of a short clock), against the house bot too; the person who did not end a game;
the challenger of a challenge declined or expired; the other side of a rematch one side wants; never someone
who turned notices off, nor the one who just pressed. Each moment is decided once."""

from bot.services import GameService, Moment, Notice
from bot.services.games.service import hurry_seconds
from tests.helpers import ALICE, BOB, CHANNEL, FakeClock

FREE_BACON = 0  # no dice: 6-0, then 6-5 (bob goes again: Pig Pass), then 6-10


async def test_who_is_told_it_is_their_move(service: GameService) -> None:
    match = await service.accept((await service.challenge(CHANNEL, ALICE, BOB)).id, BOB.id)
    assert await service.notice(match, acting=BOB.id) == Notice(ALICE, Moment.TURN, 0, None)
    assert await service.notice(match, acting=ALICE.id) == Notice(None, Moment.TURN, 0, None)  # she sees it
    await service.noticed(match.id, Notice(ALICE, Moment.TURN, 0, None), 500)
    assert await service.notice(match) is None  # the board shown again: decided already

    passed = (await service.play(match.id, ALICE.id, 0, FREE_BACON)).match
    assert await service.notice(passed, acting=ALICE.id) == Notice(BOB, Moment.TURN, 1, 500)
    await service.noticed(match.id, Notice(BOB, Moment.TURN, 1, 500), 501)
    again = (await service.play(match.id, BOB.id, 1, FREE_BACON)).match
    assert again.state.mover == 1 and await service.notice(again) is None  # an extra turn

    await service.set_turn_notices(ALICE, wanted=False)
    back = (await service.play(match.id, BOB.id, 2, FREE_BACON)).match
    assert await service.notice(back) == Notice(None, Moment.TURN, 3, 501)
    await service.set_turn_notices(ALICE, wanted=True)
    assert await service.notice(back) == Notice(ALICE, Moment.TURN, 3, 501)
    await service.noticed(match.id, Notice(ALICE, Moment.TURN, 3, 501), 502)

    closed = await service.forfeit(match.id, BOB.id)  # alice wins: she is told
    assert await service.notice(closed) == Notice(ALICE, Moment.END, closed.state.turn, 502)
    await service.noticed(match.id, Notice(ALICE, Moment.END, closed.state.turn, 502), 503)
    assert await service.notice(closed) is None


async def test_a_turn_running_out_is_told_once(service: GameService, clock: FakeClock) -> None:
    match = await service.accept((await service.challenge(CHANNEL, ALICE, BOB)).id, BOB.id)
    shown = service.on_screen(match)
    await service.set_message(shown, CHANNEL, 99)  # its board shows it: alice's clock runs
    decided = await service.notice(shown)
    assert decided == Notice(ALICE, Moment.TURN, 0, None)
    await service.noticed(match.id, decided, 600)
    hurry = hurry_seconds(service.timeouts.turn_seconds)
    assert (hurry_seconds(300), hurry_seconds(3600), hurry_seconds(12)) == (60, 60, 2.4)

    clock.advance(service.timeouts.turn_seconds - hurry - 1)
    assert await service.running_out() == []
    clock.advance(2)
    assert await service.running_out() == [match.id]
    now = await service.get(match.id)
    running_out = Notice(ALICE, Moment.HURRY, 0, 600)
    assert await service.notice(now, acting=ALICE.id) == Notice(None, Moment.HURRY, 0, 600)  # her own press
    assert await service.notice(now) == running_out
    await service.noticed(match.id, running_out, 601)
    assert await service.running_out() == [] and await service.notice(now) is None  # said once

    clock.advance(hurry)
    (lost,) = await service.expire_due()
    assert await service.notice(lost) == Notice(BOB, Moment.END, 0, 601)  # the winner, waiting


async def test_against_the_house_bot_only_its_clock_tells_the_person(
    service: GameService, clock: FakeClock
) -> None:
    match = await service.vs_bot(CHANNEL, ALICE)
    assert await service.notice(match) == Notice(None, Moment.TURN, 0, None)
    await service.set_message(service.on_screen(match), CHANNEL, 98)
    clock.advance(service.timeouts.turn_seconds - 30)
    assert await service.running_out() == [match.id]
    assert await service.notice(await service.get(match.id)) == Notice(ALICE, Moment.HURRY, 0, None)
    await service.noticed(match.id, Notice(ALICE, Moment.HURRY, 0, None), 700)
    clock.advance(30)
    (lost,) = await service.expire_due()
    assert await service.notice(lost) == Notice(ALICE, Moment.END, 0, 700)  # she ran out: she is told

    other = await service.vs_bot(CHANNEL, BOB)
    await service.play(other.id, BOB.id, 0, FREE_BACON)
    gave_up = await service.forfeit(other.id, BOB.id)
    assert await service.notice(gave_up) == Notice(None, Moment.END, 1, None)  # he did it himself


async def test_the_end_of_a_game_and_a_rematch_are_told_to_the_other_side(service: GameService) -> None:
    match = await service.accept((await service.challenge(CHANNEL, ALICE, BOB, goal=1)).id, BOB.id)
    over = (await service.play(match.id, ALICE.id, 0, FREE_BACON)).match  # 6 of 1: alice wins
    assert await service.notice(over, acting=ALICE.id) == Notice(BOB, Moment.END, 1, None)
    await service.noticed(match.id, Notice(BOB, Moment.END, 1, None), 800)

    assert await service.rematch(match.id, ALICE.id) is None
    voted = await service.get(match.id)
    assert await service.notice(voted, acting=ALICE.id) == Notice(BOB, Moment.REMATCH, 1, 800)
    await service.noticed(match.id, Notice(BOB, Moment.REMATCH, 1, 800), 801)
    assert await service.rematch(match.id, BOB.id) is not None
    assert await service.notice(await service.get(match.id)) == Notice(None, Moment.REMATCHED, 1, 801)


async def test_a_declined_or_expired_challenge_is_told_to_the_challenger(
    service: GameService, clock: FakeClock
) -> None:
    declined = await service.decline((await service.challenge(CHANNEL, ALICE, BOB)).id, BOB.id)
    assert await service.notice(declined, acting=BOB.id) == Notice(ALICE, Moment.END, 0, None)
    assert await service.notice(await service.challenge(CHANNEL, ALICE, BOB)) is None  # waiting: its own ping

    clock.advance(service.timeouts.challenge_seconds)
    (expired,) = await service.expire_due()
    assert await service.notice(expired) == Notice(ALICE, Moment.END, 0, None)
    cancelled = await service.cancel((await service.challenge(CHANNEL, BOB, ALICE)).id, BOB.id)
    assert await service.notice(cancelled) == Notice(None, Moment.END, 0, None)  # he withdrew it himself
