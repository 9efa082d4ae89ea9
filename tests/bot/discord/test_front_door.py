"""The front door: `/hog help` says what one can do with every command a tap away (`</hog vs-bot:ID>`, as in
every refusal that names one); `/hog games` lists your open games with links; a refusal about a game in
another channel links to its board; private results (an analysis, stats, an accepted upload) can be shared
to the channel; an accepted upload offers its next steps (play it, enter the open contest)."""

import re

from tests.bot.discord.harness import World, labels, mention, private, private_embed, said

FOUR = b"TEAM_NAME = 'Four Square'\ndef final_strategy(score, opponent_score):\n    return 4\n"


def mentioned(text: str) -> list[str]:
    """The commands a text mentions, clickable: "hog vs-bot", "hog upload strategy"."""
    return re.findall(r"</(hog[a-z -]*):\d+>", text)


async def test_help_names_every_way_in_each_a_tap_away(world: World) -> None:
    result = await world.carol.slash(world.channel, "hog help")

    assert result.response is not None and result.response.ephemeral
    text = private_embed(result).description or ""
    names = {command.qualified_name for command in world.bot.tree.walk_commands()}
    assert set(mentioned(text)) <= names  # each mention is a real command, with the id Discord gave it
    for command in (
        "vs-bot",
        "challenge",
        "games",
        "rules",
        "hint",
        "forfeit",
        "coach",
        "analyze",
        "upload strategy",
        "tournament",
        "leaderboard",
        "stats",
        "notices",
        "export",
    ):
        assert mention(world, f"hog {command}") in text, command
    assert "/hog" not in re.sub(r"</hog[^>]*>", "", text)  # no command left as plain text


async def test_games_lists_your_open_games_everywhere_with_links(world: World) -> None:
    elsewhere = world.channel.guild.create_text_channel("hog-2")
    await world.alice.slash(elsewhere, "hog vs-bot", rules="pork-chop")
    away = elsewhere.last_message
    await world.alice.slash(world.channel, "hog challenge", opponent=world.bob)
    here = world.channel.last_message
    assert away is not None and here is not None

    listed = said(await world.alice.slash(world.channel, "hog games")).splitlines()

    assert listed == [
        f"• Swine Align / Pig Pass, your challenge to **bob**: {here.jump_url}",
        f"• Pork Chop, your move against **Hog Bot (easy)**: {away.jump_url}",
    ]
    nothing = said(await world.carol.slash(world.channel, "hog games"))
    assert nothing == (
        f"You have no open games here: start one with {mention(world, 'hog vs-bot')} or "
        f"{mention(world, 'hog challenge')}."
    )


async def test_a_refusal_about_a_game_in_another_channel_links_to_its_board(world: World) -> None:
    elsewhere = world.channel.guild.create_text_channel("hog-2")
    await world.alice.slash(elsewhere, "hog vs-bot")
    board = elsewhere.last_message
    assert board is not None

    refused = said(await world.alice.slash(world.channel, "hog hint"))

    assert refused == f"Your open game is in another channel: {board.jump_url}"
    assert len(world.domain_errors()) == 1


async def test_an_analysis_and_stats_are_shared_to_the_channel_on_request(world: World) -> None:
    match = await world.challenge(goal=10)
    await world.play_to_end(match.id, lambda state: 5)
    analysis = private(await world.bob.click(await world.board(match.id), label="Analysis"))
    assert labels(analysis.message) == ["Share to channel"]
    before = len(world.channel.history())

    await world.bob.click(analysis.message, label="Share to channel")

    shared = world.channel.last_message
    assert shared is not None and len(world.channel.history()) == before + 1 and not shared.flags.ephemeral
    assert shared.content == f"Shared by {world.bob.mention}."
    assert shared.embeds[0].title == analysis.embeds[0].title and shared.attachments  # the chart too
    stored = world.env.backend.get_message(world.channel.id, shared.id)
    assert list(stored.ping_user_ids) == []  # a name in it pings nobody

    stats = private(await world.alice.slash(world.channel, "hog stats"))
    await world.alice.click(stats.message, label="Share to channel")
    assert world.channel.last_message is not None
    assert (world.channel.last_message.embeds[0].title or "") == "alice's Hog"


async def test_an_accepted_upload_offers_to_play_it_enter_the_contest_and_share_it(world: World) -> None:
    accepted = private(await world.upload(world.carol, "four.py", FOUR))
    assert labels(accepted.message) == ["Play it", "Share to channel"]  # no contest is open

    await world.carol.click(accepted.message, label="Play it")

    game = await world.service.open_match_in_channel(world.channel.id, world.carol.id)
    assert game is not None and game.strategy_name == "Four Square"
    assert (await world.board(game.id)).content == f"{world.carol.mention}, your move."
    await world.carol.slash(world.channel, "hog forfeit")

    await world.mod.slash(
        world.channel, "hog contest open", rules="swine-align", format="exact", closes="in 3 days"
    )
    again = private(await world.upload(world.carol, "four.py", FOUR))
    assert labels(again.message) == ["Play it", "Enter the contest", "Share to channel"]
    entered = said(await world.carol.click(again.message, label="Enter the contest"))
    assert entered.startswith("Entered **Four Square** in the Swine Align / Pig Pass contest.")
    assert mention(world, "hog contest status") in entered

    await world.carol.click(again.message, label="Share to channel")
    card = world.channel.last_message  # the strategy's card, for everyone
    assert card is not None and card.embeds[0].title == "Four Square" and card.attachments
