"""Floor 3: the Discord adapter. Discord types stay inside this package."""

from bot.discord.client import HEARTBEAT, HogBot, TokenRejectedError, serve

__all__ = ["HEARTBEAT", "HogBot", "TokenRejectedError", "serve"]
