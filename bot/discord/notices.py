"""A game's notice: the one new message at a time that tells a person of a moment that is theirs (the turn
passing to them, their turn running out, the game's end, their challenge declined or expired, a rematch
wanted). Discord notifies for mentions in new messages only, and the board is edited in place, so each is a
short message of its own that mentions only that person (allowed mentions: that user) and links to the
board; the game's previous notice is deleted, so at most one is left per game.

`Notices` is the one place a game's notice is posted or deleted. A notice goes as a follow-up of a press
while a press's token is usable (of the press that passed the turn, or the last press on the board for the
clock's moments), and is deleted through the token it was posted through, all free of Discord's global rate
limit; else by the channel (routes.py). Posted by the channel, a notice carries a nonce naming its moment,
which Discord enforces: posted again by a bot restarted between posting it and recording it (a crash), it
is the same message, not a second one. A follow-up takes no nonce: before one is posted the game records
that a posting is under way (`GameService.noticing`), and a posting left unrecorded is looked for in the
channel before the moment is told again (`recover`)."""

from typing import NamedTuple

import discord
from discord.utils import escape_markdown as md

from bot.discord.budget import Priority, spending
from bot.discord.embeds import EN_DASH, timestamp
from bot.discord.routes import Routes
from bot.domain.tokens import PressToken
from bot.services import Match, MatchStatus, Moment, Notice

RECENT = 100  # the channel's latest messages looked at for a notice whose posting is unaccounted for


class Posted(NamedTuple):
    """A notice posted: its message, and the token it was posted through (None: by the channel)."""

    message_id: int
    through: PressToken | None


def only(user_id: int) -> discord.AllowedMentions:
    """Mentions that notify this one person and nobody else."""
    return discord.AllowedMentions(
        users=[discord.Object(user_id)], everyone=False, roles=False, replied_user=False
    )


def link(match: Match, message_id: int) -> str:
    """A link that opens a message of the match's channel."""
    return f"https://discord.com/channels/{match.guild_id or '@me'}/{match.channel_id}/{message_id}"


def _ended(match: Match, seat: int, other: str) -> tuple[str, str]:
    """How a played game ended, said to the person in `seat` (the other side is `other`): a mark to lead
    with (maybe none) and the words."""
    scores = match.state.scores
    score = f"{scores[seat]}{EN_DASH}{scores[1 - seat]}"
    if match.status is MatchStatus.FORFEIT:
        return "🏳️ ", f"**{other}** gave up: you win, {score}"
    if match.winner != seat:
        late = match.status is MatchStatus.TIMEOUT
        return (
            ("⏰ ", f"you ran out of time: **{other}** wins, {score}")
            if late
            else ("", f"you lost to **{other}**, {score}")
        )
    if match.status is MatchStatus.TIMEOUT:
        return "⏰ ", f"**{other}** ran out of time: you win, {score}"
    return "🏆 ", f"you beat **{other}**, {score}"


def text(match: Match, notice: Notice, board: int) -> str:
    """What a notice says to its person about its moment, with a link to the board (`board`: its message)."""
    person = notice.person
    if person is None:
        raise ValueError("a notice that tells nobody has no text")
    seat = match.seat_of(person.id)
    if seat is None:
        raise ValueError("a notice goes to a person of the match")
    you, other, where = f"<@{person.id}>", md(match.seat_name(1 - seat)), link(match, board)
    if notice.moment is Moment.TURN:
        return f"{you}, it's your move against **{other}**: {where}"
    if notice.moment is Moment.HURRY:
        ends = timestamp(match.turn_deadline or 0)
        return f"⏳ {you}, your move against **{other}** runs out {ends}: {where}"
    if notice.moment is Moment.REMATCH:
        return f"{you}, **{other}** wants a rematch: press Rematch on the board. {where}"
    if match.status is MatchStatus.DECLINED:
        return f"{you}, **{other}** declined your challenge: {where}"
    if match.status is MatchStatus.EXPIRED:
        return f"{you}, **{other}** did not answer your challenge in time: {where}"
    mark, ended = _ended(match, seat, other)
    return f"{mark}{you}, {ended}: {where}"


class Notices:
    """Posts and deletes the games' notices (the one place that does)."""

    def __init__(self, routes: Routes) -> None:
        self._routes = routes

    async def post(self, match: Match, notice: Notice, said: str, through: PressToken | None) -> Posted:
        """Post a notice that mentions only its person: a follow-up of `through`'s press while usable, else in
        the channel, where Discord enforces a nonce naming the moment (waiting in the budget as a NOTICE).
        Raises what Discord raises."""
        if notice.person is None:
            raise ValueError("a notice that tells nobody is not posted")
        nonce = f"hog{match.id}-{notice.moment.value}-{notice.turn}"  # Discord takes 25 characters at most
        sent, token = await self._routes.send(
            match.channel_id,
            through,
            Priority.NOTICE,
            nonce,
            content=said,
            allowed_mentions=only(notice.person.id),
        )
        return Posted(sent.id, token)

    async def delete(self, match: Match, message_id: int, through: PressToken | None) -> None:
        """Delete one of the game's notices: through the token it was posted through while usable, else by the
        channel. Raises what Discord raises."""
        await self._routes.delete(match.channel_id, message_id, through)

    async def recover(self, match: Match, said: str, board: int, live: int | None) -> int | None:
        """After a notice's posting whose outcome is unknown (a follow-up carries no nonce): the notice that
        says `said` if it is in the channel already; the game's other notices found there, posted and never
        recorded, are deleted (not `live`, the one recorded). Reads the channel's latest messages."""
        channel, client = self._routes.channel(match.channel_id), self._routes.client
        with spending(Priority.NOTICE):
            recent = [message async for message in channel.history(limit=RECENT)]
        mine = {getattr(client.user, "id", None), client.application_id}
        ours = [
            message
            for message in recent
            if message.id != live
            and (message.author.id in mine or message.webhook_id in mine)
            and message.content.endswith(link(match, board))
        ]
        found = next((message.id for message in ours if message.content == said), None)
        for message in ours:
            if message.id != found:
                await self.delete(match, message.id, None)
        return found
