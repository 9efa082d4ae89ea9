"""Which servers a bot process serves when the bot runs as several processes (issue: one per shard range).

Discord puts a server (guild) on shard `(guild_id >> 22) % shard_count`, and direct messages on shard 0;
a process's clock and house bot act only on the matches of its own shards, so two processes never close
or move the same game.
"""

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Shards:
    """The shard ids a process runs, out of `count`."""

    count: int
    ids: frozenset[int]

    def owns(self, guild_id: int | None) -> bool:
        """Whether a match of this server (None: a direct message) is this process's to tend."""
        return shard_of(guild_id, self.count) in self.ids


def shard_of(guild_id: int | None, count: int) -> int:
    """The shard Discord delivers a server's events on."""
    return 0 if guild_id is None else (guild_id >> 22) % count
