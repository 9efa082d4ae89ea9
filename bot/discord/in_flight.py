"""The work under way (interactions being answered, the start-up catch-up), so a stop (SIGTERM, docker
stop) closes Discord and the database under nothing: from the moment the stop begins new interactions are
turned away with a word, those under way get a grace period to finish, then the services cut their long
work short (an upload in the sandbox, a tournament: each answers that nothing was stored), and what still
runs after that is cancelled."""

import asyncio
import logging
from collections.abc import Callable, Collection
from typing import Any

import discord

from bot.discord.errors import report
from bot.domain.errors import Restarting

log = logging.getLogger(__name__)

# Once the services were told to stop, how long their work may take to answer (a sandbox dies within a
# tenth of a second, a tournament at its next step) before it is cancelled.
WIND_DOWN_SECONDS = 3.0


class InFlight:
    """The tasks under way; `settle` waits for them when the bot stops."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()
        self._stopping = False

    def track(self, task: asyncio.Task[Any]) -> None:
        """Count `task` as under way until it ends."""
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def admit(self, interaction: discord.Interaction[Any]) -> bool:
        """Whether to handle this interaction: its task is tracked until it ends; once the bot is stopping,
        it is turned away (with a word, unless it only asks for autocomplete choices)."""
        if not self._stopping:
            task = asyncio.current_task()
            if task is not None:
                self.track(task)
            return True
        if interaction.type is not discord.InteractionType.autocomplete:
            await report(interaction, Restarting())
        return False

    async def settle(self, grace: float, stop_work: Callable[[], None]) -> None:
        """Turn new interactions away; wait up to `grace` seconds for those under way; then `stop_work` and
        wait up to WIND_DOWN_SECONDS more; cancel what is left."""
        self._stopping = True
        running = set(self._tasks)
        log.info("stopping: waiting for %d task(s) under way, at most %g s", len(running), grace)
        running = await _wait(running, grace)
        if running:
            log.info("stopping: %d task(s) still under way; cutting them short", len(running))
            stop_work()
            running = await _wait(running, WIND_DOWN_SECONDS)
        for task in running:
            task.cancel()
        await asyncio.gather(*running, return_exceptions=True)


async def _wait(tasks: Collection[asyncio.Task[Any]], timeout: float) -> set[asyncio.Task[Any]]:
    """Wait until every task is done or `timeout` seconds passed; the tasks still running."""
    if not tasks:
        return set()
    _, pending = await asyncio.wait(tasks, timeout=timeout)
    return pending
