"""Stored strategies in Discord: listed, shown, deleted by their owner only, and played against by anyone."""

import json

import numpy as np

from bot.discord.contest_embeds import strategy_card, strategy_list
from bot.domain.strategies import Matchup
from bot.services import MatchStatus, Player, StoredStrategy
from hogengine.solver import BEST_TABLE, exact_winrate, solve
from hogengine.strategies import always_roll, table_from_function
from tests.bot.discord.harness import (
    World,
    labels,
    picture,
    private,
    private_embed,
    replay,
    said,
    seat_lines,
    turns_shown,
)

RULES = "swine-align"
ROLL_4 = b"def final_strategy(score, opponent_score):\n    return 4\n"
SCORE_MOD = b"def final_strategy(score, opponent_score):\n    return score % 11\n"
MOD = np.fromfunction(lambda score, _: score % 11, (100, 100), dtype=int).astype(np.int8)


async def test_strategies_are_listed_with_their_strength(world: World) -> None:
    await world.upload(world.alice, "four.py", ROLL_4)
    await world.upload(world.bob, "mod.py", SCORE_MOD)

    everyone = private_embed(await world.carol.slash(world.channel, "hog strategies"))
    bobs = private_embed(await world.carol.slash(world.channel, "hog strategies", user=world.bob))

    perfect = solve(RULES).policy
    four = exact_winrate(RULES, table_from_function(always_roll(4), RULES), perfect).average
    mod = exact_winrate(RULES, MOD, perfect).average
    assert everyone.title == "Strategies on this server"
    assert (everyone.description or "").splitlines() == [
        f"**four** (Swine Align / Pig Pass) by alice · {four:.1%} vs the perfect bot",
        f"**mod** (Swine Align / Pig Pass) by bob · {mod:.1%} vs the perfect bot",
    ]
    assert bobs.title == "bob's strategies" and (bobs.description or "").startswith("**mod**")


async def test_a_strategy_is_shown_with_its_heatmap(world: World) -> None:
    await world.upload(world.alice, "four.py", ROLL_4)
    await world.upload(world.alice, "four.py", ROLL_4)  # a second version of the same name

    result = await world.bob.slash(world.channel, "hog strategy show", name="FOUR")

    embed = private_embed(result)
    assert embed.title == "four" and "version 2 of 2" in (embed.description or "")
    rate = exact_winrate(RULES, table_from_function(always_roll(4), RULES), solve(RULES).policy)
    assert (
        f"**{rate.average:.1%}**" in {field.name: field.value for field in embed.fields}["vs the perfect bot"]
    )
    (heatmap,) = private(result).attachments
    await picture(heatmap)
    missing = await world.bob.slash(world.channel, "hog strategy show", name="nope")
    assert said(missing) == "There is no strategy called 'nope' on this server."
    assert world.domain_errors() == [said(missing)]


async def test_only_the_owner_deletes_a_strategy_once_they_confirm(world: World) -> None:
    await world.upload(world.alice, "four.py", ROLL_4)

    refused = await world.bob.slash(world.channel, "hog strategy delete", name="four")
    asked = await world.alice.slash(world.channel, "hog strategy delete", name="four")
    question = private(asked)
    assert question.content.startswith(
        "Delete your strategy **four** (Swine Align / Pig Pass) with its history (1 version)?"
    )
    await world.alice.click(question, label="Keep it")
    assert (question.content, question.components) == ("Nothing deleted: **four** stays.", [])
    assert await world.services.strategies.active(world.channel.guild.id) != []
    asked = await world.alice.slash(world.channel, "hog strategy delete", name="four")
    await world.alice.click(private(asked), label="Delete")

    assert said(refused) == "Only alice (or course staff) can delete 'four'."
    assert private(asked).content == "Deleted **four** and its history. Past games keep their copy."
    assert world.domain_errors() == [said(refused)]
    assert await world.services.strategies.active(world.channel.guild.id) == []


