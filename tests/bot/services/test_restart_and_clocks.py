"""Restarts resume every game, challenge and deadline; clocks expire challenges and time out turns."""

import pytest

from bot.config import Settings
from bot.services import ChallengeClosed, GameService, MatchStatus, Services, StaleAction
from tests.helpers import ALICE, BOB, CAROL, CHANNEL, FakeClock, PlayOut


async def test_restart_resumes_games_challenges_and_deadlines(
    settings: Settings, clock: FakeClock, play_out: PlayOut
) -> None:
    before_restart = await Services.open(settings.services, clock)
    first = before_restart.games
    challenge = await first.challenge(CHANNEL, ALICE, BOB)
    game = await first.vs_bot(CHANNEL + 1, CAROL, rules="pig-fest")
    game = (await first.play(game.id, CAROL.id, 0, 3)).match
    await first.set_message(first.on_screen(game), CHANNEL + 1, 77)
    before = {match.id: await first.get(match.id) for match in (challenge, game)}
    await before_restart.close()

    after_restart = await Services.open(settings.services, clock)
    second = after_restart.games
    try:
        after = {match.id: await second.get(match.id) for match in (challenge, game)}
        assert after == before
        assert after[game.id].message_id == 77 and len(await second.turns(game.id)) == 1
        assert await second.bot_turns_waiting() == [game.id]  # what a restarted bot resumes
        while (await second.get(game.id)).is_bot_turn:
            await second.bot_turn(game.id)
        await second.shown(second.on_screen(await second.get(game.id)))  # carol's turn on screen: her clock

        clock.advance(max(settings.challenge_timeout_seconds, settings.turn_timeout_seconds))
        closed = {match.id: match for match in await second.expire_due()}
        assert closed[challenge.id].status is MatchStatus.EXPIRED
        assert (closed[game.id].status, closed[game.id].winner_player) == (MatchStatus.TIMEOUT, None)
        with pytest.raises(ChallengeClosed):
            await second.accept(challenge.id, BOB.id)
    finally:
        await after_restart.close()


async def test_what_no_message_shows_yet_is_what_a_restart_shows(
    service: GameService, clock: FakeClock
) -> None:
    challenge = await service.challenge(CHANNEL, ALICE, BOB)  # stored; the bot died before posting it
    restarted = clock() + 1
    assert await service.unshown(restarted) == [challenge.id]
    assert await service.unshown(challenge.created_at) == []  # created since the start: its command posts it
    await service.set_message(challenge, CHANNEL, 42)
    assert await service.unshown(restarted) == []

    accepted = await service.accept(challenge.id, BOB.id)  # stored; the bot died before editing the board
    assert await service.unshown(restarted) == [challenge.id]
    await service.shown(accepted)
    assert await service.unshown(restarted) == []
    await service.shown(challenge)  # a slower render of the old state steps nothing back
    assert await service.unshown(restarted) == []

    gone = await service.challenge(CHANNEL + 1, CAROL, ALICE)
    await service.call_off(gone.id)  # its first message failed: closed, and nothing to show
    assert await service.unshown(restarted) == []


async def test_idle_turn_times_out_into_a_loss(service: GameService, clock: FakeClock) -> None:
    match = await service.accept((await service.challenge(CHANNEL, ALICE, BOB)).id, BOB.id)
    played = await service.play(match.id, ALICE.id, 0, 2)
    await service.shown(service.on_screen(played.match))
    mover = played.match.state.mover
    clock.advance(service.timeouts.turn_seconds - 1)
    assert await service.expire_due() == []
    clock.advance(1)
    person = played.match.player_to_move
    assert person is not None
    with pytest.raises(StaleAction, match="Time ran out"):
        await service.play(match.id, person.id, played.match.state.turn, 2)
    [closed] = await service.expire_due()
    assert (closed.status, closed.winner) == (MatchStatus.TIMEOUT, 1 - mover)
    assert closed.seed is not None and closed.turn_deadline is None
    assert await service.expire_due() == []
    with pytest.raises(StaleAction):
        await service.play(match.id, ALICE.id, closed.state.turn, 2)


async def test_a_turn_clock_runs_only_from_when_its_board_was_shown(
    service: GameService, clock: FakeClock
) -> None:
    turn = service.timeouts.turn_seconds
    accepted = await service.accept((await service.challenge(CHANNEL, ALICE, BOB)).id, BOB.id)
    played = await service.play(accepted.id, ALICE.id, 0, 2)  # bob's turn, stored; Discord shows nothing
    await service.set_message(service.on_screen(accepted), CHANNEL, 42)  # a late show of alice's turn
    assert (await service.get(accepted.id)).turn_deadline is None  # starts no clock for bob's

    clock.advance(10 * turn)
    assert await service.expire_due() == []
    assert await service.lagging() == [accepted.id]  # what the bot's clock redraws
    await service.shown(service.on_screen(played.match))  # bob's board is shown at last
    assert await service.lagging() == []
    clock.advance(turn - 1)
    assert await service.expire_due() == []
    clock.advance(1)
    [closed] = await service.expire_due()
    assert (closed.status, closed.winner_player) == (MatchStatus.TIMEOUT, ALICE)


