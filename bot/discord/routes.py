"""Which way a message about a game goes to Discord: through a press's own interaction while its token is
usable (Discord's global rate limit does not bind interactions' webhooks: a follow-up posted, a message the
press answered or posted edited or deleted, for 15 minutes), else by the channel's routes, which the limit
binds (each such call takes its turn in the budget, see budget.py).

A press's token is kept with its game (the service stores it), so the house bot's move, the clock's notices
and a restarted process answer through it too; it is a secret: the token lives in `PressToken.secret`,
which no repr shows, and no log line names it."""

import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import discord
from discord.http import handle_message_parameters
from discord.webhook.async_ import async_context

from bot.discord.budget import Priority, spending
from bot.discord.errors import DISCORD_FAILURES
from bot.domain.tokens import PressToken

log = logging.getLogger(__name__)
T = TypeVar("T")

TOKEN_SECONDS = 15 * 60.0  # how long Discord takes an interaction's token
TOKEN_MARGIN = 30.0  # used until this long before: a call under way when Discord stops taking it fails
# Discord's words for a token it no longer takes: Unknown Webhook, Invalid Webhook Token.
TOKEN_GONE = (10015, 50027)


def press_token(interaction: discord.Interaction[Any]) -> PressToken:
    """The token of a press (or command): it reaches the message pressed as its own (None for a command,
    whose own message is its answer, not a game's)."""
    pressed = interaction.message
    until = interaction.created_at.timestamp() + TOKEN_SECONDS - TOKEN_MARGIN
    return PressToken(interaction.token, None if pressed is None else pressed.id, pressed is not None, until)


def answered_with(interaction: discord.Interaction[Any], message_id: int) -> PressToken:
    """The token of a command answered with this message (its own message: @original)."""
    token = press_token(interaction)
    return PressToken(token.secret, message_id, True, token.usable_until)


def usable(token: PressToken | None) -> PressToken | None:
    """The token if the bot may still use it now."""
    if token is None or token.usable_until <= discord.utils.utcnow().timestamp():
        return None
    return token


def _gone(error: Exception) -> bool:
    """Whether Discord refused a call because the token it went through no longer works."""
    return isinstance(error, discord.HTTPException) and (error.status == 401 or error.code in TOKEN_GONE)


class Routes:
    """Sends through a press's token while it is usable and works, else by the channel."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client

    def webhook(self, token: PressToken) -> discord.Webhook:
        """The interaction's webhook this token opens."""
        return discord.Webhook.partial(self.client.application_id or 0, token.secret, client=self.client)

    def channel(self, channel_id: int) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(channel_id)

    async def either(
        self,
        token: PressToken | None,
        through: Callable[[discord.Webhook, PressToken], Awaitable[T]],
        by_channel: Callable[[], Awaitable[T]],
        priority: Priority | None = None,
    ) -> tuple[T, PressToken | None]:
        """`through` the token's webhook while the token is usable, else (or if Discord no longer takes it)
        `by_channel`, waiting in the budget at `priority` (None: the work's own): the result, and the token
        it went through (None: the channel). Raises what Discord raises otherwise."""
        live = usable(token)
        if live is not None:
            try:
                return await through(self.webhook(live), live), live
            except DISCORD_FAILURES as error:
                if not _gone(error):
                    raise
                log.info("Discord no longer takes a press's token (%s); by the channel instead", error)
        if priority is None:
            return await by_channel(), None
        with spending(priority):
            return await by_channel(), None

    async def edit(self, channel_id: int, message_id: int, token: PressToken | None, **fields: Any) -> None:
        """Edit a message: through the token if it reaches it, else by the channel (at the work's own
        priority)."""

        async def through(webhook: discord.Webhook, live: PressToken) -> None:
            if live.original:
                await _edit_original(webhook, **fields)
            else:
                await webhook.edit_message(message_id, **fields)

        async def by_channel() -> None:
            await self.channel(channel_id).get_partial_message(message_id).edit(**fields)

        reaches = token if token is not None and token.message_id == message_id else None
        await self.either(reaches, through, by_channel)

    async def send(
        self,
        channel_id: int,
        token: PressToken | None,
        priority: Priority | None = None,
        nonce: str | None = None,
        **fields: Any,
    ) -> tuple[discord.Message, PressToken | None]:
        """Post a new message: a follow-up of the token's press while usable, else in the channel (with this
        nonce for Discord to enforce, if any: a follow-up takes none); the message, and the token that
        reaches it (None: posted by the channel)."""

        async def through(webhook: discord.Webhook, live: PressToken) -> discord.Message:
            return await webhook.send(**fields, wait=True)

        async def by_channel() -> discord.Message:
            enforced: dict[str, Any] = {} if nonce is None else {"nonce": nonce}
            return await self.channel(channel_id).send(**fields, **enforced)

        sent, via = await self.either(token, through, by_channel, priority)
        return sent, None if via is None else via.reaching(sent.id)

    async def delete(self, channel_id: int, message_id: int, token: PressToken | None) -> None:
        """Delete a message: through the token that posted it while usable, else by the channel (nobody
        waits for it: in the background of the budget)."""

        async def through(webhook: discord.Webhook, live: PressToken) -> None:
            await webhook.delete_message(message_id)

        async def by_channel() -> None:
            await self.channel(channel_id).get_partial_message(message_id).delete()

        reaches = token if token is not None and token.message_id == message_id else None
        await self.either(reaches, through, by_channel, Priority.BACKGROUND)


async def _edit_original(webhook: discord.Webhook, **fields: Any) -> None:
    """Edit the message a press answers (Discord's @original), as discord.py's own
    `Interaction.edit_original_response` does, for a press known by its token alone."""
    with handle_message_parameters(**fields) as params:
        await async_context.get().edit_original_interaction_response(
            webhook.id,
            webhook.token or "",
            session=webhook.session,
            proxy=webhook.proxy,
            proxy_auth=webhook.proxy_auth,
            payload=params.payload,
            multipart=params.multipart,
            files=params.files,
        )
