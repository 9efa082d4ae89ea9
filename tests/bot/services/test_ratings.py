"""Ratings of games between people (never against the bot), the leaderboard, stats and history."""

from collections import Counter

import pytest
from openskill.models import PlackettLuce

from bot.domain.ratings import RATING_SCALE
from bot.domain.strategies import BotStrategy
from bot.services import GameService, Match, MatchStatus, Player
from bot.services.ratings import RatingService
from bot.storage import Database
from bot.storage import strategies as strategy_table
from hogengine.events import EventKind
from hogengine.game import State
from hogengine.rules.pig_fest import MAX_STREAK
from hogengine.strategies import always_roll, table_from_function
from tests.helpers import ALICE, BOB, CAROL, CHANNEL, GUILD, Duel, FakeClock, PlayOut


async def beat(
    service: GameService,
    clock: FakeClock,
    winner: Player,
    loser: Player,
    *,
    guild_id: int | None = GUILD,
    moves: int = 2,
) -> Match:
    """A game between two people that `winner` wins by the loser's forfeit after `moves` turns of one die."""
    clock.advance(60)
    match = await service.challenge(CHANNEL, winner, loser, guild_id=guild_id)
    match = await service.accept(match.id, loser.id)
    for _ in range(moves):
        person = match.player_to_move
        assert person is not None
        match = (await service.play(match.id, person.id, match.state.turn, 1)).match
    return await service.forfeit(match.id, loser.id)


async def test_a_game_is_rated_only_once_both_players_moved(
    service: GameService, ratings: RatingService, clock: FakeClock
) -> None:
    farmed = await beat(service, clock, ALICE, BOB, moves=0)  # accepted, then given up at once
    one_sided = await beat(service, clock, ALICE, BOB, moves=1)
    played = await beat(service, clock, ALICE, BOB, moves=2)

    assert (farmed.winner, one_sided.winner) == (0, 0)
    assert await ratings.record() == [played.id]
    assert [entry.games for entry in await ratings.leaderboard("swine-align")] == [1, 1]


async def test_leaderboard_rates_people_only(
    service: GameService, ratings: RatingService, clock: FakeClock, play_out: PlayOut
) -> None:
    games = [(ALICE, BOB), (ALICE, CAROL), (BOB, CAROL), (ALICE, BOB)]
    ids = [(await beat(service, clock, winner, loser)).id for winner, loser in games]
    bot_game = await play_out(await service.vs_bot(CHANNEL, CAROL, "swine-align"))
    assert bot_game.status is MatchStatus.FINISHED
    assert await ratings.record() == ids
    assert await ratings.record() == []  # never twice
    model = PlackettLuce()
    expected = {player.id: model.rating() for player in (ALICE, BOB, CAROL)}
    for winner, loser in games:
        (won,), (lost,) = model.rate([[expected[winner.id]], [expected[loser.id]]], ranks=[0, 1])
        expected[winner.id], expected[loser.id] = won, lost
    board = await ratings.leaderboard("swine-align")
    assert [entry.player for entry in board] == [ALICE, BOB, CAROL]
    for entry in board:
        assert (entry.mu, entry.sigma) == pytest.approx(
            (expected[entry.player.id].mu, expected[entry.player.id].sigma)
        )
        # The one number players see: the ordinal (mu - 3 sigma) scaled, rounded and never negative.
        ordinal = expected[entry.player.id].ordinal()
        assert entry.score == max(0, round(ordinal * RATING_SCALE))
    assert [entry.games for entry in board] == [3, 3, 2]  # carol's bot game is not rated
    assert [(entry.wins, entry.losses) for entry in board] == [(3, 0), (1, 2), (0, 2)]
    assert expected[CAROL.id].ordinal() < 0 and board[-1].score == 0  # two losses: floored at 0
    assert await ratings.leaderboard("pork-chop") == []


async def test_a_servers_leaderboard_ranks_who_played_rated_games_there(
    service: GameService, ratings: RatingService, clock: FakeClock
) -> None:
    await beat(service, clock, ALICE, BOB, guild_id=GUILD)
    await beat(service, clock, CAROL, BOB, guild_id=GUILD + 1)
    await beat(service, clock, CAROL, ALICE, guild_id=None)  # stored before servers were: only global

    here = await ratings.leaderboard("swine-align", guild_id=GUILD)
    there = await ratings.leaderboard("swine-align", guild_id=GUILD + 1)
    everywhere = await ratings.leaderboard("swine-align")

    assert [entry.player for entry in here] == [entry.player for entry in everywhere if entry.player != CAROL]
    assert {entry.player for entry in there} == {BOB, CAROL}
    assert len(everywhere) == 3 and {e.games for e in everywhere} == {2}  # ratings themselves are global


def longest_pig_out_run(turns: list[tuple[int, bool]], seat: int) -> int:
    """The longest run of the seat's own turns that were Pig Outs."""
    best = run = 0
    for player, pigged in turns:
        if player == seat:
            run = run + 1 if pigged else 0
            best = max(best, run)
    return best


