"""The two messages a match shows: the challenge, then the board (live, then finished)."""

from collections.abc import Sequence

import discord

from bot.discord.text import last_turn, names, progress, with_names
from bot.services import Match, MatchStatus, TurnRecord
from hogengine.commentary import course_commentary
from hogengine.game import dice_in_words
from hogengine.rules import RuleSet, get_rules

LIVE = discord.Colour.blurple()
DONE = discord.Colour.green()
CLOSED = discord.Colour.light_grey()

_CLOSED_CHALLENGE = {
    MatchStatus.DECLINED: "{1} declined the challenge.",
    MatchStatus.CANCELLED: "{0} withdrew the challenge.",
    MatchStatus.EXPIRED: "Nobody answered in time: the challenge expired.",
}
CHALLENGE_STATUSES = (MatchStatus.PENDING, *_CLOSED_CHALLENGE)
_ENDINGS = {
    MatchStatus.FINISHED: "**{winner}** reached {goal} and wins!",
    MatchStatus.FORFEIT: "**{loser}** gave up: **{winner}** wins.",
    MatchStatus.TIMEOUT: "**{loser}** ran out of time: **{winner}** wins.",
}


def timestamp(seconds: float) -> str:
    """A Discord timestamp that every reader sees counting down in their own time zone."""
    return f"<t:{int(seconds)}:R>"


def challenge(match: Match) -> discord.Embed:
    """A challenge waiting for an answer, or how it closed."""
    seats = names(match)
    rules = get_rules(match.rules)
    embed = discord.Embed(title=f"{seats[0]} challenges {seats[1]} to Hog", colour=LIVE)
    embed.add_field(name="Rules", value=rules.title)
    embed.add_field(name="Goal", value=str(match.goal))
    if match.status is MatchStatus.PENDING and match.challenge_expires_at is not None:
        embed.description = f"{seats[1]}: accept or decline. Expires {timestamp(match.challenge_expires_at)}."
    else:
        embed.colour = CLOSED
        embed.description = _CLOSED_CHALLENGE.get(match.status, "").format(*seats)
    return embed


def rules(ruleset: RuleSet) -> discord.Embed:
    """`/hog rules`: the rule set's own rule text."""
    return discord.Embed(title=ruleset.title, description=ruleset.explain())


def _player_field(match: Match, seat: int) -> str:
    state = match.state
    score = state.scores[seat]
    lines = [f"**{score}** / {match.goal}", f"`{progress(score, match.goal)}`"]
    lines += state.ruleset.describe_hidden(state, seat)
    return "\n".join(lines)


def _status(match: Match, seats: tuple[str, str]) -> str:
    if match.status is MatchStatus.ACTIVE:
        mover = seats[match.state.mover]
        lines = [f"**{mover}** to move with {dice_in_words(match.state)}."]
        lines += match.state.ruleset.describe_hidden(match.state, None)
        if match.is_bot_turn:
            lines.append(f"{mover} is thinking…")
        elif match.turn_deadline is not None:
            lines.append(f"Turn ends {timestamp(match.turn_deadline)}.")
        return "\n".join(lines)
    winner = match.winner if match.winner is not None else 0
    return _ENDINGS.get(match.status, "").format(
        winner=seats[winner], loser=seats[1 - winner], goal=match.goal
    )


def board(match: Match, turns: Sequence[TurnRecord]) -> discord.Embed:
    """The game board: scores, who moves and with which dice, the last turn, commentary and the clock."""
    seats = names(match)
    rules = get_rules(match.rules)
    live = match.status is MatchStatus.ACTIVE
    score = "-".join(str(points) for points in match.state.scores)
    title = f"Hog · {rules.title}" if live else f"Game over · {score}"
    embed = discord.Embed(title=title, description=_status(match, seats), colour=LIVE if live else DONE)
    for seat, name in enumerate(seats):
        marker = "▶ " if live and seat == match.state.mover else ""
        embed.add_field(name=f"{marker}{name}", value=_player_field(match, seat))
    results = [turn.result for turn in turns]
    if results:
        embed.add_field(
            name="Last turn",
            value="\n".join(last_turn(results[-1], rules.choice_label(results[-1].choice), seats)),
            inline=False,
        )
        said = [with_names(line, seats) for line in course_commentary(r.after.scores for r in results)[-1]]
        if said:
            embed.add_field(name="Commentary", value="\n".join(said), inline=False)
    if match.seed is not None:
        embed.add_field(name="Dice seed (revealed)", value=f"`{match.seed}`", inline=False)
        votes = match.rematch_votes
        if any(votes) and not all(votes):
            wants = seats[votes.index(True)]
            embed.add_field(name="Rematch", value=f"{wants} wants a rematch.", inline=False)
    embed.set_footer(text=f"Match {match.id} · turn {match.state.turn} · dice SHA-256 {match.seed_hash}")
    return embed
