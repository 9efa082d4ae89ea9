"""The bot's command groups."""
