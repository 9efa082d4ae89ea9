"""The messages of strategies, tournaments, ratings, stats, history and analysis."""

from collections.abc import Sequence

import discord

from bot.discord.embeds import timestamp
from bot.discord.text import shown_name as md
from bot.domain.errors import upload_again
from bot.domain.matches import HOUSE_NAME
from bot.domain.tournaments import shared_places, tie_breaks_shown
from bot.images.standings import MAX_PLACES, fitted
from bot.services import (
    HistoryEntry,
    MatchAnalysis,
    MatchStatus,
    Rating,
    Stats,
    StoredStrategy,
    Tournament,
    Upload,
)
from hogengine.analysis import MISTAKE, Move
from hogengine.game import State, choice_label
from hogengine.rules import get_rules
from hogengine.solver import BEST_TABLE, PERFECT
from hogengine.text import counted, percent

GOOD = discord.Colour.green()
BAD = discord.Colour.red()
INFO = discord.Colour.blurple()
# How the reference opponents read: the perfect bot is the one `/hog vs-bot level:perfect` plays.
OPPONENTS = {PERFECT: "the perfect bot", BEST_TABLE: "the best score-only table"}
# What breaks ties in each tournament format, which heads its last column, and what ranks it, in words.
TIE_BREAKS = {"exact": "mean win rate", "sampled": "vs always_roll(5)"}
RANKED = {
    "exact": "Ranked by matches won (won: an exact win rate above one half; a tie loses), then by the last "
    "column: the mean exact win rate against the others",
    "sampled": "Ranked by matches won (most of 9 games), then by the last column: the exact win rate against "
    "always_roll(5)",
}
# The standings' columns in text, at most PHONE_COLUMNS characters a row so a phone shows them whole: their
# alignment; each is as wide as its longest cell, but a strategy's name (cut: the picture shows it whole)
# takes at most NAME_WIDTH and only what the place, record and rate (with its deciding digits) leave.
ALIGN, NAME, NAME_WIDTH, PHONE_COLUMNS = "><>>", 1, 16, 32
TEXT_ROWS = 20  # places in the text at most; the picture shows them all
MESSAGE_LIMIT = 2000  # characters Discord takes in a message
_HOW = {MatchStatus.FORFEIT: " by forfeit", MatchStatus.TIMEOUT: " on time"}
MAX_LINES = 25
SETTLING = "settling: play a few more games"  # a rating whose uncertainty is still large
TABLE_HASH = 12  # hex digits of a table's SHA-256 in a footer: enough to tell two tables apart by eye
TO = "\N{EN DASH}"  # between wins and losses, as in "5-2" typeset


def _figures(embed: discord.Embed, strategy: StoredStrategy) -> discord.Embed:
    """One field per reference opponent: the exact win rate on average, moving first and second."""
    for figure in strategy.figures:
        embed.add_field(
            name=f"vs {OPPONENTS.get(figure.opponent, figure.opponent)}",
            value="\n".join(
                [
                    f"**{percent(figure.average)}**",
                    f"first {percent(figure.first)}",
                    f"second {percent(figure.second)}",
                ]
            ),
        )
    return embed


def _source(strategy: StoredStrategy) -> str:
    if strategy.cpu_seconds is None:
        return "a JSON table"
    return f"a Python file, {strategy.cpu_seconds:.2f} s of CPU in the sandbox"


def _entry(strategy: StoredStrategy) -> list[str]:
    """What its file said besides its table: its TEAM_NAME, and whether it answers at random (read with
    its tables)."""
    lines = [] if strategy.team_name is None else [f"TEAM_NAME: **{md(strategy.team_name)}**."]
    if strategy.tables:
        lines.append(
            f"It answers at random: {len(strategy.tables)} tables of it were recorded, one per game of a "
            "sampled match; its exact win rates are its first table's."
        )
    return lines


def upload_verdict(upload: Upload) -> discord.Embed:
    """An accepted upload: whose it is, its TEAM_NAME, what it replaced or equals, when its owner may upload
    again, and its exact win rates."""
    strategy = upload.strategy
    plays = get_rules(strategy.rules).name
    lines = [
        f"**{md(strategy.name)}** by {md(strategy.owner.name)} plays {plays}: {_source(strategy)}.",
        *_entry(strategy),
    ]
    if strategy.source_kind == "py" and strategy.team_name is None:
        lines.append("The file gives itself no name (TEAM_NAME or PLAYER_NAME).")
    if upload.replaced is not None:
        lines.append("It replaces your earlier version (kept in the strategy's history).")
    if upload.duplicate_of is not None:
        twin = upload.duplicate_of
        lines.append(
            f"Its table is identical to **{md(twin.name)}** by {md(twin.owner.name)} (same SHA-256)."
        )
    if upload.retry_at is not None:
        lines.append(upload_again(upload.retry_at, get_rules(strategy.rules).name, strategy.cpu_seconds))
    lines.append("Exact win rates over both seatings, against:")
    embed = discord.Embed(title=f"Accepted: {md(strategy.name)}", description="\n".join(lines), colour=GOOD)
    embed.set_footer(text=f"table {strategy.table_hash[:TABLE_HASH]}")
    return _figures(embed, strategy)


