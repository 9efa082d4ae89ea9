"""The Discord client: opens the services, registers commands and buttons, runs the clocks."""

import asyncio
import contextlib
import gc
import logging
import signal
from collections.abc import Awaitable
from typing import Any

import aiohttp
import discord
from discord.ext import commands, tasks

from bot.activity.discord_api import DiscordApi
from bot.activity.pacing import Pacer
from bot.activity.server import Activity
from bot.config import Settings
from bot.discord.boards import Boards
from bot.discord.budget import Budget, Priority, spending
from bot.discord.catch_up import Lagging, catch_up
from bot.discord.coach import Coach
from bot.discord.commands.hog import HogCog
from bot.discord.contest_buttons import ITEMS as CONTEST_ITEMS
from bot.discord.contest_closer import Closer
from bot.discord.errors import DISCORD_FAILURES
from bot.discord.in_flight import InFlight
from bot.discord.launch import LaunchButton, with_launch
from bot.discord.mentions import CommandMentions
from bot.discord.parts import Parts
from bot.discord.tree import HogTree
from bot.discord.views import ITEMS, controls
from bot.domain.errors import RecordsUnavailable
from bot.health import beat
from bot.services import Services
from bot.services.games.follow_up import FollowUp
from hogengine.sandbox import make_undumpable

log = logging.getLogger(__name__)

# Expired challenges and idle turns are closed within 1/TICKS_PER_TIMEOUT of their timeout (1 to 30 s).
TICKS_PER_TIMEOUT = 20
# How often the clock deletes the press tokens past their use, and says what the budget spent.
FORGET_TOKENS_SECONDS = 60.0
REPORT_SECONDS = 600.0
# Hog never joins a voice channel: discord.py's start-up warnings about voice libraries are only noise.
discord.VoiceClient.warn_nacl = False
discord.VoiceClient.warn_dave = False


def now() -> float:
    """Unix time from discord.py's clock (the one its timestamps and simulated tests use)."""
    return discord.utils.utcnow().timestamp()


