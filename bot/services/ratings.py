"""Ratings (openskill, Plackett-Luce) of games between people, leaderboards, stats and game history.

Games against the house bot, or a stored strategy, are never rated, nor are games in which either player
never moved (accepted and given up at once, or timed out on the first turn): no free rating from a
no-show. Stats read the stored matches and turns and the events the engine recorded with them.
"""

import asyncio
import time
from collections import Counter
from functools import partial

import aiosqlite
from openskill.models import PlackettLuce

from bot.domain.matches import Match, Player
from bot.domain.ratings import HistoryEntry, Rating, RatingChange, Stats
from bot.services.analysis import replayed, seat_name
from bot.services.clock import Clock
from bot.storage import Database, Row
from bot.storage import ratings as rating_table
from bot.storage import turns as turn_table
from bot.storage.matches import match_from
from bot.storage.turns import turn_from
from hogengine.events import EventKind
from hogengine.rules import DEFAULT_RULES, get_rules
from hogengine.rules.pig_fest import STREAK


def _rating(row: Row) -> Rating:
    return Rating(
        Player(row["player_id"], row["player_name"]), row["rules"], row["mu"], row["sigma"], row["games"]
    )


def _change(row: Row) -> RatingChange:
    before = row["mu_before"] - 3 * row["sigma_before"]
    after = row["mu_after"] - 3 * row["sigma_after"]
    return RatingChange(row["match_id"], row["rules"], before, after, row["rated_at"])


def _entry(row: Row, player_id: int) -> HistoryEntry:
    match = match_from(row)
    seat = 0 if match.players[0] is not None and match.players[0].id == player_id else 1
    return HistoryEntry(
        match.id,
        match.rules,
        match.goal,
        match.status,
        seat,
        seat_name(match, 1 - seat),
        match.winner == seat,
        match.state.scores,
        row["finished_at"],
    )


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
            for row in await rating_table.unrated_matches(self._db):
                if await self._db.write(partial(self._rate, row, self._clock())):
                    rated.append(row["id"])
            return rated

    async def _rate(self, match: Row, now: float, conn: aiosqlite.Connection) -> bool:
        """Update both players' ratings for one match, inside the transaction; False if already rated."""
        if await rating_table.is_rated(conn, match["id"]):
            return False
        players = (match["player0_id"], match["player1_id"])
        before = []
        for player_id in players:
            known = await rating_table.rating(conn, player_id, match["rules"])
            before.append(self._model.rating() if known is None else self._model.rating(*known))
        ranks = [0.0 if seat == match["winner"] else 1.0 for seat in (0, 1)]
        after = self._model.rate([[before[0]], [before[1]]], ranks=ranks)
        for player_id, old, (new,) in zip(players, before, after, strict=True):
            await rating_table.save_rating(
                conn,
                match["id"],
                player_id,
                match["rules"],
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
        rows = await rating_table.leaderboard(self._db, get_rules(rules).id, limit, guild_id)
        return [_rating(row) for row in rows]

    async def history(self, player_id: int, guild_id: int, limit: int = 10) -> list[HistoryEntry]:
        """A player's latest played games on this server, newest first."""
        rows = await rating_table.played_matches(self._db, player_id, guild_id, limit)
        return [_entry(row, player_id) for row in rows]

    async def _longest_streak(self, match: Match, player_id: int) -> int:
        """The longest Pig Fest streak the player reached in a match, read from the engine's states as the
        stored turns replay them (0 where the rule set keeps no streak)."""
        if STREAK not in get_rules(match.rules).hidden_parts:
            return 0
        seat = 0 if match.players[0] is not None and match.players[0].id == player_id else 1
        turns = await turn_table.get_turns(self._db, match.id)
        return max((result.after.hidden_value(STREAK, seat) for result in replayed(match, turns)), default=0)

    async def stats(self, player: Player, guild_id: int) -> Stats:
        """A player's games on this server (wins, favourite dice, Pork Chops, longest Pig Fest streak) and
        their ratings, which are global like the leaderboard's."""
        await self.record()
        rows = await rating_table.played_matches(self._db, player.id, guild_id)
        matches = {row["id"]: match_from(row) for row in rows}
        rows = await rating_table.turns_of(self._db, player.id)
        turns = [turn_from(row) for row in rows if row["match_id"] in matches]
        # Dice chosen, Free Bacon's 0 included; a spent Pork Chop's -1 counts as the dice it rolls.
        dice = Counter(turn.dice for turn in turns if turn.choice >= 0 or turn.dice)
        chops = sum(1 for turn in turns for event in turn.events if event.kind is EventKind.PORK_CHOP)
        streaks = [await self._longest_streak(match, player.id) for match in matches.values()]
        wins = sum(1 for match in matches.values() if _won(match, player.id))
        return Stats(
            player=player,
            games=len(matches),
            wins=wins,
            bot_games=sum(1 for match in matches.values() if match.bot_level is not None),
            favourite_dice=min(dice, key=lambda n: (-dice[n], n)) if dice else None,
            pork_chops=chops,
            longest_pig_fest_streak=max(streaks, default=0),
            ratings=tuple(_rating(row) for row in await rating_table.ratings_of(self._db, player.id)),
            rating_history=tuple(
                _change(row) for row in await rating_table.rating_history(self._db, player.id)
            ),
        )


def _won(match: Match, player_id: int) -> bool:
    winner = match.winner_player
    return winner is not None and winner.id == player_id
