"""A game's notice: the one new message at a time that tells a person of a moment that is theirs (the turn
passing to them, their turn running out, the game's end, their challenge declined or expired, a rematch
wanted). Discord notifies for mentions in new messages only, and the board is edited in place, so each is a
short message of its own that mentions only that person (allowed mentions: that user) and links to the
board; the game's previous notice is deleted, so at most one is left per game.

`Notices` is the one place a game's notice is posted or deleted: where notices go (the channel now; a
press's own webhook, later) changes there alone. Each notice is posted with a nonce naming its moment, which
Discord enforces: a notice posted again by a bot restarted between posting it and recording it (a crash)
is the same message, not a second one."""

import discord
from discord.utils import escape_markdown as md

from bot.discord.embeds import EN_DASH, timestamp
from bot.services import Match, MatchStatus, Moment, Notice


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

    def __init__(self, client: discord.Client) -> None:
        self._client = client

    async def post(self, match: Match, notice: Notice, said: str) -> int:
        """Post a notice that mentions only its person; its message id. Raises what Discord raises."""
        if notice.person is None:
            raise ValueError("a notice that tells nobody is not posted")
        channel = self._client.get_partial_messageable(match.channel_id)
        nonce = f"hog{match.id}-{notice.moment.value}-{notice.turn}"  # Discord takes 25 characters at most
        sent = await channel.send(said, allowed_mentions=only(notice.person.id), nonce=nonce)
        return sent.id

    async def delete(self, match: Match, message_id: int) -> None:
        """Delete one of the game's notices. Raises what Discord raises."""
        await self._client.get_partial_messageable(match.channel_id).get_partial_message(message_id).delete()
