"""The two messages a match shows: the challenge, then the board (live, then finished), each made to fit a
phone at 360 px: a one-line title (the rule set's short name), at most PHONE_LINES lines of text, no long
hex (the dice commitment and seed are behind the board's "Verify dice" button; the footer keeps the
commitment's first digits)."""

from collections.abc import Sequence

import discord

from bot.discord.text import PHONE_LINES, fitted, phone_lines, progress, recent, turn_line
from bot.discord.text import shown_name as md
from bot.services import Match, MatchStatus, TurnRecord
from hogengine.commentary import for_people, game_commentary
from hogengine.game import SIDES, dice_for, dice_in_words, turn_number
from hogengine.rules import RuleSet, get_rules
from hogengine.text import counted

LIVE = discord.Colour.blurple()
WON = discord.Colour.green()
LOST_BY_DEFAULT = discord.Colour.orange()  # a forfeit or a loss on time: won, but not at the dice
CLOSED = discord.Colour.light_grey()  # declined, withdrawn, expired: no game was played

_CLOSED_CHALLENGE = {
    MatchStatus.DECLINED: "**{1}** declined the challenge.",
    MatchStatus.CANCELLED: "**{0}** withdrew the challenge.",
    MatchStatus.EXPIRED: "Nobody answered in time: the challenge expired.",
}
CHALLENGE_STATUSES = (MatchStatus.PENDING, *_CLOSED_CHALLENGE)
# How a played game ended: the colour, and the line that says how (with its mark).
_ENDINGS = {
    MatchStatus.FINISHED: (WON, "🏆 **{winner}** reached {goal} and wins, {score}."),
    MatchStatus.FORFEIT: (LOST_BY_DEFAULT, "🏳️ **{loser}** gave up: **{winner}** wins, {score}."),
    MatchStatus.TIMEOUT: (LOST_BY_DEFAULT, "⏰ **{loser}** ran out of time: **{winner}** wins, {score}."),
}
EN_DASH = "\u2013"  # between two scores, as print sets them
SHORT_HASH = 8  # hex digits of the dice commitment in the footer (the whole of it: the Verify dice button)
USUAL_GOAL = 100  # a goal the title does not name


def timestamp(seconds: float) -> str:
    """A Discord timestamp that every reader sees counting down in their own time zone."""
    return f"<t:{int(seconds)}:R>"


def title(match: Match) -> str:
    """A match's one-line title: the rule set's short name, and the goal unless it is the usual one."""
    name = get_rules(match.rules).name
    return name if match.goal == USUAL_GOAL else f"{name} · first to {match.goal}"


def challenge(match: Match) -> discord.Embed:
    """A challenge waiting for an answer, or how it closed."""
    seats = (md(match.seat_names[0]), md(match.seat_names[1]))
    lines = [f"**{seats[0]}** challenges **{seats[1]}** to a game of Hog."]
    colour = LIVE
    if match.status is MatchStatus.PENDING and match.challenge_expires_at is not None:
        lines.append(f"{seats[1]}: accept or decline. Expires {timestamp(match.challenge_expires_at)}.")
    else:
        colour = CLOSED
        lines.append(_CLOSED_CHALLENGE.get(match.status, "").format(*seats))
    return discord.Embed(title=title(match), description="\n".join(lines), colour=colour)


def rules(ruleset: RuleSet) -> discord.Embed:
    """`/hog rules`: the rule set's own rule text."""
    return discord.Embed(title=ruleset.title, description=ruleset.explain())


def _scores(match: Match, seats: tuple[str, str]) -> list[str]:
    """Each seat's line: who moves, the score, a bar towards the goal; then its hidden parts that changed."""
    state = match.state
    live = match.status is MatchStatus.ACTIVE
    lines = []
    for seat, name in enumerate(seats):
        marker = "▶ " if live and seat == state.mover else ""
        score = state.scores[seat]
        lines.append(f"{marker}{name} · **{score}** `{progress(score, match.goal)}`")
        lines += [f"↳ {part}" for part in state.ruleset.describe_hidden(state, seat, changed_only=True)]
    return lines


