"""Ratings of games between people (the bot's are unrated), the leaderboard, stats, history and forget-me."""

import json
from typing import Any

from openskill.models import PlackettLuce

from bot.domain.ratings import RATING_SCALE
from bot.services import Match, Player
from bot.services.privacy import FORGOTTEN_NAME
from hogengine.game import State
from hogengine.rules.pig_fest import MAX_STREAK
from tests.bot.discord.harness import World, labels, mention, picture, private, private_embed, replay, said

ROLL_4 = b"def final_strategy(score, opponent_score):\n    return 4\n"


async def elsewhere(world: World, person: Player) -> Match:
    """A game the person gave up against the house bot on another server: not one of this server's."""
    match = await world.service.vs_bot(999, person, guild_id=world.channel.guild.id + 1)
    return await world.service.forfeit(match.id, person.id)


async def rated_matches(world: World) -> list[int]:
    rows = await world.services.db.fetch_all("SELECT DISTINCT match_id FROM rating_history ORDER BY match_id")
    return [row["match_id"] for row in rows]


async def test_games_between_people_are_rated_as_they_end_and_bot_games_never(world: World) -> None:
    games = [("alice", "bob"), ("alice", "carol"), ("bob", "carol")]
    ids = []
    for winner, loser in games:
        ids.append((await world.beat(getattr(world, winner), getattr(world, loser))).id)
        assert await rated_matches(world) == ids  # rated as soon as it ended
    await world.carol.slash(world.channel, "hog vs-bot")
    await world.carol.slash(world.channel, "hog forfeit")

    board = private_embed(await world.carol.slash(world.channel, "hog leaderboard"))

    assert await rated_matches(world) == ids
    model = PlackettLuce()
    expected = {name: model.rating() for name in ("alice", "bob", "carol")}
    for winner, loser in games:
        (won,), (lost,) = model.rate([[expected[winner]], [expected[loser]]], ranks=[0, 1])
        expected[winner], expected[loser] = won, lost
    # One number each, the openskill ordinal scaled and never negative, then rated games won and lost.
    shown = {name: max(0, round(expected[name].ordinal() * RATING_SCALE)) for name in expected}
    assert expected["carol"].ordinal() < 0 and shown["carol"] == 0
    assert (board.description or "").splitlines() == [
        f"1. **alice** · {shown['alice']:,} · 2\N{EN DASH}0",
        f"2. **bob** · {shown['bob']:,} · 1\N{EN DASH}1",
        "3. **carol** · 0 · 0\N{EN DASH}2",
    ]
    assert "mu" not in str(board.to_dict()) and "sigma" not in str(board.to_dict())
    assert board.title == "Leaderboard · Swine Align / Pig Pass (CS 61A Fall 2020)"
    empty = private_embed(await world.carol.slash(world.channel, "hog leaderboard", rules="pig-fest"))
    assert empty.description == f"No rated games here yet: {mention(world, 'hog challenge')} someone."


async def test_stats_show_a_players_record_and_rating_history(world: World) -> None:
    await world.beat(world.alice, world.bob)
    await world.beat(world.bob, world.alice)
    await world.alice.slash(world.channel, "hog vs-bot")
    await world.alice.slash(world.channel, "hog forfeit")

    await elsewhere(world, Player(world.alice.id, "alice"))

    result = await world.carol.slash(world.channel, "hog stats", user=world.alice)

    embed = private_embed(result)
    shown = {field.name: field.value for field in embed.fields}
    assert embed.title == "alice's Hog"
    assert embed.description == (
        "Games on this server; ratings count rated games on every server, as the leaderboard's."
    )
    assert shown["Games"] == "3 (1 against Hog Bot)" and shown["Wins"] == "1 (33.3%)"
    assert shown["Favourite number of dice"] == "1 die"
    assert "Pork Chops used" not in shown and "Longest Pig Fest streak" not in shown  # never met: unsaid
    stats = await world.services.ratings.stats(Player(world.alice.id, "alice"), world.channel.guild.id)
    # Her one number with her rated record, and how sure it is in words (two games: not sure yet).
    assert shown["Ratings"] == (
        f"Swine Align / Pig Pass: **{stats.ratings[0].score:,} · 1\N{EN DASH}1** "
        "(settling: play a few more games)"
    )
    (chart,) = private(result).attachments
    await picture(chart)
    assert chart.description == (
        f"Rating history of alice: Swine Align / Pig Pass: {stats.rating_history[0].before:,.0f} to "
        f"{stats.rating_history[-1].after:,.0f} over 2 games."
    )
    fresh = await world.carol.slash(world.channel, "hog stats")
    assert private(fresh).attachments == []  # no rated game, no chart
    assert {f.name: f.value for f in private_embed(fresh).fields}["Ratings"] == "not rated yet"


def longest_pig_out_run(turns: list[dict[str, Any]], seat: int) -> int:
    """The most Pig Outs in a row among one seat's turns of `hog replay`'s output."""
    best = run = 0
    for turn in turns:
        if turn["player"] == seat:
            run = run + 1 if any(event["kind"] == "pig_out" for event in turn["events"]) else 0
            best = max(best, run)
    return best


def chopped_yet(state: State) -> bool:
    return bool(state.hidden_by_name()["pork_chop"][state.mover])