def refused(reason: str) -> discord.Embed:
    """An upload that was not accepted, and the one-line reason."""
    return discord.Embed(title="Not accepted", description=reason, colour=BAD)


def strategy_card(strategy: StoredStrategy, versions: int) -> discord.Embed:
    """One stored strategy: owner, rule set, source, versions and its exact win rates."""
    described = (
        f"By {md(strategy.owner.name)} for {get_rules(strategy.rules).name}: {_source(strategy)}. Uploaded "
        f"{timestamp(strategy.created_at)}; version {versions} of {versions}."
    )
    embed = discord.Embed(
        title=md(strategy.name), description="\n".join([described, *_entry(strategy)]), colour=INFO
    )
    embed.set_footer(text=f"table {strategy.table_hash[:TABLE_HASH]}")
    return _figures(embed, strategy)


def _bounded(lines: Sequence[str]) -> str:
    more = len(lines) - MAX_LINES
    return "\n".join([*lines[:MAX_LINES], *([f"… and {more} more."] if more > 0 else [])])


def strategy_list(strategies: Sequence[StoredStrategy], title: str) -> discord.Embed:
    """A server's (or one person's) active strategies with their average against the perfect bot."""
    lines = []
    for strategy in strategies:
        perfect = next((f.average for f in strategy.figures if f.opponent == PERFECT), None)
        versus = "" if perfect is None else f" · {percent(perfect)} vs the perfect bot"
        lines.append(
            f"**{md(strategy.name)}** ({get_rules(strategy.rules).name}) by {md(strategy.owner.name)}{versus}"
        )
    text = _bounded(lines) or "No strategies yet: `/hog upload strategy` adds one."
    return discord.Embed(title=title, description=text, colour=INFO)


def standings_header(tournament: Tournament) -> tuple[str, ...]:
    """The standings' column heads: the place, the strategy, wins and losses, the tie-break's rate (named
    under the head of the message)."""
    return ("#", "strategy", f"W{TO}L", "rate")


def standings_rows(tournament: Tournament) -> list[tuple[str, ...]]:
    """Each place as cells under standings_header: as `hog tournament` shows them, with the owner; places
    equal on wins and tie-break share their rank, and a tie-break shows the digits that decide a place
    where one decimal would not."""
    others = len(tournament.standings) - 1
    keys = [(s.points, s.tiebreak) for s in tournament.standings]
    return [
        (str(rank), s.name, f"{s.points:g}{TO}{others - s.points:g}", rate)
        for s, rank, rate in zip(
            tournament.standings, shared_places(keys), tie_breaks_shown(keys), strict=True
        )
    ]


def ranking_words(tournament: Tournament, rows: Sequence[Sequence[str]]) -> str:
    """What ranks the standings, in words under them: the tie-break, and what a longer rate or a shared
    rank means when the rows have one."""
    note = RANKED[tournament.format]
    rates = [(row[-1], s.tiebreak) for row, s in zip(rows, tournament.standings, strict=False)]
    if any(len(shown) > len(percent(rate)) for shown, rate in rates):
        note += ", to more decimals where one would not tell two places apart"
    ranks = [row[0] for row in rows]
    if len(set(ranks)) < len(ranks):
        note += "; equal on both, they share a rank"
    return f"{note}."


def _text_row(cells: Sequence[str], widths: Sequence[int]) -> str:
    """One row of the standings in fixed columns (a backtick would end the code block)."""
    columns = zip(cells, ALIGN, widths, strict=True)
    row = " ".join(f"{fitted(cell, width):{align}{width}}" for cell, align, width in columns)
    return row.rstrip().replace("`", "'")


def standings_text(tournament: Tournament, lead: str = "") -> str:
    """`lead`, then the standings in a code block, each column as wide as its longest cell (up to its limit):
    as many places (up to TEXT_ROWS) as fit in one message; the picture beside it shows every place."""
    rules = get_rules(tournament.rules).name
    head = (
        f"{lead}**{tournament.format} tournament** of {rules} to {tournament.goal}: "
        f"{counted(len(tournament.standings), 'strategy', 'strategies')}."
    )
    rows = standings_rows(tournament)
    for count in range(min(TEXT_ROWS, len(rows)), -1, -1):
        shown = [standings_header(tournament), *rows[:count]]
        widths = [max(map(len, column)) for column in zip(*shown, strict=True)]
        room = PHONE_COLUMNS - (sum(widths) - widths[NAME]) - (len(widths) - 1)
        widths[NAME] = max(1, min(widths[NAME], NAME_WIDTH, room))
        lines = [_text_row(row, widths) for row in shown]
        extra = len(rows) - count
        drawn = "in the picture" if len(rows) <= MAX_PLACES else f"(the picture draws the first {MAX_PLACES})"
        more = [f"… and {extra} more {drawn}."] if extra > 0 else []
        words = ranking_words(tournament, rows[:count])
        text = "\n".join([head, "```", *lines, "```", words, *_replay(tournament), *more])
        if len(text) <= MESSAGE_LIMIT:
            break
    return text


