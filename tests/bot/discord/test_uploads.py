"""`/hog upload strategy`: checked before it is downloaded, judged by the sandbox, answered privately with
the verdict: the heatmap and exact win rates, or the sandbox's own one-line reason."""

import io
import json
import re
import zipfile
from hashlib import sha256
from pathlib import Path

import aiohttp
import numpy as np
import pytest
import simcord
from PIL import Image

from bot.discord.errors import APOLOGY
from bot.domain.errors import StrategyRefused
from hogengine.errors import BadStrategy
from hogengine.rules import get_rules
from hogengine.sandbox import SandboxUnavailable
from hogengine.sandbox.entry import check_entry
from hogengine.solver import exact_winrate, solve
from hogengine.strategies import always_roll, table_from_function, table_from_json
from tests.bot.discord.conftest import GUILD_ID, UPLOAD_TIME_LIMIT
from tests.bot.discord.harness import World, modelled, picture, private_embed, said

RULES = "swine-align"
FREE = " Fix it and upload again right away."  # after every refusal here: these tests have no cooldown
ROLL_4 = b"def final_strategy(score, opponent_score):\n    return 4\n"
SCORE_MOD = b"def final_strategy(score, opponent_score):\n    return score % 11\n"


async def test_an_accepted_upload_shows_its_heatmap_and_exact_win_rates(world: World) -> None:
    result = await world.upload(world.alice, "mod.py", SCORE_MOD)

    requests = world.env.http_requests
    callback = next(r.json for r in requests if r.path.endswith("/callback"))
    assert callback == {"type": 5, "data": {"flags": 64}}  # a private "thinking…" at once
    first_edit = next(r.json for r in requests if r.method == "PATCH" and "@original" in r.path)
    # while the sandbox works, with the time it gives a file
    assert first_edit["content"] == "Checking **mod.py** in the sandbox (it has 0.5 s of CPU time)…"
    embed = private_embed(result)
    assert embed.title == "Accepted: mod"
    lines = (embed.description or "").splitlines()
    assert lines[0].startswith(
        "**mod** by alice plays Swine Align / Pig Pass: a Python file"
    )  # whose, under what rules
    assert lines[1] == "The file gives itself no name (TEAM_NAME or PLAYER_NAME)."
    table = np.fromfunction(lambda score, _: score % 11, (100, 100), dtype=int).astype(np.int8)
    opponents = {f"always_roll({n})": table_from_function(always_roll(n), RULES) for n in (4, 5, 6)}
    opponents["the perfect bot"] = solve(RULES).policy  # the very player of vs-bot level:perfect
    shown = {field.name: field.value for field in embed.fields}
    assert list(shown) == [f"vs {name}" for name in opponents]
    for name, opponent in opponents.items():
        rate = exact_winrate(RULES, table, opponent)
        # One decimal, as every percentage players see.
        assert (
            shown[f"vs {name}"] == f"**{rate.average:.1%}**\nfirst {rate.first:.1%}\nsecond {rate.second:.1%}"
        )
    assert result.response is not None
    (heatmap,) = result.response.attachments
    await picture(heatmap)
    assert heatmap.description is not None
    assert heatmap.description.startswith(
        "Heatmap of the strategy 'mod (Swine Align / Pig Pass)' over 100 by 100"
    )
    assert embed.image.url is not None and embed.image.url.endswith(heatmap.filename)
    stored = await world.services.strategies.show(GUILD_ID, "mod")
    assert stored.table is not None and np.array_equal(stored.table, table)


async def test_a_pig_fest_upload_is_measured_against_the_full_state_perfect_bot(
    world: World, solver_cache: Path
) -> None:
    # Solved into the bot's cache, and the model built, before the upload: not in the bot's settle.
    perfect = solve("pig-fest", 100, solver_cache).policy  # vs-bot level:perfect: it sees the streaks
    table = np.fromfunction(lambda score, _: score % 11, (100, 100), dtype=int).astype(np.int8)
    rate = exact_winrate("pig-fest", table, perfect)

    result = await world.upload(world.alice, "mod.py", SCORE_MOD, rules="pig-fest")

    embed = private_embed(result)
    assert embed.title == "Accepted: mod" and "plays Ham Hijinks + Pig Fest" in (embed.description or "")
    shown = {field.name: field.value for field in embed.fields}
    assert shown["vs the perfect bot"] == (
        f"**{rate.average:.1%}**\nfirst {rate.first:.1%}\nsecond {rate.second:.1%}"
    )
    assert rate.average < 0.5
    assert result.response is not None
    (heatmap,) = result.response.attachments
    await picture(heatmap)
    assert heatmap.description is not None and "'mod (Ham Hijinks + Pig Fest)'" in heatmap.description


