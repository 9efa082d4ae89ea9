"""Floor 3: Hog as a Discord Activity, the page Discord frames in a channel. An aiohttp server in the bot
process on the same game service as the boards: identity and players come from Discord's API, never from
the page; each instance's game is a match of the database, its board the channel's (docs/activity.md)."""