class HogBot(commands.AutoShardedBot):
    """Hog on Discord. All game state lives in the services' database; this process only relays. It runs
    the shards its settings name (HOG_SHARD_COUNT, HOG_SHARD_IDS), else every shard Discord recommends."""

    parts: Parts  # services, boards and the follow-up, built in setup_hook
    closer: Closer  # the contests' reminders, finals, results and invitations (see `clock`)

    def __init__(
        self,
        settings: Settings,
        *,
        services: Services | None = None,
        sync_global: bool = False,
        **options: Any,
    ) -> None:
        shards: dict[str, Any] = {"shard_count": settings.shard_count}  # None: as Discord recommends
        if settings.shard_ids is not None:
            shards["shard_ids"] = sorted(settings.shard_ids)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            tree_cls=HogTree,
            help_command=None,
            **shards,
            **options,
        )
        self.settings = settings
        self._services = services
        self._opening: asyncio.Task[Services] | None = None
        self.sync_global = sync_global
        self._shards_up: set[int] = set()
        self._closed: asyncio.Future[None] | None = None
        self._lagging = Lagging()
        self.command_mentions = CommandMentions()  # the commands as clickable mentions, once synced
        self.budget = Budget(settings.rate_share)  # this process's share of Discord's global rate limit
        self.budget.install(self.http)  # before the first call: logging in is one
        self._swept = self._reported = 0.0  # when the clock last forgot tokens, and reported the budget
        self.activity_server: Activity | None = None  # served when its settings are set: `serve_activity`
        self._pacer: Pacer | None = None  # then the bot's own redraws are paced (bot/activity/pacing.py)

    async def open_services(self) -> Services:
        """Open the database and every service (once): `serve` does it before contacting Discord, so a
        database that cannot be opened stops the bot before it goes online. A close meanwhile (SIGTERM
        while migrations wait for a lock) cuts the opening short, and what it opened is closed."""
        if self._services is None:
            if self._opening is None:
                self._opening = asyncio.ensure_future(self._open())
            return await self._opening
        return self._services

    async def _open(self) -> Services:
        self._services = await Services.open(self.settings.services, clock=now)
        return self._services

    async def setup_hook(self) -> None:
        """Open the services, add commands and buttons, start the clock (its first tick resumes the house
        bot's turns), show what the last run stored but did not show, sync."""
        make_undumpable()  # no other process of this user may read the token from our memory
        started = self._reported = now()
        services = await self.open_services()
        delay = self.settings.bot_move_delay_seconds
        follow_up = FollowUp(services.games, services.ratings, delay, self.redraw)
        served = self.settings.activity is not None
        shown = with_launch(controls) if served else controls
        in_flight = InFlight()
        coach = Coach(services, in_flight.track)
        through = self.settings.answer_through_presses
        boards = Boards(self, services.games, shown, coach.shown, through)
        self.parts = Parts(services, boards, follow_up, in_flight, coach)
        cog = HogCog(self.parts)
        if not served and cog.app_command is not None:
            cog.app_command.remove_command("play")
        await self.add_cog(cog)
        self.add_dynamic_items(*ITEMS, *CONTEST_ITEMS, LaunchButton)
        await self.serve_activity()
        self.closer = Closer(self, self.parts)
        shortest = min(self.settings.turn_timeout_seconds, self.settings.challenge_timeout_seconds)
        self.clock.change_interval(seconds=min(30.0, max(1.0, shortest / TICKS_PER_TIMEOUT)))
        self.clock.start()
        catching_up = catch_up(self, self.parts, started, self.catch_up_redraw)
        self.parts.in_flight.track(asyncio.create_task(catching_up, name="hog-catch-up"))
        await self.sync_commands()
        # What start-up made (modules, discord.py, the services: ~140,000 objects) lives as long as the
        # process: frozen, a full garbage collection no longer walks it. Walking it stalled every answer of
        # the process a few times a minute: the Activity's pages for 100-270 ms (bench/bench_activity.py),
        # the presses' answers and notices for 90-290 ms (bench/bench_discord_budget.py, 1,000 games). Once
        # a process: one that starts bot after bot (the tests) would otherwise keep each one's cycles.
        if not gc.get_freeze_count():
            gc.collect()
            gc.freeze()

    async def sync_commands(self) -> None:
        """Sync to the development guild if one is set; globally only when asked (it is slow and limited);
        else read the commands Discord holds. Their ids make the commands the bot names clickable."""
        if self.sync_global:
            synced = await self.tree.sync()
            log.info("synced %d command(s) globally", len(synced))
            self.command_mentions.learn(synced, self.tree)
        if self.settings.dev_guild_id is not None:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d command(s) to the development guild %s", len(synced), guild.id)
            self.command_mentions.learn(synced, self.tree)
        elif not self.sync_global:
            try:
                self.command_mentions.learn(await self.tree.fetch_commands(), self.tree)
            except DISCORD_FAILURES as error:
                log.warning("could not read the commands' ids (they are named, not linked): %s", error)

    async def serve_activity(self) -> None:
        """Serve the Activity if its settings are set, on the services and the follow-up; from then on the
        bot's own redraws of boards are paced within Discord's rate limits (a redraw asked for returns at
        once). Raises CannotServeError if its address cannot be had."""
        settings = self.settings.activity
        if settings is None:
            return
        self._pacer = Pacer(self._show)
        base = discord.http.Route.BASE  # Discord's API (a test's fake Discord, when it points the bot there)
        token = self.http.token or ""
        api = DiscordApi(base, settings.client_id, settings.client_secret, token, self.budget.spend)
        parts = self.parts
        self.activity_server = Activity(
            settings,
            services=parts.services,
            follow_up=parts.follow_up,
            redraw=self.redraw,
            api=api,
            clock=now,
        )
        await self.activity_server.start()

    async def redraw(self, match_id: int, priority: Priority = Priority.URGENT) -> None:
        """Show a match on its board when no press is being answered (the house bot's move: a person waits
        for it; the clock's work: nobody does, `priority`): at once, or soon when the Activity is served
        (paced). Never raises (see `_show`)."""
        with spending(priority):  # a paced redraw runs in the context it was asked in: at this priority
            if self._pacer is None:
                await self._show(match_id)
            else:
                await self._pacer.ask(match_id)

    async def catch_up_redraw(self, match_id: int) -> None:
        """Show a match the last run left unshown (nobody is waiting for this one more than for the rest)."""
        await self.redraw(match_id, Priority.BACKGROUND)

    async def _show(self, match_id: int) -> None:
        """Show a match on its board; a failure is logged, not raised (the game is safe in the database, and
        the next render tries again)."""
        await _logged(self.parts.boards.show(match_id), "could not show the board", match_id)

    @property
    def connected(self) -> bool:
        """Whether the gateway connection of every shard of this process is up (discord.py's is_ready()
        stays true while a shard reconnects)."""
        running = set(self.shard_ids or range(self.shard_count or 1))
        return bool(self._shards_up) and self._shards_up >= running and not self.is_closed()

    async def on_shard_ready(self, shard_id: int) -> None:
        """A shard connected with a new session (at start, or when its session could not be resumed)."""
        self._shards_up.add(shard_id)

    async def on_shard_resumed(self, shard_id: int) -> None:
        """A shard connected again, its session resumed."""
        self._shards_up.add(shard_id)

    async def on_shard_disconnect(self, shard_id: int) -> None:
        """A shard is offline until its READY or RESUMED (discord.py reconnects it by itself meanwhile)."""
        self._shards_up.discard(shard_id)

    @tasks.loop(seconds=1.0)
    async def clock(self) -> None:
        """Beat while connected, saying if the database is out of reach (then nothing else can be done);
        play and post the contests past their close; close what ran out of time (challenges expire, idle
        turns are lost) and show it; start the house bot wherever it is to move and no move of it is under
        way; redraw the boards that lag behind their game (Discord took neither an edit nor a repost), with
        backoff; tell the people whose turn is running out."""
        try:
            trouble = await self.parts.services.records_trouble()
            if self.connected:
                try:
                    beat(self.settings.heartbeat_file, trouble)
                except OSError as error:
                    log.warning("could not touch the heartbeat file: %s", error)
            if trouble is not None:
                return
            self.closer.poke()  # contests' reminders; finals past their close, played and posted
            games = self.parts.services.games
            closed = await games.expire_due()
            waiting = await games.bot_turns_waiting()
            lagging = self._lagging.due(await games.lagging(), now())
            hurried = await games.running_out()
        except RecordsUnavailable:
            return  # the outage is logged once, as it begins
        except Exception:
            log.exception("the clock tick failed")
            return
        for match in closed:  # each on its own: one game that cannot be shown must not hold up the rest
            await self.redraw(match.id, Priority.BACKGROUND)
            await self.parts.follow_up.moved_on(match)
        for match_id in waiting:
            self.parts.follow_up.schedule(match_id)
        for match_id in lagging:
            await self.redraw(match_id, Priority.BACKGROUND)
        for match_id in hurried:  # a failure is tried again at the next tick
            failure = "could not tell a person their turn is running out"
            with spending(Priority.BACKGROUND):  # its notice itself waits as a notice
                await _logged(self.parts.boards.remind(match_id), failure, match_id)
        await self._upkeep(now())

    async def _upkeep(self, moment: float) -> None:
        """Now and then: delete the press tokens past their use (a secret kept no longer than useful), and
        log what the budget of Discord's global limit spent."""
        if moment - self._swept >= FORGET_TOKENS_SECONDS:
            self._swept = moment
            try:
                await self.parts.services.games.forget_tokens()
            except RecordsUnavailable:
                pass  # the outage is logged once, as it begins
            except Exception:
                log.exception("could not delete the press tokens past their use")
        if moment - self._reported >= REPORT_SECONDS:
            self._reported = moment
            self._report_spent()

    def _report_spent(self) -> None:
        """Log what the budget of Discord's global limit spent since the last report, if anything: the
        cost of the calls that could not go through a press (a token expired, a clock's moment)."""
        report = self.budget.report()
        if report is not None:
            log.info("since the last report: %s", report)

    async def close(self) -> None:
        """Close once, however often asked (SIGTERM, then leaving `async with bot`): every caller waits
        for the one closing."""
        if self._closed is None:
            self._closed = asyncio.ensure_future(self._close())
        await self._closed

    async def _close(self) -> None:
        """Stop the clock, the Activity and the bot's moves, let the interactions under way finish (see
        InFlight.settle), then close Discord and the services (pools, then database)."""
        self.clock.cancel()
        if self.activity_server is not None:
            await self.activity_server.close()  # no more moves there; its pages connect again once it is back
        if hasattr(self, "parts"):
            await self.parts.follow_up.close()
            grace = self.settings.shutdown_grace_seconds
            await self.parts.in_flight.settle(grace, self.parts.services.stop)
        if self._pacer is not None:
            await self._pacer.close()  # redraws not made: the next start shows the boards that lag
        self._report_spent()
        await super().close()
        if self._opening is not None:
            self._opening.cancel()
            await asyncio.gather(self._opening, return_exceptions=True)  # a failure is the opener's to say
        if self._services is not None:
            await self._services.close()