async def test_a_json_table_is_accepted_and_an_identical_table_recognised(world: World) -> None:
    await world.upload(world.alice, "four.py", ROLL_4)
    table = table_from_function(always_roll(4), RULES)

    result = await world.upload(world.bob, "fours.json", json.dumps(table.tolist()).encode(), name="Fours")

    first_edit = [r.json for r in world.env.http_requests if r.method == "PATCH" and "@original" in r.path][
        -2
    ]
    assert first_edit["content"] == "Checking **fours.json**…"  # a table is read, never run
    text = private_embed(result).description or ""
    assert "**Fours** by bob plays Swine Align / Pig Pass: a JSON table." in text and "TEAM_NAME" not in text
    assert "identical to **four** by alice (same SHA-256)" in text


async def test_the_same_name_replaces_the_old_version_and_only_its_owner_may(world: World) -> None:
    await world.upload(world.alice, "mine.py", ROLL_4)

    replaced = await world.upload(world.alice, "other.py", SCORE_MOD, name="mine")

    embed = private_embed(replaced)
    assert embed.title == "Accepted: mine" and "It replaces your earlier version" in (embed.description or "")
    versions = await world.services.strategies.history(GUILD_ID, "mine")
    assert [(v.source_hash, v.active) for v in versions] == [
        (sha256(ROLL_4).hexdigest(), False),
        (sha256(SCORE_MOD).hexdigest(), True),
    ]


REFUSALS = {
    "syntax_error": b"def final_strategy(s, o):\n    return (\n",
    "no_final_strategy": b"def other(s, o):\n    return 4\n",
    "illegal_value": b"def final_strategy(s, o):\n    return 11\n",
    "exception": b"def final_strategy(s, o):\n    return 4 if s != 50 else 1 // 0\n",
    "too_slow": b"def final_strategy(s, o):\n    while True:\n        pass\n",
    "forbidden": b"import os\nos.fork()\n" + ROLL_4,
    "not_deterministic": b"import random\ndef final_strategy(s, o):\n    return random.randrange(11)\n",
    "wrong_signature": b"def final_strategy(score):\n    return 4\n",
    "not_utf8": b"# caf\xc3\xa9\nx = '\xff'\n" + ROLL_4,
    "too_much_memory": b"def final_strategy(s, o):\n    return len(bytearray(10**9))\n",
    "crashed": b"import os\nos._exit(0)\n",
}


def numbers_blanked(text: str) -> str:
    return re.sub(r"\d+", "#", text)


@pytest.mark.parametrize("kind", list(REFUSALS))
async def test_a_hostile_upload_gets_exactly_the_sandboxs_verdict(world: World, kind: str) -> None:
    result = await world.upload(world.alice, "bad.py", REFUSALS[kind])

    embed = private_embed(result)
    verdict = check_entry(REFUSALS[kind], get_rules("swine-align"), UPLOAD_TIME_LIMIT)
    assert verdict.kind == kind and verdict.reason is not None
    assert embed.title == "Not accepted" and embed.description is not None
    if kind == "not_deterministic":  # the values it returned are random
        assert numbers_blanked(embed.description) == numbers_blanked(verdict.reason + FREE)
    elif kind == "too_slow":  # out of CPU time: the limit, how far the file got, and the likely cause
        assert embed.description.startswith(
            "A strategy has 0.5 s of CPU time to load and answer 10,000 calls"
        )
        assert "final_strategy likely simulates games or never stops looping" in embed.description
    else:  # the sandbox's words, as a sentence, then that nothing stops a fixed file
        assert embed.description == str(StrategyRefused(verdict.reason, verdict.kind))
        assert embed.description.endswith(FREE)
    assert result.response is not None and result.response.attachments == []
    assert await world.services.strategies.active(GUILD_ID) == []


def rows_of(value: str) -> str:
    """A 100 by 100 JSON table of one value, written as given (NaN and 1e400 are not in JSON proper)."""
    row = "[" + ", ".join([value] * 100) + "]"
    return "[" + ", ".join([row] * 100) + "]"