async def test_stats_count_pork_chops_and_the_longest_pig_fest_streak(world: World) -> None:
    chops = await world.challenge("pork-chop")  # alice plays her Pork Chop, then always ten dice
    await world.play_to_end(
        chops.id, lambda state: (10 if chopped_yet(state) else -1) if state.mover == 0 else 5
    )
    fest = await world.challenge("pig-fest")  # alice always rolls ten dice: Pig Outs in a row
    await world.play_to_end(fest.id, lambda state: 10 if state.mover == 0 else 5)

    result = await world.carol.slash(world.channel, "hog stats", user=world.alice)

    chopped = replay(await world.export(chops.id))
    assert [turn["choice"] for turn in chopped if turn["player"] == 0].count(-1) == 1
    assert sum(event["kind"] == "pork_chop" for turn in chopped for event in turn["events"]) == 1
    # The streak the engine keeps: Pig Outs in a row, counted up to the cap where the multiplier stops.
    streak = min(longest_pig_out_run(replay(await world.export(fest.id)), 0), MAX_STREAK)
    assert streak >= 2
    games = [await world.match(match.id) for match in (chops, fest)]
    wins = sum(game.winner == 0 for game in games)
    shown = {field.name: field.value for field in private_embed(result).fields}
    assert shown["Games"] == "2 (0 against Hog Bot)" and shown["Wins"] == f"{wins} ({wins / 2:.1%})"
    assert shown["Favourite number of dice"] == "10 dice"
    assert shown["Pork Chops used"] == "1"
    assert shown["Longest Pig Fest streak"] == f"{streak} Pig Outs"  # at least 2
    (chart,) = private(result).attachments
    await picture(chart)
    assert (chart.description or "").startswith("Rating history of alice: ")


async def test_history_lists_the_latest_games(world: World) -> None:
    first = await world.beat(world.alice, world.bob)
    await world.alice.slash(world.channel, "hog vs-bot", level="course")
    bot_game = await world.service.open_match_in_channel(world.channel.id, world.alice.id)
    assert bot_game is not None
    await world.alice.slash(world.channel, "hog forfeit")
    await elsewhere(world, Player(world.alice.id, "alice"))

    embed = private_embed(await world.bob.slash(world.channel, "hog history", user=world.alice))

    lines = (embed.description or "").splitlines()
    assert embed.title == "alice's latest games on this server"
    assert len(lines) == 2
    assert lines[0].startswith(
        f"`#{bot_game.id}` Swine Align / Pig Pass vs Hog Bot (course): **lost by forfeit** 0-0 <t:"
    )
    score = first.state.scores
    assert lines[1].startswith(
        f"`#{first.id}` Swine Align / Pig Pass vs bob: **won by forfeit** {score[0]}-{score[1]} <t:"
    )


async def test_forget_me_asks_first_then_forgets(world: World) -> None:
    await world.upload(world.alice, "four.py", ROLL_4)
    match = await world.beat(world.bob, world.alice)

    asked = await world.alice.slash(world.channel, "hog forget-me")

    question = private(asked)
    assert "cannot be undone" in question.content and labels(question.message) == ["Forget me"]
    await world.alice.click(question, label="Forget me")
    done = world.env.backend.get_message(question.channel_id, question.id)
    assert done.content == "Done: 1 strategy version deleted, and 1 game now played by an anonymous player."
    assert done.components == []
    assert await world.services.strategies.active(world.channel.guild.id) == []
    history = private_embed(await world.bob.slash(world.channel, "hog history"))
    assert f"`#{match.id}` Swine Align / Pig Pass vs {FORGOTTEN_NAME}: **won by forfeit**" in (
        history.description or ""
    )
    board = private_embed(await world.bob.slash(world.channel, "hog leaderboard"))
    assert (board.description or "").startswith("1. **bob** ") and "alice" not in (board.description or "")


async def test_forget_me_waits_for_open_games(world: World) -> None:
    await world.alice.slash(world.channel, "hog vs-bot")
    asked = await world.alice.slash(world.channel, "hog forget-me")

    pressed = await world.alice.click(private(asked), label="Forget me")

    assert said(pressed) == "Finish or forfeit your open games and challenges first."
    assert (await world.service.open_match_in_channel(world.channel.id, world.alice.id)) is not None


async def test_names_show_as_written_not_as_markdown(world: World) -> None:
    star = world.channel.guild.add_member(world.env.create_user("*star*"))
    uploaded = private_embed(
        await world.upload(star, "x.json", json.dumps([[4] * 100] * 100).encode(), name="my__init__")
    )
    match = await world.beat(star, world.bob)

    listed = private_embed(await world.bob.slash(world.channel, "hog strategies", user=star))
    board = private_embed(await world.bob.slash(world.channel, "hog leaderboard"))
    history = private_embed(await world.bob.slash(world.channel, "hog history", user=star))
    stats = private_embed(await world.bob.slash(world.channel, "hog stats", user=star))
    bobs = private_embed(await world.bob.slash(world.channel, "hog history"))
    analysis = private_embed(await world.bob.slash(world.channel, "hog analyze", match=match.id))

    assert uploaded.title == "Accepted: my\\_\\_init\\_\\_"
    assert listed.title == "\\*star\\*'s strategies"
    assert (listed.description or "").startswith(
        "**my\\_\\_init\\_\\_** (Swine Align / Pig Pass) by \\*star\\* · "
    )
    assert (board.description or "").splitlines()[0].startswith("1. **\\*star\\*** ")
    assert history.title == "\\*star\\*'s latest games on this server" and stats.title == "\\*star\\*'s Hog"
    assert f"`#{match.id}` Swine Align / Pig Pass vs \\*star\\*: **lost by forfeit**" in (
        bobs.description or ""
    )
    assert analysis.fields[0].name is not None and analysis.fields[0].name.startswith("\\*star\\*: accuracy")
