"""Challenges and turns through the service: who may do what, and what each refusal says."""

import hashlib

import pytest

from bot.services import (
    AlreadyPlaying,
    CannotChallenge,
    ChallengeClosed,
    GameService,
    HogError,
    IllegalChoice,
    MatchNotFound,
    MatchOver,
    MatchStatus,
    NotYourGame,
    NotYourTurn,
    StaleAction,
)
from hogengine.dice import commitment
from hogengine.errors import BadState, UnknownRules
from tests.helpers import ALICE, BOB, CAROL, CHANNEL, FakeClock, PlayOut

GUILD = 777


async def test_challenge_accept_and_first_turn(service: GameService, clock: FakeClock) -> None:
    match = await service.challenge(CHANNEL, ALICE, BOB, rules="pork-chop", goal=50, guild_id=GUILD)
    assert match.status is MatchStatus.PENDING and match.guild_id == GUILD
    assert (match.challenger, match.opponent) == (ALICE, BOB)
    assert match.challenge_expires_at == clock.now + service.timeouts.challenge_seconds
    assert match.seed_hash is None and match.turn_deadline is None

    match = await service.accept(match.id, BOB.id)
    assert match.status is MatchStatus.ACTIVE
    assert match.seed_hash == commitment(hashlib.sha256(b"hog-0").digest())  # the injected seed source
    assert match.seed is None
    assert match.player_to_move == ALICE and not match.is_bot_turn
    assert match.turn_deadline is None  # alice's clock starts when her board is shown
    clock.advance(5)
    await service.shown(service.on_screen(match))
    assert (await service.get(match.id)).turn_deadline == clock.now + service.timeouts.turn_seconds

    clock.advance(10)
    played = await service.play(match.id, ALICE.id, 0, 2)
    assert played.result.choice == 2 and played.result.before.turn == 0
    assert played.match.state == played.result.after
    (stored,) = await service.turns(match.id)
    assert stored.user_id == ALICE.id and stored.result == played.result
    assert played.match.turn_deadline is None


async def test_who_may_answer_a_challenge(service: GameService) -> None:
    match = await service.challenge(CHANNEL, ALICE, BOB)
    with pytest.raises(NotYourGame, match="Only bob can accept"):
        await service.accept(match.id, ALICE.id)
    with pytest.raises(NotYourGame, match="not playing"):
        await service.decline(match.id, CAROL.id)
    with pytest.raises(NotYourGame, match="Only alice can cancel"):
        await service.cancel(match.id, BOB.id)
    assert (await service.decline(match.id, BOB.id)).status is MatchStatus.DECLINED
    with pytest.raises(ChallengeClosed):
        await service.accept(match.id, BOB.id)

    again = await service.challenge(CHANNEL, ALICE, BOB)
    assert (await service.cancel(again.id, ALICE.id)).status is MatchStatus.CANCELLED


async def test_challenges_that_cannot_be_made(service: GameService) -> None:
    with pytest.raises(CannotChallenge, match="yourself"):
        await service.challenge(CHANNEL, ALICE, ALICE)
    with pytest.raises(CannotChallenge, match="vs-bot"):
        await service.challenge(CHANNEL, ALICE, BOB, opponent_is_bot=True)
    with pytest.raises(UnknownRules):
        await service.challenge(CHANNEL, ALICE, BOB, rules="snakes")
    with pytest.raises(BadState):
        await service.challenge(CHANNEL, ALICE, BOB, goal=0)
    with pytest.raises(CannotChallenge, match="easy, course, perfect"):
        await service.vs_bot(CHANNEL, ALICE, level="godlike")
    with pytest.raises(CannotChallenge, match="Unknown bot level 'strategy'"):  # only with a strategy
        await service.vs_bot(CHANNEL, ALICE, level="strategy")


async def test_one_open_match_per_player_and_channel(service: GameService) -> None:
    match = await service.challenge(CHANNEL, ALICE, BOB)
    with pytest.raises(AlreadyPlaying, match="bob already has a game"):
        await service.challenge(CHANNEL, CAROL, BOB)
    with pytest.raises(AlreadyPlaying, match=r"^You already have a game"):  # alice asked: "you"
        await service.vs_bot(CHANNEL, ALICE)
    other_channel = await service.vs_bot(CHANNEL + 1, ALICE)
    assert other_channel.status is MatchStatus.ACTIVE
    assert await service.open_match_in_channel(CHANNEL, BOB.id) == await service.get(match.id)
    assert await service.open_match_in_channel(CHANNEL, CAROL.id) is None
    await service.cancel(match.id, ALICE.id)
    assert (await service.challenge(CHANNEL, CAROL, BOB)).status is MatchStatus.PENDING


async def test_turn_refusals(service: GameService) -> None:
    match = await service.challenge(CHANNEL, ALICE, BOB, rules="swine-align")
    with pytest.raises(StaleAction):
        await service.play(match.id, ALICE.id, 0, 3)  # not started yet
    match = await service.accept(match.id, BOB.id)
    with pytest.raises(NotYourGame, match="not playing"):
        await service.play(match.id, CAROL.id, 0, 3)
    with pytest.raises(NotYourTurn, match="alice's turn"):
        await service.play(match.id, BOB.id, 0, 3)
    with pytest.raises(IllegalChoice):
        await service.play(match.id, ALICE.id, 0, -1)  # no Pork Chop in swine-align
    with pytest.raises(StaleAction, match="already played"):
        await service.play(match.id, ALICE.id, 5, 3)
    with pytest.raises(MatchNotFound):
        await service.play(9999, ALICE.id, 0, 3)
    assert (await service.get(match.id)).state.turn == 0