async def test_stats(
    service: GameService, ratings: RatingService, clock: FakeClock, duel: Duel, play_out: PlayOut
) -> None:
    def chop_twice_then_fours(state: State) -> int:
        return -1 if state.turn < 4 and state.mover == 0 else 4

    chops = await duel(ALICE, BOB, "pork-chop", chop_twice_then_fours)
    fest = await duel(ALICE, BOB, "pig-fest", lambda state: 10 if state.mover == 0 else 2)
    lost = await beat(service, clock, BOB, ALICE)
    clock.advance(60)
    bot_game = await service.vs_bot(CHANNEL, ALICE, "swine-align", guild_id=GUILD)
    bot_game = await play_out(bot_game, lambda state: 6)
    elsewhere = await beat(service, clock, ALICE, CAROL, guild_id=GUILD + 1)  # counted on its own server
    stats = await ratings.stats(ALICE, GUILD)
    played = (chops, fest, lost, bot_game)
    assert (stats.player, stats.games, stats.bot_games) == (ALICE, 4, 1)
    assert stats.wins == sum(1 for match in played if match.winner_player == ALICE)
    turns = [t.result for match in played for t in await service.turns(match.id) if t.user_id == ALICE.id]
    assert [turn.choice for turn in turns[:2]] == [-1, -1]
    assert stats.pork_chops == 1  # the first -1 chops; the second is played as 10 dice
    dice = Counter(turn.choice for turn in turns if turn.choice >= 0)
    dice[10] += 1  # the second -1 rolled ten dice
    assert stats.favourite_dice == dice.most_common(1)[0][0]
    pig_outs = [
        (t.result.player, any(e.kind is EventKind.PIG_OUT for e in t.result.events))
        for t in await service.turns(fest.id)
    ]
    # The streak the engine keeps: Pig Outs in a row, counted up to the cap where the multiplier stops.
    assert stats.longest_pig_fest_streak == min(longest_pig_out_run(pig_outs, 0), MAX_STREAK) >= 1
    assert [rating.rules for rating in stats.ratings] == ["pig-fest", "pork-chop", "swine-align"]
    rated = [chops.id, fest.id, lost.id, elsewhere.id]  # ratings are global, as on the leaderboard
    assert [change.match_id for change in stats.rating_history] == rated
    # Alice's first swine-align game was the forfeit she lost: her rating stays at its floor, 0, until the
    # win elsewhere lifts it.
    assert (stats.rating_history[-2].before, stats.rating_history[-2].after) == (0, 0)
    assert stats.rating_history[-1].after > stats.rating_history[-1].before == 0
    there = await ratings.stats(ALICE, GUILD + 1)
    assert (there.games, there.wins, there.rating_history) == (1, 1, stats.rating_history)


async def test_a_spent_pork_chop_counts_as_the_ten_dice_it_rolls(ratings: RatingService, duel: Duel) -> None:
    await duel(ALICE, BOB, "pork-chop", lambda state: -1 if state.mover == 0 else 4)
    assert (await ratings.stats(ALICE, GUILD)).favourite_dice == 10  # one chop, then -1 rolls 10 dice
    await duel(CAROL, BOB, "pig-fest", lambda state: -1 if state.mover == 0 else 3)
    assert (await ratings.stats(CAROL, GUILD)).favourite_dice is None  # Ham Hijinks chooses no dice


async def test_history_names_each_opponent(
    service: GameService,
    ratings: RatingService,
    db: Database,
    duel: Duel,
    play_out: PlayOut,
) -> None:
    first = await duel(ALICE, BOB)
    easy = await play_out(await service.vs_bot(CHANNEL, ALICE, "swine-align", guild_id=GUILD))
    await play_out(await service.vs_bot(CHANNEL, ALICE, "swine-align", guild_id=GUILD + 1))  # not here
    versus = await service.vs_bot(CHANNEL, ALICE, "swine-align", guild_id=GUILD)
    fours = BotStrategy(None, "Fours", table_from_function(always_roll(4), "swine-align"))
    await db.write(lambda conn: strategy_table.insert_bot_strategy(conn, versus.id, fours))
    versus = await play_out(versus)
    history = await ratings.history(ALICE.id, GUILD)
    assert [entry.match_id for entry in history] == [versus.id, easy.id, first.id]
    assert [entry.opponent for entry in history] == ["Fours (a stored strategy)", "Hog Bot (easy)", "bob"]
    assert [entry.won for entry in history] == [m.winner == 0 for m in (versus, easy, first)]
    assert history[2].scores == first.state.scores and history[2].seat == 0
    assert (await ratings.history(BOB.id, GUILD))[0].opponent == "alice"
    assert await ratings.history(ALICE.id, GUILD, limit=1) == history[:1]
