"""Uploads are rationed (a cooldown per person) and never hold up the bot: games elsewhere go on while the
sandbox checks a slow upload."""

import asyncio
import math
import re
import time
from collections.abc import Awaitable, Callable

import discord
import pytest
from simcord.components import walk_components

from bot.config import Settings
from bot.services import MatchStatus
from tests.bot.discord.harness import World, private, private_embed, said
from tests.hang import HANG
from tests.helpers import BUSY_ROLL_4

COOLDOWN = 60.0
ROLL_4 = b"def final_strategy(score, opponent_score):\n    return 4\n"
SLOW = b"import time\nwhile time.process_time() < 2.0:\n    pass\n" + ROLL_4  # 2 s of CPU, then fine


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return settings.model_copy(update={"upload_cooldown_seconds": COOLDOWN, "upload_time_limit_seconds": 5.0})


async def until(condition: Callable[[], Awaitable[bool]], seconds: float = HANG) -> None:
    """Wait (in real time) until the condition holds."""
    deadline = time.monotonic() + seconds
    while not await condition():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.01)


def next_upload(text: str) -> int:
    """When a message says its reader may upload again: the Unix time of its Discord relative timestamp."""
    found = re.search(r"can start <t:(\d+):R>", text)
    assert found is not None, text
    return int(found.group(1))


async def test_a_second_upload_within_the_cooldown_is_refused_before_its_download(
    world: World, downloads: list[str]
) -> None:
    start = world.env.now().timestamp()
    accepted = private_embed(await world.upload(world.alice, "a.py", BUSY_ROLL_4))
    end = world.env.now().timestamp()
    assert accepted.title == "Accepted: a"
    ends = next_upload(accepted.description or "")  # counts down in each reader's own time
    assert math.ceil(start + COOLDOWN) <= ends <= math.ceil(end + COOLDOWN)
    assert "kept the sandbox busy for" in (accepted.description or "")  # why

    again = await world.upload(world.alice, "b.py", ROLL_4)

    assert said(again).startswith("Your last Swine Align / Pig Pass upload kept the sandbox busy for ")
    assert said(again).endswith(
        f"so your next one can start <t:{ends}:R> (at <t:{ends}:t>); uploads under the other rule sets "
        "can start now."
    )
    assert private(again).embeds == [] and len(downloads) == 1  # refused at once, nothing downloaded
    assert world.domain_errors() == [said(again)]
    other_rules = await world.upload(world.alice, "p.py", ROLL_4, rules="pork-chop")
    assert private_embed(other_rules).title == "Accepted: p"
    assert private_embed(await world.upload(world.bob, "c.py", ROLL_4)).title == "Accepted: c"
    await world.advance(COOLDOWN)
    assert private_embed(await world.upload(world.alice, "b.py", ROLL_4)).title == "Accepted: b"


async def test_quick_checks_can_follow_each_other_at_once(world: World) -> None:
    broken = private_embed(await world.upload(world.alice, "a.py", b"def final_strategy(s):\n    return 4\n"))
    not_json = private_embed(await world.upload(world.alice, "a.json", b"[[4, 4]"))
    fixed = private_embed(await world.upload(world.alice, "a.py", ROLL_4))
    again = private_embed(await world.upload(world.alice, "b.py", ROLL_4))

    assert (broken.title, not_json.title) == ("Not accepted", "Not accepted")
    assert (fixed.title, again.title) == ("Accepted: a", "Accepted: b")  # no cooldown after a quick check
    assert "busy" not in (fixed.description or "") and world.domain_errors() == []


async def test_a_file_that_imports_what_strategies_cannot_can_be_fixed_and_uploaded_again_at_once(
    world: World,
) -> None:
    refused = private_embed(await world.upload(world.alice, "a.py", b"import numpy\n" + ROLL_4))

    fixed = private_embed(await world.upload(world.alice, "a.py", b"from hog import *\n" + ROLL_4))

    assert refused.title == "Not accepted"
    assert (refused.description or "").startswith(
        "The file imports numpy at line 1, which strategies cannot use"
    )
    assert (refused.description or "").endswith(" Fix it and upload again right away.")
    assert fixed.title == "Accepted: a"  # the course's hog is there