async def test_names_are_completed_from_the_servers_strategies(world: World) -> None:
    await world.upload(world.alice, "four.py", ROLL_4)
    await world.upload(world.bob, "fourish.json", json.dumps([[4] * 100] * 100).encode(), rules="piggy-back")
    await world.upload(world.bob, "mod.py", SCORE_MOD)

    any_rules = await world.carol.autocomplete(world.channel, "hog vs-bot", "strategy", "FO")
    swine = await world.carol.autocomplete(world.channel, "hog vs-bot", "strategy", "FO", rules="swine-align")
    piggy = await world.carol.autocomplete(world.channel, "hog vs-bot", "strategy", "", rules="piggy-back")
    bobs = await world.bob.autocomplete(world.channel, "hog strategy delete", "name", "")
    theirs = await world.carol.autocomplete(
        world.channel, "hog challenge", "strategy", "", opponent=world.bob
    )

    assert [choice["value"] for choice in any_rules] == ["four", "fourish"]
    assert [choice["value"] for choice in swine] == ["four"]
    assert swine[0]["name"] == "four (Swine Align / Pig Pass, by alice)"
    assert [choice["value"] for choice in piggy] == ["fourish"]
    assert [choice["value"] for choice in bobs] == ["fourish", "mod"]
    assert [choice["value"] for choice in theirs] == ["fourish", "mod"]


async def test_a_strategy_plays_its_own_rules_when_none_are_chosen(world: World) -> None:
    await world.upload(world.alice, "fest.json", json.dumps([[4] * 100] * 100).encode(), rules="piggy-back")

    await world.bob.slash(world.channel, "hog vs-bot", strategy="fest")

    match = await world.service.open_match_in_channel(world.channel.id, world.bob.id)
    assert match is not None and (match.rules, match.strategy_name) == ("piggy-back", "fest")


async def test_challenging_someones_strategy_plays_it_at_once(world: World) -> None:
    await world.upload(world.alice, "mod.py", SCORE_MOD)

    wrong = await world.carol.slash(world.channel, "hog challenge", opponent=world.bob, strategy="mod")
    await world.carol.slash(world.channel, "hog challenge", opponent=world.alice, strategy="mod", goal=30)

    assert said(wrong) == "bob has no strategy called 'mod' here: it is alice's."
    assert world.domain_errors() == [said(wrong)]
    match = await world.service.open_match_in_channel(world.channel.id, world.carol.id)
    assert match is not None
    assert (match.status, match.strategy_name, match.goal, match.players) == (
        MatchStatus.ACTIVE,
        "mod",
        30,
        (Player(world.carol.id, "carol"), None),
    )
    assert labels(await world.board(match.id))[0] == "Free Bacon"  # carol moves first, against the table
    assert await world.service.open_match_in_channel(world.channel.id, world.alice.id) is None


async def test_anyone_plays_a_stored_strategy_and_it_moves_by_its_table(world: World) -> None:
    await world.upload(world.alice, "mod.py", SCORE_MOD)

    await world.carol.slash(world.channel, "hog vs-bot", strategy="mod")  # alice's strategy, carol plays it

    match = await world.service.open_match_in_channel(world.channel.id, world.carol.id)
    assert match is not None
    board = await world.board(match.id)
    assert "mod (alice's strategy)" in seat_lines(board)
    boards = await world.play_to_end(match.id, lambda state: 6)
    assert labels(boards[-1]) == ["Rematch", "Analysis", "Verify dice"]
    turns = replay(await world.export(match.id))
    bot_turns = [turn for turn in turns if turn["player"] == 1]
    assert bot_turns
    for turn in bot_turns:
        me, you = turns[turn["turn"] - 1]["score"][::-1]
        assert turn["choice"] == MOD[me, you]
    await world.carol.click(boards[-1], label="Rematch")
    rematch = await world.service.open_match_in_channel(world.channel.id, world.carol.id)
    assert rematch is not None and rematch.strategy_name == "mod" and rematch.bot_seat == 0
    first = "\n".join(turns_shown(await world.board(rematch.id)))
    assert first.startswith("**mod (alice's strategy)** Free Bacon → +")  # MOD[0, 0] is 0


async def test_a_strategy_plays_only_its_own_rules(world: World) -> None:
    await world.upload(world.alice, "mod.py", SCORE_MOD)

    result = await world.carol.slash(world.channel, "hog vs-bot", rules="pork-chop", strategy="mod")

    assert said(result) == "'mod' plays Swine Align / Pig Pass, not Pork Chop."
    assert world.domain_errors() == [said(result)]


def test_figures_stored_against_the_score_only_table_are_labelled_as_such() -> None:
    legacy = StoredStrategy(
        1,
        2,
        Player(3, "alice"),
        "old",
        None,
        RULES,
        "py",
        "",
        "",
        True,
        (Matchup(BEST_TABLE, 0.4, 0.3, 0.35),),
        None,
        0,
        None,
    )
    card = strategy_card(legacy, 1)

    assert [field.name for field in card.fields] == ["vs the best score-only table"]
    assert strategy_list([legacy], "x").description == "**old** (Swine Align / Pig Pass) by alice"
