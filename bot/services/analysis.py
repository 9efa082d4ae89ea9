"""Analysis of a match from its stored turns: replayed by the engine, valued by the exact solver."""

import asyncio
import time

from bot.domain.analysis import Coaching, MatchAnalysis
from bot.domain.errors import GameNotOver, NothingToAnalyse, NotYourGame
from bot.services.clock import Clock
from bot.services.games.match_store import MatchStore
from bot.services.solver import Solver
from bot.storage import Database
from bot.storage import turns as turn_table
from hogengine.analysis import analyse, answered, coaching, judge, player_summary, summary


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
        if match.status.is_open:
            raise GameNotOver
        turns = await turn_table.get_turns(self._db, match_id)
        if not turns:
            raise NothingToAnalyse
        results = [turn.result for turn in turns]
        solution = await self._solver.solution(match.rules, match.goal)
        analysis = await asyncio.to_thread(analyse, results[0].before, results, solution, match.winner)
        names = match.seat_names
        return MatchAnalysis(match, names, analysis, tuple(result.before for result in results))

    async def coach(self, match_id: int, user_id: int, since: int) -> Coaching:
        """The live coach's words to a player of the match on their choices from turn `since` on (see
        hogengine.analysis.coaching: never before the other side has moved), and its summing up once the
        game has ended; every grade is the solver's exact cost. NotYourGame for anyone else."""
        match = await self._store.load(match_id)
        seat = match.seat_of(user_id)
        if seat is None:
            raise NotYourGame
        results = [turn.result for turn in await turn_table.get_turns(self._db, match_id)]
        solution = await self._solver.solution(match.rules, match.goal)
        ended = not match.status.is_open
        said = tuple(line.text for line in coaching(solution, results, [seat], ended) if line.turn >= since)
        spoken = max(since, answered(results, seat, ended))
        if not ended:
            return Coaching(said, spoken, None)
        moves = [judge(solution, result) for result in results]
        return Coaching(said, spoken, summary(player_summary(seat, moves), moves))

    async def prepare(self, rules: str, goal: int) -> None:
        """Have the solution for these rules and goal ready before the coach needs it (seconds for Pig Fest
        the first time)."""
        await self._solver.solution(rules, goal)

    def ready(self, rules: str, goal: int) -> bool:
        """Whether the coach can speak at once under these rules and goal (their solution is in memory)."""
        return self._solver.ready(rules, goal)