def _replay(tournament: Tournament) -> list[str]:
    """How to play a sampled tournament's games again (an exact one needs no seed)."""
    if tournament.seed is None:
        return []
    command = f"hog tournament --rules {tournament.rules} --format sampled --seed {tournament.seed}"
    return [
        f"Dice seed `{tournament.seed}`: `{command}` on the tables, named after the strategies in name order."
    ]


def _record(rating: Rating) -> str:
    """A rating as players read it: the one number, and rated games won and lost."""
    return f"{rating.score:,} · {rating.wins}{TO}{rating.losses}"


def leaderboard(ratings: Sequence[Rating], rules: str) -> discord.Embed:
    """The best rated players of a server under one rule set (games against the bot are not rated)."""
    lines = [f"{place}. **{md(r.player.name)}** · {_record(r)}" for place, r in enumerate(ratings, start=1)]
    text = "\n".join(lines) or "No rated games here yet: `/hog challenge` someone."
    embed = discord.Embed(title=f"Leaderboard · {get_rules(rules).title}", description=text, colour=INFO)
    return embed.set_footer(
        text=f"rating · wins{TO}losses. Everyone starts at 0; only games between people count."
    )


def stats(found: Stats) -> discord.Embed:
    """A player's record on this server (games, wins, favourite dice, Pork Chops, Pig Fest streak) and
    their global ratings."""
    embed = discord.Embed(
        title=f"{md(found.player.name)}'s Hog",
        description="Games on this server; ratings count rated games on every server, as the leaderboard's.",
        colour=INFO,
    )
    share = f" ({percent(found.wins / found.games)})" if found.games else ""
    embed.add_field(name="Games", value=f"{found.games} ({found.bot_games} against {HOUSE_NAME})")
    embed.add_field(name="Wins", value=f"{found.wins}{share}")
    dice = found.favourite_dice
    favourite = "-" if dice is None else counted(dice, "die", "dice") + (" (Free Bacon)" if dice == 0 else "")
    embed.add_field(name="Favourite number of dice", value=favourite)
    if found.pork_chops:  # a rule set's count shows once its rule was met
        embed.add_field(name="Pork Chops used", value=str(found.pork_chops))
    if found.longest_pig_fest_streak:
        embed.add_field(
            name="Longest Pig Fest streak", value=counted(found.longest_pig_fest_streak, "Pig Out")
        )
    ratings = [
        f"{get_rules(r.rules).name}: **{_record(r)}** ({'steady' if r.settled else SETTLING})"
        for r in found.ratings
    ]
    embed.add_field(name="Ratings", value="\n".join(ratings) or "not rated yet", inline=False)
    return embed


def history(entries: Sequence[HistoryEntry], name: str) -> discord.Embed:
    """A player's latest games on this server, newest first."""
    lines = []
    for entry in entries:
        mine, theirs = entry.scores[entry.seat], entry.scores[1 - entry.seat]
        result = ("won" if entry.won else "lost") + _HOW.get(entry.status, "")
        when = "" if entry.finished_at is None else f" {timestamp(entry.finished_at)}"
        rules = get_rules(entry.rules).name
        lines.append(
            f"`#{entry.match_id}` {rules} vs {md(entry.opponent)}: **{result}** {mine}-{theirs}{when}"
        )
    text = "\n".join(lines) or "No games played yet."
    return discord.Embed(title=f"{md(name)}'s latest games on this server", description=text, colour=INFO)


def _mistake(move: Move, before: State) -> str:
    """A costly choice, each choice named by what it did then (a spent Pork Chop's -1 rolls ten dice)."""
    me, you = move.scores[move.player], move.scores[1 - move.player]
    played, best = choice_label(before, move.choice), choice_label(before, move.best)
    return (
        f"turn {move.turn + 1} at {me}-{you}: **{played}** ({percent(move.value)}) "
        f"instead of **{best}** ({percent(move.best_value)})"
    )


def analysis(found: MatchAnalysis) -> discord.Embed:
    """Each side's accuracy and biggest mistakes (the chart is attached beside it)."""
    match = found.match
    embed = discord.Embed(
        title=f"Analysis · match {match.id} ({get_rules(match.rules).name})",
        description=(
            "Accuracy is 100% when every choice was the best one; each choice that gave away some chance to "
            "win lowers it. The chances are exact, worked out by the solver."
        ),
        colour=INFO,
    )
    for summary in found.analysis.players:
        mistakes = [_mistake(move, found.states[move.turn]) for move in summary.mistakes]
        clean = f"No mistakes: every choice within {percent(MISTAKE)} of the best."
        embed.add_field(
            name=f"{md(found.names[summary.player])}: accuracy {percent(summary.accuracy / 100)}",
            value="\n".join([f"{counted(summary.moves, 'choice')}.", *(mistakes or [clean])]),
            inline=False,
        )
    return embed
