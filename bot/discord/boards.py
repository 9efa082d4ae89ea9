"""Keeping each match's one message up to date, whatever Discord does to it.

Every render re-reads the match under a per-match lock, so the last edit always shows the latest state.
The rules for Discord failures (the game itself is safe in the database either way):
- the message is older than REPOST_AFTER: Discord throttles edits of old messages hard, so the old
  message gets one last edit pointing below and a fresh board is posted;
- an edit fails (the message was deleted, the bot may not edit it, HTTP 429 or 5xx after discord.py's
  own retries, or the network: a dropped connection, a timeout): post a fresh board and remember it;
- posting fails too: log it; the game is safe in the database and the next render (a press, a bot move,
  the clock's redraw of a board that lags) tries again;
- a new match's first message fails: nobody could see or play it, so it is called off (CalledOff).
Each match remembers the version its message shows: a crash can land between storing a change and
showing it, or Discord may take neither the edit nor the repost; the next start and the clock redraw the
messages that lag (catch_up.py), and a person's turn clock starts only once the board shows their turn.

The board names whose move it is but notifies nobody: Discord notifies for mentions in new messages only,
so each moment that is a person's business (the turn passing to them, their turn running out, the game's
end, their challenge declined or expired, a rematch wanted) gets a short notice of its own (notices.py),
and the game's previous notice is deleted: at most one per game is left. Each moment is decided once, after
the board shows it (the time running out: when the clock says so, see `remind`).

The buttons a match shows are drawn by the function the boards are given (`views.controls`): buttons reach
the boards through the parts, so the boards cannot import them.
"""

import logging
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import discord

from bot.discord import embeds, notices
from bot.discord.errors import DISCORD_FAILURES
from bot.discord.notices import Notices, Posted
from bot.discord.routes import Routes, answered_with, press_token, usable
from bot.domain.errors import CalledOff
from bot.domain.tokens import PressToken, PressTokens
from bot.services import GameService, Match, MatchStatus, Notice
from bot.services.keyed_locks import KeyedLocks

log = logging.getLogger(__name__)

REPOST_AFTER = timedelta(minutes=45)
MOVED = "This game continues in a newer message below."

Controls = Callable[[Match], discord.ui.View | None]  # the buttons a match shows now, if any
Shown = Callable[[Match], None]  # told of each match a board now shows (it must not block nor raise)