async def test_bot_game_and_bot_turn(service: GameService, play_out: PlayOut) -> None:
    match = await service.vs_bot(CHANNEL, ALICE, rules="piggy-back", level="course")
    assert match.players == (ALICE, None) and match.bot_seat == 1
    assert await service.bot_turn(match.id) is None  # the person moves first
    played = await service.play(match.id, ALICE.id, 0, 3)
    if played.match.is_bot_turn:
        assert played.match.turn_deadline is None
        bot = await service.bot_turn(played.match.id)
        assert bot is not None and (await service.turns(match.id))[-1].user_id is None
    finished = await play_out(await service.get(match.id))
    assert finished.status is MatchStatus.FINISHED and finished.seed is not None
    assert finished.winner_player in (ALICE, None)
    assert await service.bot_turn(match.id) is None


async def test_forfeit(service: GameService) -> None:
    match = await service.accept((await service.challenge(CHANNEL, ALICE, BOB)).id, BOB.id)
    with pytest.raises(NotYourGame):
        await service.forfeit(match.id, CAROL.id)
    match = await service.forfeit(match.id, BOB.id)
    assert (match.status, match.winner, match.winner_player) == (MatchStatus.FORFEIT, 0, ALICE)
    assert match.finished_at is not None and match.finished_at >= match.created_at
    assert match.seed is not None and match.turn_deadline is None
    with pytest.raises(MatchOver):
        await service.forfeit(match.id, ALICE.id)
    with pytest.raises(StaleAction):
        await service.play(match.id, ALICE.id, 0, 3)

    pending = await service.challenge(CHANNEL, ALICE, BOB)
    assert (await service.forfeit(pending.id, BOB.id)).status is MatchStatus.DECLINED


async def test_set_message(service: GameService, clock: FakeClock) -> None:
    match = await service.vs_bot(CHANNEL, ALICE)
    await service.set_message(service.on_screen(match), CHANNEL, 42)
    stored = await service.get(match.id)
    assert (stored.channel_id, stored.message_id, stored.version) == (CHANNEL, 42, match.version)
    assert stored.turn_deadline == clock.now + service.timeouts.turn_seconds  # the first turn's clock runs


async def test_error_texts_are_safe_to_show(service: GameService) -> None:
    """Refusals speak of people and games, never of SQL, tables or internal ids."""
    match = await service.challenge(CHANNEL, ALICE, BOB)
    attempts = [
        lambda: service.accept(match.id, CAROL.id),
        lambda: service.play(match.id, CAROL.id, 0, 1),
        lambda: service.get(123456),
        lambda: service.challenge(CHANNEL, ALICE, CAROL),
        lambda: service.hint(match.id, CAROL.id),
    ]
    for attempt in attempts:
        with pytest.raises(HogError) as caught:
            await attempt()
        text = str(caught.value)
        assert text.endswith(".") and len(text) < 200
        for leak in ("select", "update", "sqlite", "match_id", "version", str(match.id) + " ", "123456"):
            assert leak not in text.lower()


async def test_a_press_on_a_closed_game_is_a_late_press(service: GameService) -> None:
    match = await service.accept((await service.challenge(CHANNEL, ALICE, BOB)).id, BOB.id)
    await service.forfeit(match.id, BOB.id)
    with pytest.raises(MatchOver, match="This game is over"):
        await service.play(match.id, ALICE.id, 0, 3)


async def test_the_games_waiting_for_the_house_bot(service: GameService) -> None:
    waiting = await service.vs_bot(CHANNEL, ALICE)
    await service.play(waiting.id, ALICE.id, 0, 3)
    await service.vs_bot(CHANNEL + 1, ALICE)  # alice to move
    await service.accept((await service.challenge(CHANNEL + 2, ALICE, BOB)).id, BOB.id)
    assert await service.bot_turns_waiting() == [waiting.id]
    while await service.bot_turn(waiting.id) is not None:
        pass
    assert await service.bot_turns_waiting() == []


async def test_no_hint_before_the_challenge_is_accepted(service: GameService) -> None:
    match = await service.challenge(CHANNEL, ALICE, BOB)
    with pytest.raises(HogError, match="has not started yet") as caught:
        await service.hint(match.id, ALICE.id)
    assert not isinstance(caught.value, MatchOver)


async def test_calling_off_a_new_match(service: GameService) -> None:
    game = await service.vs_bot(CHANNEL, ALICE)
    challenge = await service.challenge(CHANNEL, BOB, CAROL)
    for match in (game, challenge):
        assert (await service.call_off(match.id)).status is MatchStatus.CANCELLED
    assert await service.open_match_in_channel(CHANNEL, ALICE.id) is None
    assert (await service.vs_bot(CHANNEL, ALICE)).status is MatchStatus.ACTIVE  # free to start again
    over = await service.forfeit((await service.vs_bot(CHANNEL + 1, BOB)).id, BOB.id)
    assert (await service.call_off(over.id)).status is MatchStatus.FORFEIT  # a closed game stays closed


async def test_export_only_from_the_server_of_the_game_or_by_its_players(service: GameService) -> None:
    match = await service.challenge(CHANNEL, ALICE, BOB, guild_id=GUILD)
    assert (await service.export(match.id, guild_id=GUILD, user_id=CAROL.id))["rules"] == "swine-align"
    assert (await service.export(match.id, guild_id=GUILD + 1, user_id=BOB.id))["turns"] == []
    with pytest.raises(NotYourGame, match="not played on this server"):
        await service.export(match.id, guild_id=GUILD + 1, user_id=CAROL.id)
