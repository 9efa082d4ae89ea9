"""Pictures as Discord attachments: rendered in a worker thread, with their alt text as description."""

import asyncio
import io
from collections.abc import Callable
from typing import ParamSpec

import discord

from bot.images import Picture, strategy_heatmap
from bot.services import StoredStrategy, choice_labels
from hogengine.rules import get_rules

P = ParamSpec("P")


async def rendered(render: Callable[P, Picture], *args: P.args, **kwargs: P.kwargs) -> discord.File:
    """Render off the event loop; the file carries the picture's alt text as its description."""
    picture = await asyncio.to_thread(render, *args, **kwargs)
    return discord.File(io.BytesIO(picture.png), filename=picture.filename, description=picture.alt)


def shown_in(embed: discord.Embed, file: discord.File) -> discord.Embed:
    """The embed with the attached picture as its image."""
    return embed.set_image(url=f"attachment://{file.filename}")


async def heatmap(strategy: StoredStrategy) -> discord.File:
    """The strategy's 10,000 choices as a picture (rendered off the event loop)."""
    if strategy.table is None:
        raise ValueError("the strategy was read without its table")
    title = f"{strategy.name} ({get_rules(strategy.rules).name})"
    return await rendered(strategy_heatmap, strategy.table.tolist(), title, choice_labels(strategy.rules))
