"""The Discord client: opens the game service, registers commands and buttons, runs the clocks."""

import asyncio
import logging
import signal
import tempfile
from pathlib import Path
from typing import Any

import discord
from discord.ext import commands, tasks

from bot.config import Settings
from bot.discord.boards import Boards
from bot.discord.cogs.hog import HogCog
from bot.discord.errors import HogTree
from bot.discord.views import ITEMS
from bot.services import GameService

log = logging.getLogger(__name__)

# Expired challenges and idle turns are closed within 1/TICKS_PER_TIMEOUT of their timeout (1 to 30 s).
TICKS_PER_TIMEOUT = 20
# Touched on every clock tick while connected: `python -m bot --health` (the container's HEALTHCHECK).
HEARTBEAT = Path(tempfile.gettempdir()) / "hogbot.heartbeat"


def now() -> float:
    """Unix time from discord.py's clock (the one its timestamps and simulated tests use)."""
    return discord.utils.utcnow().timestamp()


class HogBot(commands.Bot):
    """Hog on Discord. All game state lives in the service's database; this process only relays."""

    service: GameService
    boards: Boards

    def __init__(
        self,
        settings: Settings,
        *,
        service: GameService | None = None,
        sync_global: bool = False,
        **options: Any,
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            tree_cls=HogTree,
            help_command=None,
            **options,
        )
        self.settings = settings
        self._service = service
        self.sync_global = sync_global
        self._bot_moves: set[asyncio.Task[None]] = set()

    async def setup_hook(self) -> None:
        """Open the database, add commands and buttons, resume bot moves, start the clock, sync."""
        self.service = self._service or await GameService.open(self.settings, clock=now)
        self.boards = Boards(self, self.service)
        await self.add_cog(HogCog(self))
        self.add_dynamic_items(*ITEMS)
        for match in await self.service.pending_and_active():
            if match.is_bot_turn:
                self.schedule_bot(match.id)
        shortest = min(self.settings.turn_timeout_seconds, self.settings.challenge_timeout_seconds)
        self.clock.change_interval(seconds=min(30.0, max(1.0, shortest / TICKS_PER_TIMEOUT)))
        self.clock.start()
        await self.sync_commands()

    async def sync_commands(self) -> None:
        """Sync to the development guild if one is set; globally only when asked (it is slow and limited)."""
        if self.settings.dev_guild_id is not None:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d command(s) to the development guild %s", len(synced), guild.id)
        if self.sync_global:
            synced = await self.tree.sync()
            log.info("synced %d command(s) globally", len(synced))

    def schedule_bot(self, match_id: int) -> None:
        """Let the house bot play its turn(s) in this match after a short pause."""
        task = asyncio.create_task(self._bot_moves_in(match_id), name=f"hog-bot-move-{match_id}")
        self._bot_moves.add(task)
        task.add_done_callback(self._bot_moves.discard)

    async def _bot_moves_in(self, match_id: int) -> None:
        try:
            while True:
                await asyncio.sleep(self.settings.bot_move_delay_seconds)
                played = await self.service.bot_turn(match_id)
                if played is None:
                    return
                await self.boards.show(match_id)
        except Exception:
            log.exception("the house bot could not move", extra={"match": match_id})

    @tasks.loop(seconds=1.0)
    async def clock(self) -> None:
        """Close what ran out of time (challenges expire, idle turns are lost) and show it."""
        if self.is_ready() and not self.is_closed():
            HEARTBEAT.touch()
        try:
            for match in await self.service.expire_due():
                await self.boards.show(match.id)
        except Exception:
            log.exception("the clock tick failed")

    async def close(self) -> None:
        """Stop the clock and the bot's moves, close Discord, then the database."""
        self.clock.cancel()
        for task in list(self._bot_moves):
            task.cancel()
        await asyncio.gather(*self._bot_moves, return_exceptions=True)
        await super().close()
        if hasattr(self, "service"):
            await self.service.close()


class TokenRejectedError(Exception):
    """Discord refused the bot's token."""


async def serve(bot: HogBot, token: str) -> None:
    """Run the bot until it is closed; SIGTERM (docker stop) closes it, and with it the database."""
    loop = asyncio.get_running_loop()
    closing: list[asyncio.Task[None]] = []
    loop.add_signal_handler(signal.SIGTERM, lambda: closing.append(loop.create_task(bot.close())))
    try:
        async with bot:
            await bot.start(token)
    except discord.LoginFailure as error:
        raise TokenRejectedError(str(error)) from None
    finally:
        loop.remove_signal_handler(signal.SIGTERM)
        await asyncio.gather(*closing)