class Boards:
    """Render matches into their messages: in answer to a press, or on the bot's own initiative."""

    def __init__(
        self,
        client: discord.Client,
        service: GameService,
        controls: Controls,
        shown: Shown | None = None,
        through_presses: bool = True,
    ) -> None:
        self.client = client
        self.service = service
        self.routes = Routes(client)
        self.notices = Notices(self.routes)
        self._controls = controls
        self._shown = shown
        self._through = through_presses  # answer through presses' tokens (else by the channel, as before)
        self._lock = KeyedLocks()  # by match id: one message edit of a match at a time

    async def _render(self, match: Match) -> dict[str, Any]:
        """The message of a match as keyword arguments for send or edit. Only a challenge notifies (the
        person challenged); the board's mention of whose move it is notifies nobody (see `_notify`)."""
        if match.status in embeds.CHALLENGE_STATUSES:
            embed = embeds.challenge(match)
        else:
            embed = embeds.board(match, await self.service.turns(match.id))
        mover = match.player_to_move
        opponent = match.opponent
        mentions = discord.AllowedMentions.none()
        if match.status is MatchStatus.PENDING and opponent is not None:
            content = f"<@{opponent.id}>, you are challenged!"
            mentions = notices.only(opponent.id)
        else:
            content = f"<@{mover.id}>, your move." if mover else ""
        return {
            "content": content,
            "embed": embed,
            "view": self._controls(match),
            "allowed_mentions": mentions,
        }

    def _press(self, interaction: discord.Interaction[Any] | None) -> PressToken | None:
        """The token of the press (or command) being answered, if any and if presses are answered through."""
        return press_token(interaction) if interaction is not None and self._through else None

    async def _stored(self, match_id: int) -> PressTokens:
        """The game's stored press tokens still usable (none if presses are not answered through)."""
        return await self.service.tokens(match_id) if self._through else PressTokens()

    async def show(self, match_id: int, interaction: discord.Interaction[Any] | None = None) -> None:
        """Show the match as it is now: on the pressed message, else by editing or re-posting its own."""
        async with self._lock(match_id):
            match = await self._show(match_id, interaction)
        if self._shown is not None:
            self._shown(match)

    async def remind(self, match_id: int) -> None:
        """Bring the game's notice up to date while its board stays as it is: the clock says a person's turn
        is running out. A board that lags is left to the clock's redraw, which decides the notice then."""
        async with self._lock(match_id):
            match = self.service.on_screen(await self.service.get(match_id))
            if match.message_id is not None:
                stored = await self._stored(match_id)
                await self._notify(match, match.message_id, None, stored.board)

    async def _show(self, match_id: int, interaction: discord.Interaction[Any] | None) -> Match:
        """`show` under the match's lock: the match as shown. A press on the board is answered on it (free
        of the global limit); else the board is edited through the token of the press it last answered
        while that works (the house bot's move, the clock), else by the channel."""
        match = self.service.on_screen(await self.service.get(match_id))
        message = await self._render(match)
        press = self._press(interaction)
        acting = interaction.user.id if interaction else None
        pressed = interaction.message if interaction else None
        if interaction is None or pressed is None or pressed.id != match.message_id or _too_old(pressed.id):
            stored = await self._stored(match_id)  # the press was not on the current board, or there is none
            await self._publish(match, message, acting, press or stored.board, stored.board)
            return match
        try:
            await interaction.edit_original_response(**message)
        except DISCORD_FAILURES as error:
            log.warning("answering a press failed: %s", error, extra={"match": match_id})
            await self._publish(match, message, acting, press, None)
            return match
        await self._notify(match, pressed.id, acting, press, shown=True, board=press)
        return match

    async def post(self, match_id: int, interaction: discord.Interaction[Any]) -> None:
        """Post the first message of a new match in answer to a command or press, and remember it; if
        Discord will not take it, call the match off and raise NotPosted."""
        async with self._lock(match_id):
            match = self.service.on_screen(await self.service.get(match_id))
            message = {key: value for key, value in (await self._render(match)).items() if value is not None}
            sent: object
            followed_up = interaction.response.is_done()
            try:
                if followed_up:
                    sent = await interaction.followup.send(**message, wait=True)
                else:  # Discord answers with the message it posted: no second call that could fail
                    sent = (await interaction.response.send_message(**message)).resource
            except DISCORD_FAILURES as error:
                log.warning("could not post a new game, calling it off: %s", error, extra={"match": match_id})
                await self.service.call_off(match_id)
                raise CalledOff from None
            if not isinstance(sent, discord.Message):
                raise RuntimeError("Discord did not return the message it posted")
            press = self._press(interaction)
            board = None
            if press is not None:  # a follow-up of the press, or the command's own message
                board = press.reaching(sent.id) if followed_up else answered_with(interaction, sent.id)
            await self.service.set_message(match, sent.channel.id, sent.id, board)
            await self._notify(match, sent.id, interaction.user.id, press)

    async def _publish(
        self,
        match: Match,
        message: dict[str, Any],
        acting: int | None,
        through: PressToken | None,
        board: PressToken | None,
    ) -> None:
        """Show the match on its own message: edited through `board` (the token of the press it last
        answered) while that reaches it and works, else by the channel. A message too old to edit, or one
        Discord would not edit, is posted again: as a follow-up of `through`'s press while usable, else in
        the channel."""
        if match.message_id is not None:
            try:
                if not _too_old(match.message_id):
                    await self.routes.edit(match.channel_id, match.message_id, board, **message)
                    await self._notify(match, match.message_id, acting, through, shown=True)
                    return
                await self.routes.edit(
                    match.channel_id, match.message_id, board, content=MOVED, embed=None, view=None
                )
            except DISCORD_FAILURES as error:
                log.warning(
                    "could not edit the board, posting it again: %s", error, extra={"match": match.id}
                )
        await self._repost(match, message, acting, through)

    async def _repost(
        self, match: Match, message: dict[str, Any], acting: int | None, through: PressToken | None
    ) -> None:
        try:
            sent, board = await self.routes.send(match.channel_id, through, **message)
        except (discord.NotFound, discord.Forbidden) as error:  # the channel is gone, or closed to the bot
            log.warning(
                "could not post the board: %s (its channel is gone or closed to the bot: no start tries"
                " again)",
                error,
                extra={"match": match.id},
            )
            await self.service.shown(match)  # no start tries again, and its turn clock closes the game
            return
        except DISCORD_FAILURES as error:
            log.warning("could not post the board: %s", error, extra={"match": match.id})
            return
        await self.service.set_message(match, match.channel_id, sent.id, board)
        await self._notify(match, sent.id, acting, through)

    async def _notify(
        self,
        match: Match,
        board_id: int,
        acting: int | None,
        through: PressToken | None,
        *,
        shown: bool = False,
        board: PressToken | None = None,
    ) -> None:
        """Bring the game's notice up to date now that message `board_id` shows `match`: a new message tells
        the person whose moment it is (mentioning only them, so only they are notified), as a follow-up of
        `through`'s press while usable, then the previous notice is deleted (one delete per notice, never a
        burst; one that cannot be deleted is left). With `shown`, the board is then recorded as shown
        (`GameService.shown`; `board`: the token of the press it answered), with the notice if it changed.
        If Discord would not take the notice for now, the board is not recorded as shown, so the clock
        shows it again and its turn clock waits (a new board is recorded at once, and its notice is tried
        again at the next show)."""
        change = await self.service.notice(match, acting)
        if change is None:
            if shown:
                await self.service.shown(match, board)
            return
        posted: Posted | None = None
        if change.person is not None:
            try:
                said = notices.text(match, change, board_id)
                posted = await self._tell(match, change, said, board_id, through)
            except DISCORD_FAILURES as error:
                log.warning("could not post a notice: %s", error, extra={"match": match.id})
                if not isinstance(error, (discord.NotFound, discord.Forbidden)):
                    return  # else the channel is gone or closed to the bot: no try would ever do
        sent, token = posted if posted is not None else (None, None)
        await self.service.noticed(match.id, change, sent, token, shown=match if shown else None, board=board)
        if change.stale is not None and change.stale != sent:
            try:
                await self.notices.delete(match, change.stale, change.stale_token)
            except DISCORD_FAILURES as error:
                log.warning("could not delete a notice: %s", error, extra={"match": match.id})

    async def _tell(
        self, match: Match, change: Notice, said: str, board_id: int, through: PressToken | None
    ) -> Posted:
        """Post the notice that says `said`, unless an earlier posting left unrecorded already did; one
        posted through a token (no nonce) is recorded as under way first."""
        if change.attempted:
            found = await self.notices.recover(match, said, board_id, change.stale)
            if found is not None:
                return Posted(found, None)
        if usable(through) is not None:
            await self.service.noticing(match.id)
        return await self.notices.post(match, change, said, through)


def _too_old(message_id: int | None) -> bool:
    """Whether editing this message would run into Discord's throttling of edits to old messages."""
    if message_id is None:
        return False
    return discord.utils.utcnow() - discord.utils.snowflake_time(message_id) > REPOST_AFTER