def _status(match: Match, seats: tuple[str, str], short: bool = False) -> list[str]:
    """Who moves and with which dice, the shared hidden parts, the turn's clock (`short`: the dice without
    the rules and shared parts that set them); or how the game ended."""
    state = match.state
    if match.status is MatchStatus.ACTIVE:
        mover = seats[state.mover]
        if match.is_bot_turn:
            lines = [f"**{mover}** is rolling…"]
        else:
            dice = f"{SIDES[dice_for(state, 1)[1]]} dice" if short else dice_in_words(state)
            lines = [f"**{mover}** to move, with {dice}."]
        if not short:
            lines += state.ruleset.describe_hidden(state, None, changed_only=True)
        if match.turn_deadline is not None:
            lines.append(f"Turn ends {timestamp(match.turn_deadline)}.")
        return lines
    winner = match.winner if match.winner is not None else 0
    _, ending = _ENDINGS[match.status]
    scores = state.scores
    score = f"{scores[winner]}{EN_DASH}{scores[1 - winner]}"
    return [ending.format(winner=seats[winner], loser=seats[1 - winner], goal=match.goal, score=score)]


def footer(match: Match) -> str:
    """The match number, the turn (live: the one to play; over: how many were played) and the dice
    commitment's first digits."""
    turn = (
        f"turn {turn_number(match.state.turn)}"
        if match.status is MatchStatus.ACTIVE
        else counted(match.state.turn, "turn")
    )
    return f"Match {match.id} · {turn} · dice {(match.seed_hash or '')[:SHORT_HASH]}"


def board(match: Match, turns: Sequence[TurnRecord]) -> discord.Embed:
    """The game board in at most PHONE_LINES lines on a phone: scores, who moves and with which dice (or how
    it ended), the clock, the turns since the side to move last moved, commentary (never on a game won by
    default) and a rematch wanted."""
    seats = (md(match.seat_names[0]), md(match.seat_names[1]))  # a name is never read as Markdown
    live = match.status is MatchStatus.ACTIVE
    heading = title(match)
    foot = footer(match)
    results = [turn.result for turn in turns]
    played: list[str] = []
    if results:
        mover = match.state.mover if live else 1 - results[-1].player
        rules = get_rules(match.rules)
        played = [turn_line(turn, rules.choice_label(turn.choice), seats) for turn in recent(results, mover)]
    after = []
    if match.seed is not None:
        votes = match.rematch_votes
        if any(votes) and not all(votes):
            after.append(f"**{seats[votes.index(True)]}** wants a rematch.")
    room = 0
    for short in (False, True):  # the dice's reasons give way before the latest turn does
        status = _status(match, seats, short)
        fixed = _scores(match, seats) + status if live else status + _scores(match, seats)
        room = PHONE_LINES - phone_lines(heading) - phone_lines(foot) - phone_lines("\n".join(fixed + after))
        if not played or room >= phone_lines(played[-1]):
            break
    said = []
    if results and match.status in (MatchStatus.ACTIVE, MatchStatus.FINISHED):
        said = [for_people(line, seats) for line in game_commentary(results)[-1]]
    if phone_lines("\n".join(played + said)) > room:
        said = []  # the turns come first
    lines = [*fixed, *fitted(played, room - phone_lines("\n".join(said)) if said else room), *said, *after]
    colour = LIVE if live else _ENDINGS[match.status][0]
    embed = discord.Embed(title=heading, description="\n".join(lines), colour=colour)
    return embed.set_footer(text=foot)


def dice_check(match: Match) -> str:
    """What the Verify dice button answers: the dice commitment in full while the game is on, and the seed
    with it once it is over, with how to check every roll."""
    commitment = match.seed_hash or ""
    if match.seed is None:
        return (
            f"Match {match.id}'s dice come from a secret seed fixed before the first roll. Its SHA-256, the "
            f"commitment (the footer shows its first {SHORT_HASH} digits):\n`{commitment}`\n"
            "The seed is revealed when the game ends: then anyone can re-derive every roll."
        )
    return (
        f"Match {match.id}'s dice seed, revealed now that the game is over:\n`{match.seed}`\n"
        f"Its SHA-256 is the commitment fixed before the first roll (the footer shows its first "
        f"{SHORT_HASH} digits):\n`{commitment}`\n"
        f"Check every roll: /hog export match:{match.id}, then `hog replay hog-match-{match.id}.json`."
    )
