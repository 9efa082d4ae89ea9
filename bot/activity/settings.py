"""What the Activity server is opened with: plain values that bot/config.py fills from its settings."""

from dataclasses import dataclass, field

# Where Discord's clients frame an Activity: its web and desktop clients (and their test builds). A phone's
# client shows the page in a view of its own (docs/activity.md has the check to make on a phone).
DISCORD_CLIENTS = (
    "https://discord.com",
    "https://*.discord.com",
    "https://discordapp.com",
    "https://*.discordapp.com",
)


@dataclass(frozen=True, slots=True)
class ActivitySettings:
    """The application the Activity signs people in for, where its server listens, whom it answers (the
    page's origin, the Host names it is reached by) and who may frame it, and how long a sign-in lasts."""

    client_id: int
    client_secret: str = field(repr=False)
    host: str
    port: int
    origins: tuple[str, ...]  # Origin values of requests that are the page's own
    hosts: tuple[str, ...] | None  # Host values accepted; None: any (the proxy in front names it)
    frame_ancestors: tuple[str, ...]  # CSP frame-ancestors sources: who may show the page in a frame
    token_seconds: float

    @classmethod
    def of(
        cls,
        *,
        client_id: int,
        client_secret: str,
        host: str,
        port: int,
        origins: tuple[str, ...] | None,
        hosts: tuple[str, ...] | None,
        frame_ancestors: tuple[str, ...] | None,
        token_seconds: float,
    ) -> "ActivitySettings":
        """The settings with their defaults: the page's origin is Discord's for this application
        (https://<client id>.discordsays.com), and Discord's clients may frame it."""
        return cls(
            client_id,
            client_secret,
            host,
            port,
            origins or (f"https://{client_id}.discordsays.com",),
            hosts or None,
            frame_ancestors or DISCORD_CLIENTS,
            token_seconds,
        )
