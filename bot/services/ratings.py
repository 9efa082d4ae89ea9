"""Ratings (openskill, Plackett-Luce) of games between people, leaderboards, stats and game history.

Games against the house bot, or a stored strategy, are never rated, nor are games in which either player
never moved (accepted and given up at once, or timed out on the first turn): no free rating from a
no-show. Stats read the stored matches and turns and the events the engine recorded with them.
"""

import asyncio
import time
from collections import Counter
from functools import partial

from openskill.models import PlackettLuce

from bot.domain.matches import Match, Player
from bot.domain.ratings import HistoryEntry, Rating, Stats
from bot.services.clock import Clock
from bot.storage import Connection, Database
from bot.storage import ratings as rating_table
from hogengine.events import EventKind
from hogengine.rules import DEFAULT_RULES, get_rules
from hogengine.rules.pig_fest import STREAK


def _entry(match: Match, player_id: int) -> HistoryEntry:
    seat = _seat(match, player_id)
    return HistoryEntry(
        match.id,
        match.rules,
        match.goal,
        match.status,
        seat,
        match.seat_name(1 - seat),
        match.winner == seat,
        match.state.scores,
        match.finished_at,
    )


def _seat(match: Match, player_id: int) -> int:
    """The player's seat (a forgotten player's games name someone else in both)."""
    return 0 if match.players[0] is not None and match.players[0].id == player_id else 1


class RatingService:
    """Ratings per rule set; `record()` rates every finished game between people not yet rated."""

    def __init__(self, db: Database, clock: Clock = time.time, model: PlackettLuce | None = None) -> None:
        self._db = db
        self._clock = clock
        self._model = model or PlackettLuce()
        self._lock = asyncio.Lock()

    async def record(self) -> list[int]:
        """Rate, oldest first, every played game between two people who both moved, not rated yet; the ids
        rated.

        Call it whenever a game ends (cheap when there is nothing to do); reruns never rate twice.
        """
        async with self._lock:
            rated = []
            for match in await rating_table.unrated_matches(self._db):
                if await self._db.write(partial(self._rate, match, self._clock())):
                    rated.append(match.id)
            return rated

    async def _rate(self, match: Match, now: float, conn: Connection) -> bool:
        """Update both players' ratings for one match, inside the transaction; False if already rated (by
        this process or another)."""
        await rating_table.lock_ratings(conn)
        if await rating_table.is_rated(conn, match.id):
            return False
        players = [player.id for player in match.players if player is not None]
        before = []
        for player_id in players:
            known = await rating_table.rating(conn, player_id, match.rules)
            before.append(self._model.rating() if known is None else self._model.rating(*known))
        ranks = [0.0 if seat == match.winner else 1.0 for seat in (0, 1)]
        after = self._model.rate([[before[0]], [before[1]]], ranks=ranks)
        for player_id, old, (new,) in zip(players, before, after, strict=True):
            await rating_table.save_rating(
                conn,
                match.id,
                player_id,
                match.rules,
                before=(old.mu, old.sigma),
                after=(new.mu, new.sigma),
                now=now,
            )
        return True

    async def leaderboard(
        self, rules: str = DEFAULT_RULES, limit: int = 10, guild_id: int | None = None
    ) -> list[Rating]:
        """The best rated players under a rule set, best first (rating records up to date first); with
        `guild_id`, those who played a rated game under these rules on that server (ratings are global)."""
        await self.record()
        return await rating_table.leaderboard(self._db, get_rules(rules).id, limit, guild_id)

    async def history(self, player_id: int, guild_id: int, limit: int = 10) -> list[HistoryEntry]:
        """A player's latest played games on this server, newest first."""
        matches = await rating_table.played_matches(self._db, player_id, guild_id, limit)
        return [_entry(match, player_id) for match in matches]

    async def stats(self, player: Player, guild_id: int) -> Stats:
        """A player's games on this server (wins, favourite dice, Pork Chops, longest Pig Fest streak) and
        their ratings, which are global like the leaderboard's."""
        await self.record()
        matches = await rating_table.played_matches(self._db, player.id, guild_id)
        played = await rating_table.played_turns(self._db, player.id, guild_id)
        mine = [turn.result for turns in played.values() for turn in turns if turn.user_id == player.id]
        # Dice chosen, Free Bacon's 0 included; a spent Pork Chop's -1 counts as the dice it rolls.
        dice = Counter(turn.dice for turn in mine if turn.choice >= 0 or turn.dice)
        chops = sum(1 for turn in mine for event in turn.events if event.kind is EventKind.PORK_CHOP)
        # The longest Pig Fest streak they reached, read from the engine's states (0 without streaks).
        streaks = [
            turn.result.after.hidden_value(STREAK, _seat(match, player.id))
            for match in matches
            if STREAK in get_rules(match.rules).hidden_parts
            for turn in played.get(match.id, [])
        ]
        wins = sum(1 for match in matches if _won(match, player.id))
        return Stats(
            player=player,
            games=len(matches),
            wins=wins,
            bot_games=sum(1 for match in matches if match.bot_level is not None),
            favourite_dice=min(dice, key=lambda n: (-dice[n], n)) if dice else None,
            pork_chops=chops,
            longest_pig_fest_streak=max(streaks, default=0),
            ratings=tuple(await rating_table.ratings_of(self._db, player.id)),
            rating_history=tuple(await rating_table.rating_history(self._db, player.id)),
        )


def _won(match: Match, player_id: int) -> bool:
    winner = match.winner_player
    return winner is not None and winner.id == player_id