async def _logged(work: Awaitable[None], failure: str, match_id: int) -> None:
    """Do a match's work nobody waits for; a failure is logged as `failure`, not raised (the game is safe in
    the database, and the clock tries again)."""
    try:
        await work
    except RecordsUnavailable:
        pass  # the outage is logged once, as it begins
    except Exception:
        log.exception(failure, extra={"match": match_id})


class TokenRejectedError(Exception):
    """Discord refused the bot's token."""


class DiscordUnreachableError(Exception):
    """Discord could not be reached at start, however often the bot tried."""


async def _log_in(bot: HogBot, token: str, stopping: asyncio.Event) -> None:
    """Log in, trying again after a pause that doubles each time while Discord cannot be reached (a
    network or DNS still coming up); each failed attempt is logged once. A stop asked for during a pause
    ends it at once, without another try."""
    attempts, pause = bot.settings.connect_attempts, bot.settings.connect_retry_seconds
    for attempt in range(1, attempts + 1):
        if stopping.is_set():  # asked to stop (while the database opened, or during a pause): never log in
            return
        try:
            await bot.login(token)
            return
        except (aiohttp.ClientConnectionError, TimeoutError) as error:
            await bot.http.close()  # a fresh session (and connector) for the next attempt
            bot.http.connector = discord.utils.MISSING
            if attempt == attempts or stopping.is_set():
                raise DiscordUnreachableError(str(error) or type(error).__name__) from None
            log.warning(
                "cannot reach Discord (attempt %d of %d): %s; trying again in %.1f s",
                *(attempt, attempts, error, pause),
            )
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stopping.wait(), pause)
            pause *= 2