def zipped() -> bytes:
    """A zip archive holding a fine strategy: a file of the wrong kind under a .py or .json name."""
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as files:
        files.writestr("strategy.py", ROLL_4)
    return archive.getvalue()


def png() -> bytes:
    image = io.BytesIO()
    Image.new("RGB", (8, 8)).save(image, "PNG")
    return image.getvalue()


@pytest.mark.parametrize("data", [zipped(), png()], ids=["zip", "png"])
async def test_an_archive_or_image_named_py_gets_the_sandboxs_verdict(world: World, data: bytes) -> None:
    result = await world.upload(world.alice, "strategy.py", data)

    verdict = check_entry(data, get_rules("swine-align"), UPLOAD_TIME_LIMIT)
    assert (private_embed(result).title, private_embed(result).description) == (
        "Not accepted",
        f"{verdict.reason}{FREE}",
    )
    assert verdict.kind == "not_utf8"
    named_json = private_embed(await world.upload(world.alice, "strategy.json", data))
    assert (named_json.title, named_json.description) == (
        "Not accepted",
        f"The file is not valid UTF-8.{FREE}",
    )
    assert await world.services.strategies.active(GUILD_ID) == []


@pytest.mark.parametrize(
    "text",
    [
        '{"rows": []}',
        "[1, 2",
        json.dumps([[4] * 100] * 99 + [[4] * 99 + [12]]),
        json.dumps([[4] * 100] * 99 + [[4] * 101]),
        rows_of("NaN"),
        rows_of("1e400"),
        rows_of("4.5"),
        rows_of("4.0"),
        rows_of("true"),
        rows_of('"4"'),
        rows_of("1" + "0" * 30),
    ],
    ids=[
        "not_a_list_of_rows",
        "not_json",
        "illegal_choice",
        "ragged",
        "nan",
        "infinite",
        "fraction",
        "float",
        "boolean",
        "string",
        "huge",
    ],
)
async def test_a_bad_json_table_gets_exactly_the_checkers_reason(world: World, text: str) -> None:
    result = await world.upload(world.alice, "table.json", text.encode())

    with pytest.raises(BadStrategy) as expected:
        table_from_json(text, get_rules(RULES))
    embed = private_embed(result)
    assert (embed.title, embed.description) == ("Not accepted", f"{expected.value}{FREE}")
    assert await world.services.strategies.active(GUILD_ID) == []


@pytest.mark.parametrize(
    ("filename", "size", "words"),
    [("big.py", 1_000_001, "The file is larger than 1 MB."), ("notes.txt", 10, "Upload a Python file (.py)")],
)
async def test_size_and_type_are_refused_before_anything_is_downloaded(
    world: World, downloads: list[str], filename: str, size: int, words: str
) -> None:
    refused = await world.upload(world.alice, filename, b"#" * size)

    assert said(refused).startswith(words)
    assert downloads == []
    assert world.domain_errors() == [said(refused)]
    await world.upload(world.alice, "four.py", ROLL_4)
    assert len(downloads) == 1  # an acceptable file is downloaded once


