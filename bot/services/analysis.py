"""Analysis of a match from its stored turns: replayed by the engine, valued by the exact solver."""

import asyncio
import time
from collections.abc import Sequence

from bot.services.contest_errors import GameNotOver, NothingToAnalyse
from bot.services.contest_models import MatchAnalysis
from bot.services.models import Match, TurnRecord
from bot.services.records import turn_from
from bot.services.solver import Solver
from bot.services.store import Clock, MatchStore
from bot.storage import Database
from bot.storage import repositories as repo
from hogengine.analysis import analyse
from hogengine.game import TurnResult, new_game
from hogengine.replay import GameRecord, Turn, replay


def replayed(match: Match, turns: Sequence[TurnRecord]) -> list[TurnResult]:
    """The match's stored turns re-played by the engine from its start (full states, hidden parts too)."""
    start = new_game(match.rules, match.goal)
    return list(replay(GameRecord(start, tuple(Turn(turn.choice, turn.outcomes) for turn in turns))))


def seat_name(match: Match, seat: int) -> str:
    """Who sat in a seat: the player's name, the stored strategy the bot played, or the house bot."""
    player = match.players[seat]
    if player is not None:
        return player.name
    if match.strategy_name is not None:
        return f"strategy '{match.strategy_name}'"
    level = "" if match.bot_level is None else f" ({match.bot_level.value})"
    return f"the house bot{level}"


class AnalysisService:
    """Win-probability series and the cost of every choice, for any match with turns."""

    def __init__(self, db: Database, solver: Solver, clock: Clock = time.time) -> None:
        self._db = db
        self._solver = solver
        self._store = MatchStore(db, clock)

    async def analyse(self, match_id: int, *, guild_id: int, user_id: int) -> MatchAnalysis:
        """The analysis of a played match of this server (`guild_id`) or one the asking user played in.

        Raises MatchNotFound, NotYourGame, GameNotOver (a live game's analysis would tell both sides their
        chances as they play) or NothingToAnalyse.
        """
        match = await self._store.load_visible(match_id, guild_id, user_id, "analyse")
        turns = [turn_from(row) for row in await repo.get_turns(self._db, match_id)]
        if not turns:
            raise NothingToAnalyse("No turns were played in this game.")
        if match.status.is_open:
            raise GameNotOver(
                "This game is not over yet: its analysis would show the live chances to win while it is "
                "played. Ask again once it has ended."
            )
        results = replayed(match, turns)
        solution = await self._solver.solution(match.rules, match.goal)
        analysis = await asyncio.to_thread(analyse, results[0].before, results, solution, match.winner)
        names = (seat_name(match, 0), seat_name(match, 1))
        return MatchAnalysis(match, names, analysis, tuple(result.before for result in results))
