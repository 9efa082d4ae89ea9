"""`/hog upload strategy` takes a student's own hog.py of every semester as the course hands it out
(tests/course.py): accepted unchanged under its rule set, named as the file names itself, and stored with
the table it gives natively beside the course's own dice.py and ucb.py."""

from pathlib import Path

import numpy as np
import pytest

from bot.config import Settings
from bot.discord.text import shown_name
from hogengine.rules import get_rules
from tests.bot.discord.conftest import GUILD_ID
from tests.bot.discord.harness import World, modelled, private_embed
from tests.course import COURSE_FILES, CourseFile, native_table


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """The bot's default time for a file: some course files play games when they load."""
    return settings.model_copy(update={"upload_time_limit_seconds": 10.0})


@pytest.fixture(autouse=True)
def ready(course_file: CourseFile) -> None:
    """The solver's model of the rule set, made before the bot needs it (see `modelled`)."""
    modelled(course_file.rules)


@pytest.mark.parametrize("course_file", COURSE_FILES, ids=[each.name for each in COURSE_FILES])
async def test_a_course_file_is_accepted_unchanged_and_stored_with_its_native_table(
    world: World, course_file: CourseFile, tmp_path: Path
) -> None:
    result = await world.upload(world.alice, course_file.name, course_file.source, rules=course_file.rules)

    embed = private_embed(result)
    name = course_file.team_name or course_file.name.removesuffix(".py")
    assert embed.title == f"Accepted: {shown_name(name)}"
    assert f"plays {get_rules(course_file.rules).name}: a Python file" in (embed.description or "")
    stored = await world.services.strategies.show(GUILD_ID, name)
    assert stored.team_name == course_file.team_name  # exactly as written: apostrophes, accents, emoji
    assert stored.table is not None
    native = native_table(tmp_path, course_file.source, course_file.hog)
    assert np.array_equal(stored.table, np.array(native, dtype=np.int8))
