"""Discord Activity instances as the services know them: where one runs and who is in it (Discord's word),
and the table it shows (the game its people play or watch, or someone waiting there for a friend)."""

from dataclasses import dataclass

from bot.domain.matches import Match, Player


@dataclass(frozen=True, slots=True)
class Instance:
    """A running Activity as Discord's API describes it: its id, its server and channel, who is in it."""

    id: str
    guild_id: int | None  # None: a direct message, where Hog is not played
    channel_id: int
    users: frozenset[int]


@dataclass(frozen=True, slots=True)
class Table:
    """An Activity instance as stored: where it runs, the game it shows (its latest, open or not), and the
    person waiting there for a friend with the rule set and goal they chose. `version` grows with every
    change of the table (not of its game)."""

    instance_id: str
    guild_id: int
    channel_id: int
    match: Match | None
    host: Player | None
    rules: str | None
    goal: int | None
    version: int

    @property
    def playing(self) -> bool:
        """Whether a game is on (or waits for an answer) at this table: no other can start here meanwhile."""
        return self.match is not None and self.match.status.is_open