async def test_a_challenge_past_its_expiry_cannot_be_accepted(service: GameService, clock: FakeClock) -> None:
    match = await service.challenge(CHANNEL, ALICE, BOB)
    clock.advance(service.timeouts.challenge_seconds)
    with pytest.raises(ChallengeClosed, match="expired"):
        await service.accept(match.id, BOB.id)


async def test_the_bot_never_times_out(service: GameService, clock: FakeClock, play_out: PlayOut) -> None:
    match = await service.vs_bot(CHANNEL, ALICE)
    while not match.is_bot_turn and match.status is MatchStatus.ACTIVE:
        match = (await service.play(match.id, ALICE.id, match.state.turn, 1)).match
    clock.advance(10 * service.timeouts.turn_seconds)
    assert await service.expire_due() == []
    assert (await play_out(match)).status is MatchStatus.FINISHED


def guild_on_shard(shard: int, count: int = 2, nth: int = 0) -> int:
    """A server id (as Discord makes them: a time in the high bits) that Discord puts on `shard`."""
    return ((1_100_000_000_000 + nth * count + shard) << 22) | 12345


async def test_each_process_tends_only_the_games_of_its_own_shards(
    settings: Settings, clock: FakeClock
) -> None:
    """Two processes of two shards on one database: each one's clock expires, and its house bot resumes,
    only the games of its own servers, so no game is closed or moved twice."""
    shard = [settings.model_copy(update={"shard_count": 2, "shard_ids": frozenset({n})}) for n in (0, 1)]
    opened = [await Services.open(shard[n].services, clock) for n in (0, 1)]
    try:
        games = [services.games for services in opened]
        challenges = [
            await games[0].challenge(CHANNEL + n, ALICE, BOB, guild_id=guild_on_shard(n)) for n in (0, 1)
        ]
        bot_games = [
            await games[0].vs_bot(CHANNEL + 2 + n, CAROL, guild_id=guild_on_shard(n, nth=1)) for n in (0, 1)
        ]
        direct = await games[1].challenge(CHANNEL + 4, CAROL, ALICE)  # no server: shard 0
        never_posted = [await games[n].unshown(clock() + 1) for n in (0, 1)]  # what each start would show
        assert never_posted == [
            [challenges[0].id, bot_games[0].id, direct.id],
            [challenges[1].id, bot_games[1].id],
        ]
        for n in (0, 1):
            await games[n].play(bot_games[n].id, CAROL.id, 0, 2)
        assert [await games[n].bot_turns_waiting() for n in (0, 1)] == [[bot_games[0].id], [bot_games[1].id]]
        clock.advance(settings.challenge_timeout_seconds)
        closed = [{match.id for match in await games[n].expire_due()} for n in (0, 1)]
        assert closed == [{challenges[0].id, direct.id}, {challenges[1].id}]
    finally:
        for services in opened:
            await services.close()


async def test_an_outage_of_the_records_costs_nobody_their_turn(
    service: GameService, clock: FakeClock, settings: Settings
) -> None:
    game = await service.accept((await service.challenge(CHANNEL, ALICE, BOB)).id, BOB.id)
    await service.shown(service.on_screen(game))  # alice's turn on screen: her clock runs
    running = await service.get(game.id)
    challenge = await service.challenge(CHANNEL + 1, CAROL, BOB)
    assert running.turn_deadline is not None and challenge.challenge_expires_at is not None

    await service.hold_clocks(down=True)  # the clock finds the records out of reach ...
    clock.advance(settings.turn_timeout_seconds + settings.challenge_timeout_seconds)
    await service.hold_clocks(down=True)
    await service.hold_clocks(down=False)  # ... and back, that much later

    lost = settings.turn_timeout_seconds + settings.challenge_timeout_seconds
    held = await service.get(game.id)
    assert held.turn_deadline == pytest.approx(running.turn_deadline + lost)
    assert (await service.get(challenge.id)).challenge_expires_at == pytest.approx(
        challenge.challenge_expires_at + lost
    )
    assert held.version > running.version  # its board is drawn again, with the new time
    assert await service.expire_due() == []  # nobody lost on time for the outage
    await service.hold_clocks(down=False)  # an answer with no outage before it moves nothing
    assert (await service.get(game.id)).turn_deadline == held.turn_deadline