async def serve(bot: HogBot, token: str) -> None:
    """Run the bot until it is closed; SIGTERM (docker stop) closes it, and with it the database."""
    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()
    gateway: asyncio.Task[None] | None = None
    closing: asyncio.Task[None] | None = None

    def stop() -> None:
        nonlocal closing
        if stopping.is_set():
            return
        stopping.set()
        # First the gateway's supervisor: a shard still connecting when the HTTP session closes would log
        # an error and retry for ever (discord.py's launch_shard). Connected shards run on.
        if gateway is not None:
            gateway.cancel()
        closing = loop.create_task(bot.close())

    loop.add_signal_handler(signal.SIGTERM, stop)
    try:
        async with bot:
            log.debug("opening the database")  # migrations may wait here for another process's lock
            await bot.open_services()
            await _log_in(bot, token, stopping)
            if not stopping.is_set():  # a stop asked for while logging in: never go online
                gateway = loop.create_task(bot.connect(), name="hog-gateway")
                await gateway
    except discord.LoginFailure as error:
        raise TokenRejectedError(str(error)) from None
    except (Exception, asyncio.CancelledError):
        if not stopping.is_set():
            raise
        # The stop was asked for, whatever it cut short: it cancels the gateway's task, whether its shards
        # were still connecting or had been online for days.
    finally:
        loop.remove_signal_handler(signal.SIGTERM)
        if closing is not None:
            await closing
    if stopping.is_set():  # however far the start had come: before, while or long after logging in
        log.info("stopped" if bot.is_ready() else "stopped while starting")
