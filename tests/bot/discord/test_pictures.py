"""Every picture is rendered in a worker thread, never on the event loop: a slow render must not hold up
the games and presses the loop serves meanwhile."""

import importlib
import json
import threading
from collections.abc import Callable
from typing import Any

import pytest

from tests.bot.discord.harness import World, picture, private

RENDERERS = (
    "bot.discord.pictures.strategy_heatmap",
    "bot.discord.commands.records.results_matrix",
    "bot.discord.sharing.rating_history_chart",
    "bot.discord.sharing.win_probability_chart",
)


def watched(render: Callable[..., Any], threads: list[threading.Thread]) -> Callable[..., Any]:
    """The renderer, noting the thread each call runs in."""

    def run(*args: Any, **kwargs: Any) -> Any:
        threads.append(threading.current_thread())
        return render(*args, **kwargs)

    return run


async def test_every_picture_is_rendered_off_the_event_loop(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: dict[str, list[threading.Thread]] = {path: [] for path in RENDERERS}
    for path in RENDERERS:
        module, name = path.rsplit(".", 1)
        monkeypatch.setattr(path, watched(getattr(importlib.import_module(module), name), threads[path]))
    loop = threading.current_thread()  # the bot runs on the test's event loop

    for person, dice in ((world.alice, 4), (world.bob, 6)):
        await world.upload(person, f"roll{dice}.json", json.dumps([[dice] * 100] * 100).encode())
    tournament = await world.mod.slash(world.channel, "hog tournament")
    match = await world.challenge()
    await world.alice.click(await world.board(match.id), label="Roll 1")
    await world.bob.click(await world.board(match.id), label="Roll 1")
    await world.bob.slash(world.channel, "hog forfeit")  # a rated game: alice's stats get a chart
    stats = await world.carol.slash(world.channel, "hog stats", user=world.alice)
    analysis = await world.carol.slash(world.channel, "hog analyze", match=match.id)

    assert tournament.response is not None and tournament.response.attachments
    assert private(stats).attachments and private(analysis).attachments
    assert {path: len(seen) for path, seen in threads.items()} == {
        RENDERERS[0]: 2,
        RENDERERS[1]: 1,
        RENDERERS[2]: 1,
        RENDERERS[3]: 1,
    }
    assert all(thread is not loop for seen in threads.values() for thread in seen)


async def test_a_name_matplotlib_would_read_as_tex_still_gets_its_pictures(world: World) -> None:
    tex = world.channel.guild.add_member(world.env.create_user("$\\frac$"))  # mathtext cannot parse it
    for person, dice in ((tex, 4), (world.bob, 6)):
        await world.upload(person, f"roll{dice}.json", json.dumps([[dice] * 100] * 100).encode())
    match = await world.beat(tex, world.bob)

    tournament = await world.mod.slash(world.channel, "hog tournament")  # tex's name in the standings
    stats = await world.bob.slash(world.channel, "hog stats", user=tex)  # in the rating chart's title
    analysis = await world.bob.slash(world.channel, "hog analyze", match=match.id)  # in the legend

    assert tournament.response is not None
    for attachments in (
        tournament.response.attachments,
        private(stats).attachments,
        private(analysis).attachments,
    ):
        (attached,) = attachments
        await picture(attached)