async def test_a_refusal_that_cost_real_sandbox_time_says_when_to_upload_again(world: World) -> None:
    busy = b"import time\nwhile time.process_time() < 1.2:\n    pass\n1 // 0\n"  # a second of CPU, then fails

    refused = private_embed(await world.upload(world.alice, "a.py", busy))
    again = await world.upload(world.alice, "a.py", ROLL_4)

    assert refused.title == "Not accepted" and "ZeroDivisionError" in (refused.description or "")
    ends = next_upload(refused.description or "")
    assert f"so your next one can start <t:{ends}:R>" in said(again)
    assert world.domain_errors() == [said(again)]


async def test_a_name_someone_else_uses_is_refused_before_the_download(
    world: World, downloads: list[str]
) -> None:
    await world.upload(world.alice, "mine.py", ROLL_4)

    taken = await world.upload(world.bob, "x.py", ROLL_4, name="MINE")

    assert said(taken) == "alice already has a strategy called 'mine'."
    assert len(downloads) == 1
    assert world.domain_errors() == [said(taken)]


async def test_a_game_in_another_channel_goes_on_while_a_slow_upload_is_checked(world: World) -> None:
    elsewhere = world.channel.guild.create_text_channel("hog-2")
    await world.bob.slash(elsewhere, "hog vs-bot")
    match = await world.service.open_match_in_channel(elsewhere.id, world.bob.id)
    assert match is not None

    checking = asyncio.create_task(world.upload(world.alice, "slow.py", SLOW))
    presses: list[asyncio.Task[object]] = []
    try:

        async def sandbox_at_work() -> bool:
            return any("Checking" in str(r.json) for r in world.env.http_requests)

        await until(sandbox_at_work)
        for _ in range(3):  # bob plays and the house bot answers, three times, while the sandbox works
            before = await world.match(match.id)
            (board,) = [m for m in elsewhere.history() if m.id == before.message_id]

            async def board_redrawn(shown: discord.Message = board, turn: int = before.state.turn) -> bool:
                """The house bot's move is stored before its board is drawn: press only the new board."""
                buttons = walk_components(world.rendering(shown).components)
                return any(b.get("custom_id", "").startswith(f"hog:play:{match.id}:{turn}:") for b in buttons)

            await until(board_redrawn)
            press = world.press_stale(world.bob, world.rendering(board), "Roll 1")
            presses.append(asyncio.create_task(press))

            async def answered(turn: int = before.state.turn) -> bool:
                now = await world.match(match.id)
                return now.status is not MatchStatus.ACTIVE or (now.state.turn > turn and not now.is_bot_turn)

            await until(answered)
            assert not checking.done(), "the upload was over before the game could go on: nothing shown"
    finally:
        await asyncio.gather(checking, *presses, return_exceptions=True)

    assert private_embed(checking.result()).title == "Accepted: slow"
    stored = await world.services.strategies.show(world.channel.guild.id, "slow")
    assert stored.cpu_seconds is not None and stored.cpu_seconds >= 2.0
    assert (await world.match(match.id)).state.turn >= 6


async def test_a_fourth_strategy_is_refused_before_its_download(world: World, downloads: list[str]) -> None:
    for name in ("a", "b", "c"):
        await world.upload(world.alice, f"{name}.py", ROLL_4)
        await world.advance(COOLDOWN)

    refused = await world.upload(
        world.alice, "d.py", ROLL_4, name="d"
    )  # unnamed, its TEAM_NAME could name it

    assert said(refused) == (
        "You already keep 3 Swine Align / Pig Pass strategies on this server ('a', 'b', 'c'), the most one "
        "person may: delete one, or upload under one of those names to replace it."
    )
    assert len(downloads) == 3
    assert world.domain_errors() == [said(refused)]
