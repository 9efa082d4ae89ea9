"""Rematches both players confirm, and the private helpers: hint, export and rules."""

from bot.services import Player
from hogengine.game import State, choice_label, distinct_choices
from hogengine.solver import solve
from tests.bot.discord.conftest import GUILD_ID
from tests.bot.discord.harness import (
    World,
    labels,
    last_turn,
    mention,
    plain,
    private,
    said,
    seat_lines,
    text,
    turn_of,
)


async def test_a_rematch_needs_both_players(world: World) -> None:
    match = await world.challenge()
    await world.bob.slash(world.channel, "hog forfeit")
    old_board = await world.board(match.id)

    await world.alice.click(old_board, label="Rematch")
    waiting = world.message(old_board.id)
    assert text(waiting).splitlines()[-1] == "**alice** wants a rematch."
    assert labels(waiting) == ["Rematch", "Verify dice"]
    assert said(await world.carol.click(waiting, label="Rematch")) == "You are not playing in this game."

    await world.bob.click(waiting, label="Rematch")

    assert labels(world.message(old_board.id)) == ["Verify dice"]
    rematch = await world.service.open_match_in_channel(world.channel.id, world.alice.id)
    assert rematch is not None and rematch.rematch_of == match.id
    new_board = await world.board(rematch.id)
    assert new_board.id != old_board.id
    assert new_board.content == f"{world.bob.mention}, your move."  # seats swapped: bob moves first
    assert seat_lines(new_board)["bob"].startswith("▶ bob · ")


async def test_a_rematch_against_the_bot_starts_with_the_bot(world: World) -> None:
    match = await world.vs_bot()
    await world.alice.slash(world.channel, "hog forfeit")
    old_board = await world.board(match.id)
    assert text(old_board).splitlines()[-1] == "**Hog Bot (easy)** wants a rematch."

    await world.alice.click(old_board, label="Rematch")

    assert labels(world.message(old_board.id)) == ["Verify dice"]

    rematch = await world.service.open_match_in_channel(world.channel.id, world.alice.id)
    assert rematch is not None and rematch.players[1] is not None
    board = await world.board(rematch.id)
    assert turn_of(last_turn(board)) == ("Hog Bot (easy)", 4)  # it has already moved
    assert board.content == f"{world.alice.mention}, your move."


async def test_a_hint_shows_the_best_move_and_every_chance_privately(world: World) -> None:
    match = await world.challenge()

    result = await world.alice.slash(world.channel, "hog hint")

    callbacks = [r.json for r in world.env.http_requests if r.path.endswith("/callback")]
    assert callbacks[-1] == {"type": 5, "data": {"flags": 64}}  # "thinking…" at once: solving may take time
    solution = solve("swine-align", 100)
    start = State("swine-align", 100)
    best = start.ruleset.choice_label(solution.best_choice(start))
    text = said(result)
    assert text.startswith(f"Best: **{best}** — you win {solution.win_probability(start):.1%} of the time.")
    for choice, chance in solution.choice_values(start).items():
        assert f"{start.ruleset.choice_label(choice):>12}  {chance:6.1%}" in text
    assert said(await world.bob.slash(world.channel, "hog hint")) == "Hints are for your own turn."
    nothing = said(await world.carol.slash(world.channel, "hog hint"))
    assert nothing == (
        f"You have no open game in this channel: start one with {mention(world, 'hog vs-bot')} or "
        f"{mention(world, 'hog challenge')}."
    )
    assert world.domain_errors() == ["Hints are for your own turn.", plain(nothing)]
    assert (await world.match(match.id)).state.turn == 0


async def test_no_hint_before_the_challenge_is_accepted(world: World) -> None:
    await world.alice.slash(world.channel, "hog challenge", opponent=world.bob)

    result = await world.alice.slash(world.channel, "hog hint")

    assert said(result) == "The game has not started yet: hints come once the challenge is accepted."
    assert world.domain_errors() == [said(result)]


async def test_a_hint_in_the_middle_of_a_game_sees_the_hidden_state(world: World) -> None:
    match = await world.challenge("pork-chop")
    board = await world.board(match.id)
    for person, label in [(world.alice, "Pork Chop"), (world.bob, "Roll 4"), (world.alice, "Roll 2")]:
        await person.click(world.message(board.id), label=label)
    await world.bob.click(world.message(board.id), label="Roll 5")
    state = (await world.match(match.id)).state
    assert state.mover == 0 and state.hidden_by_name()["pork_chop"] == (1, 0) and state.scores != (0, 0)

    text = said(await world.alice.slash(world.channel, "hog hint"))

    solution = solve("pork-chop", 100)
    values = solution.choice_values(state)  # with alice's Pork Chop spent
    assert text.startswith(
        f"Best: **{choice_label(state, solution.best_choice(state))}** — you win "
        f"{solution.win_probability(state):.1%} of the time."
    )
    assert "Roll 10 (-1)" not in text and "Pork Chop" not in text  # the spent -1 is Roll 10: listed once
    for choice in distinct_choices(state):
        assert f"{choice_label(state, choice):>12}  {values[choice]:6.1%}" in text
    assert text.count("Roll 10 ") == 1


async def test_export_of_a_game_in_progress_keeps_the_seed_secret(world: World) -> None:
    match = await world.challenge("pork-chop")
    await world.alice.click(await world.board(match.id), label="Roll 3")

    record = await world.export(match.id)

    assert record["rules"] == "pork-chop" and record["goal"] == 100
    assert [turn["choice"] for turn in record["turns"]] == [3]
    assert "seed" not in record


async def test_export_of_an_unknown_match(world: World) -> None:
    result = await world.alice.slash(world.channel, "hog export", match=404)
    assert said(result) == "That game does not exist."
    assert world.domain_errors() == [said(result)]


async def test_export_of_another_servers_game_only_for_its_players(world: World) -> None:
    alice, bob = Player(world.alice.id, "alice"), Player(world.bob.id, "bob")
    elsewhere = await world.service.challenge(7, alice, bob, guild_id=GUILD_ID + 1)

    refused = await world.carol.slash(world.channel, "hog export", match=elsewhere.id)
    played = await world.alice.slash(world.channel, "hog export", match=elsewhere.id)

    assert said(refused) == "That game was not played on this server: only its players can export it here."
    assert not private(refused).attachments
    assert world.domain_errors() == [said(refused)]
    (attachment,) = private(played).attachments
    assert attachment.filename == f"hog-match-{elsewhere.id}.json"


async def test_the_rules_explained(world: World) -> None:
    result = await world.alice.slash(world.channel, "hog rules", rules="pig-fest")

    assert result.response is not None and result.response.ephemeral
    embed = result.response.embeds[0]
    assert embed.title == "Ham Hijinks + Pig Fest (CS 61A Summer 2015 contest)"
    assert "**Ham Hijinks** (-1)" in (embed.description or "")
