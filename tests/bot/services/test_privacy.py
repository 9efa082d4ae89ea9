"""Forget-me: the user's strategies go, their records stay for others under an anonymous player."""

import pytest

from bot.domain.errors import StillPlaying
from bot.domain.strategies import BotStrategy
from bot.services import GameService
from bot.services.privacy import DELETED_STRATEGY, FORGOTTEN_NAME, PrivacyService
from bot.services.ratings import RatingService
from bot.services.strategies.service import StrategyService
from bot.storage import Database
from bot.storage import strategies as strategy_table
from bot.storage.privacy import CLEARED, DELETED, REPOINTED
from tests.catalog import references
from tests.helpers import ALICE, BOB, CHANNEL, GUILD, ROLL_4, Duel, FakeClock, PlayOut, upload_file


async def test_forget_me(
    *,
    service: GameService,
    strategies: StrategyService,
    ratings: RatingService,
    privacy: PrivacyService,
    db: Database,
    clock: FakeClock,
    duel: Duel,
    play_out: PlayOut,
) -> None:
    kept = await upload_file(strategies, GUILD, BOB, "bob.py", ROLL_4)
    mine = await upload_file(strategies, GUILD, ALICE, "mine.py", ROLL_4)
    clock.advance(60)
    await upload_file(strategies, GUILD, ALICE, "mine.py", ROLL_4)  # a second version: history goes too
    versus = await service.vs_bot(CHANNEL, BOB, "swine-align")
    stored = mine.strategy
    assert stored.table is not None
    await db.write(
        lambda conn: strategy_table.insert_bot_strategy(
            conn, versus.id, BotStrategy(stored.id, "mine", stored.table)
        )
    )
    await play_out(versus)
    match = await duel(ALICE, BOB)
    before = await ratings.stats(BOB, GUILD)

    forgotten = await privacy.forget(ALICE.id)

    assert (forgotten.strategies_deleted, forgotten.matches_anonymised) == (2, 1)
    assert [s.id for s in await strategies.active(GUILD)] == [kept.strategy.id]
    assert await strategies.history(GUILD, "mine") == []
    kept_copy = await strategy_table.bot_strategy(db, versus.id)  # the game keeps its copy, unnamed
    assert kept_copy == BotStrategy(None, DELETED_STRATEGY, stored.table)
    assert (kept_copy.table == stored.table).all()
    assert await db.fetch_all("SELECT * FROM players WHERE id = ?", (ALICE.id,)) == []
    for table, column in REPOINTED:
        assert await db.fetch_all(f"SELECT * FROM {table} WHERE {column} = ?", (ALICE.id,)) == []
    bob_history = await ratings.history(BOB.id, GUILD)
    assert bob_history[0].match_id == match.id and bob_history[0].opponent == FORGOTTEN_NAME
    after = await ratings.stats(BOB, GUILD)
    assert (after.games, after.wins, after.ratings, after.rating_history) == (
        before.games,
        before.wins,
        before.ratings,
        before.rating_history,
    )
    assert [entry.player.id for entry in await ratings.leaderboard()] == [BOB.id]
    alice = await ratings.stats(ALICE, GUILD)
    assert (alice.games, alice.ratings, alice.rating_history) == (0, (), ())
    assert (await privacy.forget(ALICE.id)).matches_anonymised == 0  # nothing left to forget


async def test_not_while_playing(service: GameService, privacy: PrivacyService) -> None:
    await service.challenge(CHANNEL, ALICE, BOB)
    with pytest.raises(StillPlaying):
        await privacy.forget(BOB.id)


async def test_every_reference_to_a_player_is_handled(db: Database) -> None:
    to_players = {(table, column) for table, column, target in await references(db) if target == "players"}
    assert to_players == set(REPOINTED) | set(CLEARED) | set(DELETED)
