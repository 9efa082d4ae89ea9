"""Every version of a board fits a phone at 360 px: a one-line title (the rule set's short name), at most 14
lines of text at 38 characters a line, at most three rows of buttons, and no 64-hex string (the dice
commitment and seed are behind Verify dice; the footer keeps the commitment's first 8 digits). Checked on
every board the bot sent (posts, edits, answers to presses) in whole games of each rule set, between two
people, against the house bot and against a stored strategy with a long name."""

import re
from typing import Any

import discord
import pytest

from hogengine.game import State
from tests.bot.discord.harness import BOARD_ROWS, PHONE_COLUMNS, World, drawn, modelled, phone_rows

RULES = ["swine-align", "pork-chop", "pig-fest", "piggy-back"]
HEX64 = re.compile(r"[0-9a-f]{64}")
LONG_NAMED = b"TEAM_NAME = 'Bacon Ahead Then Six'\ndef final_strategy(score, opponent_score):\n    return 6\n"


def boards_sent(world: World) -> list[dict[str, Any]]:
    """Every board the bot sent, as sent: a message body with an embed whose footer names its match."""
    bodies = []
    for request in world.env.http_requests:
        body = request.json
        if isinstance(body, dict) and isinstance(body.get("data"), dict):  # an answer to an interaction
            body = body["data"]
        if not isinstance(body, dict):
            continue
        footers = [(embed.get("footer") or {}).get("text", "") for embed in body.get("embeds") or []]
        if any(footer.startswith("Match ") for footer in footers):
            bodies.append(body)
    return bodies


def check_fits_a_phone(body: dict[str, Any]) -> None:
    (embed,) = body["embeds"]
    shown = discord.Embed.from_dict(embed)
    assert shown.title is not None and len(drawn(shown.title)) <= PHONE_COLUMNS, shown.title
    assert phone_rows(shown) <= BOARD_ROWS, (phone_rows(shown), shown.description)
    assert len(body.get("components") or []) <= 3
    assert not HEX64.search(str(body)), "a 64-hex string on a board"
    assert re.fullmatch(r"Match \d+ · (turn \d+|\d+ turns?) · dice [0-9a-f]{8}", shown.footer.text or "")


def mixed(state: State) -> int:
    """Every kind of choice now and then: the rule set's -1 on each side's first turn, then Free Bacon, few
    and many dice."""
    return state.ruleset.choices[0] if state.turn < 2 else (0, 2, 6, 10, 4)[state.turn % 5]


@pytest.mark.parametrize("rules", RULES)
async def test_every_board_of_a_game_between_two_people_fits_a_phone(world: World, rules: str) -> None:
    match = await world.challenge(rules)

    await world.play_to_end(match.id, mixed)

    sent = boards_sent(world)
    assert len(sent) > (await world.match(match.id)).state.turn  # the challenge, then a board a turn at least
    for body in sent:
        check_fits_a_phone(body)


@pytest.mark.parametrize("rules", RULES)
async def test_every_board_of_a_game_against_the_house_fits_a_phone(world: World, rules: str) -> None:
    await world.alice.slash(world.channel, "hog vs-bot", rules=rules)
    match = await world.service.open_match_in_channel(world.channel.id, world.alice.id)
    assert match is not None

    await world.play_to_end(match.id, mixed)

    thinking = [body for body in boards_sent(world) if "is rolling…" in body["embeds"][0]["description"]]
    assert thinking  # the house's turns too, while it rolls
    for body in boards_sent(world):
        check_fits_a_phone(body)


@pytest.mark.parametrize("rules", ["pig-fest", "pork-chop"])
async def test_a_long_strategy_name_still_fits(world: World, rules: str) -> None:
    modelled(rules)
    await world.upload(world.bob, "long.py", LONG_NAMED, rules=rules)
    await world.alice.slash(world.channel, "hog vs-bot", strategy="Bacon Ahead Then Six")
    match = await world.service.open_match_in_channel(world.channel.id, world.alice.id)
    assert match is not None and match.seat_name(1) == "Bacon Ahead Then Six (bob's strategy)"

    await world.play_to_end(match.id, mixed)

    for body in boards_sent(world):
        check_fits_a_phone(body)
        (embed,) = body["embeds"]
        first = " · turn 1 · " in embed["footer"]["text"]  # nothing played yet
        assert first or " → " in embed["description"]  # else the latest turn stays in sight
