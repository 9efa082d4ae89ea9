"""Floor 3: the Discord adapter. Discord types stay inside this package."""

from bot.discord.client import DiscordUnreachableError, HogBot, TokenRejectedError, serve

__all__ = ["DiscordUnreachableError", "HogBot", "TokenRejectedError", "serve"]
