"""The messages of strategies, tournaments, ratings, stats, history and analysis."""

from collections.abc import Sequence

import discord
from discord.utils import escape_markdown as md

from bot.discord.embeds import timestamp
from bot.images.standings import fitted
from bot.services import (
    MAX_NAME,
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

GOOD = discord.Colour.green()
BAD = discord.Colour.red()
INFO = discord.Colour.blurple()
# How the reference opponents read: the perfect bot is the one `/hog vs-bot level:perfect` plays.
OPPONENTS = {PERFECT: "the perfect bot", BEST_TABLE: "the best score-only table"}
TIE_BREAKS = {"exact": "mean win rate", "sampled": "vs always_roll(5)"}
STANDINGS_HEADER = ("#", "strategy", "owner", "wins", "losses", "tie-break")
# The standings' columns in text: alignment, and the most characters each shows (a strategy's whole name).
ALIGN, LIMITS = "><<>>>", (4, MAX_NAME, 16, 4, 6, 9)
TEXT_ROWS = 20  # places in the text at most; the picture shows them all
MESSAGE_LIMIT = 2000  # characters Discord takes in a message
_HOW = {MatchStatus.FORFEIT: " by forfeit", MatchStatus.TIMEOUT: " on time"}
MAX_LINES = 25


def _figures(embed: discord.Embed, strategy: StoredStrategy) -> discord.Embed:
    """One field per reference opponent: the exact win rate on average, moving first and second."""
    for figure in strategy.figures:
        embed.add_field(
            name=f"vs {OPPONENTS.get(figure.opponent, figure.opponent)}",
            value=f"**{figure.average:.4%}**\nfirst {figure.first:.4%}\nsecond {figure.second:.4%}",
        )
    return embed


def _source(strategy: StoredStrategy) -> str:
    if strategy.cpu_seconds is None:
        return "a JSON table"
    return f"a Python file, {strategy.cpu_seconds:.2f} s of CPU in the sandbox"


def _entry(strategy: StoredStrategy) -> list[str]:
    """What its file said besides its table: its TEAM_NAME, and whether it answers at random (read with
    its tables)."""
    lines = [] if strategy.team_name is None else [f"Team: **{md(strategy.team_name)}**."]
    if strategy.tables:
        lines.append(
            f"It answers at random: {len(strategy.tables)} tables of it were recorded, one per game of a "
            "sampled match; its exact win rates are its first table's."
        )
    return lines


def upload_verdict(upload: Upload) -> discord.Embed:
    """An accepted upload: what it is, what it replaced or equals, and its exact win rates."""
    strategy = upload.strategy
    lines = [f"**{md(strategy.name)}** plays {strategy.rules}: {_source(strategy)}.", *_entry(strategy)]
    if upload.replaced is not None:
        lines.append("It replaces your earlier version (kept in the strategy's history).")
    if upload.duplicate_of is not None:
        twin = upload.duplicate_of
        lines.append(
            f"Its table is identical to **{md(twin.name)}** by {md(twin.owner.name)} (same SHA-256)."
        )
    lines.append("Exact win rates over both seatings, against:")
    embed = discord.Embed(title=f"Accepted: {md(strategy.name)}", description="\n".join(lines), colour=GOOD)
    embed.set_footer(text=f"table SHA-256 {strategy.table_hash}")
    return _figures(embed, strategy)


def refused(reason: str) -> discord.Embed:
    """An upload that was not accepted, and the one-line reason."""
    return discord.Embed(title="Not accepted", description=reason, colour=BAD)


def strategy_card(strategy: StoredStrategy, versions: int) -> discord.Embed:
    """One stored strategy: owner, rule set, source, versions and its exact win rates."""
    described = (
        f"By {md(strategy.owner.name)} for {strategy.rules}: {_source(strategy)}. Uploaded "
        f"{timestamp(strategy.created_at)}; version {versions} of {versions}."
    )
    embed = discord.Embed(
        title=md(strategy.name), description="\n".join([described, *_entry(strategy)]), colour=INFO
    )
    embed.set_footer(text=f"table SHA-256 {strategy.table_hash}")
    return _figures(embed, strategy)


def _bounded(lines: Sequence[str]) -> str:
    more = len(lines) - MAX_LINES
    return "\n".join([*lines[:MAX_LINES], *([f"… and {more} more."] if more > 0 else [])])


def strategy_list(strategies: Sequence[StoredStrategy], title: str) -> discord.Embed:
    """A server's (or one person's) active strategies with their average against the perfect bot."""
    lines = []
    for strategy in strategies:
        perfect = next((f.average for f in strategy.figures if f.opponent == PERFECT), None)
        versus = "" if perfect is None else f" · {perfect:.2%} vs the perfect bot"
        lines.append(f"**{md(strategy.name)}** ({strategy.rules}) by {md(strategy.owner.name)}{versus}")
    text = _bounded(lines) or "No strategies yet: `/hog upload strategy` adds one."
    return discord.Embed(title=title, description=text, colour=INFO)


def standings_rows(tournament: Tournament) -> list[tuple[str, ...]]:
    """Each place as cells under STANDINGS_HEADER: as `hog tournament` shows them, with the owner."""
    others = len(tournament.standings) - 1
    return [
        (
            str(s.place),
            s.name,
            s.owner_name or "-",
            f"{s.points:g}",
            f"{others - s.points:g}",
            f"{s.tiebreak:.6f}",
        )
        for s in tournament.standings
    ]


def _text_row(cells: Sequence[str], widths: Sequence[int]) -> str:
    """One row of the standings in fixed columns (a backtick would end the code block)."""
    columns = zip(cells, ALIGN, widths, strict=True)
    row = "  ".join(f"{fitted(cell, width):{align}{width}}" for cell, align, width in columns)
    return row.rstrip().replace("`", "'")


def standings_text(tournament: Tournament, lead: str = "") -> str:
    """`lead`, then the standings in a code block, each column as wide as its longest cell (up to its limit):
    as many places (up to TEXT_ROWS) as fit in one message; the picture beside it shows every place."""
    head = (
        f"{lead}**{tournament.format} tournament** under {tournament.rules} to {tournament.goal}: "
        f"{len(tournament.standings)} strategies; tie-break: {TIE_BREAKS[tournament.format]}."
    )
    rows = standings_rows(tournament)
    for count in range(min(TEXT_ROWS, len(rows)), -1, -1):
        shown = [STANDINGS_HEADER, *rows[:count]]
        columns = zip(*shown, strict=True)
        widths = [min(limit, max(map(len, column))) for limit, column in zip(LIMITS, columns, strict=True)]
        lines = [_text_row(row, widths) for row in shown]
        extra = len(rows) - count
        more = [f"… and {extra} more in the picture."] if extra > 0 else []
        text = "\n".join([head, "```", *lines, "```", *_replay(tournament), *more])
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


def leaderboard(ratings: Sequence[Rating], rules: str) -> discord.Embed:
    """The best rated players of a server under one rule set (games against the bot are not rated)."""
    lines = [
        f"{place}. **{md(r.player.name)}** {r.score:.1f} (mu {r.mu:.1f}, sigma {r.sigma:.2f})"
        f" · {r.games} game(s)"
        for place, r in enumerate(ratings, start=1)
    ]
    text = "\n".join(lines) or "No rated games here yet: `/hog challenge` someone."
    embed = discord.Embed(title=f"Leaderboard · {get_rules(rules).title}", description=text, colour=INFO)
    return embed.set_footer(text="openskill (Plackett-Luce): mu - 3 sigma; only games between people count")


def stats(found: Stats) -> discord.Embed:
    """A player's record on this server (games, wins, favourite dice, Pork Chops, Pig Fest streak) and
    their global ratings."""
    embed = discord.Embed(
        title=f"{md(found.player.name)}'s Hog",
        description="Games on this server; ratings count rated games on every server, as the leaderboard's.",
        colour=INFO,
    )
    share = f" ({found.wins / found.games:.0%})" if found.games else ""
    embed.add_field(name="Games", value=f"{found.games} ({found.bot_games} against the house bot)")
    embed.add_field(name="Wins", value=f"{found.wins}{share}")
    dice = found.favourite_dice
    favourite = "-" if dice is None else f"{dice} dice" + (" (Free Bacon)" if dice == 0 else "")
    embed.add_field(name="Favourite number of dice", value=favourite)
    embed.add_field(name="Pork Chops used", value=str(found.pork_chops))
    embed.add_field(name="Longest Pig Fest streak", value=f"{found.longest_pig_fest_streak} Pig Out(s)")
    ratings = [f"{r.rules}: **{r.score:.1f}** after {r.games} game(s)" for r in found.ratings]
    embed.add_field(name="Ratings", value="\n".join(ratings) or "not rated yet", inline=False)
    return embed


def history(entries: Sequence[HistoryEntry], name: str) -> discord.Embed:
    """A player's latest games on this server, newest first."""
    lines = []
    for entry in entries:
        mine, theirs = entry.scores[entry.seat], entry.scores[1 - entry.seat]
        result = ("won" if entry.won else "lost") + _HOW.get(entry.status, "")
        when = "" if entry.finished_at is None else f" {timestamp(entry.finished_at)}"
        lines.append(
            f"`#{entry.match_id}` {entry.rules} vs {md(entry.opponent)}: **{result}** {mine}-{theirs}{when}"
        )
    text = "\n".join(lines) or "No games played yet."
    return discord.Embed(title=f"{md(name)}'s latest games on this server", description=text, colour=INFO)


def _mistake(move: Move, before: State) -> str:
    """A costly choice, each choice named by what it did then (a spent Pork Chop's -1 rolls ten dice)."""
    me, you = move.scores[move.player], move.scores[1 - move.player]
    return (
        f"turn {move.turn + 1} at {me}-{you}: **{choice_label(before, move.choice)}** ({move.value:.1%}) "
        f"instead of **{choice_label(before, move.best)}** ({move.best_value:.1%})"
    )


def analysis(found: MatchAnalysis) -> discord.Embed:
    """Each side's accuracy and biggest mistakes (the chart is attached beside it)."""
    match = found.match
    embed = discord.Embed(
        title=f"Analysis · match {match.id} ({match.rules})",
        description=(
            "Chances to win are exact: the solver's values of every position, hidden state included. "
            "A choice's cost is the chance it gave away against the best choice, before the dice fell."
        ),
        colour=INFO,
    )
    for summary in found.analysis.players:
        mistakes = [_mistake(move, found.states[move.turn]) for move in summary.mistakes]
        clean = f"No mistakes: every choice within {MISTAKE:.1%} of the best."
        embed.add_field(
            name=f"{md(found.names[summary.player])}: accuracy {summary.accuracy:.1f}%",
            value="\n".join(
                [
                    # Summed over choices, in points: a long game's bad choices can add up past 100.
                    f"{summary.moves} choice(s), {100 * summary.expected_loss:.1f} points of winning chance "
                    "given away in all.",
                    *(mistakes or [clean]),
                ]
            ),
            inline=False,
        )
    return embed
