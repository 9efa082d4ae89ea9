"""Pictures as Discord attachments: rendered in a worker thread, with their alt text as description."""

import asyncio
import io
from collections.abc import Callable
from typing import ParamSpec

import discord

from bot.images import Picture

P = ParamSpec("P")


async def rendered(render: Callable[P, Picture], *args: P.args, **kwargs: P.kwargs) -> discord.File:
    """Render off the event loop; the file carries the picture's alt text as its description."""
    picture = await asyncio.to_thread(render, *args, **kwargs)
    return discord.File(io.BytesIO(picture.png), filename=picture.filename, description=picture.alt)


def shown_in(embed: discord.Embed, file: discord.File) -> discord.Embed:
    """The embed with the attached picture as its image."""
    return embed.set_image(url=f"attachment://{file.filename}")
