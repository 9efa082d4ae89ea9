"""The live coach (`/hog coach on`, per person): after a coached person's move, once the other side has moved
(or the game ended), a private follow-up to their latest press with one line for each choice that gave away
5 points or more of winning chance against perfect play, graded as lichess grades a move; nothing for
smaller losses; a line summing up their game when it ends. The words and grades are the engine's (the
solver's exact costs, see AnalysisService.coach).

A press is never kept waiting for the coach: it speaks in a task of its own after the board is shown, and the
solve it needs starts at the person's first press (pig-fest's first solve takes seconds; the other side's
move comes first anyway). The presses it will answer are kept in memory only: after a restart it speaks
again from the person's next move (every grade stays in the game's analysis)."""

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.discord.errors import DISCORD_FAILURES
from bot.discord.identity import answerable
from bot.domain.errors import RecordsUnavailable
from bot.services import Match, Services
from bot.services.keyed_locks import KeyedLocks

log = logging.getLogger(__name__)

MARK = "🎓"  # before each of the coach's lines
Track = Callable[["asyncio.Task[None]"], None]  # counts a task as work under way (InFlight.track)


@dataclass
class _Waiting:
    """A coached person's latest press in a game, and the first of their turns the coach has not yet spoken
    about."""

    interaction: discord.Interaction[Any]
    since: int


class Coach:
    """The presses the coach will answer, by match and person."""

    def __init__(self, services: Services, track: Track) -> None:
        self._services = services
        self._track = track
        self._waiting: dict[int, dict[int, _Waiting]] = {}  # by match id, then user id
        self._lock = KeyedLocks()  # by match id: one speech at a time

    async def pressed(self, interaction: discord.Interaction[Any], match: Match, turn: int) -> None:
        """The person who pressed moved on `turn` of `match`: if they asked for the coach, keep their press to
        answer once the other side has moved, and start the solve it will need."""
        user = interaction.user.id
        if not await self._services.games.coached(user):
            return
        waiting = self._waiting.setdefault(match.id, {})
        earlier = waiting.get(user)
        waiting[user] = _Waiting(interaction, turn if earlier is None else earlier.since)
        analysis = self._services.analysis
        if not analysis.ready(match.rules, match.goal):
            self._track(
                asyncio.create_task(analysis.prepare(match.rules, match.goal), name="hog-coach-solve")
            )

    def shown(self, match: Match) -> None:
        """A board now shows `match`: the coach speaks to whoever of it waits (in a task of its own)."""
        if match.id in self._waiting:
            self._track(asyncio.create_task(self._speak(match), name=f"hog-coach-{match.id}"))

    async def _speak(self, match: Match) -> None:
        """Say what there is to say to each coached person of the match; forget their press once the game
        has ended or its token is about to run out. Never raises: a failure is logged."""
        async with self._lock(match.id):
            for user, waiting in list(self._waiting.get(match.id, {}).items()):
                if not answerable(waiting.interaction):
                    self._forget(match.id, user)
                    continue
                try:
                    await self._answer(match, user, waiting)
                except (*DISCORD_FAILURES, RecordsUnavailable) as error:
                    log.warning("the coach could not speak: %s", error, extra={"match": match.id})
                except Exception:
                    log.exception("the coach could not speak", extra={"match": match.id})
                if not match.status.is_open:
                    self._forget(match.id, user)

    async def _answer(self, match: Match, user: int, waiting: _Waiting) -> None:
        said = await self._services.analysis.coach(match.id, user, waiting.since)
        lines = [*said.lines, *([] if said.summary is None else [said.summary])]
        waiting.since = said.spoken
        if lines:
            text = "\n".join(f"{MARK} {line}" for line in lines)
            await waiting.interaction.followup.send(text, ephemeral=True)

    def _forget(self, match_id: int, user: int) -> None:
        waiting = self._waiting.get(match_id, {})
        waiting.pop(user, None)
        if not waiting:
            self._waiting.pop(match_id, None)
