"""Floor 3: the Discord adapter. Discord types stay inside this package."""

from bot.discord.client import HogBot, TokenRejectedError, serve

__all__ = ["HogBot", "TokenRejectedError", "serve"]