async def test_without_a_safe_sandbox_python_uploads_are_refused_clearly(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    def unavailable(*args: object) -> None:
        raise SandboxUnavailable("seccomp is not available")

    monkeypatch.setattr("bot.services.strategies.service.check_entry", unavailable)

    python = private_embed(await world.upload(world.alice, "four.py", ROLL_4))
    table = private_embed(
        await world.upload(world.alice, "four.json", json.dumps([[4] * 100] * 100).encode())
    )

    assert python.description == (
        "Python uploads are switched off on this host (no safe sandbox): upload a JSON table instead."
    )
    assert table.title == "Accepted: four"


async def test_a_failed_download_turns_checking_into_an_apology(
    world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async def gone(url: str) -> bytes:
        raise aiohttp.ClientConnectionError("connection lost")

    monkeypatch.setattr(world.bot.http, "get_from_cdn", gone)

    result = await world.upload(world.alice, "four.py", ROLL_4)

    assert result.response is not None
    assert (result.response.content, result.response.embeds) == (APOLOGY, [])  # "Checking…" is gone
    assert result.followups == []
    assert [r.getMessage() for r in caplog.get_records("call") if r.levelname == "ERROR"] == [
        "interaction failed"
    ]
    caplog.clear()
    monkeypatch.undo()  # the download works again, and nothing held the upload back
    assert private_embed(await world.upload(world.alice, "four.py", ROLL_4)).title == "Accepted: four"


@pytest.mark.parametrize("name", ["   ", "\u200b\u2800"])
async def test_names_with_nothing_to_read_are_refused_before_the_download(
    world: World, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    async def never(url: str) -> bytes:
        raise AssertionError("downloaded")

    monkeypatch.setattr(world.bot.http, "get_from_cdn", never)

    refused = await world.upload(world.alice, "four.py", ROLL_4, name=name)

    assert said(refused) == "A strategy name is one line of 1 to 32 characters, with something to read in it."
    assert world.domain_errors() == [said(refused)]


async def test_names_are_kept_as_written_and_shown_without_markup_or_pings(world: World) -> None:
    marked = private_embed(await world.upload(world.alice, "four.py", ROLL_4, name="**Al's** `pig` 🐷"))
    assert marked.title == "Accepted: \\*\\*Al's\\*\\* \\`pig\\` 🐷"
    pinging = f"@here <@{world.bob.id}>"
    named = private_embed(await world.upload(world.bob, "five.py", ROLL_4, name=pinging))
    assert named.title == f"Accepted: @\u200bhere <@\u200b{world.bob.id}>"
    listed = private_embed(await world.alice.slash(world.channel, "hog strategies"))
    assert "**\\*\\*Al's\\*\\* \\`pig\\` 🐷**" in (listed.description or "")
    assert f"**@\u200bhere <@\u200b{world.bob.id}>**" in (listed.description or "")


async def test_names_longer_than_allowed_are_refused_by_discord(world: World) -> None:
    with pytest.raises(simcord.OptionError, match="at most 32 characters"):
        await world.upload(world.alice, "four.py", ROLL_4, name="x" * 33)


@pytest.mark.parametrize(
    ("command", "options"),
    [("hog upload strategy", {"file": ("four.py", ROLL_4)}), ("hog tournament", {}), ("hog leaderboard", {})],
)
async def test_unknown_rules_are_refused_by_discord(
    world: World, command: str, options: dict[str, object]
) -> None:
    with pytest.raises(simcord.OptionError, match=r"'rules' .* only allows"):
        await world.mod.slash(world.channel, command, rules="bogus", **options)


@pytest.fixture
def undumpable(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Records the bot's call of make_undumpable (set up before the bot starts)."""
    calls: list[str] = []
    monkeypatch.setattr("bot.discord.client.make_undumpable", lambda: calls.append("called"))
    return calls


async def test_the_bot_makes_itself_undumpable_at_start(undumpable: list[str], world: World) -> None:
    assert undumpable == ["called"]  # no process of the same user may read its memory (the token)


async def test_a_team_name_names_the_upload_and_is_shown_without_markup(world: World) -> None:
    bacon = private_embed(await world.upload(world.alice, "bacon.py", b"TEAM_NAME = 'Bacon Bits'\n" + ROLL_4))
    assert bacon.title == "Accepted: Bacon Bits"
    assert "TEAM_NAME: **Bacon Bits**." in (bacon.description or "")
    hostile = b"TEAM_NAME = '**Pigs** @everyone __x__'\n" + ROLL_4
    shown = private_embed(await world.upload(world.bob, "pigs.py", hostile, name="pigs"))
    assert "TEAM_NAME: **\\*\\*Pigs\\*\\* @\u200beveryone \\_\\_x\\_\\_**." in (shown.description or "")
    refused = private_embed(await world.upload(world.carol, "three.py", b"TEAM_NAME = 3\n" + ROLL_4))
    assert (refused.title, refused.description) == (
        "Not accepted",
        f"TEAM_NAME must be one line of 1 to 80 characters, not 3.{FREE}",
    )


async def test_a_random_strategy_is_accepted_under_pig_fest_only(world: World) -> None:
    dice = b"import random\ndef final_strategy(score, opponent):\n    return random.choice([3, 4, 5])\n"
    modelled("pig-fest")
    accepted = private_embed(await world.upload(world.alice, "dice.py", dice, rules="pig-fest"))
    assert accepted.title == "Accepted: dice"
    assert "It answers at random: 9 tables of it were recorded" in (accepted.description or "")
    refused = private_embed(await world.upload(world.bob, "chance.py", dice, rules="pork-chop"))
    assert refused.title == "Not accepted" and (refused.description or "").endswith(
        "Under Pork Chop a strategy must be deterministic; only Ham Hijinks + Pig Fest takes random "
        f"strategies.{FREE}"
    )
