"""The two messages a match shows: the challenge, then the board (live, then finished)."""

from collections.abc import Sequence

import discord
from discord.utils import escape_markdown as md

from bot.discord.text import fitted, progress, recent, turn_line
from bot.services import Match, MatchStatus, TurnRecord
from hogengine.commentary import course_commentary, for_people
from hogengine.game import dice_in_words
from hogengine.rules import RuleSet, get_rules

LIVE = discord.Colour.blurple()
WON = discord.Colour.green()
LOST_BY_DEFAULT = discord.Colour.orange()  # a forfeit or a loss on time: won, but not at the dice
CLOSED = discord.Colour.light_grey()  # declined, withdrawn, expired: no game was played

_CLOSED_CHALLENGE = {
    MatchStatus.DECLINED: "{1} declined the challenge.",
    MatchStatus.CANCELLED: "{0} withdrew the challenge.",
    MatchStatus.EXPIRED: "Nobody answered in time: the challenge expired.",
}
CHALLENGE_STATUSES = (MatchStatus.PENDING, *_CLOSED_CHALLENGE)
# How a played game ended: the title's mark, the colour, and the line that says how.
_ENDINGS = {
    MatchStatus.FINISHED: ("🏆", WON, "**{winner}** reached {goal} and wins!"),
    MatchStatus.FORFEIT: ("🏳️", LOST_BY_DEFAULT, "**{loser}** gave up: **{winner}** wins."),
    MatchStatus.TIMEOUT: ("⏰", LOST_BY_DEFAULT, "**{loser}** ran out of time: **{winner}** wins."),
}
EN_DASH = "\u2013"  # between two scores, as print sets them
FIELD_LIMIT = 1024  # characters Discord takes in an embed field's value
SHORT_HASH = 8  # hex digits of the dice commitment in the footer; the whole of it at the start and the end


def timestamp(seconds: float) -> str:
    """A Discord timestamp that every reader sees counting down in their own time zone."""
    return f"<t:{int(seconds)}:R>"


def challenge(match: Match) -> discord.Embed:
    """A challenge waiting for an answer, or how it closed."""
    seats = match.seat_names
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
    lines += state.ruleset.describe_hidden(state, seat, changed_only=True)
    return "\n".join(lines)


def _status(match: Match, seats: tuple[str, str]) -> str:
    if match.status is MatchStatus.ACTIVE:
        state = match.state
        mover = seats[state.mover]
        if match.is_bot_turn:
            lines = [f"**{mover}** is rolling…"]
        else:
            lines = [f"**{mover}** to move, with {dice_in_words(state)}."]
        lines += state.ruleset.describe_hidden(state, None, changed_only=True)
        if match.turn_deadline is not None:
            lines.append(f"Turn ends {timestamp(match.turn_deadline)}.")
        return "\n".join(lines)
    winner = match.winner if match.winner is not None else 0
    _, _, ending = _ENDINGS[match.status]
    return ending.format(winner=seats[winner], loser=seats[1 - winner], goal=match.goal)


def _title(match: Match, seats: tuple[str, str], rules: RuleSet) -> str:
    """A live game's rule set; a played game's winner and score ("🏆 alice beats bob 111-56", with an en
    dash)."""
    if match.status is MatchStatus.ACTIVE:
        return f"Hog · {rules.title}"
    winner = match.winner if match.winner is not None else 0
    mark, _, _ = _ENDINGS[match.status]
    scores = match.state.scores
    return f"{mark} {seats[winner]} beats {seats[1 - winner]} {scores[winner]}{EN_DASH}{scores[1 - winner]}"


def _dice_check(match: Match) -> str | None:
    """The dice commitment in full, when the game starts, and with the seed once it is over (anyone can
    then re-derive every roll); the footer carries its first digits in between."""
    if match.seed is not None:
        return (
            f"Seed `{match.seed}`\nSHA-256 `{match.seed_hash}`\n"
            "Check every roll: `/hog export`, then `hog replay`."
        )
    if match.status is MatchStatus.ACTIVE and match.state.turn == 0:
        return (
            f"SHA-256 of this game's secret dice seed: `{match.seed_hash}`\n"
            "The seed is shown when the game ends, so anyone can check every roll."
        )
    return None


def board(match: Match, turns: Sequence[TurnRecord]) -> discord.Embed:
    """The game board: scores, who moves and with which dice, the recent turns, commentary and the clock."""
    seats = (md(match.seat_names[0]), md(match.seat_names[1]))  # a name is never read as Markdown
    rules = get_rules(match.rules)
    live = match.status is MatchStatus.ACTIVE
    colour = LIVE if live else _ENDINGS[match.status][1]
    embed = discord.Embed(title=_title(match, seats, rules), description=_status(match, seats), colour=colour)
    for seat, name in enumerate(seats):
        marker = "▶ " if live and seat == match.state.mover else ""
        embed.add_field(name=f"{marker}{name}", value=_player_field(match, seat))
    results = [turn.result for turn in turns]
    if results:
        mover = match.state.mover if live else 1 - results[-1].player
        lines = [turn_line(turn, rules.choice_label(turn.choice), seats) for turn in recent(results, mover)]
        embed.add_field(name="Recent turns", value=fitted(lines, FIELD_LIMIT), inline=False)
        said = [for_people(line, seats) for line in course_commentary(r.after.scores for r in results)[-1]]
        if said:
            embed.add_field(name="Commentary", value="\n".join(said), inline=False)
    check = _dice_check(match)
    if check is not None:
        embed.add_field(name="Fair dice", value=check, inline=False)
    if match.seed is not None:
        votes = match.rematch_votes
        if any(votes) and not all(votes):
            wants = seats[votes.index(True)]
            embed.add_field(name="Rematch", value=f"{wants} wants a rematch.", inline=False)
    commitment = (match.seed_hash or "")[:SHORT_HASH]
    embed.set_footer(text=f"Match {match.id} · turn {match.state.turn} · dice {commitment}")
    return embed
